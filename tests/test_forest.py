"""The lean random forest against scikit-learn's, bit for bit."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier

from dimred.utils.forest import forest_proba


def _data(n, p, n_classes, seed, levels=None):
    """Features (rounded to ``levels`` values: ties in every split) and labels that
    depend on the first feature."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n + 40, p))
    if levels:
        X = np.floor(X * levels / 4)
    score = X[:, 0] + rng.normal(size=n + 40)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X[:n], np.array(list("abcdefg"))[y[:n]], X[n:]


@pytest.mark.parametrize(
    "n, p, n_classes, levels, n_estimators",
    [(216, 13, 2, None, 100), (300, 16, 2, 3, 20), (150, 4, 3, 5, 30), (25, 1, 2, None, 7)],
)
@pytest.mark.parametrize("seed", [0, 7])
def test_probabilities_equal_scikit_learn(n, p, n_classes, levels, n_estimators, seed):
    X, y, X_test = _data(n, p, n_classes, seed, levels)
    forest = RandomForestClassifier(n_estimators, random_state=seed, n_jobs=1).fit(X, y)
    proba = forest_proba(X, y, X_test, seed, n_estimators)
    np.testing.assert_array_equal(proba, forest.predict_proba(X_test))
    assert proba.shape == (X_test.shape[0], n_classes)


def test_the_seed_matters():
    """The equality above is not that of a constant: seeds give other forests."""
    X, y, X_test = _data(216, 13, 2, 0)
    assert not np.array_equal(forest_proba(X, y, X_test, 0), forest_proba(X, y, X_test, 1))


def test_rejects_missing_values_mismatched_rows_no_trees_and_no_seed():
    X, y, X_test = _data(50, 3, 2, 0)
    X[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        forest_proba(X, y, X_test, 0)
    with pytest.raises(ValueError, match="features"):
        forest_proba(X_test, y[: len(X_test)], X_test[:, :2], 0)
    for trees in (0, 2.0):
        with pytest.raises(ValueError, match="n_estimators"):
            forest_proba(X_test, y[: len(X_test)], X_test, 0, trees)
    with pytest.raises(ValueError, match="random_state"):
        forest_proba(X_test, y[: len(X_test)], X_test, None)
