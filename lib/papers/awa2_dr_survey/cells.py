"""Published accuracy cells beside ours, and their reproduction rows.

Every table of the survey is a grid of test accuracies. A step computes ours for
each transcribed cell (keyed as in ``data/published/awa2_dr_survey``) and
:func:`cell_table` / :func:`cell_rows` put them beside the paper's.

Status of a cell on AwA2 (:func:`cell_status`): ``match`` when equal at the
printed precision; ``within_error`` when the two single-split accuracies differ by
at most twice the standard error of their difference (binomial, the paper's test
set of 14,929 images -- 40 % of 37,322 -- and ours, which is smaller where a method
runs on a subsample): one split is all the paper measured; ``deviates`` otherwise. On the stand-in
every cell is ``not_reproducible``: the stand-in's accuracy is in the note and in
the tables, never in the ``reproduced`` column.
"""

import math

import numpy as np

from compendium.published import source
from compendium.reporting import reproduction_row

__all__ = ["PAPER_TEST_SIZE", "cell_rows", "cell_status", "cell_table", "lookup"]

#: Test images of the paper's split (40 % of 37,322).
PAPER_TEST_SIZE = round(0.4 * 37322)


def _decimals(printed):
    digits = str(printed).split("%")[0].split("<")[0].strip()
    return len(digits.split(".")[1]) if "." in digits else 0


def cell_status(published, printed, ours, n_test):
    """Status of one accuracy (percent) on AwA2 (module docstring).

    Parameters
    ----------
    published : float
    printed : str
        The paper's digits (``"92.39%"``): the precision of ``match``.
    ours : float
    n_test : int
        Size of our test part.
    """
    if not np.isfinite(ours):
        return "not_reproducible"
    deviation = abs(ours - published)
    if deviation < 0.5 * 10.0 ** -_decimals(printed):
        return "match"
    share = published / 100.0
    variance = share * (1.0 - share) * (1.0 / PAPER_TEST_SIZE + 1.0 / n_test)
    return "within_error" if deviation <= 2.0 * 100.0 * math.sqrt(variance) else "deviates"


def cell_table(table, values, columns, data, n_test):
    """The paper's cells beside ours.

    Parameters
    ----------
    table : DataFrame
        Transcribed table (indexed by key, ``accuracy_percent`` column).
    values : dict
        ``key -> (test, train)`` accuracy in percent (missing: not computed, e.g.
        a dimension the stand-in does not have).
    columns : list of str
        Configuration columns to keep.
    data : RunData
    n_test : int
        Size of the test part the accuracies come from.

    Returns
    -------
    DataFrame
        ``columns``, ``published_percent``, ``printed`` (the paper's digits),
        ``ours_percent``, ``ours_train_percent``, ``ours_test_size`` and ``dataset``.
    """
    frame = table[list(columns)].copy()
    frame["published_percent"] = table["accuracy_percent"]
    frame["printed"] = table["printed"]
    missing = (math.nan, math.nan)
    frame["ours_percent"] = [round(values.get(k, missing)[0], 2) for k in table.index]
    frame["ours_train_percent"] = [round(values.get(k, missing)[1], 2) for k in table.index]
    frame["ours_test_size"] = n_test
    frame["dataset"] = data.name
    return frame


def cell_rows(name, frame, data, what):
    """Reproduction rows of a :func:`cell_table` (one per transcribed cell).

    Parameters
    ----------
    name : str
        Transcription file stem (``table4``), also the row's artifact.
    frame : DataFrame
    data : RunData
    what : callable
        ``row -> str``: the cell's description.
    """
    rows = []
    for key, row in frame.iterrows():
        ours = row["ours_percent"]
        item = f"{what(row)}: accuracy %"
        if data.is_awa2:
            status = cell_status(
                row["published_percent"], row["printed"], ours, row["ours_test_size"]
            )
            note = "" if np.isfinite(ours) else "not computed in this run"
            rows.append(
                reproduction_row(
                    name,
                    item,
                    row["published_percent"],
                    ours,
                    status,
                    note=note,
                    source=source(name, key),
                )
            )
            continue
        standin = f"{ours:.2f} %" if np.isfinite(ours) else "not defined on the stand-in"
        note = f"{data.reason}; {data.name}: {standin} (not a reproduction)"
        rows.append(
            reproduction_row(
                name,
                item,
                row["published_percent"],
                "",
                "not_reproducible",
                note=note,
                source=source(name, key),
            )
        )
    return rows


def lookup(frames):
    """``"<table>:<key>" -> accuracy`` of every cell of ``frames`` (name -> table).

    Returns
    -------
    published, ours : dict
    """
    published, ours = {}, {}
    for name, frame in frames.items():
        for key, row in frame.iterrows():
            published[f"{name}:{key}"] = float(row["published_percent"])
            ours[f"{name}:{key}"] = float(row["ours_percent"])
    return published, ours
