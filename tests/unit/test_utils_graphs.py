"""Neighbour graphs: the tie rules (neighbourhoods take every tie at the k-th distance;
fixed-k lists take the lowest index), permutation equivariance on duplicate-heavy data,
the sparse/dense agreement on tied data and the clipping of ``n_neighbors``; the dense
rankings (keys, orders, ranks, crossed ranks) against their straightforward formulas,
bit for bit."""

import numpy as np
import pytest

from dimred.utils import graphs, ranks
from dimred.utils.graphs import (
    check_n_neighbors,
    dense_ordinal_graph,
    heat_kernel_graph,
    knn_distances,
    knn_graph,
    knn_neighbourhoods,
)
from dimred.utils.ranks import crossed_ranks, neighbour_keys, neighbour_order, neighbour_ranks


def genre_like(seed, n=120, m=12):
    """Binary rows (a few ones each, two all-zero columns): distances tie massively."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, m)) < 0.2).astype(float)
    X[:, [2, 7]] = 0.0
    return X, rng.integers(0, 5, size=n)


def integer_squares(B, codes=None):
    """Exact integer squared (enlarged) distances, the diagonal infinite."""
    B = B.astype(np.int64)
    squared = ((B[:, None, :] - B[None, :, :]) ** 2).sum(-1)
    if codes is not None:
        squared = squared * (np.abs(codes[:, None] - codes[None, :]) + 1) ** 2
    squared = squared.astype(float)
    np.fill_diagonal(squared, np.inf)
    return squared


def integer_reference(B, k, codes=None):
    """k nearest by exact integer squared (enlarged) distances, ties to the lowest index."""
    return np.argsort(integer_squares(B, codes), axis=1, kind="stable")[:, :k]


def integer_neighbourhoods(B, k, codes=None):
    """Mask of every j with fewer than k points strictly nearer to i (exact integers)."""
    squared = integer_squares(B, codes)
    strictly_nearer = (squared[:, None, :] < squared[:, :, None]).sum(axis=2)
    return (strictly_nearer < k) & np.isfinite(squared)


def duplicate_heavy(seed, n=100, m=8):
    """Binary rows drawn from few patterns: about half the rows have duplicates."""
    rng = np.random.default_rng(seed)
    patterns = (rng.random((n // 2, m)) < 0.3).astype(float)
    X = patterns[rng.integers(0, len(patterns), size=n)]
    assert (np.unique(X, axis=0, return_counts=True)[1] > 1).sum() > 10
    return X, rng.integers(0, 5, size=n)


@pytest.mark.parametrize("k", [1, 5, 10])
@pytest.mark.parametrize("enlarged", [False, True])
def test_neighbourhoods_take_every_tie_at_the_kth_distance(k, enlarged):
    B, codes = genre_like(k)
    codes = codes if enlarged else None
    expected = integer_neighbourhoods(B, k, codes)
    assert (expected.sum(axis=1) > k).mean() > 0.3  # the data tie at the k-th distance
    for X in (B, B - B.mean(axis=0), 3.7 * B + 0.1, B / 3.0, B * 2.0**-300):
        hoods = knn_neighbourhoods(X, k, codes)
        mask = hoods.directed().toarray() > 0
        np.testing.assert_array_equal(mask, expected)
        scale = np.ptp(X, axis=0).max() / np.ptp(B, axis=0).max()  # X: B shifted and scaled
        kth = np.sqrt(np.sort(integer_squares(B, codes), axis=1)[:, k - 1]) * scale
        np.testing.assert_allclose(hoods.kth, kth, rtol=1e-12)


@pytest.mark.parametrize("k", [1, 4, 10])
def test_graphs_permute_with_the_rows_of_duplicate_heavy_data(k):
    X, codes = duplicate_heavy(k)
    rng = np.random.default_rng(100 + k)
    graph = knn_graph(X, k).toarray()
    heat, sigma = heat_kernel_graph(knn_neighbourhoods(X, k, codes))
    for _ in range(3):
        perm = rng.permutation(len(X))
        np.testing.assert_array_equal(knn_graph(X[perm], k).toarray(), graph[perm][:, perm])
        moved, moved_sigma = heat_kernel_graph(knn_neighbourhoods(X[perm], k, codes[perm]))
        np.testing.assert_array_equal(moved.toarray(), heat.toarray()[perm][:, perm])
        assert moved_sigma == sigma


@pytest.mark.parametrize("k", [1, 5, 10])
@pytest.mark.parametrize("enlarged", [False, True])
def test_ties_go_to_the_lowest_index(k, enlarged):
    B, codes = genre_like(k)
    codes = codes if enlarged else None
    expected = integer_reference(B, k, codes)
    # The data ties: many rows have more candidates at their k-th distance than slots.
    full = ((B[:, None] - B[None]) ** 2).sum(-1) + np.diag(np.full(len(B), np.inf))
    kth = np.sort(full, axis=1)[:, k - 1]
    assert ((full <= kth[:, None]).sum(1) > k).mean() > 0.3
    # Same neighbours whatever the representation: rounding noise must not break ties.
    for X in (B, B - B.mean(axis=0), 3.7 * B + 0.1, B / 3.0, B * 2.0**-300):
        _, indices = knn_distances(X, k, codes)
        np.testing.assert_array_equal(indices, expected)


def test_knn_graph_ties_and_small_blocks(monkeypatch):
    B, _ = genre_like(3, n=90)
    reference = knn_graph(B, 6).toarray()
    expected = integer_neighbourhoods(B, 6)
    np.testing.assert_array_equal(reference, expected | expected.T)
    both = expected & expected.T
    np.testing.assert_array_equal(knn_graph(B, 6, mode="and").toarray(), both)
    monkeypatch.setattr(graphs, "_BLOCK", 1)  # blocks of k rows: the chunked path
    np.testing.assert_array_equal(knn_graph(B, 6).toarray(), reference)


def test_sparse_and_dense_ordinal_graphs_agree_on_tied_data():
    for seed in range(3):
        B, codes = genre_like(10 + seed)
        for X in (B, B - B.mean(axis=0)):
            for k in (3, 10):
                sparse, _ = heat_kernel_graph(knn_neighbourhoods(X, k, codes))
                np.testing.assert_array_equal(sparse.toarray(), dense_ordinal_graph(X, codes, k))


def test_row_permutation_permutes_the_graph_when_there_are_no_ties():
    rng = np.random.default_rng(4)
    X, codes = rng.normal(size=(80, 5)), rng.integers(0, 4, size=80)
    perm = rng.permutation(80)
    for k in (1, 7):
        graph = knn_graph(X, k).toarray()
        np.testing.assert_array_equal(knn_graph(X[perm], k).toarray(), graph[perm][:, perm])
        distances, indices = knn_distances(X, k, codes)
        moved_d, moved_i = knn_distances(X[perm], k, codes[perm])
        np.testing.assert_array_equal(perm[moved_i], indices[perm])
        np.testing.assert_allclose(moved_d, distances[perm], rtol=1e-14)


def test_distances_are_exact_for_near_duplicates():
    # The norm expansion is off by ~1e-8 of the data scale here; the difference is exact.
    rng = np.random.default_rng(5)
    X = 1e3 + rng.normal(size=(30, 4))
    X[1] = X[0] + 1e-9
    X[2] = X[0]
    distances, indices = knn_distances(X, 2)
    np.testing.assert_array_equal(indices[0], [2, 1])
    assert distances[0, 0] == 0.0
    assert distances[0, 1] == pytest.approx(np.linalg.norm(X[1] - X[0]), rel=1e-12)


def test_check_n_neighbors_clips_with_a_warning():
    assert check_n_neighbors(4, 10, "Est") == 4
    with pytest.warns(UserWarning, match="n_neighbors_ = 9"):
        assert check_n_neighbors(10, 10, "Est") == 9
    for bad in (0, -1, 2.5, "3", None):
        with pytest.raises(ValueError, match="Est: n_neighbors"):
            check_n_neighbors(bad, 10, "Est")
    with pytest.raises(ValueError, match="n_samples = 1"):
        check_n_neighbors(3, 1, "Est")


# ------------------------------------------------------------------------ dense rankings
def summed_keys(X, queries=None):
    """:func:`neighbour_keys` as one matrix, by its formula: the squared differences of
    every pair summed by ``np.sum`` over the features, rooted and rounded to the tie grid."""
    own = queries is None
    queries = X if own else queries
    both, _ = graphs._binary_scaled(np.vstack([X, queries]))
    X, queries = both[: len(X)], both[len(X) :]
    difference = queries[:, None, :] - X[None, :, :]
    keys = graphs._tie_keys(
        np.sqrt(np.sum(difference * difference, axis=2)), graphs._tie_unit(both)
    )
    if own:
        np.fill_diagonal(keys, np.inf)
    return keys


def lexsorted_order(X, queries=None):
    """Every point by (key, index) for each query: a lexsort of :func:`summed_keys`."""
    keys = summed_keys(X, queries)
    order = np.lexsort((np.broadcast_to(np.arange(len(X)), keys.shape), keys), axis=1)
    return order[:, : len(X) - (queries is None)]


def lexsorted_ranks(X, order=None):
    """The full rank matrix ``R[i, j]`` (``R[i, i] = 0``) from :func:`lexsorted_order`
    (``order``, when already at hand)."""
    order = lexsorted_order(X) if order is None else order
    ranks = np.zeros((len(X), len(X)), dtype=np.intp)
    np.put_along_axis(ranks, order, np.arange(1, len(X)), axis=1)
    return ranks


def ranking_cases(seed, n=60):
    """Spaces of ``n`` points with few and many features: Gaussian, integer grid points
    (massive ties), duplicated rows, and one that ties everywhere (all rows equal)."""
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, 3, size=(n, 3)).astype(float)
    duplicated, _ = duplicate_heavy(seed, n=n, m=9)
    return {
        "gaussian 2": rng.normal(size=(n, 2)),
        "gaussian 12": rng.normal(size=(n, 12)) * rng.random(12),
        "grid": grid,
        "scaled grid": 0.1 * grid - 7.0,
        "duplicated": duplicated,
        "one point": np.ones((n, 4)),
    }


@pytest.mark.parametrize("n_features", [1, 2, 3, 7, 8, 9, 30])
def test_neighbour_keys_are_the_summed_squared_differences(n_features):
    rng = np.random.default_rng(n_features)
    X = rng.normal(size=(90, n_features)) * rng.random(n_features)
    queries = np.vstack([X[:5] + 0.1, X[5:9]])
    tied = rng.integers(0, 3, size=(90, n_features)).astype(float)
    for batch in (1, 2**10, 2**18):
        for data, query in ((X, None), (X, queries), (tied, None), (tied, tied[:7] + 0.5)):
            blocks = [keys for _, keys in neighbour_keys(data, query, batch)]
            np.testing.assert_array_equal(np.vstack(blocks), summed_keys(data, query))


@pytest.mark.parametrize("seed", [0, 1])
def test_neighbour_order_and_ranks_are_the_lexsort_of_the_keys(seed):
    for name, X in ranking_cases(seed).items():
        np.testing.assert_array_equal(neighbour_order(X), lexsorted_order(X), err_msg=name)
        queries = X[::7] + 0.25
        np.testing.assert_array_equal(
            neighbour_order(X, queries), lexsorted_order(X, queries), err_msg=name
        )
        np.testing.assert_array_equal(neighbour_ranks(X), lexsorted_ranks(X), err_msg=name)


def expected_crossed(X, Y, k, rankings=None):
    """The ranks in ``X`` of the ``k`` nearest of each ``y_i`` (and vice versa) from the
    full rankings (``rankings``: the lexsorted orders of ``X`` and ``Y``), each row in
    increasing column order."""
    order_x, order_y = rankings or (lexsorted_order(X), lexsorted_order(Y))
    return (
        np.take_along_axis(lexsorted_ranks(X, order_x), np.sort(order_y[:, :k]), axis=1),
        np.take_along_axis(lexsorted_ranks(Y, order_y), np.sort(order_x[:, :k]), axis=1),
    )


@pytest.mark.parametrize("k", [1, 5, 20])
def test_crossed_ranks_are_those_of_the_full_rankings(k):
    cases = ranking_cases(k)
    rng = np.random.default_rng(k)
    maps = [rng.normal(size=(60, 2)), rng.integers(0, 4, size=(60, 2)).astype(float)]
    for name, X in cases.items():
        for Y in maps + [cases["duplicated"]]:
            for batch in (1, 2**18):
                ranks_x, ranks_y = crossed_ranks(X, Y, k, batch)
                expected_x, expected_y = expected_crossed(X, Y, k)
                np.testing.assert_array_equal(ranks_x, expected_x, err_msg=name)
                np.testing.assert_array_equal(ranks_y, expected_y, err_msg=name)


def test_crossed_ranks_of_a_few_thousand_points():
    rng = np.random.default_rng(11)
    X = rng.integers(0, 6, size=(2000, 3)).astype(float)  # 216 grid points, all duplicated
    X[::2] += rng.normal(scale=0.3, size=(1000, 3))
    Y = X[:, :2] @ rng.normal(size=(2, 2)) + rng.integers(0, 2, size=(2000, 2))
    rankings = lexsorted_order(X), lexsorted_order(Y)
    for k in (1, 10):
        expected = expected_crossed(X, Y, k, rankings)
        for got, wanted in zip(crossed_ranks(X, Y, k), expected, strict=True):
            np.testing.assert_array_equal(got, wanted)


@pytest.mark.parametrize("k", [1, 4, 12])
def test_knn_distances_take_the_first_of_the_neighbour_order(k):
    """The fixed-k search and the dense ranking apply one tie rule: same neighbours."""
    for name, X in ranking_cases(30 + k).items():
        np.testing.assert_array_equal(
            knn_distances(X, k)[1], neighbour_order(X)[:, :k], err_msg=name
        )


def test_strict_keys_refuse_more_points_than_floats_order_exactly():
    keys = ranks._strict_keys(np.array([[3.0, 1.0, 3.0, np.inf]]))
    np.testing.assert_array_equal(keys, [[12.0, 5.0, 14.0, np.inf]])
    with pytest.raises(ValueError, match="exact integers"):
        ranks._strict_keys(np.zeros((1, 10**6)))
