"""LSDA and KDA: their eigen-equations, graphs, invariances and estimator checks."""

import numpy as np
import pytest
from scipy.linalg import eigh
from scipy.stats import ortho_group
from sklearn.base import clone
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred.projection.discriminant import (
    KernelDiscriminantAnalysis,
    LocalitySensitiveDiscriminantAnalysis,
)
from dimred.utils.graphs import knn_graph, split_by_label
from dimred.utils.linalg import stable_signs


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


def test_lsda_leaves_out_self_loops():
    # Cai's LSDA.m counts each point among its own k + 1 nearest: W_w + I and D_w + I,
    # i.e. (1 - alpha) X^T X added on the left and X^T X on the right. The estimator
    # follows the paper (no self-loops): it solves the first equation, not the second.
    X, y = classes(2, n_features=12, per_class=15)
    X = X + 2 * np.random.default_rng(0).normal(size=X.shape)  # overlapping classes
    lsda = LocalitySensitiveDiscriminantAnalysis(n_components=1, n_neighbors=6, alpha=0.3)
    a = lsda.fit(X, y).components_[0]
    W = brute_force_graph(X, 6)
    same = y[:, None] == y[None]
    Ww, Wb = W * same, W * ~same
    Xc = X - X.mean(0)
    A = Xc.T @ (0.3 * (np.diag(Wb.sum(1)) - Wb) + 0.7 * Ww) @ Xc
    B = Xc.T @ np.diag(Ww.sum(1)) @ Xc
    A_loops, B_loops = A + 0.7 * Xc.T @ Xc, B + Xc.T @ Xc
    with_loops = eigh(A_loops, B_loops)[1][:, -1]
    without = eigh(A, B)[1][:, -1]
    assert abs(a @ without) / np.linalg.norm(a) / np.linalg.norm(without) > 1 - 1e-9
    angle = np.arccos(abs(a @ with_loops) / np.linalg.norm(a) / np.linalg.norm(with_loops))
    assert angle > 1e-3  # the convention is visible here (0.007 rad; up to 1.5 rad on
    # squash-stored, 52 samples in 51 dimensions: see the LSDA docstring)


def test_lsda_components_have_stable_signs_in_input_space():
    X, y = classes(3)
    make = lambda: LocalitySensitiveDiscriminantAnalysis(2)  # noqa: E731
    base = make().fit(X, y)
    np.testing.assert_array_equal(make().fit(X, y).components_, base.components_)
    assert np.all(base.components_[range(2), np.argmax(np.abs(base.components_), 1)] > 0)
    scale = np.abs(base.components_).max()
    # Permuted features: the components permute with them, signs included.
    cols = np.random.default_rng(0).permutation(X.shape[1])
    moved = make().fit(X[:, cols] + 5, y)
    np.testing.assert_allclose(moved.components_, base.components_[:, cols], atol=1e-9 * scale)
    # A rotated basis: the components rotate, with the sign rule applied to the rotated ones.
    R = ortho_group.rvs(X.shape[1], random_state=0)
    rotated = make().fit(X @ R, y)
    expected = stable_signs(R.T @ base.components_.T).T
    np.testing.assert_allclose(rotated.components_, expected, atol=1e-8 * scale)
    Z = base.transform(X)
    signs = np.sign(np.sum(rotated.transform(X @ R) * Z, axis=0))
    np.testing.assert_allclose(rotated.transform(X @ R), Z * signs, atol=1e-8 * np.abs(Z).max())


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
        (KernelDiscriminantAnalysis(n_components=0), "n_components"),
        (KernelDiscriminantAnalysis(alpha=0), "alpha"),
        (KernelDiscriminantAnalysis(gamma=0.0), "gamma"),
        (LocalitySensitiveDiscriminantAnalysis(alpha=2), "alpha"),
        (LocalitySensitiveDiscriminantAnalysis(ridge=-1.0), "ridge"),
        (LocalitySensitiveDiscriminantAnalysis(n_components=2.0), "n_components"),
        (LocalitySensitiveDiscriminantAnalysis(n_neighbors=0), "n_neighbors"),
    ],
)
def test_clear_errors(estimator, message):
    X, y = classes(6)
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


@pytest.mark.parametrize(
    ("estimator", "data", "attribute", "value"),
    [
        (KernelDiscriminantAnalysis(n_components=3), {}, "n_components_", 2),
        (KernelDiscriminantAnalysis(), {"n_classes": 2}, "n_components_", 1),
        (LocalitySensitiveDiscriminantAnalysis(n_components=9), {}, "n_components_", 5),
        (LocalitySensitiveDiscriminantAnalysis(n_neighbors=75), {}, "n_neighbors_", 74),
    ],
)
def test_what_the_data_cannot_supply_is_clipped_with_a_warning(estimator, data, attribute, value):
    X, y = classes(6, **data)
    with pytest.warns(UserWarning, match=f"{attribute} = {value}"):
        estimator.fit(X, y)
    assert getattr(estimator, attribute) == value
    if attribute == "n_components_":
        assert estimator.transform(X).shape == (len(X), value)
        assert len(estimator.get_feature_names_out()) == value
        exact = clone(estimator).set_params(n_components=value).fit(X, y)
        np.testing.assert_array_equal(estimator.transform(X), exact.transform(X))


@pytest.mark.parametrize(
    "make", [LocalitySensitiveDiscriminantAnalysis, KernelDiscriminantAnalysis]
)
def test_degenerate_data_raise_clear_errors(make):
    X, y = classes(7)
    with pytest.raises(ValueError, match="X has no variance"):  # KDA: zero embedding before
        make(n_components=1).fit(np.ones_like(X), y)
    with pytest.raises(ValueError, match="rescale X"):  # a reshape error / "contains NaN"
        make(n_components=1).fit(X * 1e200, y)
    with pytest.raises(ValueError, match="at least 2 classes; got 1 class"):
        make(n_components=1).fit(X, np.zeros_like(y))


@parametrize_with_checks(
    [
        LocalitySensitiveDiscriminantAnalysis(n_components=1, n_neighbors=3),
        KernelDiscriminantAnalysis(n_components=1),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
