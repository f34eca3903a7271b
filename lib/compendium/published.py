"""The numbers and claims transcribed from each paper (``data/published/<paper>/``).

Every paper keeps its transcriptions as CSV files, one per table or figure of the
paper, plus ``claims.csv`` for the verbal claims. One rule holds for all of them:
**the first column is the row's key and is unique within its file**, so that
every transcribed row can be named ``"<table>:<key>"`` -- the ``source`` of the
reproduction rows that compare with it (:func:`source`). Column names made of
digits only (positions of a discard order) are read as integers.

``claims.csv`` has the columns :data:`CLAIM_COLUMNS` first (claim id, the paper's
artefact, the quote, and the predicate or metric that decides it), then any
columns the paper's protocol needs to evaluate its predicates.
"""

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from . import paths

__all__ = ["CLAIM_COLUMNS", "load_claims", "load_published", "load_table", "source"]

#: Leading columns of every ``claims.csv``.
CLAIM_COLUMNS = ("claim", "artifact", "quote", "decided_by")


def published_dir(paper: str) -> Path:
    """``data/published/<paper>``."""
    folder = paths.PUBLISHED_DIR / paper
    if not folder.is_dir():
        raise FileNotFoundError(f"no transcriptions for paper {paper!r}: {folder} does not exist")
    return folder


def load_table(paper: str, name: str) -> pd.DataFrame:
    """One transcribed table, indexed by its (unique) first column.

    Parameters
    ----------
    paper : str
        Folder name under ``data/published``.
    name : str
        File stem, e.g. ``"table2_usps"`` or ``"claims"``.

    Returns
    -------
    DataFrame

    Raises
    ------
    ValueError
        When the key column has duplicates, or ``claims.csv`` does not start
        with :data:`CLAIM_COLUMNS`.
    """
    table = pd.read_csv(published_dir(paper) / f"{name}.csv", index_col=0)
    if not table.index.is_unique:
        duplicates = table.index[table.index.duplicated()].unique().tolist()
        raise ValueError(f"{paper}/{name}.csv: duplicate keys {duplicates} in its first column")
    if all(str(column).isdigit() for column in table.columns):
        table.columns = table.columns.astype(int)
    if name == "claims":
        _check_claims(paper, table)
    return table


def load_claims(paper: str) -> pd.DataFrame:
    """``claims.csv`` of a paper, indexed by claim id (see :data:`CLAIM_COLUMNS`)."""
    return load_table(paper, "claims")


def load_published(paper: str) -> Mapping[str, pd.DataFrame]:
    """Every transcribed table of a paper, keyed by file stem (``claims`` included)."""
    return {
        csv.stem: load_table(paper, csv.stem) for csv in sorted(published_dir(paper).glob("*.csv"))
    }


def source(table: str, key) -> str:
    """Name of one transcribed row, ``"<table>:<key>"``, for a reproduction row's ``source``."""
    return f"{table}:{key}"


def _check_claims(paper, claims):
    columns = (claims.index.name, *claims.columns[: len(CLAIM_COLUMNS) - 1])
    if columns != CLAIM_COLUMNS:
        raise ValueError(
            f"{paper}/claims.csv must start with the columns {CLAIM_COLUMNS}; got {columns}."
        )
    empty = claims.index[claims[list(CLAIM_COLUMNS[1:])].isna().any(axis=1)].tolist()
    if empty:
        raise ValueError(f"{paper}/claims.csv: claims {empty} leave a required column empty.")
