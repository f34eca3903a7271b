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
