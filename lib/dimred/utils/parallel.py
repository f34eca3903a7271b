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

While a :class:`SweepLog` is open (:func:`record_sweeps`), every sweep is recorded in
it: its label, its workers, its wall time, and each task's seconds and worker in the
order the tasks were sent; a scaling model replays them on other numbers of workers.
"""

import contextlib
import math
import os
import socket
import time
import weakref
from collections.abc import Iterable
from numbers import Integral, Real

from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from sklearn.utils._param_validation import Interval, validate_params
from tqdm.auto import tqdm

__all__ = [
    "SCHEDULER_VARIABLE",
    "SweepLog",
    "available_cores",
    "record_sweeps",
    "resolve_n_jobs",
    "run_tasks",
    "scheduler_client",
    "use_scheduler",
]

#: Environment variable naming the dask scheduler of the sweeps (unset or empty: local).
SCHEDULER_VARIABLE = "DASK_SCHEDULER"
#: The ``distributed.Client`` the tasks go to (None: local joblib workers), and whether
#: :func:`use_scheduler` opened it (and so closes it).
_CLIENT, _OWNED = None, False
#: The open sweep logs (:func:`record_sweeps`); a log closes when it is garbage.
_LOGS = weakref.WeakSet()


def available_cores():
    """The CPU cores this process may run on: its affinity mask where the system has
    one (a container's or ``taskset``'s limit), else every core of the machine.

    Returns
    -------
    int

    Examples
    --------
    >>> from dimred.utils.parallel import available_cores
    >>> available_cores() >= 1
    True
    """
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@validate_params(
    {"n_jobs": [Interval(Integral, 1, None, closed="left"), None]},
    prefer_skip_nested_validation=True,
)
def resolve_n_jobs(n_jobs):
    """The number of local workers ``n_jobs`` asks for: None is every available core
    (:func:`available_cores`), a positive integer itself.

    Parameters
    ----------
    n_jobs : int or None

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``n_jobs`` is neither None nor a positive integer.

    Examples
    --------
    >>> from dimred.utils.parallel import resolve_n_jobs
    >>> resolve_n_jobs(3)
    3
    """
    if n_jobs is None:
        return available_cores()
    return int(n_jobs)


class SweepLog:
    """The sweeps :func:`run_tasks` ran while this log was open.

    Attributes
    ----------
    sweeps : list of dict
        One per sweep, in order: ``sweep`` (its label), ``workers`` (local workers, or
        the cluster's worker threads), ``wall_s`` (from sending the first task to the
        last result), and ``tasks``: one dict per task in the order sent, with
        ``task`` (its index in the tasks given), ``seconds`` (the call alone) and
        ``worker`` (the process that ran it, numbered from 0 in order of appearance).

    Examples
    --------
    >>> from dimred.utils.parallel import record_sweeps, run_tasks
    >>> log = record_sweeps()
    >>> run_tasks(abs, [(-1,), (2,)], "abs", 1, progress=False)
    [1, 2]
    >>> [t["task"] for t in log.take()[0]["tasks"]]
    [0, 1]
    """

    def __init__(self):
        self.sweeps = []

    def take(self):
        """The sweeps recorded since the last call, removed from the log."""
        taken, self.sweeps = self.sweeps, []
        return taken


def record_sweeps():
    """Open a :class:`SweepLog`: every later :func:`run_tasks` is recorded in it, until
    the log is garbage-collected.

    Returns
    -------
    SweepLog
    """
    log = SweepLog()
    _LOGS.add(log)
    return log


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


@validate_params(
    {
        "function": [callable],
        "tasks": "no_validation",
        "desc": [str],
        "n_jobs": [Integral, None],
        "progress": ["boolean"],
        "costs": [Iterable, None],
    },
    prefer_skip_nested_validation=False,
)
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
    started, done, timed = time.perf_counter(), {}, []
    with _backend(client):
        results = Parallel(n_jobs=n_jobs if client is None else -1, return_as="generator")(
            delayed(_timed_call)(function, tasks[i]) for i in order
        )
        for i, (result, seconds, worker) in zip(
            order, tqdm(results, desc, len(tasks), disable=not progress), strict=True
        ):
            done[i] = result
            timed.append((i, seconds, worker))
    _record(desc, _workers(client, n_jobs), time.perf_counter() - started, timed)
    return [done[i] for i in range(len(tasks))]


def _timed_call(function, arguments):
    """``function(*arguments)``, its seconds, and the process that ran it."""
    start = time.perf_counter()
    result = function(*arguments)
    return result, time.perf_counter() - start, f"{socket.gethostname()}:{os.getpid()}"


def _workers(client, n_jobs):
    """The tasks' parallelism: the cluster's worker threads, else joblib's workers."""
    if client is None:
        return effective_n_jobs(n_jobs)
    return sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())


def _record(desc, workers, wall_s, timed):
    """Add one sweep (its tasks ``(index, seconds, process)`` in sending order) to every
    open :class:`SweepLog`."""
    if not _LOGS:
        return
    numbers = {}
    tasks = [
        {"task": i, "seconds": seconds, "worker": numbers.setdefault(worker, len(numbers))}
        for i, seconds, worker in timed
    ]
    for log in list(_LOGS):
        log.sweeps.append({"sweep": desc, "workers": workers, "wall_s": wall_s, "tasks": tasks})


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
