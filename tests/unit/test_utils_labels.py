"""The two label checks (ordinal and plain) and the training-data check."""

import numpy as np
import pandas as pd
import pytest

from dimred.utils.labels import check_classes, check_ranks
from dimred.utils.validation import SPREAD_RANGE, check_spread

LEVELS = ["low", "mid", "high", "top"]  # rank order differs from alphabetical order


def test_ordered_categorical_ranks_follow_the_declared_order():
    names = np.array(["high", "low", "top", "mid", "low", "high"])
    y = pd.Categorical(names, categories=LEVELS, ordered=True)
    classes, codes = check_ranks(y, "Est")
    np.testing.assert_array_equal(classes, LEVELS)
    np.testing.assert_array_equal(codes, [2, 0, 3, 1, 0, 2])
    for wrapped in (pd.Series(y), pd.Series(y, index=np.arange(6) * 7)):
        classes, again = check_ranks(wrapped, "Est")
        np.testing.assert_array_equal(again, codes)
    # Numeric categories in a declared order that is not their numeric order.
    numbers = pd.Categorical([3, 1, 2, 2], categories=[3, 2, 1], ordered=True)
    classes, codes = check_ranks(numbers, "Est")
    np.testing.assert_array_equal(classes, [3, 2, 1])
    np.testing.assert_array_equal(codes, [0, 2, 1, 1])


def test_unused_category_is_skipped_with_a_warning():
    y = pd.Categorical(["low", "top", "high", "low"], categories=LEVELS, ordered=True)
    with pytest.warns(UserWarning, match=r"rank levels \['mid'\]"):
        classes, codes = check_ranks(y, "Est")
    np.testing.assert_array_equal(classes, ["low", "high", "top"])
    np.testing.assert_array_equal(codes, [0, 2, 1, 0])


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (pd.Categorical(["a", "b", "a"]), "unordered pandas.Categorical"),
        (np.array(["low", "mid", "low"]), "labels that define an order.*dtype <U3"),
        (np.array(["low", "mid", "low"], dtype=object), "labels that define an order"),
        (pd.Categorical(["a", None, "b"], ordered=True), "missing values"),
        (pd.Categorical(["a", "a"], categories=["a", "b"], ordered=True), "at least 2 ranks"),
        (np.ones(5), "at least 2 ranks"),
        (np.linspace(0, 1, 5), "Unknown label type"),
    ],
)
def test_labels_without_an_order_are_refused(labels, message):
    with pytest.raises(ValueError, match=message):
        check_ranks(labels, "Est")


def test_numeric_ranks_and_column_vectors():
    classes, codes = check_ranks(np.array([[3], [1], [2], [3]]), "Est")
    np.testing.assert_array_equal(classes, [1, 2, 3])
    np.testing.assert_array_equal(codes, [2, 0, 1, 2])
    with pytest.raises(ValueError, match="at least 2 samples per rank; rank 2 has 1"):
        check_ranks([1, 1, 2, 3, 3], "Est", min_per_rank=2)


def test_check_classes_takes_any_labels_without_order():
    classes, codes = check_classes(np.array(["b", "a", "b"]), "Est")
    np.testing.assert_array_equal(classes, ["a", "b"])
    np.testing.assert_array_equal(codes, [1, 0, 1])
    classes, _ = check_classes(pd.Categorical(["y", "x", "y"]), "Est")  # unordered is fine
    np.testing.assert_array_equal(classes, ["x", "y"])
    with pytest.raises(ValueError, match="Est needs at least 2 classes; got 1 class"):
        check_classes(np.zeros(4), "Est")
    with pytest.raises(ValueError, match="Unknown label type"):
        check_classes(np.linspace(0, 1, 4), "Est")


def test_check_spread():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3))
    check_spread(X, "Est")
    check_spread(np.column_stack([X[:, 0], np.zeros(10)]), "Est")  # one constant column is fine
    with pytest.raises(ValueError, match="Est: X has no variance"):
        check_spread(np.tile(X[:1], (10, 1)), "Est")
    low, high = SPREAD_RANGE
    check_spread(X / np.ptp(X, axis=0).max() * high / 2, "Est")  # near the bounds
    check_spread(X / np.ptp(X, axis=0).max() * low * 2, "Est")
    for factor in (1e200, 1e-200, 4 * high):
        with pytest.raises(ValueError, match="rescale X"):
            check_spread(X * factor, "Est")


@pytest.mark.parametrize(
    "y, listed",
    [
        (np.array([1, 3, 4, 5]), "rank levels [2] have"),
        (np.r_[np.arange(0, 300, 3), 1000], "rank levels [1, 2, 4, ..., 999] (900 levels) have"),
        (np.array([1, 10**9]), "[2, 3, 4, ..., 999999999] (999999998 levels)"),
    ],
)
def test_missing_levels_are_warned_in_one_short_line(y, listed):
    """However many levels are missing, the warning is one line naming at most four."""
    with pytest.warns(UserWarning) as caught:
        check_ranks(y, "ORML")
    (message,) = [str(w.message) for w in caught if "rank levels" in str(w.message)]
    assert listed in message and "\n" not in message and len(message) < 220
