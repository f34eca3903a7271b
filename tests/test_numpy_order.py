"""NumPy's sums in compiled code (:mod:`dimred.utils.numpy_order`): they add in NumPy's
order."""

import numpy as np
import pytest

from dimred.utils import numpy_order


@pytest.mark.parametrize("length", [*range(1, 20), 127, 128, 129, 136, 255, 256, 1999, 4097])
def test_compiled_sums_are_numpys(length):
    """The compiled sums add in NumPy's order: ``np.sum`` (pairwise) and one segment of
    ``np.add.reduceat`` (the first term plus the pairwise sum of the rest), bit for bit,
    on terms of mixed signs and magnitudes (where the order shows)."""
    rng = np.random.default_rng(length)
    values = rng.normal(size=length) * np.exp(rng.normal(scale=8, size=length))
    assert numpy_order.pairwise_sum(values, 0, length) == np.sum(values)
    assert numpy_order.reduceat_sum(values, length) == np.add.reduceat(values, [0])[0]
    ranges, partial = numpy_order.pairwise_scratch()
    assert numpy_order.pairwise_sum_in(values, 0, length, ranges, partial) == np.sum(values)


@pytest.mark.parametrize(
    "length", [*range(0, 20), 127, 128, 129, 136, 199, 248, 249, 255, 256, 257, 300]
)
def test_pairwise_halvings_and_fused_sums(length):
    """:func:`pairwise_halvings` counts NumPy's splits (one block up to 128 terms; two
    when the second half, ``n`` less half of it rounded down to a multiple of 8, is at
    most 128: up to 248 terms and 256, not 249 to 255; more beyond), and where there are
    at most two blocks :func:`short_sum_and_dot` gives ``np.sum(a)`` and
    ``np.sum(a * b)`` bit for bit, at any offset into the arrays."""
    halvings = numpy_order.pairwise_halvings(0, length)
    two = length <= 248 or length == 256
    assert halvings == (0 if length <= 128 else 1 if two else 2)
    if halvings > 1:
        return
    rng = np.random.default_rng(length)
    a = rng.normal(size=length + 3) * np.exp(rng.normal(scale=8, size=length + 3))
    b = rng.normal(size=length + 3) * np.exp(rng.normal(scale=8, size=length + 3))
    for start in (0, 3):
        part = slice(start, start + length)
        total, dot = numpy_order.short_sum_and_dot(a, b, part.start, part.stop)
        assert total == np.sum(a[part]) + 0.0  # NumPy's sum of nothing is 0.0
        assert dot == np.sum(a[part] * b[part]) + 0.0
