"""The pairs of points NeRV's sums run over and the widths of their Gaussians.

The pairs are kept as in CSR (:class:`_Pairs`; every pair of a block of rows:
:class:`_OffDiagonal`); a block of rows (:class:`_Block`) holds its part of the Gram
matrix of ``X_lambda``, from which its squared distances are read. The widths
``beta_i = 1 / sigma_i^2`` give each row the perplexity ``k``
(:func:`calibrate_precisions`) or put ``sigma_i`` at its ``k``-th neighbour
(:func:`kth_neighbor_precisions`); the readings are :mod:`dimred.relevance.nerv`'s.
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["calibrate_precisions", "kth_neighbor_precisions"]

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
