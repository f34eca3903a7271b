"""Fisher t-SNE: the Parzen posterior, its Fisher metric, path distances (reference and
fast), the estimator and scikit-learn's checks."""

from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.manifold import TSNE
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred.manifold import (
    FisherTSNE,
    fisher_compiled,
    fisher_distances,
    fisher_information,
    fisher_metric,
    fisher_neighbors,
    fisher_path_lengths,
    fisher_paths,
    log_posterior_gradient,
    parzen_posterior,
    parzen_width,
)


def blobs(seed=0, per_class=15, n_features=4, n_classes=3, spread=1.0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    centres = rng.normal(scale=spread, size=(n_classes, n_features))
    return centres[y] + 0.6 * rng.normal(size=(y.size, n_features)), y


def direct_posterior(z, X, y, sigma):
    """p(c|z) from its definition, one point at a time, no log-domain shifts."""
    w = np.array([np.exp(-np.sum((z - x) ** 2) / (2 * sigma**2)) for x in X])
    return np.array([w[y == c].sum() for c in np.unique(y)]) / w.sum()


def numerical_scores(z, X, y, sigma, h=1e-5):
    """Central differences of log p(c|z), shape (C, d)."""
    columns = []
    for k in range(z.size):
        e = np.zeros_like(z)
        e[k] = h
        up, down = direct_posterior(z + e, X, y, sigma), direct_posterior(z - e, X, y, sigma)
        columns.append((np.log(up) - np.log(down)) / (2 * h))
    return np.array(columns).T


# ------------------------------------------------------------------------- the Parzen model
def test_parzen_posterior_sums_to_one_and_matches_its_definition():
    X, y = blobs(1)
    Z = np.random.default_rng(2).normal(size=(7, 4))
    p = parzen_posterior(Z, X, y, sigma=0.9)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)
    expected = np.array([direct_posterior(z, X, y, 0.9) for z in Z])
    np.testing.assert_allclose(p, expected, rtol=1e-10)


def test_posterior_survives_underflow_of_every_weight():
    # 40 sigma from the data every exp() underflows; the log-domain sums do not.
    X, y = blobs(1)
    far = X[:1] + 40.0
    p = parzen_posterior(far, X, y, sigma=0.05)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert np.all(np.isfinite(log_posterior_gradient(far, X, y, sigma=0.05)))


def test_score_matches_finite_differences_and_has_weighted_mean_zero():
    X, y = blobs(3)
    z = X.mean(axis=0) + 0.1
    g = log_posterior_gradient(z[None], X, y, sigma=0.8)[0]
    np.testing.assert_allclose(g, numerical_scores(z, X, y, 0.8), rtol=1e-6, atol=1e-8)
    p = parzen_posterior(z[None], X, y, sigma=0.8)[0]
    np.testing.assert_allclose(p @ g, 0.0, atol=1e-12 * np.abs(g).max())


def test_fisher_information_is_psd_of_rank_below_classes_and_the_score_covariance():
    X, y = blobs(4, n_features=6)  # 3 classes in 6 dimensions
    z = X[:2].mean(axis=0)
    J = fisher_information(z[None], X, y, sigma=0.8)[0]
    values = np.linalg.eigvalsh(J)
    assert values.min() > -1e-12 * values.max()
    assert np.sum(values > 1e-10 * values.max()) <= 2  # C - 1
    p, g = direct_posterior(z, X, y, 0.8), numerical_scores(z, X, y, 0.8)
    outer = sum(p[c] * np.outer(g[c], g[c]) for c in range(3))
    np.testing.assert_allclose(J, outer, rtol=1e-5, atol=1e-9 * np.abs(J).max())


