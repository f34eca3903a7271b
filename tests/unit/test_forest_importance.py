"""Comparison importances of Section 4 on data whose answer is known."""

import numpy as np
import pandas as pd
import pytest

from dimred.importance.forest import (
    fit_forest,
    forest_importances,
    permutation_importances,
    plain_permutation_importances,
)


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


@pytest.mark.parametrize("n_samples, n_classes", [(300, 2), (40, 3)])
def test_permutation_importances_are_the_plain_loop_bit_for_bit(n_samples, n_classes):
    """One float32 copy permuted in place and unchecked predictions give the plain loop's
    result exactly: tied values, a class of two members missing from some trees' OOB rows
    (nan)."""
    rng = np.random.default_rng(n_samples)
    y = np.arange(n_samples) % n_classes
    y[y == n_classes - 1] = np.where(np.arange((y == n_classes - 1).sum()) < 2, n_classes - 1, 0)
    X = rng.normal(size=(n_samples, 6)) + 0.8 * y[:, None] * (np.arange(6) < 2)
    X[:, 3] = np.round(X[:, 3])  # ties
    X[:, 4] = 0.1 * rng.integers(0, 3, n_samples)  # not representable in float32
    forest = fit_forest(X, y, n_estimators=30, random_state=2)
    ours = permutation_importances(forest, X, y, random_state=7)
    plain = plain_permutation_importances(forest, X, y, random_state=7)
    assert np.array_equal(ours, plain, equal_nan=True)
    assert n_classes == 2 or np.isnan(ours).any()


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


def test_importances_do_not_depend_on_the_scale_and_bad_input_is_refused():
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20)
    X = rng.normal(size=(60, 4)) + y[:, None] * np.array([2.0, 1.0, 0.0, 0.0])
    options = {"n_estimators": 20, "random_state": 0, "shap_rows": 20}
    clean = forest_importances(X, y, **options)
    for factor in (1e200, 1e-200, 0.5):
        pd.testing.assert_frame_equal(forest_importances(X * factor, y, **options), clean)
    for bad, message in (
        ((X, np.zeros(60)), "at least 2 classes"),
        ((np.full((60, 4), 3.7), y), "every feature of X is constant"),
        ((np.where(np.eye(60, 4) > 0, np.nan, X), y), "NaN"),
        ((X, y[:-1]), "inconsistent"),
    ):
        with pytest.raises(ValueError, match=message):
            forest_importances(*bad, **options)
    with pytest.raises(TypeError, match="[Ss]parse"):
        forest_importances(sp.csr_matrix(X), y, **options)
    # two samples: finite importances (each sample is out of bag in about a third of the trees)
    assert np.isfinite(forest_importances(X[[0, -1]], y[[0, -1]], **options).to_numpy()).all()


@pytest.mark.parametrize("shap_rows", [0, -5, 2.5, "3"])
def test_shap_rows_that_name_no_rows_are_refused(informative, shap_rows):
    # Before: 0 gave an all-NaN Shapley column, -5 NumPy's "Negative dimensions".
    X, y = informative
    with pytest.raises(ValueError, match="'shap_rows' parameter of forest_importances"):
        forest_importances(X, y, n_estimators=5, random_state=0, shap_rows=shap_rows)


def test_more_shap_rows_than_samples_explain_every_row(informative):
    X, y = informative
    options = {"n_estimators": 5, "random_state": 0}
    every = forest_importances(X[:40], y[:40], **options)
    pd.testing.assert_frame_equal(
        forest_importances(X[:40], y[:40], shap_rows=40, **options), every
    )
    pd.testing.assert_frame_equal(
        forest_importances(X[:40], y[:40], shap_rows=99, **options), every
    )
