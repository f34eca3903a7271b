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
  name and its seconds: ``bvp: table1 ... 12.3 s`` (:mod:`compendium.step_lines`);
* the executed copy is written where the caller says (``build/`` by default);
* the kernel inherits this process's environment: with ``DASK_SCHEDULER`` set (as in
  ``make figures DASK_SCHEDULER=tcp://host:8786``) the sweeps run on that dask
  cluster (:func:`dimred.utils.parallel.run_tasks`), with the same tables.

:func:`~compendium.publishing.publish` turns an executed notebook into the copy that is
committed beside the paper's figures, ``figures/<paper>/<paper>.ipynb``
(:mod:`compendium.publishing`).

Command line (used by the Makefile)::

    python -m compendium.notebooks PAPER OUTPUT_DIR [--quick] [-p NAME VALUE ...]
                                          [--executed PATH] [--traceback]
    python -m compendium.notebooks publish [PAPER ...] [--build DIR] [--figures DIR]

The first form runs the notebook and, when it succeeds, publishes the executed copy to
``OUTPUT_DIR/<paper>.ipynb`` and closes with the statuses of the run's results and where
its outputs are (:func:`~compendium.step_lines.closing_lines`; a quick run adds that its
numbers are not those of the committed full run). The second publishes finished runs already in
``build/<paper>.ipynb`` (every paper by default) without running anything.

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
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from dimred.datasets import load_registry, probe_sources
from dimred.datasets.sources import CI_OFF, explain_missing

from . import paths
from .publishing import publish
from .step_lines import Terminal, closing_lines, step_hooks

__all__ = ["execute", "main", "missing_data", "notebook_path", "publish_runs"]


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
        with its line there (:func:`~compendium.step_lines.step_line`).

    Returns
    -------
    nbformat.NotebookNode
    """
    import papermill as pm

    output_dir = Path(output_dir).resolve()
    output_notebook = _executed_path(paper, output_notebook)
    output_notebook.parent.mkdir(parents=True, exist_ok=True)
    values = {**(parameters or {}), "quick": bool(quick), "output_dir": str(output_dir)}
    terminal = Terminal(sys.stderr)
    hooks = step_hooks(paper, notebook_path(paper), terminal) if progress else {}
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


def _executed_path(paper, output_notebook=None):
    """Where the executed notebook goes: ``output_notebook``, default ``build/<paper>.ipynb``."""
    return Path(output_notebook or paths.ROOT / "build" / f"{paper}.ipynb")


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
    ``<figures>/<paper>/<paper>.ipynb`` (:func:`~compendium.publishing.publish`), saying what
    was done.

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
