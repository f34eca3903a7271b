"""Co-ranking matrix and Q_k (Lee & Verleysen 2009) against their definitions.

The references here rank neighbours from exact integer squared distances with
Python's sort on (distance, index) -- the documented tie rule -- and intersect
the k-neighbourhoods as sets, independently of the library's k-NN search.
"""

import numpy as np
import pytest
from scipy.stats import ortho_group
from test_utils_graphs import lexsorted_ranks, ranking_cases

from dimred.metrics.coranking import (
    ReferenceRanking,
    coranking_matrix,
    coranking_quality,
    quality_from_neighbours,
    rescaled_quality,
    rnx_auc,
    rnx_curve,
    trustworthiness_continuity,
)
from dimred.utils.graphs import knn_distances


def ranked_others(X, i):
    """The other points in increasing (squared distance, index) order."""
    squared = ((X - X[i]) ** 2).sum(axis=1)
    return sorted((j for j in range(X.shape[0]) if j != i), key=lambda j: (squared[j], j))


def brute_force_neighbourhoods(X, k):
    """``N_k(x_i)`` as Python sets."""
    return [set(ranked_others(X, i)[:k]) for i in range(X.shape[0])]


def brute_force_quality(X, Y, k):
    """``Q_k = sum_i |N_k(x_i) & N_k(y_i)| / (N k)`` by explicit set intersection."""
    nx, ny = brute_force_neighbourhoods(X, k), brute_force_neighbourhoods(Y, k)
    return sum(len(a & b) for a, b in zip(nx, ny, strict=True)) / (len(nx) * k)


def brute_force_coranking(X, Y):
    """``Q_st = |{(i, j): rho_ij = s, r_ij = t}|`` counted pair by pair."""
    n = X.shape[0]
    order_x = [ranked_others(X, i) for i in range(n)]
    order_y = [ranked_others(Y, i) for i in range(n)]
    Q = np.zeros((n - 1, n - 1), dtype=int)
    for i in range(n):
        for j in range(n):
            if j != i:
                Q[order_x[i].index(j), order_y[i].index(j)] += 1
    return Q


