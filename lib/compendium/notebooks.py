"""Executing the papers' notebooks: one code path for ``make figures`` and the tests.

Each paper has ``notebooks/<paper>.ipynb`` (paired with ``notebooks/<paper>.py`` by
jupytext), with a cell tagged ``parameters`` holding at least ``quick`` and
``output_dir``. :func:`execute` runs it through papermill:

* the kernel talks to papermill over IPC sockets in a private temporary folder
  (not TCP, so nothing is sent over the network and the kernel does not warn);
* the kernel's standard error -- every progress bar of the protocols -- is copied
  to this process's standard error as it arrives, so a long run shows its
  progress on the terminal;
* each step (each code cell but the parameters) ends with a line on that terminal, its
  name (:func:`step_name`) and its seconds: ``bvp: table1 ... 12.3 s``
  (:func:`step_line`);
* the executed copy is written where the caller says (``build/`` by default);
* the kernel inherits this process's environment: with ``DASK_SCHEDULER`` set (as in
  ``make figures DASK_SCHEDULER=tcp://host:8786``) the sweeps run on that dask
  cluster (:func:`dimred.utils.parallel.run_tasks`), with the same tables.

:func:`publish` turns an executed notebook into the copy that is committed beside the
paper's figures, ``figures/<paper>/<paper>.ipynb``, for GitHub, nbviewer and the book
(``make book``): outputs and inline figures kept, but every image at screen resolution,
progress bars reduced to their last state, and no path of the machine it ran on (the
checkout becomes ``..``, as seen from ``notebooks/``, where the kernel runs).

Command line (used by the Makefile)::

    python -m compendium.notebooks PAPER OUTPUT_DIR [--quick] [-p NAME VALUE ...]
                                          [--executed PATH] [--traceback]
    python -m compendium.notebooks publish [PAPER ...] [--build DIR] [--figures DIR]

The first form runs the notebook and, when it succeeds, publishes the executed copy to
``OUTPUT_DIR/<paper>.ipynb`` and closes with the statuses of the run's results and where
its outputs are (:func:`closing_lines`; a quick run adds that its numbers are not those
of the committed full run). The second publishes finished runs already in
``build/<paper>.ipynb`` (every paper by default) without running anything.

The step lines come from the runner, not from the kernel: nbclient calls
``on_cell_execute`` and ``on_cell_executed`` around each cell (papermill hands them
through to its client), and the runner times the cell and names it from its source.
What the kernel writes is recorded in the executed notebook (a line written by
:meth:`~compendium.reporting.Report.show` would be published with it), and papermill's
``log_output`` would log every output, each table's text included, and of a step only
its cell's number.

Before starting the kernel, the command line checks that every required dataset the
paper reads (``papers`` in ``data/registry.toml``) can be obtained: from the cache,
the mirror (``../shared/data`` when ``DIMRED_DATA_MIRROR`` is unset, as in the
Makefile) or its canonical URL, asked with a short timeout (:func:`missing_data`).
If not, it says what is missing and the two ways to get it, and exits with status 2
without running anything. A notebook that fails is reported in a few lines (the
error, the cell, where the executed notebook with the full traceback is); the
traceback itself is printed with ``--traceback`` or ``DIMRED_TRACEBACK=1``.
"""

import argparse
import ast
import base64
import io
import math
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from dimred.datasets import load_registry, probe_sources
from dimred.datasets.sources import CI_OFF, explain_missing

from . import paths

__all__ = [
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_WIDTH",
    "closing_lines",
    "execute",
    "machine_paths",
    "main",
    "missing_data",
    "notebook_path",
    "publish",
    "publish_runs",
    "step_line",
    "step_name",
]


def notebook_path(paper):
    """``notebooks/<paper>.ipynb``."""
    path = paths.ROOT / "notebooks" / f"{paper}.ipynb"
    if not path.is_file():
        raise FileNotFoundError(f"no notebook for paper {paper!r}: {path}")
    return path


