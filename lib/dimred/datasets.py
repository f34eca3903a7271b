"""Data layer: the dataset registry, verified fetching and the dataset loaders.

Every raw file the compendium uses is listed in ``data/registry.toml`` with its
sha256. :func:`fetch` returns a local copy under ``cache_dir()/<dataset>/<path>``
and accepts a file only when its hash matches, whichever way it arrived:

1. the cache (a corrupted or truncated cached file is removed and fetched again);
2. the local mirror named by ``DIMRED_DATA_MIRROR`` (laid out as ``<dataset>/<path>``);
3. a download from the canonical URL with :mod:`pooch` (a direct URL, or a member
   of a zip archive whose hash is not known and whose members are verified).

Command line (used by ``make data``)::

    python -m dimred.datasets fetch  [DATASET ...]   # fetch and verify into the cache
    python -m dimred.datasets verify [DATASET ...]   # check the cache, fetch nothing
    python -m dimred.datasets list
"""

import argparse
import hashlib
import os
import re
import shutil
import sys
import tomllib
import warnings
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any
from urllib.parse import urlparse

import numpy as np
import pandas as pd
import pooch
from sklearn.utils import Bunch
from tqdm.auto import tqdm

from dimred.paths import DATA_DIR, cache_dir, mirror_dir

__all__ = [
    "ORCA_DATASETS",
    "REGISTRY_PATH",
    "Archive",
    "DataDownloadError",
    "DataFile",
    "DataIntegrityError",
    "DataIntegrityWarning",
    "Dataset",
    "Registry",
    "fetch",
    "fetch_all",
    "file_sha256",
    "load_bank_marketing",
    "load_orca",
    "load_registry",
    "load_statlog_australian",
    "load_statlog_heart",
    "main",
    "verify_cache",
]

#: Default location of the registry.
REGISTRY_PATH = DATA_DIR / "registry.toml"

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_POOCH_MISMATCH = re.compile(r"but got ([0-9a-fA-F]+)")
_ARCHIVE_DIR = ".archives"


# ----------------------------------------------------------------------------- errors
class DataIntegrityError(ValueError):
    """No source gave a file whose sha256 matches the registry.

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    expected : str
        The sha256 recorded in the registry.
    attempts : list of tuple of str
        ``(source, actual sha256 or what went wrong)`` for every source tried.
    """

    def __init__(self, name: str, expected: str, attempts: Sequence[tuple[str, str]]):
        self.name = name
        self.expected = expected
        self.attempts = list(attempts)
        lines = [f"{name}: no source gave a file with the expected sha256 {expected}"]
        lines += [f"  - {source}: {result}" for source, result in self.attempts]
        super().__init__("\n".join(lines))

    def __reduce__(self):
        return type(self), (self.name, self.expected, self.attempts)


class DataDownloadError(OSError):
    """A download failed (no network, server error) and no other source was usable."""


class DataIntegrityWarning(UserWarning):
    """A copy of a file was rejected because of its hash; another source is tried."""


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

    Exactly one of ``url`` and ``archive`` (with ``member``) is set.
    """

    dataset: str
    path: str
    sha256: str
    url: str | None = None
    archive: Archive | None = None
    member: str | None = None

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
    """Registry entry of one dataset: metadata and files."""

    name: str
    title: str
    citation: str
    license: str
    homepage: str
    note: str
    files: tuple[DataFile, ...]
    archives: Mapping[str, Archive]
    redistributable: bool | None = None

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
    return DataFile(
        dataset=dataset,
        path=path.as_posix(),
        sha256=_check_hash(item.get("sha256"), label, False),
        url=item.get("url"),
        archive=archive,
        member=item.get("member"),
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
    """
    return Registry.from_toml(REGISTRY_PATH if path is None else path)


