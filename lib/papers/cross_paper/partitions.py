"""The ordinal datasets of the league table and their train/test partitions.

Every dataset is a list of partitions ``(X_train, y_train, X_test, y_test)``:

* the ten ORCA datasets of :data:`~dimred.datasets.ORCA_HOLDOUT_DATASETS` with ORCA's
  own 30 stratified 75/25 hold-outs (Gutiérrez et al., IEEE TKDE 2016), as files;
* car, of which only ORCA's partition 0 is at hand: partition 0 is ORCA's, partitions
  ``1 .. 29`` are drawn here, stratified 75/25, each seeded by its index
  (:func:`drawn_partitions`);
* USPS with the digits as ranks ``0 < 1 < ... < 9`` (the ORML paper's reading,
  Table 2): 50 training images per digit, the rest for testing, one draw per
  partition (:func:`papers.orml.usps.usps_split`);
* the MovieLens users of the ORML paper's Table 1 (19 genre flags -> rating; 100
  training movies, the rest for testing): each user is one partition
  (:func:`papers.orml.movielens.movielens_split`).

Rows are put in a canonical order (lexicographic in the features, then the label,
:func:`canonical`) before any draw and in every ORCA part, so neither a partition nor
the folds drawn inside it depend on the order of a file's rows. USPS and MovieLens
keep the ORML protocol's draws (by digit, and by movie id).
"""

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

from dimred import datasets

from ..orml.movielens import movielens_split, movielens_users
from ..orml.usps import usps_split

__all__ = [
    "CAR_TEST_SIZE",
    "USPS_PER_CLASS",
    "canonical",
    "canonical_order",
    "drawn_partitions",
    "load_partitions",
]

#: Test share of the drawn car partitions (ORCA's hold-outs: 25 %).
CAR_TEST_SIZE = 0.25
#: USPS training images per digit (the middle size of the ORML paper's Table 2).
USPS_PER_CLASS = 50


def canonical_order(X, y):
    """Row indices sorting ``(X, y)`` lexicographically (first feature first)."""
    return np.lexsort((y, *np.asarray(X).T[::-1]))


def canonical(X, y):
    """``(X, y)`` with the rows in :func:`canonical_order`."""
    order = canonical_order(X, y)
    return np.asarray(X)[order], np.asarray(y)[order]


def drawn_partitions(X, y, n_partitions, seed, first=None, test_size=CAR_TEST_SIZE):
    """Stratified ``1 - test_size / test_size`` partitions, partition ``i`` seeded by
    ``(seed, i)``; ``first`` (train and test indices) replaces partition 0.

    Returns
    -------
    list of tuple
        ``(X_train, y_train, X_test, y_test)``, rows in canonical order.
    """
    order = canonical_order(X, y)
    X, y = np.asarray(X)[order], np.asarray(y)[order]
    position = np.argsort(order)  # where each original row went
    partitions = []
    for index in range(n_partitions):
        if index == 0 and first is not None:
            train, test = (np.sort(position[np.asarray(part)]) for part in first)
        else:
            seed_i = int(np.random.SeedSequence([seed, index]).generate_state(1)[0])
            split = StratifiedShuffleSplit(1, test_size=test_size, random_state=seed_i)
            train, test = (np.sort(part) for part in next(split.split(X, y)))
        partitions.append((X[train], y[train], X[test], y[test]))
    return partitions


def _orca(name, n_partitions):
    bunch = datasets.load_orca_holdouts(name)
    return [
        (*canonical(b.X_train, b.y_train), *canonical(b.X_test, b.y_test))
        for b in bunch.partitions[:n_partitions]
    ]


def _car(n_partitions, seed):
    bunch = datasets.load_orca("car")
    first = (bunch.train_index, bunch.test_index)
    return drawn_partitions(bunch.data, bunch.target, n_partitions, seed, first)


def _usps(n_partitions, seed):
    usps = datasets.load_usps()
    X, y = np.asarray(usps.data, dtype=float), np.asarray(usps.target)
    parts = []
    for repetition in range(n_partitions):
        train, test = usps_split(y, USPS_PER_CLASS, repetition, seed)
        parts.append((X[train], y[train], X[test], y[test]))
    return parts


def _movielens(n_users, seed):
    movielens = datasets.load_movielens()
    users = movielens_users(movielens.ratings, n_users, seed=seed)
    return [movielens_split(movielens, user, seed=seed) for user in users]


def load_partitions(names, n_partitions, n_users, seed):
    """``{dataset: [partition, ...]}`` for the datasets ``names`` (module docstring).

    Parameters
    ----------
    names : sequence of str
        ORCA hold-out names, ``"car"``, ``"usps"`` and ``"movielens"``.
    n_partitions : int
        Partitions per dataset (ORCA: the first ``n_partitions`` of its 30; car and
        USPS: that many); MovieLens has one per user.
    n_users : int
        MovieLens users.
    seed : int
    """
    loaders = {
        "car": lambda: _car(n_partitions, seed),
        "usps": lambda: _usps(n_partitions, seed),
        "movielens": lambda: _movielens(n_users, seed),
    }
    return {
        name: loaders[name]() if name in loaders else _orca(name, n_partitions) for name in names
    }