def _ipc_kernel_manager(folder):
    """A kernel manager class whose kernels listen on IPC sockets inside ``folder``."""
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class IPCKernelManager(AsyncKernelManager):
        @default("transport")
        def _default_transport(self):
            return "ipc"

        @default("ip")
        def _default_ip(self):
            return str(Path(folder) / "kernel")

    return IPCKernelManager


def execute(paper, output_dir, output_notebook=None, quick=False, parameters=None, progress=True):
    """Run ``notebooks/<paper>.ipynb`` with papermill and return the executed notebook.

    Parameters
    ----------
    paper : str
        Notebook stem (the paper's folder name).
    output_dir : str or Path
        Passed as the notebook's ``output_dir``: where figures and tables go.
    output_notebook : str or Path, optional
        Where the executed notebook is written; default ``build/<paper>.ipynb``
        beside ``output_dir``'s parent (``build/quick/build/...`` for quick runs
        follows from the Makefile's paths).
    quick : bool, default=False
        The notebook's quick parameter set.
    parameters : dict, optional
        Further parameters of the notebook's ``parameters`` cell.
    progress : bool, default=True
        Copy the kernel's standard error (the progress bars) to ours, and end each step
        with its line there (:func:`step_line`).

    Returns
    -------
    nbformat.NotebookNode
    """
    import papermill as pm

    output_dir = Path(output_dir).resolve()
    output_notebook = _executed_path(paper, output_notebook)
    output_notebook.parent.mkdir(parents=True, exist_ok=True)
    values = {**(parameters or {}), "quick": bool(quick), "output_dir": str(output_dir)}
    terminal = _Terminal(sys.stderr)
    hooks = _step_hooks(paper, terminal) if progress else {}
    sockets = tempfile.mkdtemp(prefix="dimred-kernel-")
    try:
        return pm.execute_notebook(
            str(notebook_path(paper)),
            str(output_notebook),
            parameters=values,
            cwd=str(paths.ROOT / "notebooks"),
            kernel_name="python3",
            progress_bar=False,
            stderr_file=terminal if progress else None,
            kernel_manager_class=_ipc_kernel_manager(sockets),
            **hooks,
        )
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


class _Terminal:
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


def _step_hooks(paper, terminal):
    """nbclient's cell hooks that end each step of ``paper``'s notebook (each code cell but
    the parameters) with its line on ``terminal`` (:func:`step_line`).

    Returns
    -------
    dict
        ``on_cell_execute`` and ``on_cell_executed``, for :func:`papermill.execute_notebook`.
    """
    import nbformat

    protocols = _protocols(nbformat.read(notebook_path(paper), as_version=4).cells)
    started = {}

    def on_cell_execute(cell, cell_index, **kwargs):
        started[cell_index] = time.monotonic()

    def on_cell_executed(cell, cell_index, execute_reply, **kwargs):
        seconds = time.monotonic() - started.pop(cell_index)
        if _tagged(cell, "parameters") or _tagged(cell, "injected-parameters"):
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


def _executed_path(paper, output_notebook=None):
    """Where the executed notebook goes: ``output_notebook``, default ``build/<paper>.ipynb``."""
    return Path(output_notebook or paths.ROOT / "build" / f"{paper}.ipynb")


