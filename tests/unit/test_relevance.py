"""Relevance learning for DR (Schulz, Gisbrecht & Hammer, ESANN 2014): forward/backward
relevance and NeRVRelevance.

References recomputed here independently of the library: Q_k by explicit set
intersection (tests/unit/test_coranking.py), the NeRV objective from dense N x N
probability matrices with per-point widths found by scalar bisection, the
gradient by central finite differences, the candidate neighbours by sorting.
"""

import warnings

import numpy as np
import pytest
from conftest import factorial_design
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks
from test_coranking import brute_force_quality, ranked_others

from dimred.datasets.synthetic import relevance_set1
from dimred.relevance import (
    NeRVRelevance,
    backward_relevance,
    forward_relevance,
)
from dimred.relevance import objective as nerv_objective
from dimred.relevance import pairs as nerv_pairs
from dimred.relevance.objective import MASS_TOL, NeRVObjective
from dimred.relevance.pairs import (
    _entropy,
    _OffDiagonal,
    _Pairs,
    _scatter_without_diagonal,
    _without_diagonal,
    calibrate_precisions,
)
from dimred.relevance.rprop import rprop

# ------------------------------------------------------------------------ helpers


def chance_tolerance(n, k, inflation=2.0, z=4.0):
    """``z`` standard deviations of ``Q_k`` for a random map of ``n`` points.

    Each ``|N_k(x_i) & N_k(y_i)|`` is hypergeometric (mean ``k^2 / (n - 1)``); the
    ``n`` overlaps are weakly dependent, which ``inflation`` allows for (the
    dependence measured in tests/unit/test_coranking.py stays below 1.5 for k << n).
    """
    p = k / (n - 1)
    variance = k * p * (1 - p) * (n - 1 - k) / (n - 2)
    return z * inflation * np.sqrt(variance / (n * k**2))


def set1_with_noise(n_per_cluster=60, n_noise=2, seed=0):
    """set1 plus ``n_noise`` pure-noise dimensions; ``Y`` its true 2-D coordinates."""
    X, _ = relevance_set1(n_per_cluster=n_per_cluster, random_state=seed)
    noise = np.random.default_rng(seed).normal(size=(X.shape[0], n_noise))
    X = np.column_stack([X, noise])
    return X, X[:, :2]


def squared_distances(X, theta=None):
    theta = np.ones(X.shape[1]) if theta is None else theta
    return ((X[:, None, :] - X[None, :, :]) ** 2 * theta).sum(axis=-1)


def bisection_precisions(D2, k):
    """``beta_i`` with ``exp(H(p_{.|i})) = k`` by 200 bisections of ``log beta_i`` per row."""
    out = np.empty(D2.shape[0])
    for i, row in enumerate(D2):
        d = np.delete(row, i)
        lo, hi = -60.0, 60.0
        for _ in range(200):
            mid = (lo + hi) / 2
            a = -np.exp(mid) * (d - d.min())
            p = np.exp(a) / np.exp(a).sum()
            entropy = -np.sum(p[p > 0] * np.log(p[p > 0]))
            lo, hi = (mid, hi) if entropy > np.log(k) else (lo, mid)
        out[i] = np.exp((lo + hi) / 2)
    return out


def conditional_probabilities(D2, beta):
    """Dense ``p_{j|i} = exp(-beta_i d_ij^2) / sum_{l != i} exp(-beta_i d_il^2)``, 0 for j = i."""
    logits = -beta[:, None] * D2
    np.fill_diagonal(logits, -np.inf)
    P = np.exp(logits - logits.max(axis=1, keepdims=True))
    return P / P.sum(axis=1, keepdims=True)


def dense_nerv(X, Y, theta, k, gamma, delta, cost):
    """The paper's ``Q_k^NeRV(X_lambda, Y) + delta sum lambda^2``, widths fixed at lambda = 1."""
    beta_x = bisection_precisions(squared_distances(X), k)
    beta_y = bisection_precisions(squared_distances(Y), k)
    P = conditional_probabilities(squared_distances(X, theta), beta_x)
    Q = conditional_probabilities(squared_distances(Y), beta_y)
    off = ~np.eye(X.shape[0], dtype=bool)
    P, Q = P[off], Q[off]
    value = gamma * np.sum(P * np.log(P / Q)) + (1 - gamma) * np.sum(Q * np.log(Q / P))
    return value / (X.shape[0] if cost == "mean" else 1) + delta * theta.sum(), beta_x, beta_y


