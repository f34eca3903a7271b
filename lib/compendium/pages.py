"""The reproduction report and the pages it refreshes: ``figures/REPRODUCTION.md``, the
README's status table and the book's findings and cost blocks.

:func:`assemble` reads what the papers' runs wrote (``figures/<paper>/reproduction.csv``,
``findings.csv`` and ``cost.csv``, :mod:`compendium.reporting`) and writes the report;
the README gets the status table (:func:`render_status`); ``docs/findings.md`` each
paper's findings between ``<!-- findings:<paper>:begin -->`` and its end marker
(:func:`findings_markers`); ``docs/running.md`` the cost of the runs and where their time
goes (``python -m compendium.pages``, a step of ``make figures``).
"""

import argparse
import os
import re
import tomllib
from pathlib import Path

import pandas as pd

from . import paths
from .ledger import run_parameters, summarise
from .reporting import RESULT_STATUSES, STATUSES, listed, render_findings

__all__ = [
    "assemble",
    "cost_summary",
    "deviation_groups",
    "deviation_headline",
    "read_findings",
    "render_costs",
    "render_status",
    "status_summary",
]

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
TARGET_FIGURES_MINUTES = 100


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


def deviation_groups(report):
    """The deviating rows of one ``reproduction.csv`` by the published table they are
    compared with (the part of ``source`` before the colon, as a reader says it:
    ``Table 2 USPS``), or their ``artifact`` without a source; largest group first (ties
    in the order they first appear).

    Returns
    -------
    dict of str to DataFrame
    """
    off = report[report["status"] == "deviates"]
    source = off["source"].map(lambda value: "" if pd.isna(value) else str(value).split(":")[0])
    artifact = off["artifact"].map(lambda value: "" if pd.isna(value) else str(value).split()[0])
    names = source.where(source != "", artifact).map(_headline_name).replace("", "other")
    groups = {name: off[names == name] for name in dict.fromkeys(names)}
    return dict(sorted(groups.items(), key=lambda item: -len(item[1])))  # stable


def deviation_headline(report, groups=HEADLINE_GROUPS):
    """What deviates in one ``reproduction.csv`` in a line: its deviating rows' groups
    (:func:`deviation_groups`), ``"Table 2 USPS (42), claims (4)"``; at most ``groups`` of
    them, then how many rows the others hold. ``"none"`` when nothing deviates."""
    counts = {name: len(rows) for name, rows in deviation_groups(report).items()}
    if not counts:
        return "none"
    shown = list(counts.items())[:groups]
    text = ", ".join(f"{name} ({count})" for name, count in shown)
    rest = sum(counts.values()) - sum(count for _, count in shown)
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
    """``python -m compendium.pages``: assemble the reproduction report."""
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
