"""Verified fetching of the registered files (:mod:`.registry`).

:func:`fetch` returns a local copy under ``cache_dir()/<dataset>/<path>`` and accepts
a file only when its hash matches (the registry's verification of that file), whichever
way it arrived:

1. the cache;
2. the local mirror named by ``DIMRED_DATA_MIRROR`` (laid out as ``<dataset>/<path>``);
3. for a member of a zip archive, a copy of the archive already on disk, under its
   download name (e.g. ``AwA2-features.zip``) in ``cache_dir()/.archives/<dataset>/``
   (where downloads go), ``cache_dir()/<dataset>/`` or ``<mirror>/<dataset>/``;
4. a download from the canonical URL with :mod:`pooch` (a direct URL, or a member
   of a zip archive whose hash is not known and whose members are verified). Every
   request gives up after :data:`TIMEOUT` seconds without an answer.

Nothing that fails verification is deleted from the cache: a cached file, or an
archive in the cache that gave a wrong member, is moved to
``cache_dir()/.rejected/<UTC time>/`` (same relative path), and the warning and the
error say where. Copies from the mirror are read, never changed; a rejected download
is not kept (it can be downloaded again). ``python -m dimred.datasets add`` copies
files a user already has into the cache, verified the same way (:mod:`.adding`).
"""

import functools
import json
import os
import re
import shutil
import warnings
import zipfile
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import pooch
from tqdm import tqdm

from .locations import cache_dir, mirror_dir
from .registry import (
    _SHA256,
    DataDownloadError,
    DataFile,
    DataIntegrityError,
    DataIntegrityWarning,
    Registry,
    load_registry,
)

__all__ = ["TIMEOUT", "fetch", "fetch_all", "install_copy", "local_archives", "verify_cache"]

_POOCH_MISMATCH = re.compile(r"but got ([0-9a-fA-F]+)")
_ARCHIVE_DIR = ".archives"
_FIRST_USE_DIR = ".first-use"
_REJECTED_DIR = ".rejected"
#: Seconds a download waits to connect, and then for each piece of data (requests'
#: ``(connect, read)`` timeout): a dead network fails within seconds, a large download
#: that keeps receiving data is never cut short.
TIMEOUT = (5.0, 10.0)
#: How each verification mode is named in messages.
_LABEL = {"sha256": "sha256", "sha256_content": "content sha256", "first-use": "sha256"}
_MISMATCH = tuple(f"{label} " for label in set(_LABEL.values()))


# ---------------------------------------------------------------- trust on first use
def _record_path(root: Path, entry: DataFile) -> Path:
    """Where the first-use record of ``entry`` lives under the cache ``root``."""
    return root / _FIRST_USE_DIR / entry.dataset / f"{entry.path}.json"


