"""One-dimensional projection criteria: ORML and the baselines of its paper.

Each criterion is built once from the (centred, vectorised) training data and
their ranks, which fixes its graph, and then gives the best direction ``w``
for any data matrix ``Z`` whose rows correspond to the training samples. A
vector method applies it to ``X`` itself; its multilinear (tensor) version
applies it, mode by mode, to the data projected on the other modes'
directions with the graph kept fixed -- which is how MLDA (Yan et al. 2005),
TLPP (He, Cai & Niyogi 2006), TNPE (Dai & Yeung 2006), MIE (Liu, Liu & Chan
2009) and ORML/M (Eqs. 10-11) extend their vector methods.

The graph criteria are linear graph embeddings ``w^T Z^T G Z w`` over
``w^T Z^T B Z w`` with an ``n x n`` operator ``G`` kept sparse (LPP, NPE,
ORML) or, where the method itself defines a dense one (IsoProjection's
geodesic Gram matrix), dense.
"""

import numpy as np
import scipy.sparse as sp
from scipy.linalg import pinvh
from scipy.sparse.csgraph import shortest_path

from ..utils.graphs import heat_kernel_graph, knn_distances, laplacian
from ..utils.labels import class_centres
from ..utils.linalg import generalized_eigh
from .simplex_qp import simplex_qp

__all__ = [
    "IsoProjectionCriterion",
    "LDACriterion",
    "LPPCriterion",
    "NPECriterion",
    "ORMLCriterion",
    "barycenter_weights",
    "geodesic_gram",
]


def _quadratic(Z, operator):
    """``Z^T G Z`` for a sparse or dense ``n x n`` operator ``G``, symmetrised."""
    product = Z.T @ (operator @ Z)
    return (product + product.T) / 2


class _RatioCriterion:
    """Generalised Rayleigh quotient ``w^T A w / w^T B w`` (max or min).

    ``ridge * trace(B) / m`` is added to ``B`` (``m`` columns of ``Z``), which
    is singular when there are fewer samples than features.
    """

    maximise = True

    def __init__(self, ridge):
        self.ridge = ridge

    def matrices(self, Z):
        raise NotImplementedError

    def _regularised(self, Z):
        A, B = self.matrices(Z)
        m = B.shape[0]
        return A, B + self.ridge * np.trace(B) / m * np.eye(m)

    def direction(self, Z):
        """Leading (``maximise``) or trailing generalized eigenvector; with info."""
        A, B = self._regularised(Z)
        values, vectors = generalized_eigh(A, B, 1, largest=self.maximise)
        return vectors[:, 0], {"eigenvalue": values[0]}

    def objective(self, Z, w):
        """The quotient at ``w``."""
        A, B = self._regularised(Z)
        return float(w @ A @ w / (w @ B @ w))


class LDACriterion(_RatioCriterion):
    """Fisher's criterion: between-rank over within-rank scatter (maximised)."""

    def __init__(self, codes, ridge):
        super().__init__(ridge)
        self.codes = codes

    def matrices(self, Z):
        _, means = class_centres(Z, self.codes)
        within = Z - means[self.codes]
        counts = np.bincount(self.codes)
        centred = means - counts @ means / counts.sum()
        return (centred.T * counts) @ centred, within.T @ within


class LPPCriterion(_RatioCriterion):
    """Locality preserving projection (He & Niyogi 2004): ``Z^T L Z`` over ``Z^T D Z``.

    Heat-kernel weights on the "or" k-NN graph with the width rule of ORML's
    Eq. (2) on Euclidean distances (minimised).
    """

    maximise = False

    def __init__(self, X, n_neighbors, ridge):
        super().__init__(ridge)
        graph, _ = heat_kernel_graph(*knn_distances(X, n_neighbors), mode="or")
        self.laplacian = laplacian(graph)
        self.degree = sp.diags(np.asarray(graph.sum(axis=1)).ravel())

    def matrices(self, Z):
        return _quadratic(Z, self.laplacian), _quadratic(Z, self.degree)


def barycenter_weights(X, n_neighbors, reg=1e-3):
    """LLE reconstruction weights (Roweis & Saul 2000) as a sparse ``n x n`` matrix.

    Row ``i`` holds the weights of its ``k`` nearest neighbours that best
    reconstruct ``x_i`` and sum to one; the local Gram matrix is regularised by
    ``reg * trace`` (scikit-learn's convention).
    """
    _, indices = knn_distances(X, n_neighbors)
    local = X[indices] - X[:, None, :]  # (n, k, d)
    gram = local @ local.transpose(0, 2, 1)
    trace = np.trace(gram, axis1=1, axis2=2)
    gram += (reg * np.where(trace > 0, trace, 1.0))[:, None, None] * np.eye(n_neighbors)
    weights = np.linalg.solve(gram, np.ones((X.shape[0], n_neighbors, 1)))[..., 0]
    weights /= weights.sum(axis=1, keepdims=True)
    rows = np.repeat(np.arange(X.shape[0]), n_neighbors)
    return sp.csr_matrix((weights.ravel(), (rows, indices.ravel())), (X.shape[0],) * 2)


