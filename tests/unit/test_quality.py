"""Embedding-quality metrics on configurations whose answer is known."""

import numpy as np
import pytest
from test_utils_graphs import lexsorted_order, lexsorted_ranks, ranking_cases

from dimred.metrics.embedding import (
    adjacent_centres_nearer,
    continuity,
    knn_accuracy,
    knn_vote,
    neighbourhood_scores,
    order_correlation,
    trustworthiness,
    within_class_share,
)
from dimred.utils.rows import canonical_order


def line_of_classes(order, per_class=20, seed=0):
    """Classes 0..K-1 placed on a line at positions ``order`` (tight clusters)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(len(order)), per_class)
    Z = np.column_stack([np.asarray(order, float)[y] * 10, np.zeros(y.size)])
    return Z + rng.normal(scale=0.1, size=Z.shape), y


def test_knn_accuracy_separated_and_random():
    Z, y = line_of_classes([0, 1, 2, 3])
    assert knn_accuracy(Z, y) == 1.0
    rng = np.random.default_rng(1)
    noise = rng.normal(size=(400, 2))
    assert knn_accuracy(noise, rng.integers(0, 4, 400)) < 0.4


def test_order_correlation_exact_values():
    Z, y = line_of_classes([0, 1, 2, 3])
    assert order_correlation(Z, y) == pytest.approx(1.0)
    Z, y = line_of_classes([0, 2, 1, 3])  # classes 1 and 2 swapped: Spearman 0.8
    assert order_correlation(Z, y) == pytest.approx(0.8)
    Z, y = line_of_classes([3, 2, 1, 0])  # a reflection keeps the order
    assert order_correlation(Z, y) == pytest.approx(1.0)


def test_adjacent_centres_nearer():
    Z, y = line_of_classes([0, 1, 2, 3])
    assert adjacent_centres_nearer(Z, y) == 1.0
    Z, y = line_of_classes([0, 2, 1, 3])
    assert adjacent_centres_nearer(Z, y) < 1.0
    Z, y = line_of_classes([0, 1])
    with pytest.raises(ValueError, match="at least 3 ranks"):
        adjacent_centres_nearer(Z, y)


def test_neighbourhood_scores_of_identity_and_of_a_scramble():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(150, 3))
    identity = neighbourhood_scores(X, X[:, :3])
    assert identity == {"trustworthiness": 1.0, "continuity": 1.0}
    scrambled = neighbourhood_scores(X, rng.permutation(X))
    assert scrambled["trustworthiness"] < 0.7 and scrambled["continuity"] < 0.7


def test_within_class_share_is_the_anova_ratio():
    rng = np.random.default_rng(0)
    Z, y = rng.normal(size=(90, 2)), np.repeat([1, 2, 3], 30)
    # brute force: one minus the between-class share (the ANOVA decomposition)
    centres = np.array([Z[y == k].mean(0) for k in (1, 2, 3)])
    between = sum(30 * np.sum((c - Z.mean(0)) ** 2) for c in centres)
    total = np.sum((Z - Z.mean(0)) ** 2)
    assert within_class_share(Z, y) == pytest.approx(1 - between / total)
    collapsed = centres[y - 1]
    assert within_class_share(collapsed, y) == pytest.approx(0.0)
    assert within_class_share(3.0 * Z + 7.0, y) == pytest.approx(within_class_share(Z, y))


def test_knn_accuracy_and_neighbourhood_scores_equal_scikit_learn_without_ties():
    from sklearn.manifold import trustworthiness
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 6))
    Z = X[:, :2] + rng.normal(scale=0.5, size=(120, 2))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    order = canonical_order(Z, y)  # the folds are drawn in the rows' canonical order
    expected = cross_val_score(KNeighborsClassifier(5), Z[order], y[order], cv=folds).mean()
    assert knn_accuracy(Z, y) == pytest.approx(expected)
    scores = neighbourhood_scores(X, Z, n_neighbors=7)
    assert scores["trustworthiness"] == pytest.approx(trustworthiness(X, Z, n_neighbors=7))
    assert scores["continuity"] == pytest.approx(trustworthiness(Z, X, n_neighbors=7))


def test_metrics_on_tied_data_ignore_rounding_noise():
    """Binary data tie massively; noise at the level of rounding (what another BLAS
    kernel would add) must not change a neighbour, hence not a score."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(150, 8)).astype(float)
    y = X[:, 0] + X[:, 1]
    Z = X[:, :3] @ rng.normal(size=(3, 2))
    noisy = X + rng.normal(scale=1e-14, size=X.shape)
    assert knn_accuracy(noisy, y) == knn_accuracy(X, y)
    assert neighbourhood_scores(noisy, Z) == neighbourhood_scores(X, Z)


