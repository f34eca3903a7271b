"""Handing the cache a copy you already have: ``python -m dimred.datasets add``.

A user who has a dataset's files (AwA2's official ``AwA2-features.zip``, or the
files extracted from it, or any registered file) gives their paths to
:func:`add_copies`. For every registered file of the dataset, it looks in those
paths for a copy:

- a zip archive: the member registered for the file (``member`` in the registry),
  else a member of the same name (``<path>`` or ``.../<path>``);
- a folder: the files of the same name anywhere below it, and the zip archives below
  it named like the registered archive (e.g. ``AwA2-features.zip``);
- a file: itself, when it has the registered file's name.

Each candidate is copied into the cache and verified like a download
(:func:`~dimred.datasets.fetching.install_copy`: sha256, content sha256, or trust on
first use, where a file with no registered hash is trusted and its hash recorded).
The user's files are only read, never changed or removed; a copy that fails
verification is not kept, and the result says which hash it had.
"""

import functools
import os
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .fetching import _open_member, install_copy, verify_cache
from .registry import (
    DataFile,
    Registry,
    load_registry,
)

__all__ = ["Added", "add_copies"]


@dataclass(frozen=True)
class Added:
    """What :func:`add_copies` did with one registered file.

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    status : {"added", "cached", "rejected", "not found"}
        ``"added"``: a copy verified and is now in the cache; ``"cached"``: the cache
        already had a verified copy (the paths were not searched); ``"rejected"``:
        every copy found had the wrong hash; ``"not found"``: no copy in the paths.
    detail : str
        Where the copy came from, or what was wrong with each copy found.
    """

    name: str
    status: str
    detail: str

    @property
    def ok(self) -> bool:
        """True when the cache now holds a verified copy."""
        return self.status in ("added", "cached")


def add_copies(
    dataset: str,
    paths: Sequence[str | os.PathLike[str]],
    registry: Registry | None = None,
) -> list[Added]:
    """Copy a dataset's files from ``paths`` into the cache, verified (module docstring).

    Parameters
    ----------
    dataset : str
        Registered dataset name, e.g. ``"awa2-resnet101"``.
    paths : sequence of path-like
        Zip archives, folders or files holding copies of the dataset's files.
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.

    Returns
    -------
    list of Added
        One per registered file of ``dataset``, in registry order.

    Raises
    ------
    FileNotFoundError
        When one of ``paths`` does not exist.
    KeyError
        When ``dataset`` is not registered.

    Examples
    --------
    Not run by the doctests: needs copies of the data set's files.

    >>> from dimred.datasets import add_copies  # doctest: +SKIP
    >>> for added in add_copies("awa2-resnet101", ["AwA2-features.zip"]):  # doctest: +SKIP
    ...     print(added.status, added.name)
    added awa2-resnet101/AwA2-features.txt
    added awa2-resnet101/AwA2-labels.txt
    added awa2-resnet101/AwA2-filenames.txt
    """
    registry = registry or load_registry()
    entries = registry[dataset].files
    paths = [Path(path) for path in paths]
    for path in paths:
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or folder")
    status = verify_cache([dataset], registry)
    return [
        Added(entry.name, "cached", "already in the cache, verified")
        if status[entry.name] == "ok"
        else _add_one(entry, paths)
        for entry in entries
    ]


def _add_one(entry: DataFile, paths: list[Path]) -> Added:
    """Copy the first copy of ``entry`` in ``paths`` that verifies into the cache."""
    wrong = []
    for where, opener in _candidates(entry, paths):
        problem = install_copy(entry, opener, where)
        if problem is None:
            return Added(entry.name, "added", f"from {where}")
        wrong.append(problem)
    if wrong:
        return Added(entry.name, "rejected", "; ".join(wrong) + " (your copy is left as it is)")
    names = ", ".join(str(path) for path in paths)
    return Added(entry.name, "not found", f"no {PurePosixPath(entry.path).name} in {names}")


def _candidates(entry: DataFile, paths: list[Path]) -> Iterator[tuple[str, Callable]]:
    """``(where, opener)`` of every copy of ``entry`` in ``paths`` (module docstring)."""
    name = PurePosixPath(entry.path).name
    wanted = {name} | ({entry.archive.filename} if entry.archive is not None else set())
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.name in wanted and p.is_file())
        else:
            files = [path]
        for file in files:
            if zipfile.is_zipfile(file):
                yield from _members(entry, file)
            elif file.name == name:
                yield str(file), functools.partial(open, file, "rb")


def _members(entry: DataFile, archive: Path) -> Iterator[tuple[str, Callable]]:
    """The members of the zip ``archive`` that may be ``entry`` (registered member first)."""
    with zipfile.ZipFile(archive) as zf:
        names = zf.namelist()
    matches = [m for m in names if m == entry.member]
    matches += [m for m in names if m == entry.path or m.endswith(f"/{entry.path}")]
    for member in dict.fromkeys(matches):
        yield f"member {member} of {archive}", functools.partial(_open_member, archive, member)
