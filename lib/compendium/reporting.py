"""Tables, reproduction logs, findings and the compendium-wide reproduction report.

Every paper's protocol returns its results as :class:`Artefacts` (named tables,
named figures, reproduction rows and findings); the notebook hands them to a
:class:`Report`, which writes each table (CSV + Markdown) and figure (PNG + PDF),
shows it inline, and finally writes ``figures/<paper>/reproduction.csv`` (columns
:data:`COLUMNS`) and ``figures/<paper>/findings.csv`` (columns
:data:`FINDING_COLUMNS`). :mod:`compendium.pages` sums the papers up in
``figures/REPRODUCTION.md``, the README's status table and the book's pages.

Which data
----------
Every table written under ``figures/`` says which data it came from, in a column
``data`` whose values start with one of :data:`DATA_KINDS` (``real``, ``stand-in``,
``synthetic``, ``published`` -- the paper's own numbers) and may name the data
set in brackets: ``"stand-in (Fashion-MNIST)"``. A step declares it once in
:attr:`Artefacts.data` (or per table, or per row in the table itself);
:func:`write_table` refuses a table that does not say.

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
    cannot be measured with what is obtainable (the note says why);
``setting``
    a setting the paper states, restated by the run that uses it (a training
    fraction, a grid of dimensions, a kernel name): an input, not a result. It
    cannot fail, so it is shown apart and never counted among the matches.

Findings
--------
What the compendium says about its *own* measurements (beyond the paper's
numbers) is data too: one :func:`finding_row` per statement, with the metric,
its value, its spread over the draws or seeds it was measured on, the number of
draws and, for a verdict, the predicate and whether it holds. A finding that
depends on a random draw is measured over at least :data:`MIN_DRAWS` draws, or
its ``note`` says why fewer. The book's page ``docs/findings.md`` quotes the statements
verbatim between ``<!-- findings:<paper>:begin -->`` and ``<!-- findings:<paper>:end -->``.
"""

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .ledger import CostLedger
from .plotting import savefig

__all__ = [
    "COLUMNS",
    "DATA_KINDS",
    "FINDING_COLUMNS",
    "MIN_DRAWS",
    "RESULT_STATUSES",
    "STATUSES",
    "Artefacts",
    "Report",
    "check_data_label",
    "comparison_table",
    "compare_with_error",
    "draws_note",
    "finding_row",
    "format_spread",
    "listed",
    "render_findings",
    "reproduction_row",
    "write_findings",
    "write_reproduction",
    "write_table",
]

COLUMNS = (
    "artifact", "item", "published", "reproduced", "deviation", "status", "source", "note", "data",
)  # fmt: skip
STATUSES = ("match", "within_error", "deviates", "not_reproducible", "setting")
#: The statuses of reproduced results; ``setting`` rows restate inputs.
RESULT_STATUSES = STATUSES[:4]
#: What a table's ``data`` column may start with (``mixed``: rows of several kinds).
DATA_KINDS = ("real", "stand-in", "synthetic", "published", "mixed")
#: Columns of ``findings.csv``.
FINDING_COLUMNS = (
    "finding", "title", "statement", "metric", "value", "low", "high", "spread", "n_draws",
    "predicate", "holds", "data", "produced_by", "note",
)  # fmt: skip
#: Draws a random finding is measured over, unless its note says why fewer.
MIN_DRAWS = 10
#: Data label of ``cost.csv``: the cost of the whole run, over every data set it read.
COST_DATA = "mixed (every data set of the run)"
_KINDS = "|".join(re.escape(kind) for kind in DATA_KINDS)
_DATA_LABEL = re.compile(rf"^({_KINDS})( \(.+\))?$")


def reproduction_row(
    artifact, item, published, reproduced, status, deviation=None, note="", *, source="", data=None
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
    status : {"match", "within_error", "deviates", "not_reproducible", "setting"}
    deviation : float or None
        ``reproduced - published`` for numbers, when not given.
    note : str
        How the status was decided.
    source : str
        The transcribed row compared with, ``"<table>:<key>"``
        (:func:`compendium.published.source`); empty for numbers the paper
        states in its text only.
    data : str, optional
        Which data the reproduced value came from (:func:`check_data_label`);
        by default the step's :attr:`Artefacts.data`, filled in by :class:`Report`.

    Returns
    -------
    dict
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}; got {status!r}.")
    if data is not None:
        check_data_label(data)
    if deviation is None and _is_number(published) and _is_number(reproduced):
        deviation = float(reproduced) - float(published)
    values = (artifact, item, published, reproduced, deviation, status, source, note, data)
    return dict(zip(COLUMNS, values, strict=True))


def check_data_label(label):
    """``label`` if it names which data a result came from, else ``ValueError``.

    A label is one of :data:`DATA_KINDS`, optionally followed by the data set in
    brackets: ``"real (USPS, 9,298 images)"``, ``"stand-in (Fashion-MNIST)"``.
    """
    if not isinstance(label, str) or not _DATA_LABEL.match(label):
        raise ValueError(
            f"data label {label!r} must be one of {DATA_KINDS}, optionally followed by "
            "' (<data set>)'."
        )
    return label


