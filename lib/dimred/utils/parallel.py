"""Repeated experiments through joblib, with a progress bar, locally or on a dask cluster.

Every repeated experiment of the compendium (the sweeps over seeds, draws, users,
cells) goes through :func:`run_tasks`. Each task is a pure function of its arguments,
seeded from them, and the results come back in the order of the tasks, so where the
tasks run does not change a table. With no cluster the tasks run in local joblib
workers. A dask cluster is given either by the environment variable ``DASK_SCHEDULER``
(``make figures DASK_SCHEDULER=tcp://host:8786``: the notebooks' kernels inherit it) or
by :func:`use_scheduler` (in a notebook or a script); from then on :func:`run_tasks`
sends the tasks there through joblib's ``dask`` backend (each cluster worker runs one
task at a time per thread it has).
"""

import contextlib
import math
import os
from numbers import Real

from joblib import Parallel, delayed, parallel_config
from tqdm.auto import tqdm

__all__ = ["SCHEDULER_VARIABLE", "run_tasks", "scheduler_client", "use_scheduler"]

#: Environment variable naming the dask scheduler of the sweeps (unset or empty: local).
SCHEDULER_VARIABLE = "DASK_SCHEDULER"
#: The ``distributed.Client`` the tasks go to (None: local joblib workers), and whether
#: :func:`use_scheduler` opened it (and so closes it).
_CLIENT, _OWNED = None, False


def use_scheduler(address):
    """Send every later :func:`run_tasks` to the dask scheduler at ``address``.

    Parameters
    ----------
    address : str, distributed.Client, distributed.LocalCluster or None
        ``"tcp://host:8786"``, a client or a cluster; None or ``""``: back to local
        workers (closing a client this function opened), unless ``DASK_SCHEDULER`` is
        set, which the next :func:`run_tasks` then connects to.

    Returns
    -------
    distributed.Client or None
        The client in use.
    """
    global _CLIENT, _OWNED
    if _CLIENT is not None and _OWNED:
        _CLIENT.close()
    _CLIENT, _OWNED = None, False
    if not address:
        return None
    from distributed import Client

    if isinstance(address, Client):
        _CLIENT = address
    else:
        _CLIENT, _OWNED = Client(address, set_as_default=False), True
    return _CLIENT


def scheduler_client():
    """The client the tasks go to: :func:`use_scheduler`'s, else one connected to
    ``$DASK_SCHEDULER`` at the first call; None: local workers."""
    address = os.environ.get(SCHEDULER_VARIABLE)
    if _CLIENT is None and address:
        use_scheduler(address)
    return _CLIENT


def _backend(client):
    """joblib's dask backend on ``client``, or joblib's default (None)."""
    if client is None:
        return contextlib.nullcontext()
    return parallel_config(backend="dask", client=client)


def run_tasks(function, tasks, desc, n_jobs, progress=True, costs=None):
    """``[function(*task) for task in tasks]`` through joblib, with a progress bar.

    On a dask cluster when one is given (:func:`scheduler_client`; ``n_jobs`` is
    then the cluster's), else in ``n_jobs`` local workers. With ``costs`` the tasks
    are sent out the costliest first (equal costs in task order), so that the workers
    end together instead of one waiting for another's last large task; the results
    still come back in the order of ``tasks``.

    Parameters
    ----------
    function : callable
    tasks : list of tuple
        Positional arguments of each call.
    desc : str
        Label of the progress bar.
    n_jobs : int or None
        Local joblib workers.
    progress : bool, default=True
        Show the progress bar.
    costs : sequence of float, optional
        Expected relative cost of each task (any increasing measure of its work): one
        finite number per task.

    Returns
    -------
    list
        Results in the order of ``tasks``.

    Raises
    ------
    ValueError
        If ``costs`` has fewer or more entries than ``tasks``, or an entry that is not
        a finite number.
    """
    tasks, client = list(tasks), scheduler_client()
    order = list(range(len(tasks)))
    if costs is not None:
        costs = _checked_costs(costs, len(tasks))
        order.sort(key=lambda i: -costs[i])  # stable
    with _backend(client):
        results = Parallel(n_jobs=n_jobs if client is None else -1, return_as="generator")(
            delayed(function)(*tasks[i]) for i in order
        )
        done = dict(zip(order, tqdm(results, desc, len(tasks), disable=not progress), strict=True))
    return [done[i] for i in range(len(tasks))]


def _checked_costs(costs, n_tasks):
    """``costs`` as a list, one finite number per task, else a ``ValueError`` saying why."""
    costs = list(costs)
    if len(costs) < n_tasks:
        raise ValueError(
            f"run_tasks: {len(costs)} costs for {n_tasks} tasks; the last "
            f"{n_tasks - len(costs)} tasks have no cost (one cost per task is needed)."
        )
    if len(costs) > n_tasks:
        raise ValueError(
            f"run_tasks: {len(costs)} costs for {n_tasks} tasks; the last "
            f"{len(costs) - n_tasks} costs belong to no task (one cost per task is needed)."
        )
    for i, cost in enumerate(costs):
        if isinstance(cost, bool) or not isinstance(cost, Real) or not math.isfinite(cost):
            raise ValueError(
                f"run_tasks: the cost of task {i} is {cost!r}; costs must be finite numbers."
            )
    return costs
