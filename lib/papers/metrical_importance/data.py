"""Data and inputs of the metrical-importance paper (Denisiuk), Section 4.

Three UCI datasets with mixed features (:data:`DATASETS`), their features numbered as
the paper numbers them (:func:`load`); the parameters of a run (:class:`Params`,
:func:`params`); the five importances of every dataset (metrical "pca", random-forest
"rf", "sd", "gini" and "shapley": :func:`importances`, per seed
:func:`importances_by_seed`), from which the discard orders of Tables 1-3
(:mod:`.orders`), the F1 discard curves of Figs. 3, 5, 7 (:mod:`.curves`), the claims
(:mod:`.claims`) and Remark 2's comparison (:mod:`.scaling`) are made; and the rows of
``reproduction.csv`` for the dataset sizes of Section 4 (:func:`dataset_rows`).

Feature numbering
-----------------
The paper "rearranged [features]: continuous features are the first, and
categorical features are placed at the end". Keeping the source order inside
each group reproduces the "pca" rows of Tables 1 (Australian) and 2 (Bank)
exactly. For Heart it does not: the "pca" row is reproduced only if the eight
categorical features are numbered 6-13 in the order of
:data:`HEART_PAPER_CATEGORICAL`. That numbering was inferred from the "pca"
row (:func:`~.orders.infer_numbering`); it is confirmed independently by the random-
forest rows (their rank agreement with ours rises, see the notebook) and by the
text ("the 6th feature was marked as very important for all the algorithms":
``thal``; feature 8, least important for the forest: fasting blood sugar).

Which data, and our own findings
--------------------------------
Every table and row names its dataset (:data:`DATA`). What the compendium
states about its own measurements is returned as findings (:mod:`.findings`):
those that depend on the forests' seeds are measured over every seed of
:attr:`Params.seeds` (at least :data:`~compendium.reporting.MIN_DRAWS` in
the full run).
"""

from dataclasses import dataclass, field, replace
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval

from compendium.published import source
from compendium.reporting import MIN_DRAWS, reproduction_row
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.importance import MetricalImportance, forest_importances
from dimred.utils.parallel import available_cores, resolve_n_jobs, run_tasks

__all__ = [
    "DATA",
    "DATASETS",
    "HEART_PAPER_CATEGORICAL",
    "ORDERS",
    "PAPER",
    "PaperData",
    "Params",
    "dataset_rows",
    "importances",
    "importances_by_seed",
    "load",
    "load_data",
    "load_numberings",
    "params",
]

#: Folder of the paper under ``data/published`` and ``figures``.
PAPER = "metrical_importance"

#: Dataset name -> loader.
DATASETS = {
    "australian": datasets.load_statlog_australian,
    "bank": datasets.load_bank_marketing,
    "heart": datasets.load_statlog_heart,
}

#: Which data each dataset is (the ``data`` column of every table and row).
DATA = {
    "australian": "real (UCI Statlog Australian Credit Approval)",
    "bank": "real (UCI Bank Marketing, bank.csv)",
    "heart": "real (UCI Statlog Heart)",
}
#: The three datasets together.
ALL_DATA = "real (UCI Statlog Australian Credit Approval, Bank Marketing, Statlog Heart)"

#: Importances in the row order of Tables 1-3.
ORDERS = ("pca", "rf", "sd", "gini", "shapley")
#: The random-forest based importances.
FORESTS = ORDERS[1:]

#: Share of the rows held out for the discard curves (the paper's 80/20 split).
TEST_SIZE = 0.2

#: Heart's categorical features in the paper's numbering (features 6..13).
HEART_PAPER_CATEGORICAL = (
    "thal",
    "resting_ecg",
    "fasting_blood_sugar",
    "exercise_angina",
    "sex",
    "slope",
    "major_vessels",
    "chest_pain",
)

