"""Item 1: the ordinal league table (every ordinal method, one protocol, every dataset).

Protocol, the same for every method, dataset and partition:

* the features are standardised with the training part's mean and deviation (ORCA's
  protocol; a constant feature stays 0);
* hyper-parameters are chosen by 5-fold cross-validated MAE inside the training part
  only (:func:`papers.orml.methods.tune`, folds seeded per partition):
  ORML's ``C`` in ``10^-3 .. 10^3``; KDLOR's Gaussian width as 1/8 .. 8 times
  scikit-learn's ``"scale"`` (the ORML paper's grid, ``C = 0.1``: ORCA's full grid of
  245 settings does not fit the time budget). Every other method keeps its paper's
  settings: BVP as in its paper, KDA Gaussian with regularisation 0.1, LSDA ``k = 5``,
  ``alpha = 0.1``, LPP, NPE and IsoProjection ``K = 10`` as in the ORML paper;
* BVP, LDA, KDA and LSDA are projections: each is followed by the same rank rule, once
  the threshold rule of Eqs. (8)-(9) of the ORML paper on the first component and once
  the 1-NN rule on all (two, or ``n_classes - 1`` if fewer) components
  (:class:`~dimred.ordinal.ProjectionRanker`). ORML and LPP, NPE, IsoProjection
  (:class:`~dimred.ordinal.RankProjection`) use the threshold rule as published;
  KDLOR its own thresholds;
* the median-rank and chance baselines (:class:`~dimred.ordinal.ConstantRank`);
* scores on the test part: MAE, MZE and Kendall's ``tau_b`` on rank positions
  (:func:`~dimred.metrics.ordinal.ordinal_scores`), mean and standard deviation over
  partitions; methods ranked per dataset on the mean MAE, Friedman's test and the
  Nemenyi critical difference at ``alpha = 0.05`` (:mod:`dimred.metrics.comparison`).
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler

from dimred.metrics.comparison import FriedmanResult, average_ranks, nemenyi_cd, nemenyi_groups
from dimred.metrics.ordinal import ordinal_scores
from dimred.ordinal import ProjectionRanker
from dimred.utils.parallel import run_tasks

from ..bvp import methods as bvp
from ..orml import methods as orml

__all__ = [
    "METHODS",
    "PROJECTIONS",
    "RULES",
    "beats_median",
    "friedman_table",
    "league_summary",
    "make_ranker",
    "median_gains",
    "score_partition",
    "score_partitions",
]

#: Projections followed by each rank rule, with the settings of the BVP paper.
PROJECTIONS = ("BVP", "LDA", "KDA", "LSDA")
#: Rank rules of :class:`~dimred.ordinal.ProjectionRanker`, by the name shown.
RULES = {"threshold": "threshold", "1-NN": "nearest"}
#: Methods with their own rank rule (as published), then the trivial baselines.
OWN_RULE = ("ORML", "KDLOR", "LPP", "NPE", "IsoProjection")
TUNED = ("ORML", "KDLOR")
METHODS = (
    *OWN_RULE[:2],
    *(f"{name} ({rule})" for name in PROJECTIONS for rule in RULES),
    *OWN_RULE[2:],
    *orml.TRIVIAL_METHODS,
)
#: Folds of the searches inside each training part (ORCA's).
CV_FOLDS = 5
SCORES = ("mae", "mze", "tau_b")


def make_ranker(method, n_classes, seed=0, **params):
    """An unfitted ordinal classifier for a name of :data:`METHODS`.

    ``n_classes`` (of the training part) caps the projections at ``n_classes - 1``
    components (LDA has no more; two otherwise, as in the BVP paper's figures).
    """
    name, _, rule = method.partition(" (")
    if name in PROJECTIONS:
        projection = bvp.make_method(name, seed).set_params(n_components=min(2, n_classes - 1))
        return ProjectionRanker(projection, rule=RULES[rule.rstrip(")")])
    return orml.make_method(method, seed=seed, **params)


def score_partition(dataset, index, partition, classes, p):
    """Every method of ``p.methods`` fitted on one partition's training part.

    Returns
    -------
    list of dict
        ``dataset``, ``partition``, ``method``, ``params`` and the :data:`SCORES`.
    """
    X_train, y_train, X_test, y_test = partition
    scaler = StandardScaler().fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    seed = orml.repetition_seed(p.seed, index, sum(map(ord, dataset)))
    rows = []
    for method in p.methods:
        params = {}
        if method in TUNED:
            params, _ = orml.tune(
                method, X_train, y_train, seed=seed, c_grid=p.c_grid, cv_folds=CV_FOLDS
            )
        model = make_ranker(method, np.unique(y_train).size, seed, **params)
        with warnings.catch_warnings():  # a fold or a training part may miss a rank
            warnings.simplefilter("ignore", UserWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            predicted = model.fit(X_train, y_train).predict(X_test)
        scores = ordinal_scores(y_test, predicted, classes)
        rows.append(
            {"dataset": dataset, "partition": index, "method": method, "params": params, **scores}
        )
    return rows


def score_partitions(partitions, p):
    """:func:`score_partition` for every dataset and partition (joblib, or dask).

    Returns
    -------
    DataFrame
        One row per dataset, partition and method, sorted.
    """
    tasks = []
    for dataset, parts in partitions.items():
        classes = np.unique(
            np.concatenate([np.concatenate([y_tr, y_te]) for _, y_tr, _, y_te in parts])
        )
        tasks += [(dataset, i, part, classes, p) for i, part in enumerate(parts)]
    rows = run_tasks(score_partition, tasks, "league partitions", p.n_jobs)
    table = pd.DataFrame([row for task_rows in rows for row in task_rows])
    table["params"] = table["params"].map(lambda d: ", ".join(f"{k}={v:.3g}" for k, v in d.items()))
    return table.sort_values(["dataset", "partition", "method"], ignore_index=True)


def league_summary(scores):
    """Mean and standard deviation over partitions of every score, per dataset and method."""
    grouped = scores.groupby(["dataset", "method"], sort=True)[list(SCORES)]
    summary = grouped.agg(["mean", "std"])
    summary.columns = [f"{score}_{stat}" for score, stat in summary.columns]
    summary["partitions"] = grouped.size()
    return summary.reset_index()


def friedman_table(summary, score="mae", alpha=0.05):
    """Average ranks of the methods on ``score`` (mean over partitions), per dataset.

    Returns
    -------
    ranks : DataFrame
        Index: method, in order of average rank; columns ``mean_rank`` and the rank on
        each dataset.
    test : FriedmanResult
    cd : float
        The Nemenyi critical difference.
    groups : list of tuple of str
        Methods not significantly different (the bars of the diagram).
    """
    wide = summary.pivot(index="dataset", columns="method", values=f"{score}_mean")
    ranks, mean_ranks = average_ranks(wide.to_numpy(), higher_is_better=score == "tau_b")
    test = FriedmanResult(mean_ranks, len(wide))
    order = pd.DataFrame(ranks.T, index=wide.columns, columns=wide.index)
    order.insert(0, "mean_rank", mean_ranks)
    cd = nemenyi_cd(wide.shape[1], wide.shape[0], alpha)
    groups = [tuple(wide.columns[i] for i in g) for g in nemenyi_groups(test.mean_ranks, cd)]
    return order.sort_values("mean_rank", kind="stable"), test, cd, groups


def median_gains(scores, baseline="median rank"):
    """Per dataset, the non-trivial method of lowest mean MAE and its gain over
    ``baseline`` on each partition (the baseline's MAE minus the method's).

    Returns
    -------
    dict of str to (str, Series)
        ``{dataset: (best, gain)}``; ties for best go to the first method in name order.
    """
    wide = scores.pivot_table(index=["dataset", "partition"], columns="method", values="mae")
    candidates = [m for m in wide.columns if m not in orml.TRIVIAL_METHODS]
    gains = {}
    for dataset, table in wide.groupby(level="dataset"):
        best = table[candidates].mean().idxmin()
        gains[dataset] = (best, table[baseline] - table[best])
    return gains


def beats_median(scores, baseline="median rank"):
    """Per dataset, the method of lowest mean MAE against the median rank, partition by
    partition (:func:`median_gains`).

    The method beats the baseline beyond the partition-to-partition spread when the mean
    gain exceeds the gains' standard deviation over partitions (one standard deviation
    margin). Trivial methods are left out of "best".

    Returns
    -------
    DataFrame
        Index: dataset; ``best``, ``best_mae``, ``median_mae``, ``gain_mean``,
        ``gain_sd``, ``partitions``, ``beyond_spread``.
    """
    means = scores.groupby(["dataset", "method"])["mae"].mean()
    rows = []
    for dataset, (best, gain) in median_gains(scores, baseline).items():
        sd = float(gain.std()) if len(gain) > 1 else 0.0
        rows.append(
            {
                "dataset": dataset,
                "best": best,
                "best_mae": float(means[dataset, best]),
                "median_mae": float(means[dataset, baseline]),
                "gain_mean": float(gain.mean()),
                "gain_sd": sd,
                "partitions": len(gain),
                "beyond_spread": bool(gain.mean() > sd),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")
