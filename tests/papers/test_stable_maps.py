"""PCA, SMACOF and t-SNE maps whose numbers do not depend on the BLAS kernel."""

import numpy as np
import pytest
from conftest import factorial_design
from scipy.spatial.distance import pdist, squareform
from sklearn.decomposition import PCA
from sklearn.manifold import MDS, TSNE

from dimred.utils.linalg import principal_axes
from papers.stable_maps import (
    exact_tsne,
    on_common_grid,
    on_grid,
    pca_map,
    smacof_map,
    tsne_map,
)


def _blobs(n=120, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 5)) * [3.0, 2.0, 1.0, 0.5, 0.2]


def test_pca_map_is_pca_where_the_variances_are_distinct():
    X = _blobs()
    ours, theirs = pca_map(X), PCA(2, svd_solver="full").fit_transform(X)
    np.testing.assert_allclose(np.abs(ours), np.abs(theirs), atol=1e-10)


def test_a_repeated_variance_gets_the_same_basis_whatever_the_rounding():
    X = factorial_design([3, 3, 3])
    variances, axes = principal_axes(X, 2, random_state=0)
    assert variances[0] == pytest.approx(variances[1])  # three 3-level blocks: 6 times
    # another summation order (the rows permuted) and a 1e-15 perturbation split the
    # tie differently in LAPACK, not here
    order = np.random.default_rng(1).permutation(len(X))
    noisy = X[order] * (1 + 1e-15 * np.random.default_rng(2).normal(size=X.shape))
    np.testing.assert_allclose(principal_axes(noisy, 2, random_state=0)[1], axes, atol=1e-9)
    # without a seed the basis follows the input axes: the first vector is the
    # projection of the first input axis on the eigenspace
    _, following = principal_axes(X, 6)
    projector = following @ following.T
    first = projector[:, 0] / np.linalg.norm(projector[:, 0])
    sign = np.sign(first @ following[:, 0])
    np.testing.assert_allclose(following[:, 0], first * sign, atol=1e-12)


def test_t_sne_is_scikit_learns_random_start_t_sne_without_ties():
    """On the points in the order the seed draws (which decides only ties)."""
    X = _blobs()
    order = np.random.default_rng(3).permutation(len(X))
    expected = TSNE(2, perplexity=20.0, init="random", random_state=3).fit_transform(X[order])
    np.testing.assert_array_equal(tsne_map(X, 20.0, 3)[order], expected)


@pytest.mark.parametrize("method", ["exact", "barnes_hut"])
def test_exact_tsne_takes_any_of_scikit_learns_parameters(method):
    """Both methods on the distances from the differences agree with scikit-learn's
    own distances where nothing ties, on the points in the seed's order."""
    X = _blobs(150)
    order = np.random.default_rng(3).permutation(len(X))
    params = {"method": method, "max_iter": 250, "learning_rate": 100.0}
    ours = exact_tsne(X, 20.0, 3, **params)
    model = TSNE(2, perplexity=20.0, init="random", random_state=3, **params)
    theirs = model.fit_transform(X[order])[np.argsort(order)]
    np.testing.assert_allclose(ours, theirs, atol=1e-4 * np.abs(theirs).max())
    # a start given as an array is in the given order
    start = on_grid(pca_map(X)).astype(np.float32)
    ours = exact_tsne(X, 20.0, 3, init=start, **params)
    model = TSNE(2, perplexity=20.0, init=start[order], random_state=3, **params)
    theirs = model.fit_transform(X[order])[np.argsort(order)]
    np.testing.assert_allclose(ours, theirs, atol=1e-4 * np.abs(theirs).max())


def test_parts_on_a_common_grid_are_the_whole_on_its_grid():
    Y = np.random.default_rng(6).normal(size=(40, 3))
    Y[35, 1] = 10.0  # the largest magnitude in the second part
    parts = on_common_grid((Y[:30], Y[30:]))
    np.testing.assert_array_equal(np.vstack(parts), on_grid(Y))
    assert not np.array_equal(parts[0], on_grid(Y[:30]))  # a finer grid of its own


@pytest.mark.slow
def test_t_sne_of_a_full_factorial_design_does_not_collapse():
    """Why not a PCA start: scikit-learn's, on car's design, ends with a spread of 1e-13."""
    X = factorial_design([4, 4, 4, 3, 3, 3])
    collapsed = TSNE(2, init="pca", random_state=0).fit(X)
    assert collapsed.embedding_.std() < 1e-6 and collapsed.kl_divergence_ < 0
    for seed in (0, 3):  # seed 3 collapsed when ties went to the lowest row index
        assert tsne_map(X, 30.0, seed).std(axis=0).min() > 1.0


def test_smacof_and_its_start_do_not_depend_on_the_order_of_the_rows():
    X = factorial_design([3, 3, 3])
    order = np.random.default_rng(4).permutation(len(X))
    back = np.argsort(order)
    np.testing.assert_array_equal(on_grid(pca_map(X[order]))[back], on_grid(pca_map(X)))
    np.testing.assert_allclose(smacof_map(X[order])[back], smacof_map(X), atol=1e-8)


def test_on_grid_rounds_to_a_power_of_two_and_absorbs_rounding_noise():
    Y = np.random.default_rng(5).normal(size=(50, 2))
    snapped = on_grid(Y)
    unit = np.ldexp(1.0, int(np.floor(np.log2(1e-6 * np.abs(Y).max()))))
    np.testing.assert_array_equal(snapped / unit, np.round(snapped / unit))
    assert np.abs(snapped - Y).max() <= unit / 2
    np.testing.assert_array_equal(on_grid(Y * (1 + 1e-15)), snapped)


def test_smacof_from_the_jittered_start_ignores_rounding_noise_on_a_tied_design():
    """From the plain PCA start, whose points stack on a few locations, 1e-15 noise
    (what another BLAS kernel does to SMACOF's products) moves the map by more than 1."""
    X = factorial_design([4, 3, 3])
    noisy = X * (1 + 1e-15 * np.random.default_rng(5).normal(size=X.shape))
    distances = [squareform(pdist(Z)) for Z in (X, noisy)]
    start = on_grid(pca_map(X))
    plain = [MDS(2, n_init=1, metric="precomputed").fit_transform(D, init=start) for D in distances]
    assert np.abs(plain[1] - plain[0]).max() > 0.1
    np.testing.assert_allclose(smacof_map(noisy), smacof_map(X), atol=1e-8)