# ------------------------------------------------------------ forward / backward


def test_forward_and_backward_relevance_are_q_k_of_the_reduced_data():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(30, 4)).astype(float)  # ties within every feature
    Y = rng.normal(size=(30, 2))
    ks = [1, 4, 9]
    forward, backward = forward_relevance(X, Y, ks), backward_relevance(X, Y, ks)
    assert forward.shape == backward.shape == (3, 4)
    for r, k in enumerate(ks):
        for f in range(4):
            assert forward[r, f] == pytest.approx(brute_force_quality(X[:, [f]], Y, k), abs=1e-15)
            reduced = np.delete(X, f, axis=1)
            assert backward[r, f] == pytest.approx(brute_force_quality(reduced, Y, k), abs=1e-15)
        np.testing.assert_array_equal(forward_relevance(X, Y, k), forward[r])


def test_a_copy_of_a_one_dimensional_projection_has_forward_relevance_one():
    rng = np.random.default_rng(1)
    y = rng.normal(size=80)
    X = np.column_stack([rng.normal(size=80), 2.5 * y + 1.0, rng.normal(size=80)])
    relevance = forward_relevance(X, y, [1, 5, 20])
    np.testing.assert_array_equal(relevance[:, 1], 1.0)
    assert np.all(relevance[:, [0, 2]] < 0.5)


@pytest.mark.parametrize("k", [5, 20])
def test_noise_features_have_the_diagonal_baseline(k):
    # Fig. 2 (middle): an irrelevant feature's forward relevance is k / (N - 1).
    rng = np.random.default_rng(2)
    n = 100
    Y = rng.normal(size=(n, 2))
    X = np.column_stack([Y[:, 0], rng.normal(size=(n, 40))])
    relevance = forward_relevance(X, Y, k)
    noise = relevance[1:]
    standard_error = noise.std(ddof=1) / np.sqrt(noise.size)
    assert abs(noise.mean() - k / (n - 1)) < 4 * standard_error
    assert 4 * standard_error < 0.5 * k / (n - 1)  # the tolerance is informative
    assert relevance[0] > noise.max()  # the copy of Y's first coordinate ranks first


def test_backward_relevance_of_the_only_informative_feature_drops_to_chance():
    rng = np.random.default_rng(3)
    n, k = 200, 10
    y = rng.normal(size=n)
    X = np.column_stack([y, rng.normal(size=(n, 2))])
    relevance = backward_relevance(X, y, k)
    assert abs(relevance[0] - k / (n - 1)) < chance_tolerance(n, k)
    # removing a noise feature keeps the informative one: far above chance
    assert np.all(relevance[1:] > k / (n - 1) + 4 * chance_tolerance(n, k))
    assert forward_relevance(X, y, k)[0] == 1.0


def test_relevance_in_parallel_and_with_progress_is_the_same():
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(50, 5)), rng.normal(size=(50, 2))
    serial = backward_relevance(X, Y, [3, 7])
    np.testing.assert_array_equal(backward_relevance(X, Y, [3, 7], n_jobs=2, progress=True), serial)


def test_relevance_rejects_invalid_input():
    rng = np.random.default_rng(5)
    X, Y = rng.normal(size=(20, 3)), rng.normal(size=(20, 2))
    with pytest.raises(ValueError, match="at least 2 features"):
        backward_relevance(X[:, :1], Y, 3)
    for bad in (0, 20, [3, 25], 2.5, []):
        with pytest.raises(ValueError, match="n_neighbors"):
            forward_relevance(X, Y, bad)


# ------------------------------------------------------------------ NeRV objective


@pytest.mark.parametrize(("gamma", "delta", "cost"), [(0.5, 1.0, "sum"), (0.3, 0.7, "mean")])
def test_objective_is_the_papers_formula(gamma, delta, cost):
    rng = np.random.default_rng(6)
    X, Y = rng.normal(size=(25, 3)), rng.normal(size=(25, 2))
    theta = np.array([0.4, 1.7, 0.0])
    objective = NeRVObjective(X, Y, 5, gamma=gamma, delta=delta, cost=cost)
    expected, beta_x, beta_y = dense_nerv(X, Y, theta, 5, gamma, delta, cost)
    np.testing.assert_allclose(objective.precision_x, beta_x, rtol=1e-7)
    np.testing.assert_allclose(objective.precision_y, beta_y, rtol=1e-7)
    assert objective(theta)[0] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("widths", ["fixed", "adaptive"])
