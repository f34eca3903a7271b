"""Every graph estimator gives the same model under any permutation of its training rows,
on data with duplicate rows and ties at the k-th distance (binary genre-like rows, the
MovieLens users of the ORML paper)."""

import numpy as np
import pytest
from sklearn.utils import Bunch

from dimred import (
    ORML,
    LocalitySensitiveDiscriminantAnalysis,
    MultilinearORML,
    MultilinearRankProjection,
    RankProjection,
)
from papers.orml.movielens import movielens_split, movielens_users

GRAPH_METHODS = ("lpp", "npe", "isoprojection")


def rankers(image_shape=None):
    """Every ordinal estimator whose model rests on a k-NN graph (LDA for contrast)."""
    vector = [ORML(n_neighbors=5)] + [
        RankProjection(method, n_neighbors=5) for method in ("lda", *GRAPH_METHODS)
    ]
    if image_shape is None:
        return vector
    tensor = [MultilinearORML(image_shape, n_neighbors=5, random_state=0)] + [
        MultilinearRankProjection(method, image_shape, n_neighbors=5, random_state=0)
        for method in ("lda", *GRAPH_METHODS)
    ]
    return vector + tensor


def duplicate_heavy_ranks(seed, n=90, m=8):
    """Binary rows from 30 patterns (most have duplicates), ranks that follow them."""
    rng = np.random.default_rng(seed)
    patterns = (rng.random((30, m)) < 0.35).astype(float)
    X = patterns[rng.integers(0, 30, size=n)]
    score = X @ rng.normal(size=m) + rng.normal(scale=0.5, size=n)
    y = np.digitize(score, np.quantile(score, [0.25, 0.5, 0.75])) + 1
    return X, y


def assert_same_model(estimator, X, y, perm, queries):
    fitted = estimator.fit(X, y)
    coef, predicted = fitted.coef_.copy(), fitted.predict(queries)
    moved = estimator.fit(X[perm], y[perm])
    np.testing.assert_allclose(moved.coef_, coef, rtol=1e-7, atol=1e-9 * np.abs(coef).max())
    np.testing.assert_array_equal(moved.predict(queries), predicted)


@pytest.mark.parametrize("estimator", rankers((2, 4)), ids=repr)
def test_rankers_ignore_the_order_of_duplicate_heavy_rows(estimator):
    X, y = duplicate_heavy_ranks(0)
    assert (np.unique(X, axis=0, return_counts=True)[1] > 1).mean() > 0.8
    rng = np.random.default_rng(1)
    for _ in range(2):
        assert_same_model(estimator, X, y, rng.permutation(len(y)), X)
    assert_same_model(estimator, X, y, np.arange(len(y))[::-1], X)


def test_lsda_ignores_the_order_of_duplicate_heavy_rows():
    X, y = duplicate_heavy_ranks(2)
    lsda = LocalitySensitiveDiscriminantAnalysis(n_components=2, n_neighbors=5)
    Z = lsda.fit(X, y).transform(X)
    for perm in (np.random.default_rng(3).permutation(len(y)), np.arange(len(y))[::-1]):
        moved = lsda.fit(X[perm], y[perm]).transform(X)
        np.testing.assert_allclose(moved, Z, atol=1e-9 * np.abs(Z).max())


@pytest.fixture(scope="module")
def movielens(mirrored_data):
    from dimred.datasets import load_movielens

    return load_movielens()


@pytest.mark.parametrize("estimator", rankers(), ids=repr)
def test_rankers_ignore_the_order_of_movielens_rows(estimator, movielens):
    """The ORML paper's Table 1 data: 19 genre flags, dozens of duplicates per user."""
    for user in movielens_users(movielens.ratings, n_users=3, seed=0):
        X_train, y_train, X_test, _ = movielens_split(movielens, user, seed=0)
        assert len(np.unique(X_train, axis=0)) < len(X_train) * 0.8  # duplicate-heavy
        assert_same_model(estimator, X_train, y_train, np.arange(len(y_train))[::-1], X_test)


def test_movielens_split_ignores_the_order_of_the_ratings_file(movielens):
    user = movielens_users(movielens.ratings, n_users=1, seed=0)[0]
    shuffled = Bunch(**{**movielens, "ratings": movielens.ratings.sample(frac=1.0, random_state=5)})
    for left, right in zip(
        movielens_split(movielens, user), movielens_split(shuffled, user), strict=True
    ):
        np.testing.assert_array_equal(left, right)


@pytest.mark.parametrize("name", ["contact-lenses", "car"])
def test_lsda_on_tied_real_data_ignores_row_order_and_rounding(name, mirrored_data):
    """All points tie at some k-th distance; car's second eigenvalue is repeated nine
    times (figures/bvp/lsda_vs_cai.csv): the subspace must not move."""
    from scipy.linalg import subspace_angles

    from papers.bvp.data import load_real

    X, y = load_real(name)
    lsda = LocalitySensitiveDiscriminantAnalysis(n_components=2, n_neighbors=5, alpha=0.1)
    reference = lsda.fit(X, y).components_.T
    rng = np.random.default_rng(0)
    for _ in range(3):
        perm = rng.permutation(len(y))
        noisy = X[perm] + rng.normal(scale=1e-13, size=X.shape)
        moved = lsda.fit(noisy, y[perm]).components_.T
        assert np.degrees(subspace_angles(reference, moved)).max() < 1e-6