def tied_data(seed, n=30):
    """Integer-valued data on a small grid: many equal distances, duplicated points."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, size=(n, 3)).astype(float), rng.integers(0, 4, size=(n, 2))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_quality_equals_the_set_intersection_definition_with_ties(seed):
    X, Y = tied_data(seed)
    quality = coranking_quality(X, Y)
    assert quality.shape == (X.shape[0] - 2,)
    expected = [brute_force_quality(X, Y, k) for k in range(1, X.shape[0] - 1)]
    np.testing.assert_allclose(quality, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed", [0, 3])
def test_coranking_matrix_counts_rank_pairs(seed):
    X, Y = tied_data(seed, n=20)
    Q = coranking_matrix(X, Y)
    np.testing.assert_array_equal(Q, brute_force_coranking(X, Y))
    n = X.shape[0]
    np.testing.assert_array_equal(Q.sum(axis=0), np.full(n - 1, n))  # each rank once per point
    np.testing.assert_array_equal(Q.sum(axis=1), np.full(n - 1, n))


def test_quality_is_the_cumulated_upper_left_blocks_of_the_matrix():
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(40, 5)), rng.normal(size=(40, 2))
    Q = coranking_matrix(X, Y)
    blocks = [Q[:k, :k].sum() / (40 * k) for k in range(1, 40)]
    np.testing.assert_allclose(coranking_quality(X, Y, max_k=39), blocks, rtol=1e-14)
    assert coranking_quality(X, Y, max_k=39)[-1] == 1.0  # every other point is a neighbour


@pytest.mark.parametrize("tied", [False, True])
def test_identical_spaces_have_quality_one(tied):
    X = tied_data(5)[0] if tied else np.random.default_rng(6).normal(size=(50, 4))
    np.testing.assert_array_equal(coranking_quality(X, X.copy()), 1.0)
    Q = coranking_matrix(X, X)
    np.testing.assert_array_equal(Q, np.diag(np.diag(Q)))  # every rank kept


def test_random_map_has_the_diagonal_baseline():
    # Y = X with its rows permuted at random: for each i, N_k(y_i) is a uniformly random
    # k-subset of the other points, so |N_k(x_i) & N_k(y_i)| is hypergeometric with
    # mean k^2 / (N - 1) and E[Q_k] = k / (N - 1) exactly.
    n, seeds, ks = 80, 60, np.array([1, 5, 10, 20, 40])
    X = np.random.default_rng(7).normal(size=(n, 3))
    curves = np.array([
        coranking_quality(X, X[np.random.default_rng(s).permutation(n)], max_k=ks.max())[ks - 1]
        for s in range(seeds)
    ])  # fmt: skip
    expected = ks / (n - 1)
    standard_error = curves.std(axis=0, ddof=1) / np.sqrt(seeds)
    assert np.all(np.abs(curves.mean(axis=0) - expected) <= 4 * standard_error)
    # the tolerance is informative: it tells k / (N - 1) from half or twice that value
    assert np.all(4 * standard_error < 0.5 * expected)


def test_invariant_to_rotation_scaling_and_translation_of_either_space():
    rng = np.random.default_rng(8)
    X, Y = rng.normal(size=(60, 4)), rng.normal(size=(60, 2))
    reference = coranking_quality(X, Y)
    moved_x = 3.7 * X @ ortho_group.rvs(4, random_state=1) + 5.0
    moved_y = 0.2 * Y @ ortho_group.rvs(2, random_state=2) - 1.0
    np.testing.assert_array_equal(coranking_quality(moved_x, Y), reference)
    np.testing.assert_array_equal(coranking_quality(X, moved_y), reference)
    np.testing.assert_array_equal(coranking_matrix(moved_x, moved_y), coranking_matrix(X, Y))


def test_one_dimensional_embedding_and_invalid_input():
    rng = np.random.default_rng(9)
    X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    np.testing.assert_array_equal(coranking_quality(X, y), coranking_quality(X, y[:, None]))
    with pytest.raises(ValueError, match="same samples"):
        coranking_quality(X, y[:10])
    with pytest.raises(ValueError, match="max_k"):
        coranking_quality(X, y, max_k=20)
    with pytest.raises(ValueError, match="max_k"):
        coranking_quality(X, y, max_k=0)
    with pytest.raises(ValueError, match="at least 3 samples"):
        coranking_matrix(X[:2], y[:2])


# ----------------------------------------------------------------------------- R_NX(k)
def test_rnx_is_one_for_a_map_that_keeps_every_neighbourhood():
    X = np.random.default_rng(0).normal(size=(60, 4))
    rnx, auc = rnx_curve(X, 3.0 * X + 1.0)
    assert rnx.shape == (58,) and np.allclose(rnx, 1.0) and auc == pytest.approx(1.0)


def test_rnx_of_a_random_map_is_zero_on_average():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 5))
    aucs = [rnx_curve(X, X[rng.permutation(400)], 50)[1] for _ in range(10)]
    assert abs(np.mean(aucs)) < 0.02 and max(map(abs, aucs)) < 0.06


def test_rnx_from_the_coranking_matrix_brute_force():
    """R_NX(k) from the cumulated blocks of the co-ranking matrix (Lee et al. 2015, Eq. 25)
    and its AUC as an explicit 1/k-weighted mean."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 6))
    Y = X[:, :2] + 0.3 * rng.normal(size=(40, 2))
    Q = coranking_matrix(X, Y)
    n = 40
    expected = []
    for k in range(1, n - 1):
        q_nx = Q[:k, :k].sum() / (k * n)
        expected.append(((n - 1) * q_nx - k) / (n - 1 - k))
    rnx, auc = rnx_curve(X, Y)
    np.testing.assert_allclose(rnx, expected, atol=1e-12)
    weights = [1.0 / k for k in range(1, n - 1)]
    weighted = sum(r * w for r, w in zip(expected, weights, strict=True))
    assert auc == pytest.approx(weighted / sum(weights))
    assert rnx_auc(rnx[:5]) == pytest.approx(np.average(expected[:5], weights=weights[:5]))


def test_rnx_refuses_neighbourhoods_without_a_baseline():
    X = np.random.default_rng(3).normal(size=(10, 3))
    with pytest.raises(ValueError, match="n_samples - 2"):
        rnx_curve(X, X, max_k=9)
    with pytest.raises(ValueError, match="n_samples - 2"):
        rescaled_quality(np.ones(9), 10)


def test_trustworthiness_and_continuity_are_scikit_learns_without_ties():
    from sklearn.manifold import trustworthiness

    rng = np.random.default_rng(7)
    X = rng.normal(size=(150, 6))
    Y = X[:, :2] + 0.3 * rng.normal(size=(150, 2))
    trust, continuity = trustworthiness_continuity(X, Y, 10)
    assert trust == pytest.approx(trustworthiness(X, Y, n_neighbors=10), abs=1e-12)
    assert continuity == pytest.approx(trustworthiness(Y, X, n_neighbors=10), abs=1e-12)
    assert trustworthiness_continuity(X, X, 10) == (1.0, 1.0)


def test_trustworthiness_of_tied_distances_ignores_rounding_noise():
    # A grid map: its distances tie exactly; noise of 1e-15 must not re-rank them.
    rng = np.random.default_rng(8)
    Y = np.array([[i, j] for i in range(8) for j in range(8)], dtype=float)
    X = np.column_stack([Y, rng.normal(size=(64, 2))])
    noisy = Y * (1 + 1e-15 * rng.normal(size=Y.shape))
    assert trustworthiness_continuity(X, noisy, 5) == trustworthiness_continuity(X, Y, 5)
    with pytest.raises(ValueError, match="n_neighbors"):
        trustworthiness_continuity(X, Y, 32)