@pytest.mark.parametrize("n_candidates", [None, 12])
@pytest.mark.parametrize("cost", ["sum", "mean"])
def test_gradient_matches_finite_differences(widths, n_candidates, cost):
    # Exact in both modes: with adaptive widths the gradient includes how the widths
    # follow theta through the perplexity constraint (implicit-function theorem).
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 4))
    Y = np.column_stack([X[:, 0] + 0.1 * rng.normal(size=40), X[:, 1]])
    objective = NeRVObjective(X, Y, 5, widths=widths, cost=cost, n_candidates=n_candidates)
    theta = rng.uniform(0.3, 2.0, size=4)
    objective.refresh(theta)  # candidate pairs fixed from here on
    _, gradient = objective(theta)
    h = 1e-6
    numeric = [
        (objective(theta + h * e)[0] - objective(theta - h * e)[0]) / (2 * h) for e in np.eye(4)
    ]
    np.testing.assert_allclose(gradient, numeric, rtol=0, atol=1e-5 * np.abs(gradient).max())


def test_kth_neighbor_bandwidth_is_the_distance_to_the_kth_neighbour():
    rng = np.random.default_rng(9)
    X, Y = rng.normal(size=(30, 3)), rng.normal(size=(30, 2))
    X[1] = X[0]  # a duplicate: its 1st neighbour is at distance 0
    for k in (1, 4):
        objective = NeRVObjective(X, Y, k, bandwidth="kth_neighbor")
        for Z, precision in ((X, objective.precision_x), (Y, objective.precision_y)):
            d2 = ((Z[:, None] - Z[None]) ** 2).sum(-1) + np.diag(np.full(30, np.inf))
            kth = np.sort(d2, axis=1)[:, k - 1]
            nearest_distinct = np.where(d2 > 0, d2, np.inf).min(axis=1)
            np.testing.assert_allclose(
                precision, 1 / np.where(kth > 0, kth, nearest_distinct), rtol=1e-10
            )
        assert objective.unreached == {"X": 2 if k == 1 else 0, "Y": 0}
    # The gradient is exact with these (fixed) widths too.
    objective = NeRVObjective(X, Y, 4, bandwidth="kth_neighbor")
    theta = rng.uniform(0.3, 2.0, size=3)
    _, gradient = objective(theta)
    h = 1e-6
    numeric = [
        (objective(theta + h * e)[0] - objective(theta - h * e)[0]) / (2 * h) for e in np.eye(3)
    ]
    np.testing.assert_allclose(gradient, numeric, rtol=0, atol=1e-5 * np.abs(gradient).max())
    with pytest.raises(ValueError, match="widths='fixed'"):
        NeRVObjective(X, Y, 4, widths="adaptive", bandwidth="kth_neighbor")
    with pytest.raises(ValueError, match="widths='fixed'"):
        NeRVRelevance(4, widths="adaptive", bandwidth="kth_neighbor").fit(X, Y)


def test_adaptive_widths_make_the_divergence_scale_free():
    # With sigma^x following lambda, Q^NeRV(X_{c lambda}) = Q^NeRV(X_lambda): the penalty
    # can only shrink the common scale. Euler: theta . grad Q = 0.
    rng = np.random.default_rng(8)
    X, Y = rng.normal(size=(30, 3)), rng.normal(size=(30, 2))
    objective = NeRVObjective(X, Y, 6, widths="adaptive", delta=0.0)
    theta = np.array([0.5, 2.0, 1.0])
    value, gradient = objective(theta)
    assert objective(7.0 * theta)[0] == pytest.approx(value, rel=1e-9)
    assert abs(theta @ gradient) < 1e-6 * np.abs(gradient).max()
    fixed = NeRVObjective(X, Y, 6, widths="fixed", delta=0.0)
    assert fixed(7.0 * theta)[0] > 1.5 * fixed(theta)[0]  # fixed widths: the scale matters


