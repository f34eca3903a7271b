"""GramFactorAnalysis against scikit-learn's FactorAnalysis, which it must reproduce."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import FactorAnalysis
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.extmath import randomized_svd, svd_flip

from compendium import paths
from compendium.published import load_table
from dimred.datasets import awa2_like
from dimred.decomposition import GramFactorAnalysis, randomized_gram_svd

#: Largest difference allowed between the two fits, relative to the largest entry:
#: rounding, which the EM carries over its iterations (measured: at most 2e-9).
RTOL = 1e-7
SETTINGS = dict(tol=1e-2, max_iter=1000, random_state=0)


def low_rank(n_samples, n_features, rank, seed=0):
    rng = np.random.default_rng(seed)
    signal = rng.normal(size=(n_samples, rank)) @ rng.normal(size=(rank, n_features))
    return signal + rng.normal(size=(n_samples, n_features))


def both(X, n_components, **options):
    kwargs = SETTINGS | options
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = GramFactorAnalysis(n_components, **kwargs).fit(X)
        reference = FactorAnalysis(n_components, **kwargs).fit(X)
    return ours, reference


def relative(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


def assert_same_fit(ours, reference, X):
    assert ours.n_iter_ == reference.n_iter_
    assert relative(ours.components_, reference.components_) < RTOL
    assert relative(ours.noise_variance_, reference.noise_variance_) < RTOL
    assert relative(ours.transform(X), reference.transform(X)) < RTOL
    np.testing.assert_allclose(ours.loglike_, reference.loglike_, rtol=RTOL)
    np.testing.assert_allclose(ours.score(X), reference.score(X), rtol=RTOL)


@pytest.fixture
def fallbacks(monkeypatch):
    """The fits of GramFactorAnalysis that ran scikit-learn's own FactorAnalysis.fit."""
    calls = []
    sklearn_fit = FactorAnalysis.fit

    def recorded(model, X, y=None):
        calls.append(type(model).__name__)
        return sklearn_fit(model, X, y)

    monkeypatch.setattr(FactorAnalysis, "fit", recorded)
    return calls


@pytest.mark.parametrize(
    "shape, n_components",
    [
        ((300, 40, 10), 2),  # rank-10 signal: 12 Gaussian vectors, 3 power iterations
        ((300, 40, 10), 8),
        ((300, 40, 30), 25),  # k + 10 = 35 of 40 directions
        ((300, 40, 30), 30),  # k + 10 >= n_features: the exact branch
        ((300, 40, 30), None),  # every feature
    ],
)
def test_the_fit_is_scikit_learns(shape, n_components, fallbacks):
    X = low_rank(*shape)
    assert_same_fit(*both(X, n_components), X)
    assert "GramFactorAnalysis" not in fallbacks  # the Gram path, not scikit-learn's fit


def test_the_fit_on_awa2_like_features_is_scikit_learns(fallbacks):
    # Sparse ReLU-like features, where a factor's sign is set by one sample: it must
    # be read from scikit-learn's left vectors Q Uhat, not from A v.
    X, _ = awa2_like(n_samples=1200, n_features=256, random_state=0)
    for n_components in (4, 16, 64):
        assert_same_fit(*both(X, n_components), X)
    assert "GramFactorAnalysis" not in fallbacks


@pytest.mark.parametrize(
    "options",
    [
        {"rotation": "varimax"},
        {"rotation": "quartimax"},
        {"iterated_power": 0},
        {"iterated_power": 1},
        {"noise_variance_init": np.linspace(0.5, 2.0, 40)},
        {"tol": 1e-6, "max_iter": 40},
    ],
)
def test_every_option_gives_scikit_learns_fit(options, fallbacks):
    X = low_rank(300, 40, 10, seed=1)
    assert_same_fit(*both(X, 6, **options), X)
    assert "GramFactorAnalysis" not in fallbacks


@pytest.mark.parametrize("options", [{"svd_method": "lapack"}, {}])
def test_where_the_gram_matrix_does_not_help_the_fit_is_scikit_learns_exactly(options):
    # lapack: a full SVD; fewer samples than features: scikit-learn works on A^T.
    X = low_rank(300, 40, 10) if options else low_rank(30, 60, 5)
    ours, reference = both(X, 4, **options)
    np.testing.assert_array_equal(ours.components_, reference.components_)
    np.testing.assert_array_equal(ours.noise_variance_, reference.noise_variance_)


def test_the_last_log_likelihood_is_the_fitted_models():
    # With every factor's s^2 > 1 and exact singular vectors, the EM's bookkeeping
    # (trace(A^T A) - sum s^2, log s^2, log psi) is the Gaussian log-likelihood of
    # N(mean_, W^T W + Psi), which score() computes from the covariance itself.
    X = low_rank(300, 40, 10)
    ours, _ = both(X, 8, tol=1e-8)
    np.testing.assert_allclose(ours.loglike_[-1], ours.score(X) * len(X), rtol=1e-9)


