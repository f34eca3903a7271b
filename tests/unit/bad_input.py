"""The bad-input matrix: every public estimator and function against degenerate input.

Each *method* (:data:`METHODS`) is a small adapter that fits the estimator (or calls
the function) on ``(X, y)`` and returns what a user reads: predictions, a
projection, importances or a quality curve. Each *input* (:data:`INPUTS`) is a
degenerate variant of one small, well-posed problem (60 samples, 4 features, three
ordered classes), with what a correct method must do with it:

* refuse it with a ``ValueError`` or ``TypeError`` whose message names the problem
  (one of the input's ``keywords``), or
* return a finite result that agrees with the result on the clean problem as far as
  the method promises (``check``): the same predictions under an order-preserving
  relabelling, the same importances under a change of scale, ...

:func:`cell` runs one pair and classifies it as ``clear error``, ``result`` (both
fine), ``obscure error`` (an exception of another type, or a message that names
nothing) or ``garbage`` (a confident result that is wrong). ``tests/unit/test_bad_input.py``
runs the whole matrix, writes it to ``build/bad_input_report.{csv,md}`` and fails on
any obscure error or garbage.
"""

import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.ensemble import RandomForestClassifier
from sklearn.svm import SVC

import dimred
from papers.awa2_dr_survey.svc import ovo_predict
from papers.metrical_importance.forest import forest_proba

N, P = 60, 4


def base_problem():
    """Three ordered classes shifted along the first two features, two noise features."""
    rng = np.random.default_rng(0)
    y = np.repeat([1, 2, 3], N // 3)
    X = rng.normal(size=(N, P)) + (y - 2)[:, None] * np.array([2.0, 1.0, 0.0, 0.0])
    return X, y


@dataclass(frozen=True)
class Input:
    """A degenerate input: how to make it from the clean problem and how to judge a result.

    ``keywords``: words one of which a clear error message contains (case-insensitive).
    ``check``: ``check(method, result, clean)`` -> True when a returned result is right;
    ``None`` means every result is wrong (the input must be refused).
    """

    make: object
    keywords: tuple
    check: object = None
    supervised_only: bool = False


def _same(method, result, clean):
    """The result equals the clean one as far as ``method`` promises."""
    return method.agree(result, clean)


def _finite(method, result, clean):
    return bool(np.all(np.isfinite(np.asarray(result, dtype=float))))


def _scaled(factor):
    def make(X, y):
        return X * factor, y

    return make


def _relabelled(mapping):
    def make(X, y):
        return X, np.vectorize(mapping.get)(y)

    return make


def _categorical(X, y):
    return X, pd.Categorical(np.array(["low", "mid", "high"])[y - 1], ["low", "mid", "high"],
                             ordered=True)  # fmt: skip


def _strings(X, y):
    return X, np.array(["low", "mid", "high"])[y - 1]


def _with_nan(X, y):
    X = X.copy()
    X[3, 1] = np.nan
    return X, y


def _with_inf(X, y):
    X = X.copy()
    X[3, 1] = np.inf
    return X, y


def _mixed_frame(X, y):
    """A DataFrame of mixed dtypes: the first two columns as floats, then an int, a bool, a
    category and a string column made from the others' signs."""
    frame = pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "count": (X[:, 2] > 0).astype(int) + 1})
    frame["flag"] = X[:, 3] > 0
    frame["level"] = pd.Categorical(np.where(X[:, 2] > 0, "high", "low"))
    frame["name"] = np.where(X[:, 3] > 0, "up", "down")
    return frame, y


def _twice(X, y):
    """Every sample duplicated: 120 rows, 60 distinct points (a duplicate is no neighbour)."""
    return np.vstack([X, X]), np.concatenate([y, y])


#: What a refusal of constant data may say.
CONSTANT = ("constant", "variance", "vary", "identical", "spread")