def test_candidates_are_the_nearest_and_the_probable_pairs_ties_by_index():
    rng = np.random.default_rng(9)
    X = rng.integers(0, 3, size=(40, 3)).astype(float)
    Y = rng.integers(0, 4, size=(40, 2)).astype(float)
    objective = NeRVObjective(X, Y, 3, n_candidates=6)
    floor = MASS_TOL / 40

    def expected(theta):
        P = conditional_probabilities(squared_distances(X, theta), objective.precision_x)
        Q = conditional_probabilities(squared_distances(Y), objective.precision_y)
        Xl = X * np.sqrt(theta)
        return [
            set(ranked_others(Xl, i)[:6]) | set(ranked_others(Y, i)[:6])
            | set(np.flatnonzero(P[i] >= floor)) | set(np.flatnonzero(Q[i] >= floor))
            for i in range(40)
        ]  # fmt: skip

    def candidates(pairs):
        return [set(pairs.cols[pairs.indptr[i] : pairs.indptr[i + 1]]) for i in range(40)]

    first = candidates(objective.pairs)
    assert first == expected(np.ones(3))
    assert np.mean([len(c) for c in first]) < 30  # fewer than every pair
    theta = np.array([1.0, 0.0, 3.0])
    assert objective.refresh(theta)  # the new metric's candidates are added ...
    grown = candidates(objective.pairs)
    triples = zip(expected(theta), first, grown, strict=True)
    assert all(new | old <= cols for new, old, cols in triples)
    assert not objective.refresh(theta)  # ... once


def test_rprop_finds_a_bound_constrained_minimum_whatever_the_gradient_scale():
    target = np.array([2.0, -1.0, 0.5, 0.0])

    def quadratic(scale):
        return lambda x: (scale * np.sum((x - target) ** 2), scale * 2 * (x - target))

    x, values, _, converged = rprop(quadratic(1.0), np.ones(4), max_iter=300, tol=1e-7)
    assert converged
    np.testing.assert_allclose(x, np.maximum(target, 0), atol=1e-5)
    x_scaled, values_scaled, _, _ = rprop(quadratic(1e4), np.ones(4), max_iter=300, tol=1e-7)
    np.testing.assert_array_equal(x_scaled, x)  # only the signs of the gradient matter
    np.testing.assert_allclose(values_scaled, 1e4 * values)


# ------------------------------------------------------------- NeRVRelevance fits


@pytest.mark.parametrize("k", [25, 30, 40])
def test_set1_third_dimension_is_irrelevant_beyond_the_cluster_size(k):
    # Paper, Fig. 2 (left): lambda_NeRV mirrors the irrelevance of dimension 3 once the
    # neighbourhood exceeds the cluster size (20); the relevant dimensions stay positive.
    X, _ = relevance_set1(random_state=0)
    relevances = NeRVRelevance(n_neighbors=k).fit(X, X[:, :2]).relevances_
    assert np.all(relevances[:2] > 0.5)
    assert relevances[2] < 0.01 * relevances[:2].min()


def test_the_open_choices_on_set1():
    X, _ = relevance_set1(random_state=0)
    Y = X[:, :2]

    def fit(**params):
        return NeRVRelevance(**params).fit(X, Y).relevances_

    summed = fit(n_neighbors=30)
    # adaptive widths: the penalty shrinks every relevance together (no minimiser) ...
    assert np.all(fit(n_neighbors=30, widths="adaptive") < 0.05 * summed.max())
    # ... without it they give the same ranking, at an arbitrary scale
    scale_free = fit(n_neighbors=30, widths="adaptive", delta=0.0)
    assert np.all(scale_free[:2] > 0.5) and scale_free[2] < 0.01 * scale_free[:2].min()
    # averaging the divergences weighs delta N times more: smaller relevances, 0 at k = 40
    averaged = fit(n_neighbors=30, cost="mean")
    assert np.all(averaged[:2] < 0.5 * summed[:2])
    np.testing.assert_array_equal(fit(n_neighbors=40, cost="mean"), 0.0)
    # Rprop uses only gradient signs: mean with delta equals sum with N * delta
    np.testing.assert_allclose(fit(n_neighbors=30, cost="mean", delta=1.0 / 60), summed, rtol=1e-6)


