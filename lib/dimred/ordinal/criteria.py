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

Ratio criteria: maximised, in the row space of the data
-------------------------------------------------------
Both matrices of a ratio criterion (LDA, LPP, NPE, IsoProjection) are
quadratic in ``Z``, so every ``w`` orthogonal to the rows of ``Z`` scores
``0 / ridge``. Minimised as published, LPP's and NPE's quotients take that
value as their global minimum: a direction along which every training point
projects to 0 (up to rounding) whenever ``n_samples <= n_features`` or a
feature is constant (a MovieLens user's all-zero genre columns); and inside
the data's span the ridge still favours the directions of least variance.
Following Cai's reference code (``LPP.m``, ``NPE.m``, ``IsoP.m``), therefore:

1. every quotient is solved inside the row space of ``Z`` -- its principal
   subspace, numerical rank kept -- by
   :func:`~dimred.utils.linalg.rayleigh_in_row_space`, for the vector methods
   and for each mode of the tensor methods alike; the ridge
   ``ridge * trace(B) / r`` is relative to that subspace's dimension ``r``;
2. LPP and NPE maximise the complementary quotient (``1 -`` the published
   one when the ridge is 0, with the same optimal direction), in which the
   ridge penalises directions of vanishing variance instead of rewarding them.

On data of full column rank with ``ridge = 0`` this is exactly the published
problem. ORML's Eq. (6) already lies in the row space (``S^+`` and the rank
means do) and is left as the paper states it.
"""

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from scipy.sparse.csgraph import shortest_path

from ..utils.graphs import heat_kernel_graph, knn_neighbourhoods, laplacian
from ..utils.labels import class_centres
from ..utils.linalg import rayleigh_in_row_space, ridged, row_space
from .simplex_qp import simplex_qp

#: ORML's Eq. (6) is refused when a step between consecutive rank means is invisible to
#: ``S^+`` (its part in the range of ``S`` below this fraction of its length: the dual
#: then puts its weight there and ``w`` is rounding noise), or when the smallest margin is
#: below this fraction of ``|w| max|m_{r+1} - m_r|``.
MARGIN_RTOL = 1e-8
#: Eigenvalues of ORML's ``S = Z^T L Z`` below this fraction of its bound ``2 tr(Z^T D Z)``
#: are rounding noise of a null space (:func:`psd_pinv`); an ``S`` whose trace is below
#: it is rounding noise of zero (every edge of the graph joins equal rows).
SCATTER_RTOL = 1e-10

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
    """Generalised Rayleigh quotient ``w^T A w / w^T B w``, maximised in the row space of ``Z``.

    ``matrices(Z)`` gives ``(A, B)``, both of the form ``Z^T G Z``. The
    quotient is maximised in an orthonormal basis of the row space of ``Z``
    with ``ridge * trace(B) / r`` added to ``B`` there (``r`` the rank; see
    the module docstring and :func:`~dimred.utils.linalg.rayleigh_in_row_space`).
    """

    def __init__(self, ridge):
        self.ridge = ridge

    def matrices(self, Z):
        raise NotImplementedError

    def direction(self, Z):
        """Leading direction in the row space of ``Z``; info: its ``eigenvalue`` (quotient)."""
        values, vectors = rayleigh_in_row_space(Z, self.matrices, 1, ridge=self.ridge)
        return vectors[:, 0], {"eigenvalue": values[0]}

    def objective(self, Z, w):
        """The regularised quotient :meth:`direction` optimises, at ``w``.

        ``w`` enters through its component in the row space of ``Z`` (the rest
        is invisible to the data and to this ridge).
        """
        basis = row_space(Z)
        v = basis.T @ w
        A, B = self.matrices(Z @ basis)
        return float(v @ A @ v / (v @ ridged(B, self.ridge) @ v))


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
    """Locality preserving projection (He & Niyogi 2004), as the complementary quotient
    ``Z^T W Z`` over ``Z^T D Z`` (maximised).

    Heat-kernel weights ``W`` on the "or" k-NN graph with the width rule of
    ORML's Eq. (2) on Euclidean distances, ``D`` their degrees; points tied with
    the ``k``-th neighbour are neighbours too
    (:func:`~dimred.utils.graphs.knn_neighbourhoods`). Minimising
    ``w^T Z^T L Z w / w^T Z^T D Z w`` (``L = D - W``) is maximising this
    quotient, which equals one minus it; with the ridge in the denominator
    only the maximised form penalises directions of vanishing variance (the
    minimised one would favour them), as in Cai's ``LPP.m``.
    """

    def __init__(self, X, n_neighbors, ridge):
        super().__init__(ridge)
        self.graph, _ = heat_kernel_graph(knn_neighbourhoods(X, n_neighbors), mode="or")
        self.degree = sp.diags(np.asarray(self.graph.sum(axis=1)).ravel())

    def matrices(self, Z):
        return _quadratic(Z, self.graph), _quadratic(Z, self.degree)


def barycenter_weights(X, n_neighbors, reg=1e-3):
    """LLE reconstruction weights (Roweis & Saul 2000) as a sparse ``n x n`` matrix.

    Row ``i`` holds the weights of its ``k``-nearest neighbourhood (every point
    tied with the ``k``-th included, :func:`~dimred.utils.graphs.knn_neighbourhoods`)
    that best reconstruct ``x_i`` and sum to one; the local Gram matrix is
    regularised by ``reg * trace`` (scikit-learn's convention), which makes the
    weights unique: tied and duplicate neighbours get equal weights, whatever
    the order of the rows.
    """
    hoods = knn_neighbourhoods(X, n_neighbors)
    weights = np.empty(hoods.indices.size)
    for size in np.unique(hoods.sizes):  # one batched solve per neighbourhood size
        members = np.flatnonzero(hoods.sizes == size)
        entries = hoods.indptr[members, None] + np.arange(size)
        local = X[hoods.indices[entries]] - X[members, None, :]  # (rows, size, d)
        gram = local @ local.transpose(0, 2, 1)
        trace = np.trace(gram, axis1=1, axis2=2)
        gram += (reg * np.where(trace > 0, trace, 1.0))[:, None, None] * np.eye(size)
        solved = np.linalg.solve(gram, np.ones((members.size, size, 1)))[..., 0]
        weights[entries] = solved / solved.sum(axis=1, keepdims=True)
    return hoods.directed(weights)


class NPECriterion(_RatioCriterion):
    """Neighbourhood preserving embedding (He et al. 2005), as the complementary
    quotient ``Z^T (W + W^T - W^T W) Z`` over ``Z^T Z`` (maximised).

    ``W`` holds the LLE weights. Minimising the reconstruction error
    ``w^T Z^T (I - W)^T (I - W) Z w / w^T Z^T Z w`` is maximising this
    quotient, one minus it; the maximised form is the one in which the ridge
    penalises directions of vanishing variance (Cai's ``NPE.m``).
    """

    def __init__(self, X, n_neighbors, ridge):
        super().__init__(ridge)
        weights = barycenter_weights(X, n_neighbors)
        self.operator = (weights + weights.T - weights.T @ weights).tocsr()

    def matrices(self, Z):
        return _quadratic(Z, self.operator), Z.T @ Z


def geodesic_gram(X, n_neighbors):
    """Isomap's ``tau(D_G) = -J D_G^2 J / 2`` from geodesic distances on the k-NN graph.

    Geodesics are shortest paths on the symmetric ("or") k-NN graph with
    Euclidean edge lengths (points tied with the ``k``-th neighbour included,
    :func:`~dimred.utils.graphs.knn_neighbourhoods`). Pairs in different
    connected components (no path) get the largest finite geodesic distance, so
    that the Gram matrix stays finite. Memory O(n^2): the method is defined by
    this dense matrix.
    """
    hoods = knn_neighbourhoods(X, n_neighbors)
    # Coincident points have zero length; a tiny positive length keeps the edge.
    lengths = np.maximum(hoods.distances, np.finfo(float).tiny)
    geodesic = shortest_path(hoods.symmetric(lengths), method="D", directed=False)
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
    the rank-enlarged distance (3), points tied with the ``k``-th neighbour
    included (:func:`~dimred.utils.graphs.knn_neighbourhoods`). The direction
    is Eq. (6) with the dual (7) solved exactly by
    :func:`~dimred.ordinal.simplex_qp.simplex_qp`:
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
        0: the paper's Moore-Penrose pseudo-inverse of ``S`` (:func:`psd_pinv`).
        Positive: the inverse of ``S + ridge * t / m * I`` with ``t = trace(S)``, or,
        where ``S`` is rounding noise of zero (its trace below :data:`SCATTER_RTOL`
        of the bound ``2 tr(Z^T D Z)``: every edge of the graph joins equal rows), of
        ``ridge * t / m * I`` with ``t`` the bound, a scale that does not vanish with
        ``S``. ``w`` is then the largest-margin direction, the limit of every
        ``ridge -> 0``.
    """

    def __init__(self, X, codes, n_neighbors, C, ridge):
        self.codes, self.C, self.ridge = codes, C, ridge
        self.graph, self.sigma = heat_kernel_graph(knn_neighbourhoods(X, n_neighbors, codes))
        self.laplacian = laplacian(self.graph)

    def _problem(self, Z):
        """``S`` (regularised when ``ridge > 0``), the rows ``m_{r+1} - m_r`` and ``S``'s bound.

        ``S <= 2 Z^T D Z`` (``D`` the degrees): the bound's trace sets the scale of
        ``S``'s rounding noise.
        """
        scatter = _quadratic(Z, self.laplacian)
        degrees = np.asarray(self.graph.sum(axis=1)).ravel()
        bound = 2 * float(np.einsum("i,ij,ij->", degrees, Z, Z))
        if self.ridge > 0:
            scatter = self._ridged(scatter, bound)
        differences = np.diff(class_centres(Z, self.codes)[1], axis=0)
        return scatter, differences, bound

    def _ridged(self, scatter, bound):
        """``S + ridge * trace(S) / m * I``; ``ridge * bound / m * I`` where ``S`` is noise."""
        trace = float(np.trace(scatter))
        if trace <= SCATTER_RTOL * bound:
            scatter, trace = np.zeros_like(scatter), bound
        return scatter + self.ridge * trace / len(scatter) * np.eye(len(scatter))

    def direction(self, Z):
        """Eq. (6)-(7); info holds the multipliers ``alpha``, margin and rank of ``S``."""
        scatter, differences, bound = self._problem(Z)
        if self.ridge == 0:
            inverse, basis = psd_pinv(scatter, bound)
            seen = np.linalg.norm(differences @ basis, axis=1)
            if np.any(seen <= MARGIN_RTOL * np.linalg.norm(differences, axis=1)):
                _vanished(0.0)  # a step between ranks lies in S's null space: S^+ cannot see it
        else:
            inverse = np.linalg.inv(scatter)
        gram = differences @ inverse @ differences.T
        alpha = simplex_qp((gram + gram.T) / 2, self.C)
        w = inverse @ differences.T @ alpha / 2
        info = {
            "alpha": alpha,
            "margin": float((differences @ w).min()),
            "scatter_rank": int(np.linalg.matrix_rank(scatter, hermitian=True)),
        }
        if info["margin"] <= MARGIN_RTOL * np.linalg.norm(w) * np.abs(differences).max():
            _vanished(info["margin"])
        return w, info

    def objective(self, Z, w):
        """``J(w, gamma)`` of Eq. (4) with ``gamma`` the smallest margin."""
        scatter, differences, _ = self._problem(Z)
        return float(w @ scatter @ w - self.C * (differences @ w).min())


def psd_pinv(S, scale=None, rtol=SCATTER_RTOL):
    """Moore-Penrose pseudo-inverse of a positive semi-definite ``S``.

    ``S = Z^T L Z`` is semi-definite: its negative eigenvalues, and the positive ones
    below ``rtol`` times ``scale`` (default: the largest eigenvalue), are rounding
    noise of a null space. The quadratic form of a Laplacian accumulates rounding
    well above ``numpy``'s ``n eps`` rank rule: on tied data whose neighbours are
    duplicates, ``S`` is all noise, which a relative rule would invert into
    directions of size 1e13. They are dropped with the null space. Pass as ``scale``
    a bound of ``S`` that does not vanish with it (``2 tr(Z^T D Z)``). On the
    papers' data the genuine eigenvalues lie above 1e-6 of the largest and the noise
    below 1e-15.

    Returns
    -------
    inverse : ndarray of shape (m, m)
    basis : ndarray of shape (m, rank)
        Orthonormal basis of the range of ``S`` kept.
    """
    values, vectors = eigh(S)
    reference = np.abs(values).max(initial=0.0) if scale is None else max(scale, 0.0)
    keep = values > rtol * reference
    return (vectors[:, keep] / values[keep]) @ vectors[:, keep].T, vectors[:, keep]


def _vanished(margin):
    """Refuse an ORML solution that orders no rank (``w`` is rounding noise)."""
    raise ValueError(
        f"ORML: the solution of Eq. (6) does not order the ranks (its smallest margin is "
        f"{margin:.3g}, not positive): the pseudo-inverse of S = X L X^T discards the "
        "directions along which the rank means differ, which happens when the "
        "neighbourhood graph splits the ranks apart. ORML(ridge=1e-8) takes the "
        "largest-margin direction of zero manifold cost instead."
    )
