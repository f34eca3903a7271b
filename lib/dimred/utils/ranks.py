"""Neighbour ranks over every point, for the quality measures of embeddings.

:func:`neighbour_keys` gives each query's distances to every point of ``X``, rounded to
the tie grid of :mod:`dimred.utils.graphs` (equal keys are ties), block by block;
:func:`neighbour_order` and :func:`neighbour_ranks` order them, ties to the lowest
index; :func:`crossed_ranks` ranks each point's ``k`` nearest in one space among its
neighbours in the other, without the full rankings. Memory: ``n_queries x n`` keys, a
block at a time.
"""

import numpy as np

from .graphs import TIE_RTOL, _binary_scaled, _check_neighbors, _tie_keys, _tie_unit

__all__ = ["crossed_ranks", "neighbour_keys", "neighbour_order", "neighbour_ranks"]

#: Floats of the coordinate differences held at once by :func:`neighbour_keys`.
_BATCH = 2**18
#: Fewest floats that numpy sums pairwise (fewer: left to right).
_PAIRWISE = 8


def neighbour_keys(X, queries=None, batch=_BATCH):
    """Distances from each query to every point of ``X``, rounded to the tie grid, by blocks.

    The dense counterpart of :func:`~dimred.utils.graphs.knn_distances`, for the quality metrics of
    embeddings of a few thousand points (``n_queries x n`` memory): distances
    from differences, rounded to the tie grid of ``X`` and the queries together
    (equal keys are ties).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    queries : ndarray of shape (n_queries, n_features), optional
        Default ``X`` itself, each point's key for itself then ``inf``.
    batch : int, default=2**18
        Floats of the differences held at once (one buffer, reused by every block).

    Yields
    ------
    start : int
        Index of the block's first query.
    keys : ndarray of shape (n_block, n_samples)
    """
    own = queries is None
    queries = X if own else queries
    both, _ = _binary_scaled(np.vstack([X, queries]))
    X, queries = both[: X.shape[0]], both[X.shape[0] :]
    unit = _tie_unit(both)
    n, m = X.shape[0], queries.shape[0]
    step = max(1, batch // max(n * X.shape[1], 1))
    squared_distances = _squared_distances(X, min(step, m))
    for start in range(0, m, step):
        block = queries[start : start + step]
        keys = _tie_keys(np.sqrt(squared_distances(block)), unit)
        if own:
            keys[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        yield start, keys


def neighbour_order(X, queries=None, batch=_BATCH):
    """Every point of ``X`` in neighbour order, for each query, ties to the lowest index.

    Keys from :func:`neighbour_keys`, ordered by :func:`_strict_keys`.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    queries : ndarray of shape (n_queries, n_features), optional
        Default ``X`` itself, each point then leaving itself out.
    batch : int, default=2**18
        Floats of the differences held at once.

    Returns
    -------
    ndarray of shape (n_queries, n_samples) of int
        Row ``i``: the indices of ``X`` from nearest to farthest to query ``i``
        (``n_samples - 1`` columns when ``queries`` is ``None``).
    """
    own = queries is None
    n, m = X.shape[0], (X if own else queries).shape[0]
    order = np.empty((m, n - own), dtype=np.intp)
    for start, keys in neighbour_keys(X, queries, batch):
        order[start : start + len(keys)] = np.argsort(_strict_keys(keys), axis=1)[:, : n - own]
    return order


def neighbour_ranks(X):
    """``R[i, j]``: the rank of ``x_j`` among the neighbours of ``x_i`` (1 = nearest,
    ``R[i, i] = 0``), by :func:`neighbour_order`."""
    order = neighbour_order(X)
    ranks = np.zeros((X.shape[0], X.shape[0]), dtype=np.intp)
    np.put_along_axis(ranks, order, np.arange(1, X.shape[0]), axis=1)
    return ranks


def crossed_ranks(X, Y, n_neighbors, batch=_BATCH):
    """Each point's ``k`` nearest in one space, ranked in the other, without full rankings.

    The ranks are entries of :func:`neighbour_ranks`: ``R_X[i, j]`` for the ``k``
    nearest ``j`` of ``y_i`` (the first ``k`` of ``neighbour_order(Y)[i]``), and
    ``R_Y[i, j]`` for the ``k`` nearest of ``x_i``. Both spaces' rows of
    :func:`neighbour_keys` are taken block by block, once each: a row's ``k``
    nearest are its ``k`` smallest keys in the strict order of :func:`_strict_keys`
    (a partition, no sort), and the rank of ``x_j`` is one plus the number of keys
    before its own, counted (``O(n k)`` comparisons per row). The keys and their
    order are those of the full rankings, so are the integers.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_components)
    n_neighbors : int
        ``k``, with ``0 < k < n_samples``.
    batch : int, default=2**18
        Floats of the differences held at once in the space with more columns; a
        block of rows also holds ``k`` comparisons per key.

    Returns
    -------
    ranks_x, ranks_y : ndarray of shape (n_samples, n_neighbors) of int
        Row ``i``: the ranks in ``X`` of the ``k`` nearest of ``y_i``, and in ``Y``
        of the ``k`` nearest of ``x_i``, each set in increasing column order.
    """
    n = X.shape[0]
    _check_neighbors(n_neighbors, n)
    step = max(1, batch // max(n * max(X.shape[1], Y.shape[1]), 1))
    blocks = zip(
        neighbour_keys(X, batch=step * n * X.shape[1]),
        neighbour_keys(Y, batch=step * n * Y.shape[1]),
        strict=True,
    )
    ranks_x, ranks_y = np.empty((2, n, n_neighbors), dtype=np.intp)
    for (start, keys_x), (_, keys_y) in blocks:
        rows = slice(start, start + len(keys_x))
        strict_x, strict_y = _strict_keys(keys_x), _strict_keys(keys_y)
        ranks_x[rows] = _ranks_of_nearest(strict_x, strict_y, n_neighbors)
        ranks_y[rows] = _ranks_of_nearest(strict_y, strict_x, n_neighbors)
    return ranks_x, ranks_y


def _ranks_of_nearest(ranked, nearest, n_neighbors):
    """Ranks by the strict keys ``ranked`` of the ``k`` smallest of ``nearest``, row by row."""
    columns = np.sort(np.argpartition(nearest, n_neighbors - 1, axis=1)[:, :n_neighbors], axis=1)
    chosen = np.take_along_axis(ranked, columns, axis=1)
    return 1 + np.count_nonzero(ranked[:, None, :] < chosen[:, :, None], axis=2)


def _squared_distances(X, n_rows):
    """A function of a block of at most ``n_rows`` queries giving their squared distances
    to every point of ``X``: ``np.sum(difference * difference, axis=-1)``, bit for bit.

    With :data:`_PAIRWISE` features or more, that sum over the differences of each
    pair (in one buffer, reused). With fewer, numpy adds a row's floats from left to
    right (its pairwise summation starts at 8), and so does the sum here, feature by
    feature over the whole block: the same floats without a short loop per pair.
    """
    n, n_features = X.shape
    if n_features < _PAIRWISE:
        features = np.ascontiguousarray(X.T)

        def by_feature(block):
            pairs = zip(block.T, features, strict=True)
            total = np.square(np.subtract.outer(*next(pairs)))
            for query, feature in pairs:
                difference = np.subtract.outer(query, feature)
                total += difference * difference
            return total

        return by_feature
    buffer = np.empty((n_rows, n, n_features))

    def by_pair(block):
        difference = np.subtract(block[:, None, :], X[None, :, :], out=buffer[: len(block)])
        return np.sum(np.multiply(difference, difference, out=difference), axis=2)

    return by_pair


def _strict_keys(keys):
    """The order (key, column) of :func:`neighbour_keys`' rows as one float per entry.

    ``key * n + column``: the keys are integers at most ``1 / TIE_RTOL + 1`` (no
    distance exceeds the diameter), so for ``n`` below about ``2^53 TIE_RTOL``
    (900,000 points) the products and sums are exact integers, all distinct in a
    row; a key ``inf`` stays ``inf``.
    """
    n = keys.shape[1]
    if n * (1 / TIE_RTOL + 2) > 2**53:
        raise ValueError(f"Neighbour ranks of {n} points exceed the exact integers of a float.")
    return keys * n + np.arange(n)
