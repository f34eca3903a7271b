"""Loader of the AwA2 ResNet-101 features (the AwA2 dimensionality-reduction survey).

Animals with Attributes 2 (Xian et al. 2019) ships 2,048-dimensional ResNet-101
features of 37,322 images of 50 animal classes as a 733 MB text file (one image per
line, space-separated values). The registry entry ``awa2-resnet101`` is *optional*:
no copy is mirrored, so :func:`load_awa2` downloads the 301 MB archive from the
dataset site on first use (see ``data/registry.toml``).

Bring your own copy: a user who has the official ``AwA2-features.zip`` (or the files
extracted from it) runs ``python -m dimred.datasets add awa2-resnet101 PATH`` (the zip
or the folder), or puts the zip, unchanged, in ``<cache>/awa2-resnet101/`` (by default
``data/raw/awa2-resnet101/``) or ``<mirror>/awa2-resnet101/``, or the three files
themselves in either folder. Every file is verified before use; a copy that fails is
never deleted (one in the cache is moved to ``<cache>/.rejected/``), and the error
says where it went.

The text is parsed once, in chunks of rows, straight into a float32 ``.npy`` file
beside it in the cache (:func:`text_to_npy`), so memory stays bounded by the chunk
size while parsing. A small JSON sidecar records the sha256 of the text file it was
made from, its shape and dtype, and the sha256 of the ``.npy`` itself;
:func:`load_npy_cache` trusts the ``.npy`` only when the sidecar names the
registered hash of the source and the ``.npy`` still has its recorded hash,
otherwise it is rebuilt from the (verified) text.
"""

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from .fetching import fetch
from .locations import cache_dir
from .registry import DataIntegrityWarning, Registry, file_sha256, load_registry

__all__ = [
    "AWA2_DATASET",
    "AWA2_MEMBER_DIR",
    "AWA2_SHAPE",
    "load_awa2",
    "load_npy_cache",
    "read_text_matrix",
    "text_shape",
    "text_to_npy",
]

#: Registry id of the dataset.
AWA2_DATASET = "awa2-resnet101"

#: Folder of the three files inside ``AwA2-features.zip``.
AWA2_MEMBER_DIR = "Animals_with_Attributes2/Features/ResNet101"

#: Shape of the feature matrix of the registered ``AwA2-features.txt``.
AWA2_SHAPE = (37322, 2048)

#: Version of the ``.npy`` sidecar written by :func:`text_to_npy`.
CACHE_FORMAT = 1

_FEATURES, _LABELS, _FILENAMES = "AwA2-features.txt", "AwA2-labels.txt", "AwA2-filenames.txt"


# ------------------------------------------------------------------------ text parsing
def text_shape(path: str | os.PathLike[str]) -> tuple[int, int]:
    """Rows and columns of a whitespace-separated numeric text file, in one pass.

    Blank lines are not rows; the number of columns is that of the first row. Only
    one line is held in memory at a time.

    Parameters
    ----------
    path : path-like
        The text file.

    Returns
    -------
    tuple of int
        ``(n_rows, n_columns)``.

    Raises
    ------
    ValueError
        When the file has no non-blank line.
    """
    n_rows, n_columns = 0, 0
    with open(path, "rb") as fh:
        for line in fh:
            if line.isspace():
                continue
            if n_rows == 0:
                n_columns = len(line.split())
            n_rows += 1
    if n_rows == 0:
        raise ValueError(f"{path}: no data rows (the file is empty or blank)")
    return n_rows, n_columns


