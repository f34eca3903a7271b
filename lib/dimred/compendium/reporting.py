"""Tables, reproduction logs and the compendium-wide reproduction report.

Every notebook writes ``figures/<paper>/reproduction.csv`` with the columns
:data:`COLUMNS`; :func:`assemble` sums them up in ``figures/REPRODUCTION.md``
and in the README's status table (``python -m dimred.compendium.reporting``).
"""

import argparse
import math
from pathlib import Path

import pandas as pd

from . import paths

__all__ = [
    "COLUMNS",
    "STATUSES",
    "assemble",
    "reproduction_row",
    "write_reproduction",
    "write_table",
]

COLUMNS = ("artifact", "item", "published", "reproduced", "deviation", "status", "note")
STATUSES = ("match", "within_error", "deviates", "not_reproducible")
README_BEGIN = "<!-- reproduction-status:begin -->"
README_END = "<!-- reproduction-status:end -->"


def reproduction_row(artifact, item, published, reproduced, status, deviation=None, note=""):
    """One published-versus-reproduced number.

    Parameters
    ----------
    artifact : str
        Table or figure of the paper (``table1``, ``fig3``, ``text``).
    item : str
        What the number is.
    published, reproduced : object
        The paper's value and ours.
    status : {"match", "within_error", "deviates", "not_reproducible"}
    deviation : float or None
        ``reproduced - published`` for numbers, when not given.
    note : str
        How the status was decided.

    Returns
    -------
    dict
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}; got {status!r}.")
    if deviation is None and _is_number(published) and _is_number(reproduced):
        deviation = float(reproduced) - float(published)
    values = (artifact, item, published, reproduced, deviation, status, note)
    return dict(zip(COLUMNS, values, strict=True))


def _is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def write_reproduction(rows, folder):
    """Write ``reproduction.csv`` (and its Markdown twin) into ``folder``.

    Returns
    -------
    DataFrame
    """
    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    write_table(frame, Path(folder) / "reproduction", index=False)
    return frame


def write_table(frame, stem, index=True):
    """Write a table as ``<stem>.csv`` and ``<stem>.md``.

    Parameters
    ----------
    frame : DataFrame
    stem : str or Path
        Output path without suffix; parent folders are created.
    index : bool
        Whether the index is part of the table.
    """
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(stem.with_suffix(".csv"), index=index, float_format="%.6g")
    stem.with_suffix(".md").write_text(frame.to_markdown(index=index) + "\n")


def status_summary(figures_dir=None):
    """Count of statuses per paper from every ``reproduction.csv``.

    Returns
    -------
    DataFrame
        One row per paper, one column per status, plus ``total``.
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    counts = {}
    for csv in sorted(figures_dir.glob("*/reproduction.csv")):
        statuses = pd.read_csv(csv)["status"].value_counts()
        counts[csv.parent.name] = [int(statuses.get(s, 0)) for s in STATUSES]
    summary = pd.DataFrame.from_dict(counts, orient="index", columns=list(STATUSES))
    summary.index.name = "paper"
    summary["total"] = summary.sum(axis=1)
    return summary


def assemble(figures_dir=None, readme=None):
    """Write ``REPRODUCTION.md`` and refresh the README's status table.

    Parameters
    ----------
    figures_dir : Path, optional
        Defaults to ``figures/``.
    readme : Path, optional
        README whose block between the status markers is replaced; defaults to
        the compendium's README (skipped when it has no markers).

    Returns
    -------
    Path
        The report written.
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    summary = status_summary(figures_dir)
    table = summary.to_markdown()
    sections = ["# Reproduction report", "", "Status of every published number, per paper.", ""]
    sections += [table, ""]
    for paper in summary.index:
        frame = pd.read_csv(figures_dir / paper / "reproduction.csv")
        off = frame[frame["status"].isin(["deviates", "not_reproducible"])]
        sections += [f"## {paper}", "", f"{len(frame)} rows; see `{paper}/reproduction.csv`.", ""]
        if len(off):
            sections += ["Deviating or not reproducible:", "", off.to_markdown(index=False), ""]
    report = figures_dir / "REPRODUCTION.md"
    report.write_text("\n".join(sections))
    _refresh_readme(Path(readme or paths.ROOT / "README.md"), table)
    return report


def _refresh_readme(readme, table):
    """Replace the README block between the status markers with ``table``."""
    if not readme.exists():
        return
    text = readme.read_text()
    if README_BEGIN not in text or README_END not in text:
        return
    head, rest = text.split(README_BEGIN, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(f"{head}{README_BEGIN}\n{table}\n{README_END}{tail}")


def main(argv=None):
    """``python -m dimred.compendium.reporting``: assemble the reproduction report."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--figures", type=Path, default=None, help="figures folder")
    parser.add_argument("--readme", type=Path, default=None, help="README to refresh")
    args = parser.parse_args(argv)
    print(assemble(args.figures, args.readme))


if __name__ == "__main__":
    main()
