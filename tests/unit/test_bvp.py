"""BestViewProjection: Algorithm 1, its spectral closed form, orientation and errors."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.linalg import subspace_angles
from scipy.stats import ortho_group
from sklearn.exceptions import ConvergenceWarning
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
        ({"n_components": 0}, None, "n_components"),
        ({"n_components": 1.5}, None, "n_components"),
        ({"solver": "newton"}, None, "solver"),
        ({}, "one", "at least 2 ranks"),
        ({}, "strings", "ordinal labels that define an order"),
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


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_iter": 0}, r"max_iter=0 must be an integer >= 1"),
        ({"max_iter": -3}, r"max_iter=-3 must be an integer >= 1"),
        ({"max_iter": 2.5}, r"max_iter=2.5 must be an integer >= 1"),
        ({"step_size": 0}, r"step_size=0 must be a finite number > 0"),
        ({"step_size": -0.1}, r"step_size=-0.1 must be a finite number > 0"),
        ({"step_size": np.nan}, r"step_size=nan must be a finite number > 0"),
        ({"tol": -1e-3}, r"tol=-0.001 must be a number >= 0"),
    ],
)
def test_descent_settings_that_cannot_run_or_stop_are_refused(params, message):
    """The estimator refuses them by its parameter constraints, the function by its checks."""
    X, y = ordinal_problem(12)
    (name,) = params
    for solver in ("spectral", "riemannian"):
        with pytest.raises(ValueError, match=rf"'{name}' parameter of BestViewProjection must"):
            BestViewProjection(solver=solver, random_state=0, **params).fit(X, y)
    with pytest.raises(ValueError, match=message):
        best_viewpoint(np.diff(ordinal_problem(12)[0][:3], axis=0), random_state=0, **params)


@pytest.mark.parametrize("max_iter", [1, 2, 5])
def test_a_descent_stopped_before_convergence_warns(max_iter):
    X, y = ordinal_problem(0)
    bvp = BestViewProjection(2, solver="riemannian", max_iter=max_iter, random_state=0)
    with pytest.warns(ConvergenceWarning, match="did not converge for 4 of the 4 viewpoints"):
        bvp.fit(X, y)
    converged = BestViewProjection(2).fit(X, y)
    assert bvp.objective_ < converged.objective_ - 1e-6  # an unconverged view
    A = np.random.default_rng(0).normal(size=(4, 7))
    with pytest.warns(ConvergenceWarning, match=f"best_viewpoint did not converge: {max_iter}"):
        best_viewpoint(A, random_state=0, max_iter=max_iter)


def test_a_converged_descent_does_not_warn():
    X, y = ordinal_problem(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        bvp = BestViewProjection(2, solver="riemannian", random_state=0).fit(X, y)
    assert bvp.objective_ == pytest.approx(BestViewProjection(2).fit(X, y).objective_)


@pytest.mark.parametrize("solver", ["spectral", "riemannian"])
def test_all_dimensions_kept_is_a_rotation_and_more_are_clipped(solver):
    X, y = ordinal_problem(13)
    full = BestViewProjection(6, solver=solver, random_state=0).fit(X, y)
    assert full.n_components_ == 6
    np.testing.assert_allclose(full.components_ @ full.components_.T, np.eye(6), atol=1e-12)
    Z = full.transform(X)
    np.testing.assert_allclose(  # distances preserved: nothing removed
        np.linalg.norm(Z[1:] - Z[0], axis=1), np.linalg.norm(X[1:] - X[0], axis=1), rtol=1e-10
    )
    with pytest.warns(UserWarning, match="n_components_ = 6"):
        clipped = BestViewProjection(9, solver=solver, random_state=0).fit(X, y)
    np.testing.assert_array_equal(clipped.components_, full.components_)
    assert len(clipped.get_feature_names_out()) == 6


def test_ordered_categorical_labels_give_the_order():
    X, y = ordinal_problem(14)
    names = np.array(["low", "mid", "high", "top", "max"])  # not alphabetical
    numeric = BestViewProjection(2).fit(X, y)
    labels = pd.Categorical(names[y - 1], categories=names, ordered=True)
    fitted = BestViewProjection(2).fit(X, labels)
    np.testing.assert_array_equal(fitted.classes_, names)
    np.testing.assert_array_equal(fitted.components_, numeric.components_)
    np.testing.assert_array_equal(fitted.centres_, numeric.centres_)
    # The declared order, not the values, is the order: reversing it reverses the classes.
    backwards = pd.Categorical(names[y - 1], categories=names[::-1], ordered=True)
    reversed_fit = BestViewProjection(2).fit(X, backwards)
    np.testing.assert_array_equal(reversed_fit.centres_, numeric.centres_[::-1])
    with pytest.raises(ValueError, match="unordered pandas.Categorical"):
        BestViewProjection(2).fit(X, pd.Categorical(names[y - 1]))


def test_degenerate_data_raise_clear_errors():
    X, y = ordinal_problem(15)
    with pytest.raises(ValueError, match="X has no variance"):  # was an all-zero embedding
        BestViewProjection(2).fit(np.full_like(X, 3.0), y)
    for factor in (1e200, 1e-200):
        with pytest.raises(ValueError, match="rescale X"):
            BestViewProjection(2).fit(X * factor, y)


@parametrize_with_checks(
    [BestViewProjection(n_components=1), BestViewProjection(1, solver="riemannian", random_state=0)]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
