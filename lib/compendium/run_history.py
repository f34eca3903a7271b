"""Every full ``make figures`` the repository holds, from its committed cost ledgers.

A ``make figures`` at the papers' settings writes each paper's ``figures/<paper>/cost.csv``
(:mod:`.ledger`), and a commit keeps them. One ledger is one run, and the target of a full
run in 100 min is decided by one run's ledgers; whether a run of the same work can take
longer is not. This module lists the runs the history holds, so that the time of the last
one stands beside those before it.

A commit that changes the ledger of **every** paper holds a full run: each paper's notebook
ran (a commit that reruns some papers only is left out, its sum mixing runs). The working
tree's ledgers are a last run when every one of them differs from ``HEAD``'s (a run not
committed yet), dated by its newest ledger. A run is listed only when every paper ran at
its papers' settings (the published notebook's parameters, :func:`~.ledger.run_parameters`)
and the ledgers name one machine. Each run's time is the sum of its steps
(:func:`~.ledger.summarise`), as ``figures/REPRODUCTION.md`` sums the present ledgers.

``python -m compendium.run_history`` (a step of ``make figures``, after the report)
writes ``figures/cost_history.csv`` (one row per run and paper) and ``cost_history.md``,
and refreshes the block between :data:`HISTORY_BEGIN` and :data:`HISTORY_END` of the
book's page on what a run costs, ``docs/running.md``.
It reads git; without a repository (a copy of the files) it leaves them as they are.
The history does not say whether the code changed between two runs: each run's commit
does.
"""

import argparse
import subprocess
import tempfile
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pandas as pd

from . import depends, paths
from .ledger import run_parameters, summarise
from .pages import RUNNING_PAGE, TARGET_FIGURES_MINUTES, _pages, _refresh_block
from .reporting import COST_DATA

__all__ = [
    "HISTORY_BEGIN", "HISTORY_END", "full_runs", "read_history", "render_history", "write_history",
]  # fmt: skip

HISTORY_BEGIN, HISTORY_END = "<!-- run-history:begin -->", "<!-- run-history:end -->"
#: The run made by the working tree, not committed yet.
WORKING_TREE = "working tree"
#: Columns of ``cost_history.csv``.
HISTORY_COLUMNS = ("run", "date", "paper", "wall_min", "cpu_min", "cores", "machine", "data")


def _git(root, *args):
    """Standard output of ``git args`` in ``root``."""
    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return result.stdout


def _ledger(paper):
    return f"figures/{paper}/cost.csv"


def _ledger_commits(root, papers):
    """``(commit, date)`` of each commit that changed the ledger of every paper, oldest
    first."""
    log = _git(root, "log", "--format=@%h %cI", "--name-only", "--", *map(_ledger, papers))
    wanted, commits = set(map(_ledger, papers)), []
    for entry in log.split("@")[1:]:
        head, *names = entry.strip().splitlines()
        if wanted <= set(names):
            commits.append(tuple(head.split()))
    return commits[::-1]


def _committed(root, commit, path):
    return _git(root, "show", f"{commit}:{path}")


def _parameters(text):
    """:func:`~.ledger.run_parameters` of a published notebook's text."""
    with tempfile.TemporaryDirectory() as folder:
        notebook = Path(folder) / "notebook.ipynb"
        notebook.write_text(text, encoding="utf-8")
        return run_parameters(notebook)


def _run_rows(run, date, ledgers, notebooks):
    """One row per paper of a run, or none when it is not a full run at the papers'
    settings on one machine."""
    sums = {paper: summarise(pd.read_csv(StringIO(text))) for paper, text in ledgers.items()}
    machines = {total["machine"] for total in sums.values()}
    if len(machines) > 1 or any(_parameters(text) for text in notebooks.values()):
        return []
    return [
        {
            "run": run,
            "date": date,
            "paper": paper,
            "wall_min": round(total["wall_s"] / 60, 2),
            "cpu_min": round(total["cpu_s"] / 60, 2),
            "cores": total["cores"],
            "machine": total["machine"],
            "data": COST_DATA,
        }
        for paper, total in sums.items()
    ]


def _working_tree_run(root, papers):
    """The rows of the working tree's ledgers when each one differs from ``HEAD``'s."""
    files = [root / _ledger(paper) for paper in papers]
    changed = _git(root, "status", "--porcelain", "--", *map(_ledger, papers)).splitlines()
    if len(changed) < len(papers) or not all(file.exists() for file in files):
        return []
    newest = max(file.stat().st_mtime for file in files)
    date = datetime.fromtimestamp(newest, UTC).isoformat(timespec="seconds")
    return _run_rows(
        WORKING_TREE, date,
        {paper: file.read_text() for paper, file in zip(papers, files, strict=True)},
        {p: (root / "figures" / p / f"{p}.ipynb").read_text(encoding="utf-8") for p in papers},
    )  # fmt: skip


