"""MetricalImportance: Eqs. (1)-(5), Remark 2, Algorithm 3.1 and the paper's tables."""

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred import MetricalImportance
from dimred.importance.metrical import (
    encode_mixed,
    optimal_scaling,
    within_class_sq_distances,
    within_class_sq_distances_pairwise,
)


def mixed_data(seed=0, n=120, n_classes=3):
    """Random mixed data: 3 numeric and 3 categorical features (2, 3, 5 levels)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    numeric = rng.normal(size=(n, 3)) * [1.0, 5.0, 0.1] + y[:, None] * [1.0, 0.0, 0.05]
    categorical = np.column_stack([rng.integers(0, k, n) for k in (2, 3, 5)]).astype(object)
    categorical[:, 1] = np.array(["a", "b", "c"], dtype=object)[categorical[:, 1].astype(int)]
    X = np.column_stack([numeric.astype(object), categorical])
    mask = np.array([False] * 3 + [True] * 3)
    return X, y, mask


@pytest.mark.parametrize("scaling", ["hamming", "empirical"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_closed_form_equals_pairwise_sum(seed, scaling):
    X, y, mask = mixed_data(seed)
    values, scale = encode_mixed(X, mask, scaling)
    closed = within_class_sq_distances(values, scale, mask, y)
    brute = within_class_sq_distances_pairwise(values, scale, mask, y, chunk_size=7)
    np.testing.assert_allclose(closed, brute, rtol=1e-12)


def test_pairwise_sum_is_eq1_literally():
    """Independent check of the reference: explicit double loop over pairs."""
    X, y, mask = mixed_data(3, n=25)
    values, scale = encode_mixed(X, mask, "hamming")
    expected = np.zeros(X.shape[1])
    for a in range(len(y)):
        for b in range(len(y)):
            if y[a] == y[b]:
                for j in range(X.shape[1]):
                    d = (
                        scale[j] * (values[a, j] != values[b, j])
                        if mask[j]
                        else (values[a, j] - values[b, j])
                    )
                    expected[j] += d**2
    got = within_class_sq_distances_pairwise(values, scale, mask, y)
    np.testing.assert_allclose(got, expected / len(y) ** 2, rtol=1e-12)


def mean_sq_distance(values, scale, mask):
    """Mean squared per-feature distance over all M^2 ordered pairs."""
    one_class = np.zeros(len(values), dtype=int)
    return within_class_sq_distances(values, scale, mask, one_class)


def test_remark2_numeric_and_balanced_categorical_have_mean_sq_distance_2():
    rng = np.random.default_rng(0)
    numeric = rng.normal(3, 7, size=(60, 2))
    balanced = np.repeat(np.arange(4), 15)[:, None]  # k = 4 equally frequent levels
    X = np.column_stack([numeric, balanced]).astype(object)
    mask = np.array([False, False, True])
    values, scale = encode_mixed(X, mask, "hamming")
    np.testing.assert_allclose(scale[2], np.sqrt(2 * 4 / 3))
    np.testing.assert_allclose(mean_sq_distance(values, scale, mask), 2.0)


def test_empirical_scaling_gives_mean_sq_distance_2_for_unbalanced_levels():
    X, _, mask = mixed_data(4)
    X[:, 3] = np.where(np.arange(len(X)) < 100, "rare-not", "rare")  # unbalanced binary
    hamming = mean_sq_distance(*encode_mixed(X, mask, "hamming"), mask)
    empirical = mean_sq_distance(*encode_mixed(X, mask, "empirical"), mask)
    np.testing.assert_allclose(empirical, 2.0)
    # Remark 2's factor 2k/(k-1) = 4 assumes balanced levels: here 2*100*20 of 120^2 pairs differ
    np.testing.assert_allclose(hamming[3], 4 * 2 * 100 * 20 / 120**2)


def test_optimal_scaling_solves_problem_2():
    """Eq. (4) against a general-purpose constrained solver."""
    rng = np.random.default_rng(1)
    for _ in range(5):
        z = rng.uniform(0.1, 3.0, size=6)
        result = minimize(
            lambda u, z=z: np.sum(u**2 * z),
            x0=np.ones(6),
            jac=lambda u, z=z: 2 * u * z,
            constraints=[{"type": "eq", "fun": lambda u: u.mean() - 1}],
            bounds=[(0, None)] * 6,
            method="SLSQP",
            options={"ftol": 1e-14},
        )
        np.testing.assert_allclose(optimal_scaling(z), result.x, atol=1e-6)


def test_remark1_gaussian_importance_proportional_to_variance_inverse():
    """Remark 1: diagonal Gaussian data, the solution of (2) is proportional to 1/lambda."""
    rng = np.random.default_rng(2)
    lambdas = np.array([0.5, 1.0, 2.0, 4.0])
    X = rng.normal(size=(200_000, 4)) * np.sqrt(lambdas)
    mask = np.zeros(4, dtype=bool)
    z = within_class_sq_distances(X, np.ones(4), mask, np.zeros(len(X), dtype=int))
    u = optimal_scaling(z)
    np.testing.assert_allclose(u / u.sum(), (1 / lambdas) / np.sum(1 / lambdas), rtol=0.02)


def test_eq5_definition_is_inverse_of_weight():
    X, y, mask = mixed_data(5)
    weight = MetricalImportance(categorical_features=mask).fit(X, y)
    definition = MetricalImportance(categorical_features=mask, importance="definition").fit(X, y)
    np.testing.assert_allclose(definition.feature_importances_, 100 * weight.z_ / weight.z_.sum())
    inverse = 1 / weight.weights_
    np.testing.assert_allclose(definition.feature_importances_, 100 * inverse / inverse.sum())
    np.testing.assert_allclose(weight.feature_importances_.sum(), 100)
    np.testing.assert_array_equal(definition.discard_order_, weight.discard_order_[::-1])


def test_invariances():
    X, y, mask = mixed_data(6)
    base = MetricalImportance(categorical_features=mask).fit(X, y).feature_importances_
    rng = np.random.default_rng(0)
    rows = rng.permutation(len(y))
    permuted = MetricalImportance(categorical_features=mask).fit(X[rows], y[rows])
    np.testing.assert_allclose(permuted.feature_importances_, base)
    cols = np.array([5, 0, 3, 1, 4, 2])
    swapped = MetricalImportance(categorical_features=mask[cols]).fit(X[:, cols], y)
    np.testing.assert_allclose(swapped.feature_importances_, base[cols])
    affine = X.copy()
    affine[:, 0] = 3.0 * affine[:, 0].astype(float) - 10
    relabelled = np.array(["c", "a", "b"])[y]
    renamed = X.copy()
    renamed[:, 5] = np.array([f"level{v}" for v in X[:, 5]], dtype=object)
    for Xv, yv in ((affine, y), (X, relabelled), (renamed, y)):
        other = MetricalImportance(categorical_features=mask).fit(Xv, yv)
        np.testing.assert_allclose(other.feature_importances_, base)


def test_discriminative_feature_is_most_important():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    X = np.column_stack([y + 0.1 * rng.normal(size=300), rng.normal(size=(300, 3))])
    selector = MetricalImportance().fit(X, y)
    assert selector.discard_order_[-1] == 0


def test_selector_discards_least_important_features():
    X, y, mask = mixed_data(8)
    selector = MetricalImportance(categorical_features=mask, n_discard=2).fit(X, y)
    kept = selector.get_support(indices=True)
    assert set(kept) == set(selector.discard_order_[2:])
    np.testing.assert_array_equal(selector.transform(X), X[:, np.sort(kept)])


def test_dataframe_auto_categorical_and_names():
    X, y, mask = mixed_data(9)
    frame = pd.DataFrame(X, columns=list("abcdef"))
    for column in "abc":
        frame[column] = frame[column].astype(float)
    frame["d"] = frame["d"].astype("category")
    auto = MetricalImportance().fit(frame, y)
    np.testing.assert_array_equal(auto.categorical_, mask)
    named = MetricalImportance(categorical_features=["d", "e", "f"]).fit(frame, y)
    np.testing.assert_allclose(named.feature_importances_, auto.feature_importances_)
    assert list(auto.feature_names_in_) == list("abcdef")
    assert list(auto.set_params(n_discard=3).fit(frame, y).get_feature_names_out()) == [
        name for i, name in enumerate("abcdef") if i in auto.discard_order_[3:]
    ]


def test_zero_within_class_spread_takes_the_budget_but_keeps_the_order():
    """A feature constant within every class gets u = n; the others keep their z-order."""
    rng = np.random.default_rng(12)
    y = np.repeat([0, 1], 50)
    X = np.column_stack([y * 1.0, rng.normal(size=100) + 2 * y, rng.normal(size=100)])
    selector = MetricalImportance().fit(X, y)
    np.testing.assert_allclose(selector.weights_, [3, 0, 0])
    np.testing.assert_array_equal(selector.discard_order_, [2, 1, 0])


def test_n_discard_checked_again_at_transform():
    X, y, mask = mixed_data(13)
    selector = MetricalImportance(categorical_features=mask).fit(X, y)
    with pytest.raises(ValueError, match="n_discard"):
        selector.set_params(n_discard=6).transform(X)


def test_constant_feature_gets_zero_importance():
    X, y, mask = mixed_data(10)
    X[:, 0] = 1.5
    X[:, 4] = "same"
    selector = MetricalImportance(categorical_features=mask).fit(X, y)
    assert selector.feature_importances_[0] == 0 and selector.feature_importances_[4] == 0
    assert set(selector.discard_order_[:2]) == {0, 4}
    np.testing.assert_allclose(selector.feature_importances_.sum(), 100)


@pytest.mark.parametrize(
    ("params", "fit_args", "message"),
    [
        ({"n_discard": 6}, None, "n_discard"),
        ({"importance": "inverse"}, None, "importance"),
        ({"scaling": "uniform"}, None, "scaling"),
        ({"categorical_features": [7]}, None, "out of range"),
        ({"categorical_features": ["zz"]}, None, "not in X"),
        ({}, "one_class", "at least 2 classes"),
        ({}, "nan", "NaN"),
        ({}, "missing_category", "missing values"),
    ],
)
def test_clear_errors(params, fit_args, message):
    X, y, mask = mixed_data(11)
    params = {"categorical_features": mask} | params
    if fit_args == "one_class":
        y = np.zeros_like(y)
    elif fit_args == "nan":
        X[0, 1] = np.nan
    elif fit_args == "missing_category":
        X[0, 4] = None
    with pytest.raises(ValueError, match=message):
        MetricalImportance(**params).fit(X, y)


@parametrize_with_checks([MetricalImportance(), MetricalImportance(n_discard=1)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_a_constant_column_gets_nothing_and_the_scale_changes_nothing():
    """Rounding must not make a constant column (3.7 is not a power of two) look
    informative, and the importances do not depend on the features' scale."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20)
    X = rng.normal(size=(60, 4)) + y[:, None] * np.array([1.5, 0.7, 0.0, 0.0])
    clean = MetricalImportance().fit(X, y).feature_importances_
    for constant in (3.7, 0.0, -1e300):
        padded = MetricalImportance().fit(np.column_stack([X, np.full(60, constant)]), y)
        np.testing.assert_allclose(padded.feature_importances_, [*clean, 0.0], rtol=1e-12)
        assert padded.discard_order_[0] == 4
    for factor in (1e200, 1e-200, 3.0):
        scaled = MetricalImportance().fit(X * factor, y).feature_importances_
        np.testing.assert_allclose(scaled, clean, rtol=1e-10)
    with pytest.raises(ValueError, match="every feature of X is constant"):
        MetricalImportance().fit(np.full((60, 3), 3.7), y)