def test_fisher_information_is_the_expected_negative_hessian():
    # sum_c p_c grad^2 log p_c = -J because sum_c grad^2 p_c = 0: an identity of
    # second derivatives, checked by differencing the scores.
    X, y = blobs(5)
    z, h = X[3] + 0.2, 1e-5
    p = parzen_posterior(z[None], X, y, sigma=0.7)[0]
    hessians = []
    for k in range(z.size):
        e = np.zeros_like(z)
        e[k] = h
        up = log_posterior_gradient((z + e)[None], X, y, 0.7)[0]
        down = log_posterior_gradient((z - e)[None], X, y, 0.7)[0]
        hessians.append((up - down) / (2 * h))
    hessian = np.stack(hessians, axis=2)  # (C, d, d)
    J = fisher_information(z[None], X, y, 0.7)[0]
    np.testing.assert_allclose(-np.einsum("c,cij->ij", p, hessian), J, rtol=1e-5, atol=1e-8)


def test_parzen_width_maximises_the_leave_one_out_likelihood_and_is_scale_equivariant():
    X, y = blobs(6, per_class=10)
    factors = 2.0 ** np.arange(-3.0, 2.5, 0.5)
    sigma = parzen_width(X, y, factors)

    def loo(s):
        return sum(
            np.log(direct_posterior(X[i], np.delete(X, i, 0), np.delete(y, i), s)[y[i]])
            for i in range(y.size)
        )

    nearest = [np.sort(np.linalg.norm(X - x, axis=1))[1] for x in X]
    grid = factors * np.median(nearest)
    assert sigma == pytest.approx(grid[np.argmax([loo(s) for s in grid])])
    assert parzen_width(7.0 * X, y, factors) == pytest.approx(7.0 * sigma)


def test_duplicating_every_point_changes_no_parzen_width():
    # A duplicate is the held-out point itself: it neither sets the scale (before, a
    # false "all points of X are equal") nor predicts its twin's label.
    X, y = blobs(6, per_class=10)
    twice = np.vstack([X, X]), np.concatenate([y, y])
    assert parzen_width(*twice) == pytest.approx(parzen_width(X, y), rel=1e-12)


def test_the_parzen_scale_is_the_median_distance_to_the_nearest_distinct_point():
    # Every point but the first duplicated: the scale is not the first one's alone.
    X, y = blobs(6, per_class=10)
    X, y = np.vstack([X, X[1:]]), np.concatenate([y, y[1:]])
    distances = np.linalg.norm(X[:, None] - X[None], axis=2)
    expected = np.median(np.where(distances > 0, distances, np.inf).min(axis=1))
    assert parzen_width(X, y, factors=[1.0]) == pytest.approx(expected, rel=1e-12)


def test_only_equal_points_have_no_parzen_width():
    with pytest.raises(ValueError, match="all 6 points of X are equal"):
        parzen_width(np.full((6, 2), 1.5), [0, 0, 0, 1, 1, 1])


def test_fisher_tsne_embeds_data_in_which_every_point_is_duplicated():
    X, y = blobs(6, per_class=10)
    twice, labels = np.vstack([X, X]), np.concatenate([y, y])
    model = FisherTSNE(perplexity=5, max_iter=250, random_state=0).fit(twice, labels)
    assert model.sigma_ == pytest.approx(parzen_width(X, y), rel=1e-12)
    assert np.all(np.isfinite(model.embedding_))


# -------------------------------------------------------------------------- path distances
def test_path_length_is_symmetric_zero_for_equal_points_and_one_step_is_the_local_norm():
    X, y = blobs(7)
    A, B = X[:6], X[-6:][::-1]
    forth = fisher_path_lengths(A, B, X, y, 0.8)
    np.testing.assert_allclose(fisher_path_lengths(B, A, X, y, 0.8), forth, rtol=1e-12)
    np.testing.assert_array_equal(fisher_path_lengths(A, A, X, y, 0.8), 0.0)
    v = B - A
    for rule, where in (("midpoint", (A + B) / 2), ("left", A)):
        J = fisher_information(where, X, y, 0.8)
        local = np.sqrt(np.einsum("pi,pij,pj->p", v, J, v))
        one = fisher_path_lengths(A, B, X, y, 0.8, n_steps=1, rule=rule)
        np.testing.assert_allclose(one, local, rtol=1e-10)


