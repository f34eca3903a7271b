"""Sparse neighbourhood graphs shared by the graph-based embeddings (LSDA, ORML,
LPP, NPE, IsoProjection and their tensor versions)."""

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import euclidean_distances
from sklearn.neighbors import NearestNeighbors

__all__ = [
    "dense_ordinal_graph",
    "heat_kernel_graph",
    "knn_distances",
    "knn_graph",
    "laplacian",
    "split_by_label",
]


def knn_graph(X, n_neighbors, mode="or"):
    """Symmetric 0/1 k-nearest-neighbour graph as a sparse matrix.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        ``k``; must be smaller than ``n_samples``.
    mode : {"or", "and"}, default="or"
        Edge ``i - j`` when ``j`` is among the ``k`` nearest neighbours of ``i``
        *or* (``"and"``: *and*) ``i`` among those of ``j``.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Memory O(n k); no self-loops.
    """
    _check_neighbors(n_neighbors, X.shape[0])
    directed = (
        NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors_graph(mode="connectivity")
    )
    directed.setdiag(0)
    directed.eliminate_zeros()
    graph = directed.maximum(directed.T) if mode == "or" else directed.minimum(directed.T)
    return sp.csr_matrix(graph, dtype=float)


def split_by_label(graph, y):
    """Split a graph's edges into within-label and between-label graphs.

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
    y : ndarray of shape (n,)

    Returns
    -------
    within, between : scipy.sparse.csr_matrix
    """
    coo = sp.coo_matrix(graph)
    same = np.asarray(y)[coo.row] == np.asarray(y)[coo.col]
    shape = graph.shape
    within = sp.csr_matrix((coo.data[same], (coo.row[same], coo.col[same])), shape=shape)
    between = sp.csr_matrix((coo.data[~same], (coo.row[~same], coo.col[~same])), shape=shape)
    return within, between


def knn_distances(X, n_neighbors, codes=None):
    """Directed k-nearest-neighbour distances, optionally rank-enlarged.

    With ``codes`` the distance is ORML's Eq. (3),
    ``d(x_i, x_j) = (|y_i - y_j| + 1) ||x_i - x_j||``. Within one rank it is
    the Euclidean distance, so the ``k`` nearest neighbours of ``x_i`` under
    ``d`` are among the union, over ranks ``c``, of its ``k`` nearest Euclidean
    neighbours of rank ``c``, each scaled by ``|y_i - c| + 1``: one tree query
    per rank, then the ``k`` smallest of at most ``k * n_ranks`` candidates.
    Memory is O(n k n_ranks); no n x n matrix is formed.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        ``k``, with ``0 < k < n_samples``.
    codes : ndarray of shape (n_samples,) of int, optional
        Rank index of each sample; ``None`` gives Euclidean distances.

    Returns
    -------
    distances : ndarray of shape (n_samples, n_neighbors)
        Sorted increasingly; column ``k - 1`` is the distance to the ``k``-th
        neighbour.
    indices : ndarray of shape (n_samples, n_neighbors)
    """
    n_samples = X.shape[0]
    _check_neighbors(n_neighbors, n_samples)
    if codes is None:
        return NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors()
    candidates_d, candidates_i = [], []
    for rank in np.unique(codes):
        members = np.flatnonzero(codes == rank)
        k = min(n_neighbors + 1, members.size)
        dist, idx = NearestNeighbors(n_neighbors=k).fit(X[members]).kneighbors(X)
        idx = members[idx]
        dist = dist * (np.abs(codes - rank) + 1)[:, None]
        dist[idx == np.arange(n_samples)[:, None]] = np.inf  # the point itself
        candidates_d.append(dist)
        candidates_i.append(idx)
    dist, idx = np.hstack(candidates_d), np.hstack(candidates_i)
    order = np.lexsort((idx, dist), axis=1)[:, :n_neighbors]
    return np.take_along_axis(dist, order, 1), np.take_along_axis(idx, order, 1)


def heat_kernel_graph(distances, indices, mode="and"):
    """Symmetric heat-kernel graph of ORML's Eq. (2) from directed k-NN distances.

    ``A_ij = exp(-d_ij^2 / (2 sigma))`` on the edges kept by ``mode``, with
    ``sigma = sum_i d(x_i, x_iK)^2 / n`` the mean squared distance to the
    ``k``-th neighbour (as defined after Eq. 2).

    Parameters
    ----------
    distances, indices : ndarray of shape (n_samples, n_neighbors)
        From :func:`knn_distances`.
    mode : {"and", "or"}, default="and"
        ``"and"``: ORML's two-way criterion, ``i`` and ``j`` each among the
        other's neighbours; ``"or"``: either (LPP's usual graph).

    Returns
    -------
    graph : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    sigma : float
    """
    n_samples, k = distances.shape
    sigma = np.mean(distances[:, -1] ** 2)
    weights = np.exp(-(distances**2) / (2 * sigma)) if sigma > 0 else np.ones_like(distances)
    rows = np.repeat(np.arange(n_samples), k)
    directed = sp.csr_matrix((weights.ravel(), (rows, indices.ravel())), (n_samples,) * 2)
    graph = directed.minimum(directed.T) if mode == "and" else directed.maximum(directed.T)
    return sp.csr_matrix(graph), sigma


def dense_ordinal_graph(X, codes, n_neighbors):
    """Reference construction of ORML's graph through the dense n x n distance matrix.

    The straightforward implementation of Eqs. (2)-(3): all pairwise enlarged
    distances, a sort of each row, the "and" rule on dense masks. O(n^2)
    memory; kept as the baseline of the benchmark and the tests of
    :func:`knn_distances` + :func:`heat_kernel_graph`.

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
    """
    enlarged = (np.abs(codes[:, None] - codes[None, :]) + 1) * euclidean_distances(X)
    np.fill_diagonal(enlarged, np.inf)
    order = np.argsort(enlarged, axis=1, kind="stable")[:, :n_neighbors]
    neighbour = np.zeros(enlarged.shape, dtype=bool)
    np.put_along_axis(neighbour, order, True, axis=1)
    kth = np.take_along_axis(enlarged, order[:, -1:], axis=1).ravel()
    sigma = np.mean(kth**2)
    return np.where(neighbour & neighbour.T, np.exp(-(enlarged**2) / (2 * sigma)), 0.0)


def laplacian(graph):
    """Graph Laplacian ``L = D - A`` (sparse) of a symmetric sparse graph."""
    return sp.diags(np.asarray(graph.sum(axis=1)).ravel()) - graph


def _check_neighbors(n_neighbors, n_samples):
    if not 0 < n_neighbors < n_samples:
        raise ValueError(
            f"n_neighbors={n_neighbors} must satisfy 0 < n_neighbors < n_samples = {n_samples}."
        )
