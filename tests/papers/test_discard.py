"""Feature-discard curves."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import f1_score

from papers.metrical_importance.discard import (
    discard_curves,
    f1_of_class,
    reverse_name,
    with_reverses,
)


def test_reverse_names_follow_the_paper():
    assert [reverse_name(n) for n in ("pca", "rf", "sd", "gini", "shapley")] == [
        "acp",
        "fr",
        "ds",
        "inig",
        "yelpahs",
    ]
    orders = with_reverses({"pca": [2, 0, 1]})
    assert orders["acp"].tolist() == [1, 0, 2]
    with pytest.raises(ValueError, match="palindrome"):
        with_reverses({"abba": [0, 1]})


@pytest.fixture(scope="module")
def curves():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(400) < 0.3, "rare", "common")
    informative = (y == "rare") * 2.0 + rng.normal(size=400)
    X = pd.DataFrame(
        {
            "signal": informative,
            "noise": rng.normal(size=400),
            "level": pd.Categorical(rng.choice(["u", "v", "w"], 400)),
        }
    )
    orders = with_reverses({"good": [1, 2, 0]})  # signal discarded last
    result = discard_curves(
        X, y, orders, np.array([False, False, True]), n_rf_runs=3, random_state=0, progress=False
    )
    return result


def test_curve_table_shape_and_steps(curves):
    scores = curves.scores
    assert len(scores) == 2 * 3 * 3  # orders x steps x classifiers
    assert set(scores["n_runs"][scores["classifier"] == "random_forest"]) == {3}
    full = scores[scores["n_discarded"] == 0].groupby("classifier")["f1"].nunique()
    assert (full == 1).all()  # the full feature set is shared by every order


def test_keeping_the_signal_beats_discarding_it(curves):
    summary = curves.summary()
    assert (summary.loc["good"] > summary.loc["doog"] + 0.1).all()


def test_paired_loss_compares_runs_of_the_same_seed(curves):
    loss = curves.paired_loss("doog", "random_forest", 1)  # the signal is dropped first
    assert loss.shape == (3,) and (loss > 0.2).all()


def test_f1_is_that_of_the_minority_class():
    """A classifier that always predicts the majority has F1 = 0 on the minority class."""
    y = np.array(["big"] * 30 + ["small"] * 10)
    X = pd.DataFrame({"noise": np.zeros(40)})
    result = discard_curves(
        X, y, {"o": [0]}, np.array([False]), classifiers=["svm"], progress=False
    )
    assert result.scores["f1"].iloc[0] == 0.0


def test_f1_of_class_is_scikit_learns_float():
    rng = np.random.default_rng(0)
    cases = [(np.zeros(5, int), np.zeros(5, int))]  # the class nowhere: 0, as scikit-learn's
    for n in rng.integers(1, 400, 300):
        truth = rng.integers(0, 2, n)
        cases.append((truth, np.where(rng.random(n) < rng.random(), truth, 1 - truth)))
        cases.append((truth, np.zeros(n, int)))  # never predicted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for truth, predicted in cases:
            for positive in (0, 1):
                expected = f1_score(truth, predicted, pos_label=positive)
                got = f1_of_class(truth, predicted, positive)
                assert type(got) is float and got == expected


def test_each_subset_is_fitted_once(monkeypatch):
    import papers.metrical_importance.discard as discard

    calls = []
    monkeypatch.setattr(
        discard, "_f1_of", lambda split, kept, name, seed: calls.append(kept) or 1.0
    )
    X = pd.DataFrame({"a": np.arange(20.0), "b": np.arange(20.0) % 3, "c": np.ones(20)})
    y = np.arange(20) % 2
    orders = with_reverses({"ab": [0, 1, 2], "cd": [1, 0, 2]})
    discard_curves(X, y, orders, np.zeros(3, dtype=bool), classifiers=["svm"], progress=False)
    expected = {(0, 1, 2), (1, 2), (0, 2), (2,), (0, 1), (0,), (1,)}
    assert sorted(calls) == sorted(expected)


def test_two_classes_required():
    X = pd.DataFrame({"a": np.arange(9.0)})
    with pytest.raises(ValueError, match="two classes"):
        discard_curves(X, np.arange(9) % 3, {"o": [0]}, np.array([False]), progress=False)


def test_forest_curves_equal_the_pipeline():
    """The random forest's F1 from the codes computed once per split equals that of
    ``make_classifier``'s pipeline fitted on each subset (numeric and categorical
    columns interleaved, a level seen only in the test part)."""
    from sklearn.metrics import f1_score

    from papers.metrical_importance.discard import (
        _f1_of,
        _make_split,
        make_classifier,
    )

    rng = np.random.default_rng(3)
    y = np.where(rng.random(300) < 0.3, "rare", "common")
    levels = rng.choice(["u", "v", "w"], 300)
    levels[-1] = "only_here"
    X = pd.DataFrame(
        {
            "level": pd.Categorical(levels),
            "signal": (y == "rare") + rng.normal(size=300),
            "grade": pd.Categorical(rng.choice([3, 1, 2], 300)),
            "count": rng.integers(0, 50, 300),
        }
    )
    categorical = np.array([True, False, True, False])
    split = _make_split(X, y, categorical, 0.2, 0)
    f1 = []
    for kept in [(0, 1, 2, 3), (0, 2), (1, 3), (2,)]:
        columns = list(kept)
        for seed in (0, 1):
            model = make_classifier("random_forest", categorical[columns], seed)
            model.fit(split.X_train.iloc[:, columns], split.y_train)
            predicted = model.predict(split.X_test.iloc[:, columns])
            expected = f1_score(split.y_test, predicted, pos_label=split.positive)
            assert _f1_of(split, kept, "random_forest", seed) == expected
            f1.append(expected)
    assert len(set(f1)) > 2  # the subsets and seeds give different scores