INPUTS = {
    "NaN": Input(_with_nan, ("nan",)),
    "inf": Input(_with_inf, ("inf",)),
    "one class": Input(
        lambda X, y: (X, np.ones_like(y)), ("class", "rank", "label"), supervised_only=True
    ),  # fmt: skip
    "one sample": Input(lambda X, y: (X[:1], y[:1]), ("sample", "class", "rank")),
    "two samples": Input(
        lambda X, y: (X[[0, -1]], y[[0, -1]]), ("sample", "class", "rank"), _finite
    ),  # fmt: skip
    "one feature": Input(lambda X, y: (X[:, :1], y), ("feature", "image_shape"), _finite),
    "constant X": Input(lambda X, y: (np.full_like(X, 3.7), y), CONSTANT),
    "all-zero X": Input(lambda X, y: (np.zeros_like(X), y), CONSTANT),
    "X × 1e200": Input(_scaled(1e200), ("scale", "overflow", "large"), _same),
    "X × 1e-200": Input(_scaled(1e-200), ("scale", "underflow", "small"), _same),
    "string labels": Input(_strings, ("order", "numeric", "string"), _same, supervised_only=True),
    "ordered categorical labels": Input(_categorical, ("order",), _same, supervised_only=True),
    "labels 1/5/9": Input(
        _relabelled({1: 1, 2: 5, 3: 9}), ("label",), _same, supervised_only=True
    ),  # fmt: skip
    "sparse X": Input(lambda X, y: (sp.csr_matrix(X), y), ("sparse",), _same),
    "empty X": Input(lambda X, y: (X[:0], y[:0]), ("0 sample", "empty", "sample")),
    "3-D X": Input(lambda X, y: (X.reshape(N, 2, 2), y), ("2d", "dimension", "3")),
    "mismatched y": Input(
        lambda X, y: (X, y[:-1]), ("inconsistent", "sample", "length"), supervised_only=True
    ),  # fmt: skip
    "every row twice": Input(_twice, ("duplicate",), _finite),
    "mixed-dtype DataFrame": Input(
        _mixed_frame, ("string", "convert", "float", "dtype", "categor", "numeric"), _finite
    ),  # fmt: skip
}


@dataclass
class Method:
    """An adapter: ``run(X, y) -> result`` and how two results agree.

    ``kind``: ``"labels"`` (predictions: equal up to the input's relabelling),
    ``"subspace"`` (a projection of the training data: equal up to scale, sign and
    a rotation of its columns), ``"values"`` (equal to rounding), ``"relative"``
    (equal up to a common positive factor), ``"finite"`` (only finiteness is
    promised). ``supervised=False``: the method takes no labels, so inputs about
    ``y`` do not apply. ``label_order=True``: the result follows the sorted order of the
    class labels (rows of class centres, a tie rule to the smallest label), so labels
    renamed out of that order (strings) give another, equally right, result.
    ``reference``: for a helper that promises another library's result, that result
    (``reference(X, y)``); every result must then equal it, on any input.
    """

    run: object
    kind: str
    supervised: bool = True
    uses_x: bool = True
    label_order: bool = False
    reference: object = None

    def agree(self, result, clean):
        result, clean = np.asarray(result), np.asarray(clean)
        if result.shape != clean.shape:
            return False
        if self.kind == "labels":
            return _same_partition(result, clean)
        numbers = np.asarray(result, dtype=float)
        if not np.all(np.isfinite(numbers)):
            return False
        clean = np.asarray(clean, dtype=float)
        if self.kind == "subspace":
            return _same_span(numbers, clean)
        if self.kind == "relative":
            numbers, clean = numbers / np.abs(numbers).max(), clean / np.abs(clean).max()
        return bool(np.allclose(numbers, np.asarray(clean, dtype=float), rtol=1e-6, atol=1e-9))


def _same_partition(result, clean):
    """Predictions equal up to a one-to-one, order-preserving renaming of the labels."""
    if result.dtype.kind not in "iuf" or clean.dtype.kind not in "iuf":
        _, result = np.unique(result.astype(str), return_inverse=True)
        _, clean = np.unique(clean.astype(str), return_inverse=True)
    pairs = {(a, b) for a, b in zip(result.tolist(), clean.tolist(), strict=True)}
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


def _same_span(result, clean):
    """The columns span the same subspace of R^n (scale, sign and rotation ignored)."""
    if result.ndim == 1:
        result, clean = result[:, None], clean[:, None]
    q1, _ = np.linalg.qr(result - result.mean(axis=0))
    q2, _ = np.linalg.qr(clean - clean.mean(axis=0))
    singular = np.linalg.svd(q1.T @ q2, compute_uv=False)
    return bool(singular.min() > 1 - 1e-6)


def _predict(make):
    return lambda X, y: make().fit(X, y).predict(X)


def _project(make):
    return lambda X, y: make().fit(X, y).transform(X)


def _embed(make):
    return lambda X, y: make().fit_transform(X)


