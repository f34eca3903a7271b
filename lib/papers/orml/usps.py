"""Table 2 of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan, AAAI 2011):
USPS, every method x training size x repetition.

:func:`usps_split` draws ``per_class`` training images of every digit;
:func:`tune_usps` cross-validates each tunable method on repetition 0 of every
size and :func:`run_usps` fits every method x size x repetition through joblib;
:func:`usps_artefacts` sets Table 2 beside the paper's, with the MAE curves and
the paper's own methods against the constant baseline on its balanced digits
(:func:`balanced_median_mae`, :func:`paper_floor`).
"""

import time

import numpy as np
import pandas as pd

from compendium.reporting import Artefacts
from dimred.utils.parallel import run_tasks

from . import plots
from .findings import USPS
from .methods import (
    TENSOR_METHODS,
    TRIVIAL_METHODS,
    VECTOR_METHODS,
    _floor_note,
    evaluate,
    repetition_seed,
    search_grid,
    summarise,
    table_rows,
    tune,
)

__all__ = [
    "USPS_TABLES",
    "balanced_median_mae",
    "paper_floor",
    "run_usps",
    "tune_usps",
    "usps_artefacts",
    "usps_split",
]


def usps_split(y, per_class, repetition, seed=0):
    """``per_class`` random training images of every digit; the rest is the test set."""
    rng = np.random.default_rng([seed, per_class, repetition])
    train = np.concatenate(
        [rng.choice(np.flatnonzero(y == digit), per_class, replace=False) for digit in np.unique(y)]
    )
    test = np.setdiff1d(np.arange(len(y)), train)
    return np.sort(train), test


def _usps_task(X, y, image_shape, name, per_class, repetition, params, seed):
    train, test = usps_split(y, per_class, repetition, seed)
    own = repetition_seed(seed, per_class, repetition)
    mae = evaluate(name, X[train], y[train], X[test], y[test], params, image_shape, own)
    return {"method": name, "per_class": per_class, "repetition": repetition, "mae": mae}


def tune_usps(usps, methods, sizes, seed=0, n_jobs=1, **search_options):
    """Cross-validate each tunable method on repetition 0 of every training size.

    ``search_options`` (``c_grid``, ``cv_folds``) go to :func:`~.methods.tune`.

    Returns
    -------
    params : dict
        ``{(method, per_class): best params}``.
    searches : DataFrame (method, per_class, param, value, mae)
    """
    tasks = [(name, p) for name in methods for p in sizes if search_grid(name, usps.data)]

    def one(name, per_class):
        train, _ = usps_split(usps.target, per_class, 0, seed)
        X, y = usps.data[train], usps.target[train]
        return tune(name, X, y, usps.image_shape, seed, **search_options)

    costs = [p for _, p in tasks]  # training images per digit
    outputs = run_tasks(one, tasks, "USPS searches", n_jobs, progress=False, costs=costs)
    params = {task: best for task, (best, _) in zip(tasks, outputs, strict=True)}
    searches = [
        search.assign(method=name, per_class=p)
        for (name, p), (_, search) in zip(tasks, outputs, strict=True)
    ]
    return params, pd.concat(searches, ignore_index=True)


def run_usps(usps, methods, sizes, repetitions, params=None, seed=0, n_jobs=1):
    """Table 2's protocol: every method x training size x repetition, through joblib.

    Returns
    -------
    DataFrame (method, per_class, repetition, mae)
    """
    params = params or {}
    tasks = [(name, p, r) for p in sizes for r in range(repetitions) for name in methods]
    jobs = [
        (usps.data, usps.target, usps.image_shape, name, p, r, params.get((name, p)), seed)
        for name, p, r in tasks
    ]
    costs = [p for _, p, _ in tasks]  # training images per digit: the largest first
    return pd.DataFrame(run_tasks(_usps_task, jobs, "USPS fits", n_jobs, costs=costs))


def usps_artefacts(data, published, p):
    """Table 2: every method x training size x repetition (:func:`run_usps`).

    Returns
    -------
    Artefacts
        Tables ``table2_usps`` (published beside ours), ``table2_runs`` and
        ``table2_search``; figure ``table2_mae_curves``; the rows of every
        published cell of the sizes run; a note with the timings.
    """
    usps = data["usps"]
    methods = VECTOR_METHODS + TENSOR_METHODS + TRIVIAL_METHODS
    start = time.perf_counter()
    best, search = tune_usps(usps, methods, p.usps_sizes, p.seed, p.n_jobs, **p.search)
    tuning = time.perf_counter() - start
    start = time.perf_counter()
    runs = run_usps(usps, methods, p.usps_sizes, p.repetitions, best, p.seed, p.n_jobs)
    fitting = time.perf_counter() - start
    table2 = summarise(runs, ["per_class"])
    transcribed = published["table2_usps"]
    view = transcribed.merge(
        table2, on=["method", "per_class"], how="right", suffixes=(" paper", " ours")
    )
    shown = transcribed[transcribed["per_class"].isin(p.usps_sizes)]
    note = f"Search {tuning:.0f} s; {len(runs)} fits in {fitting:.0f} s on {p.n_jobs} workers."
    figure = plots.figure_mae_curves(shown, table2, VECTOR_METHODS + TENSOR_METHODS)
    floor = paper_floor(transcribed, balanced_median_mae(usps.target))
    return Artefacts(
        tables={
            "table2_usps": view,
            "table2_runs": runs,
            "table2_search": search,
            "table2_paper_floor": floor,
        },
        figures={"table2_mae_curves": figure},
        rows=table_rows(transcribed, table2, "table2_usps", ["per_class"]),
        notes=[note, _floor_note(table2, ["per_class"])],
        data={**dict.fromkeys(USPS_TABLES, USPS), "table2_paper_floor": "published", "rows": USPS},
    )


#: The tables of :func:`usps_artefacts` measured on our USPS.
USPS_TABLES = ("table2_usps", "table2_runs", "table2_search")


def balanced_median_mae(target):
    """MAE of always predicting the lower median rank when every rank is equally frequent.

    The paper's USPS has 1,100 images of every digit (so do its training and
    test sets); this is the constant baseline's MAE there, exactly.
    """
    ranks = np.arange(np.unique(target).size)
    median = ranks[(ranks.size - 1) // 2]
    return float(np.mean(np.abs(ranks - median)))


def paper_floor(published, floor):
    """Per training size, the paper's own methods whose MAE is below ``floor``.

    Parameters
    ----------
    published : DataFrame
        The transcribed Table 2.
    floor : float
        :func:`balanced_median_mae` of the paper's digits.

    Returns
    -------
    DataFrame
        Indexed by ``per_class``: ``median rank (paper's data)`` and the methods
        of the paper's table below it.
    """
    rows = {
        per_class: {
            "median rank (paper's data)": floor,
            "paper's methods below it": ", ".join(
                part.loc[part["mean"] < floor, "method"].sort_values()
            )
            or "none",
        }
        for per_class, part in published.groupby("per_class")
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("per_class")