# ------------------------------------------------------------ the same numbers, faster
def full_rank_trustworthiness_continuity(X, Y, k):
    """Trustworthiness and continuity from the two full rank matrices (the formula the
    module applied before it counted the ranks of the k nearest only)."""
    ranks_x, ranks_y = lexsorted_ranks(X), lexsorted_ranks(Y.reshape(len(Y), -1))
    n = len(X)
    scale = 2.0 / (n * k * (2 * n - 3 * k - 1))

    def penalty(near, far):
        return float(np.maximum(far[(near >= 1) & (near <= k)] - k, 0).sum())

    return 1.0 - scale * penalty(ranks_y, ranks_x), 1.0 - scale * penalty(ranks_x, ranks_y)


def mapped_cases(seed, n=60):
    """Data spaces (:func:`test_utils_graphs.ranking_cases`, but a constant one) with a
    Gaussian, a grid and a one-dimensional map."""
    rng = np.random.default_rng(seed)
    cases = ranking_cases(seed, n)
    del cases["one point"]  # no neighbourhoods to compare (check_spaces)
    maps = [rng.normal(size=(n, 2)), rng.integers(0, 4, size=(n, 2)).astype(float)]
    return cases, maps + [rng.integers(0, 5, size=n).astype(float)]


@pytest.mark.parametrize("seed", [0, 1])
def test_trustworthiness_continuity_equal_the_full_rank_formula(seed):
    cases, maps = mapped_cases(seed)
    for name, X in cases.items():
        for Y in maps:
            for k in (1, 3, 10, 29):
                expected = full_rank_trustworthiness_continuity(X, Y, k)
                assert trustworthiness_continuity(X, Y, k) == expected, (name, k)


def test_trustworthiness_continuity_of_a_few_thousand_tied_points():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 5, size=(1500, 4)).astype(float)
    Y = X[:, :2] + rng.integers(0, 2, size=(1500, 2))
    for k in (5, 10):
        assert trustworthiness_continuity(X, Y, k) == full_rank_trustworthiness_continuity(X, Y, k)


@pytest.mark.parametrize("seed", [0, 1])
def test_quality_from_full_rankings_equals_the_neighbour_lists(seed):
    """coranking_quality ranks every point from FULL_RANKING_SHARE N on (here from
    max_k = 8): Q_k as from the lists of each point's K nearest, bit for bit."""
    cases, maps = mapped_cases(seed)
    for name, X in cases.items():
        for Y in maps:
            Y = Y.reshape(len(Y), -1)
            for max_k in (1, 7, 8, 30, 58, 59):
                lists = knn_distances(X, max_k)[1], knn_distances(Y, max_k)[1]
                expected = quality_from_neighbours(*lists)
                np.testing.assert_array_equal(coranking_quality(X, Y, max_k), expected, name)


def test_rnx_of_a_few_thousand_tied_points_equals_the_neighbour_lists():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 6, size=(1200, 3)).astype(float)
    Y = X[:, :2] @ rng.normal(size=(2, 2)) + rng.integers(0, 3, size=(1200, 2))
    n = len(X)
    lists = knn_distances(X, n - 2)[1], knn_distances(Y, n - 2)[1]
    rnx = rescaled_quality(quality_from_neighbours(*lists), n)
    got, auc = rnx_curve(X, Y)
    np.testing.assert_array_equal(got, rnx)
    assert auc == rnx_auc(rnx)


@pytest.mark.parametrize("seed", [0, 1])
def test_reference_ranking_scores_every_map_as_the_functions(seed):
    cases, maps = mapped_cases(seed)
    for name, X in cases.items():
        reference = ReferenceRanking(X)
        for Y in maps:
            coranking = reference.compare(Y)
            for max_k in (None, 1, 20):
                rnx, auc = coranking.rnx_curve(max_k)
                expected_rnx, expected_auc = rnx_curve(X, Y, max_k)
                np.testing.assert_array_equal(rnx, expected_rnx, name)
                assert auc == expected_auc
            for k in (1, 10, 29):
                expected = trustworthiness_continuity(X, Y, k)
                assert coranking.trustworthiness_continuity(k) == expected, (name, k)
    with pytest.raises(ValueError, match="same samples"):
        reference.compare(maps[0][:10])
    with pytest.raises(ValueError, match="n_neighbors"):
        reference.compare(maps[0]).trustworthiness_continuity(30)
    with pytest.raises(ValueError, match="n_samples - 2"):
        reference.compare(maps[0]).rnx_curve(59)
