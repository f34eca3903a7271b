"""Neighbour graphs: the tie rules (neighbourhoods take every tie at the k-th distance;
fixed-k lists take the lowest index), permutation equivariance on duplicate-heavy data,
the sparse/dense agreement on tied data and the clipping of ``n_neighbors``."""

import numpy as np
import pytest

from dimred.utils import graphs
from dimred.utils.graphs import (
    check_n_neighbors,
    dense_ordinal_graph,
    heat_kernel_graph,
    knn_distances,
    knn_graph,
    knn_neighbourhoods,
)


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