class NPECriterion(_RatioCriterion):
    """Neighbourhood preserving embedding (He et al. 2005), minimised:
    ``Z^T (I - W)^T (I - W) Z`` over ``Z^T Z`` with LLE weights ``W``."""

    maximise = False

    def __init__(self, X, n_neighbors, ridge):
        super().__init__(ridge)
        residual = sp.eye(X.shape[0], format="csr") - barycenter_weights(X, n_neighbors)
        self.operator = (residual.T @ residual).tocsr()

    def matrices(self, Z):
        return _quadratic(Z, self.operator), Z.T @ Z


def geodesic_gram(X, n_neighbors):
    """Isomap's ``tau(D_G) = -J D_G^2 J / 2`` from geodesic distances on the k-NN graph.

    Geodesics are shortest paths on the symmetric ("or") k-NN graph with
    Euclidean edge lengths. Pairs in different connected components (no
    path) get the largest finite geodesic distance, so that the Gram matrix
    stays finite. Memory O(n^2): the method is defined by this dense matrix.
    """
    distances, indices = knn_distances(X, n_neighbors)
    n = X.shape[0]
    rows = np.repeat(np.arange(n), distances.shape[1])
    # Coincident points have zero length; a tiny positive length keeps the edge.
    lengths = np.maximum(distances.ravel(), np.finfo(float).tiny)
    graph = sp.csr_matrix((lengths, (rows, indices.ravel())), (n, n))
    geodesic = shortest_path(graph.maximum(graph.T), method="D", directed=False)
    finite = np.isfinite(geodesic)
    geodesic[~finite] = geodesic[finite].max()
    squared = geodesic**2
    squared -= squared.mean(axis=0)
    squared -= squared.mean(axis=1, keepdims=True)
    return -squared / 2


class IsoProjectionCriterion(_RatioCriterion):
    """Isometric projection (Cai, He & Han 2007): ``Z^T tau(D_G) Z`` over ``Z^T Z``
    (maximised), the linear approximation of Isomap."""

    def __init__(self, X, n_neighbors, ridge):
        super().__init__(ridge)
        self.gram = geodesic_gram(X, n_neighbors)

    def matrices(self, Z):
        return _quadratic(Z, self.gram), Z.T @ Z


class ORMLCriterion:
    """ORML's problem (4): ``min w^T Z^T L Z w - C gamma`` s.t.
    ``w^T (m_{r+1} - m_r) >= gamma``.

    The graph is Eq. (2)'s heat kernel on the two-way ("and") k-NN graph of
    the rank-enlarged distance (3). The direction is Eq. (6) with the dual
    (7) solved exactly by :func:`~dimred.ordinal.simplex_qp.simplex_qp`:
    ``w = S^+ sum_r alpha_r (m_{r+1} - m_r) / 2`` with ``S = Z^T L Z``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Data the graph is built on.
    codes : ndarray of shape (n_samples,)
        Rank indices.
    n_neighbors : int
    C : float
    ridge : float
        0: the paper's Moore-Penrose pseudo-inverse of ``S``. Positive: the
        inverse of ``S + ridge * trace(S) / m * I``.
    """

    def __init__(self, X, codes, n_neighbors, C, ridge):
        self.codes, self.C, self.ridge = codes, C, ridge
        self.graph, self.sigma = heat_kernel_graph(*knn_distances(X, n_neighbors, codes))
        self.laplacian = laplacian(self.graph)

    def _problem(self, Z):
        """``S`` (regularised when ``ridge > 0``) and the rows ``m_{r+1} - m_r``."""
        scatter = _quadratic(Z, self.laplacian)
        if self.ridge > 0:
            m = scatter.shape[0]
            scatter = scatter + self.ridge * np.trace(scatter) / m * np.eye(m)
        differences = np.diff(class_centres(Z, self.codes)[1], axis=0)
        return scatter, differences

    def direction(self, Z):
        """Eq. (6)-(7); info holds the multipliers ``alpha``, margin and rank of ``S``."""
        scatter, differences = self._problem(Z)
        inverse = pinvh(scatter) if self.ridge == 0 else np.linalg.inv(scatter)
        alpha = simplex_qp(differences @ inverse @ differences.T, self.C)
        w = inverse @ differences.T @ alpha / 2
        info = {
            "alpha": alpha,
            "margin": float((differences @ w).min()),
            "scatter_rank": int(np.linalg.matrix_rank(scatter, hermitian=True)),
        }
        return w, info

    def objective(self, Z, w):
        """``J(w, gamma)`` of Eq. (4) with ``gamma`` the smallest margin."""
        scatter, differences = self._problem(Z)
        return float(w @ scatter @ w - self.C * (differences @ w).min())
