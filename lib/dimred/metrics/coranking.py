"""Lee & Verleysen's co-ranking matrix and the neighbourhood quality ``Q_k`` derived from it.

Lee, J. A. & Verleysen, M. (2009), "Quality assessment of dimensionality reduction:
Rank-based criteria", Neurocomputing 72, 1431-1443. With ``rho_ij`` the rank of
``x_j`` among the neighbours of ``x_i`` (``1`` for the nearest, the point itself
excluded) and ``r_ij`` the rank of ``y_j`` among those of ``y_i``, the co-ranking
matrix counts the pairs with each combination of ranks,

.. math:: Q_{st} = |\\{(i, j) : \\rho_{ij} = s, \\; r_{ij} = t\\}|, \\qquad 1 \\le s, t \\le N - 1,

and the quality used by Schulz, Gisbrecht & Hammer (ESANN 2014, Sect. 2) is the
average overlap of the ``k``-neighbourhoods,

.. math:: Q_k(X, Y) = \\frac{1}{N k} \\sum_i |N_k(x_i) \\cap N_k(y_i)|
          = \\frac{1}{N k} \\sum_{s, t \\le k} Q_{st}

(Lee & Verleysen's ``Q_NX(K)``). A pair counts in ``Q_k`` exactly when the larger
of its two ranks is at most ``k``, so every ``k = 1 .. K`` follows from one
neighbour ranking per space up to rank ``K``: the pairs in both ranked lists,
histogrammed by that larger rank and cumulated (:func:`quality_from_neighbours`;
for ``K`` near ``N``, from the full rankings of :func:`quality_from_ranks`).
A random map (``Y`` a random permutation of the rows of ``X``) gives
``E[Q_k] = k / (N - 1)``: the diagonal baseline.

Lee, Peluffo-Ordóñez & Verleysen (2015, "Multi-scale similarities in stochastic
neighbour embedding: Reducing dimensionality while preserving both local and global
structure", Neurocomputing 169, 246-261, Eqs. 25-26) rescale it so that a random map
scores 0 and a perfect one 1, for ``1 <= k <= N - 2``,

.. math:: R_{NX}(k) = \\frac{(N - 1) Q_{NX}(k) - k}{N - 1 - k},

and summarise the curve by its area under a logarithmic ``k`` axis, each ``k``
weighted by ``1 / k`` (small neighbourhoods count most),

.. math:: \\mathrm{AUC} = \\frac{\\sum_{k=1}^{K} R_{NX}(k) / k}{\\sum_{k=1}^{K} 1 / k}

(:func:`rnx_curve`, :func:`rnx_auc`).

Tie rule
--------
Ranks follow :func:`dimred.utils.graphs.knn_distances` (``Q_k`` up to a small ``K``),
:func:`dimred.utils.ranks.neighbour_ranks` (the matrix, ``Q_k`` up to a large ``K``)
and :func:`dimred.utils.ranks.crossed_ranks` (trustworthiness and continuity), which
apply the same rule: distances are computed from the differences, distances equal up
to :data:`~dimred.utils.graphs.TIE_RTOL` times the data's diameter count as tied, and
tied neighbours are ranked by increasing point index (stable and deterministic,
independent of the BLAS kernel). Integer-valued or duplicated features tie massively;
their ranking is then the index order inside each tie.
"""

import numbers
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from sklearn.utils import check_array
from sklearn.utils._param_validation import Interval, validate_params

from ..utils.graphs import knn_distances
from ..utils.ranks import crossed_ranks, neighbour_ranks
from ..utils.validation import is_constant

__all__ = [
    "CoRanking",
    "ReferenceRanking",
    "check_spaces",
    "coranking_matrix",
    "coranking_quality",
    "quality_from_neighbours",
    "quality_from_ranks",
    "rescaled_quality",
    "rnx_auc",
    "rnx_curve",
    "trustworthiness_continuity",
    "trustworthiness_continuity_from_ranks",
]

#: ``K / N`` from which :func:`coranking_quality` ranks every point of both spaces
#: rather than searching ``K`` neighbours (equal results; the two take the same time
#: at ``K`` of 0.1 to 0.25 ``N`` for 1,000 to 3,000 points, 3 to 256 features).
FULL_RANKING_SHARE = 0.125