def test_path_length_adds_over_halves_and_rules_converge_to_one_integral():
    X, y = blobs(8)
    a, b = X[:1], X[-1:]
    middle = (a + b) / 2
    whole = fisher_path_lengths(a, b, X, y, 0.8, n_steps=8)
    halves = fisher_path_lengths(a, middle, X, y, 0.8, 4) + fisher_path_lengths(
        middle, b, X, y, 0.8, 4
    )
    np.testing.assert_allclose(whole, halves, rtol=1e-12)
    integral = fisher_path_lengths(a, b, X, y, 0.8, n_steps=4000)[0]
    errors = {
        (rule, T): abs(fisher_path_lengths(a, b, X, y, 0.8, T, rule)[0] - integral)
        for rule in ("midpoint", "left")
        for T in (20, 80)
    }
    assert errors["midpoint", 80] < errors["midpoint", 20] / 8  # second order
    assert errors["left", 80] < errors["left", 20] / 2.5  # first order
    assert errors["midpoint", 80] < errors["left", 80]


def test_path_length_is_at_least_the_fisher_rao_distance_of_the_end_posteriors():
    # Along the path the metric is the Fisher-Rao metric of p(.|z): the length is
    # at least the geodesic distance 2 arccos sum_c sqrt(p_c(a) p_c(b)).
    X, y = blobs(9)
    A, B = X[::5], X[3::5]
    pa, pb = parzen_posterior(A, X, y, 0.8), parzen_posterior(B, X, y, 0.8)
    bound = 2 * np.arccos(np.clip(np.sum(np.sqrt(pa * pb), axis=1), -1, 1))
    lengths = fisher_path_lengths(A, B, X, y, 0.8, n_steps=400)
    assert np.all(lengths >= bound * (1 - 1e-3))


def test_fisher_distances_separate_classes_much_more_than_euclidean():
    rng = np.random.default_rng(10)
    y = np.repeat([0, 1], 20)
    X = rng.normal(size=(40, 3)) + 4.0 * y[:, None]
    same, diagonal = y[:, None] == y[None], np.eye(40, dtype=bool)

    def ratio(D):
        return D[~same].mean() / D[same & ~diagonal].mean()

    euclidean = np.linalg.norm(X[:, None] - X[None], axis=2)
    fisher = fisher_distances(X, y, n_steps=10)
    assert ratio(fisher) > 10 * ratio(euclidean)


@pytest.mark.parametrize("rule", ["midpoint", "left"])
def test_fast_neighbours_equal_the_reference(rule):
    X, y = blobs(11, per_class=14)
    n, k = y.size, 6
    exact = fisher_distances(X, y, 0.8, n_steps=5, rule=rule)
    for n_candidates in (k, n - 1):
        graph = fisher_neighbors(
            X, y, k, sigma=0.8, n_steps=5, rule=rule, n_candidates=n_candidates
        )
        assert sp.isspmatrix_csr(graph) and np.all(np.diff(graph.indptr) == k + 1)
        rows = np.repeat(np.arange(n), k + 1)
        np.testing.assert_array_equal(graph.indices[:: k + 1], np.arange(n))  # itself first
        np.testing.assert_allclose(graph.data, exact[rows, graph.indices], rtol=1e-10, atol=1e-14)
        assert np.all(np.diff(graph.data.reshape(n, k + 1), axis=1) >= 0)
    # every pair a candidate (the last graph): the exact k nearest, up to rounding in ties
    others = exact + np.diag(np.full(n, np.inf))
    kth = np.sort(others, axis=1)[:, k - 1]
    chosen = graph.indices.reshape(n, k + 1)[:, 1:]
    assert np.all(np.take_along_axis(others, chosen, axis=1) <= kth[:, None] * (1 + 1e-9))


