"""Comparison importances of Section 4 on data whose answer is known."""

import numpy as np
import pytest

from dimred.importance.forest import fit_forest, forest_importances, permutation_importances


@pytest.fixture(scope="module")
def informative():
    """Feature 0 decides the class, feature 1 helps a little, the rest is noise."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    X = rng.normal(size=(300, 5))
    X[:, 0] += 3 * y
    X[:, 1] += 0.7 * y
    return X, y


def test_informative_feature_ranks_first_for_all_four(informative):
    X, y = informative
    table = forest_importances(X, y, n_estimators=60, random_state=0, shap_rows=80)
    assert list(table.columns) == ["rf", "sd", "gini", "shapley"]
    for name in ("rf", "gini", "shapley"):
        assert table[name].idxmax() == 0, name
        assert table[name].iloc[0] > table[name].iloc[2:].max()


def test_permutation_importance_of_noise_is_near_zero(informative):
    X, y = informative
    forest = fit_forest(X, y, n_estimators=60, random_state=1)
    decrease = permutation_importances(forest, X, y, random_state=1)
    assert decrease.shape == (60, 2, 5)
    mean = np.nanmean(decrease, axis=0)
    assert (mean[:, 0] > 0.2).all()  # both classes lose accuracy without feature 0
    assert np.abs(mean[:, 2:]).max() < 0.05


def test_rf_is_mean_over_standard_error_and_sd_the_standard_error(informative):
    """The aggregation of randomForest's importance(scale=TRUE) and importanceSD."""
    X, y = informative
    table = forest_importances(X, y, n_estimators=40, random_state=5, shap_rows=20)
    rng = np.random.RandomState(5)
    forest = fit_forest(X, y, 40, rng.randint(np.iinfo(np.int32).max))
    decrease = permutation_importances(forest, X, y, rng)
    per_tree = decrease.transpose(1, 2, 0)  # class, feature, tree
    mean = per_tree.mean(axis=-1)
    stderr = per_tree.std(axis=-1) / np.sqrt(per_tree.shape[-1])
    np.testing.assert_allclose(table["sd"], stderr.mean(axis=0))
    np.testing.assert_allclose(table["rf"], (mean / stderr).mean(axis=0))


def test_seeded_results_are_deterministic(informative):
    X, y = informative
    a = forest_importances(X, y, n_estimators=20, random_state=3, shap_rows=30)
    b = forest_importances(X, y, n_estimators=20, random_state=3, shap_rows=30)
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
