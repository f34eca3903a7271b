"""NeRV's arithmetic on the pairs of a block, compiled (numba), for fixed widths.

:meth:`~dimred.relevance.nerv.NeRVObjective._pair_weights` evaluates, for each row
``i`` of a block, ``log p_{.|i}`` (a log-softmax of ``-beta_i d2_ij``), the terms
``(gamma p - (1 - gamma) q) log(p / q)`` of ``Q^NeRV`` and the pair weights
``W_ij = -beta_i (h_ij - p_ij sum_m h_im)`` (module docstring of
:mod:`dimred.relevance.nerv`), as about fifteen NumPy passes over the pairs, each
writing a temporary. :func:`pair_terms` does the same mathematics in two compiled
passes over a chunk of rows, with ``np.exp`` between them (three with every pair,
whose weights go back into the Gram block):

1. each row's logits ``-beta_i d2_ij`` less their largest, the squared distances
   ``d2_ij`` read off the Gram block;
2. per row, the sum ``Z_i`` of the exponentiated logits, ``p = exp(logit) / Z_i``,
   ``log p = logit - log Z_i``, the divergences, ``h`` and its row sum, the weights
   and theirs.

The sums are the loops' own (in any order: numba's ``fastmath`` licences), so the
values are NumPy's to rounding, not bit for bit (``tests/unit/test_relevance.py`` holds the
objective and gradient to ``rtol=1e-10`` and a fit's relevances to NumPy's;
CONTRIBUTING.md, "One standard of equality"). ``np.exp`` runs between the passes
because it is vectorised and numba's scalar ``exp`` is not: the second pass with
numba's ``exp`` fused into it took twice as long as ``np.exp`` and the pass together,
on a CPU with AVX-512 (where the C library's ``exp`` is the scalar one). ``make bench``
times both paths (``benchmarks/bench_relevance.py``).
"""

import math

import numpy as np
from numba import njit

from ..utils.kernels import FASTMATH, largest

__all__ = ["pair_terms"]

#: Pairs per chunk of :func:`pair_terms` (at least one row): each of its scratch
#: arrays then takes 256 KiB, so that a pass finds the last one's in the CPU's cache.
STAGE_PAIRS = 2**15


@njit(cache=True, fastmath=FASTMATH)
def _shift(row, beta, lanes):
    """Overwrite a row's squared distances by its logits ``-beta d2`` less their largest."""
    for j in range(row.size):
        row[j] = -beta * row[j]
    top = largest(row, lanes)
    for j in range(row.size):
        row[j] -= top


@njit(cache=True, fastmath=FASTMATH)
def _every_pair_logits(gram, squares, start, first, stop, precision, out):
    """Pass 1 with every pair: the shifted logits of the block's rows ``first .. stop - 1``
    (point ``i = start + a`` for the block's row ``a``), its own column left out."""
    n, lanes = gram.shape[1], np.empty(8)
    for a in range(first, stop):
        i = start + a
        row = out[(a - first) * (n - 1) : (a - first + 1) * (n - 1)]
        for j in range(i):
            row[j] = max(squares[i] + squares[j] - 2.0 * gram[a, j], 0.0)
        for j in range(i + 1, n):
            row[j - 1] = max(squares[i] + squares[j] - 2.0 * gram[a, j], 0.0)
        _shift(row, precision[i], lanes)


@njit(cache=True, fastmath=FASTMATH)
def _candidate_logits(gram, squares, start, first, stop, precision, cols, indptr, out):
    """Pass 1 with candidate pairs: the shifted logits of the block's rows
    ``first .. stop - 1`` over their candidates ``cols``."""
    base, lanes = indptr[first], np.empty(8)
    for a in range(first, stop):
        i = start + a
        row = out[indptr[a] - base : indptr[a + 1] - base]
        for k in range(row.size):
            j = cols[indptr[a] + k]
            row[k] = max(squares[i] + squares[j] - 2.0 * gram[a, j], 0.0)
        _shift(row, precision[i], lanes)


