"""The methods of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan, AAAI 2011)
and what Tables 1 and 2 share: the estimators, the cross-validated hyper-parameter
searches, the test MAE and the comparison with the published ``mean ± sd`` cells.

:func:`make_method` builds every method of Table 1 (vector methods) and Table 2
(vector and tensor methods), and the trivial rankers of :data:`TRIVIAL_METHODS`;
:func:`tune` searches ``C`` (ORML, ORML/M) or KDLOR's Gaussian width by
cross-validated MAE (the paper gives no grid: :data:`C_GRID`,
:data:`GAMMA_FACTORS`); :func:`evaluate` gives the test MAE (the ranks as
consecutive integers, the paper's criterion). :func:`summarise` and
:func:`table_rows` turn the repeated runs of :mod:`.movielens` and :mod:`.usps`
into their tables and ``reproduction.csv`` rows; :func:`floor_comparison` says
which methods beat always predicting the median rank.
"""

import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
from sklearn.model_selection import GridSearchCV, KFold
from skordinal.classifiers import KDLOR

from compendium.published import source
from compendium.reporting import compare_with_error, reproduction_row
from dimred.ordinal import ORML, MultilinearORML, MultilinearRankProjection, RankProjection
from dimred.ordinal.baselines import ConstantRank

__all__ = [
    "CV_FOLDS",
    "C_GRID",
    "GAMMA_FACTORS",
    "MOVIELENS_METHODS",
    "N_NEIGHBORS",
    "TENSOR_METHODS",
    "TRIVIAL_METHODS",
    "VECTOR_METHODS",
    "evaluate",
    "floor_comparison",
    "make_method",
    "mean_absolute_error",
    "repetition_seed",
    "search_grid",
    "summarise",
    "table_rows",
    "tune",
]

#: K of every graph method in the paper.
N_NEIGHBORS = 10
#: Vector and tensor methods of Table 2, in the paper's column order (Table 1: vector only).
VECTOR_METHODS = ("ORML", "LDA", "IsoProjection", "NPE", "LPP", "KDLOR")
TENSOR_METHODS = ("ORML/M", "MLDA", "MIE", "TNPE", "TLPP")
MOVIELENS_METHODS = ("ORML", "LDA", "KDLOR", "IsoProjection", "NPE", "LPP")
#: Trivial rankers beside every table (not in the paper): the floor a method must beat.
TRIVIAL_METHODS = ("median rank", "chance")
_BASELINE = {
    "LDA": "lda",
    "IsoProjection": "isoprojection",
    "NPE": "npe",
    "LPP": "lpp",
    "MLDA": "lda",
    "MIE": "isoprojection",
    "TNPE": "npe",
    "TLPP": "lpp",
}
#: Search grids (the paper gives none): C for ORML and ORML/M, the Gaussian width of
#: KDLOR as a multiple of scikit-learn's "scale" value 1 / (d var X).
C_GRID = tuple(10.0 ** np.arange(-3, 4))
GAMMA_FACTORS = (0.125, 0.5, 1.0, 2.0, 8.0)
CV_FOLDS = 10


def make_method(name, image_shape=None, seed=0, **params):
    """An unfitted estimator for a method name of the paper's tables (or of
    :data:`TRIVIAL_METHODS`); ``seed`` seeds its random start or draws."""
    if name in TRIVIAL_METHODS:
        strategy = "median" if name == "median rank" else "uniform"
        return ConstantRank(strategy, random_state=seed)
    if name == "ORML":
        return ORML(n_neighbors=N_NEIGHBORS, **params)
    if name == "ORML/M":
        return MultilinearORML(image_shape, n_neighbors=N_NEIGHBORS, random_state=seed, **params)
    if name == "KDLOR":
        return KDLOR(**params)
    if name in TENSOR_METHODS:
        return MultilinearRankProjection(
            _BASELINE[name], image_shape, n_neighbors=N_NEIGHBORS, random_state=seed
        )
    return RankProjection(_BASELINE[name], n_neighbors=N_NEIGHBORS)