def _recorded(root: Path | None, entry: DataFile) -> str | None:
    """The sha256 recorded on first use, ``None`` when there is no (readable) record."""
    if root is None:
        return None
    try:
        value = json.loads(_record_path(root, entry).read_text())["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, str) and _SHA256.match(value) else None


def _record(root: Path, entry: DataFile, digest: str, where: str) -> None:
    """Record the sha256 of the first copy of a trust-on-first-use file."""
    path = _record_path(root, entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    record = {"sha256": digest, "source": where, "recorded": stamp}
    tmp = _partial(path)
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(tmp, path)
    warnings.warn(
        f"{entry.name}: no hash is registered; trusting this first copy ({where}) and "
        f"recording its sha256 {digest} in {path}",
        DataIntegrityWarning,
        stacklevel=5,
    )


def _expected(entry: DataFile, root: Path | None) -> str | None:
    """The hash a copy of ``entry`` must have; ``None``: first use, nothing recorded."""
    if entry.verification == "first-use":
        return _recorded(root, entry)
    return entry.sha256 if entry.sha256 is not None else entry.sha256_content


def _kind(entry: DataFile) -> str:
    """What the expected hash of ``entry`` is the hash of, for messages."""
    if entry.verification == "first-use":
        return "sha256 (recorded on first use)"
    return _LABEL[entry.verification]


def _integrity_error(entry: DataFile, attempts: list) -> "DataIntegrityError":
    """The :class:`DataIntegrityError` of ``entry`` after ``attempts``."""
    expected = _expected(entry, cache_dir()) or "(none recorded)"
    return DataIntegrityError(entry.name, expected, attempts, _kind(entry))


def fetch(dataset: str, path: str | os.PathLike[str], registry: Registry | None = None) -> Path:
    """Return a verified local copy of one registered file.

    Sources are tried in order: the cache, the mirror (``DIMRED_DATA_MIRROR``), a
    local copy of the file's archive, the download (see the module's docstring). A
    copy is accepted only if its sha256 matches the registry (or the sha256 of its
    decompressed content, or the sha256 recorded on first use); each rejected copy
    gives a :class:`DataIntegrityWarning` saying what became of it (a cached one is
    moved to ``cache_dir()/.rejected/``, never deleted).

    Parameters
    ----------
    dataset : str
        Dataset name, e.g. ``"statlog-heart"``.
    path : path-like
        File path relative to the dataset folder, e.g. ``"heart.dat"``.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    pathlib.Path
        ``cache_dir() / dataset / path``.

    Raises
    ------
    DataIntegrityError
        When no source gives a file with the expected hash.
    DataDownloadError
        When the download fails and no local source had a copy.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import fetch  # doctest: +SKIP
    >>> path = fetch("statlog-heart", "heart.dat")  # doctest: +SKIP
    >>> path.parent.name, path.name  # doctest: +SKIP
    ('statlog-heart', 'heart.dat')
    """
    entry = (registry or load_registry()).file(dataset, path)
    target = cache_dir() / entry.dataset / entry.path
    attempts: list[tuple[str, str]] = []
    if not (
        _from_cache(entry, target, attempts)
        or _from_mirror(entry, target, attempts)
        or _from_archives(entry, target, local_archives(entry), attempts)
    ):
        _download(entry, target, attempts)
    return target


def _set_aside(path: Path) -> str:
    """Move a rejected ``path`` out of the cache's way; say what became of it.

    A file in the cache goes to ``cache_dir()/.rejected/<UTC time>/<same relative
    path>``; a file elsewhere (the mirror) is left as it is.
    """
    root = cache_dir()
    if not path.is_relative_to(root):
        return "left as it is"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    moved = root / _REJECTED_DIR / stamp / path.relative_to(root)
    moved.parent.mkdir(parents=True, exist_ok=True)
    os.replace(path, moved)
    return f"moved to {moved}"


def _reject(entry: DataFile, where: str, actual: str, fate: str, attempts: list) -> None:
    """Record and warn that the copy of ``entry`` at ``where`` has the wrong hash."""
    label = _LABEL[entry.verification]
    attempts.append((where, f"{label} {actual}; {fate}"))
    warnings.warn(
        f"{entry.name}: {where} has {label} {actual}, expected "
        f"{_expected(entry, cache_dir())}; {fate}; trying the next source",
        DataIntegrityWarning,
        stacklevel=4,
    )


def _from_cache(entry: DataFile, target: Path, attempts: list) -> bool:
    """True if the cached copy is valid; a corrupted one is moved aside.

    A trust-on-first-use file with no record is the first copy: its hash is recorded.
    """
    if not target.is_file():
        return False
    actual = entry.digest(target)
    expected = _expected(entry, cache_dir())
    if expected is None:
        _record(cache_dir(), entry, actual, f"cached file {target}")
    elif actual != expected:
        _reject(entry, f"cached file {target}", actual, _set_aside(target), attempts)
        return False
    return True


def _partial(target: Path) -> Path:
    """Temporary name beside ``target`` for a copy being written."""
    return target.with_name(f".{target.name}.{os.getpid()}.part")


def _copy_beside(target: Path, opener: Callable[[], AbstractContextManager[BinaryIO]]) -> Path:
    """Write what ``opener()`` reads to :func:`_partial` ``(target)``; return that path."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _partial(target)
    try:
        with opener() as src, open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


@contextmanager
def _open_member(archive: Path, member: str):
    """Open ``member`` of the zip ``archive`` for reading."""
    with zipfile.ZipFile(archive) as zf, zf.open(member) as fh:
        yield fh


def _accept_copy(tmp: Path, target: Path, entry: DataFile, where: str) -> str | None:
    """Move the copy ``tmp`` to ``target`` if it verifies; else remove it.

    A trust-on-first-use file without a record is accepted, and its hash recorded
    (before it is moved into place).

    Returns
    -------
    str or None
        ``None`` when accepted, else the hash ``tmp`` had.
    """
    actual = entry.digest(tmp)
    expected = _expected(entry, cache_dir())
    if expected is None:
        _record(cache_dir(), entry, actual, where)
    elif actual != expected:
        tmp.unlink()
        return actual
    os.replace(tmp, target)
    return None


def install_copy(
    entry: DataFile, opener: Callable[[], AbstractContextManager[BinaryIO]], where: str
) -> str | None:
    """Copy what ``opener()`` reads into the cache as ``entry``, if it verifies.

    Used to add a copy a user has (:mod:`.adding`); trust on first use applies.

    Parameters
    ----------
    entry : DataFile
    opener : callable
        Returns a context manager giving a binary file object (e.g. ``open(path, "rb")``).
    where : str
        Where the copy comes from, for messages and the first-use record.

    Returns
    -------
    str or None
        ``None`` when the copy is now in the cache, else what is wrong with it.
    """
    target = cache_dir() / entry.dataset / entry.path
    actual = _accept_copy(_copy_beside(target, opener), target, entry, where)
    if actual is None:
        return None
    expected = _expected(entry, cache_dir())
    return f"{where} has {_LABEL[entry.verification]} {actual}, expected {expected}"


def _install(tmp: Path, target: Path, entry: DataFile, where: str, fate: str, attempts) -> bool:
    """:func:`_accept_copy`, recording and warning when ``tmp`` is rejected."""
    actual = _accept_copy(tmp, target, entry, where)
    if actual is not None:
        _reject(entry, where, actual, fate, attempts)
    return actual is None


def _from_mirror(entry: DataFile, target: Path, attempts: list) -> bool:
    """Copy the file from the mirror into the cache if it is there and valid."""
    root = mirror_dir()
    if root is None:
        return False
    source = root / entry.dataset / entry.path
    if not source.is_file():
        attempts.append((f"mirror {source}", "not found"))
        return False
    tmp = _copy_beside(target, functools.partial(open, source, "rb"))
    return _install(tmp, target, entry, f"mirror {source}", "left as it is", attempts)


def local_archives(entry: DataFile) -> list[Path]:
    """The copies on disk of the archive ``entry`` is a member of (none for a direct file).

    Looked for under the archive's download name in ``cache_dir()/.archives/<dataset>/``
    (where :func:`fetch` downloads it), ``cache_dir()/<dataset>/`` and
    ``<mirror>/<dataset>/``, in that order.
    """
    return _archive_paths(entry, cache_dir(), mirror_dir())


def _archive_paths(entry: DataFile, cache: Path | None, mirror: Path | None) -> list[Path]:
    """:func:`local_archives` in the given cache and mirror folders (``None``: none)."""
    if entry.archive is None:
        return []
    folders = [cache / _ARCHIVE_DIR, cache] if cache is not None else []
    folders += [mirror] if mirror is not None else []
    candidates = [folder / entry.dataset / entry.archive.filename for folder in folders]
    return [path for path in candidates if path.is_file()]


def _from_archives(entry: DataFile, target: Path, archives: list[Path], attempts) -> bool:
    """Extract ``entry`` from the first of ``archives`` that gives a valid copy.

    An archive in the cache that gives no valid copy is moved aside.
    """
    for archive in archives:
        where = f"member {entry.member} of {archive}"
        try:
            tmp = _copy_beside(target, functools.partial(_open_member, archive, entry.member))
        except (KeyError, zipfile.BadZipFile) as exc:
            fate = _set_aside(archive)
            attempts.append((where, f"cannot extract: {exc}; {fate}"))
            warnings.warn(
                f"{entry.name}: {where}: cannot extract ({exc}); {fate}; trying the next source",
                DataIntegrityWarning,
                stacklevel=3,
            )
            continue
        actual = _accept_copy(tmp, target, entry, where)
        if actual is None:
            return True
        _reject(entry, where, actual, _set_aside(archive), attempts)
    return False


def _download(entry: DataFile, target: Path, attempts: list) -> None:
    """Download ``entry`` into ``target`` (verified) or raise."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if entry.archive is not None:
        local = cache_dir() / _ARCHIVE_DIR / entry.dataset / entry.archive.filename
        _retrieve(entry, entry.archive.url, entry.archive.sha256, local, attempts)
        if not _from_archives(entry, target, [local], attempts):
            raise _integrity_error(entry, attempts)
    elif entry.sha256 is not None:  # pooch checks the hash
        _retrieve(entry, str(entry.url), entry.sha256, target, attempts)
    else:  # verified (or recorded) after the download
        tmp = _partial(target)
        tmp.unlink(missing_ok=True)
        _retrieve(entry, str(entry.url), None, tmp, attempts)
        if not _install(tmp, target, entry, f"download {entry.url}", "not kept", attempts):
            raise _integrity_error(entry, attempts)


def _retrieve(entry: DataFile, url: str, sha256: str | None, dest: Path, attempts: list) -> None:
    """``pooch.retrieve`` into ``dest`` (with :data:`TIMEOUT`), translating failures."""
    known_hash = None if sha256 is None else f"sha256:{sha256}"
    downloader = pooch.HTTPDownloader(timeout=TIMEOUT)
    try:
        pooch.retrieve(
            url, known_hash=known_hash, fname=dest.name, path=dest.parent, downloader=downloader
        )
    except (OSError, ValueError) as exc:  # requests' errors are OSErrors
        mismatch = _POOCH_MISMATCH.search(str(exc)) if isinstance(exc, ValueError) else None
        if mismatch:
            attempts.append((f"download {url}", f"sha256 {mismatch.group(1).lower()}; not kept"))
            raise _integrity_error(entry, attempts) from exc
        attempts.append((f"download {url}", f"failed: {_root_cause(exc)}"))
        raise _download_error(entry, url, exc, attempts) from exc


def _download_error(entry: DataFile, url: str, exc: BaseException, attempts: list) -> Exception:
    """The error for a failed download: integrity if a source gave wrong bytes."""
    if any(result.startswith(_MISMATCH) for _, result in attempts):
        return _integrity_error(entry, attempts)
    reason = _root_cause(exc)
    return DataDownloadError(
        f"{entry.name}: download from {url} failed ({reason}). No network? Point "
        "DIMRED_DATA_MIRROR at a folder laid out as <dataset>/<file> (e.g. the shared "
        "../shared/data), or hand over a copy you have: python -m dimred.datasets add "
        f"{entry.dataset} PATH",
        name=entry.name,
        url=url,
        reason=reason,
        attempts=attempts,
    )


def fetch_all(
    datasets: Iterable[str] | None = None,
    registry: Registry | None = None,
    *,
    progress: bool = True,
) -> list[Path]:
    """Fetch and verify every file of the given datasets (default: the required ones).

    Parameters
    ----------
    datasets : iterable of str, optional
        Dataset names; default every dataset not marked ``optional``
        (:meth:`Registry.required_datasets`).
    registry : Registry, optional
        Default: :func:`load_registry`.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    list of pathlib.Path
        The verified cached files, in registry order.

    Examples
    --------
    Not run by the doctests: needs the data sets, which it downloads on first use.

    >>> from dimred.datasets import fetch_all  # doctest: +SKIP
    >>> [path.name for path in fetch_all(["statlog-heart"], progress=False)]  # doctest: +SKIP
    ['heart.dat', 'heart.doc']
    """
    registry = registry or load_registry()
    entries = registry.files(registry.required_datasets() if datasets is None else datasets)
    bar = tqdm(entries, desc="fetch", unit="file", disable=not progress)
    return [fetch(entry.dataset, entry.path, registry) for entry in bar]


def verify_cache(
    datasets: Iterable[str] | None = None, registry: Registry | None = None
) -> dict[str, str]:
    """Check the cached copies without fetching anything.

    Parameters
    ----------
    datasets : iterable of str, optional
        Dataset names; default every dataset not marked ``optional``.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    dict
        ``{"<dataset>/<path>": status}`` with status ``"ok"``, ``"missing"``,
        ``"sha256 <actual> (expected <expected>)"`` (``"content sha256 ..."`` for a
        file verified by its decompressed content) or, for a trust-on-first-use file
        whose hash was never recorded, ``"unverified (no first-use record)"``.

    Examples
    --------
    Not run by the doctests: the result depends on what the cache holds.

    >>> from dimred.datasets import verify_cache  # doctest: +SKIP
    >>> verify_cache(["statlog-heart"])  # doctest: +SKIP
    {'statlog-heart/heart.dat': 'ok', 'statlog-heart/heart.doc': 'ok'}
    """
    registry = registry or load_registry()
    status = {}
    for entry in registry.files(registry.required_datasets() if datasets is None else datasets):
        target = cache_dir() / entry.dataset / entry.path
        if not target.is_file():
            status[entry.name] = "missing"
            continue
        actual = entry.digest(target)
        expected = _expected(entry, cache_dir())
        if expected is None:
            status[entry.name] = "unverified (no first-use record)"
        elif actual == expected:
            status[entry.name] = "ok"
        else:
            label = _LABEL[entry.verification]
            status[entry.name] = f"{label} {actual} (expected {expected})"
    return status


def _root_cause(exc: BaseException) -> str:
    """``Type: message`` of the innermost error behind a :mod:`requests` error.

    ``ConnectionError`` wraps urllib3's ``MaxRetryError``, which wraps the cause
    (``NameResolutionError``, ``NewConnectionError``, ...); the connection's
    ``HTTPSConnection(host=..., port=...):`` prefix is left out of the message.
    """
    seen = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        inner = getattr(exc, "reason", None)
        if not isinstance(inner, BaseException):
            inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else None
        if inner is None:
            break
        exc = inner
    message = re.sub(r"^<?\w+(?: object at \w+>|\(host=[^)]*\)): ", "", str(exc))
    return f"{type(exc).__name__}: {message}"
