"""Loaders of the ordinal datasets: ORCA (BVP paper), MovieLens-100k, USPS digits and
UMIST faces (ORML paper).

Files are fetched and verified by :func:`dimred.datasets.fetch` (registry
``data/registry.toml``). MovieLens may not be redistributed: it is read from
the verified cache only, never written elsewhere.
"""

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pandas as pd
import scipy.io
from sklearn.utils import Bunch

from .fetching import fetch
from .registry import Registry, load_registry

__all__ = [
    "MOVIELENS_GENRES",
    "ORCA_DATASETS",
    "ORCA_HOLDOUT_DATASETS",
    "ORCA_HOLDOUTS",
    "load_movielens",
    "load_orca",
    "load_orca_holdouts",
    "load_umist",
    "load_usps",
]

#: The 19 genre flags of ``u.item``, in file order (``u.genre``).
MOVIELENS_GENRES = (
    "unknown",
    "Action",
    "Adventure",
    "Animation",
    "Children's",
    "Comedy",
    "Crime",
    "Documentary",
    "Drama",
    "Fantasy",
    "Film-Noir",
    "Horror",
    "Musical",
    "Mystery",
    "Romance",
    "Sci-Fi",
    "Thriller",
    "War",
    "Western",
)


def _provenance(registry, name):
    dataset = registry[name]
    return {"citation": dataset.citation, "license": dataset.license, "note": dataset.note}


def load_movielens(*, registry: Registry | None = None) -> Bunch:
    """MovieLens-100k ratings and the 19 genre flags of every movie.

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        ``ratings`` (DataFrame: user, item, rating 1-5, timestamp; 100,000
        rows), ``genres`` (DataFrame of 0/1 flags indexed by item id 1..1682,
        columns :data:`MOVIELENS_GENRES`), ``titles`` (Series by item id),
        ``citation``, ``license``, ``note``.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import load_movielens  # doctest: +SKIP
    >>> movielens = load_movielens()  # doctest: +SKIP
    >>> movielens.ratings.shape, movielens.genres.shape  # doctest: +SKIP
    ((100000, 4), (1682, 19))
    >>> movielens.ratings.columns.tolist()  # doctest: +SKIP
    ['user', 'item', 'rating', 'timestamp']
    """
    registry = registry or load_registry()
    ratings = pd.read_csv(
        fetch("movielens-100k", "u.data", registry),
        sep="\t",
        names=["user", "item", "rating", "timestamp"],
    )
    items = pd.read_csv(
        fetch("movielens-100k", "u.item", registry),
        sep="|",
        header=None,
        encoding="latin-1",
    )
    genres = items.iloc[:, 5:].set_axis(list(MOVIELENS_GENRES), axis=1).set_index(items[0])
    genres.index.name = "item"
    titles = items.set_index(0)[1].rename("title")
    return Bunch(
        ratings=ratings,
        genres=genres.astype(np.int64),
        titles=titles,
        **_provenance(registry, "movielens-100k"),
    )


def load_usps(*, registry: Registry | None = None) -> Bunch:
    """USPS handwritten digits, the 9,298-image version (Hull 1994), 16 x 16.

    A substitute for the 11,000-image version (1,100 per digit) of the ORML
    paper, of which no intact copy is obtainable (see the registry note).

    Parameters
    ----------
    registry : Registry, optional

    Returns
    -------
    sklearn.utils.Bunch
        ``data`` (float ndarray of shape (9298, 256), grey levels scaled to
        [0, 1], rows are row-major 16 x 16 images), ``target`` (digit 0-9),
        ``image_shape`` ``(16, 16)``, ``citation``, ``license``, ``note``.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import load_usps  # doctest: +SKIP
    >>> usps = load_usps()  # doctest: +SKIP
    >>> usps.data.shape, usps.image_shape  # doctest: +SKIP
    ((9298, 256), (16, 16))
    """
    registry = registry or load_registry()
    table = scipy.io.loadmat(fetch("usps-9298", "usps_all.mat", registry))["usps_all"]
    return Bunch(
        data=table[:, :256].astype(np.float64) / 255.0,
        target=table[:, 256].astype(np.int64) - 1,
        image_shape=(16, 16),
        **_provenance(registry, "usps-9298"),
    )


