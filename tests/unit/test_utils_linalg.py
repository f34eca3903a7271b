"""Eigenproblem helpers: row space, the reduced Rayleigh quotient and stable signs."""

import numpy as np
import pytest
from scipy.linalg import eigh, orth
from scipy.stats import ortho_group

from dimred.utils.linalg import (
    generalized_eigh,
    principal_axes,
    rayleigh_in_row_space,
    ridged,
    row_space,
    stable_signs,
)


def quadratic(G, H):
    """``matrices`` of the quotient ``w^T Z^T G Z w / w^T Z^T H Z w``."""
    return lambda Z: (Z.T @ G @ Z, Z.T @ H @ Z)


def problem(seed, n, m, rank):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, rank)) @ rng.normal(size=(rank, m))
    G = rng.normal(size=(n, n))
    H = rng.normal(size=(n, 2 * n))
    return Z, G @ G.T, H @ H.T


def test_row_space_is_an_orthonormal_basis_of_the_rows():
    Z, _, _ = problem(0, 8, 12, 5)
    basis = row_space(Z)
    assert basis.shape == (12, 5)
    np.testing.assert_allclose(basis.T @ basis, np.eye(5), atol=1e-12)
    reference = orth(Z.T)  # independent: scipy's range of Z^T
    np.testing.assert_allclose(basis @ basis.T, reference @ reference.T, atol=1e-12)
    assert row_space(np.zeros((3, 4))).shape == (4, 0)


def test_rayleigh_on_full_rank_data_is_the_plain_generalized_eigenproblem():
    Z, G, H = problem(1, 30, 6, 6)
    ridge = 1e-3
    values, W = rayleigh_in_row_space(Z, quadratic(G, H), 2, ridge)
    A, B = Z.T @ G @ Z, Z.T @ H @ Z
    B = B + ridge * np.trace(B) / 6 * np.eye(6)
    np.testing.assert_allclose(values, eigh(A, B, eigvals_only=True)[::-1][:2], rtol=1e-9)
    np.testing.assert_allclose(A @ W, B @ W * values, atol=1e-9 * np.abs(A).max())


def test_rayleigh_on_rank_deficient_data_stays_in_the_row_space():
    # n < m: B is singular; directions orthogonal to the rows would score 0 / 0.
    Z, G, H = problem(2, 7, 15, 6)
    with pytest.raises(np.linalg.LinAlgError):
        eigh(Z.T @ G @ Z, Z.T @ H @ Z)
    values, W = rayleigh_in_row_space(Z, quadratic(G, H), 2)
    Q = orth(Z.T)  # an independent basis of the row space (rank 6)
    assert Q.shape[1] == 6
    np.testing.assert_allclose(W - Q @ (Q.T @ W), 0, atol=1e-12 * np.abs(W).max())
    A, B = Q.T @ Z.T @ G @ Z @ Q, Q.T @ Z.T @ H @ Z @ Q
    np.testing.assert_allclose(values, eigh(A, B, eigvals_only=True)[::-1][:2], rtol=1e-9)
    assert np.linalg.norm(Z @ W[:, 0]) > 1e-3 * np.linalg.norm(Z) * np.linalg.norm(W[:, 0])
    # The ridge is relative to the rank r = 6, not to the 15 columns.
    ridged_values, _ = rayleigh_in_row_space(Z, quadratic(G, H), 1, ridge=0.1)
    top = eigh(A, B + 0.1 * np.trace(B) / 6 * np.eye(6), eigvals_only=True)[-1]
    assert ridged_values[0] == pytest.approx(top, rel=1e-9)
    with pytest.raises(ValueError, match="exceeds the rank 6"):
        rayleigh_in_row_space(Z, quadratic(G, H), 7)


def test_rayleigh_does_not_depend_on_the_basis_or_the_input_orientation():
    Z, G, H = problem(3, 9, 14, 7)
    values, W = rayleigh_in_row_space(Z, quadratic(G, H), 3, ridge=1e-3)
    rotated = row_space(Z) @ ortho_group.rvs(7, random_state=0)  # another orthonormal basis
    other_values, other_W = rayleigh_in_row_space(Z, quadratic(G, H), 3, ridge=1e-3, basis=rotated)
    np.testing.assert_allclose(other_values, values, rtol=1e-10)
    np.testing.assert_allclose(other_W, W, atol=1e-10 * np.abs(W).max())  # signed
    assert np.all(W[np.argmax(np.abs(W), axis=0), range(3)] > 0)


def test_stable_signs_ignores_rounding_among_tied_magnitudes():
    v = np.array([[0.5], [-0.5 * (1 + 1e-14)], [0.1]])
    np.testing.assert_array_equal(stable_signs(v), v)  # the first of the tied entries is +
    np.testing.assert_array_equal(stable_signs(-v), v)
    w = np.array([[-0.5], [0.5 * (1 + 1e-14)], [0.1]])
    np.testing.assert_array_equal(stable_signs(w), -w)
    clear = np.array([[0.3], [-0.9], [0.2]])
    np.testing.assert_array_equal(stable_signs(clear), -clear)
    np.testing.assert_array_equal(stable_signs(np.zeros((3, 1))), np.zeros((3, 1)))


def test_ridged_adds_the_mean_eigenvalue_times_ridge():
    B = np.diag([1.0, 2.0, 6.0])
    np.testing.assert_array_equal(ridged(B, 0.0), B)
    np.testing.assert_allclose(ridged(B, 0.5), B + 0.5 * 3.0 * np.eye(3))


