"""Sparse neighbourhood graphs shared by the graph-based embeddings (LSDA, ORML,
LPP, NPE, IsoProjection and their tensor versions).

Which neighbours are the nearest
--------------------------------
Discrete data tie massively (MovieLens' binary genre vectors: a user's 100
training movies hold dozens of duplicates, and most points have many neighbours
at the distance of their ``k``-th). A tie broken by floating-point noise makes
the graph -- and every estimator built on it -- depend on the BLAS kernel and
the tree traversal; a tie broken by index makes it depend on the order of the
rows in the file. Here the neighbours of ``x_i`` are a function of the data
alone:

1. distances are computed directly, ``||x_i - x_j||`` from the difference
   (not from ``||x||^2 - 2 x.y + ||y||^2``, which is off by ~1e-8 of the data
   scale for near points); the norm expansion only pre-selects candidates,
   with a margin that provably keeps every candidate;
2. each distance is rounded to a grid of :data:`TIE_RTOL` times the data's
   diameter (the diagonal of its bounding box), so that distances equal in
   exact arithmetic compare equal;
3. **graphs** (:func:`knn_neighbourhoods`, :func:`knn_graph`,
   :func:`heat_kernel_graph`) take every point tied with the ``k``-th
   neighbour: the neighbourhood of ``x_i`` is every ``x_j`` (``j != i``) with
   fewer than ``k`` points strictly nearer, the convention of R's
   ``class::knn(use.all = TRUE)``. It holds ``k`` points when there is no tie
   at the ``k``-th distance and more when there is; it is the same set under
   any permutation of the rows, so the graph permutes with them;
4. :func:`knn_distances` -- a fixed ``k`` per point, for the quality measures
   and candidate searches that need exactly ``k`` -- takes the tied in
   increasing index order (ties to the lowest row index).

Distances are computed on ``X`` divided by a power of two near its largest
magnitude (exact), so that their squares neither overflow nor underflow: the
neighbours of ``X * 1e200`` or ``X * 1e-200`` are those of ``X``.

Working memory is O(n k) (O(n m) for neighbourhoods of ``m`` tied points) plus a
block of at most ``max(n k, 2^20)`` floats; no ``n x n`` matrix is formed, except
by the dense reference :func:`dense_ordinal_graph`, which applies the same rule
and gives the same graph.
"""

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

__all__ = [
    "TIE_RTOL",
    "Neighbourhoods",
    "check_n_neighbors",
    "dense_ordinal_graph",
    "heat_kernel_graph",
    "knn_distances",
    "knn_graph",
    "knn_neighbourhoods",
    "laplacian",
    "split_by_label",
]

#: Distances closer than this fraction of the data's diameter are ties (broken by index).
TIE_RTOL = 1e-10
#: Floats per block of the candidate search (at least ``n * k``).
_BLOCK = 2**20


@dataclass(frozen=True)
class Neighbourhoods:
    """Directed k-nearest neighbourhoods with ties, in CSR layout.

    Row ``i`` holds ``indices[indptr[i]:indptr[i + 1]]`` (increasing) at the
    exact (enlarged) ``distances``: every point tied with the ``k``-th neighbour
    is included (module docstring, rule 3).

    Attributes
    ----------
    indptr : ndarray of shape (n_samples + 1,)
    indices : ndarray of shape (n_entries,)
    distances : ndarray of shape (n_entries,)
    kth : ndarray of shape (n_samples,)
        Distance to the ``k``-th neighbour (the ``k``-th smallest distance).
    """

    indptr: np.ndarray
    indices: np.ndarray
    distances: np.ndarray
    kth: np.ndarray

    @property
    def n_samples(self):
        return self.kth.size

    @property
    def sizes(self):
        """Points in each neighbourhood (``k``, or more where the ``k``-th ties)."""
        return np.diff(self.indptr)

    @property
    def rows(self):
        """The row of every entry."""
        return np.repeat(np.arange(self.n_samples), self.sizes)

    def directed(self, weights=None):
        """The directed graph with ``weights`` (default 1) on its entries, as CSR."""
        data = np.ones(self.indices.size) if weights is None else weights
        return sp.csr_matrix((data, self.indices, self.indptr), shape=(self.n_samples,) * 2)

    def symmetric(self, weights=None, mode="or"):
        """Edge ``i - j`` when ``j`` is a neighbour of ``i`` *or* (``"and"``: *and*)
        ``i`` of ``j``; weights must be positive and symmetric in the pair."""
        directed = self.directed(weights)
        graph = directed.maximum(directed.T) if mode == "or" else directed.minimum(directed.T)
        return sp.csr_matrix(graph)


