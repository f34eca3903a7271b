"""The dataset registry and verified fetching.

Every raw file the compendium uses is listed in ``data/registry.toml`` with its
sha256. :func:`fetch` returns a local copy under ``cache_dir()/<dataset>/<path>``
and accepts a file only when its hash matches, whichever way it arrived:

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

:func:`probe_sources` tells, without fetching anything, which of these sources can
give each file (the URLs are asked for their first byte, with a short timeout).

A file is verified in one of three ways (exactly one per registry entry):

- ``sha256``: the hash of the file's bytes (the usual case);
- ``sha256_content``: the hash of the *decompressed* content of a ``.gz`` file, for
  files that were re-compressed on their way to us (Fashion-MNIST from Debian): any
  gzip stream that decompresses to the registered bytes is accepted;
- ``trust_on_first_use = true``: no hash is known. The first copy obtained is accepted
  and its sha256 recorded in ``cache_dir()/.first-use/<dataset>/<path>.json``; from
  then on every copy (cached, mirrored, downloaded again) must match that record.
  Deleting the record trusts the next copy anew: the cached one if there is one
  (e.g. a file put there by hand), else the next one obtained.

A dataset marked ``optional = true`` (with an ``optional_reason``) is left out of
:meth:`Registry.required_datasets`, the default of :func:`fetch_all`,
:func:`verify_cache`, ``python -m dimred.datasets fetch|verify`` and of the test
suite's data probe (:func:`~dimred.datasets.choose_data_source`), which reports it
but does not require it; it is fetched when named or when its loader asks for it.

The command line is in :mod:`dimred.datasets._cli`.
"""

import functools
import gzip
import hashlib
import json
import os
import re
import shutil
import tomllib
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any, BinaryIO
from urllib.parse import urlparse

import pooch
import requests
from tqdm import tqdm

from .locations import REGISTRY_PATH, cache_dir, mirror_dir

__all__ = [
    "PROBE_TIMEOUT",
    "REGISTRY_PATH",
    "TIMEOUT",
    "Archive",
    "DataDownloadError",
    "DataError",
    "DataFile",
    "DataIntegrityError",
    "DataIntegrityWarning",
    "Dataset",
    "Registry",
    "SourceProbe",
    "content_sha256",
    "fetch",
    "fetch_all",
    "file_sha256",
    "install_copy",
    "load_registry",
    "local_archives",
    "probe_sources",
    "verify_cache",
]

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_POOCH_MISMATCH = re.compile(r"but got ([0-9a-fA-F]+)")
_ARCHIVE_DIR = ".archives"
_FIRST_USE_DIR = ".first-use"
_REJECTED_DIR = ".rejected"
#: Seconds a download waits to connect, and then for each piece of data (requests'
#: ``(connect, read)`` timeout): a dead network fails within seconds, a large download
#: that keeps receiving data is never cut short.
TIMEOUT = (5.0, 10.0)
#: Seconds a probe (:func:`probe_sources`) waits for a URL's first byte, by default.
PROBE_TIMEOUT = 5.0
#: How each verification mode is named in messages.
_LABEL = {"sha256": "sha256", "sha256_content": "content sha256", "first-use": "sha256"}
_MISMATCH = tuple(f"{label} " for label in set(_LABEL.values()))


# ----------------------------------------------------------------------------- errors
class DataError(Exception):
    """A registered file could not be obtained: the base of the two errors below.

    Catch it to fall back on something else (and say why: its message names the
    file, every source tried and what went wrong with each).
    """


class DataIntegrityError(DataError, ValueError):
    """No source gave a file whose sha256 matches the registry.

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    expected : str
        The sha256 recorded in the registry (or on first use).
    attempts : list of tuple of str
        ``(source, actual sha256 or what went wrong)`` for every source tried.
    kind : str
        What ``expected`` is the hash of: ``"sha256"`` (the file), ``"content sha256"``
        (the decompressed content of a ``.gz`` file) or ``"sha256 (recorded on first
        use)"``.
    """

    def __init__(
        self,
        name: str,
        expected: str,
        attempts: Sequence[tuple[str, str]],
        kind: str = "sha256",
    ):
        self.name = name
        self.expected = expected
        self.attempts = list(attempts)
        self.kind = kind
        lines = [f"{name}: no source gave a file with the expected {kind} {expected}"]
        lines += [f"  - {source}: {result}" for source, result in self.attempts]
        super().__init__("\n".join(lines))

    def __reduce__(self):
        return type(self), (self.name, self.expected, self.attempts, self.kind)


