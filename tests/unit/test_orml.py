"""ORML, ORML/M and the rank-projection baselines (Liu, Liu & Chan, AAAI 2011).

Every quantity is recomputed here independently of the library where possible:
graphs from all pairwise distances, ``S = X^T L X`` from a dense Laplacian,
the primal (4) and dual (7) problems by scipy's SLSQP, LDA/NPE/Isomap parts
by scikit-learn, thresholds (Eq. 9) and the decision rule (Eq. 8) by loops.
"""

from functools import partial

import numpy as np
import pandas as pd
import pytest
from scipy.linalg import eigh, orth
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.manifold import Isomap
from sklearn.manifold._locally_linear import barycenter_kneighbors_graph
from sklearn.utils.estimator_checks import parametrize_with_checks
from test_simplex_qp import slsqp

from dimred.ordinal.criteria import barycenter_weights, geodesic_gram
from dimred.ordinal.orml import ORML, MultilinearORML, MultilinearRankProjection, RankProjection
from dimred.ordinal.thresholds import rank_thresholds, threshold_predict
from dimred.utils.graphs import (
    dense_ordinal_graph,
    heat_kernel_graph,
    knn_distances,
    knn_neighbourhoods,
)
from dimred.utils.labels import check_ranks

METHODS = ["lda", "lpp", "npe", "isoprojection"]


# --------------------------------------------------------------------------- data


def ordinal_data(seed, n_per_rank=25, n_features=4, n_ranks=4, noise=0.4, labels=None):
    """Ranks along a random direction plus a bend and isotropic noise, rows shuffled."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, n_ranks + 1) if labels is None else labels, n_per_rank)
    codes = np.unique(y, return_inverse=True)[1]
    latent = codes + rng.uniform(-0.5, 0.5, size=y.size)
    direction = rng.normal(size=n_features)
    X = latent[:, None] * direction / np.linalg.norm(direction)
    X[:, 0] += np.sin(latent)
    X += noise * rng.normal(size=X.shape)
    order = rng.permutation(y.size)
    return X[order], y[order]


def image_data(seed, n_per_rank=20, shape=(6, 5), n_ranks=4, noise=0.3):
    """Images ``rank * u v^T + noise``, flattened row-major."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, n_ranks + 1), n_per_rank)
    u, v = rng.normal(size=shape[0]), rng.normal(size=shape[1])
    images = y[:, None, None] * np.outer(u, v) + noise * rng.normal(size=(y.size,) + shape)
    return images.reshape(y.size, -1), y


def wide_data(seed, n_per_rank=5, n_features=50, n_ranks=4):
    """Fewer samples than features (20 x 50): the centred data span 19 dimensions."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, n_ranks + 1), n_per_rank)
    X = rng.normal(size=(y.size, n_features)) + 0.3 * y[:, None] * rng.normal(size=n_features)
    return X, y


def genre_data(seed, n_samples=100, n_features=19):
    """MovieLens-like: binary genre rows (n > d) with three all-zero columns, ratings 1-5
    loosely tied to two genres. Distances tie massively."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n_samples, n_features)) < 0.2).astype(float)
    X[:, [0, 5, 11]] = 0.0
    score = X[:, 1] - X[:, 2] + rng.normal(scale=0.7, size=n_samples)
    y = np.searchsorted(np.quantile(score, [0.2, 0.4, 0.6, 0.8]), score) + 1
    return X, y


# ------------------------------------------------------------- independent references


def enlarged_distances(X, codes):
    """All pairwise distances of Eq. (3): ``(|c_i - c_j| + 1) ||x_i - x_j||``."""
    n = X.shape[0]
    full = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            full[i, j] = (abs(codes[i] - codes[j]) + 1) * np.linalg.norm(X[i] - X[j])
    return full


