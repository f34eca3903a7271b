"""NumPy's sums in compiled code (numba), to the bit.

A loop compiled by numba that repeats NumPy's elementwise operations in the same order
gives NumPy's values bit for bit, but for the order of its sums and for ``exp`` and
``log`` (compiled code calls the C library's; NumPy dispatches its own versions on
CPUs with AVX-512F, so compiled code leaves those to NumPy). The sums here add in
NumPy's order:

- :func:`pairwise_sum`: ``np.sum`` of a contiguous array (NumPy's pairwise summation);
- :func:`reduceat_sum`: one segment of ``np.add.reduceat``.
"""

import numpy as np
from numba import njit

__all__ = ["pairwise_sum", "reduceat_sum"]

#: NumPy's pairwise summation: blocks of at most this many terms are summed by
#: eight accumulators (``PW_BLOCKSIZE`` in NumPy's ``loops_utils.h``).
_PAIRWISE_BLOCK = 128


@njit(cache=True)
def _block_sum(a, start, stop):
    """NumPy's sum of at most :data:`_PAIRWISE_BLOCK` terms ``a[start:stop]``: in order
    below 8 terms, else by eight accumulators, then the rest in order."""
    n = stop - start
    if n < 8:
        total = 0.0
        for i in range(start, stop):
            total += a[i]
        return total
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = start + 8
    end = stop - n % 8
    while i < end:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < stop:
        total += a[i]
        i += 1
    return total


@njit(cache=True)
def pairwise_sum(a, start, stop):
    """NumPy's pairwise sum of ``a[start:stop]`` (``np.sum`` of a contiguous array):
    halves (the first a multiple of 8 terms) summed separately down to blocks of
    :data:`_PAIRWISE_BLOCK` (:func:`_block_sum`), then added up the tree. The recursion
    runs on an explicit stack: a recursive version crashed when numba loaded it from its
    cache."""
    if stop - start <= _PAIRWISE_BLOCK:
        return _block_sum(a, start, stop)
    depth = 64
    lows, highs = np.empty(depth, np.int64), np.empty(depth, np.int64)
    combine, partial = np.empty(depth, np.bool_), np.empty(depth)
    lows[0], highs[0], combine[0] = start, stop, False
    top, done = 1, 0
    while top > 0:
        top -= 1
        low, high = lows[top], highs[top]
        n = high - low
        if combine[top]:
            done -= 1
            partial[done - 1] = partial[done - 1] + partial[done]
        elif n <= _PAIRWISE_BLOCK:
            partial[done] = _block_sum(a, low, high)
            done += 1
        else:
            half = n // 2
            half -= half % 8
            lows[top], highs[top], combine[top] = low, high, True
            lows[top + 1], highs[top + 1], combine[top + 1] = low + half, high, False
            lows[top + 2], highs[top + 2], combine[top + 2] = low, low + half, False
            top += 3
    return partial[0]


@njit(cache=True)
def reduceat_sum(a, m):
    """``np.add.reduceat`` of one segment ``a[:m]``: its first term plus the pairwise
    sum of the others."""
    if m == 1:
        return a[0]
    return a[0] + pairwise_sum(a, 1, m)
