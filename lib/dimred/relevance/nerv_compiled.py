"""NeRV's arithmetic on the pairs of a block, compiled (numba), for fixed widths.

:meth:`~dimred.relevance.nerv.NeRVObjective._pair_weights` evaluates, for each row
``i`` of a block, ``log p_{.|i}`` (a log-softmax of ``-beta_i d2_ij``), the terms
``(gamma p - (1 - gamma) q) log(p / q)`` of ``Q^NeRV`` and the pair weights
``W_ij = -beta_i (h_ij - p_ij sum_m h_im)`` (module docstring of
:mod:`dimred.relevance.nerv`), as about fifteen NumPy passes over the pairs, each
writing a temporary. :func:`pair_terms` does the same arithmetic in three compiled
passes over a chunk of rows (four with every pair, whose weights go back into the Gram
block), with the squared distances ``d2_ij`` read from the Gram block: the same
operations in the same order, every sum over a row as NumPy's ``np.add.reduceat``
forms it (the row's first term plus NumPy's pairwise sum of the others,
:func:`~dimred.utils.numpy_order.reduceat_sum`), and ``exp``, ``log`` and the row sums
of the log-softmax left to NumPy between the passes, on the same values as NumPy's path.
So the results are NumPy's bit for bit on any CPU, whichever ``exp`` NumPy dispatches
(its own AVX-512 versions, or the C library's); ``tests/test_relevance.py`` checks them.

A single compiled loop per row, with the C library's ``exp`` and ``log``, came first:
it gave NumPy's bits only where NumPy calls the C library (CPUs without AVX-512F), so
the compiled arithmetic could not run elsewhere. On such a CPU it was faster than these
passes: the relevance paper's full run took a median of 104 s per NeRV fit of Table 2
on 2,000 images with it and 116 s with the passes (20 fits each, one run each).
"""

import numpy as np
from numba import njit

from ..utils.numpy_order import reduceat_sum

__all__ = ["pair_terms"]

#: Pairs per chunk of :func:`pair_terms` (at least one row): each of its scratch
#: arrays then takes 256 KiB, so that a pass finds the last one's in the CPU's cache.
STAGE_PAIRS = 2**15


# ------------------------------------------------------------------ per row


@njit(cache=True)
def _distance(gram, squares, a, i, j):
    """``max(|x_i|^2 + |x_j|^2 - 2 <x_i, x_j>, 0)``, in that order (``_Block.distances``)."""
    return max(squares[i] + squares[j] - 2.0 * gram[a, j], 0.0)


@njit(cache=True)
def _every_pair_row(gram, squares, a, i, out):
    """Squared distances of row ``i`` (the block's row ``a``) to every other point."""
    for j in range(i):
        out[j] = _distance(gram, squares, a, i, j)
    for j in range(i + 1, gram.shape[1]):
        out[j - 1] = _distance(gram, squares, a, i, j)


@njit(cache=True)
def _candidate_row(gram, squares, a, i, cols, out):
    """Squared distances of row ``i`` (the block's row ``a``) to its candidates ``cols``."""
    for k in range(cols.size):
        out[k] = _distance(gram, squares, a, i, cols[k])


@njit(cache=True)
def _shift(d2, beta):
    """Overwrite a row's ``d2`` by its logits ``-beta d2`` less their largest (the
    shifted logits of ``_Pairs.log_softmax``)."""
    top = -np.inf
    for j in range(d2.size):
        d2[j] = -beta * d2[j]
        top = max(top, d2[j])
    for j in range(d2.size):
        d2[j] = d2[j] - top


@njit(cache=True)
def _row_weights(log_p, p, log_q, q_part, gamma, scaled_beta, h, divergences, weights):
    """One row's terms of ``Q^NeRV`` (into ``divergences``) and pair weights (into
    ``weights``) from its ``log p`` and ``p``; returns the weights' sum. ``h`` is
    scratch: ``h = gamma p log(p/q) - (1 - gamma) q``, ``W = -scaled_beta (h - p sum h)``."""
    m = log_p.size
    for j in range(m):
        log_ratio = log_p[j] - log_q[j]
        p_part = gamma * p[j]
        divergences[j] = (p_part - q_part[j]) * log_ratio
        h[j] = p_part * log_ratio - q_part[j]
    total_h = reduceat_sum(h, m)
    for j in range(m):
        weights[j] = -scaled_beta * (h[j] - p[j] * total_h)
    return reduceat_sum(weights, m)