def brute_force_knn(full, k):
    """The ``k`` smallest entries of each row, self excluded (stable: ties by index)."""
    full = full.copy()
    np.fill_diagonal(full, np.inf)
    order = np.argsort(full, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(full, order, 1), order


def dense_laplacian(graph):
    A = graph.toarray() if hasattr(graph, "toarray") else graph
    np.testing.assert_array_equal(A, A.T)
    return np.diag(A.sum(axis=1)) - A


def orml_problem(est, X, y):
    """``S = Xc^T L Xc`` from the fitted graph and ``D`` (rows ``m_{r+1} - m_r``)."""
    Xc = X - X.mean(axis=0)
    S = Xc.T @ dense_laplacian(est.graph_) @ Xc
    means = np.array([Xc[y == c].mean(axis=0) for c in np.unique(y)])
    return S, np.diff(means, axis=0)


def primal_objective(S, D, C, w):
    """``J(w, gamma)`` of Eq. (4) at the best ``gamma = min_r w^T (m_{r+1} - m_r)``."""
    return w @ S @ w - C * (D @ w).min()


def hand_thresholds(z, y):
    """Eq. (9) from the projected rank means and sizes, one rank pair at a time."""
    classes = np.unique(y)
    b = []
    for lower, upper in zip(classes[:-1], classes[1:], strict=True):
        n_r, n_s = (y == lower).sum(), (y == upper).sum()
        m_r, m_s = z[y == lower].mean(), z[y == upper].mean()
        b.append((n_s * m_s + n_r * m_r) / (n_s + n_r))
    return np.array(b + [z.max()])


def hand_predict(z, thresholds, classes):
    """Eq. (8): the first rank ``r`` with ``z - b_r < 0``; beyond ``b_k`` the top rank."""
    out = []
    for value in z:
        for r, b in enumerate(thresholds):
            if value - b < 0:
                out.append(classes[r])
                break
        else:
            out.append(classes[-1])
    return np.array(out)


def cosine(a, b, signed=True):
    c = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    return c if signed else abs(c)


# ------------------------------------------------------------------------- graphs


@pytest.mark.parametrize("k", [1, 3, 7])
def test_knn_distances_match_brute_force(k):
    rng = np.random.default_rng(k)
    X = rng.normal(size=(45, 3))
    codes = rng.integers(0, 4, size=45)  # ranks overlap: enlargement changes the neighbours
    full = enlarged_distances(X, codes)
    distances, indices = knn_distances(X, k, codes)
    expected_d, expected_i = brute_force_knn(full, k)
    np.testing.assert_allclose(distances, expected_d, rtol=1e-12)
    np.testing.assert_array_equal(indices, expected_i)
    # Without codes: plain Euclidean neighbours.
    distances, indices = knn_distances(X, k)
    expected_d, expected_i = brute_force_knn(enlarged_distances(X, np.zeros(45, int)), k)
    np.testing.assert_allclose(distances, expected_d, rtol=1e-12)
    np.testing.assert_array_equal(indices, expected_i)
    # The enlargement changed some neighbourhoods (so the test above is not vacuous).
    assert not np.array_equal(np.sort(knn_distances(X, k, codes)[1]), np.sort(indices))


def check_against_brute_force(X, codes, k):
    """Distances equal the brute force; neighbour sets too wherever they are unique."""
    full = enlarged_distances(X, codes)
    n = len(X)
    distances, indices = knn_distances(X, k, codes)
    expected_d, expected_i = brute_force_knn(full, k)
    # scikit-learn's brute-force Euclidean distances expand ||x||^2 - 2 x.y + ||y||^2:
    # coincident points can come out at ~1e-8 rather than 0.
    np.testing.assert_allclose(distances, expected_d, rtol=1e-12, atol=1e-6)
    assert not (indices == np.arange(n)[:, None]).any()  # never the point itself
    assert all(len(set(row)) == k for row in indices)  # no repeats
    np.testing.assert_allclose(np.take_along_axis(full, indices, 1), distances, atol=1e-6)
    # Where the k-th and (k+1)-th distances tie the k-NN set is ambiguous; elsewhere not.
    unique = brute_force_knn(full, k + 1)[0][:, -1] > expected_d[:, -1] + 1e-5
    np.testing.assert_array_equal(np.sort(indices[unique], 1), np.sort(expected_i[unique], 1))
    return unique


def test_knn_distances_with_duplicate_points():
    rng = np.random.default_rng(11)
    # Exact duplicates (eight pairs, one point in four copies) among continuous data.
    base = rng.normal(size=(20, 2))
    X = np.vstack([base, base[:8], base[[0, 0]]])
    codes = rng.integers(0, 3, size=X.shape[0])
    assert check_against_brute_force(X, codes, 3).mean() > 0.5
    # Heavy ties: integer points, a quarter of them repeated.
    X = rng.integers(0, 4, size=(40, 3)).astype(float)
    X[30:] = X[:10]
    codes = rng.integers(0, 3, size=40)
    for k in (1, 4, 9):
        unique = check_against_brute_force(X, codes, k)
        assert 0 < unique.sum() < 40  # both kinds of rows occur


@pytest.mark.parametrize("k", [2, 5])
def test_heat_kernel_graph_matches_dense_construction(k):
    rng = np.random.default_rng(20 + k)
    X = rng.normal(size=(50, 3))
    codes = rng.integers(0, 3, size=50)
    hoods = knn_neighbourhoods(X, k, codes)
    graph_and, sigma = heat_kernel_graph(hoods, "and")
    graph_or, sigma_or = heat_kernel_graph(hoods, "or")
    A_and, A_or = graph_and.toarray(), graph_or.toarray()

    full = enlarged_distances(X, codes)
    kth, neighbours = brute_force_knn(full, k)
    # sigma: mean squared distance to the k-th (enlarged) neighbour, as after Eq. (2).
    assert sigma == pytest.approx(np.mean(kth[:, -1] ** 2), rel=1e-12)
    assert sigma_or == sigma
    directed = np.zeros((50, 50), bool)
    np.put_along_axis(directed, neighbours, True, 1)
    weights = np.exp(-(full**2) / (2 * sigma))
    np.testing.assert_allclose(A_and, np.where(directed & directed.T, weights, 0), rtol=1e-12)
    np.testing.assert_allclose(A_or, np.where(directed | directed.T, weights, 0), rtol=1e-12)
    np.testing.assert_allclose(A_and, dense_ordinal_graph(X, codes, k), rtol=1e-12)

    np.testing.assert_array_equal(A_and, A_and.T)
    np.testing.assert_array_equal(A_or, A_or.T)
    assert np.all(np.diag(A_and) == 0) and np.all(np.diag(A_or) == 0)
    assert np.all(A_or[A_and > 0] > 0)  # "and" edges are "or" edges ...
    assert (A_or > 0).sum() > (A_and > 0).sum()  # ... and strictly fewer here
    np.testing.assert_allclose(A_and[A_and > 0], A_or[A_and > 0], rtol=1e-14)  # same weights


# --------------------------------------------------------------------------- ORML


def test_orml_solves_equation_6_with_dual_7():
    X, y = ordinal_data(0)
    C = 2.5
    est = ORML(n_neighbors=6, C=C).fit(X, y)
    codes = np.unique(y, return_inverse=True)[1]
    np.testing.assert_allclose(
        est.graph_.toarray(), dense_ordinal_graph(X - X.mean(0), codes, 6), rtol=1e-12
    )
    S, D = orml_problem(est, X, y)
    alpha = est.fit_info_["alpha"]

    # Eq. (6): w = S^+ sum_r alpha_r (m_{r+1} - m_r) / 2 and sum alpha = C.
    assert alpha.min() >= 0 and alpha.sum() == pytest.approx(C, rel=1e-12)
    np.testing.assert_allclose(est.coef_, 0.5 * np.linalg.pinv(S) @ D.T @ alpha, rtol=1e-8, atol=0)
    # alpha solves the dual (7) (independent solver; H positive definite here).
    H = D @ np.linalg.pinv(S) @ D.T
    np.testing.assert_allclose(alpha, slsqp(H, C), atol=1e-6 * C)
    # Complementary slackness: active margins equal the minimum gamma.
    margins = D @ est.coef_
    gamma = margins.min()
    assert est.fit_info_["margin"] == pytest.approx(gamma, rel=1e-12)
    assert gamma > 0
    np.testing.assert_allclose(margins[alpha > 1e-8 * C], gamma, rtol=1e-8)
    # Strong duality: J(w*) = -alpha^T H alpha / 4.
    assert primal_objective(S, D, C, est.coef_) == pytest.approx(-alpha @ H @ alpha / 4, 1e-9)
    # The paper's Eq. (1) term sum_ij (z_i - z_j)^2 A_ij is 2 z^T L z: Eq. (4) drops the 2.
    z = (X - X.mean(0)) @ est.coef_
    A = est.graph_.toarray()
    assert ((z[:, None] - z[None]) ** 2 * A).sum() == pytest.approx(2 * est.coef_ @ S @ est.coef_)


def test_orml_matches_primal_problem_4_solved_by_slsqp():
    X, y = ordinal_data(1, n_per_rank=30, n_features=3, n_ranks=5)
    C = 0.7
    est = ORML(n_neighbors=5, C=C).fit(X, y)
    S, D = orml_problem(est, X, y)
    assert np.linalg.eigvalsh(S)[0] > 1e-6 * np.linalg.eigvalsh(S)[-1]  # positive definite
    d = X.shape[1]
    scale = np.linalg.norm(est.coef_)  # variables of order one for SLSQP

    def objective(v):
        w, gamma = v[:d] * scale, v[d] * scale
        return (w @ S @ w - C * gamma) / scale**2

    result = minimize(
        objective,
        np.zeros(d + 1),
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: D @ v[:d] - v[d]}],
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    assert result.status in (0, 8), result.message  # 8: stalled at the precision limit
    w = result.x[:d] * scale
    np.testing.assert_allclose(est.coef_, w, rtol=1e-4, atol=1e-6 * scale)
    assert primal_objective(S, D, C, est.coef_) == pytest.approx(result.fun * scale**2, rel=1e-6)
    assert primal_objective(S, D, C, est.coef_) <= primal_objective(S, D, C, w) + 1e-12