@pytest.mark.parametrize("k", [10, 20])
def test_candidate_pairs_agree_with_every_pair(k):
    X, Y = set1_with_noise()
    exact = NeRVRelevance(n_neighbors=k, neighbors="all").fit(X, Y)
    sparse = NeRVRelevance(n_neighbors=k, neighbors=5 * k).fit(X, Y)
    n = X.shape[0]
    assert exact.n_candidates_ == n - 1 and sparse.n_candidates_ == 5 * k
    assert sparse.n_pairs_ < exact.n_pairs_ == n * (n - 1)
    np.testing.assert_allclose(sparse.relevances_, exact.relevances_, rtol=0.01, atol=1e-3)
    assert sparse.quality_ == pytest.approx(exact.quality_, rel=0.02)


def test_fit_is_deterministic_and_follows_the_rows():
    X, Y = set1_with_noise(n_per_cluster=40)
    first = NeRVRelevance(n_neighbors=15).fit(X, Y)
    second = NeRVRelevance(n_neighbors=15).fit(X, Y)
    np.testing.assert_array_equal(first.relevances_, second.relevances_)
    np.testing.assert_array_equal(first.objective_, second.objective_)
    order = np.random.default_rng(10).permutation(X.shape[0])
    permuted = NeRVRelevance(n_neighbors=15).fit(X[order], Y[order])
    np.testing.assert_allclose(permuted.relevances_, first.relevances_, rtol=1e-6, atol=1e-9)


def test_transform_scales_the_features_by_lambda():
    X, Y = set1_with_noise(n_per_cluster=20)
    model = NeRVRelevance(n_neighbors=10).fit(X, Y)
    np.testing.assert_allclose(model.transform(X), X * np.sqrt(model.relevances_))
    assert model.n_iter_ == model.objective_.size
    assert model.sigma_x_.shape == model.sigma_y_.shape == (X.shape[0],)
    np.testing.assert_array_equal(model.get_feature_names_out(), [f"x{i}" for i in range(5)])


def test_invalid_parameters_and_warnings():
    X, Y = set1_with_noise(n_per_cluster=10)
    for params in (
        {"gamma": 1.5},
        {"delta": -1.0},
        {"widths": "free"},
        {"cost": "max"},
        {"bandwidth": "sigma"},
        {"neighbors": 3},
        {"neighbors": "some"},
        {"max_iter": 0},
        {"tol": -1.0},
        {"step_size": 0.0},
    ):
        with pytest.raises(ValueError, match=next(iter(params))):
            NeRVRelevance(n_neighbors=5, **params).fit(X, Y)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        NeRVRelevance(n_neighbors=5, max_iter=3).fit(X, Y)
    labels = np.repeat([0.0, 1.0], 15)  # 15 duplicates of each position in Y
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.warns(UserWarning, match="30 points of Y"):
            model = NeRVRelevance(n_neighbors=5, max_iter=5).fit(X, labels)
    assert model.unreached_ == {"X": 0, "Y": 30}


