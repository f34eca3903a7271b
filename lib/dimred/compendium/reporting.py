"""Tables, reproduction logs and the compendium-wide reproduction report.

Every paper's protocol returns its results as :class:`Artefacts` (named tables,
named figures and reproduction rows); the notebook hands them to a
:class:`Report`, which writes each table (CSV + Markdown) and figure (PNG + PDF),
shows it inline, and finally writes ``figures/<paper>/reproduction.csv`` with the
columns :data:`COLUMNS`. :func:`assemble` sums the papers up in
``figures/REPRODUCTION.md`` and in the README's status table
(``python -m dimred.compendium.reporting``).

Statuses (:data:`STATUSES`) mean the same for every paper:

``match``
    equal to the precision the paper prints (or the claim holds);
``within_error``
    a number the paper gives as ``mean +- sd``: ours differs from the paper's
    mean by at most the paper's own ``sd`` (:func:`compare_with_error`; our own
    spread does not widen the tolerance);
``deviates``
    neither (or the claim does not hold);
``not_reproducible``
    cannot be measured with what is obtainable (the note says why).
"""

import argparse
import math
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from . import paths
from .plotting import savefig

__all__ = [
    "COLUMNS",
    "STATUSES",
    "Artefacts",
    "Report",
    "assemble",
    "compare_with_error",
    "reproduction_row",
    "write_reproduction",
    "write_table",
]

COLUMNS = ("artifact", "item", "published", "reproduced", "deviation", "status", "source", "note")
STATUSES = ("match", "within_error", "deviates", "not_reproducible")
README_BEGIN = "<!-- reproduction-status:begin -->"
README_END = "<!-- reproduction-status:end -->"


def reproduction_row(
    artifact, item, published, reproduced, status, deviation=None, note="", *, source=""
):
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
    source : str
        The transcribed row compared with, ``"<table>:<key>"``
        (:func:`dimred.compendium.published.source`); empty for numbers the paper
        states in its text only.

    Returns
    -------
    dict
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}; got {status!r}.")
    if deviation is None and _is_number(published) and _is_number(reproduced):
        deviation = float(reproduced) - float(published)
    values = (artifact, item, published, reproduced, deviation, status, source, note)
    return dict(zip(COLUMNS, values, strict=True))


def compare_with_error(published_mean, published_sd, mean, decimals=3):
    """Status of one of our means against a published ``mean +- sd``.

    ``match`` when equal at the ``decimals`` the paper prints; ``within_error``
    when ``|mean - published_mean| <= published_sd``; ``deviates`` otherwise.
    The tolerance is the paper's own spread: a noisier reproduction does not
    make agreement easier.

    Returns
    -------
    status : str
    deviation : float
        ``mean - published_mean``.
    """
    deviation = mean - published_mean
    if abs(deviation) < 0.5 * 10.0**-decimals:
        return "match", deviation
    if abs(deviation) <= published_sd:
        return "within_error", deviation
    return "deviates", deviation


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


@dataclass
class Artefacts:
    """What one step of a paper's protocol produces.

    Attributes
    ----------
    tables : dict of str to DataFrame
        Written as ``<name>.csv`` and ``<name>.md`` (the index is written
        unless it is the default ``0, 1, ...`` without a name).
    figures : dict of str to matplotlib.figure.Figure
        Written as ``<name>.png`` and ``<name>.pdf``.
    rows : list of dict
        Reproduction rows (:func:`reproduction_row`).
    notes : list of str
        Markdown lines stating a measured finding, shown after the tables.
    """

    tables: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)


class Report:
    """Writes and shows a notebook's artefacts and collects its reproduction rows.

    Parameters
    ----------
    output_dir : str or Path
        ``figures/<paper>`` (or a quick run's folder).
    display : bool, default=True
        Show every table and figure inline (in IPython) as it is written.
    """

    def __init__(self, output_dir, display=True):
        self.output_dir = Path(output_dir)
        self.display = display
        self.rows = []

    def show(self, artefacts):
        """Write the tables and figures of ``artefacts``, show them, keep their rows.

        Returns
        -------
        Artefacts
            The same object, so that a notebook can keep using its tables.
        """
        for name, frame in artefacts.tables.items():
            write_table(frame, self.output_dir / name, index=not _default_index(frame))
            self._display(frame)
        for line in artefacts.notes:
            self._display_markdown(line)
        for name, fig in artefacts.figures.items():
            savefig(fig, self.output_dir / name, close=False)
            self._display(fig)
            plt.close(fig)
        self.rows += artefacts.rows
        return artefacts

    def write(self):
        """Write ``reproduction.csv`` and return the count of rows per artefact and status."""
        frame = write_reproduction(self.rows, self.output_dir)
        summary = frame.groupby("artifact")["status"].value_counts().unstack(fill_value=0)
        self._display(summary)
        return frame

    def _display(self, obj):
        if self.display:
            from IPython.display import display

            with pd.option_context("display.precision", 3, "display.max_colwidth", 120):
                display(obj)

    def _display_markdown(self, text):
        if self.display:
            from IPython.display import Markdown, display

            display(Markdown(text))


def _default_index(frame):
    """True for the unnamed ``0, 1, ...`` index pandas gives a table by default."""
    index = frame.index
    return (
        isinstance(index, pd.RangeIndex)
        and index.name is None
        and (index.start, index.step) == (0, 1)
    )


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