def test_orml_scales_linearly_in_C_and_predictions_do_not_depend_on_it():
    X, y = ordinal_data(2)
    X_test = ordinal_data(3)[0]
    base = ORML(n_neighbors=5, C=1.0).fit(X, y)
    for C in (1e-3, 1.0, 1e3):
        est = ORML(n_neighbors=5, C=C).fit(X, y)
        np.testing.assert_allclose(est.coef_, C * base.coef_, rtol=1e-9)
        scale = C * np.abs(base.thresholds_).max()  # b_r near 0 carry rounding at this scale
        np.testing.assert_allclose(
            est.thresholds_, C * base.thresholds_, rtol=1e-9, atol=1e-14 * scale
        )
        np.testing.assert_allclose(est.fit_info_["alpha"], C * base.fit_info_["alpha"], rtol=1e-9)
        np.testing.assert_array_equal(est.predict(X), base.predict(X))
        np.testing.assert_array_equal(est.predict(X_test), base.predict(X_test))


@pytest.mark.filterwarnings("ignore:.*rank levels:UserWarning")  # labels -2, 0, 3, 7
@pytest.mark.parametrize(
    "make",
    [lambda: ORML(n_neighbors=5)] + [lambda m=m: RankProjection(m, n_neighbors=5) for m in METHODS],
)
def test_thresholds_and_decision_rule_follow_equations_8_and_9(make):
    X, y = ordinal_data(4, labels=np.array([-2, 0, 3, 7]))  # non-consecutive numeric labels
    est = make().fit(X, y)
    z = (X - X.mean(0)) @ est.coef_
    np.testing.assert_allclose(est.thresholds_, hand_thresholds(z, y), rtol=1e-10, atol=1e-12)
    # Eq. (9) also in its vector form w^T (n_{r+1} m_{r+1} + n_r m_r) / (n_{r+1} + n_r).
    means = np.array([(X - X.mean(0))[y == c].mean(0) for c in est.classes_])
    counts = np.array([(y == c).sum() for c in est.classes_])
    pair = (counts[1:, None] * means[1:] + counts[:-1, None] * means[:-1]) / (
        counts[1:] + counts[:-1]
    )[:, None]
    np.testing.assert_allclose(est.thresholds_[:-1], pair @ est.coef_, rtol=1e-10, atol=1e-12)

    # Test points: training points, their extrapolations beyond b_k and below b_1.
    direction = est.coef_ / (est.coef_ @ est.coef_)
    span = est.thresholds_[-1] - est.thresholds_[0]
    X_test = np.vstack(
        [
            X,
            X + (2 * span + 1) * direction,  # beyond every training projection
            X - (2 * span + 1) * direction,
            X.mean(0) + est.thresholds_[-1] * direction,  # exactly at b_k
        ]
    )
    z_test = est.transform(X_test)[:, 0]
    np.testing.assert_allclose(z_test, (X_test - X.mean(0)) @ est.coef_, rtol=1e-12, atol=1e-12)
    expected = hand_predict(z_test, est.thresholds_, est.classes_)
    np.testing.assert_array_equal(est.predict(X_test), expected)
    assert set(np.unique(expected)) <= set(y)
    beyond = z_test >= est.thresholds_[-1]
    assert beyond.sum() >= len(X)  # the top of the training set and the shifted copies
    assert np.all(est.predict(X_test)[beyond] == est.classes_[-1])