def read_text_matrix(
    path: str | os.PathLike[str],
    out: np.ndarray | None = None,
    *,
    chunk_rows: int = 1024,
    dtype: np.dtype | type = np.float32,
) -> np.ndarray:
    """Parse a whitespace-separated numeric text file, ``chunk_rows`` rows at a time.

    The rows are parsed by pandas' C parser in chunks and copied into ``out``, a
    preallocated array (e.g. a memory-mapped ``.npy``), so that memory beyond
    ``out`` is bounded by one chunk. The values equal those of
    ``numpy.loadtxt(path, dtype=dtype, ndmin=2)``.

    Parameters
    ----------
    path : path-like
        The text file: one row per line, values separated by spaces or tabs, no
        header; blank lines are skipped.
    out : ndarray, optional
        Array of shape :func:`text_shape` ``(path)`` to fill; default a new array.
    chunk_rows : int
        Rows parsed at a time.
    dtype : dtype
        Floating dtype of a new ``out``.

    Returns
    -------
    ndarray
        ``out``.

    Raises
    ------
    ValueError
        When the file is empty, a row has a different number of values than the
        first, a value is not a number or is missing (NaN), or ``out`` has the wrong
        shape; the message names the file and the row.
    """
    if chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    shape = text_shape(path)
    if out is None:
        out = np.empty(shape, dtype=dtype)
    elif out.shape != shape:
        raise ValueError(f"{path}: holds a {shape[0]} x {shape[1]} matrix, out has {out.shape}")
    row = 0
    with _chunks(path, out.dtype, chunk_rows) as reader:
        for block in reader:
            if block.shape[1] != shape[1]:
                raise ValueError(
                    f"{path}: data rows {row + 1}-{row + len(block)} have {block.shape[1]} "
                    f"values, the first row {shape[1]}"
                )
            if np.isnan(block).any():
                bad = row + int(np.flatnonzero(np.isnan(block).any(axis=1))[0]) + 1
                raise ValueError(
                    f"{path}: data row {bad} has a missing or NaN value "
                    f"(expected {shape[1]} numbers per row)"
                )
            out[row : row + len(block)] = block
            row += len(block)
    if row != shape[0]:
        raise ValueError(f"{path}: parsed {row} rows, counted {shape[0]}")
    return out


def _first_bad_row(path, start: int) -> str | None:
    """Describe the first data row from ``start`` (1-based) that is not like the first."""
    n_columns = None
    row = 0
    with open(path, "rb") as fh:
        for line in fh:
            if line.isspace():
                continue
            row += 1
            fields = line.split()
            n_columns = len(fields) if n_columns is None else n_columns
            if row < start:
                continue
            if len(fields) != n_columns:
                return f"data row {row} has {len(fields)} values, the first row {n_columns}"
            try:
                np.array(fields, dtype=np.float64)
            except ValueError as exc:
                return f"data row {row} is not all numbers ({exc})"
    return None


class _chunks:
    """Context manager iterating over the rows of ``path`` as float blocks (pandas)."""

    def __init__(self, path, dtype, chunk_rows):
        self.path, self.dtype = path, dtype
        try:
            self.reader = pd.read_csv(
                path,
                sep=r"\s+",
                header=None,
                dtype=dtype,
                chunksize=chunk_rows,
                engine="c",
                na_filter=False,
            )
        except ValueError as exc:  # pandas' ParserError is a ValueError
            raise self._error(exc, 1) from exc
        self.rows = 0

    def _error(self, exc, row):
        """The error for a chunk pandas could not parse: the first bad row, if found."""
        problem = _first_bad_row(self.path, row)
        if problem is None:
            return ValueError(f"{self.path}: not a table of numbers (data row {row} on): {exc}")
        return ValueError(f"{self.path}: {problem}")

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.reader.close()

    def __iter__(self):
        while True:
            try:
                chunk = next(self.reader)
            except StopIteration:
                return
            except ValueError as exc:  # a row with too many values, a word, ...
                raise self._error(exc, self.rows + 1) from exc
            block = chunk.to_numpy(dtype=self.dtype, copy=False)
            self.rows += len(block)
            yield block


# ---------------------------------------------------------------------- the .npy cache
def _sidecar(npy_path: Path) -> Path:
    return npy_path.with_name(npy_path.name + ".json")