def test_labels_given_as_the_map_are_warned_in_one_line():
    """Class labels where the map belongs (NeRVRelevance in a Pipeline gets ``y``): one
    line names the mistake; a one-dimensional map, or a map of integer coordinates in two
    columns, is not warned."""
    X, Y = set1_with_noise(n_per_cluster=10)
    labels = np.repeat(np.arange(3), 10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NeRVRelevance(n_neighbors=5, max_iter=3).fit(X, labels)
    (message,) = [str(w.message) for w in caught if "class labels" in str(w.message)]
    assert "3 integer levels" in message and "\n" not in message
    for fine in (Y[:, 0], np.round(Y * 10)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            NeRVRelevance(n_neighbors=5, max_iter=3).fit(X, fine)
        assert not [w for w in caught if "class labels" in str(w.message)]


@pytest.mark.parametrize(
    "index, n", [(np.arange(3, 7), 10), (np.arange(0, 1), 5), (np.arange(4), 4)]
)
def test_all_pairs_are_the_index_gathers(index, n):
    """Every pair of a block, its entries off the diagonal (three slices), the weights
    scattered back and the column sums (``np.add.reduce`` over the rows) are the
    ``np.nonzero`` / mask / ``values[rows]`` / ``np.bincount`` forms, bit for bit, for
    a block in the middle, a single row and the whole matrix."""
    rng = np.random.default_rng(0)
    keep = np.ones((index.size, n), dtype=bool)
    keep[np.arange(index.size), index] = False
    rows, cols = np.nonzero(keep)
    pairs = _OffDiagonal(index, n)
    np.testing.assert_array_equal(pairs.rows, rows)
    np.testing.assert_array_equal(pairs.cols, cols)
    block = rng.normal(size=(index.size, n))
    np.testing.assert_array_equal(_without_diagonal(block, index[0]), block.ravel()[keep.ravel()])
    weights = rng.normal(size=rows.size) * 10.0 ** rng.integers(-8, 8, rows.size)
    expected = np.zeros((index.size, n))
    expected[rows, cols] = weights
    transposed = np.asfortranarray(block)  # not C-contiguous: written to a copy
    np.testing.assert_array_equal(
        _scatter_without_diagonal(weights, transposed, index[0]), expected
    )
    scattered = _scatter_without_diagonal(weights, block, index[0])
    assert np.shares_memory(scattered, block)  # the Gram block's memory, in place
    np.testing.assert_array_equal(block, expected)
    sums = np.add.reduce(block, axis=0)
    assert sums.tobytes() == np.bincount(cols, weights, minlength=n).tobytes()
    values = rng.normal(size=(index.size, 2))
    np.testing.assert_array_equal(pairs.spread(values), values[rows])
    uneven = _Pairs.from_rows(np.array([0, 0, 0, 2, 3, 3]), np.array([1, 2, 3, 0, 0, 1]), 4)
    per_row = rng.normal(size=4)
    np.testing.assert_array_equal(uneven.spread(per_row), per_row[uneven.rows])
    for every in (pairs, uneven):  # rows 1 and 2 of each, numbered from 0
        middle = every.between(1, 3)
        chosen = (every.rows >= 1) & (every.rows < 3)
        np.testing.assert_array_equal(middle.rows, every.rows[chosen] - 1)
        np.testing.assert_array_equal(middle.cols, every.cols[chosen])


def test_column_sums_keep_the_order_of_the_pairs():
    """``np.add.reduce`` over the rows adds each column's weights in row order, as
    ``np.bincount`` over the pairs does: on values where the order of the additions
    changes the sum, both give the sum of that order."""
    index, n = np.arange(2, 7), 8
    pairs = _OffDiagonal(index, n)
    weights = np.tile([1e16, 1.0, -1e16, 1.0, 1.0, 3.0, -7.0], index.size)
    block = _scatter_without_diagonal(weights, np.empty((index.size, n)), index[0])
    sums = np.add.reduce(block, axis=0)
    sequential = np.zeros(n)
    for col, weight in zip(pairs.cols, weights, strict=True):
        sequential[col] += weight
    assert sums.tobytes() == sequential.tobytes()
    assert sums.tobytes() == np.bincount(pairs.cols, weights, minlength=n).tobytes()


@pytest.mark.parametrize("widths", ["fixed", "adaptive"])
@pytest.mark.parametrize("n_candidates", [None, 12])
def test_kept_q_terms_change_no_bit(monkeypatch, widths, n_candidates):
    """``log q`` and ``q`` kept between evaluations (and dropped when a refresh adds
    pairs) give the objective and gradient of recomputing them, bit for bit, over
    blocks of a few rows."""
    monkeypatch.setattr(nerv_objective, "BLOCK", 100)  # blocks of 2 rows
    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 4))
    Y = np.column_stack([X[:, 0] + 0.1 * rng.normal(size=40), X[:, 1]])
    options = dict(widths=widths, n_candidates=n_candidates)
    kept, recomputed = (
        NeRVObjective(X, Y, 5, **options),
        NeRVObjective(X, Y, 5, cache_floats=0, **options),
    )
    grew = []
    for theta in ([1.0, 1.0, 1.0, 1.0], [2.0, 0.5, 0.0, 1.0], [0.1, 3.0, 1.0, 0.2]):
        theta = np.array(theta)
        grew.append(kept.refresh(theta))
        assert recomputed.refresh(theta) == grew[-1]
        for _ in range(2):
            (value, gradient), (expected, expected_gradient) = kept(theta), recomputed(theta)
            assert value == expected
            np.testing.assert_array_equal(gradient, expected_gradient)
    assert any(grew) == (n_candidates is not None)  # kept terms of old pairs were dropped
    assert len(kept._q_terms_kept) == 20 and not recomputed._q_terms_kept