def test_threshold_predict_and_rank_thresholds_on_small_cases():
    b = np.array([0.0, 1.0, 2.0])
    z = np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0])
    np.testing.assert_array_equal(threshold_predict(z, b), [0, 1, 1, 2, 2, 2, 2])
    # On a threshold up to rounding (b_2 = 1e-16 under one kernel, -1e-16 under another):
    # on it, not below it, either way.
    for noise in (1e-16, -1e-16, 0.0):
        np.testing.assert_array_equal(
            threshold_predict(np.array([0.0, -1e-9]), np.array([-1.0, noise, 2.0])), [2, 1]
        )
    # Non-monotone thresholds: still the *first* r with z < b_r.
    np.testing.assert_array_equal(threshold_predict(np.array([0.5]), np.array([1.0, 0.0, 2])), [0])
    z = np.array([0.0, 2.0, 4.0, 10.0, 12.0, 20.0])
    codes = np.array([0, 0, 1, 1, 1, 2])
    # b_1 = (0 + 2 + 4 + 10 + 12) / 5, b_2 = (4 + 10 + 12 + 20) / 4, b_3 = max z.
    np.testing.assert_allclose(rank_thresholds(z, codes), [5.6, 11.5, 20.0])


def test_orml_predicts_training_ranks_well():
    X, y = ordinal_data(5, noise=0.1)
    est = ORML(n_neighbors=6).fit(X, y)
    assert np.abs(est.predict(X) - y).mean() < 0.25
    assert np.corrcoef(est.transform(X)[:, 0], y)[0, 1] > 0.9


# ---------------------------------------------------------------- singular scatter


def singular_problem():
    """n = 30 < d = 60, three ranks: S = X^T L X is singular."""
    rng = np.random.default_rng(3)
    y = np.repeat([1, 2, 3], 10)
    X = rng.normal(size=(30, 60)) + 0.5 * y[:, None] * rng.normal(size=60)
    return X, y


def test_pinv_solution_of_singular_S_is_not_a_minimiser_and_ridge_finds_the_limit():
    X, y = singular_problem()
    C = 1.0
    pinv = ORML(n_neighbors=5, C=C).fit(X, y)
    S, D = orml_problem(pinv, X, y)
    values, vectors = np.linalg.eigh(S)
    null = vectors[:, values < 1e-10 * values[-1]]
    assert null.shape[1] >= 60 - 29  # rank S <= n - 1
    assert pinv.fit_info_["scatter_rank"] == 60 - null.shape[1]
    P = null @ null.T

    w = pinv.coef_
    assert np.linalg.norm(P @ w) <= 1e-10 * np.linalg.norm(w)  # w in the range of S

    # Largest-margin direction of zero manifold cost: v = P D^T beta*, beta* minimising
    # ||P D^T beta||^2 on the simplex; its KKT conditions give D v >= ||v||^2 > 0.
    beta = slsqp(D @ P @ D.T, 1.0)
    v = P @ D.T @ beta
    assert np.all(D @ v >= (1 - 1e-6) * (v @ v)) and v @ v > 0
    assert v @ S @ v <= 1e-12 * values[-1] * (v @ v)

    # J(t v, gamma = t min D v) = t^2 v^T S v - C t min D v: unbounded below.
    J = [primal_objective(S, D, C, t * v) for t in 10.0 ** np.arange(6)]
    assert np.all(np.diff(J) < 0)
    assert J[-1] < -1e5 * abs(primal_objective(S, D, C, w))
    # ... and the pinv "optimum" is improved by moving along v.
    assert primal_objective(S, D, C, w + v) < primal_objective(S, D, C, w) - C * (v @ v) / 2

    ridge = ORML(n_neighbors=5, C=C, ridge=1e-8).fit(X, y)
    w_r = ridge.coef_
    assert cosine(w_r, v) > 0.99
    assert w_r @ S @ w_r / (w_r @ w_r) < 1e-8 * values[-1]  # manifold cost ~ 0
    assert w @ S @ w / (w @ w) > 1e-3 * values[-1]  # while the pinv direction pays for it


def duplicated_ranks(copies, seed):
    """Twelve distinct points in three ranks, each ``copies`` times: with
    ``n_neighbors = copies - 1`` every edge of the graph joins equal rows, so
    ``S = X L X^T`` is 0 up to rounding (exactly 0 for 3 copies)."""
    rng = np.random.default_rng(seed)
    y = np.repeat([1, 2, 3], 4)
    X = rng.normal(size=(12, 3)) + y[:, None] * np.array([1.0, 0.0, 0.0])
    return np.repeat(X, copies, axis=0), np.repeat(y, copies)