# --------------------------------------------------------------------------- fetching
def file_sha256(path: str | os.PathLike[str]) -> str:
    """Return the sha256 hex digest of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def fetch(dataset: str, path: str | os.PathLike[str], registry: Registry | None = None) -> Path:
    """Return a verified local copy of one registered file.

    Sources are tried in order: the cache, the mirror (``DIMRED_DATA_MIRROR``),
    the download. A copy is accepted only if its sha256 matches the registry;
    rejected copies are removed with a :class:`DataIntegrityWarning`.

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
        When the download fails and neither cache nor mirror had a copy.
    """
    entry = (registry or load_registry()).file(dataset, path)
    target = cache_dir() / entry.dataset / entry.path
    attempts: list[tuple[str, str]] = []
    if _from_cache(entry, target) or _from_mirror(entry, target, attempts):
        return target
    _download(entry, target, attempts)
    actual = file_sha256(target)
    if actual != entry.sha256:  # never expected: pooch checks it, but verify anyway
        target.unlink()
        raise DataIntegrityError(entry.name, entry.sha256, [*attempts, (entry.source, actual)])
    return target


def _reject(entry: DataFile, where: str, actual: str) -> None:
    """Warn that a copy of ``entry`` was rejected."""
    warnings.warn(
        f"{entry.name}: {where} has sha256 {actual}, expected {entry.sha256}; "
        "discarding it and trying the next source",
        DataIntegrityWarning,
        stacklevel=4,
    )


def _from_cache(entry: DataFile, target: Path) -> bool:
    """True if the cached copy is valid; a corrupted one is removed."""
    if not target.is_file():
        return False
    actual = file_sha256(target)
    if actual == entry.sha256:
        return True
    _reject(entry, f"cached file {target}", actual)
    target.unlink()
    return False


def _partial(target: Path) -> Path:
    """Temporary name beside ``target`` for a copy being written."""
    return target.with_name(f".{target.name}.{os.getpid()}.part")


def _install(tmp: Path, target: Path, entry: DataFile, where: str, attempts: list) -> bool:
    """Move ``tmp`` to ``target`` if its hash matches, else remove it and warn."""
    actual = file_sha256(tmp)
    if actual == entry.sha256:
        os.replace(tmp, target)
        return True
    tmp.unlink()
    attempts.append((where, f"sha256 {actual}"))
    _reject(entry, where, actual)
    return False


def _from_mirror(entry: DataFile, target: Path, attempts: list) -> bool:
    """Copy the file from the mirror into the cache if it is there and valid."""
    root = mirror_dir()
    if root is None:
        return False
    source = root / entry.dataset / entry.path
    if not source.is_file():
        attempts.append((f"mirror {source}", "not found"))
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _partial(target)
    shutil.copyfile(source, tmp)
    return _install(tmp, target, entry, f"mirror {source}", attempts)


def _download(entry: DataFile, target: Path, attempts: list) -> None:
    """Download ``entry`` into ``target`` (verified) or raise."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if entry.archive is None:
        _retrieve(entry, str(entry.url), entry.sha256, target, attempts)
        return
    archive = entry.archive
    local = cache_dir() / _ARCHIVE_DIR / entry.dataset / archive.filename
    _retrieve(entry, archive.url, archive.sha256, local, attempts)
    _extract_member(entry, local, target, attempts)


def _retrieve(entry: DataFile, url: str, sha256: str | None, dest: Path, attempts: list) -> None:
    """``pooch.retrieve`` into ``dest``, translating failures into our errors."""
    known_hash = None if sha256 is None else f"sha256:{sha256}"
    try:
        pooch.retrieve(url, known_hash=known_hash, fname=dest.name, path=dest.parent)
    except (OSError, ValueError) as exc:  # requests' errors are OSErrors
        mismatch = _POOCH_MISMATCH.search(str(exc)) if isinstance(exc, ValueError) else None
        if mismatch:
            attempts.append((f"download {url}", f"sha256 {mismatch.group(1).lower()}"))
            raise DataIntegrityError(entry.name, entry.sha256, attempts) from exc
        attempts.append((f"download {url}", f"failed: {exc}"))
        raise _download_error(entry, url, exc, attempts) from exc


def _download_error(entry: DataFile, url: str, exc: BaseException, attempts: list) -> Exception:
    """The error for a failed download: integrity if a source gave wrong bytes."""
    if any(result.startswith("sha256") for _, result in attempts):
        return DataIntegrityError(entry.name, entry.sha256, attempts)
    return DataDownloadError(
        f"{entry.name}: download from {url} failed ({type(exc).__name__}: {exc}). "
        "No network? Point DIMRED_DATA_MIRROR at a folder laid out as <dataset>/<file> "
        "(e.g. the shared ../shared/data) to use a local copy instead."
    )


