"""Sparse neighbourhood graphs shared by the graph-based embeddings."""

import numpy as np
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors

__all__ = ["knn_graph", "split_by_label"]


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
    n_samples = X.shape[0]
    if not 0 < n_neighbors < n_samples:
        raise ValueError(
            f"n_neighbors={n_neighbors} must satisfy 0 < n_neighbors < n_samples = {n_samples}."
        )
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