def knn_neighbourhoods(X, n_neighbors, codes=None):
    """k-nearest neighbourhoods of every point, every tie at the ``k``-th included.

    The neighbourhood of ``x_i`` is every ``x_j`` (``j != i``; duplicates of
    ``x_i`` at distance 0 included) with fewer than ``k`` points strictly
    nearer, distances compared on the tie grid (module docstring). It does not
    depend on the order of the rows. With ``codes`` the distance is ORML's Eq.
    (3), ``d(x_i, x_j) = (|y_i - y_j| + 1) ||x_i - x_j||``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        ``k``, with ``0 < k < n_samples``.
    codes : ndarray of shape (n_samples,) of int, optional
        Rank index of each sample; ``None`` gives Euclidean distances.

    Returns
    -------
    Neighbourhoods
    """
    n_samples = X.shape[0]
    _check_neighbors(n_neighbors, n_samples)
    X, exponent = _binary_scaled(X)
    unit = _tie_unit(X)
    candidates = _candidate_search(X, codes, n_neighbors, unit)
    block = max(1, min(n_samples, max(n_neighbors, _BLOCK // n_samples)))
    rows, cols, distances, kth = [], [], [], []
    for start in range(0, n_samples, block):
        index = np.arange(start, min(start + block, n_samples))
        local, col = candidates(index)
        exact = _distances(X, index[local], col, codes)
        keep, kth_block = _tied_nearest(local, exact, unit, n_neighbors, index.size)
        rows.append(index[local[keep]])
        cols.append(col[keep])
        distances.append(exact[keep])
        kth.append(kth_block)
    rows, cols, distances = map(np.concatenate, (rows, cols, distances))
    order = np.lexsort((cols, rows))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_samples))])
    distances, kth = np.ldexp(distances[order], exponent), np.ldexp(np.concatenate(kth), exponent)
    return Neighbourhoods(indptr, cols[order], distances, kth)


def _tied_nearest(rows, distances, unit, n_neighbors, n_rows):
    """Mask of the candidates within the ``k``-th rounded distance of their row, and each
    row's ``k``-th smallest distance; every row has at least ``k`` candidates."""
    order = np.lexsort((distances, rows))
    starts = np.searchsorted(rows[order], np.arange(n_rows))
    kth = order[starts + n_neighbors - 1]
    keys = _tie_keys(distances, unit)
    return keys <= keys[kth][rows], distances[kth]