NUMBERINGS = ("original", "continuous_first", "paper")


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set (tests, ``make figures QUICK=1``).
    seed : int
        Seeds the forests, their permutations, SHAP's row sample, the 80/20
        split and the classifiers' runs; seed ``seed + k`` gives the ``k``-th
        set of random importances.
    n_jobs : int
        Local workers of the sweeps (default: every available core).
    n_estimators : int
        Trees of the importance forest (R ``randomForest``'s default 500).
    shap_rows : int or None
        Rows explained by SHAP (``None``: all).
    n_rf_runs : int
        Random-forest runs averaged per curve point (the paper's 100).
    n_seeds : int
        Sets of random importances compared with the paper's rows (and over
        which every finding involving the forests is measured).
    curve_orders : tuple of str
        Importances whose orders (and reverses) get discard curves.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    n_estimators: int = 500
    shap_rows: int | None = 1000
    n_rf_runs: int = 100
    n_seeds: int = MIN_DRAWS
    curve_orders: tuple = ORDERS

    @property
    def seeds(self):
        """The seeds of the random importances."""
        return tuple(self.seed + k for k in range(self.n_seeds))


@validates_run_settings(n_rf_runs=[Interval(Integral, 1, None, closed="left"), None])
def params(quick=False, *, seed=0, n_jobs=None, n_rf_runs=None):
    """The full (paper) or quick parameter set; ``n_rf_runs`` overrides the runs per point.

    The full set computes the random importances for ten seeds
    (:data:`~compendium.reporting.MIN_DRAWS`). The quick set (small
    forests, one random-forest run per point, two seeds, curves of the "pca"
    and "rf" orders only) runs the whole notebook in well under a minute; its
    findings say that they rest on fewer seeds.
    """
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        chosen = Params(True, seed, n_jobs, 100, 100, 1, 2, ("pca", "rf"))
    else:
        chosen = Params(False, seed, n_jobs)
    return replace(chosen, n_rf_runs=n_rf_runs) if n_rf_runs else chosen


@dataclass
class PaperData:
    """A dataset with its features in one numbering (column ``k`` = feature ``k+1``).

    Attributes
    ----------
    name : str
    X : DataFrame
        Features; categorical columns are ``category``.
    y : ndarray
    categorical : ndarray of bool
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    categorical: np.ndarray

    @property
    def feature_names(self):
        return list(self.X.columns)

    def codes(self):
        """Numeric matrix with categorical features as level codes (for forests)."""
        return np.column_stack(
            [
                self.X[c].cat.codes.to_numpy() if is_cat else self.X[c].to_numpy()
                for c, is_cat in zip(self.X.columns, self.categorical, strict=True)
            ]
        ).astype(float)


def column_order(name, bunch, numbering="paper"):
    """Feature names of a dataset in one of :data:`NUMBERINGS`.

    ``original``: the source's order; ``continuous_first``: continuous then
    categorical, source order within each group (the paper's stated
    rearrangement); ``paper``: ``continuous_first``, but Heart's categorical
    features in :data:`HEART_PAPER_CATEGORICAL` order.
    """
    if numbering not in NUMBERINGS:
        raise ValueError(f"numbering must be one of {NUMBERINGS}; got {numbering!r}.")
    names = np.asarray(bunch.feature_names)
    if numbering == "original":
        return list(names)
    continuous, categorical = names[~bunch.categorical], names[bunch.categorical]
    if numbering == "paper" and name == "heart":
        categorical = np.asarray(HEART_PAPER_CATEGORICAL)
    return list(continuous) + list(categorical)


def load(name, numbering="paper"):
    """Load one of :data:`DATASETS` with its features in ``numbering``.

    Returns
    -------
    PaperData
    """
    bunch = DATASETS[name]()
    order = column_order(name, bunch, numbering)
    categorical = np.array([bunch.categorical[bunch.feature_names.index(c)] for c in order])
    return PaperData(name, bunch.frame[order], bunch.target, categorical)


def load_data(numbering="paper"):
    """Every dataset of :data:`DATASETS` in one numbering: ``{name: PaperData}``."""
    return {name: load(name, numbering) for name in DATASETS}


def load_numberings():
    """Every dataset in every numbering: ``{numbering: {name: PaperData}}``."""
    return {numbering: load_data(numbering) for numbering in NUMBERINGS}


def metrical(data, **params):
    """:class:`~dimred.MetricalImportance` fitted on a dataset."""
    return MetricalImportance(categorical_features=data.categorical, **params).fit(data.X, data.y)


def importances(data, seed=0, n_estimators=500, shap_rows=None, n_jobs=None):
    """The five importances of one dataset, each scaled to sum to 100 %.

    Parameters
    ----------
    data : PaperData
    seed : int
        Seeds the forest, its permutations and the SHAP row sample.
    n_estimators : int
        Trees of the importance forest (R's default 500).
    shap_rows : int or None
        Rows explained by SHAP (all when ``None``).
    n_jobs : int or None

    Returns
    -------
    DataFrame
        Index: feature number (1..n); columns :data:`ORDERS`.
    """
    forest = forest_importances(
        data.codes(), data.y, n_estimators, seed, n_jobs=n_jobs, shap_rows=shap_rows
    )
    table = pd.concat([pd.Series(metrical(data).feature_importances_, name="pca"), forest], axis=1)
    table = 100 * table / table.sum()
    table.index = pd.RangeIndex(1, len(table) + 1, name="feature")
    return table[list(ORDERS)]


def _importances_of(data, seed, params):
    """:func:`importances` of one seed (a task of :func:`importances_by_seed`)."""
    return importances(data, seed=seed, **params)


def importances_by_seed(data, p):
    """The five importances of every dataset for each seed of ``p``: ``{name: [table, ...]}``.

    Every dataset's seeds are tasks of one joblib run (each task a function of its
    dataset and seed), the largest dataset's first (``costs``: its rows), so that the
    workers end together instead of waiting at the end of each dataset's seeds.
    """
    params = {"n_estimators": p.n_estimators, "shap_rows": p.shap_rows}
    keys = [(name, seed) for name in data for seed in p.seeds]
    tasks = [(data[name], seed, params) for name, seed in keys]
    costs = [data[name].X.shape[0] for name, _ in keys]
    tables = run_tasks(_importances_of, tasks, "importances", p.n_jobs, costs=costs)
    done = dict(zip(keys, tables, strict=True))
    return {name: [done[name, seed] for seed in p.seeds] for name in data}


def dataset_rows(name, data, facts):
    """Rows for the dataset sizes stated in Section 4 (``facts``: its row of ``datasets``).

    Counted from the downloaded files: real checks, not settings.
    """
    observed = {
        "records": len(data.y),
        "continuous": int((~data.categorical).sum()),
        "nominal": int(data.categorical.sum()),
        "classes": len(np.unique(data.y)),
    }
    return [
        reproduction_row(
            "text",
            f"{name}: {key}",
            int(facts[key]),
            value,
            "match" if value == facts[key] else "deviates",
            source=source("datasets", name),
            data=DATA[name],
        )
        for key, value in observed.items()
    ]


def _with_data(table, level="dataset"):
    """``table`` with a last column ``data`` naming the dataset of each row (:data:`DATA`)."""
    names = table.index.get_level_values(level) if level in table.index.names else table[level]
    return table.assign(data=[DATA[name] for name in names])


def _figure_numbers(published, name):
    """(table, importance figure, curve figure) numbers of a dataset in the paper."""
    facts = published["datasets"].loc[name]
    return int(facts["table"]), int(facts["importance_figure"]), int(facts["curve_figure"])