@pytest.mark.parametrize(
    "options",
    [{}, {"widths": "adaptive"}, {"cost": "mean"}, {"n_candidates": 12},
     {"widths": "adaptive", "n_candidates": 12}, {"cache_floats": 0}],
)  # fmt: skip
def test_chunks_of_rows_change_no_bit(monkeypatch, options):
    """The arithmetic on the pairs taken a few rows at a time by NumPy
    (:data:`~dimred.relevance.objective.CHUNK`: one row, three rows, blocks of five rows
    split unevenly) gives the objective, the gradient and the widths of whole blocks at
    once, bit for bit."""
    monkeypatch.setattr(nerv_objective, "BLOCK", 5 * 37)  # blocks of 5 rows of 37 points
    rng = np.random.default_rng(5)
    X = rng.normal(size=(37, 5)) * [3.0, 2.0, 1.0, 0.5, 0.1]
    Y = X[:, :2] + 0.2 * rng.normal(size=(37, 2))
    thetas = [np.ones(5), np.array([2.0, 0.5, 0.0, 1.0, 3.0]), rng.uniform(0, 2, 5)]

    def evaluations(chunk_rows):
        monkeypatch.setattr(nerv_objective, "CHUNK", chunk_rows * 37)
        objective = NeRVObjective(X, Y, 6, **options)
        results = []
        for theta in thetas:
            objective.refresh(theta)
            value, gradient = objective(theta)
            results.append((value, gradient.tobytes(), objective.precision_x.tobytes()))
        return results

    whole = evaluations(5)
    assert evaluations(1) == whole
    assert evaluations(3) == whole


def _one_row(d2):
    """The pairs of one row with the squared distances ``d2``."""
    return _Pairs.from_rows(np.zeros(d2.size, dtype=int), np.arange(d2.size), 1)


def test_calibration_reaches_the_perplexity_where_the_nearest_distances_tie():
    """A row of car's design (exact ties: 6 nearest at 9, 9 next at 32/3): plain Newton
    jumps to where only the 6 nearest count, the slope there is the rounding of their
    mean, and its steps crept to beta ~ 1e17 (entropy log 6, not log 10)."""
    X = factorial_design([4, 4, 4, 3, 3, 3])
    d2 = np.round(((X[1:] - X[0]) ** 2).sum(axis=1), 9)
    pairs = _one_row(d2)
    precision = calibrate_precisions(d2, pairs, 10)
    entropy, _ = _entropy(d2, pairs, precision)
    assert abs(entropy[0] - np.log(10)) < 1e-9
    assert 1.0 < precision[0] < 2.0


def test_calibration_ends_a_newton_two_cycle_by_bisection(monkeypatch):
    """Ten classes on a circle (radius 5, unit scatter, seed 18), as in ``make bench``'s
    USPS-like map: at k = 30, point 223's Newton steps bounce between the ends of a
    bracket that barely shrinks; after NEWTON_ITER steps the row bisects to log k."""
    angle = 2 * np.pi * np.repeat(np.arange(10), 200) / 10
    Y = 5 * np.column_stack([np.cos(angle), np.sin(angle)])
    Y += np.random.default_rng(18).normal(size=Y.shape)
    d2 = np.delete(((Y - Y[223]) ** 2).sum(axis=1), 223)
    pairs = _one_row(d2)

    def error(**kwargs):
        precision = calibrate_precisions(d2, pairs, 30, **kwargs)
        return _entropy(d2, pairs, precision)[0][0] - np.log(30)

    assert abs(error()) < 1e-9
    monkeypatch.setattr(nerv_pairs, "NEWTON_ITER", 10**9)
    assert abs(error(max_iter=100)) > 1.0  # the search before: 100 Newton steps


# ----------------------------------------------------------------- estimator checks


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.filterwarnings("ignore:.*width cannot be set:UserWarning")
@pytest.mark.filterwarnings("ignore:.*looks like class labels:UserWarning")
@parametrize_with_checks(
    [
        NeRVRelevance(n_neighbors=3),
        NeRVRelevance(n_neighbors=3, neighbors="all", widths="adaptive", delta=0.0, cost="mean"),
    ],
    xfail_strict=True,
)
def test_sklearn_compatible(estimator, check):
    # The checks pass class labels as y (warned: they look like labels): many samples
    # share a position in "Y", so the width cannot be set (warned) and some fits stop at
    # max_iter (warned).
    check(estimator)
