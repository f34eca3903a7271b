"""ProjectionRanker: any projection followed by the threshold rule of ORML's Eqs. (8)-(9)
or by 1-NN in the projected space."""

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred import ORML, BestViewProjection, ProjectionRanker, RankProjection
from dimred.ordinal.thresholds import rank_thresholds, threshold_predict


def _ordinal(n_per_rank=30, seed=0):
    """Four ranks along the first feature, noise in three others."""
    rng = np.random.default_rng(seed)
    y = np.repeat([1, 2, 3, 4], n_per_rank)
    X = np.column_stack([y + 0.35 * rng.normal(size=y.size), rng.normal(size=(y.size, 3))])
    return X, y


def expected_failed_checks(estimator):
    """As ORML's exemptions (tests/unit/test_orml.py), for the same reasons."""
    failing = {
        # String class labels carry no order: the ranker refuses them, saying so.
        "check_classifiers_classes": "ranks must be numeric: string labels have no order",
    }
    if estimator.rule == "threshold":
        # make_blobs' three centres do not lie on a line in label order: no 1-D
        # threshold model reaches the training accuracy the check asks for.
        failing["check_classifiers_train"] = "three unordered blobs cannot be ranked on one line"
    return failing


@parametrize_with_checks(
    [
        ProjectionRanker(LinearDiscriminantAnalysis(n_components=1)),
        ProjectionRanker(LinearDiscriminantAnalysis(), rule="nearest"),
    ],
    expected_failed_checks=expected_failed_checks,
    xfail_strict=True,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_threshold_rule_is_eq_8_9_on_the_oriented_first_component():
    """With the first feature, reversed, as the projection: the rule orients it back and
    cuts it at the mean projections of consecutive ranks (computed here by hand)."""
    X, y = _ordinal()
    reverse = FunctionTransformer(lambda A: -A[:, :1])
    model = ProjectionRanker(reverse).fit(X, y)
    assert model.sign_ == -1.0
    z, codes = X[:, 0], y - 1
    expected = [(z[(codes == r) | (codes == r + 1)]).mean() for r in range(3)] + [z.max()]
    np.testing.assert_allclose(model.thresholds_, expected)
    X_new = np.random.default_rng(1).normal(2.5, 1.5, size=(50, 4))
    by_hand = threshold_predict(X_new[:, 0], rank_thresholds(z, codes)) + 1
    np.testing.assert_array_equal(model.predict(X_new), by_hand)


def test_nearest_rule_is_one_nn_and_order_free():
    X, y = _ordinal()
    model = ProjectionRanker(FunctionTransformer(lambda A: A[:, :2]), rule="nearest").fit(X, y)
    X_new = np.random.default_rng(2).normal(2.5, 1.0, size=(40, 4))
    d = ((X_new[:, None, :2] - X[None, :, :2]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(model.predict(X_new), y[d.argmin(axis=1)])
    order = np.random.default_rng(3).permutation(len(y))
    shuffled = ProjectionRanker(FunctionTransformer(lambda A: A[:, :2]), rule="nearest")
    np.testing.assert_array_equal(
        shuffled.fit(X[order], y[order]).predict(X_new), model.predict(X_new)
    )


@pytest.mark.parametrize("rule", ["threshold", "nearest"])
def test_bvp_and_lda_rank_well_and_keep_ordered_labels(rule):
    X, y = _ordinal()
    for projection in (BestViewProjection(1), LinearDiscriminantAnalysis(n_components=1)):
        model = ProjectionRanker(projection, rule=rule).fit(X, y)
        assert np.mean(np.abs(model.predict(X) - y)) < 0.3
    labels = pd.Categorical(np.array(["low", "mid", "high", "top"])[y - 1],
                            categories=["low", "mid", "high", "top"], ordered=True)  # fmt: skip
    model = ProjectionRanker(LinearDiscriminantAnalysis(n_components=1), rule=rule).fit(X, labels)
    assert list(model.classes_) == ["low", "mid", "high", "top"]
    assert np.mean(model.predict(X) == np.asarray(labels)) > 0.8


@pytest.mark.parametrize(
    "projection",
    [BestViewProjection(1), RankProjection("lda"), ORML()],
    ids=["bvp", "rank_projection", "orml"],
)
def test_ordinal_projections_inside_keep_an_ordered_categoricals_order(projection):
    """The projection is fitted on the Categorical itself, so ordinal projections accept
    it, and rank as they do on the numeric codes; an unused category is dropped."""
    X, y = _ordinal()
    categories = ["none", "low", "mid", "high", "top"]
    labels = pd.Categorical.from_codes(y, categories, ordered=True)
    with pytest.warns(UserWarning, match=r"rank levels \['none'\]"):
        model = ProjectionRanker(projection).fit(X, labels)
    assert list(model.classes_) == categories[1:]
    numeric = ProjectionRanker(projection).fit(X, y)
    np.testing.assert_array_equal(
        model.predict(X), np.asarray(categories, dtype=object)[numeric.predict(X)]
    )


def test_threshold_rule_matches_rank_projection_on_its_own_direction():
    """RankProjection (LDA criterion) is a projection plus this very rule: wrapping its
    fitted direction gives its predictions."""
    X, y = _ordinal(seed=4)
    base = RankProjection("lda").fit(X, y)
    wrapped = ProjectionRanker(
        FunctionTransformer(lambda A: (A - base.mean_) @ base.coef_[:, None])
    )
    np.testing.assert_array_equal(wrapped.fit(X, y).predict(X), base.predict(X))


def test_refuses_labels_without_an_order():
    X, _ = _ordinal()
    with pytest.raises(ValueError, match="order"):
        ProjectionRanker(PCA(1)).fit(X, np.array(["a", "b", "c", "d"] * 30))


@pytest.mark.parametrize("rule", ["threshold", "nearest"])
@pytest.mark.parametrize("value", [0.0, 3.7])
def test_refuses_constant_data_behind_an_unsupervised_projection(rule, value):
    # Before: arbitrary ranks, behind NumPy's "invalid value encountered in divide".
    _, y = _ordinal()
    with pytest.raises(ValueError, match="ProjectionRanker: X has no variance"):
        ProjectionRanker(PCA(1), rule=rule).fit(np.full((y.size, 4), value), y)


@pytest.mark.parametrize("rule", ["threshold", "nearest"])
def test_refuses_a_projection_that_returns_no_component(rule):
    # Before: IndexError (threshold) or "generator raised StopIteration" (nearest).
    X, y = _ordinal()
    with pytest.raises(ValueError, match=r"PCA\(n_components=0\) returned no component"):
        ProjectionRanker(PCA(0), rule=rule).fit(X, y)
