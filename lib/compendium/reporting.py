"""Tables, reproduction logs, findings and the compendium-wide reproduction report.

Every paper's protocol returns its results as :class:`Artefacts` (named tables,
named figures, reproduction rows and findings); the notebook hands them to a
:class:`Report`, which writes each table (CSV + Markdown) and figure (PNG + PDF),
shows it inline, and finally writes ``figures/<paper>/reproduction.csv`` (columns
:data:`COLUMNS`) and ``figures/<paper>/findings.csv`` (columns
:data:`FINDING_COLUMNS`). :func:`assemble` sums the papers up in
``figures/REPRODUCTION.md``, the README's status table (:func:`render_status`), and the
book's pages: the "what we found" lists of ``docs/findings.md`` and the cost tables of
``docs/running.md`` (``python -m compendium.reporting``).

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

import argparse
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import paths
from .ledger import CostLedger, run_parameters, summarise
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
    "assemble",
    "check_data_label",
    "compare_with_error",
    "deviation_headline",
    "draws_note",
    "finding_row",
    "format_spread",
    "listed",
    "render_findings",
    "render_status",
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
README_BEGIN = "<!-- reproduction-status:begin -->"
README_END = "<!-- reproduction-status:end -->"
COST_BEGIN, COST_END = "<!-- cost:begin -->", "<!-- cost:end -->"
ATTRIBUTION_BEGIN, ATTRIBUTION_END = "<!-- attribution:begin -->", "<!-- attribution:end -->"
#: The book's pages, kept in ``docs/`` and staged by :mod:`compendium.book`.
DOCS_DIR = paths.ROOT / "docs"
#: The page of the findings (one block per paper, :func:`findings_markers`).
FINDINGS_PAGE = "findings.md"
#: The page of what a run costs: the cost and attribution blocks, and the run history
#: (:mod:`compendium.run_history`).
RUNNING_PAGE = "running.md"
#: Wall time a full ``make figures`` at the papers' settings should stay within (2 cores).
TARGET_FIGURES_MINUTES = 90
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
        :meth:`write` writes them to ``cost.csv``.
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
        self.rows += artefacts.rows
        self.findings += artefacts.findings
        return artefacts

    def write(self):
        """Write ``reproduction.csv``, ``findings.csv`` and ``cost.csv``; return the count
        of rows per artefact and status."""
        frame = write_reproduction(self.rows, self.output_dir)
        write_findings(self.findings, self.output_dir, "notebook")
        write_table(self.ledger.frame(), self.output_dir / "cost", False, COST_DATA)
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


def status_summary(figures_dir=None):
    """Count of statuses per paper from every ``reproduction.csv``.

    Returns
    -------
    DataFrame
        One row per paper: one column per result status (:data:`RESULT_STATUSES`),
        ``total`` (their sum), then ``setting`` apart (restated inputs, not results).
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    counts = {}
    for csv in sorted(figures_dir.glob("*/reproduction.csv")):
        statuses = pd.read_csv(csv)["status"].value_counts()
        counts[csv.parent.name] = [int(statuses.get(s, 0)) for s in STATUSES]
    summary = pd.DataFrame.from_dict(counts, orient="index", columns=list(STATUSES))
    summary.index.name = "paper"
    summary.insert(len(RESULT_STATUSES), "total", summary[list(RESULT_STATUSES)].sum(axis=1))
    return summary


