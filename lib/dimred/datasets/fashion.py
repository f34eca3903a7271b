"""Loader of Fashion-MNIST (a real-image stand-in for the AwA2 survey).

The four IDX files are registered with the sha256 of their *decompressed* content
(``sha256_content``): the mirrored copies were re-compressed by Debian, so the
``.gz`` bytes differ from the canonical ones while the images are the same.
"""

import gzip
import os

import numpy as np
from sklearn.utils import Bunch

from .fetching import fetch
from .registry import Registry, load_registry

__all__ = ["FASHION_MNIST_CLASSES", "load_fashion_mnist", "read_idx"]

#: Class names of the labels 0..9 (the Fashion-MNIST README).
FASHION_MNIST_CLASSES = (
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
)

#: IDX type codes and the (big-endian) dtypes they stand for.
_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an IDX file (the MNIST format), gzip-compressed or not.

    Parameters
    ----------
    path : path-like
        The file; a name ending in ``.gz`` is decompressed.

    Returns
    -------
    ndarray
        The array, in native byte order, with the dimensions of the header.

    Raises
    ------
    ValueError
        When the header is not an IDX header or the size does not match it.
    """
    opener = gzip.open if os.fspath(path).endswith(".gz") else open
    with opener(path, "rb") as fh:
        raw = fh.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_TYPES:
        raise ValueError(f"{path}: not an IDX file (magic bytes {raw[:4].hex() or 'none'})")
    ndim, dtype = raw[3], np.dtype(_IDX_TYPES[raw[2]])
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{path}: truncated IDX header")
    shape = tuple(int(d) for d in np.frombuffer(raw, ">u4", count=ndim, offset=4))
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise ValueError(
            f"{path}: IDX header says {shape} of {dtype}, i.e. {expected} bytes; "
            f"the file has {len(raw)}"
        )
    return np.frombuffer(raw, dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def load_fashion_mnist(
    *,
    registry: Registry | None = None,
    as_float: bool = False,
    return_X_y: bool = False,
) -> Bunch | tuple[np.ndarray, np.ndarray]:
    """Fashion-MNIST: 70,000 grey-scale 28 x 28 images of 10 clothing classes.

    The 60,000 training images come first, then the 10,000 test images.

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.
    as_float : bool
        ``False``: grey levels as uint8 0-255; ``True``: float32 scaled to [0, 1].
    return_X_y : bool
        Return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        ``data`` (ndarray of shape (70000, 784), rows are row-major 28 x 28 images),
        ``target`` (int64, 0-9), ``target_names`` (:data:`FASHION_MNIST_CLASSES`),
        ``is_train`` (bool, ``True`` for the 60,000 training images),
        ``train_index`` and ``test_index`` (the official split as row indices),
        ``image_shape`` ``(28, 28)``, ``citation``, ``license``, ``note``.

    Raises
    ------
    ValueError
        When a file is not a valid IDX file, or images and labels disagree.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import load_fashion_mnist  # doctest: +SKIP
    >>> fashion = load_fashion_mnist()  # doctest: +SKIP
    >>> fashion.data.shape, fashion.data.dtype  # doctest: +SKIP
    ((70000, 784), dtype('uint8'))
    >>> fashion.train_index.size, fashion.test_index.size  # doctest: +SKIP
    (60000, 10000)
    >>> str(fashion.target_names[0])  # doctest: +SKIP
    'T-shirt/top'
    """
    registry = registry or load_registry()
    parts = []
    for part in ("train", "t10k"):
        images = read_idx(fetch("fashion-mnist", f"{part}-images-idx3-ubyte.gz", registry))
        labels = read_idx(fetch("fashion-mnist", f"{part}-labels-idx1-ubyte.gz", registry))
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise ValueError(
                f"Fashion-MNIST {part}: images {images.shape} and labels {labels.shape} "
                "do not match (expected (n, 28, 28) and (n,))"
            )
        parts.append((images.reshape(len(images), -1), labels.astype(np.int64)))
    data = np.concatenate([images for images, _ in parts])
    target = np.concatenate([labels for _, labels in parts])
    if target.min() < 0 or target.max() >= len(FASHION_MNIST_CLASSES):
        raise ValueError(f"Fashion-MNIST: labels outside 0-9: {np.unique(target)}")
    if as_float:
        data = data.astype(np.float32) / np.float32(255)
    if return_X_y:
        return data, target
    n_train = len(parts[0][1])
    dataset = registry["fashion-mnist"]
    return Bunch(
        data=data,
        target=target,
        target_names=np.array(FASHION_MNIST_CLASSES),
        is_train=np.arange(len(target)) < n_train,
        train_index=np.arange(n_train),
        test_index=np.arange(n_train, len(target)),
        image_shape=(28, 28),
        citation=dataset.citation,
        license=dataset.license,
        note=dataset.note,
    )