@contextmanager
def _quiet():
    """Silence the expected warnings of the repeated fits: rating levels missing from a
    training fold (UserWarning) and KDLOR's unordered-threshold RuntimeWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def mean_absolute_error(y_true, y_pred):
    """MAE with the ranks as consecutive integers (the paper's criterion)."""
    return float(np.mean(np.abs(np.asarray(y_true) - np.asarray(y_pred))))


def search_grid(name, X, c_grid=C_GRID):
    """The grid searched by cross-validation for ``name`` (empty: nothing to tune)."""
    if name in ("ORML", "ORML/M"):
        return {"C": list(c_grid)}
    if name == "KDLOR":
        scale = 1.0 / (X.shape[1] * X.var())
        return {"gamma": [factor * scale for factor in GAMMA_FACTORS]}
    return {}


def tune(name, X, y, image_shape=None, seed=0, c_grid=C_GRID, cv_folds=CV_FOLDS):
    """Hyper-parameters by ``cv_folds``-fold cross-validated MAE on the training set.

    Returns
    -------
    params : dict
        The best setting (ties: the first in grid order).
    search : DataFrame
        One row per setting: ``param``, ``value``, ``mae`` (mean over folds).
    """
    grid = search_grid(name, X, c_grid)
    if not grid:
        return {}, pd.DataFrame(columns=["param", "value", "mae"])
    folds = KFold(n_splits=min(cv_folds, len(y)), shuffle=True, random_state=seed)
    search = GridSearchCV(
        make_method(name, image_shape, seed),
        grid,
        scoring="neg_mean_absolute_error",
        cv=folds,
        error_score="raise",
    )
    with _quiet():  # folds may miss a rating level
        search.fit(X, y)
    (param,) = grid
    table = pd.DataFrame(
        {
            "param": param,
            "value": search.cv_results_[f"param_{param}"].astype(float),
            "mae": -search.cv_results_["mean_test_score"],
        }
    )
    return search.best_params_, table


def evaluate(name, X_train, y_train, X_test, y_test, params=None, image_shape=None, seed=0):
    """Test MAE of ``name`` fitted on the training split with ``params``."""
    estimator = make_method(name, image_shape, seed, **(params or {}))
    with _quiet():
        estimator.fit(X_train, y_train)
    return mean_absolute_error(y_test, estimator.predict(X_test))


def repetition_seed(seed, *keys):
    """An integer seed of its own for one repetition (``keys``: size, repetition, user...)."""
    return int(np.random.SeedSequence([seed, *map(int, keys)]).generate_state(1)[0])


def summarise(results, by):
    """MAE mean and standard deviation (ddof=1) per method and ``by``."""
    grouped = results.groupby(["method", *by], sort=False)["mae"]
    return grouped.agg(mean="mean", sd="std").reset_index()


def table_rows(published, ours, table_name, by):
    """Reproduction rows for every published cell of a ``mean +- sd`` table.

    ``published`` is the transcribed table ``table_name`` (indexed by its key).
    """
    artifact = table_name.split("_")[0]
    key = published.index.name
    merged = published.reset_index().merge(ours, on=["method", *by], suffixes=("_paper", ""))
    rows = []
    for record in merged.itertuples(index=False):
        status, difference = compare_with_error(record.mean_paper, record.sd_paper, record.mean)
        where = " ".join(f"{col}={getattr(record, col)}" for col in by)
        rows.append(
            reproduction_row(
                artifact,
                f"MAE {record.method} {where}".strip(),
                f"{record.mean_paper:.3f} ± {record.sd_paper:.3f}",
                f"{record.mean:.3f} ± {record.sd:.3f}",
                status,
                round(difference, 3),
                "tolerance: the paper's sd "
                "(within_error if |difference| <= sd(paper), else deviates)",
                source=source(table_name, getattr(record, key)),
            )
        )
    return rows


def floor_comparison(table, by):
    """The paper's methods whose mean MAE is below the median-rank baseline's.

    Parameters
    ----------
    table : DataFrame
        :func:`summarise` output with the methods of :data:`TRIVIAL_METHODS`.
    by : list of str
        Grouping columns (``["per_class"]`` for Table 2, ``[]`` for Table 1).

    Returns
    -------
    dict
        ``{group: (median-rank MAE, [methods below it])}``; the group is ``()``
        for Table 1.
    """
    groups = table.groupby(by, sort=True) if by else [((), table)]
    result = {}
    for key, part in groups:
        means = part.set_index("method")["mean"]
        floor = float(means["median rank"])
        paper = means.drop(list(TRIVIAL_METHODS))
        result[key] = (floor, sorted(paper.index[paper < floor]))
    return result


def _floor_note(table, by):
    """One line: what beats always predicting the median rank."""
    parts = [
        f"{'' if not by else f'{key[0]} per digit: '}median rank {floor:.2f}, below it: "
        f"{', '.join(below) or 'none'}"
        for key, (floor, below) in floor_comparison(table, by).items()
    ]
    return "Always predicting the median rank — " + "; ".join(parts) + "."
