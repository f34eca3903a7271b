"""The Fisher path lengths of :func:`~dimred.manifold.fisher_neighbors`, compiled
(numba): NumPy's values bit for bit, in fewer passes.

``fisher_metric._block_lengths`` computes ``d_T`` of a block of pairs from their rows
of squared distances to the Parzen points (shortcut 1 of
:func:`~dimred.manifold.fisher_neighbors`) in about twelve NumPy passes over a
``(T, pairs, N)`` array, each writing a temporary. :func:`path_lengths` does the same
arithmetic in two compiled passes over a chunk of pairs, with NumPy's ``exp`` between
them (:mod:`dimred.utils.numpy_order`: compiled code would call the C library's):

1. per pair, the slopes ``(D_il - D_jl) / (2 sigma^2)`` and, per path point, the
   logits ``s_t slope_l + D_il / (-2 sigma^2)`` less their largest (a maximum is exact
   in any order, so it is taken with eight accumulators);
2. per pair and path point, each class's Parzen mass and moment as
   ``np.add.reduceat`` adds them (the segment's first term plus NumPy's pairwise sum of
   the others), the class sums as ``ndarray.sum`` adds them, ``p_c``, ``p_c (E_c - E)``
   and ``sqrt(sum_c p_c (E_c - E)^2)``; the path points added in order, over ``T``.

Every operation is NumPy's, on the same values in the same order, so the lengths are
the same floats on any CPU (``tests/test_fisher_tsne.py``); ``make bench`` times both
(``benchmarks/bench_fisher.py``).
"""

import numpy as np
from numba import njit

from ..utils.numpy_order import (
    pairwise_halvings,
    pairwise_scratch,
    pairwise_sum_in,
    short_sum_and_dot,
)

__all__ = ["path_lengths"]

#: Floats of logits per chunk (at least one pair): 512 KiB, so that the second pass
#: finds what ``exp`` wrote in the CPU's cache.
CHUNK_FLOATS = 2**16


@njit(cache=True, inline="always")
def _row_max(row):
    """``row.max()`` by eight running maxima (exact in any order), then the rest."""
    n = row.size
    end = n - n % 8
    m0 = m1 = m2 = m3 = m4 = m5 = m6 = m7 = row[0]
    for j in range(0, end, 8):
        m0 = row[j] if row[j] > m0 else m0
        m1 = row[j + 1] if row[j + 1] > m1 else m1
        m2 = row[j + 2] if row[j + 2] > m2 else m2
        m3 = row[j + 3] if row[j + 3] > m3 else m3
        m4 = row[j + 4] if row[j + 4] > m4 else m4
        m5 = row[j + 5] if row[j + 5] > m5 else m5
        m6 = row[j + 6] if row[j + 6] > m6 else m6
        m7 = row[j + 7] if row[j + 7] > m7 else m7
    for j in range(end, n):
        m0 = row[j] if row[j] > m0 else m0
    m0, m2 = max(m0, m1), max(m2, m3)
    m4, m6 = max(m4, m5), max(m6, m7)
    return max(max(m0, m2), max(m4, m6))


@njit(cache=True, inline="always")
def _shifted_logits(row, slope, base, fraction):
    """``row = fraction * slope + base``, less its largest entry."""
    for j in range(row.size):
        row[j] = fraction * slope[j] + base[j]
    top = _row_max(row)
    for j in range(row.size):
        row[j] = row[j] - top


@njit(cache=True, nogil=True)
def _chunk_logits(squared, rows, cols, base_scale, slope_scale, fractions, slopes, logits):
    """Pass 1: ``slopes[q]`` and the shifted logits ``logits[q, t]`` of the pairs
    ``rows[q] -> cols[q]`` (``_block_lengths``' ``slope``, ``base`` and ``logits``)."""
    base = np.empty(squared.shape[1])
    for q in range(rows.size):
        a, b, slope = squared[rows[q]], squared[cols[q]], slopes[q]
        for j in range(base.size):
            base[j] = a[j] / base_scale
        for j in range(base.size):
            slope[j] = (a[j] - b[j]) / slope_scale
        for t in range(fractions.size):
            _shifted_logits(logits[q, t], slope, base, fractions[t])