@njit(cache=True, fastmath=FASTMATH)
def _chunk_weights(logits, p, log_q, q_part, gamma, scaled_beta, indptr, divergences, weights):
    """Pass 2: per row ``a`` (pairs ``indptr[a]:indptr[a + 1]``), ``p`` from the
    exponentiated logits, the divergences and the weights; returns the rows' sums of
    weights. ``weights`` holds ``h`` until it is overwritten."""
    sums = np.empty(indptr.size - 1)
    for a in range(sums.size):
        first, stop = indptr[a], indptr[a + 1]
        total = 0.0
        for k in range(first, stop):
            total += p[k]
        log_total = math.log(total)
        total_h = 0.0
        for k in range(first, stop):
            p[k] = p[k] / total
            log_ratio = logits[k] - log_total - log_q[k]
            p_part = gamma * p[k]
            divergences[k] = (p_part - q_part[k]) * log_ratio
            weights[k] = p_part * log_ratio - q_part[k]
            total_h += weights[k]
        row_sum = 0.0
        for k in range(first, stop):
            weights[k] = -scaled_beta[a] * (weights[k] - p[k] * total_h)
            row_sum += weights[k]
        sums[a] = row_sum
    return sums


@njit(cache=True)
def _put_rows(weights, gram, start, first, stop):
    """Write the weights of the block's rows ``first .. stop - 1`` (every pair, row by
    row) into the Gram block, 0 on each row's own column."""
    n = gram.shape[1]
    for a in range(first, stop):
        i = start + a
        row = weights[(a - first) * (n - 1) : (a - first + 1) * (n - 1)]
        gram[a, :i] = row[:i]
        gram[a, i] = 0.0
        gram[a, i + 1 :] = row[i:]


def pair_terms(gram, squares, start, precision, log_q, q_part, gamma, scale, divergences, pairs):
    """Pair weights and their row sums of a block of rows ``start, start + 1, ...``.

    The rows are taken a chunk of about :data:`STAGE_PAIRS` pairs at a time: a compiled
    pass forms the shifted logits, ``np.exp`` exponentiates them, and a second compiled
    pass forms ``p``, the divergences and the weights (``_pair_weights``).

    Parameters
    ----------
    gram : ndarray of shape (n_rows, n)
        The block's rows of ``X_lambda X_lambda^T``; with every pair it is overwritten
        by the weights ``W`` (0 on each row's own column).
    squares : ndarray of shape (n,)
        Squared norms of the rows of ``X_lambda``.
    start : int
        The block's first row.
    precision : ndarray of shape (n,)
        ``beta_i`` in ``X_lambda``.
    log_q, q_part : ndarray of shape (n_pairs,)
        ``log q`` and ``(1 - gamma) q`` of the block's pairs, row by row.
    gamma, scale : float
        ``gamma`` and the cost's factor (1, or ``1 / N`` for ``cost="mean"``).
    divergences : ndarray of shape (n_pairs,)
        Written: each pair's term of ``Q^NeRV``.
    pairs : tuple of (cols, indptr) or None
        The block's candidate pairs (int64, rows numbered from 0); ``None``: every
        pair, each row's own column left out.

    Returns
    -------
    weights : ndarray
        ``W``: ``gram`` itself with every pair, else of shape (n_pairs,) in the
        pairs' order.
    row_sums : ndarray of shape (n_rows,)
        Each row's sum of weights.
    """
    n_rows, n = gram.shape
    if pairs is None:
        indptr = np.arange(n_rows + 1) * (n - 1)
    else:
        cols, indptr = pairs
    step = max(1, STAGE_PAIRS // int(np.max(np.diff(indptr))))
    bounds = np.append(np.arange(0, n_rows, step), n_rows)
    size = int(np.max(np.diff(indptr[bounds])))
    logits, p = np.empty(size), np.empty(size)
    weights = np.empty(size if pairs is None else cols.size)
    row_sums = np.empty(n_rows)
    for first, stop in zip(bounds[:-1], bounds[1:], strict=True):
        local = indptr[first : stop + 1] - indptr[first]
        span = slice(indptr[first], indptr[stop])
        m = int(local[-1])
        if pairs is None:
            _every_pair_logits(gram, squares, start, first, stop, precision, logits[:m])
        else:
            _candidate_logits(
                gram, squares, start, first, stop, precision, cols, indptr, logits[:m]
            )
        np.exp(logits[:m], out=p[:m])
        chunk = weights[:m] if pairs is None else weights[span]
        row_sums[first:stop] = _chunk_weights(
            logits[:m], p[:m], log_q[span], q_part[span], gamma,
            scale * precision[start + first : start + stop], local, divergences[span], chunk,
        )  # fmt: skip
        if pairs is None:
            _put_rows(chunk, gram, start, first, stop)
    return (gram if pairs is None else weights), row_sums