@pytest.mark.parametrize("n_iter", [0, 1, 3])
@pytest.mark.parametrize("n_components", [3, 12, 35])
def test_the_gram_svd_is_scikit_learns_randomized_svd(n_iter, n_components):
    A = low_rank(200, 40, 40, seed=2) * np.linspace(0.1, 3.0, 40)
    squared, Vt, left = randomized_gram_svd(A.T @ A, n_components, n_iter, np.random.RandomState(7))
    U, s, reference = randomized_svd(
        A, n_components, n_iter=n_iter, random_state=np.random.RandomState(7)
    )
    np.testing.assert_allclose(squared, s**2, rtol=1e-9)
    np.testing.assert_allclose(Vt @ Vt.T, np.eye(n_components), atol=1e-12)
    U_ours, Vt = svd_flip(A @ left, Vt)  # randomized_svd's sign rule
    np.testing.assert_allclose(U_ours, U, atol=1e-9)
    np.testing.assert_allclose(Vt, reference, atol=1e-9)


def test_more_components_than_features_give_every_feature_as_randomized_svd():
    A = low_rank(50, 6, 6)
    squared, Vt, left = randomized_gram_svd(A.T @ A, 9, 2, np.random.RandomState(0))
    _, s, _ = randomized_svd(A, 9, n_iter=2, random_state=np.random.RandomState(0))
    assert squared.shape == s.shape == (6,) and Vt.shape == (6, 6) and left.shape == (6, 6)
    np.testing.assert_allclose(squared, s**2, rtol=1e-9)


def test_beyond_the_rank_the_gram_svd_gives_zeros():
    # rank 5 < 8 + 10 Gaussian vectors: the extra singular values are rounding noise
    # in scikit-learn's SVD and zero here.
    rng = np.random.default_rng(3)
    A = rng.normal(size=(100, 5)) @ rng.normal(size=(5, 30))
    squared, Vt, _ = randomized_gram_svd(A.T @ A, 8, 3, np.random.RandomState(0))
    _, s, _ = randomized_svd(A, 8, n_iter=3, random_state=np.random.RandomState(0))
    np.testing.assert_allclose(squared[:5], s[:5] ** 2, rtol=1e-9)
    assert np.all(squared[5:] == 0) and np.all(Vt[5:] == 0)
    assert np.all(s[5:] < 1e-10 * s[0])


def test_a_rank_deficient_fit_has_scikit_learns_factors():
    # Ten constant features: A has rank 20 < 15 + 10 Gaussian vectors (the Notes).
    X = low_rank(200, 30, 30, seed=4)
    X[:, 20:] = 1.0
    ours, reference = both(X, 15)
    assert np.all(np.isfinite(ours.loglike_))
    assert relative(ours.components_, reference.components_) < RTOL
    assert relative(ours.noise_variance_, reference.noise_variance_) < RTOL


def test_it_warns_as_scikit_learn_when_the_em_stops_early():
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        GramFactorAnalysis(4, max_iter=1, tol=0.0).fit(low_rank(100, 20, 5))


@pytest.mark.parametrize(
    "X, match",
    [
        (np.full((50, 6), 3.7), "no variance"),
        (low_rank(50, 6, 2) * 1e200, "spread|scale|overflow"),
        (low_rank(1, 6, 2), "minimum of 2"),
    ],
)
def test_data_without_factors_are_refused_on_either_path(X, match):
    # scikit-learn returns zero factors for constant data and overflows on the others.
    for svd_method in ("randomized", "lapack"):
        with pytest.raises(ValueError, match=match):
            GramFactorAnalysis(2, svd_method=svd_method).fit(X)


def test_a_wrong_initial_noise_is_refused():
    with pytest.raises(ValueError, match=r"noise_variance_init has shape \(3,\); X has 20"):
        GramFactorAnalysis(2, noise_variance_init=[1.0, 1.0, 1.0]).fit(low_rank(100, 20, 5))


@pytest.mark.parametrize("value", [-1.0, 0.0, np.nan, np.inf])
@pytest.mark.parametrize("shape", [(100, 5), (4, 5)])  # the Gram path; scikit-learn's
def test_an_initial_noise_that_is_no_variance_is_refused(value, shape):
    # scikit-learn fails on a negative one with "array must not contain infs or NaNs"
    # and returns an infinite log-likelihood from a zero; before, a NaN model.
    init = np.ones(shape[1])
    init[2] = value
    with pytest.raises(ValueError, match=f"positive, finite variances; feature 2 has {value:g}"):
        GramFactorAnalysis(2, noise_variance_init=init).fit(low_rank(*shape, 2))


def exactly_low_rank(n_samples, n_features, rank, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_samples, rank)) @ rng.normal(size=(rank, n_features))