def text_to_npy(
    text_path: str | os.PathLike[str],
    npy_path: str | os.PathLike[str],
    *,
    source_sha256: str | None = None,
    chunk_rows: int = 1024,
    dtype: np.dtype | type = np.float32,
) -> Path:
    """Parse a numeric text file into a ``.npy`` file with a checked sidecar.

    The matrix is written through a memory map (:func:`numpy.lib.format.open_memmap`)
    chunk by chunk (:func:`read_text_matrix`), under a temporary name; the sidecar
    ``<npy_path>.json`` records ``source_sha256``, the shape, the dtype and the sha256
    of the finished ``.npy``, and is written last.

    Parameters
    ----------
    text_path : path-like
        The whitespace-separated text file.
    npy_path : path-like
        Where to write the ``.npy``.
    source_sha256 : str, optional
        The sha256 of ``text_path`` (computed when not given; pass the verified hash).
    chunk_rows : int
        Rows parsed at a time.
    dtype : dtype
        dtype of the stored matrix.

    Returns
    -------
    pathlib.Path
        ``npy_path``.
    """
    text_path, npy_path = Path(text_path), Path(npy_path)
    source_sha256 = source_sha256 or file_sha256(text_path)
    shape = text_shape(text_path)
    sidecar = _sidecar(npy_path)
    sidecar.unlink(missing_ok=True)  # no stale sidecar may vouch for a half-written .npy
    tmp = npy_path.with_name(f".{npy_path.name}.{os.getpid()}.part")
    try:
        matrix = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.dtype(dtype), shape=shape)
        try:
            read_text_matrix(text_path, matrix, chunk_rows=chunk_rows)
            matrix.flush()
        finally:
            del matrix
        record = {
            "format": CACHE_FORMAT,
            "source": text_path.name,
            "source_sha256": source_sha256,
            "shape": list(shape),
            "dtype": np.dtype(dtype).str,
            "npy_sha256": file_sha256(tmp),
        }
        os.replace(tmp, npy_path)
    finally:
        tmp.unlink(missing_ok=True)
    tmp_sidecar = sidecar.with_name(f".{sidecar.name}.{os.getpid()}.part")
    tmp_sidecar.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(tmp_sidecar, sidecar)
    return npy_path


def load_npy_cache(
    npy_path: str | os.PathLike[str],
    *,
    source_sha256: str,
    mmap_mode: str | None = None,
) -> np.ndarray | None:
    """Load a ``.npy`` written by :func:`text_to_npy` if it can be trusted.

    It is trusted when its sidecar exists, names ``source_sha256`` as the hash of
    the text it was made from, and the ``.npy`` has the recorded sha256, shape and
    dtype. A missing cache gives ``None``; a stale one (made from another source)
    or a corrupted one gives ``None`` with a :class:`DataIntegrityWarning`.

    Parameters
    ----------
    npy_path : path-like
        The ``.npy`` file.
    source_sha256 : str
        The sha256 the source text must have had (the registered hash).
    mmap_mode : {None, "r", "r+", "c"}
        Passed to :func:`numpy.load`.

    Returns
    -------
    ndarray or None
    """
    npy_path = Path(npy_path)
    sidecar = _sidecar(npy_path)
    if not npy_path.is_file() and not sidecar.is_file():
        return None
    try:
        record = json.loads(sidecar.read_text())
        problem = None
        if record.get("format") != CACHE_FORMAT:
            problem = f"sidecar format {record.get('format')!r}"
        elif record.get("source_sha256") != source_sha256:
            problem = (
                f"stale: made from a source with sha256 {record.get('source_sha256')}, "
                f"expected {source_sha256}"
            )
        elif (actual := file_sha256(npy_path)) != record.get("npy_sha256"):
            problem = f"the .npy has sha256 {actual}, recorded {record.get('npy_sha256')}"
    except (OSError, ValueError, AttributeError) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    if problem is None:
        matrix = np.load(npy_path, mmap_mode=mmap_mode, allow_pickle=False)
        if list(matrix.shape) == record.get("shape") and matrix.dtype.str == record.get("dtype"):
            return matrix
        problem = f"holds {matrix.shape} {matrix.dtype}, recorded {record.get('shape')}"
    warnings.warn(
        f"cached {npy_path} is not trusted ({problem}); it is rebuilt from the text",
        DataIntegrityWarning,
        stacklevel=3,
    )
    return None


