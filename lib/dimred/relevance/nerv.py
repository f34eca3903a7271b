"""NeRV relevance learning (Schulz, Gisbrecht & Hammer, ESANN 2014, Sect. 3).

Given data ``X`` (``N x n``) and a visualisation ``Y`` of it, the relevances
``lambda_l^2 >= 0`` rescale the features, ``X_lambda = (lambda_1 x_1, ..., lambda_n x_n)``,
so that ``X_lambda`` is as close to ``Y`` as the smooth NeRV quality measures:

.. math:: \\min_{\\lambda} \\; Q_k^{NeRV}(X_\\lambda, Y) + \\delta \\sum_l \\lambda_l^2,

.. math:: Q_k^{NeRV} = \\gamma \\sum_i \\sum_{j \\ne i} p_{j|i} \\log \\frac{p_{j|i}}{q_{j|i}}
          + (1 - \\gamma) \\sum_i \\sum_{j \\ne i} q_{j|i} \\log \\frac{q_{j|i}}{p_{j|i}},

``p_{j|i} \\propto \\exp(-d_\\lambda(x_i, x_j)^2 / \\sigma_i^{x2})`` with
``d_\\lambda^2 = \\sum_l \\lambda_l^2 (x_{il} - x_{jl})^2`` and
``q_{j|i} \\propto \\exp(-||y_i - y_j||^2 / \\sigma_i^{y2})`` (the paper's Sect. 2 and 3).
Each width is chosen, separately in ``X`` and ``Y`` (footnote 1), "such that the
actual number of neighbors is ``k``". Two readings (``bandwidth``):

``"perplexity"`` (default)
    the perplexity ``exp(H(p_{.|i}))`` -- the effective number of neighbours --
    is ``k``: the convention of the original NeRV code (``sigma^2`` in the
    denominator, no factor 2, entropy matched to ``log k``);
``"kth_neighbor"``
    ``sigma_i`` is the distance from point ``i`` to its ``k``-th nearest
    neighbour (in ``X`` at ``lambda = 1`` and in ``Y``), a common reading of "a
    neighbourhood of ``k`` points"; it is a much narrower Gaussian (the
    effective number of neighbours is then about ``k / 3`` to ``k / 2``). Only
    with fixed widths.

Parameterisation and gradient
-----------------------------
The variables are ``theta_l = lambda_l^2`` themselves (the paper optimises "with
respect to ``lambda_l^2``"); ``theta >= 0`` is kept by projecting every Rprop step
onto the non-negative orthant. With ``a_ij = -beta_i d_ij^2`` (``beta_i = 1/sigma_i^2``)
and ``h_ij = gamma p_ij log(p_ij/q_ij) - (1 - gamma) q_ij``,

.. math:: \\frac{\\partial Q}{\\partial a_{ij}} = h_{ij} - p_{ij} \\sum_m h_{im}, \\qquad
          \\frac{\\partial Q}{\\partial \\theta_l} = \\sum_{ij} W_{ij} (x_{il} - x_{jl})^2,
          \\quad W_{ij} = -\\beta_i \\frac{\\partial Q}{\\partial a_{ij}},

evaluated for all ``l`` at once as Laplacian quadratic forms,
``sum_ij W_ij (x_il - x_jl)^2 = 2 x_l^T (D - S) x_l`` with ``S`` the symmetric part of
``W``: one product ``W X`` per block of rows, never an ``N x N x n`` tensor. With
``widths="adaptive"`` the widths follow ``theta`` through the perplexity
constraint ``H_i(beta_i, theta) = log k``; the implicit-function theorem adds
``-(dQ/dbeta_i) / (dH_i/dbeta_i) * dH_i/da_ij`` to ``dQ/da_ij`` (:func:`_width_term`),
so the gradient is exact in both modes: it ignores nothing but the perplexity
tolerance (:data:`ENTROPY_TOL`) and, with candidate pairs, their selection
(piecewise constant in ``theta``).

The two choices the paper leaves open
-------------------------------------
``widths``: with ``"adaptive"`` widths (recomputed at every step so that the
effective number of neighbours stays ``k``), ``Q^NeRV(X_{c lambda}, Y) =
Q^NeRV(X_lambda, Y)`` for every ``c > 0``: the widths absorb any common scale. The
penalty then only shrinks that scale, the objective has no minimiser and all
relevances go to 0 together: on set1 (:func:`~dimred.datasets.synthetic.relevance_set1`,
``Y`` its true 2-D coordinates, ``delta = 1``) every ``lambda^2`` ends below 0.002
for ``k = 5 .. 40``, at Rprop's smallest step. With ``"fixed"`` widths (calibrated
once, for the initial metric ``lambda = 1``) the scale matters, the optimum is
finite, and the penalty removes what does not help: set1 gives ``lambda^2 =
(1.4, 1.4, 0.05)`` at ``k = 5``, ``(1.26, 1.26, 0.009)`` at ``k = 10`` and ``(1.0 +- 0.15,
1.0 +- 0.15, 0)`` for ``k = 15 .. 40``. ``"fixed"`` is the default: it reproduces the
paper's "the baseline for irrelevant dimensions for lambda_NeRV is zero" with the
relevant dimensions positive at ``delta = 1``. ``"adaptive"`` with ``delta = 0``
gives a scale-free profile (set1: ``(1.93, 1.93, 0)`` for every ``k``).

``cost``: the original NeRV code (dredviz) averages the divergences over the
``N`` points; ``"mean"`` does so, which multiplies the weight of ``delta`` by ``N``
(Rprop follows only gradient signs, so ``cost="mean"`` with ``delta`` is
``cost="sum"`` with ``N delta``). On set1 (``N = 60``, ``delta = 1``) it shrinks the
relevant dimensions to 0.5 (``k = 5``) down to 0.1 (``k = 30``) and to 0 at ``k = 40``;
``"sum"`` (default, the paper's formula as printed) keeps them near 1.
``tests/unit/test_relevance.py`` checks these statements.

Every pair or candidate pairs (``neighbors``)
---------------------------------------------
Everything is evaluated by blocks of :data:`BLOCK` rows' worth of pairs; the
squared distances come from blocks of the Gram matrix ``X_lambda X_lambda^T``
(BLAS, zero-relevance columns dropped), so no ``N x N`` array is ever formed. Within
a block the arithmetic on the pairs runs on chunks of :data:`CHUNK` rows' worth, whose
temporaries stay in the CPU's cache; it is per pair or per row, so the chunks change
no bit (only the block's sum of divergences and its BLAS product span its rows).
With fixed widths that arithmetic is compiled instead (:mod:`dimred.relevance.nerv_compiled`,
numba): two plain passes over each chunk, the distances read off the Gram block and
``np.exp`` between them, the same mathematics with the loops' own sums, so NumPy's
values to rounding (``rtol=1e-10`` in ``tests/unit/test_relevance.py``; CONTRIBUTING.md, "One
standard of equality"). NumPy's chunks stay the reference (``compiled=False``) and the
path of adaptive widths, which are recalibrated within it.
``log q`` and ``(1 - gamma) q`` depend on ``Y`` and its widths only: they are computed
at the first evaluation and kept while the pairs stay, as long as they fit in
:data:`CACHE_FLOATS` (every pair of up to about 4,000 points); beyond, each
evaluation recomputes them, the same values bit for bit.
The widths are always calibrated over every other point (the exact widths).
``neighbors="all"`` sums over every pair: the exact reference, O(N^2) work per
step besides the BLAS products. An integer ``M`` (``"auto"``: :data:`AUTO_FACTOR`
``* k``) restricts each point's sums to its candidates ``S_i`` (Barnes-Hut-SNE's
device, van der Maaten 2013, the paper's ref. [13]): its ``M`` nearest neighbours
in ``Y`` and in ``X_lambda``, and every ``j`` with ``p_{j|i}`` or ``q_{j|i}`` of at
least :data:`MASS_TOL` ``/ N`` over the whole row, so that each row leaves out less
than :data:`MASS_TOL` of either distribution; ``p`` and ``q`` are normalised over
``S_i`` and the gradient is one sparse product per block. Every
:data:`REFRESH_EVERY` Rprop steps the candidates of the current ``X_lambda`` (and
widths) are added to ``S_i`` -- sets only grow, so this ends -- and the fit stops
when Rprop has converged and a refresh adds nothing. Memory O(N |S_i|) plus one
block (plus the kept ``log q`` and ``(1 - gamma) q``, at most :data:`CACHE_FLOATS` floats).

The fixed ``M`` alone is not enough: with fixed widths and many features the
optimal ``X_lambda`` spreads ``p`` over many more than ``k`` points (USPS-like data,
256 features, ``N = 1000``, ``k = 20``: perplexity 51 at the optimum, 85 neighbours
for 99% of ``p``), and the pairs near in ``X_lambda`` but far in ``Y`` carry a large
``p log(p / q)``; the ``5 k`` nearest alone then gave relevances 25% off
(relative to the largest; Spearman 0.956). With the probability floor they are
about 3% off with about a quarter of the pairs, on set1 with two noise dimensions
(``N = 180``) within 0.1% (``tests/unit/test_relevance.py``; the agreement, the share of
pairs and the time against every pair: ``make bench``, ``benchmarks/bench_relevance.py``).

Tie rule: the ``M`` nearest in ``X_lambda`` are taken in increasing (squared
distance rounded to :data:`TIE_RTOL` times the largest squared norm of the centred
``X_lambda``, index) order, so that distances equal in exact arithmetic compare
equal despite the norm expansion's rounding and ties go to the lowest index;
those in ``Y`` by :func:`dimred.utils.graphs.knn_distances` (same rule on distances).
"""