def format_spread(values, decimals=2, unit="", what="draws"):
    """``"25.5 (21–42 over 10 draws)"``: the median and range of per-draw values.

    One value (a deterministic measurement) is printed alone.
    """
    values = np.atleast_1d(np.asarray(values, dtype=float))
    if values.size == 1:
        return f"{values[0]:.{decimals}f}{unit}"
    low, mid, high = np.min(values), np.median(values), np.max(values)
    return (
        f"{mid:.{decimals}f}{unit} ({low:.{decimals}f}–{high:.{decimals}f}{unit} over "
        f"{values.size} {what})"
    )


def listed(items, none="none"):
    """``"a, b and c"`` for a statement (``none`` for no item)."""
    items = [str(item) for item in items]
    if not items:
        return none
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


def draws_note(n_draws, what="draws"):
    """The note of a finding measured over fewer than :data:`MIN_DRAWS` draws because the
    run is a quick one (empty otherwise)."""
    if n_draws >= MIN_DRAWS:
        return ""
    return f"quick run: {n_draws} {what}, fewer than the full run's {MIN_DRAWS}"


def finding_row(
    finding,
    title,
    statement,
    metric,
    values,
    *,
    data,
    predicate="",
    holds=None,
    low=None,
    high=None,
    spread=None,
    note="",
):
    """One finding about our own measurements, for ``findings.csv``.

    Parameters
    ----------
    finding : str
        Unique key within the paper.
    title : str
        A few words, shown in bold before the statement.
    statement : str
        The sentence the findings page quotes (Markdown), built from the measured values.
    metric : str
        What was measured, and on what.
    values : float or array-like
        The measurement on each draw or seed (one value: a deterministic
        measurement). ``value`` is their median.
    data : str
        Which data (:func:`check_data_label`).
    predicate : str, optional
        For a verdict: the predicate decided, on the values.
    holds : bool, optional
        Whether the predicate holds.
    low, high : float, optional
        The spread; default the smallest and largest value.
    spread : str, optional
        What ``low .. high`` is; default ``"min-max over n draws"`` (or
        ``"deterministic"`` for one value).
    note : str, optional
        Anything a reader needs: why fewer than :data:`MIN_DRAWS` draws, for one.

    Returns
    -------
    dict
    """
    check_data_label(data)
    if predicate and holds is None:
        raise ValueError(f"finding {finding!r}: a predicate needs its verdict (holds).")
    values = np.atleast_1d(np.asarray(values, dtype=float))
    n = values.size
    default_spread = "deterministic" if n == 1 else f"min-max over {n} draws"
    row = (
        finding,
        title,
        statement,
        metric,
        float(np.median(values)),
        float(np.min(values) if low is None else low),
        float(np.max(values) if high is None else high),
        spread or default_spread,
        n,
        predicate,
        "" if holds is None else bool(holds),
        data,
        "",
        note,
    )
    return dict(zip(FINDING_COLUMNS, row, strict=True))