def full_runs(root=None, papers=None):
    """Every full run at the papers' settings in the history (module docstring).

    Parameters
    ----------
    root : Path, optional
        A git checkout of the compendium; default :data:`~.paths.ROOT`.
    papers : sequence of str, optional
        The papers a full run runs; default every paper of ``papers`` (read
        from its source, :func:`~.depends.papers`).

    Returns
    -------
    DataFrame
        :data:`HISTORY_COLUMNS`: per run (its commit, or :data:`WORKING_TREE`) and
        paper, the commit's date, the ledger's wall and CPU minutes, its machine, and
        the data label of ``cost.csv``.
    """
    root = Path(root or paths.ROOT)
    papers = list(papers or depends.papers(root))
    rows = []
    for commit, date in _ledger_commits(root, papers):
        ledgers = {p: _committed(root, commit, _ledger(p)) for p in papers}
        notebooks = {p: _committed(root, commit, f"figures/{p}/{p}.ipynb") for p in papers}
        rows += _run_rows(commit, date, ledgers, notebooks)
    rows += _working_tree_run(root, papers)
    return pd.DataFrame(rows, columns=list(HISTORY_COLUMNS))


def read_history(path):
    """``cost_history.csv`` as written (a run's commit kept as text, never a number)."""
    return pd.read_csv(path, dtype={"run": str})


def render_history(history, target_minutes=TARGET_FIGURES_MINUTES):
    """Markdown of :func:`full_runs`: one line per run (minutes per paper, their sum, the
    CPU minutes), how many runs kept within the target, and how the last run moved from
    the one before it.

    Parameters
    ----------
    history : DataFrame
        :func:`full_runs`' rows.
    target_minutes : float
        The target of a full run's wall time.

    Returns
    -------
    str
    """
    if history.empty:
        return "No full run at the papers' settings is in the history."
    runs = history.drop_duplicates("run").set_index("run")
    wall = history.pivot(index="run", columns="paper", values="wall_min").loc[runs.index]
    table = wall.round(1)
    table["all (min)"] = wall.sum(axis=1).round(1)
    table["CPU (min)"] = history.groupby("run")["cpu_min"].sum().loc[runs.index].round(1)
    table.insert(0, "date", runs["date"].str[:16].str.replace("T", " "))
    table.columns.name = None
    text = _history_text(table[wall.columns], table["all (min)"], runs, target_minutes)
    return f"{table.to_markdown()}\n\n{text}"


def _history_text(papers, totals, runs, target_minutes):
    """The sentence under the table: runs within the target, the machine, and the move
    from the run before to the last of the sum (``totals``) and of each paper's minutes
    (``papers``), as the table shows them."""
    within = int((totals <= target_minutes).sum())
    machines = runs["machine"].unique()
    measured = (
        f"one machine type: {machines[0]}"
        if len(machines) == 1
        else f"{len(machines)} machine types (`cost_history.csv`)"
    )
    runs_text = "1 full run" if len(totals) == 1 else f"{len(totals)} full runs"
    text = (
        f"{runs_text} at the papers' settings in the history (`figures/cost_history.csv`, "
        f"each from the commit that holds its ledgers), {within} within the target of "
        f"{target_minutes} min, measured on {measured}."
    )
    if len(totals) < 2:
        return text
    moved = papers.iloc[-1] - papers.iloc[-2]
    return (
        f"{text} From the run before to the last, the sum moved by "
        f"{totals.iloc[-1] - totals.iloc[-2]:+.1f} min ({totals.iloc[-2]:.1f} to "
        f"{totals.iloc[-1]:.1f}), each paper by {moved.min():+.1f} to {moved.max():+.1f} min "
        f"(largest: {moved.abs().idxmax()})."
    )


def write_history(figures_dir=None, page=None, root=None):
    """Write ``cost_history.csv`` and ``.md`` into ``figures_dir`` and refresh the run
    history's block of ``page``; nothing without git or a repository (module docstring).

    Parameters
    ----------
    figures_dir : Path, optional
        Defaults to ``figures/``.
    page : Path, optional
        The page to refresh; default ``docs/running.md`` when ``figures_dir`` is the
        compendium's ``figures/``, else none (as :func:`~.pages.assemble`);
        ``os.devnull``: none. A page without the block's markers is an error.
    root : Path, optional
        The git checkout (:func:`full_runs`).

    Returns
    -------
    Path or None
        ``cost_history.md``, or ``None`` when the history could not be read.
    """
    figures_dir = Path(figures_dir or paths.FIGURES_DIR)
    _, docs = _pages(figures_dir)
    if page is None:
        page = docs / RUNNING_PAGE if docs is not None else None
    try:
        history = full_runs(root)
    except (OSError, subprocess.CalledProcessError):
        return None
    history.to_csv(figures_dir / "cost_history.csv", index=False)
    text = render_history(history)
    report = figures_dir / "cost_history.md"
    report.write_text(f"# Full runs of `make figures`\n\n{text}\n")
    if page is not None:
        _refresh_block(page, HISTORY_BEGIN, HISTORY_END, text)
    return report


def main(argv=None):
    """``python -m compendium.run_history``: the full runs the history holds."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--figures", type=Path, default=None, help="figures folder")
    parser.add_argument(
        "--page", "--readme", dest="page", type=Path, default=None,
        help="page whose run-history block is refreshed (default: docs/running.md, for the "
        "compendium's figures/; /dev/null: none)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    print(write_history(args.figures, args.page) or "no git or no history: left as it is")


if __name__ == "__main__":
    main()