@pytest.mark.parametrize("n_steps", [5, 10])
def test_path_lengths_do_not_depend_on_the_block_size(monkeypatch, n_steps):
    """Blocks of 1, 2 or 3 pairs, or all of them in one block, give every pair the same
    length, bit for bit (one machine's determinism): the mean over the steps is NumPy's
    mean to rounding, and a single pair's is its column of the block's mean."""
    X, y = blobs(5, per_class=12, n_features=6)
    rows, cols = np.triu_indices(y.size, 1)
    squared = fisher_metric.squared_distance_matrix(X)
    fractions = fisher_paths.path_fractions(n_steps, "midpoint")

    def lengths(pairs_per_block):
        floats = pairs_per_block * fractions.size * y.size
        monkeypatch.setattr(fisher_paths, "_PATH_BLOCK", floats)
        return fisher_paths._path_lengths(
            squared, y, 3, 0.7, fractions, rows, cols, None, compiled=False
        )

    whole = lengths(rows.size)
    for pairs_per_block in (1, 2, 3):
        assert lengths(pairs_per_block).tobytes() == whole.tobytes()
    rng = np.random.default_rng(0)
    values = rng.random((n_steps, 7)) * 10.0 ** rng.integers(-6, 6, (n_steps, 7))
    mean = fisher_paths._mean_over_steps(values)
    np.testing.assert_allclose(mean, values.mean(axis=0), rtol=1e-14)
    for pair in range(7):
        column = fisher_paths._mean_over_steps(values[:, pair : pair + 1])
        assert column.tobytes() == mean[pair : pair + 1].tobytes()