def _autoencoder():
    from dimred.neural import Autoencoder

    return Autoencoder(2, hidden_layer_sizes=(8,), max_epochs=3, batch_size=16, random_state=0)


def _map(X):
    """A fixed 2-D 'map' of the clean problem, shaped like X's rows."""
    return np.column_stack([np.arange(X.shape[0]) % 7, np.arange(X.shape[0]) % 5]).astype(float)


METHODS = {
    "BestViewProjection": Method(
        _project(lambda: dimred.BestViewProjection(random_state=0)), "subspace"
    ),  # fmt: skip
    "ClassicalMDS": Method(_embed(dimred.ClassicalMDS), "subspace", supervised=False),
    "ConstantRank": Method(_predict(dimred.ConstantRank), "labels", uses_x=False),
    "FisherTSNE": Method(
        lambda X, y: dimred.FisherTSNE(perplexity=5, random_state=0, max_iter=250).fit_transform(
            X, y
        ),
        "finite",
    ),  # fmt: skip
    "GramFactorAnalysis": Method(
        _embed(lambda: dimred.GramFactorAnalysis(2, random_state=0)), "subspace", supervised=False
    ),
    "KernelDiscriminantAnalysis": Method(_project(dimred.KernelDiscriminantAnalysis), "subspace"),
    "LocalitySensitiveDiscriminantAnalysis": Method(
        _project(dimred.LocalitySensitiveDiscriminantAnalysis), "subspace"
    ),  # fmt: skip
    "MetricalImportance": Method(
        lambda X, y: dimred.MetricalImportance().fit(X, y).feature_importances_, "values"
    ),
    "MultilinearORML": Method(
        _predict(lambda: dimred.MultilinearORML((2, 2), n_neighbors=5, random_state=0)), "labels"
    ),
    "MultilinearRankProjection": Method(
        _predict(
            lambda: dimred.MultilinearRankProjection("lpp", (2, 2), n_neighbors=5, random_state=0)
        ),
        "labels",
    ),
    "NeRVRelevance": Method(
        lambda X, y: dimred.NeRVRelevance(5).fit(X, _map(X)).relevances_,
        "relative",
        supervised=False,
    ),  # fmt: skip
    "ORML": Method(_predict(lambda: dimred.ORML(n_neighbors=5)), "labels"),
    "ProjectionRanker": Method(
        _predict(lambda: dimred.ProjectionRanker(dimred.BestViewProjection(random_state=0))),
        "labels",
    ),
    "RankProjection": Method(
        _predict(lambda: dimred.RankProjection("npe", n_neighbors=5)), "labels"
    ),  # fmt: skip
    "backward_relevance": Method(
        lambda X, y: dimred.backward_relevance(X, _map(X), [3, 6]), "values", supervised=False
    ),  # fmt: skip
    "coranking_quality": Method(
        lambda X, y: dimred.coranking_quality(X, _map(X), 10), "values", supervised=False
    ),  # fmt: skip
    "forest_importances": Method(
        lambda X, y: dimred.forest_importances(
            X, y, n_estimators=20, random_state=0, shap_rows=20
        ).to_numpy(),
        "values",
    ),  # fmt: skip
    "forward_relevance": Method(
        lambda X, y: dimred.forward_relevance(X, _map(X), [3, 6]), "values", supervised=False
    ),  # fmt: skip
    "Autoencoder": Method(_embed(_autoencoder), "finite", supervised=False),
}


def _svc(X, y):
    return SVC(kernel="linear").fit(X, y)


def _forest(X, y):
    return RandomForestClassifier(10, random_state=0, n_jobs=1).fit(X, y)


#: The papers' helpers a notebook user calls with data of their own, each held to the
#: library result it promises (``SVC.predict``, ``RandomForestClassifier.predict_proba``).
METHODS |= {
    "ovo_predict": Method(
        lambda X, y: ovo_predict(_svc(X, y), X), "labels",
        reference=lambda X, y: _svc(X, y).predict(X),
    ),
    "forest_proba": Method(
        lambda X, y: forest_proba(X, y, X, random_state=0, n_estimators=10), "values",
        reference=lambda X, y: _forest(X, y).predict_proba(X),
    ),
}  # fmt: skip


def _of_labels(name):
    """A metric of an embedding and its labels, on ``(X, y)`` (``X`` is the embedding)."""
    return lambda X, y: getattr(dimred.metrics, name)(X, y)


