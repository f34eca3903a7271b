"""The Fisher path lengths of :func:`~dimred.manifold.fisher_neighbors`, compiled (numba).

``fisher_paths._block_lengths`` computes ``d_T`` of a block of pairs from their rows
of squared distances to the Parzen points (shortcut 1 of
:func:`~dimred.manifold.fisher_neighbors`) in about twelve NumPy passes over a
``(T, pairs, N)`` array, each writing a temporary. :func:`path_lengths` does the same
mathematics in two compiled passes over a chunk of pairs, with ``np.exp`` between them:

1. per pair, the slopes ``slope_l = (D_il - D_jl) / (2 sigma^2)`` and, per path point
   ``s_t``, the logits ``s_t slope_l - D_il / (2 sigma^2)`` less their largest;
2. per pair and path point, each class's Parzen mass and moment (``sum w_l`` and
   ``sum w_l slope_l``, added in column order), ``p_c``, ``p_c (E_c - E)`` and
   ``sqrt(sum_c p_c (E_c - E)^2)``, averaged over the ``T`` points.

The sums are the loops' own, so the lengths are NumPy's to rounding, not bit for bit
(``tests/unit/test_fisher_tsne.py`` holds them to ``rtol=1e-10`` and the neighbour graphs
to the same neighbours; CONTRIBUTING.md, "One standard of equality"). ``np.exp`` runs
between the passes because it is vectorised and numba's scalar ``exp`` is not: one
fused loop with numba's ``exp`` was about half as fast as NumPy's passes on a CPU with
AVX-512. ``make bench`` times both paths (``benchmarks/bench_fisher.py``).
"""

import math

import numpy as np
from numba import njit

__all__ = ["path_lengths"]

#: Floats of logits per chunk (at least one pair): 512 KiB, so that the second pass
#: finds what ``exp`` wrote in the CPU's cache.
CHUNK_FLOATS = 2**16
#: numba's floating-point licences: sums and maxima in any order, vectorised (the
#: values are finite), products and sums fused.
FASTMATH = {"reassoc", "contract", "nnan", "ninf", "nsz"}


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def largest(row, lanes):
    """``row.max()`` in ``lanes.size`` running maxima (a maximum is exact in any order;
    as one running maximum the loop is not vectorised, and half as fast)."""
    width = lanes.size
    lanes[:] = row[0]
    end = row.size - row.size % width
    for j in range(0, end, width):
        for u in range(width):
            lanes[u] = max(lanes[u], row[j + u])
    top = lanes.max()
    for j in range(end, row.size):
        top = max(top, row[j])
    return top


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def _chunk_logits(squared, rows, cols, scale, fractions, slopes, logits):
    """Pass 1: ``slopes[q]`` and the shifted logits ``logits[q, t]`` of the pairs
    ``rows[q] -> cols[q]`` (``scale``: ``2 sigma^2``)."""
    base, lanes = np.empty(squared.shape[1]), np.empty(8)
    for q in range(rows.size):
        a, b, slope = squared[rows[q]], squared[cols[q]], slopes[q]
        for j in range(a.size):
            slope[j] = (a[j] - b[j]) / scale
            base[j] = -a[j] / scale
        for t in range(fractions.size):
            row = logits[q, t]
            for j in range(a.size):
                row[j] = fractions[t] * slope[j] + base[j]
            top = largest(row, lanes)
            for j in range(a.size):
                row[j] -= top


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def _chunk_lengths(weights, slopes, starts, ends, lengths):
    """Pass 2: ``d_T`` of each pair of the chunk from its Parzen weights
    ``weights[q, t]`` (the exponentiated logits) and slopes."""
    n_classes, steps = starts.size, weights.shape[1]
    mass, moment = np.empty(n_classes), np.empty(n_classes)
    for q in range(lengths.size):
        slope, total = slopes[q], 0.0
        for t in range(steps):
            w = weights[q, t]
            all_mass, all_moment = 0.0, 0.0
            for c in range(n_classes):
                m, e = 0.0, 0.0
                for j in range(starts[c], ends[c]):
                    m += w[j]
                    e += w[j] * slope[j]
                mass[c], moment[c] = m, e
                all_mass += m
                all_moment += e
            mean = all_moment / all_mass
            quadratic = 0.0
            for c in range(n_classes):
                p = mass[c] / all_mass
                if p > 0:
                    deviation = moment[c] / all_mass - p * mean
                    quadratic += deviation * deviation / p
            total += math.sqrt(quadratic)
        lengths[q] = total / steps


def path_lengths(squared, starts, sigma, fractions, rows, cols):
    """``d_T`` of the pairs ``rows[k] -> cols[k]``: the lengths of ``_block_lengths``.

    Parameters
    ----------
    squared : ndarray of shape (n_points, n_parzen)
        Squared distances from every point to the Parzen points, these in class order.
    starts : ndarray of shape (n_classes,), int
        First column of each class (every class has a column).
    sigma : float
        Parzen width.
    fractions : ndarray of shape (T,)
        The path points' fractions ``s_t`` (:func:`~dimred.manifold.fisher_paths.path_fractions`).
    rows, cols : ndarray of shape (n_pairs,), int
        The pairs.

    Returns
    -------
    ndarray of shape (n_pairs,)
    """
    n_parzen = squared.shape[1]
    fractions = np.asarray(fractions, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.append(starts[1:], n_parzen)
    step = max(1, CHUNK_FLOATS // (fractions.size * n_parzen))
    slopes = np.empty((step, n_parzen))
    logits = np.empty((step, fractions.size, n_parzen))
    lengths = np.empty(rows.size)
    for first in range(0, rows.size, step):
        pairs = slice(first, min(first + step, rows.size))
        m = pairs.stop - first
        _chunk_logits(
            squared, rows[pairs], cols[pairs], 2 * sigma**2, fractions, slopes[:m], logits[:m]
        )
        np.exp(logits[:m], out=logits[:m])
        _chunk_lengths(logits[:m], slopes[:m], starts, ends, lengths[pairs])
    return lengths