@njit(cache=True)
def _put_row(gram, a, i, weights):
    """Write row ``i``'s weights into the block's row ``a``, 0 on its own column."""
    gram[a, :i] = weights[:i]
    gram[a, i] = 0.0
    gram[a, i + 1 :] = weights[i:]


# ------------------------------------------------------------- per chunk


@njit(cache=True)
def _every_pair_logits(gram, squares, start, first, stop, precision, out):
    """Shifted logits of the block's rows ``first .. stop - 1`` over every pair, into
    ``out``."""
    n = gram.shape[1]
    for a in range(first, stop):
        row = out[(a - first) * (n - 1) : (a - first + 1) * (n - 1)]
        _every_pair_row(gram, squares, a, start + a, row)
        _shift(row, precision[start + a])


@njit(cache=True)
def _candidate_logits(gram, squares, start, first, stop, precision, cols, indptr, out):
    """Shifted logits of the block's rows ``first .. stop - 1`` over their candidates,
    into ``out``."""
    base = indptr[first]
    for a in range(first, stop):
        row = out[indptr[a] - base : indptr[a + 1] - base]
        _candidate_row(gram, squares, a, start + a, cols[indptr[a] : indptr[a + 1]], row)
        _shift(row, precision[start + a])


@njit(cache=True)
def _less_row_values(values, indptr, per_row):
    """``values - per_row[rows]``, in place: ``log p`` from the shifted logits."""
    for a in range(per_row.size):
        for k in range(indptr[a], indptr[a + 1]):
            values[k] = values[k] - per_row[a]


@njit(cache=True)
def _chunk_weights(log_p, p, log_q, q_part, gamma, scaled_beta, indptr, h, divergences, weights):
    """:func:`_row_weights` of each row of a chunk (pairs ``indptr[a]:indptr[a + 1]``)."""
    sums = np.empty(indptr.size - 1)
    for a in range(sums.size):
        span = slice(indptr[a], indptr[a + 1])
        sums[a] = _row_weights(
            log_p[span], p[span], log_q[span], q_part[span], gamma, scaled_beta[a],
            h[span], divergences[span], weights[span],
        )  # fmt: skip
    return sums


@njit(cache=True)
def _put_rows(weights, gram, start, first, stop):
    """:func:`_put_row` of the block's rows ``first .. stop - 1`` (weights of every pair,
    row by row)."""
    n = gram.shape[1]
    for a in range(first, stop):
        _put_row(gram, a, start + a, weights[(a - first) * (n - 1) : (a - first + 1) * (n - 1)])


def pair_terms(gram, squares, start, precision, log_q, q_part, gamma, scale, divergences, pairs):
    """Pair weights and their row sums of a block of rows ``start, start + 1, ...``.

    The rows are taken a chunk of about :data:`STAGE_PAIRS` pairs at a time. For each
    chunk a compiled pass forms the shifted logits (``_Pairs.log_softmax``), NumPy
    exponentiates them, sums each row (``np.add.reduceat``) and takes the logarithms of
    the sums, a compiled pass forms ``log p``, NumPy exponentiates it, and a last compiled
    pass forms the divergences and the weights (``_pair_weights``).

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
    logits, p, h = np.empty(size), np.empty(size), np.empty(size)
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
        _less_row_values(logits[:m], local, np.log(np.add.reduceat(p[:m], local[:-1])))
        np.exp(logits[:m], out=p[:m])
        chunk = weights[:m] if pairs is None else weights[span]
        row_sums[first:stop] = _chunk_weights(
            logits[:m], p[:m], log_q[span], q_part[span], gamma,
            scale * precision[start + first : start + stop], local, h[:m], divergences[span], chunk,
        )  # fmt: skip
        if pairs is None:
            _put_rows(chunk, gram, start, first, stop)
    return (gram if pairs is None else weights), row_sums