class DataDownloadError(DataError, OSError):
    """A download failed (no network, server error) and no other source was usable.

    Parameters
    ----------
    message : str
        What went wrong, for the user.
    name, url, reason : str, optional
        The attributes below (keyword only).
    attempts : sequence of tuple of str, optional

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    url : str
        The URL that failed.
    reason : str
        What went wrong, e.g. ``"ConnectTimeout: ..."`` or ``"HTTPError: 404 ..."``.
    attempts : list of tuple of str
        ``(source, what went wrong)`` for every source tried, the download last.
    """

    def __init__(
        self,
        message: str,
        *,
        name: str = "",
        url: str = "",
        reason: str = "",
        attempts: Sequence[tuple[str, str]] = (),
    ):
        super().__init__(message)
        self.name, self.url, self.reason, self.attempts = name, url, reason, list(attempts)


class DataIntegrityWarning(UserWarning):
    """A copy of a file was rejected because of its hash; another source is tried.

    Also issued when a file with no registered hash is trusted on first use and its
    hash recorded.
    """


# --------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class Archive:
    """A zip archive holding some files of a dataset.

    Attributes
    ----------
    name : str
        Key of the archive in the dataset's ``archives`` table.
    url : str
        Download URL.
    sha256 : str or None
        Hash of the archive, ``None`` when not known (the members are verified).
    """

    name: str
    url: str
    sha256: str | None = None

    @property
    def filename(self) -> str:
        """File name under which the archive is cached."""
        return PurePosixPath(urlparse(self.url).path).name or f"{self.name}.zip"


@dataclass(frozen=True)
class DataFile:
    """One file of a dataset, with its hash and where to download it.

    Exactly one of ``url`` and ``archive`` (with ``member``) is set, and exactly one
    way of verifying it: ``sha256`` (of the file), ``sha256_content`` (of the
    decompressed content of a ``.gz`` file) or ``trust_on_first_use``.
    """

    dataset: str
    path: str
    sha256: str | None
    url: str | None = None
    archive: Archive | None = None
    member: str | None = None
    sha256_content: str | None = None
    trust_on_first_use: bool = False

    @property
    def verification(self) -> str:
        """``"sha256"``, ``"sha256_content"`` or ``"first-use"``."""
        if self.sha256 is not None:
            return "sha256"
        return "sha256_content" if self.sha256_content is not None else "first-use"

    def digest(self, path: str | os.PathLike[str]) -> str:
        """The hash of ``path`` that is compared with the registry's.

        The sha256 of the file, or of its decompressed content for ``sha256_content``
        (a file that is not valid gzip gives a description of the error instead).
        """
        with open(path, "rb") as fh:
            return self.digest_of(fh)

    def digest_of(self, fh: BinaryIO) -> str:
        """:meth:`digest` of the bytes read from the binary file object ``fh``."""
        if self.sha256_content is None:
            return _stream_sha256(fh)
        try:
            with gzip.GzipFile(fileobj=fh) as content:
                return _stream_sha256(content)
        except (OSError, EOFError, zlib.error) as exc:
            return f"unreadable gzip ({type(exc).__name__}: {exc})"

    @property
    def name(self) -> str:
        """``<dataset>/<path>``, as in the mirror and in ``SHA256SUMS``."""
        return f"{self.dataset}/{self.path}"

    @property
    def source(self) -> str:
        """Human-readable download source."""
        if self.archive is not None:
            return f"member {self.member} of {self.archive.url}"
        return str(self.url)


@dataclass(frozen=True)
class Dataset:
    """Registry entry of one dataset: metadata and files.

    ``papers`` are the papers (notebook stems, e.g. ``"bvp"``) whose runs read the
    dataset; ``size`` the approximate total size of its files in bytes (for display:
    files are verified by their hash, not their size).
    """

    name: str
    title: str
    citation: str
    license: str
    homepage: str
    note: str
    files: tuple[DataFile, ...]
    archives: Mapping[str, Archive]
    redistributable: bool | None = None
    optional: bool = False
    optional_reason: str = ""
    papers: tuple[str, ...] = ()
    size: int | None = None

    def file(self, path: str | os.PathLike[str]) -> DataFile:
        """Return the entry of ``path`` (relative to the dataset folder)."""
        key = PurePosixPath(path).as_posix()
        for entry in self.files:
            if entry.path == key:
                return entry
        known = ", ".join(f.path for f in self.files)
        raise KeyError(f"dataset {self.name!r} has no file {key!r} (files: {known})")


