"""What the book adds to the papers' chapters and to its landing page, from the CSVs.

Each chapter opens with its summary (:func:`summary_cell`: the status counts, what
deviates as a bullet per published table with its first rows linked, why rows cannot be
reproduced) and ends with its reproduction table (:func:`reproduction_table`: an HTML
table whose status column is coloured and which ``docs/_static/reproduction.js`` lets a
reader sort and filter). The landing page shows the status counts of every paper
(:func:`status_table`).
"""

import html
import re

import nbformat

from .pages import deviation_groups
from .reporting import STATUSES

__all__ = [
    "TABLE_COLUMNS",
    "after_title",
    "reproduction_table",
    "status_table",
    "summary_cell",
    "table_cell",
]


def status_table(summary, papers):
    """The landing page's status counts as an HTML table: a row per paper, named by its
    short title and linked to its chapter, each non-zero count coloured by its status.

    Parameters
    ----------
    summary : DataFrame
        :func:`~compendium.pages.status_summary`.
    papers : dict of str to Paper
        The papers, in the book's order.

    Returns
    -------
    str
        ``<table class="status-counts">...</table>``.
    """
    columns = [*STATUSES[:-1], "total", "setting"]
    head = "".join(
        f"<th>{html.escape(column).replace('_', '_<wbr>')}</th>" for column in ["paper", *columns]
    )
    rows = []
    for key, paper in papers.items():
        if key not in summary.index:
            continue
        link = f'<a href="papers/{key}.html">{html.escape(paper.short)}</a>'
        cells = "".join(
            f'<td class="status-{column}">{int(summary.loc[key, column])}</td>'
            if column in STATUSES and summary.loc[key, column]
            else f"<td>{int(summary.loc[key, column])}</td>"
            for column in columns
        )
        rows.append(f"<tr><td>{link}</td>{cells}</tr>")
    return (
        f'<table class="status-counts"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def after_title(notebook):
    """Where a chapter's summary goes: after its first markdown cell (the title), else first."""
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            return index + 1
    return 0


#: Groups of deviating rows a chapter's summary names, rows it links per group, and reasons
#: it names for the rows that cannot be reproduced; the rest are counted.
SUMMARY_GROUPS, SUMMARY_ROWS, SUMMARY_REASONS = 6, 3, 5


def summary_cell(report):
    """The markdown cell that opens a chapter: its status counts, what deviates (a bullet
    per published table, its first rows linked to the reproduction table) and why rows
    cannot be reproduced (their notes, counted)."""
    counts = report["status"].value_counts()
    results = int((report["status"] != "setting").sum())
    sentence = ", ".join(f"{int(counts.get(status, 0))} {status}" for status in STATUSES[:-1])
    lines = ["## At a glance", ""]
    lines += [
        f"Of {results} published numbers and claims: {sentence}; and "
        f"{int(counts.get('setting', 0))} settings restated (inputs, not results).",
        "",
    ]
    groups = deviation_groups(report)
    if groups:
        lines += [f"**What deviates** ({_rows(int(counts.get('deviates', 0)))}):", ""]
        lines += [_group_bullet(name, rows) for name, rows in list(groups.items())[:SUMMARY_GROUPS]]
        rest = list(groups.values())[SUMMARY_GROUPS:]
        if rest:
            lines += [f"- {len(rest)} other tables ({_rows(sum(len(rows) for rows in rest))})"]
        lines += [""]
    missing = report.loc[report["status"] == "not_reproducible", "note"].fillna("no reason given")
    missing = missing.map(_reason)
    if len(missing):
        reasons = missing.value_counts(sort=False)
        reasons = reasons.iloc[sorted(range(len(reasons)), key=lambda i: -reasons.iloc[i])]
        lines += [f"**What cannot be reproduced** ({_rows(len(missing))}), by reason:", ""]
        lines += [f"- {_escape_md(r)} ({n})" for r, n in reasons.iloc[:SUMMARY_REASONS].items()]
        rest = reasons.iloc[SUMMARY_REASONS:]
        if len(rest):
            lines += [f"- {len(rest)} other reasons ({_rows(int(rest.sum()))})"]
        lines += [""]
    lines += ["The reproduction table at the end of the chapter lists every row."]
    return nbformat.v4.new_markdown_cell("\n".join(lines), id="at-a-glance")


def _rows(count):
    """``"1 row"``, ``"3 rows"``."""
    return f"{count} row" + ("" if count == 1 else "s")


def _reason(note):
    """A not-reproducible row's reason: its note up to the first ``": "`` or ``"; "`` outside
    brackets (the rest is the row's own detail: an error message, a stand-in's value)."""
    note, depth = str(note), 0
    for index, char in enumerate(note):
        depth += (char in "([") - (char in ")]")
        if depth == 0 and note[index : index + 2] in (": ", "; "):
            return note[:index]
    return note


def _group_bullet(name, rows):
    """A bullet of the summary: a group of deviating rows, its first rows linked to theirs
    in the reproduction table (:func:`reproduction_table`'s ``row-<n>`` ids)."""
    links = [
        f'<a href="#row-{index + 1}">{html.escape(str(item))}</a> '
        f"(paper {html.escape(str(published) or '—')}, ours {html.escape(str(reproduced) or '—')})"
        for index, item, published, reproduced in zip(
            rows.index[:SUMMARY_ROWS],
            rows["item"][:SUMMARY_ROWS],
            rows["published"].fillna("")[:SUMMARY_ROWS],
            rows["reproduced"].fillna("")[:SUMMARY_ROWS],
            strict=True,
        )
    ]
    more = f"; and {len(rows) - SUMMARY_ROWS} more" if len(rows) > SUMMARY_ROWS else ""
    return f"- **{_escape_md(name)}** ({len(rows)}): " + "; ".join(links) + more


def _escape_md(text):
    """``text`` with the characters Markdown would read as markup escaped."""
    return re.sub(r"([\\`*_|<>\[\]])", r"\\\1", str(text))


def table_cell(paper, report):
    """The markdown cell that ends a chapter: the paper's reproduction table in HTML."""
    text = (
        "## Reproduction table\n\n"
        f"{paper.reference()}\n\n"
        f"Each of the {len(report)} rows of `reproduction.csv`: a number or claim of the paper "
        "beside ours, with its status. Type in the box to filter the rows, choose a status, "
        "or click a column's header to sort by it.\n\n"
        f"{reproduction_table(report)}\n"
    )
    return nbformat.v4.new_markdown_cell(text, id="reproduction-table")


#: The columns of a reproduction table in the book, in order: the status first.
TABLE_COLUMNS = ("status", "artifact", "item", "published", "reproduced", "deviation", "note")


def reproduction_table(report):
    """``report`` (a ``reproduction.csv``) as an HTML table, one line, status cells classed.

    The columns are :data:`TABLE_COLUMNS` first, then the others in the file's order.

    Parameters
    ----------
    report : DataFrame

    Returns
    -------
    str
        ``<div class="reproduction-wrapper"><table class="reproduction">...</table></div>``;
        each row carries the id ``row-<n>`` (its line in ``report``, from 1) and
        ``data-status``, each cell the class ``col-<column>`` and each status cell
        ``status status-<status>`` too.
    """
    first = [column for column in TABLE_COLUMNS if column in report.columns]
    report = report[first + [column for column in report.columns if column not in first]]
    head = "".join(
        f'<th class="col-{html.escape(str(column))}">{html.escape(str(column))}</th>'
        for column in report.columns
    )
    rows = []
    shown = report.astype(object).where(report.notna(), "")
    for number, row in enumerate(shown.itertuples(index=False), start=1):
        cells = "".join(_td(*item) for item in zip(report.columns, row, strict=True))
        status = html.escape(str(row.status))
        rows.append(f'<tr id="row-{number}" data-status="{status}">{cells}</tr>')
    return (
        '<div class="reproduction-wrapper"><table class="reproduction">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _td(column, value):
    """One cell, classed by its column (and a status cell by its status, which may break
    after its underscore: ``not_reproducible``)."""
    classes = f"col-{column}" + (f" status status-{value}" if column == "status" else "")
    text = _cell(value).replace("_", "_<wbr>") if column == "status" else _cell(value)
    return f'<td class="{html.escape(classes)}">{text}</td>'


def _cell(value):
    """A table cell's text, escaped, on one line."""
    return html.escape(str(value)).replace("\n", "<br>")