def knn_graph(X, n_neighbors, mode="or"):
    """Symmetric 0/1 k-nearest-neighbour graph as a sparse matrix.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        ``k``; must be smaller than ``n_samples``.
    mode : {"or", "and"}, default="or"
        Edge ``i - j`` when ``j`` is in the ``k``-nearest neighbourhood of ``i``
        *or* (``"and"``: *and*) ``i`` in that of ``j``; neighbourhoods include
        every point tied with the ``k``-th (:func:`knn_neighbourhoods`).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Memory O(n k) without ties; no self-loops.
    """
    return knn_neighbourhoods(X, n_neighbors).symmetric(mode=mode)


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
    """Directed k-nearest-neighbour distances, optionally rank-enlarged, ties by index.

    With ``codes`` the distance is ORML's Eq. (3),
    ``d(x_i, x_j) = (|y_i - y_j| + 1) ||x_i - x_j||``. The neighbours of
    ``x_i`` (never ``x_i`` itself; duplicates of it are neighbours at distance
    0) are the first ``k`` in increasing (rounded distance, index) order, see
    the module docstring. Candidates are pre-selected block by block from the
    norm expansion of the squared distances with a safe margin, then their
    distances are recomputed exactly.

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
        Increasing up to the tie grid; column ``k - 1`` is the distance to the
        ``k``-th neighbour.
    indices : ndarray of shape (n_samples, n_neighbors)
    """
    n_samples = X.shape[0]
    _check_neighbors(n_neighbors, n_samples)
    X, exponent = _binary_scaled(X)
    unit = _tie_unit(X)
    candidates = _candidate_search(X, codes, n_neighbors, unit)
    block = max(1, min(n_samples, max(n_neighbors, _BLOCK // n_samples)))
    distances, indices = [], []
    for start in range(0, n_samples, block):
        rows = np.arange(start, min(start + block, n_samples))
        local, cols = candidates(rows)
        exact = _distances(X, rows[local], cols, codes)
        d, i = _nearest(local, cols, exact, unit, n_neighbors, rows.size)
        distances.append(d)
        indices.append(i)
    return np.ldexp(np.vstack(distances), exponent), np.vstack(indices)


def _candidate_search(X, codes, n_neighbors, unit):
    """A function of a block of rows giving ``(row in block, column)`` candidate pairs.

    The candidates of row ``i`` are the points whose (enlarged) squared
    distance from the norm expansion ``||a||^2 + ||b||^2 - 2 a.b`` (on centred
    data scaled to at most 1) lies within a margin of the ``k``-th smallest,
    widened by one tie-grid ``unit``: a superset of every point that the tie
    rule can choose. The expansion's rounding error is below
    ``(m + 4) eps (||a||^2 + ||b||^2)`` for ``m`` features; the margin is 8 times that.
    """
    enlarge = np.zeros(X.shape[0]) if codes is None else np.asarray(codes, dtype=float)
    centred = X - X.mean(axis=0)
    spread = np.abs(centred).max() or 1.0
    centred = centred / spread  # no overflow in the squares
    squares = np.einsum("ij,ij->i", centred, centred)
    slack = 8 * (X.shape[1] + 4) * np.finfo(float).eps * (np.ptp(enlarge) + 1) ** 2

    def candidates(rows):
        factor = np.abs(enlarge[rows, None] - enlarge[None, :]) + 1
        approx = factor**2 * (squares[rows, None] + squares - 2 * centred[rows] @ centred.T)
        approx[np.arange(rows.size), rows] = np.inf  # never the point itself
        kth = np.partition(approx, n_neighbors - 1, axis=1)[:, n_neighbors - 1]
        margin = slack * (squares[rows] + squares.max())
        bound = (np.sqrt(np.maximum(kth + margin, 0)) + unit / spread) ** 2 + margin
        return np.nonzero(approx <= bound[:, None])

    return candidates


def heat_kernel_graph(neighbourhoods, mode="and"):
    """Symmetric heat-kernel graph of ORML's Eq. (2) from k-nearest neighbourhoods.

    ``A_ij = exp(-d_ij^2 / (2 sigma))`` on the edges kept by ``mode``, with
    ``sigma = sum_i d(x_i, x_iK)^2 / n`` the mean squared distance to the
    ``k``-th neighbour (as defined after Eq. 2). Points tied with the ``k``-th
    neighbour are neighbours too (:func:`knn_neighbourhoods`).

    Parameters
    ----------
    neighbourhoods : Neighbourhoods
        From :func:`knn_neighbourhoods`.
    mode : {"and", "or"}, default="and"
        ``"and"``: ORML's two-way criterion, ``i`` and ``j`` each in the other's
        neighbourhood; ``"or"``: either (LPP's usual graph).

    Returns
    -------
    graph : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    sigma : float
    """
    sigma = float(np.mean(neighbourhoods.kth**2))
    d = neighbourhoods.distances
    weights = np.exp(-(d**2) / (2 * sigma)) if sigma > 0 else np.ones_like(d)
    return neighbourhoods.symmetric(weights, mode), sigma


def dense_ordinal_graph(X, codes, n_neighbors):
    """Reference construction of ORML's graph through the dense n x n distance matrix.

    The straightforward implementation of Eqs. (2)-(3): all pairwise enlarged
    distances, in each row every point within the ``k``-th smallest rounded
    distance (the tie rule of the module docstring), the "and" rule on dense
    masks. O(n^2) memory; kept as the baseline of the benchmark and the tests of
    :func:`knn_neighbourhoods` + :func:`heat_kernel_graph`, which it matches,
    ties included.

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
    """
    n = X.shape[0]
    everyone = np.arange(n)
    enlarged = np.vstack([_distances(X, np.full(n, i), everyone, codes) for i in everyone])
    keys = _tie_keys(enlarged, _tie_unit(X))
    np.fill_diagonal(keys, np.inf)
    kth_key = np.sort(keys, axis=1)[:, n_neighbors - 1 : n_neighbors]
    neighbour = keys <= kth_key
    others = np.where(np.eye(n, dtype=bool), np.inf, enlarged)
    sigma = np.mean(np.sort(others, axis=1)[:, n_neighbors - 1] ** 2)
    return np.where(neighbour & neighbour.T, np.exp(-(enlarged**2) / (2 * sigma)), 0.0)


def laplacian(graph):
    """Graph Laplacian ``L = D - A`` (sparse) of a symmetric sparse graph."""
    return sp.diags(np.asarray(graph.sum(axis=1)).ravel()) - graph


def check_n_neighbors(n_neighbors, n_samples, name):
    """An estimator's ``n_neighbors`` for ``n_samples`` points, clipped to ``n_samples - 1``.

    As scikit-learn's ``LocalOutlierFactor``: a ``k`` that the data cannot
    supply is reduced to ``n_samples - 1`` (every other point) with a warning.

    Parameters
    ----------
    n_neighbors : int
    n_samples : int
    name : str
        Estimator name for the messages.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``n_neighbors`` is not a positive integer, or there is one sample.
    """
    if not isinstance(n_neighbors, numbers.Integral) or n_neighbors < 1:
        raise ValueError(f"{name}: n_neighbors={n_neighbors!r} must be a positive integer.")
    if n_samples < 2:
        raise ValueError(f"{name} needs at least 2 samples for a neighbour; got n_samples = 1.")
    if n_neighbors >= n_samples:
        warnings.warn(
            f"{name}: n_neighbors={n_neighbors} is not below n_samples = {n_samples}; "
            f"using n_neighbors_ = {n_samples - 1} (every other point).",
            UserWarning,
            stacklevel=3,
        )
    return int(min(n_neighbors, n_samples - 1))


def _binary_scaled(X):
    """``X`` divided by the power of two ``2^e`` nearest above its largest magnitude, and ``e``.

    Exact (a power of two changes no rounding), so distances and their order are
    those of ``X`` itself, multiplied back by ``2^e``; but their squares can neither
    overflow (``X * 1e200``) nor underflow to ties (``X * 1e-200``).
    """
    magnitude = np.abs(X).max(initial=0.0)
    exponent = int(np.frexp(magnitude)[1]) if magnitude > 0 else 0
    return np.ldexp(X, -exponent), exponent


def _tie_unit(X):
    """Resolution of the distance order: :data:`TIE_RTOL` times the diagonal of the
    bounding box of ``X`` (permutation invariant; 0 for identical points)."""
    ranges = np.ptp(X, axis=0)
    largest = ranges.max(initial=0.0)
    return TIE_RTOL * largest * np.linalg.norm(ranges / largest) if largest > 0 else 0.0


def _tie_keys(distances, unit):
    """Distances rounded to the tie grid ``unit`` (all 0 when ``unit`` is 0)."""
    return np.floor(distances / unit + 0.5) if unit > 0 else np.zeros_like(distances)


def _distances(X, rows, cols, codes, batch=2**16):
    """``(|c_i - c_j| + 1) ||x_i - x_j||`` (factor 1 without ``codes``) for the pairs
    ``(rows, cols)``, each from the difference of the two points."""
    out = np.empty(rows.size)
    step = max(1, batch // max(X.shape[1], 1))
    for start in range(0, rows.size, step):
        part = slice(start, start + step)
        difference = X[rows[part]] - X[cols[part]]
        out[part] = np.sqrt(np.sum(difference * difference, axis=1))
    if codes is not None:
        out *= np.abs(codes[rows] - codes[cols]) + 1
    return out


def _nearest(rows, cols, distances, unit, n_neighbors, n_rows):
    """The first ``n_neighbors`` candidates of each row in (rounded distance, index) order.

    ``rows`` index ``0 .. n_rows - 1`` and every row has at least
    ``n_neighbors`` candidates ``cols`` at ``distances``; ``unit`` is the tie
    grid. Returns the ``(n_rows, n_neighbors)`` distances and columns.
    """
    order = np.lexsort((cols, _tie_keys(distances, unit), rows))
    starts = np.searchsorted(rows[order], np.arange(n_rows))
    chosen = order[starts[:, None] + np.arange(n_neighbors)]
    return distances[chosen], cols[chosen]


def _check_neighbors(n_neighbors, n_samples):
    if not 0 < n_neighbors < n_samples:
        raise ValueError(
            f"n_neighbors={n_neighbors} must satisfy 0 < n_neighbors < n_samples = {n_samples}."
        )