def test_knn_accuracy_ignores_the_order_of_the_rows_of_tied_data():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(150, 6)).astype(float)  # 64 patterns: duplicates galore
    y = (X[:, 0] + X[:, 1] + rng.random(150) > 1.5).astype(int)
    accuracy = knn_accuracy(X, y)
    for _ in range(3):
        perm = rng.permutation(150)
        assert knn_accuracy(X[perm], y[perm]) == accuracy


def test_knn_vote_lets_every_tie_at_the_kth_distance_vote():
    X = np.array([[1.0], [-1.0], [1.0], [5.0]])
    codes = np.array([1, 0, 1, 0])
    # query 0: three points at distance 1 tie for the first place: codes 1, 0, 1 vote -> 1
    assert knn_vote(X, codes, np.array([[0.0]]), 1).tolist() == [1]
    # leave-one-out: point 1's two nearest tie at distance 2 (codes 1, 1)
    assert knn_vote(X, codes, n_neighbors=1).tolist() == [1, 1, 1, 1]
    # a tied vote goes to the smallest code
    assert knn_vote(X[:2], codes[:2], np.array([[0.0]]), 1).tolist() == [0]


def test_neighbour_order_breaks_ties_by_index():
    from dimred.utils.ranks import neighbour_order, neighbour_ranks

    X = np.array([[0.0], [1.0], [-1.0], [1.0], [3.0]])
    np.testing.assert_array_equal(neighbour_order(X)[0], [1, 2, 3, 4])
    np.testing.assert_array_equal(neighbour_order(X, np.array([[2.0]]))[0], [1, 3, 4, 0, 2])
    ranks = neighbour_ranks(X)
    assert np.all(np.diag(ranks) == 0) and sorted(ranks[0, 1:]) == [1, 2, 3, 4]


def full_rank_trustworthiness(X, Z, k):
    """Trustworthiness from the full ranking of ``X`` and the neighbour order of ``Z`` (the
    formula the module applied before it counted the ranks of the k nearest only)."""
    n = len(X)
    excess = np.take_along_axis(lexsorted_ranks(X), lexsorted_order(Z)[:, :k], axis=1) - k
    return float(1.0 - 2.0 / (n * k * (2.0 * n - 3.0 * k - 1.0)) * excess[excess > 0].sum())


@pytest.mark.parametrize("seed", [0, 1])
def test_trustworthiness_and_continuity_equal_the_full_rank_formula(seed):
    cases = ranking_cases(seed)
    del cases["one point"]  # no neighbourhood to measure: refused (below)
    rng = np.random.default_rng(seed)
    maps = [rng.normal(size=(60, 2)), rng.integers(0, 4, size=(60, 2)).astype(float)]
    for name, X in cases.items():
        with pytest.raises(ValueError, match="no variance"):
            neighbourhood_scores(X, np.zeros((60, 2)), 5)
        for Z in maps:
            for k in (1, 5, 12, 40):
                expected = full_rank_trustworthiness(X, Z, k), full_rank_trustworthiness(Z, X, k)
                assert trustworthiness(X, Z, k) == expected[0], (name, k)
                assert continuity(X, Z, k) == expected[1], (name, k)
                scores = neighbourhood_scores(X, Z, k)
                assert (scores["trustworthiness"], scores["continuity"]) == expected, (name, k)


def test_neighbourhood_scores_of_a_few_thousand_tied_points():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 4, size=(2000, 3)).astype(float)
    X[1::2] += rng.normal(scale=0.2, size=(1000, 3))
    Z = X[:, :2] + rng.integers(0, 2, size=(2000, 2))
    scores = neighbourhood_scores(X, Z, 5)
    assert scores["trustworthiness"] == full_rank_trustworthiness(X, Z, 5)
    assert scores["continuity"] == full_rank_trustworthiness(Z, X, 5)


@pytest.mark.parametrize(
    "measure",
    [
        lambda X, Z, y: knn_accuracy(Z, y),
        lambda X, Z, y: trustworthiness(X, Z, n_neighbors=4),
        lambda X, Z, y: continuity(X, Z, n_neighbors=4),
        lambda X, Z, y: neighbourhood_scores(X, Z, n_neighbors=4),
        lambda X, Z, y: within_class_share(Z, y),
        lambda X, Z, y: order_correlation(Z, y),
        lambda X, Z, y: adjacent_centres_nearer(Z, y),
    ],
)
def test_a_one_dimensional_embedding_is_one_column(measure):
    # Before: IndexError ("tuple index out of range"), while coranking_quality took it.
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2, 3], 10)
    X = rng.normal(size=(40, 3)) + y[:, None]
    z = X @ np.array([1.0, 0.5, -0.2])
    assert measure(X, z, y) == measure(X, z[:, None], y)