def _every_kind_of_column(seed=0, n=60):
    """A DataFrame with one column of each dtype a mixed data set holds."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {
            "float": rng.normal(size=n) + y,
            "int": rng.integers(0, 5, n),
            "bool": rng.integers(0, 2, n).astype(bool),
            "category": pd.Categorical(rng.choice(["a", "b", "c"], n)),
            "ordered": pd.Categorical(rng.choice(["lo", "hi"], n), ["lo", "hi"], ordered=True),
            "string": pd.array(rng.choice(["p", "q"], n), dtype="string"),
            "object": pd.Series(rng.choice([1, "z", 2.5], n), dtype=object),
        }
    )
    return frame, y


def test_dataframe_of_every_column_kind_equals_its_object_array():
    """Any mix of numeric, bool, category, string and object columns fits, and gives the
    importances of the same values as an object array with the mask declared."""
    frame, y = _every_kind_of_column()
    fitted = MetricalImportance(n_discard=2).fit(frame, y)
    numeric = np.array([kind in ("float", "int") for kind in frame.columns])
    np.testing.assert_array_equal(fitted.categorical_, ~numeric)
    as_array = frame.astype(object).to_numpy()
    reference = MetricalImportance(categorical_features=~numeric, n_discard=2).fit(as_array, y)
    np.testing.assert_allclose(fitted.feature_importances_, reference.feature_importances_)
    assert fitted.transform(frame).shape == (len(y), frame.shape[1] - 2)


@pytest.mark.parametrize("pair", [(a, b) for a in range(7) for b in range(a + 1, 7)])
def test_every_pair_of_column_kinds_fits_and_transforms(pair):
    frame, y = _every_kind_of_column(seed=1)
    columns = frame.columns[list(pair)]
    kept = MetricalImportance(n_discard=1).fit(frame[columns], y).transform(frame[columns])
    assert kept.shape == (len(y), 1)


def test_pandas_output_keeps_the_columns_dtypes():
    frame, y = _every_kind_of_column()
    selector = MetricalImportance(n_discard=3).set_output(transform="pandas").fit(frame, y)
    kept = selector.transform(frame)
    assert list(kept.columns) == list(selector.get_feature_names_out())
    pd.testing.assert_series_equal(kept.dtypes, frame.dtypes[kept.columns])