@dataclass(frozen=True)
class Registry:
    """All datasets of the compendium, keyed by name."""

    datasets: Mapping[str, Dataset]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Registry":
        """Build a registry from the parsed TOML (a ``{"datasets": {...}}`` mapping)."""
        datasets = {name: _parse_dataset(name, table) for name, table in data["datasets"].items()}
        return cls(MappingProxyType(datasets))

    @classmethod
    def from_toml(cls, path: str | os.PathLike[str]) -> "Registry":
        """Read a registry from a TOML file."""
        with open(path, "rb") as fh:
            return cls.from_dict(tomllib.load(fh))

    def __getitem__(self, name: str) -> Dataset:
        try:
            return self.datasets[name]
        except KeyError:
            known = ", ".join(self.datasets)
            raise KeyError(f"unknown dataset {name!r} (known: {known})") from None

    def __iter__(self):
        return iter(self.datasets)

    def __len__(self) -> int:
        return len(self.datasets)

    def file(self, dataset: str, path: str | os.PathLike[str]) -> DataFile:
        """Return the entry of one file."""
        return self[dataset].file(path)

    def required_datasets(self) -> list[str]:
        """Names of the datasets not marked ``optional`` (the default of fetch/verify)."""
        return [name for name, dataset in self.datasets.items() if not dataset.optional]

    def optional_datasets(self) -> list[str]:
        """Names of the datasets marked ``optional``: fetched only when asked for."""
        return [name for name, dataset in self.datasets.items() if dataset.optional]

    def datasets_of(self, paper: str) -> list[str]:
        """Names of the datasets whose ``papers`` name ``paper``, optional ones included."""
        return [name for name, dataset in self.datasets.items() if paper in dataset.papers]

    def files(self, datasets: Iterable[str] | None = None) -> list[DataFile]:
        """All file entries of the given datasets (default: every dataset)."""
        if isinstance(datasets, str):
            datasets = [datasets]
        names = list(self.datasets) if datasets is None else list(datasets)
        return [entry for name in names for entry in self[name].files]


def _parse_dataset(name: str, table: Mapping[str, Any]) -> Dataset:
    """Validate and convert one ``[datasets.<name>]`` table."""
    archives = {
        key: Archive(key, value["url"], _check_hash(value.get("sha256"), f"{name}:{key}", True))
        for key, value in table.get("archives", {}).items()
    }
    files = tuple(_parse_file(name, item, archives) for item in table.get("files", []))
    if not files:
        raise ValueError(f"registry: dataset {name!r} lists no files")
    optional, reason = table.get("optional", False), table.get("optional_reason", "")
    if not isinstance(optional, bool):
        raise ValueError(f"registry: dataset {name!r}: 'optional' must be true or false")
    if optional and not reason:
        raise ValueError(f"registry: dataset {name!r}: optional, but no 'optional_reason'")
    papers, size = table.get("papers", []), table.get("size")
    if not isinstance(papers, list) or not all(isinstance(p, str) and p for p in papers):
        raise ValueError(f"registry: dataset {name!r}: 'papers' must be a list of names")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
        raise ValueError(f"registry: dataset {name!r}: 'size' must be a number of bytes")
    return Dataset(
        name=name,
        title=table["title"],
        citation=table["citation"],
        license=table["license"],
        homepage=table["homepage"],
        note=table.get("note", ""),
        files=files,
        archives=MappingProxyType(archives),
        redistributable=table.get("redistributable"),
        optional=optional,
        optional_reason=reason,
        papers=tuple(papers),
        size=size,
    )


def _parse_file(dataset: str, item: Mapping[str, Any], archives: Mapping[str, Archive]):
    """Validate and convert one ``[[datasets.<name>.files]]`` entry."""
    path = PurePosixPath(item["path"])
    label = f"{dataset}/{path}"
    if path.is_absolute() or ".." in path.parts:
        raise ValueError(f"registry: {label}: path must be relative, inside the dataset")
    has_url, has_archive = "url" in item, "archive" in item
    if has_url == has_archive:
        raise ValueError(f"registry: {label}: give either 'url' or 'archive' + 'member'")
    archive = None
    if has_archive:
        if item["archive"] not in archives or "member" not in item:
            raise ValueError(f"registry: {label}: unknown archive or missing 'member'")
        archive = archives[item["archive"]]
    tofu = item.get("trust_on_first_use", False)
    if not isinstance(tofu, bool):
        raise ValueError(f"registry: {label}: 'trust_on_first_use' must be true or false")
    modes = [key for key in ("sha256", "sha256_content") if key in item] + ["tofu"] * tofu
    if len(modes) != 1:
        raise ValueError(
            f"registry: {label}: give exactly one of 'sha256', 'sha256_content' "
            "and 'trust_on_first_use = true'"
        )
    if "sha256_content" in item and path.suffix != ".gz":
        raise ValueError(f"registry: {label}: 'sha256_content' is for .gz files only")
    return DataFile(
        dataset=dataset,
        path=path.as_posix(),
        sha256=_check_hash(item.get("sha256"), label, True),
        url=item.get("url"),
        archive=archive,
        member=item.get("member"),
        sha256_content=_check_hash(item.get("sha256_content"), label, True),
        trust_on_first_use=tofu,
    )


