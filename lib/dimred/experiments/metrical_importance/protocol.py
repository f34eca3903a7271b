"""Protocol of the metrical-importance paper (Denisiuk), Section 4.

Three UCI datasets with mixed features, their features numbered as the paper
numbers them; five importances (metrical "pca", random-forest "rf", "sd",
"gini" and "shapley"); the discard orders of Tables 1-3; the F1 discard
curves of Figs. 3, 5, 7; and the rows of ``reproduction.csv``.

Feature numbering
-----------------
The paper "rearranged [features]: continuous features are the first, and
categorical features are placed at the end". Keeping the source order inside
each group reproduces the "pca" rows of Tables 1 (Australian) and 2 (Bank)
exactly. For Heart it does not: the "pca" row is reproduced only if the eight
categorical features are numbered 6-13 in the order of
:data:`HEART_PAPER_CATEGORICAL`. That numbering was inferred from the "pca"
row (:func:`infer_numbering`); it is confirmed independently by the random-
forest rows (their rank agreement with ours rises, see the notebook) and by the
text ("the 6th feature was marked as very important for all the algorithms":
``thal``; feature 8, least important for the forest: fasting blood sugar).

Which data, and our own findings
--------------------------------
Every table and row names its dataset (:data:`DATA`). What the compendium
states about its own measurements is returned as findings (:mod:`.findings`):
those that depend on the forests' seeds are measured over every seed of
:attr:`Params.seeds` (at least :data:`~dimred.compendium.reporting.MIN_DRAWS` in
the full run).
"""

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from ... import datasets
from ...compendium.published import source
from ...compendium.reporting import MIN_DRAWS, Artefacts, reproduction_row
from ...importance import MetricalImportance, forest_importances
from ...utils.parallel import run_tasks
from . import findings, plots
from .discard import CLASSIFIERS, discard_curves, reverse_name, with_reverses