@njit(cache=True, inline="always")
def _class_sums(weights, slope, starts, ends, sums, scratch):
    """Each class's Parzen mass and moment into ``sums[0]`` and ``sums[1]``: the
    ``np.add.reduceat`` segments of ``weights`` and of ``weights * slope``, the
    segment's first term plus NumPy's pairwise sum of the others, both in one pass
    where a segment takes at most two of the sum's blocks. ``scratch``: a longer
    segment's products, the classes' terms (unused here) and the stack of
    :func:`~dimred.utils.numpy_order.pairwise_sum_in`."""
    products, _, ranges, partial = scratch
    for c in range(starts.size):
        first, stop = starts[c], ends[c]
        if pairwise_halvings(first + 1, stop) <= 1:
            mass, moment = short_sum_and_dot(weights, slope, first + 1, stop)
        else:
            for j in range(first + 1, stop):
                products[j] = weights[j] * slope[j]
            mass = pairwise_sum_in(weights, first + 1, stop, ranges, partial)
            moment = pairwise_sum_in(products, first + 1, stop, ranges, partial)
        sums[0, c] = weights[first] + mass
        sums[1, c] = weights[first] * slope[first] + moment


@njit(cache=True, inline="always")
def _step_length(sums, scratch):
    """``sqrt(sum_c p_c (E_c - E)^2)`` of one path point from the classes' Parzen
    masses and moments (``sums``), as ``_block_lengths`` forms it (``scratch`` as
    :func:`_class_sums`')."""
    _, terms, ranges, partial = scratch
    mass, moment = sums[0], sums[1]
    n_classes = mass.size
    total = pairwise_sum_in(mass, 0, n_classes, ranges, partial)
    mean = pairwise_sum_in(moment, 0, n_classes, ranges, partial) / total
    for c in range(n_classes):
        p = mass[c] / total
        deviation = moment[c] / total - p * mean
        terms[c] = deviation * deviation / p if p > 0 else 0.0
    return np.sqrt(pairwise_sum_in(terms, 0, n_classes, ranges, partial))


@njit(cache=True, nogil=True)
def _chunk_lengths(weights, slopes, starts, lengths):
    """Pass 2: ``d_T`` of each pair of the chunk from its Parzen weights
    ``weights[q, t]`` (the exponentiated logits) and slopes."""
    n_classes, steps = starts.size, weights.shape[1]
    ends = np.append(starts[1:], weights.shape[2])
    sums = np.empty((2, n_classes))
    scratch = (np.empty(weights.shape[2]), np.empty(n_classes), *pairwise_scratch())
    for q in range(lengths.size):
        total = 0.0
        for t in range(steps):
            _class_sums(weights[q, t], slopes[q], starts, ends, sums, scratch)
            value = _step_length(sums, scratch)
            total = value if t == 0 else total + value
        lengths[q] = total / steps


def path_lengths(squared, starts, sigma, fractions, rows, cols):
    """``d_T`` of the pairs ``rows[k] -> cols[k]``, the values of ``_block_lengths``.

    Parameters
    ----------
    squared : ndarray of shape (n_points, n_parzen)
        Squared distances from every point to the Parzen points, these in class order.
    starts : ndarray of shape (n_classes,), int
        First column of each class (every class has a column).
    sigma : float
        Parzen width.
    fractions : ndarray of shape (T,)
        The path points' fractions ``s_t`` (:func:`~dimred.manifold.fisher_metric.path_fractions`).
    rows, cols : ndarray of shape (n_pairs,), int
        The pairs.

    Returns
    -------
    ndarray of shape (n_pairs,)
    """
    n_parzen = squared.shape[1]
    step = max(1, CHUNK_FLOATS // (fractions.size * n_parzen))
    slopes = np.empty((step, n_parzen))
    logits = np.empty((step, fractions.size, n_parzen))
    lengths = np.empty(rows.size)
    starts = np.asarray(starts, dtype=np.int64)
    for first in range(0, rows.size, step):
        pairs = slice(first, min(first + step, rows.size))
        m = pairs.stop - first
        _chunk_logits(
            squared, rows[pairs], cols[pairs], -2 * sigma**2, 2 * sigma**2, fractions,
            slopes[:m], logits[:m],
        )  # fmt: skip
        np.exp(logits[:m], out=logits[:m])
        _chunk_lengths(logits[:m], slopes[:m], starts, lengths[pairs])
    return lengths