def _check_hash(value: str | None, label: str, optional: bool) -> str | None:
    """Return a lower-case sha256 hex digest, or raise for a malformed one."""
    if value is None and optional:
        return None
    if value is None or not _SHA256.match(value.lower()):
        raise ValueError(f"registry: {label}: sha256 must be 64 hex digits, got {value!r}")
    return value.lower()


def load_registry(path: str | os.PathLike[str] | None = None) -> Registry:
    """Load the dataset registry.

    Parameters
    ----------
    path : path-like, optional
        TOML file; default ``data/registry.toml`` of the compendium.

    Returns
    -------
    Registry

    Examples
    --------
    >>> from dimred.datasets import load_registry
    >>> registry = load_registry()
    >>> [entry.path for entry in registry["statlog-heart"].files]
    ['heart.dat', 'heart.doc']
    >>> "awa2-resnet101" in registry.optional_datasets()
    True
    """
    return Registry.from_toml(REGISTRY_PATH if path is None else path)


# --------------------------------------------------------------------------- fetching
def _stream_sha256(fh: BinaryIO) -> str:
    """The sha256 hex digest of everything read from ``fh``."""
    digest = hashlib.sha256()
    for chunk in iter(lambda: fh.read(1 << 20), b""):
        digest.update(chunk)
    return digest.hexdigest()


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Return the sha256 hex digest of a file.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from dimred.datasets import file_sha256
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "abc.txt"
    ...     _ = path.write_bytes(b"abc")
    ...     file_sha256(path)
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    with open(path, "rb") as fh:
        return _stream_sha256(fh)