def _of_map(name, part=lambda result: result):
    """A metric of data and a map of it, on ``X`` and :func:`_map`; ``part``: what of its
    result is compared."""
    return lambda X, y: part(getattr(dimred.metrics, name)(X, _map(X)))


#: The metrics of :mod:`dimred.metrics` that read data.
METHODS |= {
    name: Method(_of_labels(name), "values")
    for name in ("adjacent_centres_nearer", "order_correlation", "within_class_share")
}
METHODS["knn_accuracy"] = Method(_of_labels("knn_accuracy"), "values", label_order=True)
METHODS |= {
    name: Method(_of_map(name), "values", supervised=False)
    for name in ("continuity", "coranking_matrix", "trustworthiness")
}
METHODS["rnx_curve"] = Method(_of_map("rnx_curve", lambda r: r[0]), "values", supervised=False)
METHODS["neighbourhood_scores"] = Method(
    _of_map("neighbourhood_scores", lambda r: list(r.values())), "values", supervised=False
)
METHODS["projected_centres"] = Method(
    lambda X, y: dimred.metrics.projected_centres(X, y)[1], "relative", label_order=True
)  # fmt: skip

#: Inputs whose labels are renamed out of their sorted order (:attr:`Method.label_order`).
RENAMING = ("string labels", "ordered categorical labels")
#: Outcomes of a cell, fine first.
OUTCOMES = ("clear error", "result", "not applicable", "obscure error", "garbage")


def cell(method_name, input_name):
    """Run one method on one input: ``(outcome, detail)``."""
    method, case = METHODS[method_name], INPUTS[input_name]
    if case.supervised_only and not method.supervised:
        return "not applicable", "the method takes no labels"
    X, y = base_problem()
    clean = _run(method, X, y)
    Xb, yb = case.make(X, y)
    try:
        result = _run(method, Xb, yb)
    except (ValueError, TypeError) as error:
        message = str(error)
        named = any(k in message.lower() for k in case.keywords)
        return ("clear error" if named else "obscure error"), _short(error)
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return "obscure error", _short(error)
    if method.reference is not None:
        return _against_reference(method, Xb, yb, result)
    renamed = method.label_order and input_name in RENAMING
    check = _finite if (method.kind == "finite" or renamed) and case.check is _same else case.check
    if not method.uses_x and check is None:
        check = _same  # X is not read: any X must give the clean result
    if check is not None and check(method, result, clean):
        return "result", "finite" if check is _finite else "agrees with the clean problem"
    return "garbage", _describe(result)


def _run(method, X, y, run=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (run or method.run)(X, y)


def _against_reference(method, X, y, result):
    """A helper's result on ``(X, y)`` against its reference's: equal, or garbage (also
    where the reference refuses what the helper accepted)."""
    try:
        expected = _run(method, X, y, method.reference)
    except Exception as error:  # noqa: BLE001 - a refusal of any kind
        return "garbage", f"its reference refuses it ({_short(error)})"
    if np.array_equal(np.asarray(result), np.asarray(expected)):
        return "result", "equal to its reference"
    return "garbage", f"{_describe(result)}, its reference {_describe(expected)}"


def _short(error):
    text = re.sub(r"\s+", " ", f"{type(error).__name__}: {error}")
    return text[:160]


def _describe(result):
    values = np.asarray(result)
    if values.dtype.kind in "iufb":
        return f"returned {values.shape} {np.round(values.ravel()[:4], 3).tolist()}"
    return f"returned {values.shape} {values.ravel()[:4].tolist()}"


def write_report(table, stem, sections):
    """Write a matrix ``table`` to ``build/<stem>.csv`` and ``build/<stem>.md`` (the
    Markdown ``sections`` first, then every cell); return ``table``."""
    from compendium import paths

    folder = paths.ROOT / "build"
    folder.mkdir(exist_ok=True)
    table.to_csv(folder / f"{stem}.csv", index=False)
    text = [*sections, "", "## Every cell", "", table.to_markdown(index=False)]
    (folder / f"{stem}.md").write_text("\n".join(text) + "\n")
    return table


def matrix():
    """Every cell: DataFrame (method, input, outcome, detail)."""
    return pd.DataFrame(
        [(m, i, *cell(m, i)) for m in METHODS for i in INPUTS],
        columns=["method", "input", "outcome", "detail"],
    )