import numbers
import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data
from tqdm import tqdm

from ..utils.graphs import _tie_keys, check_n_neighbors, knn_distances
from ..utils.validation import check_spread
from . import nerv_compiled

__all__ = [
    "NeRVObjective",
    "NeRVRelevance",
    "calibrate_precisions",
    "kth_neighbor_precisions",
    "rprop",
]

_WIDTHS = ("fixed", "adaptive")
_COSTS = ("sum", "mean")
_BANDWIDTHS = ("perplexity", "kth_neighbor")
#: ``neighbors="auto"`` uses ``M = AUTO_FACTOR * n_neighbors`` candidates per point.
AUTO_FACTOR = 5
#: Squared distances in ``X_lambda`` closer than this fraction of its largest squared
#: norm count as tied when the nearest candidates are chosen (ties go to the lower index).
TIE_RTOL = 1e-10
#: Floats per block of squared distances (at least one row).
BLOCK = 2**20
#: Floats per chunk of a block's rows in the arithmetic on its pairs (at least one
#: row): small enough for the chunk's temporaries to stay in the CPU's cache
#: (:meth:`NeRVObjective._block_terms`; ``make bench`` times it against whole blocks).
CHUNK = 2**15
#: Floats :class:`NeRVObjective` may keep between evaluations for ``log q`` and
#: ``(1 - gamma) q`` (two per pair): 256 MiB, every pair of up to about 4,000 points.
CACHE_FLOATS = 2**25
#: Rprop's factors and step bounds (Riedmiller & Braun 1993).
ETA_PLUS, ETA_MINUS = 1.2, 0.5
STEP_BOUNDS = (1e-6, 50.0)
#: Evaluations between two refreshes of the candidate pairs.
REFRESH_EVERY = 10
#: Candidate pairs also include every ``j`` with ``p_{j|i}`` or ``q_{j|i}`` at least
#: ``MASS_TOL / N`` over the whole row: each row then leaves out less than this mass.
MASS_TOL = 1e-2
#: Perplexity calibration: tolerance on the entropy (nats) and the searched range of
#: ``log(beta_i * spread_i)``, ``spread_i`` the mean excess squared distance of row ``i``.
ENTROPY_TOL = 1e-10
#: A Newton step shorter than this fraction of the bracket that has not halved the
#: error stalls, and the row bisects (:func:`calibrate_precisions`).
STALL = 1e-3
#: Newton iterations of a row before it only bisects (:func:`calibrate_precisions`).
NEWTON_ITER = 100
_LOG_RANGE = 50.0


class _Pairs:
    """Ordered pairs ``(i, j)`` sorted by ``i`` then ``j``: ``cols`` and ``indptr`` as in
    CSR, ``rows`` made from ``indptr`` when asked."""

    def __init__(self, cols, indptr):
        self.cols, self.indptr = cols, indptr

    @classmethod
    def from_rows(cls, rows, cols, n_rows):
        counts = np.bincount(rows, minlength=n_rows)
        return cls(cols, np.concatenate([[0], np.cumsum(counts)]))

    @cached_property
    def rows(self):
        return np.repeat(np.arange(self.indptr.size - 1), np.diff(self.indptr))

    @property
    def size(self):
        return int(self.indptr[-1])

    def between(self, start, stop):
        """The pairs of rows ``start .. stop - 1``, rows numbered from 0."""
        first, last = self.indptr[start], self.indptr[stop]
        return _Pairs(self.cols[first:last], self.indptr[start : stop + 1] - first)

    def sum(self, values):
        """Sum of ``values`` over each row's pairs (every row has at least one)."""
        return np.add.reduceat(values, self.indptr[:-1])

    def spread(self, values):
        """``values[rows]``: a value per row repeated over the row's pairs (a copy in
        blocks, faster than the gather)."""
        return np.repeat(values, np.diff(self.indptr), axis=0)

    def log_softmax(self, logits):
        """``log(exp(a_ij) / sum_m exp(a_im))`` within each row."""
        shifted = logits - self.spread(np.maximum.reduceat(logits, self.indptr[:-1]))
        return shifted - self.spread(np.log(self.sum(np.exp(shifted))))


