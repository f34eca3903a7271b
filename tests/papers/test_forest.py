"""The lean random forest, both engines, against scikit-learn's, bit for bit, and its
version guard: on another scikit-learn, the public forest with one warning."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.ensemble import RandomForestClassifier

from papers.metrical_importance import forest
from papers.metrical_importance.forest import ENGINES, MIRRORED, forest_proba


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
@pytest.mark.parametrize("engine", ENGINES)
def test_probabilities_equal_scikit_learn(n, p, n_classes, levels, n_estimators, seed, engine):
    X, y, X_test = _data(n, p, n_classes, seed, levels)
    forest = RandomForestClassifier(n_estimators, random_state=seed, n_jobs=1).fit(X, y)
    proba = forest_proba(X, y, X_test, seed, n_estimators, engine=engine)
    np.testing.assert_array_equal(proba, forest.predict_proba(X_test))
    assert proba.shape == (X_test.shape[0], n_classes)


def _hard_ties(n, seed):
    """Columns where the compiled engine's shortcuts could part from scikit-learn's
    sort: values one float32 step above ``v + 1e-7`` rounded in float32 (a tie there,
    not in float64), chains of steps below ``1e-7`` whose range exceeds it, a constant
    column, ``-0.0`` beside ``0.0``, and a continuous column with hundreds of values;
    five classes that depend on them."""
    rng = np.random.default_rng(seed)
    half = np.float32(0.5)
    edge = np.nextafter(np.nextafter(half, np.float32(1)), np.float32(1))
    columns = [
        rng.choice(np.array([half, edge, np.float32(0.75)]), n),
        rng.integers(0, 12, n) * np.float32(6e-8) + rng.integers(0, 2, n),
        np.full(n, 3.0),
        rng.choice(np.array([-0.0, 0.0, 1.0]), n),
        rng.normal(size=n),
    ]
    X = np.column_stack(columns)
    y = np.digitize(X[:, 4] + X[:, 1] + rng.normal(size=n), [-1.0, 0.0, 1.0, 2.0])
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_engine_on_hard_ties(seed):
    X, y = _hard_ties(400, seed)
    X_test, _ = _hard_ties(100, seed + 10)
    forest = RandomForestClassifier(50, random_state=seed, n_jobs=1).fit(X, y)
    proba = forest_proba(X, y, X_test, seed, 50, engine="compiled")
    assert proba.shape == (100, 5)
    np.testing.assert_array_equal(proba, forest.predict_proba(X_test))
    # the float32 edge is a tie: no tree splits 0.5 from the value two steps above it
    thresholds = np.concatenate(
        [tree.tree_.threshold[tree.tree_.feature == 0] for tree in forest.estimators_]
    )
    assert thresholds.size and (thresholds > 0.6).all()


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
    with pytest.raises(ValueError, match="engine"):
        forest_proba(X_test, y[: len(X_test)], X_test, 0, engine="numba")


def test_the_engines_mirror_the_installed_scikit_learn():
    """The pinned scikit-learn is the release the engines mirror (else every test above
    compares the public forest with itself)."""
    assert sklearn.__version__.split(".")[:2] == MIRRORED.split(".")
    assert forest._mirrors_installed()


@pytest.mark.parametrize("version", ["1.10.0", "1.8.2", "2.0.0rc1"])
def test_another_scikit_learn_falls_back_to_the_public_forest(monkeypatch, version):
    """With another scikit-learn faked, :func:`forest_proba` warns once per process,
    naming the installed version and the fallback, and returns the public
    ``RandomForestClassifier``'s probabilities, without calling either engine: the
    same values as the engines give on the mirrored release."""
    X, y, X_test = _data(150, 4, 3, 0, 5)
    expected = RandomForestClassifier(30, random_state=7, n_jobs=1).fit(X, y).predict_proba(X_test)
    mirrored = forest_proba(X, y, X_test, 7, 30)
    np.testing.assert_array_equal(mirrored, expected)

    def engine(*args):
        raise AssertionError("an engine ran on another scikit-learn")

    monkeypatch.setattr(sklearn, "__version__", version)
    monkeypatch.setattr(forest, "_fallback_warned", False)
    monkeypatch.setattr(forest, "_compiled_trees", engine)
    monkeypatch.setattr(forest, "_scikit_learn_trees", engine)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [forest_proba(X, y, X_test, 7, 30, engine=e) for e in (*ENGINES, *ENGINES)]
    fallback = [w for w in caught if issubclass(w.category, UserWarning)]
    assert len(fallback) == 1
    message = str(fallback[0].message)
    assert version in message and MIRRORED in message and "RandomForestClassifier" in message
    for proba in results:
        np.testing.assert_array_equal(proba, expected)


def test_the_module_imports_without_scikit_learns_private_tree_builder(monkeypatch):
    """Where scikit-learn's private modules are missing (another release), the module
    still imports and :func:`forest_proba` gives the public forest's probabilities."""
    import importlib.util
    import sys

    for name in ("sklearn.tree._criterion", "sklearn.tree._splitter", "sklearn.tree._tree"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    spec = importlib.util.spec_from_file_location(
        "papers.metrical_importance._forest_without_private", forest.__file__
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.Tree is None
    X, y, X_test = _data(60, 3, 2, 1)
    with pytest.warns(UserWarning, match="public RandomForestClassifier"):
        proba = module.forest_proba(X, y, X_test, 3, 10)
    expected = RandomForestClassifier(10, random_state=3, n_jobs=1).fit(X, y).predict_proba(X_test)
    np.testing.assert_array_equal(proba, expected)
