"""The data of a run: AwA2 when it can be obtained, otherwise the labelled stand-in.

The survey's data are the AwA2 ResNet-101 features (37,322 x 2,048, 50 classes;
:func:`~dimred.datasets.load_awa2`), an optional dataset: no copy is mirrored and
its site cannot be reached from every machine. :func:`load_run_data` tries it
(cache, mirror, canonical URL); when it is not obtainable the run goes on with
**Fashion-MNIST** (:func:`~dimred.datasets.load_fashion_mnist`), real images of
the same kind of task (many samples, hundreds of features, several classes),
scaled to ``[0, 1]`` and subsampled per class. Every table, figure and row of such
a run says so, and no stand-in number is reported as a reproduction.

Why Fashion-MNIST pixels rather than deep features: genuine CNN features of these
images need pretrained weights and about 15 minutes of CPU inference per run of
the data step; the pixels are the obtainable real data of the right shape
(70,000 x 784, 10 classes). What the stand-in cannot show: LDA has at most 9
components (AwA2: 49), and no grid cell above 784 features exists for PCA, FA and
variance selection (such cells are left empty).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import train_test_split

from ... import datasets
from ...datasets.registry import DataDownloadError

__all__ = ["RunData", "load_run_data", "stratified_subsample"]

#: The survey's test fraction (Sec. III-A: 60/40 split).
TEST_SIZE = 0.4


@dataclass(frozen=True)
class RunData:
    """Features, labels and provenance of one run.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int
    name : str
        ``"AwA2"`` or ``"Fashion-MNIST (stand-in)"``: the label of every artefact.
    is_awa2 : bool
    reason : str
        Why AwA2 is not used (empty when it is).
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    is_awa2: bool
    reason: str = ""

    @property
    def label(self):
        """Short tag for titles and columns: ``AwA2`` or ``STAND-IN Fashion-MNIST``."""
        return "AwA2" if self.is_awa2 else "STAND-IN Fashion-MNIST"


def stratified_subsample(y, n, seed):
    """Sorted indices of a stratified random subsample of ``n`` of ``len(y)`` labels.

    ``n = None`` or ``n >= len(y)`` gives every index.
    """
    every = np.arange(len(y))
    if n is None or n >= len(y):
        return every
    kept, _ = train_test_split(every, train_size=n, stratify=y, random_state=seed)
    return np.sort(kept)


def _per_class(y, per_class, seed):
    n = None if per_class is None else per_class * np.unique(y).size
    return stratified_subsample(y, n, seed)


def load_run_data(awa2_per_class, standin_per_class, seed, loader=None):
    """AwA2 if obtainable, else the Fashion-MNIST stand-in (module docstring).

    Parameters
    ----------
    awa2_per_class, standin_per_class : int or None
        Images kept per class (``None``: all) of each dataset, drawn at random
        (seeded) when fewer.
    seed : int
    loader : callable, optional
        ``loader(return_X_y=True)`` returns AwA2 as ``(X, y)`` or raises
        :class:`~dimred.datasets.registry.DataDownloadError`; default
        :func:`~dimred.datasets.load_awa2`.

    Returns
    -------
    RunData
    """
    loader = loader or datasets.load_awa2
    try:
        X, y = loader(return_X_y=True)
    except DataDownloadError as error:
        reason = f"AwA2 features not obtainable here ({str(error).split(' failed')[0]} failed)"
    else:
        keep = _per_class(y, awa2_per_class, seed)
        return RunData(X[keep].astype(np.float64), y[keep], "AwA2", True)
    fashion = datasets.load_fashion_mnist()
    keep = _per_class(fashion.target, standin_per_class, seed)
    X = fashion.data[keep].astype(np.float64) / 255.0
    return RunData(
        X, fashion.target[keep].astype(np.int64), "Fashion-MNIST (stand-in)", False, reason
    )
