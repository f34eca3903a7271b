"""NumPy's arithmetic in compiled code (:mod:`dimred.utils.numpy_order`): its sums add in
NumPy's order, and :func:`matches_numpy` agrees with this file's own probe of ``exp``
and ``log``."""

import numba
import numpy as np
import pytest

from dimred.utils import numpy_order


@numba.njit
def _compiled_exp_log(values):
    """``exp`` and ``log`` as compiled code computes them (the C library's)."""
    return np.exp(values), np.log(np.abs(values))


def numpy_calls_the_c_library():
    """Whether NumPy's ``exp`` and ``log`` are compiled code's on this CPU (NumPy
    dispatches its own versions where the CPU has AVX-512F)."""
    probe = np.random.default_rng(0).normal(scale=30, size=100_000)
    exp, log = _compiled_exp_log(probe)
    return np.array_equal(exp, np.exp(probe)) and np.array_equal(log, np.log(np.abs(probe)))


@pytest.mark.parametrize("length", [*range(1, 20), 127, 128, 129, 136, 255, 256, 1999, 4097])
def test_compiled_sums_are_numpys(length):
    """The compiled sums add in NumPy's order: ``np.sum`` (pairwise) and one segment of
    ``np.add.reduceat`` (the first term plus the pairwise sum of the rest), bit for bit,
    on terms of mixed signs and magnitudes (where the order shows)."""
    rng = np.random.default_rng(length)
    values = rng.normal(size=length) * np.exp(rng.normal(scale=8, size=length))
    assert numpy_order.pairwise_sum(values, 0, length) == np.sum(values)
    assert numpy_order.reduceat_sum(values, length) == np.add.reduceat(values, [0])[0]


def test_matches_numpy_is_this_probe():
    """The library's probe and this file's (other values) agree on this CPU."""
    assert numpy_order.matches_numpy() == numpy_calls_the_c_library()
