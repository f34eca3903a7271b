"""Table I of the Best-View Projection paper: the real datasets, counted from the data.

Table I lists, per dataset, the number of instances ``I``, the dimensionality
``Q``, the number of classes ``K`` and the class distribution; all are read
from the ORCA holdout-0 files (train ∪ test) here (:func:`table1`), and every
cell must match the paper's exactly (:func:`table1_rows`).
"""

import numpy as np
import pandas as pd

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row

from .data import _with_data, data_label

__all__ = ["table1", "table1_artefacts", "table1_rows"]


def table1(real):
    """Table I computed from the loaded data.

    Parameters
    ----------
    real : dict of str to (X, y)
        :func:`~.data.load_real_data`.

    Returns
    -------
    DataFrame
        Index: dataset; columns ``I``, ``Q``, ``K``, ``class_distribution``
        (counts of labels 1..K, space-separated).
    """
    rows = {}
    for name, (X, y) in real.items():
        counts = np.bincount(y)[1:]
        rows[name] = {
            "I": X.shape[0],
            "Q": X.shape[1],
            "K": int(np.unique(y).size),
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
                    source=source("table1_datasets", name),
                    data=data_label(name),
                )
            )
    return rows


def table1_artefacts(real, published):
    """Table I from the data, and a row for each of its cells."""
    table = table1(real)
    return Artefacts(
        tables={"table1_datasets": _with_data(table)},
        rows=table1_rows(published["table1_datasets"], table),
    )
