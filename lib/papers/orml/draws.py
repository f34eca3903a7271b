"""What one draw of the ORML protocol cannot tell: UMIST over many training splits, and
whether Table 1's models depend on the order of the MovieLens rows.

* :func:`umist_splits` repeats Fig. 3 and the singular-scatter comparison on
  ``len(seeds)`` random training splits of the UMIST task (each split its own
  seed), so that the claims on Fig. 3 and the pseudo-inverse's failure are
  stated with their spread over splits.
* :func:`row_order_check` fits every graph method of Table 1 on each user's
  training rows as given, reversed and shuffled, and counts how often the
  predictions agree; it also measures how much the genre flags tie
  (duplicate rows, ties at the ``K``-th neighbour), the reason the graphs must
  not break ties by row index (:mod:`dimred.utils.graphs`).
"""

import numpy as np
import pandas as pd

from dimred.ordinal import ORML, RankProjection
from dimred.utils.graphs import knn_neighbourhoods

__all__ = ["GRAPH_METHODS", "row_order_check", "umist_splits"]

#: The graph methods of Table 1 (ORML and the unsupervised baselines), with their models.
GRAPH_METHODS = {
    "ORML": lambda k: ORML(n_neighbors=k),
    "LPP": lambda k: RankProjection("lpp", n_neighbors=k),
    "NPE": lambda k: RankProjection("npe", n_neighbors=k),
    "IsoProjection": lambda k: RankProjection("isoprojection", n_neighbors=k),
}


def umist_splits(umist, seeds, projection, sweep, neighbours):
    """Fig. 3's summary and the pseudo-inverse against the ridge on each training split.

    Parameters
    ----------
    umist : Bunch
    seeds : list of int
        One training split per seed.
    projection : callable
        ``projection(umist, seed) -> (intervals, summary, panels)``
        (:func:`~papers.orml.umist.umist_projection` for a subject).
    sweep : callable
        ``sweep(seed, neighbours) -> DataFrame`` indexed by ``K`` (the singular-scatter
        sweep on that split).
    neighbours : tuple of int
        ``(K small, K paper)``: the ``K`` at which the graph splits and the paper's.

    Returns
    -------
    DataFrame
        One row per seed: ``train_ordered``, ``pose_rho``, ``test_accuracy``,
        ``test_mae``, then per ``K`` the graph's components, whether
        ``rank S < rank X`` and the test MAE of both solvers.
    """
    rows = []
    for seed in seeds:
        _, summary, _ = projection(umist, seed)
        scatter = sweep(seed, neighbours)
        row = {"seed": seed, **summary}
        for k in neighbours:
            row |= {
                f"components K={k}": int(scatter.loc[k, "components"]),
                f"rank S < rank X K={k}": bool(scatter.loc[k, "rank S"] < scatter.loc[k, "rank X"]),
                f"test MAE pinv K={k}": scatter.loc[k, "test MAE pinv"],
                f"test MAE ridge K={k}": scatter.loc[k, "test MAE ridge"],
            }
        rows.append(row)
    return pd.DataFrame(rows).set_index("seed")


def row_order_check(splits, n_neighbors, seed):
    """Table 1's graph models fitted on each user's rows as given, reversed and shuffled.

    Parameters
    ----------
    splits : dict
        ``{user: (X_train, y_train, X_test, y_test)}``.
    n_neighbors : int
        ``K`` of the graphs.
    seed : int
        Seeds each user's shuffle (with the user id).

    Returns
    -------
    DataFrame
        One row per (user, method): the training rows with a duplicate, those whose
        ``K``-th neighbour distance is tied (their neighbourhood holds more than
        ``K`` points), and the share of test predictions equal to those of the
        rows as given, reversed and shuffled.
    """
    records = []
    for user, (X_train, y_train, X_test, _) in splits.items():
        n = len(y_train)
        _, counts = np.unique(X_train, axis=0, return_inverse=False, return_counts=True)
        duplicates = int(counts[counts > 1].sum())
        tied = int((knn_neighbourhoods(X_train, n_neighbors).sizes > n_neighbors).sum())
        orders = {
            "reversed": np.arange(n)[::-1],
            "shuffled": np.random.default_rng([seed, int(user)]).permutation(n),
        }
        for method, make in GRAPH_METHODS.items():
            given = make(n_neighbors).fit(X_train, y_train).predict(X_test)
            record = {"user": user, "method": method, "rows with a duplicate": duplicates,
                      "rows tied at the K-th neighbour": tied}  # fmt: skip
            for name, order in orders.items():
                moved = make(n_neighbors).fit(X_train[order], y_train[order]).predict(X_test)
                record[f"agreement {name}"] = float(np.mean(moved == given))
            records.append(record)
    return pd.DataFrame(records)