__all__ = [
    "DATA",
    "DATASETS",
    "HEART_PAPER_CATEGORICAL",
    "ORDERS",
    "PAPER",
    "PaperData",
    "Params",
    "claim_artefacts",
    "curve_artefacts",
    "discard_curves_by_dataset",
    "discard_orders",
    "heart_numbering",
    "heart_numbering_check",
    "importance_artefacts",
    "importances",
    "importances_by_seed",
    "infer_numbering",
    "load",
    "load_data",
    "load_numberings",
    "order_agreement",
    "params",
    "pca_order_readings",
    "scaling_comparison",
    "setting_rows",
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
    n_jobs : int or None
        joblib workers.
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
    n_jobs: int | None = 2
    n_estimators: int = 500
    shap_rows: int | None = 1000
    n_rf_runs: int = 100
    n_seeds: int = MIN_DRAWS
    curve_orders: tuple = ORDERS

    @property
    def seeds(self):
        """The seeds of the random importances."""
        return tuple(self.seed + k for k in range(self.n_seeds))


def params(quick=False, *, seed=0, n_jobs=2, n_rf_runs=None):
    """The full (paper) or quick parameter set; ``n_rf_runs`` overrides the runs per point.

    The full set computes the random importances for ten seeds
    (:data:`~dimred.compendium.reporting.MIN_DRAWS`). The quick set (small
    forests, one random-forest run per point, two seeds, curves of the "pca"
    and "rf" orders only) runs the whole notebook in well under a minute; its
    findings say that they rest on fewer seeds.
    """
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


def discard_orders(importance_table):
    """Discard orders (least important first) as feature numbers.

    Returns
    -------
    DataFrame
        Rows: importances; columns: discard position 1..n; values: feature numbers.
    """
    orders = {
        name: importance_table.index.to_numpy()[np.argsort(column.to_numpy(), kind="stable")]
        for name, column in importance_table.items()
    }
    table = pd.DataFrame.from_dict(orders, orient="index")
    table.columns = pd.RangeIndex(1, table.shape[1] + 1)
    table.index.name = "order"
    return table


def infer_numbering(our_order, published_order, names):
    """Feature names in the paper's numbering implied by two aligned orders.

    Parameters
    ----------
    our_order : array-like of int
        Our discard order (feature numbers in our numbering).
    published_order : array-like of int
        The paper's discard order of the same importance.
    names : list of str
        Our feature names (number ``k`` is ``names[k-1]``).

    Returns
    -------
    list of str
        ``result[p-1]`` is the feature the paper numbers ``p``.
    """
    result = [None] * len(names)
    for ours, theirs in zip(our_order, published_order, strict=True):
        result[int(theirs) - 1] = names[int(ours) - 1]
    return result


def kendall_tau(order_a, order_b):
    """Kendall's tau between the feature ranks of two discard orders."""
    rank_a = np.argsort(np.asarray(order_a))
    rank_b = np.argsort(np.asarray(order_b))
    return kendalltau(rank_a, rank_b).statistic


def order_agreement(published, ours_by_seed):
    """Agreement of the paper's random orders with ours over several seeds.

    Leave-one-out: each of our runs has a mean Kendall tau with the other
    runs; the paper's row is *within error* when its mean tau with our runs
    is at least the lowest of these, i.e. the paper's order is as close to our
    runs as one of our own runs is to the rest. Needs at least two seeds.

    Parameters
    ----------
    published : DataFrame
        Published discard orders (rows: importances).
    ours_by_seed : list of DataFrame
        Our discard orders, one table per seed.

    Returns
    -------
    DataFrame
        Per importance: ``n_seeds``, ``tau_published`` (mean over seeds),
        ``tau_runs_min`` and ``tau_runs_mean`` (leave-one-out means of our
        runs), ``identical`` and ``status``.
    """
    if len(ours_by_seed) < 2:
        raise ValueError("order_agreement needs our orders for at least two seeds.")
    rows = {}
    for name in published.index:
        ours = [table.loc[name].to_numpy() for table in ours_by_seed]
        pub = published.loc[name].to_numpy()
        to_pub = np.mean([kendall_tau(pub, order) for order in ours])
        loo = [
            np.mean([kendall_tau(a, b) for j, b in enumerate(ours) if j != i])
            for i, a in enumerate(ours)
        ]
        identical = all(np.array_equal(pub, order) for order in ours)
        within = to_pub >= min(loo)
        rows[name] = {
            "n_seeds": len(ours),
            "tau_published": float(to_pub),
            "tau_runs_min": float(min(loo)),
            "tau_runs_mean": float(np.mean(loo)),
            "identical": identical,
            "status": "match" if identical else "within_error" if within else "deviates",
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def _importances_of(data, seed, params):
    """:func:`importances` of one seed (a task of :func:`importances_by_seed`)."""
    return importances(data, seed=seed, **params)


def curves(data, orders_table, n_rf_runs=100, seed=0, n_jobs=None, classifiers=CLASSIFIERS):
    """F1 discard curves for the orders of a table (rows) and their reverses.

    Returns
    -------
    DiscardCurves
    """
    orders = {name: row.to_numpy() - 1 for name, row in orders_table.iterrows()}
    return discard_curves(
        data.X,
        data.y,
        with_reverses(orders),
        data.categorical,
        classifiers=classifiers,
        n_rf_runs=n_rf_runs,
        test_size=TEST_SIZE,
        random_state=seed,
        n_jobs=n_jobs,
    )


# ----------------------------------------------------------------------------- reproduction
def table_rows(table_name, published, reproduced, agreement, numbering_note="", data=None):
    """Rows of ``reproduction.csv`` for one discard-order table.

    The "pca" row is compared position by position (it involves no
    randomness); each random-forest row by its rank agreement
    (:func:`order_agreement`). ``numbering_note`` is added to the "pca" rows
    (Heart: the numbering of the categorical features was fitted to that row).

    Parameters
    ----------
    table_name : str
        ``table<n>_discard_orders``, the transcribed table.
    data : str, optional
        Which data (:data:`DATA`).
    """
    artifact = table_name.split("_")[0]
    rows = [
        reproduction_row(
            artifact,
            f"pca order, position {position}",
            int(published.loc["pca", position]),
            int(reproduced.loc["pca", position]),
            "match"
            if published.loc["pca", position] == reproduced.loc["pca", position]
            else "deviates",
            note="deterministic: must be equal" + numbering_note,
            source=source(table_name, "pca"),
            data=data,
        )
        for position in published.columns
    ]
    for name, row in agreement.drop(index="pca").iterrows():
        rows.append(
            reproduction_row(
                artifact,
                f"{name} order, Kendall tau with ours",
                " ".join(map(str, published.loc[name])),
                round(row["tau_published"], 3),
                row["status"],
                deviation=round(1 - row["tau_published"], 3),
                note=(
                    f"mean tau over {row['n_seeds']} seeds; leave-one-out mean tau of our "
                    f"runs >= {row['tau_runs_min']:.3f} (mean {row['tau_runs_mean']:.3f})"
                ),
                source=source(table_name, name),
                data=data,
            )
        )
    return rows


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


def direct_beats_reverse(curves):
    """Per importance and classifier: mean F1 of the direct minus the reverse order."""
    summary = curves.summary()
    direct = [name for name in ORDERS if name in summary.index]
    return pd.DataFrame(
        {name: summary.loc[name] - summary.loc[reverse_name(name)] for name in direct}
    ).T


def _rank_from_top(importance_table, feature):
    """Rank of ``feature`` per importance (1 = most important)."""
    return importance_table.rank(ascending=False).loc[feature].astype(int)


def claim_rows(name, importance_tables, curves, orders_table, claims, figure):
    """Rows for the paper's verbal claims about one dataset.

    ``importance_tables`` holds one importance table per seed; a claim about
    the random-forest importances must hold for every seed. ``claims`` is the
    transcribed ``claims.csv``; ``figure`` the dataset's discard-curve figure.
    """
    first = importance_tables[0]
    rows = []
    if name == "australian":
        rows.append(_top_claim("feature11_important_all", importance_tables, 11, 3))
        rows.append(_most_important_claim("pca_most_important_14", first, 14))
    if name == "heart":
        rows.append(_top_claim("feature6_important_all", importance_tables, 6, 3))
        rows.append(
            _most_important_claim(
                "pca_most_important_8", first, 8, note="numbering fitted to Table 3's pca row"
            )
        )
    if name == "bank":
        rows.append(_least_claim(importance_tables))
        rows.append(_drop11_claim(curves, orders_table))
    gains = direct_beats_reverse(curves)
    holds = int((gains > 0).to_numpy().sum())
    rows.append(
        reproduction_row(
            figure,
            f"direct_beats_reverse: {name}, importance x classifier pairs where the direct "
            "order beats its reverse",
            gains.size,
            holds,
            "match" if holds == gains.size else "deviates",
            note="mean F1 over the discard steps, direct minus reverse; "
            f"smallest gain {gains.to_numpy().min():.3f}; random forest averaged over "
            f"{int(curves.runs['run'].max()) + 1} runs (paper: 100)",
        )
    )
    return [_with_quote(row, claims) | {"data": DATA[name]} for row in rows]


def _with_quote(row, claims):
    """Name the claim as the row's source and prefix its note with the paper's words."""
    claim = row["item"].split(":")[0]
    quote = f'paper ({claims.loc[claim, "section"]}): "{claims.loc[claim, "quote"]}"'
    note = f"{quote}; {row['note']}" if row["note"] else quote
    return row | {"note": note, "source": source("claims", claim)}


def _top_claim(claim, tables, feature, top):
    """'Feature k was marked very important by all the algorithms': in the top 3."""
    worst = max(int(_rank_from_top(t, feature).max()) for t in tables)
    return reproduction_row(
        "text",
        f"{claim}: worst rank of feature {feature} over the 5 importances and seeds",
        f"<= {top}",
        worst,
        "match" if worst <= top else "deviates",
        deviation=max(0, worst - top),
        note="'very important' read as ranked in the top 3",
    )


def _most_important_claim(claim, first, feature, note=""):
    """'The pca marked feature k as the most important'."""
    top = int(first["pca"].idxmax())
    return reproduction_row(
        "text",
        f"{claim}: most important feature by the metrical importance",
        feature,
        top,
        "match" if top == feature else "deviates",
        note=note,
    )


def _least_claim(tables):
    """Bank: 'most algorithms marked feature 11 as less important'."""
    forest = [n for n in ORDERS if n != "pca"]
    least = np.mean([[int(t[n].idxmin()) == 11 for n in forest] for t in tables])
    return reproduction_row(
        "text",
        "feature11_least_important_most: share of forest importances (x seeds) "
        "ranking feature 11 last",
        "> 0.5",
        round(float(least), 3),
        "match" if least > 0.5 else "deviates",
    )


def _drop11_claim(curves, orders_table):
    """Bank: 'dropping feature 11 in random forest caused significant loss of F1'.

    Read on the random-forest curve of the first order that discards feature
    11 first: the F1 lost at that step, run by run (the runs share seeds), is
    significant when its mean exceeds twice its standard error.
    """
    item = "drop11_hurts_rf: F1 loss of the random forest when feature 11 is dropped first"
    curved = set(curves.runs["order"])
    first11 = [
        name for name, row in orders_table.iterrows() if row.iloc[0] == 11 and name in curved
    ]
    if not first11:
        return reproduction_row(
            "fig5",
            item,
            "significant loss",
            "no order discards feature 11 first",
            "not_reproducible",
        )
    loss = curves.paired_loss(first11[0], "random_forest", 1)
    se = loss.std(ddof=1) / np.sqrt(loss.size) if loss.size > 1 else np.nan
    return reproduction_row(
        "fig5",
        item,
        "significant loss",
        round(float(loss.mean()), 4),
        "match" if loss.mean() > 2 * se else "deviates",
        note=f"{first11[0]} order; mean paired loss vs 2 x its standard error ({2 * se:.4f}) "
        f"over {loss.size} runs",
    )


def setting_rows(n_rf_runs):
    """The settings of Section 4 the discard curves restate (status ``setting``).

    Parameters
    ----------
    n_rf_runs : int
        Random-forest runs averaged per curve point in this run.
    """
    settings = [
        ("train fraction of the stratified train/test split", 0.8, 1 - TEST_SIZE, ""),
        (
            "random-forest runs averaged per curve point",
            100,
            n_rf_runs,
            "paper: 'an average result for 100 tests'; fewer runs only smooth the curves "
            "less (N_RF_RUNS)",
        ),
    ]
    return [
        reproduction_row("text", item, paper, ours, "setting", note=note, data=ALL_DATA)
        for item, paper, ours, note in settings
    ]


# ----------------------------------------------------------------------------- notebook steps
def _with_data(table, level="dataset"):
    """``table`` with a last column ``data`` naming the dataset of each row (:data:`DATA`)."""
    names = table.index.get_level_values(level) if level in table.index.names else table[level]
    return table.assign(data=[DATA[name] for name in names])


def _figure_numbers(published, name):
    """(table, importance figure, curve figure) numbers of a dataset in the paper."""
    facts = published["datasets"].loc[name]
    return int(facts["table"]), int(facts["importance_figure"]), int(facts["curve_figure"])


def pca_order_readings(variants, published):
    """Which reading of Definition 1 and which numbering reproduce the "pca" rows.

    Parameters
    ----------
    variants : dict
        :func:`load_numberings`.
    published : mapping
        :func:`dimred.compendium.published.load_published` of this paper.

    Returns
    -------
    Artefacts
        Table ``pca_order_readings``: per dataset and numbering, the positions
        of the published "pca" row reproduced by each importance reading
        (``definition``, ``weight``) out of ``n_features``; findings
        ``text_vs_tables`` and ``feature_numbering`` (deterministic counts).
    """
    readings = {}
    for name in DATASETS:
        table, _, _ = _figure_numbers(published, name)
        pub = published[f"table{table}_discard_orders"].loc["pca"].to_numpy()
        for numbering, data in variants.items():
            matching = {
                importance: int(
                    (metrical(data[name], importance=importance).discard_order_ + 1 == pub).sum()
                )
                for importance in ("definition", "weight")
            }
            readings[name, numbering] = {**matching, "n_features": len(pub)}
    table = pd.DataFrame.from_dict(readings, orient="index")
    table.index.names = ["dataset", "numbering"]
    return Artefacts(
        tables={"pca_order_readings": _with_data(table)},
        findings=[
            findings.text_vs_tables(table, ALL_DATA),
            findings.feature_numbering(table, ALL_DATA),
        ],
    )


def heart_numbering(variants, published):
    """Heart's feature numbering implied by Table 3's "pca" row (continuous first).

    Returns
    -------
    Artefacts
        Table ``heart_numbering_inferred`` and a note saying whether the
        inferred categorical block is :data:`HEART_PAPER_CATEGORICAL`.
    """
    data = variants["continuous_first"]["heart"]
    ours = metrical(data).discard_order_ + 1
    pub = published["table3_discard_orders"].loc["pca"]
    inferred = infer_numbering(ours, pub, data.feature_names)
    table = pd.DataFrame(
        {"continuous-first": data.feature_names, "inferred from Table 3": inferred},
        index=pd.RangeIndex(1, len(inferred) + 1, name="paper number"),
    )
    same = tuple(inferred[5:]) == HEART_PAPER_CATEGORICAL
    note = f"Inferred categorical block equals `HEART_PAPER_CATEGORICAL`: **{same}**."
    return Artefacts(tables={"heart_numbering_inferred": table}, notes=[note], data=DATA["heart"])


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


def _orders(imps):
    """Discard orders of every importance table: ``{name: [orders per seed]}``."""
    return {name: [discard_orders(t) for t in tables] for name, tables in imps.items()}


def importance_artefacts(data, imps, published):
    """Tables 1-3, Figs. 2, 4, 6, the rank agreement of the forest rows and their rows.

    Returns
    -------
    Artefacts
        ``table<n>_discard_orders`` and ``fig<n>_importances`` (seed ``p.seed``),
        ``order_agreement`` (every dataset and importance, over every seed); the
        rows of the dataset facts and of every cell of Tables 1-3; the finding
        ``forest_rows``.
    """
    orders = _orders(imps)
    result = Artefacts(data={})
    agreements = {}
    for name, d in data.items():
        table, importance_figure, _ = _figure_numbers(published, name)
        table_name, figure = f"table{table}_discard_orders", f"fig{importance_figure}_importances"
        result.tables[table_name] = orders[name][0]
        result.tables[figure] = imps[name][0].round(4)
        result.data |= {table_name: DATA[name], figure: DATA[name]}
        result.figures[figure] = plots.plot_importances(
            imps[name][0], f"Fig. {importance_figure}: importances, {name}"
        )
        agreements[name] = order_agreement(published[table_name], orders[name])
        # Heart's categorical numbering was inferred from its own "pca" row
        fitted = (
            "; numbering of the categorical features fitted to this row "
            "(independent check: heart_numbering_check)"
            if name == "heart"
            else ""
        )
        result.rows += dataset_rows(name, d, published["datasets"].loc[name])
        result.rows += table_rows(
            table_name, published[table_name], orders[name][0], agreements[name], fitted, DATA[name]
        )
    agreement = pd.concat(agreements, names=["dataset", "order"]).round(3)
    result.tables["order_agreement"] = _with_data(agreement)
    result.findings.append(findings.forest_rows(agreement, ALL_DATA))
    return result


def heart_numbering_check(imps, published, variants, p):
    """Independent check of Heart's numbering: the forest rows' agreement under each.

    The forest-based rows of Table 3 did not enter :func:`heart_numbering`;
    their Kendall tau with our forest orders of every seed is computed with the
    published numbers read in the continuous-first and in the paper numbering.

    Returns
    -------
    Artefacts
        Table ``heart_numbering_check`` (tau per seed and forest row, under each
        numbering) and the finding ``heart_numbering_check``.
    """
    names = variants["paper"]["heart"].feature_names
    ours = _orders(imps)["heart"]
    rows = published["table3_discard_orders"].drop(index="pca")
    taus = {}
    for numbering in ("continuous_first", "paper"):
        numbered = variants[numbering]["heart"].feature_names
        mapping = {k + 1: names.index(feature) + 1 for k, feature in enumerate(numbered)}
        translated = rows.map(mapping.__getitem__)
        taus[numbering] = {
            (seed, order): kendall_tau(translated.loc[order], table.loc[order])
            for seed, table in zip(p.seeds, ours, strict=True)
            for order in translated.index
        }
    table = pd.DataFrame(taus).rename_axis(["seed", "order"]).round(3)
    return Artefacts(
        tables={"heart_numbering_check": table},
        findings=[findings.heart_numbering_check(table, DATA["heart"])],
        data=DATA["heart"],
    )


def discard_curves_by_dataset(data, imps, p):
    """F1 discard curves of every dataset along the seed-``p.seed`` orders of ``p.curve_orders``."""
    orders = _orders(imps)
    return {
        name: curves(
            d,
            orders[name][0].loc[list(p.curve_orders)],
            n_rf_runs=p.n_rf_runs,
            seed=p.seed,
            n_jobs=p.n_jobs,
        )
        for name, d in data.items()
    }


def curve_artefacts(discard, published):
    """Figs. 3, 5, 7 (curves and their points), the mean F1 of every curve and the
    settings the curves restate (:func:`setting_rows`)."""
    result = Artefacts(data={})
    for name, c in discard.items():
        _, _, figure = _figure_numbers(published, name)
        result.tables[f"fig{figure}_discard_curves"] = c.scores.round(5)
        result.data[f"fig{figure}_discard_curves"] = DATA[name]
        result.figures[f"fig{figure}_discard_curves"] = plots.plot_curves(
            c.scores, f"Fig. {figure}: F1 while discarding, {name}"
        )
    summary = pd.concat({name: c.summary() for name, c in discard.items()}, names=["dataset"])
    result.tables["discard_curve_summary"] = _with_data(summary.round(4))
    (n_rf_runs,) = {
        int(c.runs.loc[c.runs["classifier"] == "random_forest", "run"].nunique())
        for c in discard.values()
    }
    result.rows = setting_rows(n_rf_runs)
    return result


def claim_artefacts(imps, discard, published):
    """Rows of every claim of ``claims.csv`` (see :func:`claim_rows`)."""
    orders = _orders(imps)
    rows = []
    for name in DATASETS:
        _, _, figure = _figure_numbers(published, name)
        rows += claim_rows(
            name, imps[name], discard[name], orders[name][0], published["claims"], f"fig{figure}"
        )
    return Artefacts(rows=rows)


def scaling_comparison(data, imps, p):
    """Remark 2's Hamming scaling against the exact (empirical) normalisation.

    Returns
    -------
    Artefacts
        ``scaling_comparison``: per dataset and scaling, the most important
        feature (number, name, levels and the share of its most frequent level)
        and the metrical discard order; ``scaling_forest_agreement``: per
        dataset, scaling, seed and forest importance, the Kendall tau of the
        metrical order with the forest's, the forest's rank of the metrical top
        feature and whether the two top features are the same; findings
        ``remark2_flaw`` and ``empirical_scaling``.
    """
    orders = _orders(imps)
    tops, agreement = [], []
    for name, d in data.items():
        for scaling in ("hamming", "empirical"):
            order = metrical(d, scaling=scaling).discard_order_ + 1
            top = int(order[-1])
            tops.append(
                {"dataset": name, "scaling": scaling, **_feature_facts(d, top)}
                | {"n_features": len(order), "order": " ".join(map(str, order))}
            )
            for seed, imp, forest in zip(p.seeds, imps[name], orders[name], strict=True):
                ranks = imp.rank(ascending=False, method="min")
                agreement += [
                    {
                        "dataset": name,
                        "scaling": scaling,
                        "seed": seed,
                        "forest": f,
                        "tau": kendall_tau(order, forest.loc[f].to_numpy()),
                        "forest_rank_of_top": int(ranks.loc[top, f]),
                        "same_top": int(imp[f].idxmax()) == top,
                    }
                    for f in FORESTS
                ]
    tops, agreement = pd.DataFrame(tops).round(3), pd.DataFrame(agreement).round(3)
    return Artefacts(
        tables={
            "scaling_comparison": _with_data(tops),
            "scaling_forest_agreement": _with_data(agreement),
        },
        findings=[
            findings.remark2_flaw(tops, agreement, ALL_DATA),
            findings.empirical_scaling(tops, agreement, ALL_DATA),
        ],
    )


def _feature_facts(data, feature):
    """Number, name, levels and largest level share of a feature (numbered from 1)."""
    column = data.X.iloc[:, feature - 1]
    categorical = bool(data.categorical[feature - 1])
    return {
        "most_important": feature,
        "feature": data.feature_names[feature - 1],
        "levels": column.nunique() if categorical else np.nan,
        "largest_level_share": column.value_counts(normalize=True).max() if categorical else np.nan,
    }
