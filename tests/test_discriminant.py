"""LSDA and KDA: their eigen-equations, graphs, invariances and estimator checks."""

import numpy as np
import pytest
from scipy.stats import ortho_group
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred.projection.discriminant import (
    KernelDiscriminantAnalysis,
    LocalitySensitiveDiscriminantAnalysis,
)
from dimred.utils.graphs import knn_graph, split_by_label


def classes(seed=0, n_features=5, per_class=25, n_classes=3):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    centres = rng.normal(scale=3, size=(n_classes, n_features))
    return centres[y] + rng.normal(size=(y.size, n_features)), y


def brute_force_graph(X, k):
    """Symmetric k-NN graph from the full distance matrix (independent of the library)."""
    d = ((X[:, None] - X[None]) ** 2).sum(-1)
    np.fill_diagonal(d, np.inf)
    W = np.zeros_like(d)
    for i, row in enumerate(d):
        W[i, np.argsort(row)[:k]] = 1
    return np.maximum(W, W.T)


def test_knn_graph_matches_brute_force_and_splits_by_label():
    X, y = classes(1)
    graph = knn_graph(X, 4)
    np.testing.assert_array_equal(graph.toarray(), brute_force_graph(X, 4))
    within, between = split_by_label(graph, y)
    same = y[:, None] == y[None]
    np.testing.assert_array_equal(within.toarray(), graph.toarray() * same)
    np.testing.assert_array_equal(between.toarray(), graph.toarray() * ~same)
    with pytest.raises(ValueError, match="n_neighbors"):
        knn_graph(X, len(X))


def test_lsda_solves_its_generalized_eigenproblem():
    X, y = classes(2)
    lsda = LocalitySensitiveDiscriminantAnalysis(n_components=2, n_neighbors=6, alpha=0.3).fit(X, y)
    W = brute_force_graph(X, 6)
    same = y[:, None] == y[None]
    Ww, Wb = W * same, W * ~same
    Lb = np.diag(Wb.sum(1)) - Wb
    Xc = X - X.mean(0)
    A = Xc.T @ (0.3 * Lb + 0.7 * Ww) @ Xc
    B = Xc.T @ np.diag(Ww.sum(1)) @ Xc
    for value, a in zip(lsda.eigenvalues_, lsda.components_, strict=True):
        np.testing.assert_allclose(A @ a, value * (B @ a), atol=1e-6 * np.abs(A).max())
    assert lsda.eigenvalues_[0] >= lsda.eigenvalues_[1]


def test_lsda_embedding_invariant_to_rotation_and_translation_up_to_sign():
    X, y = classes(3)
    base = LocalitySensitiveDiscriminantAnalysis(2).fit_transform(X, y)
    R = ortho_group.rvs(X.shape[1], random_state=0)
    moved = LocalitySensitiveDiscriminantAnalysis(2).fit_transform(X @ R + 5, y)
    np.testing.assert_allclose(np.abs(moved), np.abs(base), atol=1e-6)


def test_kda_solves_its_generalized_eigenproblem_with_eigenvalues_in_unit_interval():
    X, y = classes(4)
    kda = KernelDiscriminantAnalysis(n_components=2, gamma=0.1, alpha=0.1).fit(X, y)
    n = len(y)
    H = np.eye(n) - 1 / n
    K = H @ rbf_kernel(X, gamma=0.1) @ H
    W = (y[:, None] == y[None]) / np.bincount(y)[y][:, None]
    A, B = K @ W @ K, K @ K + 0.1 * np.eye(n)
    for value, beta in zip(kda.eigenvalues_, kda.dual_coef_.T, strict=True):
        np.testing.assert_allclose(A @ beta, value * (B @ beta), atol=1e-8)
    assert ((kda.eigenvalues_ >= 0) & (kda.eigenvalues_ < 1)).all()
    np.testing.assert_allclose(kda.transform(X), K @ kda.dual_coef_, atol=1e-10)


def test_kda_separates_classes():
    X, y = classes(5)
    Z = KernelDiscriminantAnalysis(2).fit_transform(X, y)
    centres = np.array([Z[y == c].mean(0) for c in range(3)])
    spread = max(np.linalg.norm(Z[y == c] - centres[c], axis=1).mean() for c in range(3))
    gap = min(np.linalg.norm(centres[a] - centres[b]) for a in range(3) for b in range(a))
    assert gap > 3 * spread


@pytest.mark.parametrize(
    ("estimator", "message"),
    [
        (KernelDiscriminantAnalysis(n_components=3), "n_classes - 1"),
        (KernelDiscriminantAnalysis(alpha=0), "alpha"),
        (LocalitySensitiveDiscriminantAnalysis(alpha=2), "alpha"),
        (LocalitySensitiveDiscriminantAnalysis(n_components=9), "rank"),
        (LocalitySensitiveDiscriminantAnalysis(n_neighbors=75), "n_neighbors"),
    ],
)
def test_clear_errors(estimator, message):
    X, y = classes(6)
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


@parametrize_with_checks(
    [
        LocalitySensitiveDiscriminantAnalysis(n_components=1, n_neighbors=3),
        KernelDiscriminantAnalysis(n_components=1),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
