"""The dataset registry: what every raw file is, where it comes from and how it is verified.

Every raw file the compendium uses is listed in ``data/registry.toml`` with its
sha256; :func:`load_registry` reads it into a :class:`Registry` of :class:`Dataset`
entries, each with its :class:`DataFile` files (a member of a zip :class:`Archive`,
or a direct URL). :func:`~dimred.datasets.fetching.fetch` returns verified local copies
(:mod:`.fetching`); :func:`~dimred.datasets.probing.probe_sources` tells where each file
can come from without fetching it (:mod:`.probing`).

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
:meth:`Registry.required_datasets`, the default of
:func:`~dimred.datasets.fetching.fetch_all`, :func:`~dimred.datasets.fetching.verify_cache`,
``python -m dimred.datasets fetch|verify`` and of the test suite's data probe
(:func:`~dimred.datasets.choose_data_source`), which reports it but does not require
it; it is fetched when named or when its loader asks for it.

The command line is in :mod:`dimred.datasets._cli`.
"""

import gzip
import hashlib
import os
import re
import tomllib
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Any, BinaryIO
from urllib.parse import urlparse

from .locations import REGISTRY_PATH

__all__ = [
    "REGISTRY_PATH",
    "Archive",
    "DataDownloadError",
    "DataError",
    "DataFile",
    "DataIntegrityError",
    "DataIntegrityWarning",
    "Dataset",
    "Registry",
    "content_sha256",
    "file_sha256",
    "load_registry",
]

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


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
