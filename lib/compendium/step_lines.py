"""What the terminal shows while a paper's notebook runs: a line per step, a closing line.

Each step (each code cell but the parameters) ends with a line of its own, its name
(:func:`step_name`) and its seconds: ``bvp: table1 ... 12.3 s`` (:func:`step_line`),
never continuing a progress bar's line (:class:`Terminal`). The run ends with the
statuses of its results and where its outputs are (:func:`closing_lines`).

The step lines come from the runner, not from the kernel: nbclient calls
``on_cell_execute`` and ``on_cell_executed`` around each cell (papermill hands them
through to its client, :func:`step_hooks`), and the runner times the cell and names it
from its source. What the kernel writes is recorded in the executed notebook (a line
written by :meth:`~compendium.reporting.Report.show` would be published with it), and
papermill's ``log_output`` would log every output, each table's text included, and of a
step only its cell's number.
"""

import ast
import time
from pathlib import Path

from . import paths
from .publishing import tagged

__all__ = ["Terminal", "closing_lines", "step_hooks", "step_line", "step_name"]


class Terminal:
    """A text stream (the runner's standard error) that knows whether the cursor is at the
    start of a line, so that a step's line never continues a progress bar's."""

    def __init__(self, stream):
        self.stream = stream
        self.at_line_start = True

    def write(self, text):
        """Write ``text`` (the kernel's standard error, as it arrives)."""
        if text:
            self.stream.write(text)
            self.at_line_start = text[-1] in "\r\n"
        return len(text)

    def flush(self):
        """Flush the stream."""
        self.stream.flush()

    def line(self, text):
        """Write ``text`` as a line of its own."""
        self.write(("" if self.at_line_start else "\n") + text + "\n")
        self.flush()


def step_hooks(paper, notebook, terminal):
    """nbclient's cell hooks that end each step of ``paper``'s notebook (each code cell but
    the parameters) with its line on ``terminal`` (:func:`step_line`).

    Parameters
    ----------
    paper : str
        The paper, as its lines name it.
    notebook : Path
        Its notebook, whose cells name the protocols (:func:`step_name`).
    terminal : Terminal

    Returns
    -------
    dict
        ``on_cell_execute`` and ``on_cell_executed``, for :func:`papermill.execute_notebook`.
    """
    import nbformat

    protocols = _protocols(nbformat.read(notebook, as_version=4).cells)
    started = {}

    def on_cell_execute(cell, cell_index, **kwargs):
        started[cell_index] = time.monotonic()

    def on_cell_executed(cell, cell_index, execute_reply, **kwargs):
        seconds = time.monotonic() - started.pop(cell_index)
        if tagged(cell, "parameters") or tagged(cell, "injected-parameters"):
            return
        name = step_name(cell.source, protocols) or f"cell {cell.execution_count}"
        failed = execute_reply["content"]["status"] == "error"
        terminal.line(step_line(paper, name, seconds, failed))

    return {"on_cell_execute": on_cell_execute, "on_cell_executed": on_cell_executed}


def _protocols(cells):
    """The names the cells bind to the papers' protocols (``from papers import bvp``)."""
    return {
        alias.asname or alias.name
        for cell in cells
        if cell.cell_type == "code"
        for node in ast.walk(_parsed(cell.source))
        if isinstance(node, ast.ImportFrom) and node.module == "papers"
        for alias in node.names
    }


def step_name(source, protocols):
    """The name of the notebook step whose cell is ``source``, as its line shows it.

    ``setup`` for the cell that creates the :class:`~compendium.reporting.Report` (the
    imports and the data, as in ``cost.csv``); else the functions of a protocol the cell
    calls, in order, without the suffix ``_artefacts`` (``bvp.table1_artefacts(...)`` is
    ``table1``); else the methods it calls (``report.write``).

    Parameters
    ----------
    source : str
        A code cell's source.
    protocols : set of str
        The names the notebook binds to the papers' protocols (``bvp``, ``protocol``).

    Returns
    -------
    str or None
        ``None`` for a cell that calls none of these (its line names it ``cell <n>``, its
        execution count, as a failure does).
    """
    calls = [node for node in ast.walk(_parsed(source)) if isinstance(node, ast.Call)]
    called = [_called(call.func) for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset))]
    if ("", "Report") in called:
        return "setup"
    steps = [name.removesuffix("_artefacts") for owner, name in called if owner in protocols]
    methods = [f"{owner}.{name}" for owner, name in called if owner]
    return ", ".join(dict.fromkeys(steps or methods)) or None


def _parsed(source):
    """The syntax tree of a cell's source (an empty one where it is not Python: a magic)."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def _called(function):
    """``(owner, name)`` of a call's function: ``("bvp", "table1_artefacts")``,
    ``("", "Report")``; ``("", "")`` for any other expression."""
    if isinstance(function, ast.Name):
        return "", function.id
    if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
        return function.value.id, function.attr
    return "", ""


def step_line(paper, step, seconds, failed=False):
    """The line that ends a step: ``bvp: table1 ... 12.3 s`` (``... failed after 12.3 s``)."""
    return f"{paper}: {step} ... {'failed after ' if failed else ''}{_duration(seconds)}"


def _duration(seconds):
    """``12.3 s`` under a minute, ``4 min 05 s`` above."""
    if round(seconds, 1) < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes} min {seconds:02d} s"


def closing_lines(paper, output_dir, seconds, quick=False):
    """What the terminal says when a paper's run has ended and been published.

    Parameters
    ----------
    paper : str
    output_dir : Path
        The run's ``output_dir``, holding its ``reproduction.csv``.
    seconds : float
        The run's wall time.
    quick : bool, default=False
        A quick run: a second line says that its numbers are not the committed full run's.

    Returns
    -------
    list of str
        ``bvp: done in 4 min 05 s: 28 match, 0 within_error, 6 deviates,
        1 not_reproducible (and 4 settings); outputs in figures/bvp``, then for a quick run
        where the committed full run is.
    """
    lines = [
        f"{paper}: done in {_duration(seconds)}: {_status_counts(output_dir)}; "
        f"outputs in {output_dir}"
    ]
    if quick:
        committed = (paths.FIGURES_DIR / paper).relative_to(paths.ROOT)
        lines.append(
            f"{paper}: quick parameter set: its numbers differ from those of the committed "
            f"full run in {committed}"
        )
    return lines


def _status_counts(output_dir):
    """The statuses of a run's ``reproduction.csv``: each result status, then the settings."""
    import pandas as pd

    from .reporting import RESULT_STATUSES

    csv = Path(output_dir) / "reproduction.csv"
    if not csv.is_file():
        return "no reproduction.csv"
    counts = pd.read_csv(csv)["status"].value_counts()
    results = ", ".join(f"{counts.get(status, 0)} {status}" for status in RESULT_STATUSES)
    return f"{results} (and {counts.get('setting', 0)} settings)"
