"""NumPy's sums in compiled code (numba), to the bit.

A loop compiled by numba that repeats NumPy's elementwise operations in the same order
gives NumPy's values bit for bit, but for the order of its sums and for ``exp`` and
``log`` (compiled code calls the C library's; NumPy dispatches its own versions on
CPUs with AVX-512F, so compiled code leaves those to NumPy). The sums here add in
NumPy's order:

- :func:`pairwise_sum`: ``np.sum`` of a contiguous array (NumPy's pairwise summation),
  :func:`pairwise_sum_in` the same in scratch the caller allocates once
  (:func:`pairwise_scratch`), and :func:`short_sum_and_dot` the sums of ``a`` and of
  ``a * b`` in one pass where they take at most two blocks (:func:`pairwise_halvings`);
- :func:`reduceat_sum`: one segment of ``np.add.reduceat``.
"""

import numpy as np
from numba import njit

__all__ = [
    "pairwise_halvings",
    "pairwise_scratch",
    "pairwise_sum",
    "pairwise_sum_in",
    "reduceat_sum",
    "short_sum_and_dot",
]

#: NumPy's pairwise summation: blocks of at most this many terms are summed by
#: eight accumulators (``PW_BLOCKSIZE`` in NumPy's ``loops_utils.h``).
_PAIRWISE_BLOCK = 128
#: Entries of :func:`pairwise_sum_in`'s stack: two more per halving, about
#: ``2 log2(n / 128) + 1`` for ``n`` terms (27 for ``2**20``).
_STACK_DEPTH = 64


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _block_sum_and_dot(a, b, start, stop):
    """:func:`_block_sum` of ``a[start:stop]`` and of the products ``a[i] * b[i]``, in one
    pass: the same additions as two calls on ``a`` and on ``a * b``, interleaved."""
    n = stop - start
    if n < 8:
        total, dot = 0.0, 0.0
        for i in range(start, stop):
            total += a[i]
            dot += a[i] * b[i]
        return total, dot
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    q0, q1, q2, q3 = r0 * b[start], r1 * b[start + 1], r2 * b[start + 2], r3 * b[start + 3]
    q4, q5, q6, q7 = r4 * b[start + 4], r5 * b[start + 5], r6 * b[start + 6], r7 * b[start + 7]
    i = start + 8
    end = stop - n % 8
    while i < end:
        r0 += a[i]
        q0 += a[i] * b[i]
        r1 += a[i + 1]
        q1 += a[i + 1] * b[i + 1]
        r2 += a[i + 2]
        q2 += a[i + 2] * b[i + 2]
        r3 += a[i + 3]
        q3 += a[i + 3] * b[i + 3]
        r4 += a[i + 4]
        q4 += a[i + 4] * b[i + 4]
        r5 += a[i + 5]
        q5 += a[i + 5] * b[i + 5]
        r6 += a[i + 6]
        q6 += a[i + 6] * b[i + 6]
        r7 += a[i + 7]
        q7 += a[i + 7] * b[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    dot = ((q0 + q1) + (q2 + q3)) + ((q4 + q5) + (q6 + q7))
    while i < stop:
        total += a[i]
        dot += a[i] * b[i]
        i += 1
    return total, dot


@njit(cache=True, inline="always")
def short_sum_and_dot(a, b, start, stop):
    """NumPy's pairwise sums of ``a[start:stop]`` and of ``a[i] * b[i]`` (each
    ``np.sum`` of a contiguous array), in one pass, for at most two blocks
    (:func:`pairwise_halvings` at most 1)."""
    if stop - start <= _PAIRWISE_BLOCK:
        return _block_sum_and_dot(a, b, start, stop)
    middle = start + _half(stop - start)
    total_low, dot_low = _block_sum_and_dot(a, b, start, middle)
    total_high, dot_high = _block_sum_and_dot(a, b, middle, stop)
    return total_low + total_high, dot_low + dot_high


@njit(cache=True)
def pairwise_sum(a, start, stop):
    """NumPy's pairwise sum of ``a[start:stop]`` (``np.sum`` of a contiguous array):
    :func:`pairwise_sum_in`, with scratch of its own where it needs any."""
    if pairwise_halvings(start, stop) > 1:
        ranges, partial = pairwise_scratch()
        return _stacked_sum(a, start, stop, ranges, partial)
    return _short_sum(a, start, stop)


@njit(cache=True, inline="always")
def pairwise_sum_in(a, start, stop, ranges, partial):
    """NumPy's pairwise sum of ``a[start:stop]``: halves (the first a multiple of 8
    terms) summed separately down to blocks of :data:`_PAIRWISE_BLOCK`
    (:func:`_block_sum`), then added up the tree. Beyond two blocks the tree is walked
    on an explicit stack in the scratch ``ranges, partial`` (:func:`pairwise_scratch`),
    which a caller summing many segments allocates once; a recursive version crashed
    when numba loaded it from its cache."""
    if pairwise_halvings(start, stop) > 1:
        return _stacked_sum(a, start, stop, ranges, partial)
    return _short_sum(a, start, stop)


@njit(cache=True)
def pairwise_scratch():
    """Scratch for :func:`pairwise_sum_in`: the ranges of its stack (lows, highs and
    whether to combine, rows of an int64 array) and its partial sums."""
    return np.empty((3, _STACK_DEPTH), np.int64), np.empty(_STACK_DEPTH)


@njit(cache=True, inline="always")
def _half(n):
    """Where NumPy's pairwise sum splits ``n`` terms: half, less its remainder mod 8."""
    return n // 2 - (n // 2) % 8


@njit(cache=True, inline="always")
def pairwise_halvings(start, stop):
    """How NumPy's pairwise sum splits ``stop - start`` terms: 0 for one block of at
    most :data:`_PAIRWISE_BLOCK`, 1 for two, 2 for more."""
    n = stop - start
    if n <= _PAIRWISE_BLOCK:
        return 0
    return 1 if n - _half(n) <= _PAIRWISE_BLOCK else 2


@njit(cache=True, inline="always")
def _short_sum(a, start, stop):
    """The pairwise sum of one block, or of two (:func:`pairwise_halvings` at most 1)."""
    if stop - start <= _PAIRWISE_BLOCK:
        return _block_sum(a, start, stop)
    middle = start + _half(stop - start)
    return _block_sum(a, start, middle) + _block_sum(a, middle, stop)


@njit(cache=True)
def _stacked_sum(a, start, stop, ranges, partial):
    """The pairwise sum of any number of terms, its tree walked on the stack
    ``ranges`` with the partial sums in ``partial``."""
    lows, highs, combine = ranges[0], ranges[1], ranges[2]
    lows[0], highs[0], combine[0] = start, stop, 0
    top, done = 1, 0
    while top > 0:
        top -= 1
        low, high = lows[top], highs[top]
        if combine[top]:
            done -= 1
            partial[done - 1] = partial[done - 1] + partial[done]
        elif high - low <= _PAIRWISE_BLOCK:
            partial[done] = _block_sum(a, low, high)
            done += 1
        else:
            middle = low + _half(high - low)
            lows[top], highs[top], combine[top] = low, high, 1
            lows[top + 1], highs[top + 1], combine[top + 1] = middle, high, 0
            lows[top + 2], highs[top + 2], combine[top + 2] = low, middle, 0
            top += 3
    return partial[0]


@njit(cache=True)
def reduceat_sum(a, m):
    """``np.add.reduceat`` of one segment ``a[:m]``: its first term plus the pairwise
    sum of the others."""
    if m == 1:
        return a[0]
    return a[0] + pairwise_sum(a, 1, m)