@pytest.mark.parametrize("copies", [3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_ridge_the_pinv_error_recommends_works_when_every_edge_joins_equal_rows(copies, seed):
    # A ridge relative to trace(S) = 0 added nothing: "Singular matrix", "H must be
    # positive semi-definite" or, silently, a direction of rounding noise.
    X, y = duplicated_ranks(copies, seed)
    with pytest.raises(ValueError, match=r"ORML\(ridge=1e-8\) takes the largest-margin"):
        ORML(n_neighbors=copies - 1).fit(X, y)
    S, D = orml_problem(ORML(n_neighbors=copies - 1, ridge=1e-8).fit(X, y), X, y)
    assert np.abs(S).max() <= 1e-12 * np.abs(X).max() ** 2
    v = D.T @ slsqp(D @ D.T, 1.0)  # the largest-margin direction: S = 0 costs nothing
    for ridge in (1e-8, 1e-3):
        est = ORML(n_neighbors=copies - 1, ridge=ridge).fit(X, y)
        assert cosine(est.coef_, v) > 1 - 1e-9
        assert np.all(D @ est.coef_ > 0)


# ------------------------------------------------------------------------ ORML/M


def test_multilinear_orml_objective_is_non_increasing_and_equals_vector_J():
    X, y = image_data(0)
    for seed in range(3):
        est = MultilinearORML(
            image_shape=(6, 5), n_neighbors=6, tol=0, max_iter=12, random_state=seed
        ).fit(X, y)
        # tol=0 stops only when a sweep leaves J exactly unchanged.
        assert 3 <= est.n_iter_ == est.objective_.size <= 12
        J = est.objective_
        assert np.all(np.diff(J) <= 1e-9 * np.abs(J[1:]))
        assert J[-1] < J[0] < 0
        # coef_ = vec(w1 w2^T), and J of Eq. (10) is the vector J (4) at coef_.
        w1, w2 = est.mode_vectors_
        assert np.linalg.norm(w1) == pytest.approx(1)
        np.testing.assert_allclose(est.coef_, np.outer(w1, w2).ravel(), rtol=1e-12)
        images = (X - X.mean(0)).reshape(-1, 6, 5)
        np.testing.assert_allclose(
            est.transform(X)[:, 0], [w1 @ image @ w2 for image in images], rtol=1e-9, atol=1e-12
        )
        S, D = orml_problem(est, X, y)
        assert J[-1] == pytest.approx(primal_objective(S, D, 1.0, est.coef_), rel=1e-9)


def test_multilinear_orml_recovers_rank_order_of_rank_one_images():
    X, y = image_data(1)
    est = MultilinearORML(image_shape=(6, 5), n_neighbors=6, random_state=0).fit(X, y)
    assert np.abs(est.predict(X) - y).mean() < 0.1
    X_test, y_test = image_data(1, n_per_rank=10)  # same u, v; new noise
    X_test = X_test + np.random.default_rng(5).normal(scale=0.3, size=X_test.shape)
    assert np.abs(est.predict(X_test) - y_test).mean() < 0.3


def test_multilinear_orml_is_reproducible_with_random_state():
    X, y = image_data(2)
    params = {"image_shape": (6, 5), "n_neighbors": 6}
    a = MultilinearORML(**params, random_state=7).fit(X, y)
    b = MultilinearORML(**params, random_state=7).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.objective_, b.objective_)


def test_multilinear_orml_without_image_shape_is_orml():
    X, y = ordinal_data(6)
    vector = ORML(n_neighbors=5).fit(X, y)
    for seed in (0, 1):
        tensor = MultilinearORML(n_neighbors=5, random_state=seed).fit(X, y)
        assert cosine(tensor.coef_, vector.coef_) > 1 - 1e-10
        np.testing.assert_array_equal(tensor.predict(X), vector.predict(X))
        X_test = ordinal_data(7)[0]
        np.testing.assert_array_equal(tensor.predict(X_test), vector.predict(X_test))


@pytest.mark.parametrize("shape", [(4, 4), (30,), (2, 3, 5), (0, 30), (-5, -6)])
def test_wrong_image_shape_raises(shape):
    X, y = image_data(3)
    with pytest.raises(ValueError, match="image_shape"):
        MultilinearORML(image_shape=shape, n_neighbors=5).fit(X, y)
    with pytest.raises(ValueError, match="image_shape"):
        MultilinearRankProjection("lda", image_shape=shape).fit(X, y)


# ----------------------------------------------------------------------- baselines


def test_lda_direction_matches_scikit_learn():
    X, y = ordinal_data(8, n_per_rank=40, n_features=5)
    ours = RankProjection("lda", ridge=1e-12).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    assert cosine(ours.coef_, theirs.scalings_[:, 0], signed=False) > 1 - 1e-8


def check_complementary_quotient(est, X, y, A, B, ridge):
    """``est`` maximises ``w^T (B - A) w / w^T (B + ridge) w``, the complement of the
    published ``min w^T A w / w^T B w``; at ``ridge = 0`` both have the same direction."""
    B_ridge = B + ridge * np.trace(B) / B.shape[0] * np.eye(B.shape[0])
    w, value = est.coef_, est.fit_info_["eigenvalue"]
    residual = (B - A) @ w - value * B_ridge @ w
    np.testing.assert_allclose(residual, 0, atol=1e-9 * np.abs(B).max() * np.abs(w).max())
    assert value == pytest.approx(eigh(B - A, B_ridge, eigvals_only=True)[-1], rel=1e-9)
    published_values, published = eigh(A, B)  # ridge 0: the smallest of the published form
    unridged = clone(est).set_params(ridge=0.0).fit(X, y)
    assert cosine(unridged.coef_, published[:, 0], signed=False) > 1 - 1e-9
    assert unridged.fit_info_["eigenvalue"] == pytest.approx(1 - published_values[0], rel=1e-9)


def test_lpp_solves_its_generalized_eigenproblem():
    X, y = ordinal_data(9)
    k, ridge = 6, 1e-3
    est = RankProjection("lpp", n_neighbors=k, ridge=ridge).fit(X, y)
    check_complementary_quotient(est, X, y, *lpp_and_npe_matrices(X, "lpp", k), ridge)


def test_npe_weights_match_scikit_learn_and_solve_the_eigenproblem():
    X, y = ordinal_data(10)
    for k in (3, 7):
        ours = barycenter_weights(X, k, reg=1e-3).toarray()
        theirs = barycenter_kneighbors_graph(X, k, reg=1e-3).toarray()
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(ours.sum(1), 1)
    est = RankProjection("npe", n_neighbors=7, ridge=1e-3).fit(X, y)
    check_complementary_quotient(est, X, y, *lpp_and_npe_matrices(X, "npe", 7), 1e-3)


def test_isoprojection_gram_matches_isomap_geodesics():
    X, y = ordinal_data(11)
    k = 6
    geodesic = Isomap(n_neighbors=k).fit(X).dist_matrix_
    assert np.isfinite(geodesic).all()  # connected
    n = len(X)
    J = np.eye(n) - np.ones((n, n)) / n
    tau = -J @ geodesic**2 @ J / 2
    np.testing.assert_allclose(geodesic_gram(X, k), tau, rtol=1e-9, atol=1e-9 * np.abs(tau).max())
    est = RankProjection("isoprojection", n_neighbors=k, ridge=1e-3).fit(X, y)
    Xc = X - X.mean(0)
    A, B = Xc.T @ tau @ Xc, Xc.T @ Xc
    B += 1e-3 * np.trace(B) / B.shape[0] * np.eye(B.shape[0])
    assert est.fit_info_["eigenvalue"] == pytest.approx(eigh(A, B, eigvals_only=True)[-1])


def test_geodesic_gram_stays_finite_on_disconnected_data():
    rng = np.random.default_rng(12)
    X = np.vstack([rng.normal(size=(10, 2)), 100 + rng.normal(size=(10, 2))])
    gram = geodesic_gram(X, 3)
    assert np.isfinite(gram).all()
    np.testing.assert_allclose(gram.sum(0), 0, atol=1e-8 * np.abs(gram).max())  # centred


def lpp_and_npe_matrices(X, method, k):
    """``A``, ``B`` of LPP or NPE from scratch: brute-force graph, scikit-learn's LLE weights."""
    Xc = X - X.mean(0)
    if method == "lpp":
        full = enlarged_distances(X, np.zeros(len(X), int))
        kth, neighbours = brute_force_knn(full, k)
        directed = np.zeros(full.shape, bool)
        np.put_along_axis(directed, neighbours, True, 1)
        heat = np.exp(-(full**2) / (2 * np.mean(kth[:, -1] ** 2)))
        W = np.where(directed | directed.T, heat, 0)
        return Xc.T @ (np.diag(W.sum(1)) - W) @ Xc, Xc.T @ np.diag(W.sum(1)) @ Xc
    M = np.eye(len(X)) - barycenter_kneighbors_graph(Xc, k, reg=1e-3).toarray()
    return Xc.T @ M.T @ M @ Xc, Xc.T @ Xc


@pytest.mark.parametrize("method", ["lpp", "npe"])
def test_lpp_and_npe_are_solved_in_the_row_space_of_rank_deficient_data(method):
    # n < d: every direction orthogonal to the data scores 0 / ridge, the global minimum
    # of the published (minimised) problem. The estimators maximise the complementary
    # quotient in the row space (Cai's PCA step), where the data do vary.
    X, y = wide_data(0)
    k, ridge = 4, 1e-3
    est = RankProjection(method, n_neighbors=k, ridge=ridge).fit(X, y)
    A, B = lpp_and_npe_matrices(X, method, k)
    B_ridge = B + ridge * np.trace(B) / B.shape[0] * np.eye(len(B))
    values, vectors = eigh(A, B_ridge)
    Xc = X - X.mean(0)
    assert values[0] < 1e-12 * values[-1]  # the published form's null-space optimum ...
    assert np.linalg.norm(Xc @ vectors[:, 0]) < 1e-8 * np.linalg.norm(Xc)  # ... projects to ~0
    Q = orth(Xc.T)  # an independent basis of the row space
    assert Q.shape[1] == len(X) - 1
    B_r = Q.T @ B @ Q
    B_r += ridge * np.trace(B_r) / Q.shape[1] * np.eye(Q.shape[1])
    values, vectors = eigh(Q.T @ (B - A) @ Q, B_r)
    assert est.fit_info_["eigenvalue"] == pytest.approx(values[-1], rel=1e-8)
    assert cosine(est.coef_, Q @ vectors[:, -1], signed=False) > 1 - 1e-8
    w = est.coef_ / np.linalg.norm(est.coef_)
    assert np.linalg.norm(Xc @ w) > 1e-2 * np.linalg.norm(Xc) / np.sqrt(len(X))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("data", [wide_data, genre_data])
def test_baseline_directions_are_non_degenerate_and_reproducible(method, data):
    X, y = data(1)
    make = lambda: RankProjection(method, n_neighbors=5)  # noqa: E731
    est = make().fit(X, y)
    Xc = X - X.mean(0)
    w = est.coef_ / np.linalg.norm(est.coef_)
    # The training projections vary (before: norm ~1e-14, thresholds were rounding noise).
    assert (Xc @ w).std() > 1e-3 * np.linalg.norm(Xc) / np.sqrt(len(X))
    Q = orth(Xc.T)
    np.testing.assert_allclose(w - Q @ (Q.T @ w), 0, atol=1e-10)  # in the row space
    if data is genre_data:
        np.testing.assert_allclose(w[[0, 5, 11]], 0, atol=1e-12)  # the all-zero genres
    again = make().fit(X, y)
    np.testing.assert_array_equal(again.coef_, est.coef_)
    np.testing.assert_array_equal(again.thresholds_, est.thresholds_)
    predictions = est.predict(X)
    assert np.unique(predictions).size >= 3  # not piled on the extreme ranks
    rng = np.random.default_rng(2)
    if data is wide_data:  # no distance ties: a row permutation permutes the fit
        perm = rng.permutation(len(X))
        moved = make().fit(X[perm], y[perm])
        np.testing.assert_allclose(moved.coef_, est.coef_, rtol=1e-7, atol=1e-9 * abs(w).max())
        np.testing.assert_array_equal(moved.predict(X), predictions)
    cols = rng.permutation(X.shape[1])  # ties are by row index: columns may move freely
    moved = make().fit(X[:, cols], y)
    np.testing.assert_allclose(
        moved.coef_, est.coef_[cols], rtol=1e-7, atol=1e-9 * np.abs(est.coef_).max()
    )
    np.testing.assert_array_equal(moved.predict(X[:, cols]), predictions)


@pytest.mark.parametrize("method", METHODS)
def test_tensor_modes_are_solved_in_their_row_spaces(method):
    # 16 images of 6 x 5 (n < 30 pixels) with a blank first row and last column, as the
    # borders of USPS digits: each mode's data have all-zero columns.
    X, y = image_data(6, n_per_rank=4)
    images = X.reshape(-1, 6, 5)
    images[:, 0, :] = 0.0
    images[:, :, -1] = 0.0
    X = images.reshape(len(X), -1)
    est = MultilinearRankProjection(method, image_shape=(6, 5), n_neighbors=4, random_state=0).fit(
        X, y
    )
    w1, w2 = est.mode_vectors_
    assert abs(w1[0]) < 1e-12 and abs(w2[-1]) < 1e-12 * np.abs(w2).max()
    tensors = (X - X.mean(0)).reshape(-1, 6, 5)
    Q = orth(np.einsum("nij,i->nj", tensors, w1).T)  # row space of the last w2 problem
    np.testing.assert_allclose(w2 - Q @ (Q.T @ w2), 0, atol=1e-10 * np.abs(w2).max())
    z = est.transform(X)[:, 0] / np.linalg.norm(est.coef_)
    assert z.std() > 1e-3 * np.linalg.norm(tensors) / np.sqrt(len(X))


@pytest.mark.parametrize(
    "make",
    [MultilinearORML] + [lambda m=m, **kw: MultilinearRankProjection(m, **kw) for m in METHODS],
)
def test_random_start_is_the_only_source_of_variation(make):
    X, y = image_data(7, noise=1.0)
    params = {"image_shape": (6, 5), "n_neighbors": 6, "max_iter": 5}
    first = make(**params, random_state=0).fit(X, y)
    second = make(**params, random_state=0).fit(X, y)
    np.testing.assert_array_equal(second.coef_, first.coef_)
    np.testing.assert_array_equal(second.objective_, first.objective_)
    np.testing.assert_array_equal(second.thresholds_, first.thresholds_)
    # The start is honoured: another seed starts elsewhere (possibly another optimum).
    other = make(**params, random_state=1).fit(X, y)
    assert other.objective_[0] != first.objective_[0]


@pytest.mark.parametrize("method", METHODS)
def test_baseline_projections_increase_with_rank(method):
    for seed in range(4):
        X, y = ordinal_data(20 + seed, n_features=3)
        z = RankProjection(method, n_neighbors=5).fit(X, y).transform(X)[:, 0]
        assert np.corrcoef(z, y)[0, 1] >= 0


@pytest.mark.parametrize("method", METHODS)
def test_multilinear_rank_projection_objective_is_monotone(method):
    # A tiny ridge: each half-step adds ridge * trace(B_p) / d_p to its own mode's
    # denominator, so with a sizeable ridge the two half-steps maximise slightly different
    # quotients and the recorded one can move the wrong way (by ~1e-4 at ridge=0.1).
    X, y = image_data(4, noise=1.0)
    est = MultilinearRankProjection(
        method, image_shape=(6, 5), n_neighbors=6, ridge=1e-8, tol=0, max_iter=10, random_state=0
    ).fit(X, y)
    steps = np.diff(est.objective_) / np.abs(est.objective_[1:])
    assert np.all(steps >= -1e-8)  # every quotient is maximised (LPP, NPE: complementary)
    z = est.transform(X)[:, 0]
    assert np.corrcoef(z, y)[0, 1] >= 0


def test_multilinear_lda_without_image_shape_is_lda():
    X, y = ordinal_data(13)
    X_test = ordinal_data(14)[0]
    vector = RankProjection("lda").fit(X, y)
    tensor = MultilinearRankProjection("lda", random_state=3).fit(X, y)
    assert cosine(tensor.coef_, vector.coef_) > 1 - 1e-10
    np.testing.assert_array_equal(tensor.predict(X), vector.predict(X))
    np.testing.assert_array_equal(tensor.predict(X_test), vector.predict(X_test))


# ---------------------------------------------------------------------- validation


ESTIMATORS = [
    lambda **kw: ORML(n_neighbors=3, **kw),
    lambda **kw: MultilinearORML(n_neighbors=3, random_state=0, **kw),
    lambda **kw: RankProjection("lpp", n_neighbors=3, **kw),
    lambda **kw: MultilinearRankProjection("npe", n_neighbors=3, random_state=0, **kw),
]


@pytest.mark.parametrize("make", ESTIMATORS)
def test_invalid_labels_and_data_raise(make):
    X, y = ordinal_data(15, n_per_rank=5, n_ranks=3)
    cases = [
        (X, np.ones(len(y), int), "at least 2 ranks"),
        (X, np.array(["a", "b", "c"])[y - 1], "labels that define an order"),
        (X, y + np.linspace(0.01, 0.5, len(y)), "Unknown label type"),
        (np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), y, "NaN"),
        (X, y[:-1], "inconsistent numbers of samples"),
    ]
    for X_bad, y_bad, match in cases:
        with pytest.raises(ValueError, match=match):
            make().fit(X_bad, y_bad)
    for k in (0, 2.5, "3"):
        with pytest.raises(ValueError, match="n_neighbors"):
            make().set_params(n_neighbors=k).fit(X, y)
    with pytest.raises(ValueError, match="ridge"):
        make(ridge=-1e-3).fit(X, y)