def assemble(figures_dir=None, readme=None, docs=None):
    """Write ``REPRODUCTION.md``, refresh the README's status table and the book's pages.

    The README gets the status table (:func:`render_status`, between :data:`README_BEGIN`
    and :data:`README_END`); ``docs/findings.md`` each paper's findings
    (:func:`findings_markers`); ``docs/running.md`` the cost of the runs and, with
    ``figures/cost_attribution.csv``, where their time goes. The README and the pages
    default to the compendium's own when ``figures_dir`` is the compendium's ``figures/``,
    the results they describe, and to none otherwise: a report of other figures (a quick
    run's, in ``build/quick/``) leaves them alone. ``os.devnull`` refreshes nothing. A page
    without the markers of one of its blocks is an error.

    Parameters
    ----------
    figures_dir : Path, optional
        Defaults to ``figures/``.
    readme : Path, optional
        The README to refresh.
    docs : Path, optional
        The folder of the book's pages to refresh (:data:`FINDINGS_PAGE`,
        :data:`RUNNING_PAGE`).

    Returns
    -------
    Path
        The report written.
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    readme, docs = _pages(figures_dir, readme, docs)
    summary = status_summary(figures_dir)
    findings = read_findings(figures_dir)
    table = summary.to_markdown()
    sections = ["# Reproduction report", "", "Status of every published number, per paper."]
    sections += ["`setting` rows restate the paper's settings as the run uses them: they are"]
    sections += ["inputs, not results, and `total` leaves them out.", "", table, ""]
    for paper in summary.index:
        frame = pd.read_csv(figures_dir / paper / "reproduction.csv")
        off = frame[frame["status"].isin(["deviates", "not_reproducible"])]
        sections += [f"## {paper}", "", f"{len(frame)} rows; see `{paper}/reproduction.csv`.", ""]
        if len(off):
            sections += ["Deviating or not reproducible:", "", off.to_markdown(index=False), ""]
        if paper in findings:
            sections += ["Our own findings (`findings.csv`):", "", render_findings(findings[paper])]
            sections += [""]
    costs = render_costs(cost_summary(figures_dir), _papers())
    sections += ["## Cost of the runs (`cost.csv`)", "", costs, ""]
    attribution = cost_attribution(figures_dir)
    if attribution is not None:
        sections += ["## Where the time goes (`cost_attribution.csv`)", "", attribution, ""]
    report = figures_dir / "REPRODUCTION.md"
    report.write_text("\n".join(sections))
    if readme is not None:
        _refresh_block(readme, README_BEGIN, README_END, render_status(figures_dir))
    if docs is not None:
        running = docs / RUNNING_PAGE
        _refresh_block(running, COST_BEGIN, COST_END, costs)
        if attribution is not None:
            _refresh_block(running, ATTRIBUTION_BEGIN, ATTRIBUTION_END, attribution)
        for paper, frame in findings.items():
            _refresh_block(docs / FINDINGS_PAGE, *findings_markers(paper), render_findings(frame))
    return report


def _pages(figures_dir, readme=None, docs=None):
    """The README and the folder of the book's pages that a report of ``figures_dir``
    refreshes (:func:`assemble`): ``(readme, docs)``, ``None`` for none."""
    own = Path(figures_dir).resolve() == Path(paths.FIGURES_DIR).resolve()

    def chosen(given, default):
        if given is None:
            return default if own else None
        return None if str(given) == os.devnull else Path(given)

    return chosen(readme, readme_path()), chosen(docs, DOCS_DIR)


def readme_path(readme=None):
    """The README the report refreshes (the repository's by default)."""
    return Path(readme or paths.ROOT / "README.md")


#: Words of the published tables' names as the README's status table spells them.
_WORDS = {"tsne": "t-SNE", "usps": "USPS", "umist": "UMIST", "movielens": "MovieLens"}
#: Groups of deviating rows the README's status table names per paper; the rest are counted.
HEADLINE_GROUPS = 4


def render_status(figures_dir=None, papers=None):
    """The README's status table (Markdown): one row per paper with its status counts
    (``setting`` apart from the results), what deviates, its executed notebook and its make
    target.

    What deviates names the groups of the paper's deviating rows, largest first, with
    their counts: the published table a row is compared with (the part of its ``source``
    before the colon: ``claims``, ``table2_usps``), or its ``artifact`` without a source.

    Parameters
    ----------
    figures_dir : Path, optional
        Defaults to ``figures/``.
    papers : dict of str to str, optional
        Each paper's short title, in the README's order; default the ``short`` entries
        of :data:`~compendium.paths.PAPERS_LIST` (read here rather than through the
        tooling's :mod:`compendium.papers`, which the notebooks never run). A folder of
        ``figures_dir`` without an entry comes last, named by its folder.

    Returns
    -------
    str
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    if papers is None:
        listed = tomllib.loads(paths.PAPERS_LIST.read_text())["papers"]
        papers = {key: entry["short"] for key, entry in listed.items()}
    summary = status_summary(figures_dir)
    order = [key for key in papers if key in summary.index]
    order += [key for key in summary.index if key not in papers]
    rows = []
    for key in order:
        counts = summary.loc[key]
        name = papers.get(key, key)
        notebook = f"figures/{key}/{key}.ipynb"
        rows.append(
            {
                "paper": name,
                **{status: int(counts[status]) for status in RESULT_STATUSES},
                "setting": int(counts["setting"]),
                "what deviates (rows)": deviation_headline(
                    pd.read_csv(figures_dir / key / "reproduction.csv")
                ),
                "executed notebook": f"[{key}.ipynb]({notebook})",
                "rerun": f"`make {key}`",
            }
        )
    return pd.DataFrame(rows).to_markdown(index=False)


def deviation_headline(report, groups=HEADLINE_GROUPS):
    """What deviates in one ``reproduction.csv`` in a line: its deviating rows' groups
    (:func:`render_status`), largest first, ``"Table 2 USPS (42), claims (4)"``; at most
    ``groups`` of them, then how many rows the others hold. ``"none"`` when nothing
    deviates."""
    off = report[report["status"] == "deviates"]
    if off.empty:
        return "none"
    source = off["source"].map(lambda value: "" if pd.isna(value) else str(value).split(":")[0])
    artifact = off["artifact"].map(lambda value: "" if pd.isna(value) else str(value).split()[0])
    names = source.where(source != "", artifact).map(_headline_name).replace("", "other")
    counts = names.value_counts(sort=False)
    counts = counts.iloc[sorted(range(len(counts)), key=lambda i: -counts.iloc[i])]
    text = ", ".join(f"{name} ({count})" for name, count in counts.iloc[:groups].items())
    rest = int(counts.iloc[groups:].sum())
    return f"{text} and {rest} more" if rest else text


def _headline_name(name):
    """A published table's name as a reader says it: ``table2_usps`` is ``Table 2 USPS``."""
    words = []
    for word in name.split("_"):
        numbered = re.fullmatch(r"(table|fig)(\d+)", word)
        if numbered:
            word = ("Table " if numbered[1] == "table" else "Fig. ") + numbered[2]
        words.append(_WORDS.get(word, word))
    return " ".join(words)


def cost_attribution(figures_dir=None):
    """Markdown of where the ledgers' time goes (:mod:`.attribution`), or ``None``
    without ``figures/cost_attribution.csv``."""
    from .attribution import attributed_minutes, render_attribution

    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    csv = figures_dir / "cost_attribution.csv"
    if not csv.exists():
        return None
    ledgers = {
        path.parent.name: pd.read_csv(path) for path in sorted(figures_dir.glob("*/cost.csv"))
    }
    return render_attribution(attributed_minutes(pd.read_csv(csv), ledgers), TARGET_FIGURES_MINUTES)


def _papers():
    """The compendium's papers (:func:`compendium.paths.paper_keys`)."""
    return paths.paper_keys()


def cost_summary(figures_dir=None):
    """Every paper's run cost from its ``cost.csv`` (:func:`~.ledger.summarise`).

    Returns
    -------
    DataFrame
        One row per paper with a ledger: ``wall_s``, ``cpu_s``, ``peak_mib``, ``steps``,
        ``longest_step``, ``longest_step_s``, ``machine`` and ``parameters`` (those its
        published notebook ran with beyond the defaults, :func:`~.ledger.run_parameters`).
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    rows = {}
    for csv in sorted(figures_dir.glob("*/cost.csv")):
        notebook = csv.parent / f"{csv.parent.name}.ipynb"
        parameters = run_parameters(notebook) if notebook.exists() else "unknown"
        rows[csv.parent.name] = summarise(pd.read_csv(csv)) | {"parameters": parameters}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "paper"
    return frame


def render_costs(summary, papers=None, target_minutes=TARGET_FIGURES_MINUTES):
    """Markdown of :func:`cost_summary`: minutes per paper and their sum, each paper's
    longest step, the parameters and machines they ran with, and whether they make a
    full ``make figures`` at the papers' settings (every paper in ``papers``, no
    parameter changed) to hold against ``target_minutes``."""
    if summary.empty:
        return "No run has written a `cost.csv` yet."
    table = pd.DataFrame(
        {
            "wall (min)": (summary["wall_s"] / 60).round(1),
            "CPU (min)": (summary["cpu_s"] / 60).round(1),
            "peak memory (GiB)": (summary["peak_mib"] / 1024).round(2),
            "steps": summary["steps"],
        }
    )
    total = pd.DataFrame(  # the sums of the unrounded times, as the attribution's
        {
            "wall (min)": round(summary["wall_s"].sum() / 60, 1),
            "CPU (min)": round(summary["cpu_s"].sum() / 60, 1),
            "peak memory (GiB)": table["peak memory (GiB)"].max(),
            "steps": summary["steps"].sum(),
        },
        index=["all papers"],
    )
    table = pd.concat([table, total])
    longest = [
        f"{step} ({seconds / 60:.1f})"
        for step, seconds in zip(summary["longest_step"], summary["longest_step_s"], strict=True)
    ]
    table.insert(len(table.columns), "longest step (min)", [*longest, ""])
    table.insert(len(table.columns), "parameters", [*summary["parameters"], ""])
    table.index.name = "paper"
    machines = summary["machine"].unique()
    measured = (
        machines[0]
        if len(machines) == 1
        else "; ".join(f"{paper}: {text}" for paper, text in summary["machine"].items())
    )
    return (
        f"{table.to_markdown()}\n\nWall and CPU time summed over each run's steps, peak "
        f"memory the largest step's (the sum of the processes' peaks). "
        f"{_target_verdict(summary, papers, total['wall (min)'].iloc[0], target_minutes)} "
        f"Measured on: {measured}."
    )


def _target_verdict(summary, papers, minutes, target_minutes):
    """Whether the ledgers make a full run at the papers' settings on one machine, and its
    time against the target; otherwise what is missing, changed or mixed."""
    missing = sorted(set(papers or summary.index) - set(summary.index))
    changed = [f"{p} ({v})" for p, v in summary["parameters"].items() if v]
    machines = summary["machine"].nunique()
    if missing or changed or machines > 1:
        parts = [f"no ledger for {listed(missing)}"] if missing else []
        parts += [f"run with other parameters: {listed(changed)}"] if changed else []
        parts += [f"measured on {machines} machines, not one"] if machines > 1 else []
        return (
            f"They sum to {minutes:.0f} min, but they are not a full `make figures` at the "
            f"papers' settings ({'; '.join(parts)}): the target of {target_minutes} min is "
            "not decided by them."
        )
    verdict = "within" if minutes <= target_minutes else "over"
    cpu_minutes = summary["cpu_s"].sum() / 60
    bound = (summary["cpu_s"] / summary["cores"]).sum() / 60
    reading = (
        "no use of those cores brings it within the target, so CPU time has to be taken off"
        if bound > target_minutes
        else "the target is not ruled out by the CPU time alone"
    )
    return (
        f"A full `make figures` at the papers' settings took {minutes:.0f} min of wall time, "
        f"{verdict} the target of {target_minutes} min. Its CPU time, {cpu_minutes:.1f} min "
        f"on {listed(sorted(set(summary['cores'].astype(str))))} cores, bounds the wall time "
        f"from below at {bound:.1f} min (each ledger's CPU time over its machine's cores): "
        f"{reading}."
    )


def findings_markers(paper):
    """The markers around a paper's list of findings in ``docs/findings.md``."""
    return f"<!-- findings:{paper}:begin -->", f"<!-- findings:{paper}:end -->"