#: Widest inline image a published notebook keeps, in pixels: a screen's width.
MAX_IMAGE_WIDTH = 1200
#: Largest inline PNG a published notebook keeps, in bytes.
MAX_IMAGE_BYTES = 150_000
#: The notebook metadata a published copy keeps; not jupytext's pairing (the copy is not a
#: source) nor papermill's record of where it ran.
_KEPT_METADATA = ("kernelspec", "language_info")
#: The output of an interactive widget (tqdm.auto's progress bars): its state is not saved,
#: so a published copy would show a stale bar.
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def publish(executed, destination, source=None, prefixes=None):
    """Write the published copy of an executed notebook.

    Outputs and inline figures are kept, with these changes: the markdown cells are those
    of ``source`` when it is given (the prose is no input of the run, so editing it calls
    for no new run: ``make`` reruns a paper when its code changes,
    :mod:`compendium.cells`); every PNG wider than
    :data:`MAX_IMAGE_WIDTH` or larger than :data:`MAX_IMAGE_BYTES` is scaled down
    (aspect kept); a progress bar written to a stream keeps its last state and a widget's
    progress bar is left out; every path of the machine (:func:`machine_paths`) is
    replaced, in sources, outputs and parameters; the metadata keep the kernel, the
    language, the parameters and the run's duration, and no time stamp.

    Parameters
    ----------
    executed : str or Path
        A notebook papermill ran to its end (``build/<paper>.ipynb``).
    destination : str or Path
        Where the published copy goes (``figures/<paper>/<paper>.ipynb``).
    source : str or Path, optional
        The notebook that was run, as it is now (``notebooks/<paper>.ipynb``): its
        markdown cells replace the executed ones; its code cells must be those that ran.
    prefixes : dict of str to str, optional
        Path prefixes and what replaces each; default :func:`machine_paths`.

    Returns
    -------
    nbformat.NotebookNode
        The published notebook.

    Raises
    ------
    ValueError
        The run did not finish (papermill recorded no end time, or an exception), or
        its code is not the code of ``source``.
    """
    import nbformat

    notebook = nbformat.read(executed, as_version=4)
    run = notebook.metadata.get("papermill", {})
    if run.get("end_time") is None or run.get("exception"):
        raise ValueError(f"{executed}: the run did not finish; nothing published.")
    if source is not None:
        notebook.cells = _with_prose_of(notebook.cells, nbformat.read(source, as_version=4).cells)
    scrub = _scrubber(machine_paths() if prefixes is None else prefixes)
    notebook.metadata = _published_metadata(notebook.metadata, scrub)
    for cell in notebook.cells:
        cell.metadata = {key: value for key, value in cell.metadata.items() if key == "tags"}
        if cell.cell_type == "code":
            cell.source = scrub(cell.source)
            cell.outputs = [
                _published_output(output, scrub)
                for output in _coalesced(cell.outputs)
                if _WIDGET_VIEW not in output.get("data", {})
            ]
    nbformat.validate(notebook)
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, destination)
    return notebook


def _with_prose_of(executed, source):
    """The executed cells with the markdown cells of ``source`` in place of theirs.

    Raises
    ------
    ValueError
        The code cells that ran (all but papermill's injected parameters) are not the code
        cells of ``source``.
    """
    injected = [cell for cell in executed if _tagged(cell, "injected-parameters")]
    ran = [
        cell
        for cell in executed
        if cell.cell_type == "code" and not _tagged(cell, "injected-parameters")
    ]
    code = [cell for cell in source if cell.cell_type == "code"]
    if [cell.source for cell in ran] != [cell.source for cell in code]:
        raise ValueError("its code is not the code of the notebook now: run it again.")
    ran = iter(ran)
    cells = []
    for cell in source:
        cells.append(next(ran) if cell.cell_type == "code" else cell)
        cells += injected if _tagged(cell, "parameters") else []
    return cells


def _tagged(cell, tag):
    """Whether ``cell`` carries ``tag``."""
    return tag in cell.metadata.get("tags", [])


def machine_paths():
    """The paths a published notebook must not show, each with what replaces it.

    The checkout becomes ``..`` (the kernel runs in ``notebooks/``), the data cache and
    mirror the variables that set them, the temporary folder ``$TMPDIR`` and the home
    folder ``~``.

    Returns
    -------
    dict of str to str
    """
    places = {
        paths.ROOT: "..",
        paths.cache_dir(): "$DIMRED_DATA_CACHE",
        paths.mirror_dir() or paths.SHARED_MIRROR: "$DIMRED_DATA_MIRROR",
        Path(tempfile.gettempdir()): "$TMPDIR",
        Path.home(): "~",
    }
    return {
        str(form): label
        for place, label in places.items()
        for form in {Path(place).absolute(), Path(place).resolve()}
        if len(form.parts) > 1
    }