@pytest.mark.parametrize("make", ESTIMATORS)
def test_degenerate_data_raise_clear_errors(make):
    X, y = ordinal_data(15, n_per_rank=5, n_ranks=3)
    for constant in (np.zeros_like(X), np.tile(X[:1], (len(X), 1))):  # was LinAlgError / zeros
        with pytest.raises(ValueError, match="X has no variance"):
            make().fit(constant, y)
    for factor in (1e200, 1e-200):
        with pytest.raises(ValueError, match="rescale X"):
            make().fit(X * factor, y)


@pytest.mark.parametrize("make", ESTIMATORS)
def test_n_neighbors_is_clipped_to_the_data(make):
    X, y = ordinal_data(15, n_per_rank=5, n_ranks=3)  # 15 samples
    with pytest.warns(UserWarning, match="n_neighbors_ = 14"):
        clipped = make().set_params(n_neighbors=40).fit(X, y)
    assert clipped.n_neighbors_ == 14
    exact = make().set_params(n_neighbors=14).fit(X, y)
    np.testing.assert_array_equal(clipped.coef_, exact.coef_)


@pytest.mark.parametrize("make", ESTIMATORS)
def test_ordered_categorical_labels_rank_by_their_categories(make):
    X, y = ordinal_data(15, n_per_rank=5, n_ranks=3)
    names = np.array(["low", "mid", "high"])  # alphabetical order would be wrong
    labels = pd.Categorical(names[y - 1], categories=names, ordered=True)
    numeric = make().fit(X, y)
    for given in (labels, pd.Series(labels)):
        est = make().fit(X, given)
        np.testing.assert_array_equal(est.classes_, names)
        np.testing.assert_array_equal(est.coef_, numeric.coef_)
        np.testing.assert_array_equal(est.predict(X), names[numeric.predict(X) - 1])
    with pytest.raises(ValueError, match="unordered pandas.Categorical"):
        make().fit(X, pd.Categorical(names[y - 1]))