# ----------------------------------------------------------------------------- loader
def _class_names(filenames: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The class name of each label 1..K, from file names ``<class>_<number>.jpg``."""
    names: dict[int, set[str]] = {}
    for label, filename in zip(labels.tolist(), filenames.tolist(), strict=True):
        names.setdefault(label, set()).add(filename.rsplit("_", 1)[0])
    clash = {label: sorted(found) for label, found in names.items() if len(found) > 1}
    if clash:
        raise ValueError(f"AwA2: file names give several classes for one label: {clash}")
    return np.array([names[label].pop() for label in sorted(names)])


def load_awa2(
    *,
    registry: Registry | None = None,
    mmap_mode: str | None = None,
    chunk_rows: int = 1024,
    return_X_y: bool = False,
) -> Bunch | tuple[np.ndarray, np.ndarray]:
    """AwA2: ResNet-101 features of 37,322 images of 50 animal classes.

    The first call takes ``AwA2-features.zip`` from disk if a copy is there (module
    docstring: bringing your own), else downloads it (about 301 MB; the dataset is
    optional and not mirrored), verifies the members, and parses the 733 MB text
    once into a float32 ``.npy`` beside it in the cache (``<cache>/awa2-resnet101/
    AwA2-features.npy`` and its ``.json`` sidecar, see :func:`text_to_npy`). Later
    calls read the ``.npy`` after checking it against the sidecar and the registered
    hash of the text (:func:`load_npy_cache`); the text file is then not read, and
    may be deleted. Disk: about 1.35 GB with the archive, the text and the ``.npy``.

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.
    mmap_mode : {None, "r", "c"}
        ``None`` reads the matrix into memory (about 306 MB); ``"r"`` memory-maps
        the cached ``.npy`` read-only, ``"c"`` copy-on-write.
    chunk_rows : int
        Rows parsed at a time when the ``.npy`` is (re)built.
    return_X_y : bool
        Return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        ``data`` (float32 ndarray of shape (37322, 2048)), ``target`` (int64, class
        index **0-49**: ``AwA2-labels.txt`` minus 1, in ``classes.txt`` order),
        ``target_names`` (the 50 class names, e.g. ``"grizzly+bear"``, derived from
        the image file names ``<class>_<number>.jpg``; ``target_names[target]`` names
        each row), ``filenames``, ``cache`` (the ``.npy`` path), ``citation``,
        ``license``, ``note``. Rows are sorted by class: shuffle or stratify.

    Raises
    ------
    ValueError
        When the three files disagree (number of rows, labels not 1..K, file names
        naming several classes for one label), the text is not a numeric table, or
        the registry gives no sha256 for ``AwA2-features.txt``.
    DataError
        When a file cannot be obtained: a :class:`~dimred.datasets.DataDownloadError`
        (no local copy, and the download failed) or a
        :class:`~dimred.datasets.DataIntegrityError` (a copy had the wrong hash: the
        message names each source tried, what was wrong, and where a rejected copy
        was moved). Catch :class:`~dimred.datasets.DataError` to fall back on other
        data; its message says why.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use (301 MB).

    >>> from dimred.datasets import load_awa2  # doctest: +SKIP
    >>> awa2 = load_awa2(mmap_mode="r")  # doctest: +SKIP
    >>> awa2.data.shape, awa2.data.dtype  # doctest: +SKIP
    ((37322, 2048), dtype('float32'))
    >>> str(awa2.target_names[awa2.target[0]])  # doctest: +SKIP
    'antelope'
    """
    if mmap_mode not in (None, "r", "c"):
        raise ValueError(f"mmap_mode must be None, 'r' or 'c', got {mmap_mode!r}")
    registry = registry or load_registry()
    dataset = registry[AWA2_DATASET]
    features = dataset.file(_FEATURES)
    if features.sha256 is None:
        raise ValueError(
            f"registry: {features.name} must be registered with its sha256: the .npy "
            "cache is checked against it"
        )
    npy_path = cache_dir() / AWA2_DATASET / Path(_FEATURES).with_suffix(".npy")
    data = load_npy_cache(npy_path, source_sha256=features.sha256, mmap_mode=mmap_mode)
    if data is None:
        text = fetch(AWA2_DATASET, _FEATURES, registry)
        text_to_npy(text, npy_path, source_sha256=features.sha256, chunk_rows=chunk_rows)
        data = load_npy_cache(npy_path, source_sha256=features.sha256, mmap_mode=mmap_mode)
        if data is None:  # pragma: no cover - the cache was just written
            raise ValueError(f"{npy_path}: the freshly written cache does not verify")
    labels = np.loadtxt(fetch(AWA2_DATASET, _LABELS, registry), dtype=np.int64, ndmin=1)
    lines = fetch(AWA2_DATASET, _FILENAMES, registry).read_text().splitlines()
    filenames = np.array([line.strip() for line in lines if line.strip()])
    if not len(labels) == len(filenames) == len(data):
        raise ValueError(
            f"AwA2: {len(data)} feature rows, {len(labels)} labels and {len(filenames)} "
            "file names; the three files must have one line per image"
        )
    n_classes = int(labels.max())
    if labels.min() < 1 or set(np.unique(labels).tolist()) != set(range(1, n_classes + 1)):
        raise ValueError(f"AwA2: labels must be the integers 1..K, got {np.unique(labels)}")
    target = labels - 1
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        target_names=_class_names(filenames, labels),
        filenames=filenames,
        cache=npy_path,
        citation=dataset.citation,
        license=dataset.license,
        note=dataset.note,
    )