def _scrubber(prefixes):
    """A function replacing each of ``prefixes`` (longest first) where a path starts with it."""
    if not prefixes:
        return lambda text: text
    ordered = sorted(prefixes, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(prefix) + r"(?![\w.-])" for prefix in ordered))
    return lambda text: pattern.sub(lambda match: prefixes[match.group(0)], text)


def _published_metadata(metadata, scrub):
    """The metadata a published notebook keeps (:data:`_KEPT_METADATA`, the run's parameters
    and duration)."""
    run = metadata.get("papermill", {})
    parameters = {
        name: scrub(value) if isinstance(value, str) else value
        for name, value in run.get("parameters", {}).items()
    }
    kept = {key: metadata[key] for key in _KEPT_METADATA if key in metadata}
    return {**kept, "papermill": {"parameters": parameters, "duration": run.get("duration")}}


def _coalesced(outputs):
    """``outputs`` with each run of consecutive writes to one stream joined into one output
    (papermill records every write apart: a progress bar's every update)."""
    joined = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def _published_output(output, scrub):
    """One output as published: streams at their last state, PNGs at screen size, text
    without machine paths."""
    if output.output_type == "stream":
        output.text = scrub(_last_state(output.text))
    else:
        output.data = {
            mime: _screen_png(value) if mime == "image/png" else _scrub_text(value, scrub)
            for mime, value in output.data.items()
        }
    return output


def _scrub_text(value, scrub):
    """``value`` without machine paths when it is text (JSON outputs are left alone)."""
    return scrub(value) if isinstance(value, str) else value


def _last_state(text):
    """A stream as a terminal shows it: of each line, what its last carriage return left."""
    return "\n".join(_after_returns(line) for line in text.split("\n"))


def _after_returns(line):
    """The last non-empty segment of ``line`` between carriage returns."""
    segments = [segment for segment in line.split("\r") if segment]
    return segments[-1] if segments else ""