def check_spaces(X, Y):
    """Validate a data space and its embedding: same samples, finite, at least 3 of them,
    neither constant.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)
        A 1-D ``Y`` is a one-dimensional embedding.

    Returns
    -------
    X, Y : ndarray of float64, both 2-D

    Raises
    ------
    ValueError
        Different numbers of samples, fewer than 3 samples, non-finite values, or a
        space in which every point is the same (no neighbour is nearer than another).
    """
    X = check_array(X, dtype=np.float64)
    Y = check_array(Y, dtype=np.float64, ensure_2d=False)
    Y = Y.reshape(Y.shape[0], -1)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(
            f"X and Y must hold the same samples; got {X.shape[0]} and {Y.shape[0]} rows."
        )
    if X.shape[0] < 3:
        raise ValueError(f"Neighbourhood ranks need at least 3 samples; got {X.shape[0]}.")
    for name, space in (("X", X), ("Y", Y)):
        if is_constant(space):
            raise ValueError(
                f"{name} has no variance (all {space.shape[0]} samples are identical): no "
                "neighbour is nearer than another, so there are no neighbourhoods to compare."
            )
    return X, Y


def quality_from_neighbours(neighbours_x, neighbours_y):
    """``Q_k`` for every ``k = 1 .. K`` from the two ranked neighbour lists.

    Parameters
    ----------
    neighbours_x, neighbours_y : ndarray of shape (n_samples, K) of int
        Indices of the ``K`` nearest neighbours of every point of the data and of the
        embedding, nearest first (:func:`~dimred.utils.graphs.knn_distances`).

    Returns
    -------
    ndarray of shape (K,)
        Entry ``k - 1`` is ``Q_k``.
    """
    n, K = neighbours_x.shape
    rows = np.arange(n)[:, None] * n
    _, in_x, in_y = np.intersect1d(
        (rows + neighbours_x).ravel(),
        (rows + neighbours_y).ravel(),
        assume_unique=True,
        return_indices=True,
    )
    larger_rank = np.maximum(in_x % K, in_y % K)  # 0-based
    return _cumulated(np.bincount(larger_rank, minlength=K), n)


def quality_from_ranks(ranks_x, ranks_y, max_k):
    """``Q_k`` for every ``k = 1 .. max_k`` from the two full rank matrices.

    A pair ``(i, j)`` is in both ``k``-neighbourhoods when the larger of its ranks is
    at most ``k``: the histogram of that larger rank over all pairs, cumulated, gives
    the counts of :func:`quality_from_neighbours` with the same neighbour lists,
    hence the same floats.

    Parameters
    ----------
    ranks_x, ranks_y : ndarray of shape (n_samples, n_samples) of int
        :func:`~dimred.utils.ranks.neighbour_ranks` of the data and of the embedding.
    max_k : int

    Returns
    -------
    ndarray of shape (max_k,)
        Entry ``k - 1`` is ``Q_k``.
    """
    n = ranks_x.shape[0]
    counts = np.bincount(np.maximum(ranks_x, ranks_y).ravel(), minlength=n)
    return _cumulated(counts[1 : max_k + 1], n)


def _cumulated(counts, n):
    """``Q_k`` from the pairs counted at each larger rank ``k = 1 .. K``."""
    return np.cumsum(counts) / (n * np.arange(1, counts.size + 1))