def _extract_member(entry: DataFile, archive: Path, target: Path, attempts: list) -> None:
    """Extract ``entry.member`` from the zip ``archive`` into ``target`` and verify it."""
    where = f"member {entry.member} of {entry.archive.url}"
    tmp = _partial(target)
    try:
        with zipfile.ZipFile(archive) as zf, zf.open(str(entry.member)) as src:
            with open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
    except (KeyError, zipfile.BadZipFile) as exc:
        tmp.unlink(missing_ok=True)
        archive.unlink(missing_ok=True)  # unknown hash: do not trust it next time
        attempts.append((where, f"cannot extract: {exc}"))
        raise DataIntegrityError(entry.name, entry.sha256, attempts) from exc
    if not _install(tmp, target, entry, where, attempts):
        archive.unlink(missing_ok=True)
        raise DataIntegrityError(entry.name, entry.sha256, attempts)


def fetch_all(
    datasets: Iterable[str] | None = None,
    registry: Registry | None = None,
    *,
    progress: bool = True,
) -> list[Path]:
    """Fetch and verify every file of the given datasets (default: all).

    Parameters
    ----------
    datasets : iterable of str, optional
        Dataset names; default every dataset of the registry.
    registry : Registry, optional
        Default: :func:`load_registry`.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    list of pathlib.Path
        The verified cached files, in registry order.
    """
    registry = registry or load_registry()
    entries = registry.files(datasets)
    bar = tqdm(entries, desc="fetch", unit="file", disable=not progress)
    return [fetch(entry.dataset, entry.path, registry) for entry in bar]


def verify_cache(
    datasets: Iterable[str] | None = None, registry: Registry | None = None
) -> dict[str, str]:
    """Check the cached copies without fetching anything.

    Returns
    -------
    dict
        ``{"<dataset>/<path>": status}`` with status ``"ok"``, ``"missing"`` or
        ``"sha256 <actual> (expected <expected>)"``.
    """
    registry = registry or load_registry()
    status = {}
    for entry in registry.files(datasets):
        target = cache_dir() / entry.dataset / entry.path
        if not target.is_file():
            status[entry.name] = "missing"
            continue
        actual = file_sha256(target)
        ok = actual == entry.sha256
        status[entry.name] = "ok" if ok else f"sha256 {actual} (expected {entry.sha256})"
    return status


# ---------------------------------------------------------------------------- loaders
def _as_category(column: pd.Series) -> pd.Series:
    """Categorical dtype with the sorted observed levels (integral floats -> int)."""
    if pd.api.types.is_float_dtype(column) and np.all(np.mod(column.dropna(), 1) == 0):
        column = column.astype(np.int64)
    levels = sorted(column.dropna().unique())
    return column.astype(pd.CategoricalDtype(levels))


def _tabular_bunch(
    frame: pd.DataFrame,
    target: np.ndarray,
    categorical: Sequence[str],
    dataset: Dataset,
    description: str,
) -> Bunch:
    """Assemble the Bunch of a tabular loader (dtypes, mask, minority class)."""
    mask = np.array([name in categorical for name in frame.columns])
    frame = frame.apply(
        lambda col: _as_category(col) if col.name in categorical else col.astype(np.float64)
    )
    target_names, counts = np.unique(target, return_counts=True)
    return Bunch(
        frame=frame,
        target=target,
        target_names=target_names,
        feature_names=list(frame.columns),
        categorical=mask,
        minority_class=target_names[np.argmin(counts)].item(),
        description=description,
        citation=dataset.citation,
        license=dataset.license,
    )


def _read_whitespace(path: Path) -> pd.DataFrame:
    """Read a headerless whitespace-separated table."""
    return pd.read_csv(path, sep=r"\s+", header=None)


AUSTRALIAN_CATEGORICAL = ("A1", "A4", "A5", "A6", "A8", "A9", "A11", "A12")


def load_statlog_australian(*, registry: Registry | None = None) -> Bunch:
    """Statlog Australian Credit Approval (690 records, 14 attributes, classes 0/1).

    Attributes are named ``A1`` .. ``A14`` as in ``australian.doc``. Continuous:
    A2, A3, A7, A10, A13, A14 (float64); categorical: A1, A4, A5, A6, A8, A9,
    A11, A12 (integer codes as ``category`` dtype with the observed levels).

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        ``frame``, ``target`` (0/1), ``target_names``, ``feature_names``,
        ``categorical``, ``minority_class``, ``description``, ``citation``, ``license``.
    """
    registry = registry or load_registry()
    raw = _read_whitespace(fetch("statlog-australian", "australian.dat", registry))
    frame = raw.iloc[:, :14].set_axis([f"A{i}" for i in range(1, 15)], axis=1)
    description = (
        "Statlog Australian Credit Approval (UCI; Quinlan 1987): 690 records, "
        "6 continuous + 8 categorical attributes, classes 0: 383, 1: 307."
    )
    return _tabular_bunch(
        frame,
        raw.iloc[:, 14].to_numpy(),
        AUSTRALIAN_CATEGORICAL,
        registry["statlog-australian"],
        description,
    )