def _screen_png(data):
    """A base64 PNG scaled down (aspect kept) to fit :data:`MAX_IMAGE_WIDTH` and
    :data:`MAX_IMAGE_BYTES` (opaque, in a 256-colour palette); returned unchanged when it
    fits."""
    from PIL import Image

    raw = base64.b64decode(data)
    image = Image.open(io.BytesIO(raw))
    scale = min(1.0, MAX_IMAGE_WIDTH / image.width, math.sqrt(MAX_IMAGE_BYTES / len(raw)))
    if scale == 1.0:
        return data
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    buffer = io.BytesIO()
    # a 256-colour palette: resampling a plot makes thousands of colours a palette holds
    smaller = image.convert("RGB").resize(size, Image.Resampling.LANCZOS).quantize(256)
    smaller.save(buffer, "PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def missing_data(paper, registry=None):
    """What stops ``paper`` from running for want of data: a message, or ``None``.

    Every file of the datasets whose ``papers`` name ``paper`` and that are not
    ``optional`` (an optional dataset has a fallback in the notebook) is looked for
    in the cache and the mirror, and its URL asked for one byte
    (:func:`~dimred.datasets.probe_sources`, a few seconds at most, in parallel).

    Parameters
    ----------
    paper : str
        Notebook stem.
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.

    Returns
    -------
    str or None
        ``None`` when every file can be obtained, else the message for the user
        (:func:`~dimred.datasets.sources.explain_missing`).
    """
    registry = registry or load_registry()
    needed = [name for name in registry.datasets_of(paper) if not registry[name].optional]
    probes = probe_sources(needed, registry)
    missing = [probe for probe in probes.values() if not probe.ok]
    if not missing:
        return None
    headline = (
        f"{paper}: not started: {len(missing)} of the {len(probes)} data files it needs "
        "can be obtained from no source."
    )
    return explain_missing(missing, headline)


def _failure(paper, error, executed):
    """A notebook's failure in a few lines (a ``PapermillExecutionError``), no traceback."""
    return (
        f"{paper}: the notebook failed in cell {error.exec_count}: {error.ename}: "
        f"{error.evalue}\nThe executed notebook, with the full traceback: {executed}\n"
        "(--traceback or DIMRED_TRACEBACK=1 prints the traceback here.)"
    )


def _value(text):
    """A parameter value from the command line: a Python literal, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def publish_runs(papers, build, figures):
    """Publish each paper's finished run ``<build>/<paper>.ipynb`` to
    ``<figures>/<paper>/<paper>.ipynb`` (:func:`publish`), saying what was done.

    Returns
    -------
    int
        The exit status: 0 every run published, 1 some run missing or unfinished.
    """
    status = 0
    for paper in papers:
        executed = Path(build) / f"{paper}.ipynb"
        destination = Path(figures) / paper / f"{paper}.ipynb"
        try:
            publish(executed, destination, notebook_path(paper))
        except (FileNotFoundError, ValueError) as error:
            print(f"{paper}: not published: {error}", file=sys.stderr)
            status = 1
            continue
        print(f"{paper}: published {destination}", file=sys.stderr)
    return status


def _publish_main(argv):
    """``python -m compendium.notebooks publish [PAPER ...]``."""
    parser = argparse.ArgumentParser(
        prog="python -m compendium.notebooks publish",
        description="Publish finished runs: build/<paper>.ipynb -> figures/<paper>/<paper>.ipynb",
    )
    parser.add_argument(
        "papers", nargs="*", default=list(paths.paper_keys()), help="default: every paper"
    )
    parser.add_argument("--build", type=Path, default=paths.ROOT / "build")
    parser.add_argument("--figures", type=Path, default=paths.FIGURES_DIR)
    args = parser.parse_args(argv)
    return publish_runs(args.papers, args.build, args.figures)


def _parser():
    """The arguments of ``python -m compendium.notebooks PAPER OUTPUT_DIR``."""
    parser = argparse.ArgumentParser(prog="python -m compendium.notebooks")
    parser.add_argument("paper")
    parser.add_argument("output_dir", type=Path, help="the notebook's output_dir")
    parser.add_argument("--executed", type=Path, default=None, help="executed notebook path")
    parser.add_argument("--quick", action="store_true", help="quick parameter set")
    parser.add_argument(
        "-p", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"), help="parameter"
    )
    parser.add_argument(
        "--traceback",
        action="store_true",
        default=os.environ.get("DIMRED_TRACEBACK", "").strip().lower() not in CI_OFF,
        help="on failure, print the notebook's traceback (default: DIMRED_TRACEBACK=1)",
    )
    return parser


def main(argv=None):
    """``python -m compendium.notebooks``: execute one paper's notebook and publish it
    (or, with ``publish`` first, publish finished runs: :func:`publish_runs`).

    Returns
    -------
    int
        The exit status: 0 done, 1 the notebook failed, 2 data missing (not started).
    """
    from papermill.exceptions import PapermillExecutionError

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["publish"]:
        return _publish_main(argv[1:])
    args = _parser().parse_args(argv)
    parameters = {name: _value(value) for name, value in args.p}
    paths.adopt_shared_mirror()
    problem = missing_data(args.paper)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    kind = " (quick parameter set)" if args.quick else ""
    print(f"{args.paper}: executing notebooks/{args.paper}.ipynb{kind}", file=sys.stderr)
    start = time.monotonic()
    try:
        execute(args.paper, args.output_dir, args.executed, args.quick, parameters)
    except PapermillExecutionError as error:
        if args.traceback:
            raise
        print(
            _failure(args.paper, error, _executed_path(args.paper, args.executed)), file=sys.stderr
        )
        return 1
    executed = _executed_path(args.paper, args.executed)
    publish(executed, args.output_dir / f"{args.paper}.ipynb", notebook_path(args.paper))
    seconds = time.monotonic() - start
    for line in closing_lines(args.paper, args.output_dir, seconds, args.quick):
        print(line, file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