def test_single_sample_rank_is_accepted():
    # check_ranks' default min_per_rank=1: one sample defines its rank's mean (Eqs. 1-9),
    # e.g. a rating level seen once among a MovieLens user's training movies.
    X, y = ordinal_data(19, n_per_rank=6, n_ranks=3)
    y[np.flatnonzero(y == 3)[1:]] = 2
    for est in [ORML(n_neighbors=3)] + [RankProjection(m, n_neighbors=3) for m in METHODS]:
        est.fit(X, y)
        np.testing.assert_array_equal(est.classes_, [1, 2, 3])
        assert np.isfinite(est.coef_).all() and np.isfinite(est.thresholds_).all()
        z = (X - X.mean(0)) @ est.coef_
        np.testing.assert_allclose(est.thresholds_, hand_thresholds(z, y), rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="at least 2 samples per rank; rank 3 has 1"):
        check_ranks(y, "ORML", min_per_rank=2)


def test_invalid_hyperparameters_raise():
    X, y = ordinal_data(16, n_per_rank=5, n_ranks=3)
    for C in (0, -1.0, np.nan):
        for make in (ORML, MultilinearORML):
            with pytest.raises(ValueError, match=rf"'C' parameter of {make.__name__} must be"):
                make(n_neighbors=3, C=C).fit(X, y)
    for make in (RankProjection, MultilinearRankProjection):
        with pytest.raises(ValueError, match=rf"'method' parameter of {make.__name__} must be"):
            make("pca", n_neighbors=3).fit(X, y)