@validate_params(
    {
        "X": "no_validation",
        "Y": "no_validation",
        "max_k": [Interval(Integral, 1, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def coranking_quality(X, Y, max_k=None):
    """Neighbourhood quality ``Q_k(X, Y)`` for every ``k = 1 .. max_k``.

    One neighbour ranking per space up to rank ``max_k``, no ``N x N`` matrix
    (memory O(N ``max_k``)); from ``max_k`` = :data:`FULL_RANKING_SHARE` ``N`` on, the
    full rankings (:func:`quality_from_ranks`, ``N x N`` ranks), which are then
    faster, for the same values. Equals the cumulated upper-left blocks of
    :func:`coranking_matrix`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)
    max_k : int, optional
        Largest neighbourhood, ``1 <= max_k <= n_samples - 1``; defaults to
        ``n_samples - 2`` (``Q_{N-1} = 1`` for any map).

    Returns
    -------
    ndarray of shape (max_k,)
        Entry ``k - 1`` is ``Q_k``; ``k / (N - 1)`` is the expectation for a random map.

    Examples
    --------
    A 2-D PCA map of the iris data keeps most 5-neighbourhoods, the first feature alone
    fewer; a random map would keep ``5 / 149``, about 0.03.

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> from dimred.metrics import coranking_quality
    >>> X, _ = load_iris(return_X_y=True)
    >>> quality = coranking_quality(X, PCA(n_components=2).fit_transform(X), max_k=10)
    >>> quality.shape
    (10,)
    >>> round(float(quality[4]), 2)
    0.63
    >>> round(float(coranking_quality(X, X[:, 0], max_k=10)[4]), 2)
    0.26
    """
    X, Y = check_spaces(X, Y)
    max_k = _check_max_k(max_k, X.shape[0], 1)
    if max_k < FULL_RANKING_SHARE * X.shape[0]:
        return quality_from_neighbours(knn_distances(X, max_k)[1], knn_distances(Y, max_k)[1])
    return quality_from_ranks(neighbour_ranks(X), neighbour_ranks(Y), max_k)


def coranking_matrix(X, Y):
    """Lee & Verleysen's co-ranking matrix.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)

    Returns
    -------
    ndarray of shape (n_samples - 1, n_samples - 1) of int
        Entry ``[s - 1, t - 1]`` counts the ordered pairs ``(i, j)`` with rank ``s``
        in ``X`` and rank ``t`` in ``Y``. Every row and every column sums to
        ``n_samples``. O(N^2) memory: two rank matrices, from one full ranking per space.

    Examples
    --------
    A map that keeps every rank (here a scaling) fills the diagonal only:

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> from dimred.metrics import coranking_matrix
    >>> X, _ = load_iris(return_X_y=True)
    >>> coranking_matrix(X[:5], 2 * X[:5])
    array([[5, 0, 0, 0],
           [0, 5, 0, 0],
           [0, 0, 5, 0],
           [0, 0, 0, 5]])
    >>> Q = coranking_matrix(X[::10], PCA(n_components=2).fit_transform(X[::10]))
    >>> Q.shape, Q.sum(axis=0).tolist() == [15] * 14
    ((14, 14), True)
    """
    X, Y = check_spaces(X, Y)
    n = X.shape[0]
    ranks_x, ranks_y = neighbour_ranks(X), neighbour_ranks(Y)
    others = ~np.eye(n, dtype=bool)
    pairs = (ranks_x[others] - 1) * (n - 1) + ranks_y[others] - 1
    return np.bincount(pairs, minlength=(n - 1) ** 2).reshape(n - 1, n - 1)


def rescaled_quality(quality, n_samples):
    """``R_NX(k)`` from ``Q_NX(k)``, ``k = 1 .. len(quality)`` (module docstring).

    Parameters
    ----------
    quality : ndarray of shape (K,)
        ``Q_NX(k)`` (:func:`coranking_quality`), ``K <= n_samples - 2``.
    n_samples : int

    Returns
    -------
    ndarray of shape (K,)
        0 for a random map in expectation, 1 for a map that keeps every neighbourhood.
    """
    quality = np.asarray(quality, dtype=float)
    k = np.arange(1, quality.size + 1)
    if quality.size > n_samples - 2:
        raise ValueError(f"R_NX(k) is defined for k <= n_samples - 2 = {n_samples - 2}.")
    return ((n_samples - 1) * quality - k) / (n_samples - 1 - k)


def rnx_auc(rnx):
    """Area under ``R_NX(k)`` on a logarithmic ``k`` axis: ``sum R(k)/k / sum 1/k``.

    Examples
    --------
    A perfect curve has area 1; the small neighbourhoods weigh most:

    >>> from dimred.metrics import rnx_auc
    >>> rnx_auc([1.0, 1.0, 1.0])
    1.0
    >>> round(rnx_auc([1.0, 0.0]), 2), round(rnx_auc([0.0, 1.0]), 2)
    (0.67, 0.33)
    """
    weights = 1.0 / np.arange(1, len(rnx) + 1)
    return float(np.dot(rnx, weights) / weights.sum())


@validate_params(
    {
        "X": "no_validation",
        "Y": "no_validation",
        "max_k": [Interval(Integral, 1, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def rnx_curve(X, Y, max_k=None):
    """``R_NX(k)`` for ``k = 1 .. max_k`` and its area under a log-scaled ``k`` axis.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)
    max_k : int, optional
        Default ``n_samples - 2``, the largest ``k`` where ``R_NX`` is defined.

    Returns
    -------
    rnx : ndarray of shape (max_k,)
    auc : float
        :func:`rnx_auc` of ``rnx``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> from dimred.metrics import rnx_curve
    >>> X, _ = load_iris(return_X_y=True)
    >>> rnx, auc = rnx_curve(X, PCA(n_components=2).fit_transform(X), max_k=10)
    >>> rnx.shape, round(auc, 2)
    ((10,), 0.51)
    >>> round(rnx_curve(X, X[:, 0], max_k=10)[1], 2)
    0.16
    """
    n = check_array(X, ensure_2d=True).shape[0]
    quality = coranking_quality(X, Y, _check_max_k(max_k, n, 2))
    rnx = rescaled_quality(quality, n)
    return rnx, rnx_auc(rnx)


def trustworthiness_continuity(X, Y, n_neighbors=10):
    """Venna & Kaski's trustworthiness and continuity of ``Y`` at ``k = n_neighbors``.

    From the ranks of the co-ranking matrix (Lee & Verleysen 2009, Sect. 4.2):
    with ``rho_ij`` the rank of ``x_j`` among the neighbours of ``x_i`` and ``r_ij``
    that of ``y_j`` among those of ``y_i``,

    .. math:: T(k) = 1 - \\frac{2}{N k (2N - 3k - 1)} \\sum_i
              \\sum_{j: r_{ij} \\le k < \\rho_{ij}} (\\rho_{ij} - k),

    the penalty of the map's false neighbours, and ``C(k)`` the same with the two
    spaces swapped (its missed neighbours). The ranks follow this module's tie rule,
    so a map with exactly tied distances (a symmetric design) is scored the same under
    any BLAS kernel; scikit-learn's ``trustworthiness`` (the same formula) breaks
    such ties by rounding noise. On data without ties the two agree
    (``tests/unit/test_coranking.py``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)
    n_neighbors : int, default=10
        ``k``, less than ``n_samples / 2``.

    Returns
    -------
    trustworthiness, continuity : float
        1 for a map that keeps every ``k``-neighbourhood.
    """
    X, Y = check_spaces(X, Y)
    k = _check_n_neighbors(n_neighbors, X.shape[0])
    return trustworthiness_continuity_from_ranks(*crossed_ranks(X, Y, k), k)


class ReferenceRanking:
    """A data space ranked once, to compare with any number of its maps.

    :func:`rnx_curve` and :func:`trustworthiness_continuity` rank the neighbours of
    the data ``X`` at every call, though every map of one data set shares them (and
    ``X``, with its hundreds of features, costs most). This object keeps the full
    ranking of ``X`` (:func:`~dimred.utils.ranks.neighbour_ranks`, ``N x N`` ranks);
    :meth:`compare` ranks only the map.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features) of float64
    ranks : ndarray of shape (n_samples, n_samples) of int
        ``ranks[i, j]``: the rank of ``x_j`` among the neighbours of ``x_i``.
    """

    def __init__(self, X):
        self.X = check_array(X, dtype=np.float64)
        self.ranks = neighbour_ranks(self.X)

    def compare(self, Y):
        """The co-ranking of ``X`` and its map ``Y`` (validated by :func:`check_spaces`).

        Parameters
        ----------
        Y : array-like of shape (n_samples, n_components) or (n_samples,)

        Returns
        -------
        CoRanking
        """
        _, Y = check_spaces(self.X, Y)
        return CoRanking(self.ranks, neighbour_ranks(Y))


@dataclass(frozen=True)
class CoRanking:
    """The full neighbour rankings of a data space and of its map, and their scores.

    Each score equals that of the function of the same name, bit for bit: the ranks
    are the same integers (one tie rule, module docstring) and enter the same final
    arithmetic. From the full rankings, ``R_NX`` for every ``k`` is a histogram
    (:func:`quality_from_ranks`) and the trustworthiness and continuity are look-ups.

    Attributes
    ----------
    ranks_x, ranks_y : ndarray of shape (n_samples, n_samples) of int
        :func:`~dimred.utils.ranks.neighbour_ranks` of the data and of the map.
    """

    ranks_x: np.ndarray
    ranks_y: np.ndarray

    def rnx_curve(self, max_k=None):
        """:func:`rnx_curve`: ``R_NX(k)`` for ``k = 1 .. max_k`` and its AUC."""
        n = self.ranks_x.shape[0]
        max_k = _check_max_k(max_k, n, 2)
        rnx = rescaled_quality(quality_from_ranks(self.ranks_x, self.ranks_y, max_k), n)
        return rnx, rnx_auc(rnx)

    def trustworthiness_continuity(self, n_neighbors=10):
        """:func:`trustworthiness_continuity`: trustworthiness and continuity at ``k``."""
        k = _check_n_neighbors(n_neighbors, self.ranks_x.shape[0])
        nearest_y, nearest_x = self.ranks_y <= k, self.ranks_x <= k
        np.fill_diagonal(nearest_y, False)
        np.fill_diagonal(nearest_x, False)
        far_in_x, far_in_y = self.ranks_x[nearest_y], self.ranks_y[nearest_x]
        far_in_x, far_in_y = far_in_x.reshape(-1, k), far_in_y.reshape(-1, k)
        return trustworthiness_continuity_from_ranks(far_in_x, far_in_y, k)


def trustworthiness_continuity_from_ranks(far_in_x, far_in_y, k):
    """Trustworthiness and continuity from the ranks, in one space, of each point's ``k``
    nearest in the other (:func:`~dimred.utils.ranks.crossed_ranks`).

    Parameters
    ----------
    far_in_x : ndarray of shape (n_samples, k) of int
        Row ``i``: ``rho_ij`` for the ``k`` nearest ``j`` of ``y_i``, in any order.
    far_in_y : ndarray of shape (n_samples, k) of int
        Row ``i``: ``r_ij`` for the ``k`` nearest ``j`` of ``x_i``, in any order.
    k : int

    Returns
    -------
    trustworthiness, continuity : float
    """
    n = far_in_x.shape[0]
    scale = 2.0 / (n * k * (2 * n - 3 * k - 1))
    return (
        1.0 - scale * _intruder_penalty(far_in_x, k),
        1.0 - scale * _intruder_penalty(far_in_y, k),
    )


def _intruder_penalty(far_ranks, k):
    """``sum (far rank - k)`` over the ``k`` nearest pairs of one space beyond rank ``k``
    in the other."""
    return float(np.maximum(far_ranks - k, 0).sum())


def _check_max_k(max_k, n_samples, margin):
    """``max_k`` (default ``n_samples - 2``), an integer in ``[1, n_samples - margin]``."""
    max_k = n_samples - 2 if max_k is None else max_k
    largest = n_samples - margin
    if not isinstance(max_k, numbers.Integral) or not 1 <= max_k <= largest:
        raise ValueError(
            f"max_k={max_k!r} must be an integer in [1, n_samples - {margin} = {largest}]."
        )
    return max_k


def _check_n_neighbors(n_neighbors, n_samples):
    """The ``k`` of trustworthiness and continuity, an integer in ``[1, n_samples / 2)``."""
    if not isinstance(n_neighbors, numbers.Integral) or not 1 <= n_neighbors < n_samples / 2:
        raise ValueError(f"n_neighbors={n_neighbors!r} must be an integer in [1, n_samples / 2).")
    return n_neighbors