HEART_FEATURES = (
    "age",
    "sex",
    "chest_pain",
    "resting_bp",
    "cholesterol",
    "fasting_blood_sugar",
    "resting_ecg",
    "max_heart_rate",
    "exercise_angina",
    "oldpeak",
    "slope",
    "major_vessels",
    "thal",
)
HEART_CONTINUOUS = ("age", "resting_bp", "cholesterol", "max_heart_rate", "oldpeak")


def load_statlog_heart(*, registry: Registry | None = None) -> Bunch:
    """Statlog Heart (270 records, 13 attributes, class 1 = absence, 2 = presence).

    Feature names are short forms of the ``heart.doc`` attributes. Continuous
    (float64): age, resting_bp, cholesterol, max_heart_rate, oldpeak (doc
    attributes 1, 4, 5, 8, 10). The other 8 are categorical, including
    ``major_vessels`` (doc attribute 12, number of major vessels 0-3): the doc
    calls it "real", but the paper reports 5 continuous and 8 nominal
    attributes, which holds only if this integer count is treated as nominal.

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        Same fields as :func:`load_statlog_australian`; ``target`` is 1/2.
    """
    registry = registry or load_registry()
    raw = _read_whitespace(fetch("statlog-heart", "heart.dat", registry))
    frame = raw.iloc[:, :13].set_axis(list(HEART_FEATURES), axis=1)
    categorical = [name for name in HEART_FEATURES if name not in HEART_CONTINUOUS]
    description = (
        "Statlog Heart (UCI): 270 records, 5 continuous + 8 nominal attributes "
        "(major_vessels counted as nominal), classes 1 (absence): 150, 2 (presence): 120."
    )
    target = raw.iloc[:, 13].to_numpy().astype(np.int64)
    return _tabular_bunch(frame, target, categorical, registry["statlog-heart"], description)


BANK_CATEGORICAL = (
    "job",
    "marital",
    "education",
    "default",
    "housing",
    "loan",
    "contact",
    "month",
    "poutcome",
)


def load_bank_marketing(full: bool = False, *, registry: Registry | None = None) -> Bunch:
    """UCI Bank Marketing (Moro et al. 2014), target ``y`` in {"no", "yes"}.

    Parameters
    ----------
    full : bool
        ``False``: ``bank.csv``, the 10 % sample of 4521 records (the paper's
        data); ``True``: ``bank-full.csv``, 45211 records.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        Same fields as :func:`load_statlog_australian`. 7 numeric features
        (age, balance, day, duration, campaign, pdays, previous; float64) and 9
        categorical ones (job, marital, education, default, housing, loan,
        contact, month, poutcome), where ``"unknown"`` is an ordinary level.
    """
    registry = registry or load_registry()
    name = "bank-full.csv" if full else "bank.csv"
    frame = pd.read_csv(fetch("bank-marketing", name, registry), sep=";")
    target = frame.pop("y").to_numpy(dtype=str)
    counts = "no: 39922, yes: 5289" if full else "no: 4000, yes: 521"
    size = "45211 records (full)" if full else "4521 records (10% sample)"
    description = (
        f"Bank Marketing (UCI; Moro et al. 2014), {name}: {size}, "
        f"7 continuous + 9 nominal attributes, target y ({counts})."
    )
    return _tabular_bunch(frame, target, BANK_CATEGORICAL, registry["bank-marketing"], description)


#: ORCA datasets: (patterns, features, class counts per label 1..Q, origin).
ORCA_DATASETS: Mapping[str, tuple[int, int, tuple[int, ...], str]] = MappingProxyType(
    {
        "contact-lenses": (24, 6, (15, 5, 4), "UCI Lenses"),
        "pasture": (36, 25, (12, 12, 12), "WEKA agricultural datasets"),
        "squash-stored": (52, 51, (23, 21, 8), "WEKA agricultural datasets"),
        "newthyroid": (215, 5, (30, 150, 35), "UCI Thyroid Disease, new-thyroid"),
        "car": (1728, 21, (1210, 384, 69, 65), "UCI Car Evaluation"),
        "bondrate": (57, 37, (6, 33, 12, 5, 1), "Gutierrez et al. 2016, Table 3"),
    }
)


