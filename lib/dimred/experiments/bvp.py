"""Protocol of the Best-View Projection paper (Zine-El-Abidine, Dutagaci,
Rousseau): the real ordinal datasets of Table I.

Table I lists, per dataset, the number of instances ``I``, the dimensionality
``Q``, the number of classes ``K`` and the class distribution; all are read
from the ORCA holdout-0 files (train ∪ test) here.
"""

import numpy as np
import pandas as pd

from .. import datasets, paths
from ..reporting import reproduction_row

__all__ = ["REAL_DATASETS", "load_published", "table1", "table1_rows"]

PAPER = "bvp"

#: The real datasets of Table I, in its row order.
REAL_DATASETS = ("contact-lenses", "pasture", "squash-stored", "newthyroid", "car", "bondrate")


def load_published(artifact):
    """A table transcribed from the paper (``data/published/bvp``)."""
    return pd.read_csv(paths.PUBLISHED_DIR / PAPER / f"{artifact}.csv", index_col=0)


def table1():
    """Table I computed from the loaded data.

    Returns
    -------
    DataFrame
        Index: dataset; columns ``I``, ``Q``, ``K``, ``class_distribution``
        (counts of labels 1..K, space-separated).
    """
    rows = {}
    for name in REAL_DATASETS:
        bunch = datasets.load_orca(name)
        counts = np.bincount(bunch.target)[1:]
        rows[name] = {
            "I": bunch.data.shape[0],
            "Q": bunch.data.shape[1],
            "K": int(np.unique(bunch.target).size),
            "class_distribution": " ".join(map(str, counts)),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def table1_rows(published, reproduced):
    """``reproduction.csv`` rows: every cell of Table I, which must match exactly."""
    rows = []
    for name in published.index:
        for column in published.columns:
            expected, got = published.loc[name, column], reproduced.loc[name, column]
            expected = expected if isinstance(expected, str) else int(expected)
            got = got if isinstance(got, str) else int(got)
            rows.append(
                reproduction_row(
                    "table1",
                    f"{name}: {column}",
                    expected,
                    got,
                    "match" if expected == got else "deviates",
                    note="counted from the ORCA holdout-0 files (train ∪ test)",
                )
            )
    return rows
