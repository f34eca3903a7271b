"""NumPy's arithmetic in compiled code (numba), to the bit.

A loop compiled by numba that repeats NumPy's elementwise operations in the same order
gives NumPy's values bit for bit, except where the order of a sum differs or NumPy
has its own versions of ``exp`` and ``log``:

- :func:`pairwise_sum` and :func:`reduceat_sum` add as ``np.sum`` and one segment of
  ``np.add.reduceat`` do (NumPy's pairwise summation);
- :func:`matches_numpy` tells whether compiled ``exp`` and ``log`` (the C library's)
  are NumPy's on this CPU. They are where NumPy calls the C library (x86-64 CPUs
  without AVX-512F); where the CPU has AVX-512F, NumPy dispatches its own versions.
  The compiled NeRV arithmetic (:mod:`dimred.relevance.nerv_compiled`) is taken only
  where the check holds, so that it changes no bit.
"""

from functools import cache

import numpy as np
from numba import njit

__all__ = ["matches_numpy", "pairwise_sum", "reduceat_sum"]

#: NumPy's pairwise summation: blocks of at most this many terms are summed by
#: eight accumulators (``PW_BLOCKSIZE`` in NumPy's ``loops_utils.h``).
_PAIRWISE_BLOCK = 128


@njit(cache=True)
def _exp_log(exponents, positives):
    """``exp`` and ``log`` as compiled code computes them (the C library's)."""
    return np.exp(exponents), np.log(positives)


@cache
def matches_numpy():
    """Whether compiled ``exp`` and ``log`` give NumPy's bits on this CPU.

    Compared on 65,537 exponents spread over ``[-745, 709]`` (``exp``'s range in
    float64) and 65,537 positives spread over ``[1e-300, 1e300]``. Where NumPy calls
    the C library, both call the same functions and agree everywhere; one difference
    (NumPy's own AVX-512 versions) makes the compiled paths give way to NumPy's.

    Returns
    -------
    bool
    """
    exponents = np.linspace(-745.0, 709.0, 2**16 + 1)
    positives = np.geomspace(1e-300, 1e300, 2**16 + 1)
    exp, log = _exp_log(exponents, positives)
    return bool(np.array_equal(exp, np.exp(exponents)) and np.array_equal(log, np.log(positives)))


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