def _pairs_case(sizes, seed):
    """Points of classes of the given sizes, their squared distances and some pairs
    (each point with itself among them)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(len(sizes)), sizes)
    X = rng.normal(size=(len(sizes), 5))[y] + 0.8 * rng.normal(size=(y.size, 5))
    rows = np.concatenate([rng.integers(0, y.size, 40), [0, 1]])
    cols = np.concatenate([rng.integers(0, y.size, 40), [0, 1]])
    return fisher_metric.squared_distance_matrix(X), y, rows, cols


#: The compiled path lengths against NumPy's passes: both round, in their own order of
#: summation (CONTRIBUTING.md, "One standard of equality"). Their differences are about
#: 1e-15 relative; 1e-10 leaves five orders of margin and is far below any printed digit.
RTOL = 1e-10


@pytest.mark.parametrize(
    ("sizes", "n_steps", "rule"),
    [((20, 25), 10, "midpoint"), ((1, 30, 17), 4, "left"), ((300, 40), 1, "midpoint"),
     ((12,) * 10, 10, "midpoint"), ((7, 249, 130), 3, "left")],
)  # fmt: skip
def test_compiled_path_lengths_agree_with_numpys(monkeypatch, sizes, n_steps, rule):
    """:mod:`~dimred.manifold.fisher_compiled` gives the lengths of ``_block_lengths``
    to :data:`RTOL`, zero-length paths exactly 0: 2, 3 and 10 classes, a class of one
    point, classes of hundreds of points, one to ten path points, both rules; in chunks
    of one pair, in tasks of five pairs on two threads, and all at once (the same
    floats whatever the chunks: each pair's length is its own loop)."""
    squared, y, rows, cols = _pairs_case(sizes, len(sizes))
    fractions = fisher_paths.path_fractions(n_steps, rule)
    args = (squared, y, len(sizes), 0.9, fractions, rows, cols)
    numpy_ = fisher_paths._path_lengths(*args, None, compiled=False)
    ours = fisher_paths._path_lengths(*args, None)
    np.testing.assert_allclose(ours, numpy_, rtol=RTOL, atol=0)
    np.testing.assert_array_equal(ours[rows == cols], 0.0)
    monkeypatch.setattr(fisher_compiled, "CHUNK_FLOATS", 1)
    monkeypatch.setattr(fisher_paths, "_COMPILED_PAIRS", 5)
    assert fisher_paths._path_lengths(*args, 2).tobytes() == ours.tobytes()


def test_compiled_graph_and_embedding_agree_with_numpys(monkeypatch):
    """End to end: the Fisher neighbour graph with the compiled path lengths has NumPy's
    neighbours in NumPy's order and its lengths to :data:`RTOL`, and Fisher t-SNE
    embeds the data alike (to 1e-6 of the embedding's extent)."""
    X, y = blobs(3, per_class=30, n_features=6)
    ours_graph = fisher_neighbors(X, y, 10)
    ours = FisherTSNE(perplexity=10, max_iter=400, random_state=0).fit_transform(X, y)
    numpy_lengths = partial(fisher_paths._path_lengths, compiled=False)
    monkeypatch.setattr(fisher_paths, "_path_lengths", numpy_lengths)
    numpy_graph = fisher_neighbors(X, y, 10)
    numpy_ = FisherTSNE(perplexity=10, max_iter=400, random_state=0).fit_transform(X, y)
    np.testing.assert_array_equal(ours_graph.indices, numpy_graph.indices)
    np.testing.assert_allclose(ours_graph.data, numpy_graph.data, rtol=RTOL, atol=0)
    np.testing.assert_allclose(ours, numpy_, rtol=0, atol=1e-6 * np.abs(numpy_).max())


def test_validation_errors():
    X, y = blobs(12)
    with pytest.raises(ValueError, match="n_steps"):
        fisher_path_lengths(X[:2], X[2:4], X, y, 0.5, n_steps=0)
    with pytest.raises(ValueError, match="rule"):
        fisher_distances(X, y, 0.5, rule="right")
    with pytest.raises(ValueError, match="sigma"):
        parzen_posterior(X, X, y, sigma=-1.0)
    with pytest.raises(ValueError, match="2 classes"):
        parzen_width(X, np.zeros(y.size))
    with pytest.raises(ValueError, match="n_neighbors"):
        fisher_neighbors(X, y, y.size)
    with pytest.raises(ValueError, match="features"):
        parzen_posterior(X[:, :2], X, y, 0.5)


# ------------------------------------------------------------------------------ estimator
def hidden_classes(seed=0, per_class=50):
    """Three classes told apart by one low-variance feature among nine noisy ones."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(3), per_class)
    X = rng.normal(scale=1.5, size=(y.size, 10))
    X[:, 0] = 1.2 * y + 0.25 * rng.normal(size=y.size)
    return X, y


def one_nn_error(E, y):
    D = np.linalg.norm(E[:, None] - E[None], axis=2) + np.diag(np.full(len(E), np.inf))
    return np.mean(y[D.argmin(axis=1)] != y)


def test_fisher_tsne_separates_classes_that_tsne_mixes():
    X, y = hidden_classes()
    fisher = FisherTSNE(perplexity=15, random_state=0).fit_transform(X, y)
    plain = TSNE(perplexity=15, init="random", random_state=0).fit_transform(X)
    assert one_nn_error(X, y) > 0.3 and one_nn_error(plain, y) > 0.3
    assert one_nn_error(fisher, y) < 0.05


@pytest.mark.parametrize("method", ["barnes_hut", "exact"])
def test_fisher_tsne_is_deterministic_and_keeps_its_distances(method):
    X, y = hidden_classes(1, per_class=15)
    model = FisherTSNE(perplexity=5, method=method, max_iter=300, random_state=3)
    first = model.fit_transform(X, y)
    np.testing.assert_array_equal(FisherTSNE(**model.get_params()).fit_transform(X, y), first)
    assert model.sigma_ == parzen_width(X, y)
    expected = fisher_distances(X, y, model.sigma_)
    if method == "exact":
        np.testing.assert_array_equal(model.distances_, expected)
    else:
        graph = model.distances_.tocoo()
        np.testing.assert_allclose(graph.data, expected[graph.row, graph.col], atol=1e-12)
    assert model.embedding_.shape == (45, 2) and np.isfinite(model.kl_divergence_)


def test_fisher_tsne_parameter_errors():
    X, y = hidden_classes(2, per_class=5)
    for params, match in [
        ({"method": "fast"}, "method"),
        ({"rule": "right"}, "rule"),
        ({"n_steps": 0}, "n_steps"),
        ({"perplexity": 15}, "perplexity"),
        ({"sigma": 0.0}, "sigma"),
    ]:
        with pytest.raises(ValueError, match=match):
            FisherTSNE(**{"perplexity": 2, **params}).fit(X, y)
    with pytest.raises(ValueError, match="2 classes"):
        FisherTSNE(perplexity=2).fit(X, np.zeros(15))


@parametrize_with_checks(
    [
        FisherTSNE(perplexity=2, n_steps=3, max_iter=250, random_state=0),
        FisherTSNE(perplexity=2, n_steps=3, max_iter=250, method="exact", random_state=0),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
