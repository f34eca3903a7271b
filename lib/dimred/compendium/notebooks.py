"""Executing the papers' notebooks: one code path for ``make figures`` and the tests.

Each paper has ``notebooks/<paper>.ipynb`` (paired with ``notebooks/<paper>.py`` by
jupytext), with a cell tagged ``parameters`` holding at least ``quick`` and
``output_dir``. :func:`execute` runs it through papermill:

* the kernel talks to papermill over IPC sockets in a private temporary folder
  (not TCP, so nothing is sent over the network and the kernel does not warn);
* the kernel's standard error -- every progress bar of the protocols -- is copied
  to this process's standard error as it arrives, so a long run shows its
  progress on the terminal;
* the executed copy is written where the caller says (``build/`` by default).

Command line (used by the Makefile)::

    python -m dimred.compendium.notebooks PAPER OUTPUT_DIR [--quick] [-p NAME VALUE ...]
"""

import argparse
import ast
import shutil
import sys
import tempfile
from pathlib import Path

from . import paths

__all__ = ["execute", "main", "notebook_path"]


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
        Copy the kernel's standard error (the progress bars) to ours.

    Returns
    -------
    nbformat.NotebookNode
    """
    import papermill as pm

    output_dir = Path(output_dir).resolve()
    if output_notebook is None:
        output_notebook = paths.ROOT / "build" / f"{paper}.ipynb"
    output_notebook = Path(output_notebook)
    output_notebook.parent.mkdir(parents=True, exist_ok=True)
    values = {**(parameters or {}), "quick": bool(quick), "output_dir": str(output_dir)}
    sockets = tempfile.mkdtemp(prefix="dimred-kernel-")
    try:
        return pm.execute_notebook(
            str(notebook_path(paper)),
            str(output_notebook),
            parameters=values,
            cwd=str(paths.ROOT / "notebooks"),
            kernel_name="python3",
            progress_bar=False,
            stderr_file=sys.stderr if progress else None,
            kernel_manager_class=_ipc_kernel_manager(sockets),
        )
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def _value(text):
    """A parameter value from the command line: a Python literal, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def main(argv=None):
    """``python -m dimred.compendium.notebooks``: execute one paper's notebook."""
    parser = argparse.ArgumentParser(prog="python -m dimred.compendium.notebooks")
    parser.add_argument("paper")
    parser.add_argument("output_dir", type=Path, help="the notebook's output_dir")
    parser.add_argument("--executed", type=Path, default=None, help="executed notebook path")
    parser.add_argument("--quick", action="store_true", help="quick parameter set")
    parser.add_argument(
        "-p", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"), help="parameter"
    )
    args = parser.parse_args(argv)
    parameters = {name: _value(value) for name, value in args.p}
    print(f"{args.paper}: executing notebooks/{args.paper}.ipynb", file=sys.stderr, flush=True)
    execute(args.paper, args.output_dir, args.executed, args.quick, parameters)
    print(f"{args.paper}: done, outputs in {args.output_dir}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
