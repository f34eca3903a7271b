"""``ovo_predict`` gives libsvm's predictions, row for row (papers.awa2_dr_survey.svc)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.svm import SVC

from compendium import paths
from papers.awa2_dr_survey import svc as svm
from papers.awa2_dr_survey.svc import decision_bounds, ovo_predict, pair_weights


def _classes(n_classes, n_features, n_samples, seed, spread=0.6):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(n_classes, n_features))
    y = rng.integers(0, n_classes, n_samples)
    return spread * centres[y] + rng.normal(size=(n_samples, n_features)), y


@pytest.mark.parametrize("n_classes", [2, 3, 7])
def test_predictions_equal_libsvm(n_classes):
    X, y = _classes(n_classes, 12, 400, seed=n_classes)
    model = SVC(kernel="linear").fit(X[:200], y[:200])
    np.testing.assert_array_equal(ovo_predict(model, X), model.predict(X))


def test_labels_of_any_type_and_order():
    """String labels, first seen out of order: the vote maps to ``classes_``."""
    X, y = _classes(4, 6, 300, seed=1)
    names = np.array(["zeta", "alpha", "mid", "beta"])[y]
    model = SVC(kernel="linear", C=0.5).fit(X[::-1], names[::-1])
    np.testing.assert_array_equal(ovo_predict(model, X), model.predict(X))


def test_decision_values_are_libsvms_within_their_bound():
    X, y = _classes(5, 9, 300, seed=2)
    model = SVC(kernel="linear", decision_function_shape="ovo").fit(X, y)
    values, bounds = decision_bounds(model, X)
    reference = model.decision_function(X)
    assert np.all(np.abs(values - reference) <= bounds)
    W, b, pairs = pair_weights(model)
    assert W.shape == (10, 9) and len(pairs) == 10 and b.shape == (10,)


def test_rows_at_a_tie_go_to_libsvm(monkeypatch):
    """Rows on the boundary (decision value 0 up to rounding) are libsvm's: symmetric
    classes, test rows on the plane between them."""
    X = np.array([[-1.0, 0.0], [-2.0, 1.0], [1.0, 0.0], [2.0, 1.0]])
    model = SVC(kernel="linear").fit(X, [0, 0, 1, 1])
    on_plane = np.column_stack([np.zeros(5), np.linspace(-3, 3, 5)])
    calls = []
    predict = model.predict
    monkeypatch.setattr(model, "predict", lambda rows: calls.append(len(rows)) or predict(rows))
    np.testing.assert_array_equal(ovo_predict(model, on_plane), predict(on_plane))
    assert calls == [5]


def test_blocks_and_other_kernels(monkeypatch):
    X, y = _classes(3, 4, 240, seed=3)
    monkeypatch.setattr(svm, "BLOCK_ROWS", 50)
    linear = SVC(kernel="linear").fit(X[:120], y[:120])
    np.testing.assert_array_equal(ovo_predict(linear, X), linear.predict(X))
    rbf = SVC(kernel="rbf").fit(X[:120], y[:120])
    np.testing.assert_array_equal(ovo_predict(rbf, X), rbf.predict(X))
    with pytest.raises(ValueError, match="0 sample"):  # as SVC.predict refuses
        ovo_predict(linear, X[:0])


def test_committed_benchmark_agrees_with_its_finding():
    """``make bench`` (bench_svc.py): no prediction differed, and the finding is the
    median of the measured speed ratios."""
    folder = paths.FIGURES_DIR / "awa2_dr_survey"
    bench = pd.read_csv(folder / "benchmark_svc.csv")
    findings = pd.read_csv(folder / "findings.csv", keep_default_na=False).set_index("finding")
    speed = findings.loc["svc_prediction_speed"]
    assert (bench["rows_differing"] == 0).all() and len(bench) >= 3
    assert float(speed["value"]) == pytest.approx(bench["speed_ratio"].median())
    assert speed["holds"] in (True, "True") and speed["produced_by"] == "make bench (bench_svc.py)"


def test_what_the_vote_does_not_reproduce_goes_to_svc_predict():
    """``break_ties=True`` (a tied vote is decided by the one-vs-rest values: 10 of these
    600 rows) and a model fitted on sparse data: predicted by ``SVC.predict`` itself."""
    from scipy import sparse

    X, y = _classes(5, 4, 600, seed=5, spread=0.3)
    tied = SVC(kernel="linear", break_ties=True).fit(X[:300], y[:300])
    assert np.any(tied.predict(X) != SVC(kernel="linear").fit(X[:300], y[:300]).predict(X))
    np.testing.assert_array_equal(ovo_predict(tied, X), tied.predict(X))
    fitted_sparse = SVC(kernel="linear").fit(sparse.csr_matrix(X[:300]), y[:300])
    np.testing.assert_array_equal(ovo_predict(fitted_sparse, X), fitted_sparse.predict(X))


def test_rows_svc_predict_refuses_are_refused_with_its_message():
    X, y = _classes(3, 4, 200, seed=6)
    model = SVC(kernel="linear").fit(X, y)
    with_nan = X[:5].copy()
    with_nan[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ovo_predict(model, with_nan)
    with pytest.raises(ValueError, match="3 features, but SVC is expecting 4"):
        ovo_predict(model, X[:, :3])