def write_findings(rows, folder, produced_by):
    """Write the findings ``produced_by`` one source into ``<folder>/findings.csv``.

    Rows of other producers already in the file (``make bench`` beside the
    notebook) are kept; the notebook's rows come first, then the others in the
    order of their producers' names, whichever ran last. Keys must be unique.

    Returns
    -------
    DataFrame
        The whole file.
    """
    path = Path(folder) / "findings.csv"
    new = pd.DataFrame(list(rows), columns=list(FINDING_COLUMNS)).assign(produced_by=produced_by)
    if path.exists():
        old = pd.read_csv(path, keep_default_na=False)
        new = pd.concat([new, old[old["produced_by"] != produced_by]], ignore_index=True)
        rank = new["produced_by"].map(lambda producer: (producer != "notebook", producer))
        new = new.iloc[sorted(range(len(new)), key=lambda i: rank.iloc[i])].reset_index(drop=True)
    duplicated = new["finding"][new["finding"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: findings {duplicated} are stated twice.")
    write_table(new, path.with_suffix(""), index=False)
    return new


def write_benchmark(report, stem, findings, data, script):
    """Write a ``make bench`` table as ``<stem>.{csv,md}`` and its findings into the
    ``findings.csv`` beside it (produced by ``make bench (<script>)``), and print both.

    Parameters
    ----------
    report : DataFrame
    stem : Path
        ``figures/<paper>/benchmark_<name>`` (without suffix).
    findings : list of dict
        :func:`finding_row` rows.
    data : str or None
        Which data the benchmark ran on (:func:`check_data_label`); None: the report's
        own ``data`` column names it row by row.
    script : str
        The benchmark's file (``__file__``).
    """
    stem = Path(stem)
    write_table(report, stem, index=False, data=data)
    write_findings(findings, stem.parent, f"make bench ({Path(script).name})")
    print(report.to_markdown(index=False))
    for row in findings:
        print(row["statement"])


def render_findings(frame):
    """The list of one paper's findings (Markdown) in ``docs/findings.md``, in file order."""
    lines = [f"- **{row.title}.** {row.statement} (`{row.finding}`)" for row in frame.itertuples()]
    return "\n".join(lines)


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


def write_table(frame, stem, index=True, data=None):
    """Write a table as ``<stem>.csv`` and ``<stem>.md``.

    Parameters
    ----------
    frame : DataFrame
    stem : str or Path
        Output path without suffix; parent folders are created.
    index : bool
        Whether the index is part of the table.
    data : str, optional
        Which data the table came from (:func:`check_data_label`), added as the
        last column ``data``; required unless the table has that column.

    Raises
    ------
    ValueError
        The table does not say which data it came from, or says it wrongly.
    """
    stem = Path(stem)
    if data is not None:
        frame = frame.assign(data=check_data_label(data))
    if "data" not in frame.columns:
        raise ValueError(f"table {stem.name!r} does not say which data it came from (data=...).")
    for label in frame["data"].unique():
        check_data_label(label)
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
    findings : list of dict
        Findings about our own measurements (:func:`finding_row`).
    data : str or dict of str to str, optional
        Which data the tables and rows came from (:func:`check_data_label`): one
        label for all, or one per table name (rows then take the label of key
        ``"rows"``). A table with its own ``data`` column needs none.
    """

    tables: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    data: object = None

    def data_of(self, name):
        """The data label of table ``name`` (``"rows"``: of the reproduction rows)."""
        return self.data.get(name) if isinstance(self.data, dict) else self.data


class Report:
    """Writes and shows a notebook's artefacts and collects its reproduction rows.

    Parameters
    ----------
    output_dir : str or Path
        ``figures/<paper>`` (or a quick run's folder).
    display : bool, default=True
        Show every table and figure inline (in IPython) as it is written.

    Attributes
    ----------
    ledger : CostLedger
        The cost of every step: each :meth:`show` ends one (:mod:`.ledger`), and
        :meth:`write` writes them to ``cost.csv`` and the durations of the tasks of
        the step's sweeps to ``tasks.csv``.
    """

    def __init__(self, output_dir, display=True):
        self.output_dir = Path(output_dir)
        self.display = display
        self.rows = []
        self.findings = []
        self.ledger = CostLedger()

    def show(self, artefacts):
        """Write the tables and figures of ``artefacts``, show them, keep their rows.

        Returns
        -------
        Artefacts
            The same object, so that a notebook can keep using its tables.
        """
        self.ledger.close_step(_step_name(artefacts, len(self.ledger.rows)))
        for name, frame in artefacts.tables.items():
            label = None if "data" in frame.columns else artefacts.data_of(name)
            write_table(frame, self.output_dir / name, not _default_index(frame), label)
            self._display(frame)
        for line in artefacts.notes:
            self._display_markdown(line)
        for row in artefacts.findings:
            self._display_markdown(f"**{row['title']}.** {row['statement']}")
        for name, fig in artefacts.figures.items():
            savefig(fig, self.output_dir / name, close=False)
            self._display(fig)
            plt.close(fig)
        for row in artefacts.rows:
            if row["data"] is None:
                row["data"] = check_data_label(artefacts.data_of("rows"))
        if artefacts.rows:
            self._display_markdown(comparison_table(artefacts.rows))
        self.rows += artefacts.rows
        self.findings += artefacts.findings
        return artefacts

    def write(self):
        """Write ``reproduction.csv``, ``findings.csv``, ``cost.csv`` and ``tasks.csv``;
        return the count of rows per artefact and status."""
        frame = write_reproduction(self.rows, self.output_dir)
        write_findings(self.findings, self.output_dir, "notebook")
        write_table(self.ledger.frame(), self.output_dir / "cost", False, COST_DATA)
        write_table(self.ledger.task_frame(), self.output_dir / "tasks", False, COST_DATA)
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


#: The columns of the comparison a step shows below its tables and figures.
COMPARISON_COLUMNS = ("item", "published", "reproduced", "deviation", "status")


def comparison_table(rows):
    """Markdown of reproduction rows as the paper against ours: :data:`COMPARISON_COLUMNS`,
    no index, a blank where a row has no value (a claim has no deviation).

    Parameters
    ----------
    rows : list of dict
        :func:`reproduction_row` results.

    Returns
    -------
    str
    """
    frame = pd.DataFrame(rows, columns=list(COLUMNS))[list(COMPARISON_COLUMNS)]
    frame = frame.astype(object).where(frame.notna(), "")
    cells = frame.map(lambda value: str(value).replace("|", "\\|").replace("\n", " "))
    return "**The paper against ours** (these rows of `reproduction.csv`):\n\n" + cells.to_markdown(
        index=False
    )


def _step_name(artefacts, index):
    """A step's name in the ledger: its first table or figure, else ``setup`` for the
    first step (the kernel's start, imports, data) and the step's number after it."""
    names = [*artefacts.tables, *artefacts.figures]
    if names:
        return names[0]
    return "setup" if index == 0 else f"step {index + 1}"


def _default_index(frame):
    """True for the unnamed ``0, 1, ...`` index pandas gives a table by default."""
    index = frame.index
    return (
        isinstance(index, pd.RangeIndex)
        and index.name is None
        and (index.start, index.step) == (0, 1)
    )
