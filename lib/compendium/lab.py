"""JupyterLab on the compendium that leaves what git tracks alone (``make lab``).

JupyterLab rewrites every notebook it opens: the kernel's metadata (its display name, the
Python version), outputs, execution counts, cell metadata, and through jupytext the
``.py`` twin's header. :class:`CompendiumContentsManager` is jupytext's contents manager
with two rules:

* a notebook under :data:`SOURCE_FOLDERS` (``notebooks/``, ``docs/``) is saved as a
  source (:func:`as_source`): its cells as edited, but no outputs or execution counts,
  no cell metadata but tags, and the notebook metadata it has on disk; so running or
  saving it changes its files only where a cell changed, and ``make`` reruns a paper only
  when its code changed (:mod:`compendium.cells`);
* a file under :data:`READ_ONLY_FOLDERS` (``figures/``: what ``make figures`` writes,
  the published executed notebooks included) opens read-only and is never saved over.

A published notebook is served as it is on disk (the cells' trust aside, which JupyterLab
never saves), so opening it changes nothing. What marks it unsaved is a kernel: when one
starts, JupyterLab writes the kernel's metadata into the notebook (its display name,
``Python 3 (ipykernel)`` where the source says ``Python 3``, and the ``language_info`` of
the Python it runs). Serving the notebook without that metadata would not do: without a
``kernelspec`` JupyterLab starts a kernel of the ``language_info``'s language, and without
both it asks which kernel to start and shows the code without its highlighting. So
``make lab`` starts JupyterLab at the repository root with this manager
(``--ServerApp.contents_manager_class=compendium.lab.CompendiumContentsManager``) and with
``--LabApp.notebook_starts_kernel=False``: opening a notebook starts no kernel, running
a cell of it does (after asking which: the kernels of its language come first).
"""

from pathlib import Path, PurePosixPath

import jupytext
from jupytext import AsyncTextFileContentsManager
from tornado.web import HTTPError

__all__ = ["READ_ONLY_FOLDERS", "SOURCE_FOLDERS", "CompendiumContentsManager", "as_source"]

#: Top-level folders whose notebooks are sources, saved by :func:`as_source`.
SOURCE_FOLDERS = ("notebooks", "docs")
#: Top-level folders ``make figures`` writes (tables, figures, published notebooks):
#: read-only in JupyterLab.
READ_ONLY_FOLDERS = ("figures",)


def _under(path, folders):
    """Whether the API path ``path`` (relative to the server's root) lies in one of ``folders``."""
    parts = PurePosixPath(path.strip("/")).parts
    return bool(parts) and parts[0] in folders


def as_source(notebook, metadata):
    """``notebook`` as a source notebook is committed: no outputs, no execution counts, cell
    metadata reduced to non-empty tags, and ``metadata`` as the notebook's metadata.

    Parameters
    ----------
    notebook : dict
        A notebook (nbformat 4) as JupyterLab sends it.
    metadata : dict
        The notebook metadata to keep (those of the file on disk).

    Returns
    -------
    dict
    """
    return {**notebook, "metadata": metadata, "cells": [_source_cell(c) for c in notebook["cells"]]}


def _source_cell(cell):
    """One cell as committed: its tags only, and for code no outputs or execution count."""
    tags = cell.get("metadata", {}).get("tags")
    cell = {**cell, "metadata": {"tags": tags} if tags else {}}
    if cell["cell_type"] == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


class CompendiumContentsManager(AsyncTextFileContentsManager):
    """jupytext's contents manager that saves source notebooks as committed and never saves
    over a published one (see the module's description)."""

    def is_writable(self, path):
        """What ``make figures`` writes reads as read-only; the rest as the file system says."""
        return not _under(path, READ_ONLY_FOLDERS) and super().is_writable(path)

    async def save(self, model, path=""):
        """Save ``model``: a source notebook by :func:`as_source` (with the metadata of its
        ``.ipynb``, also when it was opened from its ``.py`` twin), a published one never."""
        if _under(path, READ_ONLY_FOLDERS):
            raise HTTPError(
                403, f"{path} is published by `make figures`: save a copy elsewhere (Save As)."
            )
        if model.get("type") == "notebook" and _under(path, SOURCE_FOLDERS):
            on_disk = Path(self._get_os_path(path.strip("/")))
            paired = on_disk.with_suffix(".ipynb")  # the .py twin has no language_info
            if paired.is_file() or on_disk.is_file():
                metadata = jupytext.read(paired if paired.is_file() else on_disk).metadata
                model = {**model, "content": as_source(model["content"], metadata)}
        return await super().save(model, path)
