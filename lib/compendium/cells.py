"""What decides that a paper must run again: the code of its notebook, not its file.

``make`` reruns a paper when its notebook changed. JupyterLab rewrites a notebook it has
opened (kernel metadata, outputs, execution counts) without changing what it runs, and
the prose of the markdown cells is no input of the run either (publishing the executed
notebook takes it from the source: :func:`compendium.publishing.publish`). So the
Makefile does not depend on ``notebooks/<paper>.ipynb`` itself but on a stamp holding
:func:`code_digest` of it: the source and tags of every code cell, in order (the
``parameters`` tag decides where papermill injects the parameters). :func:`write_stamp`
rewrites the stamp only when the digest changed, as the parameters stamp is rewritten
only when the parameters change.

This module uses the standard library only: the Makefile runs it as a script,
``python lib/compendium/cells.py NOTEBOOK STAMP``, for every paper on every
``make``, which importing :mod:`dimred` (several seconds) would slow down.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

__all__ = ["code_digest", "main", "write_stamp"]


def code_digest(notebook):
    """sha256 of the code cells of ``notebook``: source and tags, in order.

    Markdown cells, outputs, execution counts, cell ids and every metadata but the tags
    are left out.

    Parameters
    ----------
    notebook : str or Path
        An ``.ipynb`` file.

    Returns
    -------
    str
        Hex digest.
    """
    cells = json.loads(Path(notebook).read_text(encoding="utf-8"))["cells"]
    code = [
        [_text(cell["source"]), sorted(cell["metadata"].get("tags", []))]
        for cell in cells
        if cell["cell_type"] == "code"
    ]
    return hashlib.sha256(json.dumps(code).encode()).hexdigest()


def _text(source):
    """A cell's source as one string (nbformat stores either a string or a list of lines)."""
    return source if isinstance(source, str) else "".join(source)


def write_stamp(notebook, stamp):
    """Write :func:`code_digest` of ``notebook`` to ``stamp`` unless it holds it already.

    A stamp written for the first time is dated to the epoch: it records the code without
    claiming that the code changed, so that a paper whose run is already done (its
    ``.done`` stamp) is not run again for want of the stamp.

    Returns
    -------
    bool
        Whether the stamp was written.
    """
    stamp = Path(stamp)
    digest = code_digest(notebook) + "\n"
    existed = stamp.is_file()
    if existed and stamp.read_text() == digest:
        return False
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(digest)
    if not existed:
        os.utime(stamp, (0, 0))
    return True


def main(argv=None):
    """``python lib/compendium/cells.py NOTEBOOK STAMP``: refresh one stamp."""
    notebook, stamp = sys.argv[1:] if argv is None else argv
    write_stamp(notebook, stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