def load_umist(*, registry: Registry | None = None) -> Bunch:
    """UMIST faces: all 575 images of 20 subjects, downsampled to 32 x 32.

    The ORML paper used the 112 x 92 cropped version downsampled to 56 x 46,
    which is not obtainable; this is the only copy available (see the
    registry note). Images are transposed to upright, row-major.

    Parameters
    ----------
    registry : Registry, optional

    Returns
    -------
    sklearn.utils.Bunch
        ``data`` (float ndarray of shape (575, 1024), grey levels scaled to
        [0, 1]), ``target`` (subject 1-20), ``image_shape`` ``(32, 32)``,
        ``citation``, ``license``, ``note``.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> import numpy as np  # doctest: +SKIP
    >>> from dimred.datasets import load_umist  # doctest: +SKIP
    >>> umist = load_umist()  # doctest: +SKIP
    >>> umist.data.shape, umist.image_shape, np.unique(umist.target).size  # doctest: +SKIP
    ((575, 1024), (32, 32), 20)
    """
    registry = registry or load_registry()
    mat = scipy.io.loadmat(fetch("umist-faces-32x32", "UMIST.mat", registry))
    upright = mat["X"].reshape(-1, 32, 32).transpose(0, 2, 1).reshape(-1, 1024)
    return Bunch(
        data=upright.astype(np.float64) / 255.0,
        target=mat["Y"].ravel().astype(np.int64),
        image_shape=(32, 32),
        **_provenance(registry, "umist-faces-32x32"),
    )


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

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> import numpy as np  # doctest: +SKIP
    >>> from dimred.datasets import load_orca  # doctest: +SKIP
    >>> thyroid = load_orca("newthyroid")  # doctest: +SKIP
    >>> thyroid.data.shape, np.bincount(thyroid.target)[1:].tolist()  # doctest: +SKIP
    ((215, 5), [30, 150, 35])
    >>> thyroid.train_index.size, thyroid.test_index.size  # doctest: +SKIP
    (161, 54)
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


#: The ten ORCA datasets with all 30 holdout partitions (``orca-holdouts``; SOURCES.md
#: section 11): patterns, features and classes.
ORCA_HOLDOUT_DATASETS: Mapping[str, tuple[int, int, int]] = MappingProxyType(
    {
        "automobile": (205, 71, 6),
        "bondrate": (57, 37, 5),
        "contact-lenses": (24, 6, 3),
        "eucalyptus": (736, 91, 5),
        "newthyroid": (215, 5, 3),
        "pasture": (36, 25, 3),
        "squash-stored": (52, 51, 3),
        "squash-unstored": (52, 52, 3),
        "tae": (151, 54, 3),
        "winequality-red": (1599, 11, 6),
    }
)
#: Holdout partitions per dataset (stratified 75/25, ORCA's own).
ORCA_HOLDOUTS = 30


def load_orca_holdouts(name: str, *, registry: Registry | None = None) -> Bunch:
    """An ORCA ordinal dataset with ORCA's own 30 holdout partitions.

    Parameters
    ----------
    name : str
        One of :data:`ORCA_HOLDOUT_DATASETS`.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        ``partitions``: a list of :data:`ORCA_HOLDOUTS` Bunches with ``X_train``,
        ``y_train``, ``X_test``, ``y_test`` (float features, nominal attributes
        already binarised; int labels 1..Q), in partition order; ``n_classes``,
        ``description``, ``citation``, ``license``. Every partition holds every
        pattern once, train or test; the rows of a file are sorted by label.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import load_orca_holdouts  # doctest: +SKIP
    >>> thyroid = load_orca_holdouts("newthyroid")  # doctest: +SKIP
    >>> len(thyroid.partitions), thyroid.n_classes  # doctest: +SKIP
    (30, 3)
    >>> thyroid.partitions[0].X_train.shape, thyroid.partitions[0].X_test.shape  # doctest: +SKIP
    ((161, 5), (54, 5))
    """
    if name not in ORCA_HOLDOUT_DATASETS:
        known = ", ".join(ORCA_HOLDOUT_DATASETS)
        raise ValueError(f"unknown ORCA holdout dataset {name!r} (known: {known})")
    registry = registry or load_registry()
    partitions = [_holdout(name, i, registry) for i in range(ORCA_HOLDOUTS)]
    n, d, n_classes = ORCA_HOLDOUT_DATASETS[name]
    dataset = registry["orca-holdouts"]
    return Bunch(
        partitions=partitions,
        n_classes=n_classes,
        description=(
            f"ORCA ordinal dataset {name} (Gutierrez et al. 2016): {n} patterns, {d} features, "
            f"{n_classes} classes, {ORCA_HOLDOUTS} stratified 75/25 holdouts."
        ),
        citation=dataset.citation,
        license=dataset.license,
    )


def _holdout(name, index, registry):
    """Partition ``index`` of ``name``: its train and test parts."""
    parts = {}
    for part in ("train", "test"):
        path = fetch("orca-holdouts", f"{name}/{part}_{name}.{index}", registry)
        table = np.loadtxt(path, ndmin=2)
        parts[f"X_{part}"], parts[f"y_{part}"] = table[:, :-1], table[:, -1].astype(np.int64)
    return Bunch(**parts)