class _OffDiagonal(_Pairs):
    """Every pair ``(index[a], j)``, ``j != index[a]``, of ``n`` points, rows numbered
    from 0; the columns are made only when asked (with every pair the objective's
    arithmetic needs only ``indptr``)."""

    def __init__(self, index, n):
        self.index, self.n = index, n
        self.indptr = np.arange(index.size + 1) * (n - 1)

    @cached_property
    def cols(self):
        others = np.arange(self.n - 1)
        return (others + (others >= self.index[:, None])).ravel()  # skip each row's own column

    def between(self, start, stop):
        return _OffDiagonal(self.index[start:stop], self.n)


@dataclass(frozen=True)
class _Block:
    """Consecutive rows ``index`` with their pairs (rows numbered from 0), the block of
    ``X_lambda X_lambda^T`` (its memory is reused for the pair weights,
    :meth:`NeRVObjective._block_terms`) and every point's squared norm in ``X_lambda``."""

    index: np.ndarray
    pairs: _Pairs
    gram: np.ndarray
    squares: np.ndarray

    def distances(self, start=0, stop=None):
        """Squared distances in ``X_lambda`` of the pairs of rows ``start .. stop - 1``:
        each row's squared norm plus every point's, less twice the Gram block, in that
        order (per entry, so the same values whichever rows are asked together)."""
        stop = self.index.size if stop is None else stop
        rows = self.index[start:stop]
        D = self.squares[rows, None] + self.squares - 2 * self.gram[start:stop]
        if isinstance(self.pairs, _OffDiagonal):
            d2 = _without_diagonal(D, rows[0])
        else:
            pairs = self.pairs.between(start, stop)
            d2 = D.ravel()[pairs.rows * self.squares.size + pairs.cols]
        return np.maximum(d2, 0.0, out=d2)


def calibrate_precisions(d2, pairs, perplexity, start=None, max_iter=NEWTON_ITER + 50):
    """Precisions ``beta_i = 1 / sigma_i^2`` giving every row the perplexity ``k``.

    Solves ``H(p_{.|i}) = log k`` with ``p_{j|i} propto exp(-beta_i d2_ij)`` for all
    rows at once by safeguarded Newton steps in ``log beta_i``, to
    :data:`ENTROPY_TOL`. A row bisects its bracket instead whenever its Newton step
    leaves the bracket, or stalls: moves by less than :data:`STALL` of the bracket
    while the error has not halved since the last step. Where many distances tie,
    a first Newton step can overshoot to where only the tied nearest points count;
    the slope there is set by the rounding of the tied distances, so plain Newton
    steps creep, and the row ended at a precision of rounding noise (found on UCI
    car: 511 or 1,204 of 1,728 rows at ``beta ~ 1e17``, by BLAS kernel; tested).
    Newton steps can also bounce from one end of the bracket to the other while
    barely shrinking it (a 2-cycle: found on one point of 2,000 in
    ``benchmarks/bench_relevance.py``'s map, and on one USPS image of the relevance
    paper's Table 2, draw 7, leak-free reading, ``k = 120``; each ended far from
    ``log k`` and was reported as a point with duplicates; tested), so after
    :data:`NEWTON_ITER` iterations a row that has not converged only bisects: from
    the initial bracket of width ``2 *`` :data:`_LOG_RANGE`, 47 halvings reach its
    ``1e-12`` floor, so with the default ``max_iter`` every row that can reach
    ``log k`` does. A row that converges within :data:`NEWTON_ITER` iterations (the
    earlier iteration limit) is left bit for bit as it was. Rows that cannot reach
    ``log k`` (more than ``k`` duplicates at their smallest distance) end at the
    edge of the searched range.

    Parameters
    ----------
    d2 : ndarray of shape (n_pairs,)
        Squared distances of the pairs.
    pairs : _Pairs
    perplexity : float
        ``k``, at most the number of pairs of any row.
    start : ndarray of shape (n_rows,), optional
        Initial precisions (a warm start).
    max_iter : int, default=NEWTON_ITER + 50

    Returns
    -------
    ndarray of shape (n_rows,)
    """
    target = np.log(perplexity)
    floor = np.minimum.reduceat(d2, pairs.indptr[:-1])
    spread = pairs.sum(d2 - pairs.spread(floor)) / np.diff(pairs.indptr)
    centre = -np.log(np.where(spread > 0, spread, 1.0))
    lo, hi = centre - _LOG_RANGE, centre + _LOG_RANGE
    t = centre if start is None else np.clip(np.log(start), lo, hi)
    previous = np.full_like(t, np.inf)  # the last error
    for iteration in range(max_iter):
        entropy, slope = _entropy(d2, pairs, np.exp(t))
        error = entropy - target
        active = (np.abs(error) > ENTROPY_TOL) & (hi - lo > 1e-12)
        if not active.any():
            break
        lo = np.where(error > 0, t, lo)
        hi = np.where(error < 0, t, hi)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            newton = t - error / slope
        inside = np.isfinite(newton) & (newton > lo) & (newton < hi)
        stalled = (np.abs(newton - t) < STALL * (hi - lo)) & (np.abs(error) > np.abs(previous) / 2)
        newton_step = inside & ~stalled & (iteration < NEWTON_ITER)
        t = np.where(active, np.where(newton_step, newton, (lo + hi) / 2), t)
        previous = error
    return np.exp(t)


def kth_neighbor_precisions(d2, n_rows, k):
    """``beta_i = 1 / d_(k)^2``, the squared distance to each row's ``k``-th neighbour.

    Parameters
    ----------
    d2 : ndarray of shape (n_rows * (n_samples - 1),)
        Squared distances of every pair, row by row (all other points).
    n_rows : int
    k : int

    Returns
    -------
    precision : ndarray of shape (n_rows,)
    missed : ndarray of bool
        Rows whose ``k``-th distance is 0 (more than ``k`` duplicates); their width
        is the distance to the nearest distinct point instead.
    """
    rows = d2.reshape(n_rows, -1)
    kth = np.partition(rows, k - 1, axis=1)[:, k - 1]
    missed = kth <= 0
    if missed.any():
        positive = np.where(rows[missed] > 0, rows[missed], np.inf).min(axis=1)
        kth[missed] = np.where(np.isfinite(positive), positive, 1.0)
    return 1.0 / kth, missed


