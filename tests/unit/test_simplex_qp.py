"""The exact simplex QP solver of ORML's dual (Eq. 7): KKT, SLSQP, closed forms, errors."""

from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import minimize

from dimred.ordinal.simplex_qp import kkt_residual, simplex_qp


def random_psd(rng, m, rank=None):
    """``G^T G`` with ``G`` of ``rank`` rows (``rank < m``: singular)."""
    G = rng.normal(size=(m if rank is None else rank, m))
    return G.T @ G


def slsqp(H, total):
    """Reference minimiser of ``a^T H a`` on the scaled simplex (generic NLP solver)."""
    m = H.shape[0]
    result = minimize(
        lambda a: a @ H @ a,
        np.full(m, total / m),
        jac=lambda a: 2 * H @ a,
        method="SLSQP",
        bounds=[(0, None)] * m,
        constraints=[{"type": "eq", "fun": lambda a: a.sum() - total, "jac": lambda a: np.ones(m)}],
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    # Status 8 ("positive directional derivative in line search") is SLSQP stalling
    # at the precision limit of ftol=1e-15; its point is still checked for feasibility.
    assert result.status in (0, 8), result.message
    assert result.x.min() > -1e-10 and abs(result.x.sum() - total) < 1e-10 * total
    return result.x


@pytest.mark.parametrize("m", range(1, 10))
@pytest.mark.parametrize("deficient", [False, True])
def test_kkt_and_slsqp_agreement_on_random_psd_problems(m, deficient):
    rng = np.random.default_rng(100 * m + deficient)
    for _ in range(5):
        rank = int(rng.integers(1, m)) if deficient and m > 1 else None
        H = random_psd(rng, m, rank)
        total = float(rng.uniform(0.1, 10))
        alpha = simplex_qp(H, total)
        assert alpha.shape == (m,)
        assert alpha.min() >= 0
        assert alpha.sum() == pytest.approx(total, rel=1e-12)
        assert kkt_residual(H, alpha, total) < 1e-8
        reference = slsqp(H, total)
        ours, theirs = alpha @ H @ alpha, reference @ H @ reference
        # Relative 1e-8, plus rounding at the scale of the problem where the minimum is 0.
        assert ours <= theirs + 1e-8 * abs(theirs) + 1e-14 * total**2 * np.abs(H).max()
        if rank is None:  # positive definite: the minimiser is unique
            np.testing.assert_allclose(alpha, reference, atol=1e-5 * total)


def test_zero_matrix_gives_a_feasible_point():
    for m in (1, 4):
        alpha = simplex_qp(np.zeros((m, m)), 3.0)
        assert alpha.min() >= 0 and alpha.sum() == pytest.approx(3.0)
        assert kkt_residual(np.zeros((m, m)), alpha, 3.0) == 0


def test_diagonal_closed_form():
    # min sum h_r a_r^2 on the simplex: a_r proportional to 1 / h_r (all positive).
    h = np.array([1.0, 2.0, 4.0, 0.5])
    alpha = simplex_qp(np.diag(h), 2.0)
    np.testing.assert_allclose(alpha, 2.0 * (1 / h) / (1 / h).sum(), rtol=1e-12)


def test_nearest_point_of_a_convex_hull_picks_the_right_support():
    # H = G^T G: the minimum is the squared distance from 0 to the hull of G's columns.
    # Hull of (1, 0), (0, 1), (2, 2): nearest point (1/2, 1/2), third vertex unused.
    G = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 2.0]])
    alpha = simplex_qp(G.T @ G)
    np.testing.assert_allclose(alpha, [0.5, 0.5, 0.0], atol=1e-12)
    # Moving (2, 2) to (-1, -1) puts the origin inside the hull: objective 0.
    G[:, 2] = -1
    alpha = simplex_qp(G.T @ G)
    assert np.linalg.norm(G @ alpha) < 1e-12
    np.testing.assert_allclose(alpha, [1 / 3, 1 / 3, 1 / 3], atol=1e-12)


def test_solution_scales_linearly_with_total():
    rng = np.random.default_rng(7)
    for rank in (None, 2):
        H = random_psd(rng, 6, rank)
        base = simplex_qp(H, 1.0)
        for total in (1e-3, 0.5, 7.0, 1e4):
            np.testing.assert_allclose(simplex_qp(H, total), total * base, rtol=1e-10, atol=0)


def test_invariant_to_positive_scaling_of_H():
    H = random_psd(np.random.default_rng(8), 5)
    np.testing.assert_allclose(simplex_qp(1e-9 * H), simplex_qp(H), rtol=1e-10)
    np.testing.assert_allclose(simplex_qp(1e9 * H), simplex_qp(H), rtol=1e-10)