def read_findings(figures_dir=None):
    """Every paper's ``findings.csv``: ``{paper: DataFrame}``."""
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    return {
        csv.parent.name: pd.read_csv(csv, keep_default_na=False)
        for csv in sorted(figures_dir.glob("*/findings.csv"))
    }


def readme_block(text, begin, end):
    """The text between two markers of a page (``None`` without them)."""
    if begin not in text or end not in text:
        return None
    return text.split(begin, 1)[1].split(end, 1)[0].strip("\n")


def _refresh_block(page, begin, end, content):
    """Replace the block of ``page`` between ``begin`` and ``end`` with ``content``.

    ``os.devnull`` is left alone. A page that does not exist or lacks either marker is
    an error: a block that moved would otherwise be left stale without a word.
    """
    page = Path(page)
    if str(page) == os.devnull:
        return
    text = page.read_text()
    if readme_block(text, begin, end) is None:
        raise ValueError(f"{page} has no block between {begin} and {end} to refresh.")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    page.write_text(f"{head}{begin}\n{content}\n{end}{tail}")


def main(argv=None):
    """``python -m compendium.reporting``: assemble the reproduction report."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--figures", type=Path, default=None, help="figures folder")
    parser.add_argument(
        "--readme", type=Path, default=None,
        help="README whose status table is refreshed (default: the compendium's, for its "
        "figures/; /dev/null: none)",
    )  # fmt: skip
    parser.add_argument(
        "--docs", type=Path, default=None,
        help="folder of the book's pages whose findings and cost blocks are refreshed "
        "(default: the compendium's docs/, for its figures/; /dev/null: none)",
    )  # fmt: skip
    parser.add_argument(
        "--no-pages", action="store_true",
        help="write figures/REPRODUCTION.md only: refresh neither the README nor the pages",
    )  # fmt: skip
    args = parser.parse_args(argv)
    readme, docs = (os.devnull, os.devnull) if args.no_pages else (args.readme, args.docs)
    print(assemble(args.figures, readme, docs))


if __name__ == "__main__":
    main()
