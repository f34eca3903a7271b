"""BestViewProjection: Algorithm 1, its spectral closed form, orientation and errors."""

import numpy as np
import pytest
from scipy.linalg import subspace_angles
from scipy.stats import ortho_group
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred import BestViewProjection
from dimred.projection.bvp import best_viewpoint


def ordinal_problem(seed, n_features=6, n_classes=5, per_class=30):
    rng = np.random.default_rng(seed)
    centres = np.cumsum(rng.normal(size=(n_classes, n_features)), axis=0)
    y = np.repeat(np.arange(1, n_classes + 1), per_class)
    X = centres[y - 1] + rng.normal(scale=0.5, size=(y.size, n_features))
    return X, y


@pytest.mark.parametrize("seed", range(5))
def test_algorithm1_converges_to_smallest_eigenvector(seed):
    A = np.random.default_rng(seed).normal(size=(4, 7))
    v, n_iter = best_viewpoint(A, random_state=seed, max_iter=10_000, tol=1e-10)
    eigenvalues, eigenvectors = np.linalg.eigh(A.T @ A)
    assert v @ A.T @ A @ v == pytest.approx(eigenvalues[0], abs=1e-8)
    assert n_iter < 10_000


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n_components", [1, 2, 3])
def test_solvers_agree_on_the_subspace(seed, n_components):
    X, y = ordinal_problem(seed)
    spectral = BestViewProjection(n_components, solver="spectral").fit(X, y)
    riemannian = BestViewProjection(
        n_components, solver="riemannian", max_iter=10_000, tol=1e-12, random_state=seed
    ).fit(X, y)
    angles = subspace_angles(spectral.components_.T, riemannian.components_.T)
    assert np.max(angles) < 1e-4
    assert riemannian.objective_ == pytest.approx(spectral.objective_, rel=1e-8)


def test_spectral_objective_is_the_maximum_of_eq1():
    X, y = ordinal_problem(7)
    fitted = BestViewProjection(2).fit(X, y)
    A = np.diff(fitted.centres_, axis=0)
    singular = np.linalg.svd(A, compute_uv=False)
    assert fitted.objective_ == pytest.approx(np.sum(singular[:2] ** 2))
    rng = np.random.default_rng(0)
    for _ in range(200):
        q, _ = np.linalg.qr(rng.normal(size=(X.shape[1], 2)))
        assert np.sum((A @ q) ** 2) <= fitted.objective_ + 1e-9


def test_projection_is_orthonormal_and_centred_on_mean_of_centres():
    X, y = ordinal_problem(8)
    fitted = BestViewProjection(3).fit(X, y)
    np.testing.assert_allclose(fitted.components_ @ fitted.components_.T, np.eye(3), atol=1e-12)
    centres_2d = fitted.transform(fitted.centres_)
    np.testing.assert_allclose(centres_2d.mean(axis=0), 0, atol=1e-12)


def test_canonical_orientation_is_invariant_to_rotations_and_reflections():
    X, y = ordinal_problem(9)
    base = BestViewProjection(2).fit_transform(X, y)
    R = ortho_group.rvs(X.shape[1], random_state=1)
    R[:, 0] *= -1
    rotated = BestViewProjection(2).fit_transform(X @ R + 3.0, y)
    np.testing.assert_allclose(rotated, base, atol=1e-9)
    centres = BestViewProjection(2).fit(X, y).transform(BestViewProjection(2).fit(X, y).centres_)
    assert centres[0, 0] < centres[-1, 0]  # class 1 on the left


def test_riemannian_result_is_seeded():
    X, y = ordinal_problem(10)
    a = BestViewProjection(2, solver="riemannian", random_state=3).fit_transform(X, y)
    b = BestViewProjection(2, solver="riemannian", random_state=3).fit_transform(X, y)
    np.testing.assert_array_equal(a, b)


def test_rank_deficient_differences_are_completed_inside_null_space():
    """K = 2 classes: F vanishes on a whole subspace; the spectral solver is deterministic."""
    X, y = ordinal_problem(11, n_classes=2)
    fitted = BestViewProjection(2).fit(X, y)
    A = np.diff(fitted.centres_, axis=0)
    direction = A[0] / np.linalg.norm(A[0])
    assert abs(fitted.components_[0] @ direction) == pytest.approx(1.0)
    np.testing.assert_allclose(fitted.components_[1] @ direction, 0, atol=1e-12)


@pytest.mark.parametrize(
    ("params", "labels", "message"),
    [
        ({"n_components": 6}, None, "n_components"),
        ({"solver": "newton"}, None, "solver"),
        ({}, "one", "at least 2 classes"),
        ({}, "strings", "ordinal labels"),
        ({}, "nan", "NaN"),
    ],
)
def test_clear_errors(params, labels, message):
    X, y = ordinal_problem(12)
    if labels == "one":
        y = np.ones_like(y)
    elif labels == "strings":
        y = np.array(["low", "mid", "high", "top", "max"])[y - 1]
    elif labels == "nan":
        X[0, 0] = np.nan
    with pytest.raises(ValueError, match=message):
        BestViewProjection(**params).fit(X, y)


@parametrize_with_checks(
    [BestViewProjection(n_components=1), BestViewProjection(1, solver="riemannian", random_state=0)]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
