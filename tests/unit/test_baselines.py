"""Trivial rankers: the median rank minimises the training MAE; chance is uniform."""

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred import ConstantRank


def test_median_rank_minimises_the_training_mae():
    rng = np.random.default_rng(0)
    y = rng.choice([1, 2, 3, 4, 5], size=101, p=[0.05, 0.1, 0.2, 0.4, 0.25])
    X = rng.normal(size=(y.size, 3))
    model = ConstantRank().fit(X, y)
    maes = {rank: np.abs(y - rank).mean() for rank in np.unique(y)}
    assert model.constant_ == min(maes, key=maes.get)
    assert (model.predict(X[:7]) == model.constant_).all()


def test_median_of_an_even_count_is_the_lower_middle_rank():
    y = np.array([1, 1, 2, 2])
    assert ConstantRank().fit(np.zeros((4, 1)), y).constant_ == 1


def test_uniform_ranks_are_seeded_and_cover_every_rank():
    X, y = np.zeros((600, 1)), np.repeat([2, 3, 4], 200)
    first = ConstantRank("uniform", random_state=3).fit(X, y).predict(X)
    again = ConstantRank("uniform", random_state=3).fit(X, y).predict(X)
    np.testing.assert_array_equal(first, again)
    counts = pd.Series(first).value_counts()
    assert set(counts.index) == {2, 3, 4} and counts.min() > 150


def test_ordered_categorical_labels_keep_their_order():
    y = pd.Categorical(["low", "high", "mid", "high", "high"], ["low", "mid", "high"], ordered=True)
    model = ConstantRank().fit(np.zeros((5, 1)), y)
    assert list(model.classes_) == ["low", "mid", "high"] and model.constant_ == "high"


def test_invalid_strategy_and_unordered_labels_raise():
    with pytest.raises(ValueError, match="strategy"):
        ConstantRank("mean").fit(np.zeros((3, 1)), [1, 2, 3])
    with pytest.raises(ValueError, match="order"):
        ConstantRank().fit(np.zeros((3, 1)), ["a", "b", "c"])


def _expected_failed_checks(estimator):
    failed = {
        "check_classifiers_train": "a constant ranker does not learn the training classes",
        "check_classifiers_classes": "string labels define no rank order",
    }
    if estimator.strategy == "uniform":
        reason = "each sample's random rank depends on its position in X (as DummyClassifier)"
        failed["check_methods_sample_order_invariance"] = reason
        failed["check_methods_subset_invariance"] = reason
    return failed


@parametrize_with_checks(
    [ConstantRank(), ConstantRank("uniform", random_state=0)],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