def _entropy(d2, pairs, precision):
    """Row entropies (nats) and their derivatives in ``log beta_i``, ``-beta_i^2 Var_p(d2)``."""
    log_p = pairs.log_softmax(-pairs.spread(precision) * d2)
    p = np.exp(log_p)
    mean = pairs.sum(p * d2)
    variance = pairs.sum(p * (d2 - pairs.spread(mean)) ** 2)
    return -pairs.sum(p * log_p), -(precision**2) * variance


class NeRVObjective:
    """``Q_k^NeRV(X_lambda, Y) + delta sum_l theta_l`` and its gradient in ``theta = lambda^2``.

    Calling the object with ``theta`` returns ``(value, gradient)``, evaluated block
    by block of rows (memory O(:data:`BLOCK`) plus the candidate pairs and the kept
    ``log q`` and ``q``, class Notes);
    :meth:`refresh` adds the candidates of a new ``theta``. The widths (calibrated
    over every other point) and the first candidates are those of ``lambda = 1``.
    See the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_components)
    n_neighbors : int
        ``k``, the perplexity in both spaces.
    gamma : float, default=0.5
    delta : float, default=1.0
    widths : {"fixed", "adaptive"}, default="fixed"
    cost : {"sum", "mean"}, default="sum"
    n_candidates : int or None, default=None
        ``M``; ``None`` (or ``M >= n_samples - 1``) uses every pair.
    bandwidth : {"perplexity", "kth_neighbor"}, default="perplexity"
        How ``k`` sets the widths (module docstring); ``"kth_neighbor"`` only
        with ``widths="fixed"``.
    cache_floats : int, default=CACHE_FLOATS
        Most floats kept between evaluations for ``log q`` and ``q`` (two per
        pair); ``0`` recomputes them at every evaluation (Notes).
    compiled : bool, default=True
        With fixed widths, the arithmetic on the pairs by
        :mod:`dimred.relevance.nerv_compiled` (NumPy's values to rounding);
        ``False``: by NumPy (the reference).

    Attributes
    ----------
    quality : float
        ``Q^NeRV`` (summed or averaged) at the last evaluated ``theta``.
    precision_x, precision_y : ndarray of shape (n_samples,)
        ``beta_i = 1 / sigma_i^2`` in ``X_lambda`` and in ``Y``.
    unreached : dict
        For ``"X"`` and ``"Y"``, the number of points whose width could not be set
        by ``k`` at calibration (more than ``k`` duplicates of the point; with
        ``"kth_neighbor"`` their width is the distance to the nearest distinct point).
    pairs : _Pairs or None
        The candidate pairs; ``None`` when every pair is used.

    Notes
    -----
    ``log q_{j|i}`` and ``q_{j|i}`` depend on ``Y`` and its widths only, not on
    ``theta``: they are computed once per block and kept while the pairs stay
    (every pair, or until :meth:`refresh` adds some), when both fit in
    ``cache_floats``; otherwise each evaluation recomputes them. The values are
    the same either way, bit for bit (``tests/unit/test_relevance.py``; ``make bench``
    times both).
    """

    def __init__(
        self,
        X,
        Y,
        n_neighbors,
        gamma=0.5,
        delta=1.0,
        widths="fixed",
        cost="sum",
        n_candidates=None,
        bandwidth="perplexity",
        cache_floats=CACHE_FLOATS,
        compiled=True,
    ):
        if bandwidth == "kth_neighbor" and widths != "fixed":
            raise ValueError("bandwidth='kth_neighbor' needs widths='fixed'.")
        if not isinstance(compiled, bool):
            raise ValueError(f"compiled must be True or False; got {compiled!r}.")
        n = X.shape[0]
        self.X = X - X.mean(axis=0)
        self.Y = Y - Y.mean(axis=0)
        self.n_neighbors = n_neighbors
        self.bandwidth = bandwidth
        self.gamma, self.delta, self.widths = gamma, delta, widths
        self.scale = 1.0 / n if cost == "mean" else 1.0
        self.n_candidates = n - 1 if n_candidates is None else min(n_candidates, n - 1)
        self.pairs = None
        self.cache_floats = cache_floats
        self.compiled = compiled
        start = np.ones(X.shape[1])
        self._calibrate(start)
        if self.n_candidates < n - 1:
            self._y_neighbours = knn_distances(self.Y, self.n_candidates)[1]
            self.refresh(start)

    def _calibrate(self, theta):
        """Widths for ``theta`` in both spaces, block by block (over every pair), and the
        count of points whose width cannot be set by ``k``."""
        n = self.X.shape[0]
        self.precision_x, self.precision_y = np.empty(n), np.empty(n)
        self.unreached = {"X": 0, "Y": 0}
        target = np.log(self.n_neighbors)
        self._q_terms_kept = {}  # they depend on the widths in Y
        for block in self._blocks(theta):
            dy2 = self._y_distances(block)
            spaces = (("X", block.distances(), self.precision_x), ("Y", dy2, self.precision_y))
            for space, d2, precision in spaces:
                if self.bandwidth == "kth_neighbor":
                    precision[block.index], missed = kth_neighbor_precisions(
                        d2, block.index.size, self.n_neighbors
                    )
                else:
                    precision[block.index] = calibrate_precisions(d2, block.pairs, self.n_neighbors)
                    entropy, _ = _entropy(d2, block.pairs, precision[block.index])
                    missed = np.abs(entropy - target) > 1e-6
                self.unreached[space] += int(np.sum(missed))

    def refresh(self, theta):
        """Add to each point's candidates its ``M`` nearest neighbours in ``X_lambda`` and
        every point it gives a probability of at least :data:`MASS_TOL` ``/ N`` in
        ``X_lambda`` or in ``Y`` (the ``M`` nearest in ``Y`` are always among them);
        return whether any pair was new."""
        n = self.X.shape[0]
        if self.n_candidates == n - 1:
            return False
        Xl = self._scaled(theta)
        squares = np.einsum("ij,ij->i", Xl, Xl)
        unit = TIE_RTOL * squares.max(initial=0.0)
        squares_y = np.einsum("ij,ij->i", self.Y, self.Y)
        rows, cols = [], []
        for (index, gram), (_, gram_y) in zip(_gram_blocks(Xl), _gram_blocks(self.Y), strict=True):
            D = squares[index, None] + squares - 2 * gram
            keep = _nearest(_tie_keys(D, unit), index, self.n_candidates)
            keep |= _probable(D, self.precision_x[index], index, MASS_TOL / n)
            D_y = squares_y[index, None] + squares_y - 2 * gram_y
            keep |= _probable(D_y, self.precision_y[index], index, MASS_TOL / n)
            keep[np.arange(index.size)[:, None], self._y_neighbours[index]] = True
            if self.pairs is not None:
                old = self.pairs.between(index[0], index[-1] + 1)
                keep[old.rows, old.cols] = True
            r, c = np.nonzero(keep)
            rows.append(index[r])
            cols.append(c)
        rows = np.concatenate(rows)
        grew = self.pairs is None or rows.size > self.pairs.size
        if grew:
            self._q_terms_kept = {}
        self.pairs = _Pairs.from_rows(rows, np.concatenate(cols), n)
        return grew

    def _scaled(self, theta):
        """``X_lambda`` without its zero columns (they change no distance)."""
        active = theta > 0
        return self.X[:, active] * np.sqrt(theta[active])

    def _blocks(self, theta):
        """The consecutive blocks of rows of ``X_lambda`` with their pairs."""
        Xl = self._scaled(theta)
        squares = np.einsum("ij,ij->i", Xl, Xl)
        for index, gram in _gram_blocks(Xl):
            if self.pairs is None:
                pairs = _OffDiagonal(index, Xl.shape[0])
            else:
                pairs = self.pairs.between(index[0], index[-1] + 1)
            yield _Block(index, pairs, gram, squares)

    def _y_distances(self, block):
        """Squared distances in ``Y`` of a block's pairs."""
        difference = block.pairs.spread(self.Y[block.index]) - self.Y[block.pairs.cols]
        return np.einsum("ij,ij->i", difference, difference)

    def _q_terms(self, block):
        """``log q`` and ``(1 - gamma) q`` of a block's pairs, kept between evaluations
        while the pairs stay and they fit in ``cache_floats`` (class Notes)."""
        start = int(block.index[0])
        if start in self._q_terms_kept:
            return self._q_terms_kept[start]
        pairs = block.pairs
        log_q = pairs.log_softmax(
            -pairs.spread(self.precision_y[block.index]) * self._y_distances(block)
        )
        terms = log_q, (1 - self.gamma) * np.exp(log_q)
        n = self.X.shape[0]
        n_pairs = n * (n - 1) if self.pairs is None else self.pairs.size
        if 2 * n_pairs <= self.cache_floats:
            self._q_terms_kept[start] = terms
        return terms

    def __call__(self, theta):
        """Objective and gradient at ``theta``.

        The gradient's ``sum_ij W_ij (x_il - x_jl)^2`` is accumulated over the blocks
        as ``(rowsum + colsum) . x_l^2 - 2 x_l^T W x_l`` (``= 2 x_l^T (D - S) x_l``,
        ``S`` the symmetric part of ``W``; accurate since ``X`` is centred), each
        block's product ``W X`` formed by :meth:`_product`.
        """
        n, n_features = self.X.shape
        quality, degree, cross = 0.0, np.zeros(n), np.zeros(n_features)
        for block in self._blocks(theta):
            part, weights, row_sums = self._block_terms(block)
            quality += part
            degree[block.index] += row_sums
            product, column_sums = self._product(block, weights)
            degree += column_sums
            cross += np.einsum("ij,ij->j", self.X[block.index], product)
        self.quality = self.scale * quality
        gradient = degree @ (self.X * self.X) - 2 * cross
        return self.quality + self.delta * theta.sum(), gradient + self.delta

    def _product(self, block, weights):
        """``W X`` and the column sums of ``W`` for a block's weights ``W``.

        Candidate pairs: a sparse product, and ``np.bincount`` over the pairs' columns.
        Every pair: the weights are already in the Gram block's memory
        (:meth:`_block_terms`), for one BLAS product, and the column sums are
        ``np.add.reduce`` over its rows: the same additions in the same order as
        ``np.bincount`` (row by row, each row's own column adding ``+0.0``), bit for bit
        (``tests/unit/test_relevance.py``).
        """
        if self.pairs is not None:
            n, pairs = self.X.shape[0], block.pairs
            W = sp.csr_matrix((weights, pairs.cols, pairs.indptr), shape=(block.index.size, n))
            return W @ self.X, np.bincount(pairs.cols, weights, minlength=n)
        return weights @ self.X, np.add.reduce(weights, axis=0)

    def _block_terms(self, block):
        """The block's summed divergences, its pair weights ``W_ij`` (module docstring)
        and their row sums.

        The rows are taken :data:`CHUNK` floats' worth at a time, so that the
        temporaries of the arithmetic stay in the cache. That arithmetic is per pair or
        per row, so every value is that of the whole block at once, bit for bit; the
        divergences are summed over the whole block, as one array. With every pair the
        weights of a chunk are written into the Gram block's rows it has just read
        (and 0 on their diagonal): the block then holds ``W`` (``tests/unit/test_relevance.py``).
        With fixed widths and ``compiled``, :meth:`_compiled_terms` does it all instead.
        """
        index, pairs = block.index, block.pairs
        log_q, q_part = self._q_terms(block)  # log q, (1 - gamma) q
        if self.compiled and self.widths == "fixed":
            return self._compiled_terms(block, log_q, q_part)
        every_pair = self.pairs is None
        divergences = np.empty(pairs.size)
        weights = block.gram if every_pair else np.empty(pairs.size)
        row_sums = np.empty(index.size)
        step = max(1, CHUNK // self.X.shape[0])
        for start in range(0, index.size, step):
            stop = min(start + step, index.size)
            span = slice(pairs.indptr[start], pairs.indptr[stop])
            chunk = pairs.between(start, stop)
            chunk_weights = self._pair_weights(
                block.distances(start, stop), chunk, index[start:stop],
                log_q[span], q_part[span], divergences[span],
            )  # fmt: skip
            row_sums[start:stop] = chunk.sum(chunk_weights)
            if every_pair:
                _scatter_without_diagonal(chunk_weights, block.gram[start:stop], index[start])
            else:
                weights[span] = chunk_weights
        return np.sum(divergences), weights, row_sums

    def _compiled_terms(self, block, log_q, q_part):
        """:meth:`_block_terms` by :mod:`dimred.relevance.nerv_compiled` (fixed widths):
        the same values to rounding."""
        divergences = np.empty(block.pairs.size)
        pairs = None if self.pairs is None else (block.pairs.cols, block.pairs.indptr)
        weights, row_sums = nerv_compiled.pair_terms(
            block.gram, block.squares, int(block.index[0]), self.precision_x, log_q, q_part,
            self.gamma, self.scale, divergences, pairs,
        )  # fmt: skip
        return np.sum(divergences), weights, row_sums

    def _pair_weights(self, d2, pairs, index, log_q, q_part, divergences):
        """Pair weights ``W_ij`` of the rows ``index`` (module docstring); their terms
        of ``Q^NeRV`` written into ``divergences``."""
        if self.widths == "adaptive":
            self.precision_x[index] = calibrate_precisions(
                d2, pairs, self.n_neighbors, start=self.precision_x[index]
            )
        minus_beta = pairs.spread(-self.precision_x[index])
        log_p = pairs.log_softmax(minus_beta * d2)
        p = np.exp(log_p)
        log_ratio = log_p - log_q
        p_part = self.gamma * p
        np.multiply(p_part - q_part, log_ratio, out=divergences)
        h = p_part * log_ratio - q_part
        dq_da = h - p * pairs.spread(pairs.sum(h))
        if self.widths == "adaptive":
            dq_da = dq_da - _width_term(dq_da, p, log_p, d2, pairs)
        if self.scale != 1.0:
            minus_beta = pairs.spread(-self.scale * self.precision_x[index])
        return minus_beta * dq_da


def _diagonal(block, start):
    """Positions of the rows' own columns in ``block.ravel()``, ``block`` holding rows
    ``start, start + 1, ...`` of an ``n x n`` matrix: ``start + a (n + 1)``, a slice."""
    rows, n = block.shape
    return slice(start, start + 1 + (rows - 1) * (n + 1), n + 1)


def _between(flat, diagonal, shape):
    """The entries strictly between consecutive diagonal ones (``n`` apart): a view of
    shape ``(rows - 1, n)`` of the raveled block ``flat``."""
    rows, n = shape
    return flat[diagonal.start + 1 : diagonal.stop].reshape(rows - 1, n + 1)[:, :n]


def _without_diagonal(block, start):
    """The entries of ``block`` off their row's own column, row by row, as a new array
    (:func:`_diagonal`): ``block.ravel()[mask]`` of the off-diagonal mask, copied by
    three slices instead of the mask."""
    flat, diagonal = block.ravel(), _diagonal(block, start)
    inner = _between(flat, diagonal, block.shape)
    head, tail = diagonal.start, diagonal.start + inner.size
    out = np.empty(flat.size - block.shape[0])
    out[:head] = flat[:head]
    out[head:tail].reshape(inner.shape)[...] = inner
    out[tail:] = flat[diagonal.stop :]
    return out


def _scatter_without_diagonal(values, block, start):
    """``block`` holding ``values`` off the rows' own columns (the inverse of
    :func:`_without_diagonal`) and ``0`` on them, written in place when ``block`` is
    C-contiguous (the Gram block is); returns the written array."""
    flat, diagonal = block.reshape(-1), _diagonal(block, start)
    inner = _between(flat, diagonal, block.shape)
    head, tail = diagonal.start, diagonal.start + inner.size
    flat[:head] = values[:head]
    inner[...] = values[head:tail].reshape(inner.shape)
    flat[diagonal.stop :] = values[tail:]
    flat[diagonal] = 0.0
    return flat.reshape(block.shape)


def _width_term(dq_da, p, log_p, d2, pairs):
    """The term adaptive widths subtract from ``dQ/da_ij``:
    ``(dQ/dbeta_i) / (dH_i/dbeta_i) * dH_i/da_ij``.

    ``dH_i/da_ij = -p_ij (log p_ij + H_i)`` and ``da_ij/dbeta_i = -d2_ij``, so both
    derivatives in ``beta_i`` are row sums against ``-d2``. Rows whose entropy does
    not depend on ``beta_i`` (equidistant candidates) get nothing.
    """
    entropy = -pairs.sum(p * log_p)
    dh_da = -p * (log_p + pairs.spread(entropy))
    dq_dbeta, dh_dbeta = -pairs.sum(dq_da * d2), -pairs.sum(dh_da * d2)
    ratio = np.divide(dq_dbeta, dh_dbeta, out=np.zeros_like(dq_dbeta), where=dh_dbeta != 0)
    return pairs.spread(ratio) * dh_da


def _gram_blocks(Z):
    """Consecutive blocks of rows of ``Z Z^T`` (BLAS), at most :data:`BLOCK` floats each:
    ``(index, Z[index] @ Z.T)``."""
    n = Z.shape[0]
    block = max(1, BLOCK // n)
    for start in range(0, n, block):
        index = np.arange(start, min(start + block, n))
        yield index, Z[index] @ Z.T


def _probable(D, precision, index, floor):
    """Mask of the pairs whose ``p_{j|i}`` over the whole row (``D`` its squared
    distances, row ``a`` for point ``index[a]``) is at least ``floor``; never the point itself."""
    logits = -precision[:, None] * D
    logits[np.arange(index.size), index] = -np.inf
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p >= floor * p.sum(axis=1, keepdims=True)


def _nearest(keys, index, m):
    """Mask of the ``m`` smallest ``keys`` in each row (row ``a`` is point ``index[a]``,
    itself excluded), ties going to the lowest column. Overwrites the diagonal of ``keys``."""
    keys[np.arange(index.size), index] = np.inf
    kth = np.partition(keys, m - 1, axis=1)[:, m - 1 : m]
    below = keys < kth
    tied = keys == kth
    room = m - below.sum(axis=1, keepdims=True)
    return below | (tied & (np.cumsum(tied, axis=1) <= room))


def rprop(fun, x0, max_iter=500, tol=1e-4, step=0.1, progress=False):
    """Minimise ``fun`` over ``x >= 0`` by Rprop with weight backtracking.

    Riedmiller & Braun (1993): every coordinate moves by its own step size against
    the sign of its partial derivative; the step grows by :data:`ETA_PLUS` while
    the sign persists and shrinks by :data:`ETA_MINUS` when it flips, in which case
    the previous move is taken back and the derivative treated as 0 at the next
    step. Steps stay within :data:`STEP_BOUNDS`; each move is projected onto
    ``x >= 0`` (the executed move is what a later backtracking reverts).

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (value, gradient)``.
    x0 : ndarray of shape (n,)
    max_iter : int, default=500
        Most evaluations of ``fun``.
    tol : float, default=1e-4
        Stop when no coordinate moved by more than ``tol * max(x)`` (or than the
        smallest step, ``STEP_BOUNDS[0]``, which no finer oscillation can go below).
    step : float or ndarray of shape (n,), default=0.1
        Initial step sizes.
    progress : bool, default=False
        Show a tqdm progress bar.

    Returns
    -------
    x : ndarray of shape (n,)
        The last point evaluated.
    values : ndarray
        ``fun`` at every evaluated point.
    step : ndarray of shape (n,)
        Final step sizes (to resume from).
    converged : bool
    """
    x = np.array(x0, dtype=float)
    step = np.broadcast_to(np.asarray(step, dtype=float), x.shape).copy()
    previous_gradient = np.zeros_like(x)
    previous_move = np.zeros_like(x)
    values = []
    converged = False
    for _ in tqdm(range(max_iter), desc="Rprop", disable=not progress):
        value, gradient = fun(x)
        values.append(value)
        resolution = max(tol * x.max(initial=0.0), STEP_BOUNDS[0])
        converged = len(values) > 1 and np.abs(previous_move).max() <= resolution
        if converged or len(values) == max_iter:
            break
        agree = np.sign(previous_gradient * gradient)
        step = np.where(agree > 0, step * ETA_PLUS, np.where(agree < 0, step * ETA_MINUS, step))
        step = np.clip(step, *STEP_BOUNDS)
        move = np.where(agree < 0, -previous_move, -np.sign(gradient) * step)
        moved = np.maximum(x + move, 0.0)
        previous_move, x = moved - x, moved
        previous_gradient = np.where(agree < 0, 0.0, gradient)
    return x, np.asarray(values), step, converged


def _minimise(objective, theta, max_iter, tol, step, progress):
    """:func:`rprop` in chunks of :data:`REFRESH_EVERY` evaluations, the candidate pairs
    refreshed after each, until a chunk converges and its refresh adds no pair.

    Returns ``theta``, the objective at every evaluation and whether it converged.
    """
    values = []
    with tqdm(total=max_iter, desc="Rprop", disable=not progress) as bar:
        while len(values) < max_iter:
            chunk = min(REFRESH_EVERY, max_iter - len(values))
            theta, new, step, converged = rprop(objective, theta, chunk, tol, step)
            values.extend(new)
            bar.update(new.size)
            if not objective.refresh(theta) and converged:
                return theta, np.asarray(values), True
    return theta, np.asarray(values), False


#: Most distinct integer values of a one-column ``y`` that :class:`NeRVRelevance` reads as
#: class labels rather than as a map.
LABEL_LEVELS = 20


def _warn_if_labels(Y, name):
    """Warn in one line when the map ``Y`` is one column of a few integer levels."""
    levels = np.unique(Y)
    if Y.shape[1] == 1 and levels.size <= LABEL_LEVELS and np.all(levels == np.round(levels)):
        warnings.warn(
            f"{name}: y has one column of {levels.size} integer levels and looks like class "
            "labels; y must be the map (projection) of X, shape (n_samples, n_components).",
            UserWarning,
            stacklevel=3,
        )


class NeRVRelevance(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Relevances ``lambda_l^2`` of the features of ``X`` for a map ``y`` of it (NeRV).

    ``y`` is not a class label: it is the projection (map) of ``X``, shape
    ``(n_samples, n_components)``, whose neighbourhoods the relevances explain; a
    one-column ``y`` of a few integer levels gets a warning that it looks like labels.

    Minimises ``Q_k^NeRV(X_lambda, Y) + delta sum_l lambda_l^2`` (Schulz, Gisbrecht &
    Hammer, ESANN 2014, Sect. 3) over ``lambda_l^2 >= 0`` by Rprop, from
    ``lambda = 1``. See :mod:`dimred.relevance.nerv` for the formulas, the
    gradient and the choices the paper leaves open.

    Parameters
    ----------
    n_neighbors : int, default=10
        ``k``: the perplexity (effective number of neighbours) of ``p_{.|i}`` and
        ``q_{.|i}``. Clipped to ``n_samples - 1`` with a warning.
    gamma : float, default=0.5
        Weight of ``KL(p || q)`` against ``KL(q || p)``, in ``[0, 1]`` (the paper: 0.5).
    delta : float, default=1.0
        Weight of ``sum_l lambda_l^2``, ``>= 0`` (the paper: 1).
    widths : {"fixed", "adaptive"}, default="fixed"
        ``"fixed"``: ``sigma_i^x`` calibrated once, for ``lambda = 1``; ``"adaptive"``:
        recalibrated at every step so that the perplexity stays ``k`` (the
        objective is then invariant to the scale of ``lambda`` and the penalty
        shrinks every relevance towards 0; use it with ``delta=0``).
    cost : {"sum", "mean"}, default="sum"
        Divergences summed over the points (the paper's formula) or averaged (the
        original NeRV code; ``delta`` then weighs ``N`` times more).
    bandwidth : {"perplexity", "kth_neighbor"}, default="perplexity"
        How ``k`` sets the widths: the perplexity of ``p_{.|i}`` and ``q_{.|i}`` is
        ``k`` (the NeRV code), or ``sigma_i`` is the distance to the ``k``-th
        neighbour (a narrower reading of the paper's "the actual number of
        neighbors is k"; only with ``widths="fixed"``). See
        :mod:`dimred.relevance.nerv`.
    neighbors : {"auto", "all"} or int, default="auto"
        ``"all"``: every pair (exact). An int ``M >= n_neighbors``: each point's sums
        run over its ``M`` nearest neighbours in ``Y`` and in ``X_lambda`` and the
        points it gives a probability of at least ``MASS_TOL / N`` (approximate,
        faster; see the module docstring). ``"auto"``: ``M =`` :data:`AUTO_FACTOR`
        ``* n_neighbors``.
    max_iter : int, default=500
        Most evaluations of the objective.
    tol : float, default=1e-4
        Stop when no relevance moved by more than ``tol`` times the largest one in a
        step and the candidate pairs are stable.
    step_size : float, default=0.1
        Rprop's initial step (in units of ``lambda^2``).
    verbose : bool, default=False
        Show a tqdm progress bar of the Rprop steps.

    Attributes
    ----------
    relevances_ : ndarray of shape (n_features,)
        ``lambda_l^2`` (``lambda_NeRV^k(l)`` of the paper).
    quality_ : float
        ``Q_k^NeRV(X_lambda, Y)`` (summed or averaged, as ``cost``) at ``relevances_``,
        over the candidate pairs unless ``neighbors="all"``.
    objective_ : ndarray of shape (n_iter_,)
        The penalised objective at every evaluation.
    n_iter_ : int
    n_neighbors_ : int
        ``k`` used.
    n_candidates_ : int
        ``M`` used (``n_samples - 1`` for ``neighbors="all"``).
    n_pairs_ : int
        Ordered pairs ``(i, j)`` the final objective sums over (``N (N - 1)`` for
        ``neighbors="all"``).
    sigma_x_, sigma_y_ : ndarray of shape (n_samples,)
        Final widths ``sigma_i^x``, ``sigma_i^y`` of the training points.
    unreached_ : dict
        For ``"X"`` and ``"Y"``, the number of points whose width ``k`` cannot set
        (more than ``k`` duplicates; a warning says so). In ``Y`` their ``q`` sits on
        the duplicates at the edge of the searched widths, ``KL(p || q)`` is then
        of order ``1 / sigma^2`` and outweighs the penalty: the relevances are those
        of the limit of vanishing widths.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The fit is deterministic: it starts from ``lambda = 1`` and every discrete
    choice (the candidate pairs) breaks ties by index, so repeated fits are
    bitwise equal. Another BLAS kernel rounds the Gram blocks differently, which
    moves the relevances by rounding-level amounts only (tie decisions are made on
    a grid coarser than that rounding).

    Examples
    --------
    >>> from dimred.datasets.synthetic import relevance_set1
    >>> from dimred.relevance import NeRVRelevance
    >>> X, _ = relevance_set1(random_state=0)
    >>> model = NeRVRelevance(n_neighbors=25).fit(X, X[:, :2])
    >>> model.relevances_.round(1)
    array([1., 1., 0.])
    """

    def __init__(
        self,
        n_neighbors=10,
        gamma=0.5,
        delta=1.0,
        widths="fixed",
        cost="sum",
        bandwidth="perplexity",
        neighbors="auto",
        max_iter=500,
        tol=1e-4,
        step_size=0.1,
        verbose=False,
    ):
        self.n_neighbors = n_neighbors
        self.gamma = gamma
        self.delta = delta
        self.widths = widths
        self.cost = cost
        self.bandwidth = bandwidth
        self.neighbors = neighbors
        self.max_iter = max_iter
        self.tol = tol
        self.step_size = step_size
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = True  # Y: the projection, one column per dimension
        return tags

    def fit(self, X, y):
        """Learn the relevances for the projection ``y`` of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples, n_components) or (n_samples,)
            The projection ``Y`` (a 1-D array is a one-dimensional projection), not
            class labels.

        Returns
        -------
        self : NeRVRelevance
        """
        X, Y = validate_data(self, X, y, multi_output=True, y_numeric=True, dtype=np.float64)
        Y = np.asarray(Y, dtype=np.float64).reshape(X.shape[0], -1)
        name = type(self).__name__
        _warn_if_labels(Y, name)
        self._check_params()
        check_spread(X, name)
        self.n_neighbors_ = check_n_neighbors(self.n_neighbors, X.shape[0], name)
        self.n_candidates_ = self._n_candidates(X.shape[0])
        objective = NeRVObjective(
            X, Y, self.n_neighbors_, self.gamma, self.delta, self.widths, self.cost,
            self.n_candidates_, self.bandwidth,
        )  # fmt: skip
        for space, count in objective.unreached.items():
            if count:
                warnings.warn(
                    f"{name}: for {count} points of {space} the width cannot be set by "
                    f"n_neighbors_ = {self.n_neighbors_}: more than that many samples share "
                    "their position; their neighbourhoods are the duplicates.",
                    UserWarning,
                    stacklevel=2,
                )
        theta, values, converged = _minimise(
            objective, np.ones(X.shape[1]), self.max_iter, self.tol, self.step_size, self.verbose
        )
        if not converged:
            warnings.warn(
                f"{name} stopped after max_iter={self.max_iter} evaluations before converging.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.relevances_ = theta
        self.quality_ = objective.quality
        self.objective_ = values
        self.n_iter_ = values.size
        self.unreached_ = dict(objective.unreached)
        self.sigma_x_ = 1 / np.sqrt(objective.precision_x)
        self.sigma_y_ = 1 / np.sqrt(objective.precision_y)
        n = X.shape[0]
        self.n_pairs_ = n * (n - 1) if objective.pairs is None else objective.pairs.size
        return self

    def transform(self, X):
        """``X_lambda``: every feature multiplied by its ``lambda_l``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X * np.sqrt(self.relevances_)

    def _check_params(self):
        name = type(self).__name__
        checks = [
            ("gamma", self.gamma, _is_real(self.gamma) and 0 <= self.gamma <= 1, "in [0, 1]"),
            ("delta", self.delta, _is_real(self.delta) and self.delta >= 0, "non-negative"),
            ("widths", self.widths, self.widths in _WIDTHS, f"one of {_WIDTHS}"),
            ("cost", self.cost, self.cost in _COSTS, f"one of {_COSTS}"),
            ("bandwidth", self.bandwidth, self.bandwidth in _BANDWIDTHS, f"one of {_BANDWIDTHS}"),
            ("max_iter", self.max_iter, _is_int(self.max_iter) and self.max_iter >= 1,
             "a positive integer"),
            ("tol", self.tol, _is_real(self.tol) and self.tol >= 0, "non-negative"),
            ("step_size", self.step_size, _is_real(self.step_size) and self.step_size > 0,
             "positive"),
        ]  # fmt: skip
        for param, value, valid, what in checks:
            if not valid:
                raise ValueError(f"{name}: {param}={value!r} must be {what}.")
        if self.bandwidth == "kth_neighbor" and self.widths != "fixed":
            raise ValueError(f"{name}: bandwidth='kth_neighbor' needs widths='fixed'.")

    def _n_candidates(self, n_samples):
        """``M`` for ``neighbors``, at most ``n_samples - 1``."""
        k = self.n_neighbors_
        if isinstance(self.neighbors, str) and self.neighbors in ("auto", "all"):
            M = AUTO_FACTOR * k if self.neighbors == "auto" else n_samples - 1
        elif _is_int(self.neighbors) and self.neighbors >= k:
            M = self.neighbors
        else:
            raise ValueError(
                f"{type(self).__name__}: neighbors={self.neighbors!r} must be 'auto', 'all' or "
                f"an integer >= n_neighbors_ = {k}."
            )
        return int(min(M, n_samples - 1))


def _is_real(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and np.isfinite(value)


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