def collinear(seed):
    X = np.random.default_rng(seed).normal(size=(200, 10))
    X[:, 9] = X[:, 0]  # a duplicated column: rank 9
    return X


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "make, n_components",
    [
        (lambda seed: exactly_low_rank(200, 10, 3, seed), None),  # the default: k = 10 > 3
        (lambda seed: exactly_low_rank(200, 10, 3, seed), 5),
        (lambda seed: exactly_low_rank(200, 10, 3, seed), 3),  # k = rank
        (collinear, None),
        (collinear, 9),
    ],
)
def test_on_rank_deficient_and_collinear_data_the_fit_is_scikit_learns(make, n_components, seed):
    # n_components >= rank(X): scikit-learn's s_k beyond the rank are rounding noise in
    # its log-likelihood and stopping rule, which the Gram matrix cannot reproduce (it
    # used to stop after 27 iterations against 3, the factors 31 % apart).
    X = make(seed)
    ours, reference = both(X, n_components, tol=1e-2, max_iter=1000)
    assert_same_fit(ours, reference, X)


def test_only_an_unresolved_factor_falls_back_to_scikit_learns_fit(fallbacks):
    GramFactorAnalysis(8, random_state=0).fit(low_rank(300, 40, 10))
    GramFactorAnalysis(random_state=0).fit(low_rank(300, 40, 30))
    assert fallbacks == []
    GramFactorAnalysis(random_state=0).fit(exactly_low_rank(200, 10, 3, 0))
    assert fallbacks == ["GramFactorAnalysis"]


def test_the_fallback_draws_what_scikit_learn_draws_from_a_shared_generator(fallbacks):
    # The Gram iterations have drawn from the generator before falling back: rewound,
    # scikit-learn's fit draws its own sequence.
    X = exactly_low_rank(200, 10, 3, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = GramFactorAnalysis(random_state=np.random.RandomState(5)).fit(X)
        reference = FactorAnalysis(random_state=np.random.RandomState(5)).fit(X)
    assert fallbacks == ["GramFactorAnalysis", "FactorAnalysis"]
    np.testing.assert_array_equal(ours.loglike_, reference.loglike_)
    np.testing.assert_array_equal(ours.components_, reference.components_)


@pytest.mark.parametrize(
    "X, n_components, options, scikit_learns",
    [
        (low_rank(300, 10, 10), 2, {}, False),  # the Gram path
        (exactly_low_rank(200, 10, 3, 0), 5, {}, True),  # its fallback
        (low_rank(300, 10, 10), 2, {"svd_method": "lapack"}, True),
        (low_rank(8, 10, 10), 2, {}, True),  # fewer samples than features
    ],
)
def test_every_path_keeps_the_feature_names(X, n_components, options, scikit_learns, fallbacks):
    # scikit-learn's fit on the validated array used to drop them (lapack, n < d).
    names = [f"f{j}" for j in range(X.shape[1])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fa = GramFactorAnalysis(n_components, **options).fit(pd.DataFrame(X, columns=names))
    assert fa.feature_names_in_.tolist() == names
    assert (fallbacks == ["GramFactorAnalysis"]) == scikit_learns


@pytest.mark.parametrize("svd_method", ["randomized", "lapack"])
def test_more_components_than_features_give_scikit_learns_fit(svd_method):
    # scikit-learn: n_features factors, a log-likelihood whose constant counts
    # n_components (before: 8 rows, 3 of them zero, and loglike_ 28,010 against -325.8).
    X = low_rank(100, 5, 5)
    ours, reference = both(X, 8, svd_method=svd_method)
    assert ours.components_.shape == reference.components_.shape == (5, 5)
    assert_same_fit(ours, reference, X)


@parametrize_with_checks([GramFactorAnalysis(n_components=2)])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_committed_benchmark_agrees_with_its_finding():
    """``make bench`` (bench_fa.py): every dimension of Table VI at AwA2's training size,
    the baseline's fits with the same iterations and factors, and the finding is the
    median of the measured speed ratios."""
    folder = paths.FIGURES_DIR / "awa2_dr_survey"
    bench = pd.read_csv(folder / "benchmark_fa.csv")
    findings = pd.read_csv(folder / "findings.csv", keep_default_na=False).set_index("finding")
    table6 = load_table("awa2_dr_survey", "table6")
    assert list(bench["n_components"]) == list(table6["n_components"])
    assert (bench["n_train"] == 22393).all() and (bench["features"] == 2048).all()
    both = bench.dropna(subset=["speed_ratio"])
    assert len(both) >= 3
    assert (both["gram_iterations"] == both["sklearn_iterations"]).all()
    assert (both["max_difference"] < 1e-6).all()
    speed = findings.loc["fa_gram_speed"]
    assert float(speed["value"]) == pytest.approx(both["speed_ratio"].median())
    assert speed["holds"] in (True, "True") and speed["produced_by"] == "make bench (bench_fa.py)"
