"""Cost measurement: power-law exponents, the child's peak memory and wall time, the
timeout, and exceptions from the child.

The functions measured are NumPy's and the standard library's where possible, so that
the children need not import this test module.
"""

import math
import os
import time

import numpy as np
import pytest

from compendium.cost import (
    Measurement,
    PowerLaw,
    RemoteTraceback,
    fit_exponent,
    measure,
)

MiB = 2**20


class NeedsTwoArguments(Exception):
    """Pickles, but cannot be unpickled (``__init__`` takes two arguments)."""

    def __init__(self, first, second):
        super().__init__(f"{first} and {second}")


def raise_unpicklable():
    raise NeedsTwoArguments("this", "that")


# -------------------------------------------------------------------------- exponents
def test_exact_power_laws_give_their_exponents():
    sizes = np.array([1_000, 2_000, 4_000, 8_000, 16_000])
    linear = fit_exponent(sizes, 3e-6 * sizes)  # an O(n) cost
    quadratic = fit_exponent(sizes, 2e-9 * sizes**2)  # an O(n^2) cost
    assert isinstance(linear, PowerLaw)
    np.testing.assert_allclose(linear, (1.0, 3e-6), rtol=1e-10)
    np.testing.assert_allclose(quadratic, (2.0, 2e-9), rtol=1e-10)
    exponent, prefactor = fit_exponent([10, 100], [5.0, 5.0])  # unpacks as (b, a)
    assert exponent == pytest.approx(0.0, abs=1e-12) and prefactor == pytest.approx(5.0)


def test_noisy_power_law_gives_a_nearby_exponent():
    rng = np.random.default_rng(0)
    sizes = np.geomspace(100, 10_000, 9)
    values = 0.5 * sizes**1.5 * np.exp(0.05 * rng.normal(size=sizes.size))
    assert fit_exponent(sizes, values).exponent == pytest.approx(1.5, abs=0.05)


@pytest.mark.parametrize(
    ("sizes", "values", "match"),
    [
        ([1, 2, 3], [1, 2], "same length"),
        ([[1, 2]], [[1, 2]], "1-D"),
        ([5, 5, 5], [1, 2, 3], "2 distinct sizes"),
        ([7], [1], "2 distinct sizes"),
        ([0, 1, 2], [1, 2, 3], "sizes must be finite and positive"),
        ([1, 2, 3], [1, 0, 3], "values must be finite and positive"),
        ([1, 2, 3], [1, -2, 3], "values must be finite and positive"),
        ([1, np.nan, 3], [1, 2, 3], "sizes must be finite"),
    ],
)
def test_fit_exponent_validates(sizes, values, match):
    with pytest.raises(ValueError, match=match):
        fit_exponent(sizes, values)


# ---------------------------------------------------------------- measured in a child
def test_measured_memory_of_linear_and_quadratic_allocations():
    megabytes = np.array([16, 32, 64])
    linear = [measure(np.ones, n * MiB, dtype=np.uint8).peak_memory for n in megabytes]
    assert np.all(np.diff(linear) > 0)
    np.testing.assert_allclose(linear, megabytes * MiB, rtol=0.3)
    assert 0.9 < fit_exponent(megabytes, linear).exponent < 1.1
    sides = np.array([2048, 4096, 8192])  # 4, 16 and 64 MiB
    quadratic = [measure(np.ones, (n, n), dtype=np.uint8).peak_memory for n in sides]
    assert np.all(np.diff(quadratic) > 0)
    np.testing.assert_allclose(quadratic, sides**2, rtol=0.3)
    assert 1.8 < fit_exponent(sides, quadratic).exponent < 2.2


def test_the_callers_memory_does_not_count():
    held = np.ones(256 * MiB, dtype=np.uint8)  # resident in the caller
    measurement = measure(np.ones, 16 * MiB, dtype=np.uint8)
    assert measurement.baseline_memory < held.nbytes
    assert measurement.peak_memory == pytest.approx(16 * MiB, rel=0.3)


def test_arguments_are_in_the_baseline_and_results_come_back():
    argument = np.arange(4 * MiB, dtype=np.float64)  # 32 MiB
    measurement = measure(np.add, argument, 1.0, return_result=True)
    assert isinstance(measurement, Measurement) and not measurement.timed_out
    assert measurement.peak_memory == pytest.approx(argument.nbytes, rel=0.3)  # the result
    assert measurement.baseline_memory > argument.nbytes
    np.testing.assert_array_equal(measurement.result, argument + 1.0)
    assert measurement.result.flags.writeable
    assert measure(np.ones, 3).result is None  # return_result=False by default
    assert measure(np.ones, 3, dtype=np.uint8, return_result=True).result.dtype == np.uint8


def test_wall_time_is_that_of_the_call():
    measurement = measure(time.sleep, 0.3)
    assert 0.3 <= measurement.wall_time < 1.5
    assert measurement.peak_memory >= 0


def test_timeout_kills_the_child():
    start = time.perf_counter()
    measurement = measure(time.sleep, 60, timeout=1)
    assert time.perf_counter() - start < 10
    assert measurement.timed_out and measurement.wall_time == 1
    assert measurement.peak_memory is None and measurement.result is None


def test_exceptions_propagate_with_the_childs_message_and_traceback():
    with pytest.raises(ValueError, match="math domain error") as info:
        measure(math.sqrt, -1.0)
    cause = info.value.__cause__
    assert isinstance(cause, RemoteTraceback)
    assert "ValueError: math domain error" in str(cause)
    with pytest.raises(ChildProcessError, match="NeedsTwoArguments: this and that"):
        measure(raise_unpicklable)


def test_a_child_dying_without_reporting_is_an_error():
    with pytest.raises(ChildProcessError, match="exited with code 3"):
        measure(os._exit, 3)


def test_spawn_works_too():
    measurement = measure(np.ones, 5, return_result=True, start_method="spawn")
    np.testing.assert_array_equal(measurement.result, np.ones(5))


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"timeout": 0}, ValueError, "timeout"),
        ({"timeout": -1.0}, ValueError, "timeout"),
        ({"timeout": "1"}, ValueError, "timeout"),
        ({"start_method": "fork"}, ValueError, "start_method"),
    ],
)
def test_measure_validates(options, error, match):
    with pytest.raises(error, match=match):
        measure(np.ones, 3, **options)


def test_unpicklable_functions_are_refused_in_the_caller():
    with pytest.raises(TypeError, match="picklable"):
        measure(lambda: 1)
