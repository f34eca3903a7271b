"""NeRV's arithmetic on the pairs of a block, compiled (numba), for fixed widths.

:meth:`~dimred.relevance.nerv.NeRVObjective._pair_weights` evaluates, for each row
``i`` of a block, ``log p_{.|i}`` (a log-softmax of ``-beta_i d2_ij``), the terms
``(gamma p - (1 - gamma) q) log(p / q)`` of ``Q^NeRV`` and the pair weights
``W_ij = -beta_i (h_ij - p_ij sum_m h_im)`` (module docstring of
:mod:`dimred.relevance.nerv`), as about fifteen NumPy passes over the pairs, each
writing a temporary. The functions here do the same arithmetic pair by pair, with
the squared distances ``d2_ij`` read from the Gram block, in one compiled loop per
row: the same operations in the same order, and every sum over a row as NumPy's
``np.add.reduceat`` forms it (the row's first term plus NumPy's pairwise sum of the
others, :func:`~dimred.utils.numpy_order.reduceat_sum`). Where NumPy's ``exp`` and
``log`` are the C library's (:func:`~dimred.utils.numpy_order.matches_numpy`), the
results are NumPy's bit for bit; elsewhere they would differ from it in the last bits,
as a BLAS kernel's do (``tests/test_relevance.py`` checks both), and the objective
keeps NumPy's arithmetic (``NeRVObjective(compiled="auto")``).
"""

import numpy as np
from numba import njit

from ..utils.numpy_order import reduceat_sum

__all__ = ["candidate_pair_terms", "every_pair_terms"]


@njit(cache=True)
def _row_terms(d2, log_q, q_part, gamma, beta, scaled_beta, p, h, divergences, weights):
    """One row's terms of ``Q^NeRV`` (into ``divergences``) and pair weights (into
    ``weights``) from its squared distances ``d2`` (overwritten); returns the
    weights' sum. ``p`` and ``h`` are scratch of the row's length.

    The operations of ``_pair_weights`` with ``widths="fixed"``: logits ``-beta d2``,
    their log-softmax (shifted by the row's largest), ``p = exp(log p)``,
    ``h = gamma p log(p/q) - (1 - gamma) q`` and ``W = -scaled_beta (h - p sum h)``.
    """
    m = d2.size
    top = -np.inf
    for j in range(m):
        d2[j] = -beta * d2[j]
        top = max(top, d2[j])
    for j in range(m):
        d2[j] = d2[j] - top  # the shifted logits
        p[j] = np.exp(d2[j])
    log_sum = np.log(reduceat_sum(p, m))
    for j in range(m):
        log_p = d2[j] - log_sum
        p[j] = np.exp(log_p)
        log_ratio = log_p - log_q[j]
        p_part = gamma * p[j]
        divergences[j] = (p_part - q_part[j]) * log_ratio
        h[j] = p_part * log_ratio - q_part[j]
    total_h = reduceat_sum(h, m)
    for j in range(m):
        weights[j] = -scaled_beta * (h[j] - p[j] * total_h)
    return reduceat_sum(weights, m)


@njit(cache=True)
def _distance(gram, squares, a, i, j):
    """``max(|x_i|^2 + |x_j|^2 - 2 <x_i, x_j>, 0)``, in that order (``_Block.distances``)."""
    return max(squares[i] + squares[j] - 2.0 * gram[a, j], 0.0)


@njit(cache=True)
def every_pair_terms(gram, squares, start, precision, log_q, q_part, gamma, scale, divergences):
    """Terms and weights of a block of rows ``start, start + 1, ...`` over every pair.

    Parameters
    ----------
    gram : ndarray of shape (n_rows, n)
        The block's rows of ``X_lambda X_lambda^T``; overwritten by the weights ``W``
        (0 on each row's own column).
    squares : ndarray of shape (n,)
        Squared norms of the rows of ``X_lambda``.
    start : int
        The block's first row.
    precision : ndarray of shape (n,)
        ``beta_i`` in ``X_lambda``.
    log_q, q_part : ndarray of shape (n_rows * (n - 1),)
        ``log q`` and ``(1 - gamma) q`` of the block's pairs, row by row, each row's
        own column left out.
    gamma, scale : float
        ``gamma`` and the cost's factor (1, or ``1 / N`` for ``cost="mean"``).
    divergences : ndarray of shape (n_rows * (n - 1),)
        Written: each pair's term of ``Q^NeRV``.

    Returns
    -------
    row_sums : ndarray of shape (n_rows,)
        Each row's sum of weights.
    """
    n_rows, n = gram.shape
    d2, p, h, weights = np.empty(n - 1), np.empty(n - 1), np.empty(n - 1), np.empty(n - 1)
    row_sums = np.empty(n_rows)
    for a in range(n_rows):
        i = start + a
        for j in range(i):
            d2[j] = _distance(gram, squares, a, i, j)
        for j in range(i + 1, n):
            d2[j - 1] = _distance(gram, squares, a, i, j)
        first, last = a * (n - 1), (a + 1) * (n - 1)
        row_sums[a] = _row_terms(
            d2, log_q[first:last], q_part[first:last], gamma, precision[i],
            scale * precision[i], p, h, divergences[first:last], weights,
        )  # fmt: skip
        gram[a, :i] = weights[:i]
        gram[a, i] = 0.0
        gram[a, i + 1 :] = weights[i:]
    return row_sums


@njit(cache=True)
def candidate_pair_terms(
    gram, squares, start, cols, indptr, precision, log_q, q_part, gamma, scale, divergences
):
    """Terms and weights of a block's candidate pairs (:func:`every_pair_terms` with the
    pairs of row ``a`` at ``indptr[a]:indptr[a + 1]``, columns ``cols``).

    Returns
    -------
    weights : ndarray of shape (n_pairs,)
        ``W`` of the pairs, in their order.
    row_sums : ndarray of shape (n_rows,)
    """
    n_rows = indptr.size - 1
    weights, row_sums = np.empty(cols.size), np.empty(n_rows)
    longest = np.max(indptr[1:] - indptr[:-1])
    d2, p, h = np.empty(longest), np.empty(longest), np.empty(longest)
    for a in range(n_rows):
        i = start + a
        first, last = indptr[a], indptr[a + 1]
        m = last - first
        for k in range(m):
            d2[k] = _distance(gram, squares, a, i, cols[first + k])
        row_sums[a] = _row_terms(
            d2[:m], log_q[first:last], q_part[first:last], gamma, precision[i],
            scale * precision[i], p, h, divergences[first:last], weights[first:last],
        )  # fmt: skip
    return weights, row_sums