def test_kkt_residual_flags_non_optimal_and_infeasible_points():
    H = np.diag([1.0, 2.0, 4.0])
    optimum = simplex_qp(H)
    assert kkt_residual(H, optimum) < 1e-12
    assert kkt_residual(H, np.full(3, 1 / 3)) > 0.1  # feasible, not stationary
    assert kkt_residual(H, optimum * 1.1) == pytest.approx(0.1)  # wrong sum
    assert kkt_residual(H, [1.2, -0.1, -0.1]) >= 0.1  # negative entries
    # A vertex is optimal only when the gradient is smallest on it.
    assert kkt_residual(np.diag([0.0, 1.0, 1.0]), [1.0, 0.0, 0.0]) == 0
    assert kkt_residual(np.diag([1.0, 0.0, 1.0]), [1.0, 0.0, 0.0]) > 0.5


@pytest.mark.parametrize(
    "H, total, match",
    [
        (np.ones((2, 3)), 1.0, "square"),
        (np.ones(3), 1.0, "square"),
        (np.zeros((0, 0)), 1.0, "square"),
        (np.eye(2), 0.0, "positive"),
        (np.eye(2), -1.0, "positive"),
        (np.eye(2), np.nan, "positive"),
    ],
)
def test_invalid_input_raises(H, total, match):
    with pytest.raises(ValueError, match=match):
        simplex_qp(H, total)


@pytest.mark.parametrize(
    "H",
    [
        -np.eye(3),  # negative definite: its KKT point (uniform alpha) is the maximiser
        np.array([[0.0, 1.0], [1.0, 0.0]]),  # indefinite: KKT point (1/2, 1/2) is a maximiser
        np.diag([1.0, -1e-3, 2.0]),
    ],
)
def test_indefinite_H_is_rejected(H):
    # Regression: without the explicit check the search returned the first KKT point
    # it met, e.g. (1/3, 1/3, 1/3) for -I, the maximiser, instead of raising.
    with pytest.raises(ValueError, match="positive semi-definite"):
        simplex_qp(H)


def test_rounding_level_indefiniteness_is_accepted():
    # A singular PSD matrix built in floating point has eigenvalues of order -1e-16.
    rng = np.random.default_rng(9)
    G = rng.normal(size=(2, 7))
    H = G.T @ G
    assert np.linalg.eigvalsh(H)[0] < 1e-12
    alpha = simplex_qp(H)
    assert kkt_residual(H, alpha) < 1e-8


def one_support_at_a_time(H, total=1.0, tol=1e-9):
    """The support search with one KKT system solved at a time (the earlier solver)."""
    m = H.shape[0]
    H = (H + H.T) / 2
    H = H / max(np.abs(H).max(), np.finfo(float).tiny)
    supports = [tuple(range(m))] + [s for size in range(1, m) for s in combinations(range(m), size)]
    for support in supports:
        size = len(support)
        system = np.zeros((size + 1, size + 1))
        system[:size, :size] = 2.0 * H[np.ix_(support, support)]
        system[:size, size] = -1.0
        system[size, :size] = 1.0
        rhs = np.zeros(size + 1)
        rhs[size] = 1.0
        if np.linalg.cond(system) > 1e12:
            continue
        solution = np.linalg.solve(system, rhs)
        alpha = np.zeros(m)
        alpha[list(support)] = solution[:size]
        if alpha.min() < -tol or (2.0 * H @ alpha - solution[size]).min() < -tol:
            continue
        alpha = np.clip(alpha, 0.0, None)
        return total * alpha / alpha.sum()
    raise AssertionError("no support")


@pytest.mark.parametrize("m", range(1, 10))
def test_supports_solved_together_change_no_bit(m):
    """Solving the KKT systems of one support size together gives the one-at-a-time
    search's solution bit for bit: full-rank, rank-deficient (singular systems skipped)
    and diagonal problems, with and without a scaled total."""
    rng = np.random.default_rng(m)
    problems = [random_psd(rng, m), random_psd(rng, m, rank=max(1, m // 2))]
    problems += [np.diag(rng.uniform(0.1, 5.0, m)), random_psd(rng, m) + 10.0]
    for H in problems:
        for total in (1.0, 2.5):
            expected = one_support_at_a_time(H, total)
            assert simplex_qp(H, total).tobytes() == expected.tobytes()
            assert simplex_qp(H, total, together=False).tobytes() == expected.tobytes()
