"""Repeated experiments through joblib, with a progress bar."""

from joblib import Parallel, delayed
from tqdm.auto import tqdm

__all__ = ["run_tasks"]


def run_tasks(function, tasks, desc, n_jobs, progress=True):
    """``[function(*task) for task in tasks]`` through joblib, with a progress bar.

    Any joblib backend applies (e.g. a dask cluster through
    ``joblib.parallel_config``), so sweeps scale out without code changes.

    Parameters
    ----------
    function : callable
    tasks : list of tuple
        Positional arguments of each call.
    desc : str
        Label of the progress bar.
    n_jobs : int or None
        joblib workers.
    progress : bool, default=True
        Show the progress bar.

    Returns
    -------
    list
        Results in the order of ``tasks``.
    """
    results = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(function)(*task) for task in tasks
    )
    return list(tqdm(results, desc, total=len(tasks), disable=not progress))