def test_a_repeated_eigenvalue_is_resolved_by_the_tie_break():
    # lambda = 1 twice (any direction in span(e1, e2) is optimal): C decides, e2 then e1.
    A, B, C = np.diag([1.0, 1.0, 0.5]), np.eye(3), np.diag([0.2, 3.0, 1.0])
    values, vectors = generalized_eigh(A, B, 2, tie_break=C)
    np.testing.assert_allclose(values, [1.0, 1.0])
    np.testing.assert_allclose(vectors, np.eye(3)[:, [1, 0]], atol=1e-12)
    # Rounding noise that splits the repeated eigenvalue by 1e-14 changes nothing.
    noise = np.diag([1e-14, -1e-14, 0.0])
    np.testing.assert_allclose(
        generalized_eigh(A + noise, B, 2, tie_break=C)[1], vectors, atol=1e-9
    )
    # B-orthonormal: with B = diag(4, 1, 1) the chosen vectors scale by 1/2 along e1.
    B = np.diag([4.0, 1.0, 1.0])
    _, scaled = generalized_eigh(np.diag([4.0, 1.0, 0.5]), B, 2, tie_break=np.diag([4, 1, 0.0]))
    np.testing.assert_allclose(scaled.T @ B @ scaled, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(np.abs(scaled), np.diag([0.5, 1.0, 1.0])[:, :2], atol=1e-12)


def test_rayleigh_breaks_ties_by_the_variance_of_the_data():
    # Every direction has the same quotient and the same B-normalised variance (B = Z^T Z):
    # the directions of largest variance per unit length come first.
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(200, 3)) * [1.0, 4.0, 2.0]
    Z -= Z.mean(axis=0)

    def matrices(Zr):
        gram = Zr.T @ Zr
        return gram, gram

    values, directions = rayleigh_in_row_space(Z, matrices, 2)
    np.testing.assert_allclose(values, [1.0, 1.0])
    variance = np.sum((Z @ directions) ** 2, axis=0) / np.sum(directions**2, axis=0)
    np.testing.assert_allclose(variance, np.linalg.eigvalsh(Z.T @ Z)[::-1][:2], rtol=1e-8)


def test_ridged_problem_solved_in_the_eigenbasis_of_b_is_lapacks():
    rng = np.random.default_rng(3)
    G, H = rng.normal(size=(6, 6)), rng.normal(size=(6, 9))
    A, B = G @ G.T, H @ H.T
    values, vectors = generalized_eigh(A, B, 3, ridge=1e-3)
    expected, expected_vectors = eigh(A, ridged(B, 1e-3))
    np.testing.assert_allclose(values, expected[::-1][:3], rtol=1e-10)
    np.testing.assert_allclose(vectors, stable_signs(expected_vectors[:, ::-1][:, :3]), atol=1e-10)


def test_ridged_null_directions_do_not_follow_rounding_noise():
    """B singular: the leading quotients ``w^T A w / ridge`` are huge. Noise of 1e-17 in
    B's null eigenvalues (one BLAS kernel against another) moves LAPACK's Cholesky-based
    answer in the 7th digit; solved in B's eigenbasis it stays to about 1e-12."""
    rng = np.random.default_rng(4)
    H = rng.normal(size=(8, 5))
    B = H @ H.T  # rank 5 of 8: a null space of dimension 3
    G = rng.normal(size=(8, 8))
    A = G @ G.T
    values, vectors = generalized_eigh(A, B, 2, ridge=1e-8)
    assert values[1] > 1e6  # both leading directions lie in B's null space
    basis = orth(rng.normal(size=(8, 8)))
    noisy = B + 1e-17 * np.abs(B).max() * (basis @ np.diag(rng.normal(size=8)) @ basis.T)
    _, moved = generalized_eigh(A, noisy, 2, ridge=1e-8)
    np.testing.assert_allclose(moved, vectors, rtol=1e-10, atol=1e-10 * np.abs(vectors).max())


def test_a_repeated_eigenvalue_tied_by_every_criterion_follows_the_input_axes():
    # lambda = 2 on span(q1, q2), B = C = I: neither criterion separates them; the basis
    # follows e1 (its projection first), then e2.
    q = ortho_group.rvs(4, random_state=5)
    A = q @ np.diag([2.0, 2.0, 1.0, 0.5]) @ q.T
    _, vectors = generalized_eigh(A, np.eye(4), 2, tie_break=np.eye(4))
    projector = q[:, :2] @ q[:, :2].T
    first = projector[:, 0] / np.linalg.norm(projector[:, 0])
    np.testing.assert_allclose(np.abs(vectors[:, 0]), np.abs(first), atol=1e-10)
    assert abs(vectors[0, 1]) < 1e-10  # the second is orthogonal to e1
    np.testing.assert_allclose(vectors.T @ vectors, np.eye(2), atol=1e-12)


def test_principal_axes_are_pca_and_a_seed_only_turns_a_repeated_variance():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(200, 4)) * [3.0, 2.0, 1.0, 0.5]
    variances, axes = principal_axes(X, 2)
    np.testing.assert_allclose(variances, np.linalg.eigvalsh(np.cov(X.T))[::-1][:2])
    np.testing.assert_array_equal(principal_axes(X, 2, random_state=0)[1], axes)
    tied = np.vstack([np.eye(3), -np.eye(3)])  # covariance a multiple of I
    _, axes_seeded = principal_axes(tied, 3, random_state=0)
    _, axes_other = principal_axes(tied, 3, random_state=1)
    np.testing.assert_allclose(axes_seeded.T @ axes_seeded, np.eye(3), atol=1e-12)
    assert not np.allclose(np.abs(axes_seeded), np.abs(axes_other))