def content_sha256(path: str | os.PathLike[str]) -> str:
    """Return the sha256 hex digest of the decompressed content of a gzip file.

    Raises
    ------
    OSError, EOFError or zlib.error
        When ``path`` is not a complete gzip file.

    Examples
    --------
    The digest of the decompressed bytes, whatever the compression:

    >>> import gzip
    >>> import tempfile
    >>> from pathlib import Path
    >>> from dimred.datasets import content_sha256
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "abc.txt.gz"
    ...     _ = path.write_bytes(gzip.compress(b"abc"))
    ...     content_sha256(path)
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    with gzip.open(path, "rb") as fh:
        return _stream_sha256(fh)


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


# ---------------------------------------------------------------------------- probing
@dataclass(frozen=True)
class SourceProbe:
    """Where one registered file can be obtained from (see :func:`probe_sources`).

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    source : str or None
        The first source that can give the file (``"cache <path>"``,
        ``"mirror <path>"`` or ``"download <url>"``), ``None`` when none can.
    attempts : tuple of tuple of str
        ``(source, what went wrong)`` for every source tried before ``source``.
    """

    name: str
    source: str | None
    attempts: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """True when some source can give the file."""
        return self.source is not None


def probe_sources(
    datasets: Iterable[str] | None = None,
    registry: Registry | None = None,
    *,
    cache: bool | str | os.PathLike[str] = True,
    mirror: bool | str | os.PathLike[str] | None = True,
    timeout: float = PROBE_TIMEOUT,
    online: bool = True,
) -> dict[str, SourceProbe]:
    """Find, for every file, a source that can give it, without fetching anything.

    The sources are tried in the order of :func:`fetch`: a cached copy, a mirror
    copy and a member of a local copy of its archive (:func:`local_archives`) count
    when their hash matches (a trust-on-first-use file: when it matches the record or
    there is none); a canonical URL counts when it answers a
    request for its first byte with a success status within ``timeout`` seconds (an
    archive member counts when its archive's URL does; each URL is asked once, and
    the URLs are asked in parallel). Nothing is written or removed.

    Parameters
    ----------
    datasets : iterable of str, optional
        Dataset names; default every dataset of the registry.
    registry : Registry, optional
        Default: :func:`load_registry`.
    cache : bool or path-like
        ``True``: :func:`~dimred.datasets.locations.cache_dir`; a path: that folder;
        ``False``: ignore cached copies (and the archives in the cache).
    mirror : bool, path-like or None
        ``True``: ``DIMRED_DATA_MIRROR`` (if set); a path: that folder;
        ``False`` or ``None``: no mirror.
    timeout : float
        Seconds to wait for each URL (connection and first response).
    online : bool
        ``False``: ask no URL; a file without a cached or mirrored copy then has no
        source (its attempts say ``"not asked (offline probe)"``).

    Returns
    -------
    dict
        ``{"<dataset>/<path>": SourceProbe}`` in registry order.

    Examples
    --------
    Offline, with an empty cache and no mirror, no source can give the files:

    >>> import tempfile
    >>> from dimred.datasets import probe_sources
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     probes = probe_sources(["statlog-heart"], cache=empty, mirror=False, online=False)
    >>> list(probes)
    ['statlog-heart/heart.dat', 'statlog-heart/heart.doc']
    >>> [probe.ok for probe in probes.values()]
    [False, False]
    >>> probes["statlog-heart/heart.dat"].attempts[-1][1]
    'not asked (offline probe)'
    """
    registry = registry or load_registry()
    cache_root = cache_dir() if cache is True else (Path(cache) if cache else None)
    mirror_root = mirror_dir() if mirror is True else (Path(mirror) if mirror else None)
    local: dict[str, tuple[DataFile, str | None, list[tuple[str, str]]]] = {}
    for entry in registry.files(datasets):
        attempts: list[tuple[str, str]] = []
        found = _probe_local(entry, cache_root, mirror_root, attempts)
        local[entry.name] = (entry, found, attempts)
    urls = sorted({_url_of(entry) for entry, found, _ in local.values() if found is None})
    urls = urls if online else []
    answers: dict[str, str | None] = {}
    if urls:
        with ThreadPoolExecutor(max_workers=min(32, len(urls))) as pool:
            answers = dict(zip(urls, pool.map(lambda u: _probe_url(u, timeout), urls), strict=True))
    probes = {}
    for name, (entry, found, attempts) in local.items():
        if found is None:
            url = _url_of(entry)
            if not online:
                attempts.append((f"download {url}", "not asked (offline probe)"))
            elif answers[url] is None:
                found = f"download {url}"
            else:
                attempts.append((f"download {url}", answers[url]))
        probes[name] = SourceProbe(name, found, tuple(attempts))
    return probes


def _probe_local(entry: DataFile, cache: Path | None, mirror: Path | None, attempts) -> str | None:
    """The first local source of ``entry`` whose copy verifies, recording the others."""
    expected = _expected(entry, cache)
    candidates = [
        (f"{kind} {root / entry.dataset / entry.path}", root / entry.dataset / entry.path, None)
        for kind, root in (("cache", cache), ("mirror", mirror))
        if root is not None
    ]
    candidates += [
        (f"member {entry.member} of {archive}", archive, entry.member)
        for archive in _archive_paths(entry, cache, mirror)
    ]
    for where, path, member in candidates:
        if not path.is_file():
            attempts.append((where, "not found"))
            continue
        try:
            actual = _member_digest(entry, path, member) if member else entry.digest(path)
        except (KeyError, zipfile.BadZipFile) as exc:
            attempts.append((where, f"cannot extract: {exc}"))
            continue
        if expected is None or actual == expected:
            return where
        attempts.append((where, f"{_LABEL[entry.verification]} {actual}"))
    return None


def _member_digest(entry: DataFile, archive: Path, member: str) -> str:
    """:meth:`DataFile.digest` of ``member`` of the zip ``archive``, read in place."""
    with _open_member(archive, member) as fh:
        return entry.digest_of(fh)


def _url_of(entry: DataFile) -> str:
    """The URL a download of ``entry`` starts from (its archive's, for a member)."""
    return entry.archive.url if entry.archive is not None else str(entry.url)


def _probe_url(url: str, timeout: float) -> str | None:
    """``None`` when ``url`` answers a request for its first byte, else what went wrong.

    The request goes through :mod:`requests`, like :mod:`pooch`'s downloads (same
    proxies, same certificates); the body is not read.
    """
    try:
        with requests.get(
            url, headers={"Range": "bytes=0-0"}, stream=True, timeout=timeout
        ) as response:
            if response.status_code >= 400:
                return f"HTTP {response.status_code} {response.reason}"
    except requests.RequestException as exc:
        return f"unreachable ({_root_cause(exc)})"
    return None


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
