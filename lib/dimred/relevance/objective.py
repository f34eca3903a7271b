"""NeRV's objective ``Q_k^NeRV(X_lambda, Y) + delta sum_l theta_l`` and its exact gradient
(:class:`NeRVObjective`; the formulas: :mod:`dimred.relevance.nerv`).

Every pair or candidate pairs (``neighbors``)
---------------------------------------------
Everything is evaluated by blocks of :data:`BLOCK` rows' worth of pairs; the
squared distances come from blocks of the Gram matrix ``X_lambda X_lambda^T``
(BLAS, zero-relevance columns dropped), so no ``N x N`` array is ever formed. Within
a block the arithmetic on the pairs runs on chunks of :data:`CHUNK` rows' worth, whose
temporaries stay in the CPU's cache; it is per pair or per row, so the chunks change
no bit (only the block's sum of divergences and its BLAS product span its rows).
``log q`` and ``(1 - gamma) q`` depend on ``Y`` and its widths only: they are computed
at the first evaluation and kept while the pairs stay, as long as they fit in
:data:`CACHE_FLOATS` (every pair of up to about 4,000 points); beyond, each
evaluation recomputes them, the same values bit for bit.
The widths are always calibrated over every other point (the exact widths).
``neighbors="all"`` sums over every pair: the exact reference, O(N^2) work per step
besides the BLAS products. An integer ``M`` (``"auto"``:
:data:`~dimred.relevance.nerv.AUTO_FACTOR` ``* k``) restricts each point's sums to its
candidates ``S_i`` (Barnes-Hut-SNE's device, van der Maaten 2013, the paper's ref.
[13]): its ``M`` nearest neighbours in ``Y`` and in ``X_lambda``, and every ``j`` with
``p_{j|i}`` or ``q_{j|i}`` of at least :data:`MASS_TOL` ``/ N`` over the whole row, so
that each row leaves out less than :data:`MASS_TOL` of either distribution; ``p`` and
``q`` are normalised over ``S_i`` and the gradient is one sparse product per block.
Every :data:`~dimred.relevance.rprop.REFRESH_EVERY` Rprop steps the candidates of the
current ``X_lambda`` (and widths) are added to ``S_i`` -- sets only grow, so this ends
-- and the fit stops when Rprop has converged and a refresh adds nothing. Memory O(N
|S_i|) plus one block (plus the kept ``log q`` and ``(1 - gamma) q``, at most
:data:`CACHE_FLOATS` floats).

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

import numpy as np
import scipy.sparse as sp

from ..utils.graphs import _tie_keys, knn_distances
from .pairs import (
    _Block,
    _entropy,
    _OffDiagonal,
    _Pairs,
    _scatter_without_diagonal,
    calibrate_precisions,
    kth_neighbor_precisions,
)

__all__ = ["NeRVObjective"]

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
#: Candidate pairs also include every ``j`` with ``p_{j|i}`` or ``q_{j|i}`` at least
#: ``MASS_TOL / N`` over the whole row: each row then leaves out less than this mass.
MASS_TOL = 1e-2


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
    ):
        if bandwidth == "kth_neighbor" and widths != "fixed":
            raise ValueError("bandwidth='kth_neighbor' needs widths='fixed'.")
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
        """
        index, pairs = block.index, block.pairs
        log_q, q_part = self._q_terms(block)  # log q, (1 - gamma) q
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