@pytest.mark.parametrize("max_iter", [0, -1, 2.5])
@pytest.mark.parametrize("make", [MultilinearORML, partial(MultilinearRankProjection, "npe")])
def test_multilinear_rankers_refuse_fewer_than_one_sweep(make, max_iter):
    """Without a sweep the loop would leave its result undefined (an UnboundLocalError)."""
    X, y = ordinal_data(16, n_per_rank=5, n_ranks=3)
    with pytest.raises(ValueError, match=r"'max_iter' parameter of Multilinear\w+ must be an int"):
        make(n_neighbors=3, max_iter=max_iter, random_state=0).fit(X, y)


def test_gap_in_integer_labels_warns_and_ranks_by_position():
    X, y = ordinal_data(17, labels=np.array([1, 2, 4]), n_ranks=3)
    with pytest.warns(UserWarning, match=r"rank levels \[3\]"):
        est = ORML(n_neighbors=5).fit(X, y)
    np.testing.assert_array_equal(est.classes_, [1, 2, 4])
    assert set(est.predict(X)) <= {1, 2, 4}
    # Ranks are used by position: the fit equals the fit on labels 1, 2, 3.
    np.testing.assert_array_equal(
        est.coef_, ORML(n_neighbors=5).fit(X, np.where(y == 4, 3, y)).coef_
    )
    with pytest.warns(UserWarning, match="levels"):
        check_ranks(np.repeat([1, 10**12], 3), "ORML")  # many missing levels: not enumerated


def test_boolean_and_float_labels():
    X, y = ordinal_data(18, n_ranks=2)
    as_bool = ORML(n_neighbors=5).fit(X, y == 2)  # regression: bool labels raised TypeError
    np.testing.assert_array_equal(as_bool.classes_, [False, True])
    as_int = ORML(n_neighbors=5).fit(X, y)
    np.testing.assert_array_equal(as_bool.predict(X), as_int.predict(X) == 2)
    as_float = ORML(n_neighbors=5).fit(X, y.astype(float))
    np.testing.assert_array_equal(as_float.coef_, as_int.coef_)


# ----------------------------------------------------------------- estimator checks


def expected_failed_checks(estimator):
    return {
        # String class labels ("one", "two", "three") carry no order; the estimators
        # require numeric ranks and raise a ValueError saying so.
        "check_classifiers_classes": "ranks must be numeric: string labels have no order",
        # make_blobs' three centres do not lie on a line in label order, so no 1-D
        # threshold model reaches the 0.83 training accuracy asked for on the 3-class
        # problem (ORML: 0.69; the baselines' leading directions: 0.34-0.50). The binary
        # problem of the same check passes (test_binary_blobs_are_separated below).
        "check_classifiers_train": "three unordered blobs cannot be ranked on one line",
    }


@parametrize_with_checks(
    [
        ORML(n_neighbors=3),
        MultilinearORML(n_neighbors=3, random_state=0),
        *[RankProjection(method, n_neighbors=3) for method in METHODS],
        MultilinearRankProjection("lpp", n_neighbors=3, random_state=0),
    ],
    expected_failed_checks=expected_failed_checks,
    xfail_strict=True,  # an exemption that stops failing fails the test: keep the list minimal
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_binary_blobs_are_separated():
    # The binary half of check_classifiers_train, which the exemption above also skips.
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler
    from sklearn.utils import shuffle

    X, y = make_blobs(n_samples=300, random_state=0)
    X, y = shuffle(X, y, random_state=7)
    X = StandardScaler().fit_transform(X)
    X, y = X[y != 2], y[y != 2]
    estimators = [ORML(n_neighbors=3), MultilinearORML(n_neighbors=3, random_state=0)]
    estimators += [RankProjection(method, n_neighbors=3) for method in METHODS]
    for est in estimators:
        assert (est.fit(X, y).predict(X) == y).mean() > 0.83, est
