"""MAE, MZE and Kendall's tau_b of ordinal predictions (dimred.metrics.ordinal)."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from dimred.metrics.ordinal import ordinal_scores


def test_scores_against_their_definitions():
    rng = np.random.default_rng(0)
    y = rng.integers(1, 6, 200)
    pred = np.clip(y + rng.integers(-2, 3, 200), 1, 5)
    scores = ordinal_scores(y, pred)
    assert scores["mae"] == pytest.approx(np.mean(np.abs(y - pred)))
    assert scores["mze"] == pytest.approx(np.mean(y != pred))
    assert scores["tau_b"] == pytest.approx(kendalltau(y, pred).statistic)


def test_ranks_not_values_and_any_label_type():
    """Labels 10, 20, 40 are three ranks apart by one step each; ordered categories score
    as their positions."""
    scores = ordinal_scores([10, 20, 40], [20, 20, 10], classes=[10, 20, 40])
    assert scores["mae"] == pytest.approx((1 + 0 + 2) / 3)
    order = ["low", "mid", "high"]
    truth = pd.Categorical(["low", "mid", "high"], categories=order, ordered=True)
    assert ordinal_scores(np.asarray(truth), ["mid", "mid", "low"], classes=order) == scores


def test_constant_predictions_have_no_association():
    scores = ordinal_scores([1, 2, 3, 3], [2, 2, 2, 2])
    assert scores["tau_b"] == 0.0 and scores["mae"] == pytest.approx(0.75)


def test_refusals():
    with pytest.raises(ValueError, match="same length"):
        ordinal_scores([1, 2], [1])
    with pytest.raises(ValueError, match="not among the ranks"):
        ordinal_scores([1, 2], [1, 5], classes=[1, 2, 3])
