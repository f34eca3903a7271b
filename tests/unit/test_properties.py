"""Property-based tests of the public API (hypothesis, a fixed budget of examples).

Random shapes, scales and duplicate rows; random permutations of the rows and
order-preserving relabellings of the ranks. Each property is one the method
promises: the same model whatever the order of the rows (the neighbourhood graphs
take every tie, :mod:`dimred.utils.graphs`), the same predictions under a relabelling
that keeps the order of the ranks, the same importances or quality whatever the
scale, and finite outputs -- or a ``ValueError`` that says why not. Examples are
derandomised, so every run tries the same ones.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dimred
from dimred.utils.validation import SPREAD_RANGE

BUDGET = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def ordinal_problems(draw, min_rows=12, max_rows=40, ties=True):
    """``(X, y, perm)``: rows drawn from a few patterns when ``ties`` (duplicates and
    equal distances), three ordered ranks with at least 3 members each that follow the
    data, a scale spanning 16 orders of magnitude, and a permutation of the rows."""
    n = draw(st.integers(min_rows, max_rows))
    p = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    if ties:
        patterns = rng.integers(0, 3, size=(draw(st.integers(4, 10)), p)).astype(float)
        X = patterns[rng.integers(0, len(patterns), size=n)]
    else:
        X = rng.normal(size=(n, p))
    score = X @ rng.normal(size=p) + 0.3 * rng.normal(size=n)
    y = np.zeros(n, dtype=int)
    y[np.argsort(score, kind="stable")] = np.repeat([1, 2, 3], -(-n // 3))[:n]
    X = X * 10.0 ** draw(st.floats(-8, 8))
    return X, y, rng.permutation(n)


def refuses_or(check, fit):
    """Run ``fit``; a ``ValueError`` passes (the method refused, with a reason), otherwise
    ``check`` its result."""
    try:
        result = fit()
    except ValueError as error:
        assert str(error), "a refusal must say why"
        return
    check(result)


GRAPH_RANKERS = {
    "ORML": lambda: dimred.ORML(n_neighbors=4),
    "LPP": lambda: dimred.RankProjection("lpp", n_neighbors=4),
    "NPE": lambda: dimred.RankProjection("npe", n_neighbors=4),
    "IsoProjection": lambda: dimred.RankProjection("isoprojection", n_neighbors=4),
    "LDA": lambda: dimred.RankProjection("lda"),
}


@pytest.mark.parametrize("name", GRAPH_RANKERS)
@BUDGET
@given(problem=ordinal_problems())
def test_rankers_ignore_the_order_of_the_rows(name, problem):
    X, y, perm = problem
    make = GRAPH_RANKERS[name]

    def check(model):
        moved = make().fit(X[perm], y[perm])
        np.testing.assert_array_equal(moved.predict(X), model.predict(X))
        assert np.all(np.isfinite(model.transform(X)))

    refuses_or(check, lambda: make().fit(X, y))


@pytest.mark.parametrize("name", GRAPH_RANKERS)
@BUDGET
@given(problem=ordinal_problems(), shift=st.integers(-5, 5), spacing=st.integers(1, 4))
def test_rankers_follow_an_order_preserving_relabelling(name, problem, shift, spacing):
    X, y, _ = problem
    make = GRAPH_RANKERS[name]
    relabel = {1: shift, 2: shift + spacing, 3: shift + spacing + 7}

    def check(model):
        moved = make().fit(X, np.vectorize(relabel.get)(y))
        np.testing.assert_array_equal(moved.predict(X), np.vectorize(relabel.get)(model.predict(X)))

    refuses_or(check, lambda: make().fit(X, y))


@BUDGET
@given(problem=ordinal_problems())
def test_lsda_and_kda_subspaces_ignore_the_order_of_the_rows(problem):
    X, y, perm = problem
    for make in (
        lambda: dimred.LocalitySensitiveDiscriminantAnalysis(2, n_neighbors=4),
        lambda: dimred.KernelDiscriminantAnalysis(2),
        lambda: dimred.BestViewProjection(),
    ):

        def check(model, make=make):
            Z = model.transform(X)
            assert np.all(np.isfinite(Z))
            np.testing.assert_allclose(
                make().fit(X[perm], y[perm]).transform(X), Z, atol=1e-7 * max(1, np.abs(Z).max())
            )

        refuses_or(check, lambda make=make: make().fit(X, y))


@BUDGET
@given(problem=ordinal_problems(), factor=st.floats(-150, 150))
def test_importances_ignore_the_scale_and_the_order_of_the_rows(problem, factor):
    X, y, perm = problem
    model = dimred.MetricalImportance()

    def check(importances):
        assert np.all(np.isfinite(importances)) and abs(importances.sum() - 100) < 1e-9
        scaled = model.fit(X * 10.0**factor, y).feature_importances_
        np.testing.assert_allclose(scaled, importances, rtol=1e-8, atol=1e-9)
        moved = model.fit(X[perm], y[perm]).feature_importances_
        np.testing.assert_allclose(moved, importances, rtol=1e-8, atol=1e-9)

    refuses_or(check, lambda: model.fit(X, y).feature_importances_.copy())


@BUDGET
@given(problem=ordinal_problems(ties=False), factor=st.floats(-150, 150))
def test_coranking_quality_ignores_the_scale_and_a_joint_permutation(problem, factor):
    """Without ties (continuous data) ``Q_k`` is a function of the two neighbour rankings."""
    X, _, perm = problem
    Y = X[:, :2] + 0.5 * np.sin(3 * X[:, -1:])
    quality = dimred.coranking_quality(X, Y, 5)
    assert np.all((quality >= 0) & (quality <= 1))
    np.testing.assert_allclose(dimred.coranking_quality(X * 10.0**factor, Y, 5), quality)
    np.testing.assert_allclose(dimred.coranking_quality(X[perm], Y[perm], 5), quality)


@BUDGET
@given(problem=ordinal_problems())
def test_classical_mds_permutes_with_the_rows(problem):
    X, _, perm = problem

    def check(embedding):
        assert np.all(np.isfinite(embedding))
        moved = dimred.ClassicalMDS(2).fit_transform(X[perm])
        np.testing.assert_allclose(
            np.abs(moved), np.abs(embedding[perm]), atol=1e-7 * np.abs(embedding).max()
        )

    refuses_or(check, lambda: dimred.ClassicalMDS(2).fit_transform(X))


@BUDGET
@given(problem=ordinal_problems(), factor=st.floats(-300, 300))
def test_extreme_scales_give_the_result_or_a_clear_refusal(problem, factor):
    """Outside the range float64 holds an estimator's quantities, it says so."""
    X, y, _ = problem
    scaled = X * 10.0**factor
    spread = np.ptp(scaled, axis=0).max()
    try:
        predicted = dimred.ORML(n_neighbors=4).fit(scaled, y).predict(scaled)
    except ValueError as error:
        inside = SPREAD_RANGE[0] <= spread <= SPREAD_RANGE[1]
        assert not inside or "variance" in str(error) or "rank" in str(error), error
        if not inside:
            assert "rescale" in str(error)
        return
    assert set(np.unique(predicted)) <= {1, 2, 3}