def load_orca(name: str, *, registry: Registry | None = None) -> Bunch:
    """An ORCA ordinal dataset: holdout partition 0, train and test concatenated.

    Parameters
    ----------
    name : str
        One of ``ORCA_DATASETS``: contact-lenses, pasture, squash-stored,
        newthyroid, car, bondrate.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        ``data`` (float ndarray, nominal attributes already binarised),
        ``target`` (int ndarray, ordinal labels 1..Q), ``target_names``,
        ``train_index`` and ``test_index`` (holdout 0 as indices into the
        concatenation train + test), ``feature_names`` (``x1`` ..),
        ``description``, ``citation``, ``license``. Rows are sorted by label
        within each part: shuffle if order matters.
    """
    if name not in ORCA_DATASETS:
        raise ValueError(f"unknown ORCA dataset {name!r} (known: {', '.join(ORCA_DATASETS)})")
    registry = registry or load_registry()
    parts = [
        np.loadtxt(fetch("orca-ordinal", f"{name}/{part}_{name}.0", registry), ndmin=2)
        for part in ("train", "test")
    ]
    table = np.vstack(parts)
    n_train = len(parts[0])
    n, d, counts, origin = ORCA_DATASETS[name]
    description = (
        f"ORCA ordinal dataset {name} ({origin}; Gutierrez et al. 2016, holdout 0): "
        f"{n} patterns, {d} features, classes {'/'.join(map(str, counts))}."
    )
    dataset = registry["orca-ordinal"]
    return Bunch(
        data=table[:, :-1],
        target=table[:, -1].astype(np.int64),
        target_names=np.unique(table[:, -1].astype(np.int64)),
        train_index=np.arange(n_train),
        test_index=np.arange(n_train, len(table)),
        feature_names=[f"x{i}" for i in range(1, table.shape[1])],
        description=description,
        citation=dataset.citation,
        license=dataset.license,
    )


# -------------------------------------------------------------------------------- CLI
def _cli_fetch(registry: Registry, datasets: list[str] | None) -> int:
    """Fetch every file, reporting failures instead of stopping at the first."""
    failures = []
    for entry in tqdm(registry.files(datasets), desc="fetch", unit="file"):
        try:
            fetch(entry.dataset, entry.path, registry)
        except (DataIntegrityError, DataDownloadError) as exc:
            failures.append(str(exc))
    for message in failures:
        print(f"FAILED {message}", file=sys.stderr)
    print(f"{len(registry.files(datasets)) - len(failures)} files ok, {len(failures)} failed")
    return 1 if failures else 0


def _cli_verify(registry: Registry, datasets: list[str] | None) -> int:
    """Report the state of the cache."""
    status = verify_cache(datasets, registry)
    for name, state in status.items():
        print(f"{state:>8}  {name}" if state in ("ok", "missing") else f"CORRUPT  {name}: {state}")
    bad = sum(state != "ok" for state in status.values())
    print(f"{len(status) - bad} files ok, {bad} missing or corrupt (cache: {cache_dir()})")
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: ``python -m dimred.datasets {fetch,verify,list}``."""
    parser = argparse.ArgumentParser(
        prog="python -m dimred.datasets",
        description="Fetch and verify the raw data of the compendium "
        "(env: DIMRED_DATA_CACHE, DIMRED_DATA_MIRROR).",
    )
    parser.add_argument("command", choices=("fetch", "verify", "list"))
    parser.add_argument("datasets", nargs="*", metavar="DATASET", help="default: all")
    parser.add_argument("--registry", type=Path, default=None, help="registry TOML file")
    args = parser.parse_args(argv)
    registry = load_registry(args.registry)
    datasets = args.datasets or None
    try:
        registry.files(datasets)
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    if args.command == "list":
        for name in datasets or registry:
            print(f"{name}: {registry[name].title} ({len(registry[name].files)} files)")
        return 0
    if args.command == "fetch":
        return _cli_fetch(registry, datasets)
    return _cli_verify(registry, datasets)


if __name__ == "__main__":
    sys.exit(main())
