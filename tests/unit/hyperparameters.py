"""The hyper-parameter matrix: every public estimator and function against bad values of
every parameter.

Each estimator (:data:`ESTIMATORS`) declares its parameters' types and ranges in
``_parameter_constraints`` (scikit-learn's parameter validation), each public function
with parameters (:data:`FUNCTIONS`: those of ``dimred``, ``dimred.metrics``, the task
runner and the papers' helpers a notebook user calls) in the constraints of its
``validate_params`` decorator. From them :func:`values` derives, for every parameter,

* **invalid values**: zero, negative or out-of-range numbers (just past each bound an
  interval excludes, ``nan`` and ``inf`` for real ones), the wrong type (a float for an
  integer, a string for a number, a number for a string option), an unknown option; a
  value counts only if it satisfies none of the parameter's constraints;
* **edge values** the constraints allow: each closed bound of an interval (``tol=0``,
  ``max_iter=1``, ``alpha=1``), ``None`` where it is allowed.

Data parameters (``"no_validation"``: validated by the function itself, and met by the
bad-input matrix) are left out. :func:`cell` fits the estimator, or calls the function, on
the clean problem of :mod:`bad_input` with one value set and classifies the outcome: an
invalid value must be refused by a ``ValueError`` or ``TypeError`` whose message names the
parameter (``clear error``), an edge value must give a finite result (``result``) or such
a refusal; anything else is an ``obscure error`` or, for an invalid value that gave a
result, ``garbage``.
"""

import importlib
import math
import operator
import re
import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from bad_input import _autoencoder, _map, base_problem
from sklearn.svm import SVC
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, make_constraint

import dimred
from dimred import metrics
from dimred.utils.parallel import resolve_n_jobs, run_tasks
from papers import PAPERS
from papers.awa2_dr_survey.svc import ovo_predict
from papers.metrical_importance.forest import forest_proba

#: Outcomes of a cell, fine first.
OUTCOMES = ("clear error", "result", "obscure error", "garbage")


@dataclass(frozen=True)
class Estimator:
    """How to make the estimator for the clean problem and what a user reads of it."""

    make: object
    run: object


def _predict(estimator, X, y):
    return estimator.fit(X, y).predict(X)


def _project(estimator, X, y):
    return estimator.fit(X, y).transform(X)


def _embed(estimator, X, y):
    return estimator.fit_transform(X)


ESTIMATORS = {
    "BestViewProjection": Estimator(lambda: dimred.BestViewProjection(random_state=0), _project),
    "ClassicalMDS": Estimator(dimred.ClassicalMDS, _embed),
    "ConstantRank": Estimator(lambda: dimred.ConstantRank(random_state=0), _predict),
    "FisherTSNE": Estimator(
        lambda: dimred.FisherTSNE(perplexity=5, max_iter=250, random_state=0),
        lambda estimator, X, y: estimator.fit_transform(X, y),
    ),
    "GramFactorAnalysis": Estimator(
        lambda: dimred.GramFactorAnalysis(2, random_state=0), _embed
    ),  # fmt: skip
    "KernelDiscriminantAnalysis": Estimator(dimred.KernelDiscriminantAnalysis, _project),
    "LocalitySensitiveDiscriminantAnalysis": Estimator(
        dimred.LocalitySensitiveDiscriminantAnalysis, _project
    ),  # fmt: skip
    "MetricalImportance": Estimator(
        dimred.MetricalImportance, lambda e, X, y: e.fit(X, y).feature_importances_
    ),
    "MultilinearORML": Estimator(
        lambda: dimred.MultilinearORML((2, 2), n_neighbors=5, random_state=0), _predict
    ),
    "MultilinearRankProjection": Estimator(
        lambda: dimred.MultilinearRankProjection("lpp", (2, 2), n_neighbors=5, random_state=0),
        _predict,
    ),
    "NeRVRelevance": Estimator(
        lambda: dimred.NeRVRelevance(5, max_iter=50),
        lambda estimator, X, y: estimator.fit(X, _map(X)).relevances_,
    ),
    "ORML": Estimator(lambda: dimred.ORML(n_neighbors=5), _predict),
    "ProjectionRanker": Estimator(
        lambda: dimred.ProjectionRanker(dimred.BestViewProjection(random_state=0)), _predict
    ),
    "RankProjection": Estimator(lambda: dimred.RankProjection("npe", n_neighbors=5), _predict),
    "Autoencoder": Estimator(_autoencoder, _embed),
}


@dataclass(frozen=True)
class Function:
    """A public function and how to call it on the clean problem ``(X, y)`` with some of its
    parameters set (``call(X, y, **values)``), returning what a user reads of it."""

    function: object
    call: object


#: Scores of three methods on six data sets (the example of ``average_ranks``).
SCORES = [[0.30, 0.35, 0.50], [0.20, 0.25, 0.40], [0.45, 0.40, 0.60],
          [0.10, 0.15, 0.30], [0.33, 0.38, 0.52], [0.21, 0.22, 0.41]]  # fmt: skip


def _with(function, defaults, *data):
    """``function(*data(X, y), **{**defaults, **values})``."""
    return Function(
        function, lambda X, y, **values: function(*(d(X, y) for d in data), **defaults | values)
    )


def _data(X, y):
    return X


def _labels(X, y):
    return y


def _of_map(X, y):
    return _map(X)


def _svc(X, y):
    return SVC(kernel="linear").fit(X, y)


def _read(function, part):
    """``function``, its result read through ``part``."""
    return Function(function.function, lambda X, y, **values: part(function.call(X, y, **values)))


FUNCTIONS = {
    "average_ranks": _read(_with(metrics.average_ranks, {}, lambda X, y: SCORES), lambda r: r[1]),
    "backward_relevance": _with(dimred.backward_relevance, {"n_neighbors": [3, 6]}, _data, _of_map),
    "continuity": _with(metrics.continuity, {}, _data, _of_map),
    "coranking_quality": _with(metrics.coranking_quality, {}, _data, _of_map),
    "forest_importances": _read(
        _with(
            dimred.forest_importances,
            {"n_estimators": 20, "random_state": 0, "shap_rows": 20},
            _data,
            _labels,
        ),
        lambda table: table.to_numpy(),
    ),  # fmt: skip
    "forest_proba": _with(
        forest_proba, {"random_state": 0, "n_estimators": 5}, _data, _labels, _data
    ),  # fmt: skip
    "forward_relevance": _with(dimred.forward_relevance, {"n_neighbors": [3, 6]}, _data, _of_map),
    "friedman_test": _read(
        _with(metrics.friedman_test, {}, lambda X, y: SCORES), lambda r: r.chi2
    ),  # fmt: skip
    "knn_accuracy": _with(metrics.knn_accuracy, {}, _data, _labels),
    "nemenyi_cd": _with(metrics.nemenyi_cd, {"n_methods": 3, "n_datasets": 6}),
    "nemenyi_groups": _read(
        _with(metrics.nemenyi_groups, {"mean_ranks": [1.17, 1.83, 3.0], "cd": 1.35}), len
    ),  # fmt: skip
    "neighbourhood_scores": _read(
        _with(metrics.neighbourhood_scores, {}, _data, _of_map), lambda r: list(r.values())
    ),  # fmt: skip
    "ordinal_scores": _read(
        _with(metrics.ordinal_scores, {}, _labels, lambda X, y: y[::-1]), lambda r: list(r.values())
    ),  # fmt: skip
    "ovo_predict": Function(
        ovo_predict, lambda X, y, **values: ovo_predict(**{"model": _svc(X, y), "X": X} | values)
    ),
    "resolve_n_jobs": _with(resolve_n_jobs, {"n_jobs": None}),
    "rnx_curve": _read(_with(metrics.rnx_curve, {}, _data, _of_map), lambda r: r[1]),
    "run_tasks": _with(
        run_tasks,
        {
            "function": operator.neg,
            "tasks": [(1,), (2,)],
            "desc": "test",
            "n_jobs": 1,
            "progress": False,
        },
    ),  # fmt: skip
    "trustworthiness": _with(metrics.trustworthiness, {}, _data, _of_map),
}
#: Each paper's settings, the parameters of its notebook (the result: its seed and workers).
FUNCTIONS |= {
    f"{paper}.params": _read(
        _with(importlib.import_module(f"papers.{paper}").params, {}), lambda p: [p.seed, p.n_jobs]
    )
    for paper in PAPERS
}


def _invalid_candidates(constraint):
    """Values that a parameter with ``constraint`` alone would refuse."""
    if isinstance(constraint, Interval):
        candidates = ["x"]
        for bound, side, step in ((constraint.left, "left", -1), (constraint.right, "right", 1)):
            if bound is None:
                continue
            closed = constraint.closed in (side, "both")
            candidates.append(bound + step)
            if not closed:
                candidates.append(bound)
        if constraint.type is Integral:
            candidates.append(1.5)
        else:
            candidates += [math.nan, math.inf]
        return candidates
    if isinstance(constraint, StrOptions):
        return ["no-such-option", 3]
    if isinstance(constraint, HasMethods):
        return [object()]
    if constraint == "random_state":
        return ["seed"]
    if constraint in ("verbose", "boolean"):
        return ["loud"]
    if constraint == "array-like":
        return [7]
    if constraint is Integral:
        return [1.5, "3"]
    if constraint is str:
        return [3]
    if constraint is callable:
        return [7]
    if isinstance(constraint, type):
        return [object()]
    return []


def _edge_candidates(constraint):
    """Values on the boundary of what ``constraint`` allows."""
    if isinstance(constraint, Interval):
        return [
            bound
            for bound, side in ((constraint.left, "left"), (constraint.right, "right"))
            if bound is not None and constraint.closed in (side, "both")
        ]
    if constraint is None:
        return [None]
    return []


def values(constraints):
    """``(invalid, edge)`` values of one parameter from its constraints (module docstring)."""
    checks = [make_constraint(constraint) for constraint in constraints]

    def allowed(value):
        return any(check.is_satisfied_by(value) for check in checks)

    invalid = [v for c in constraints for v in _invalid_candidates(c) if not allowed(v)]
    edge = [v for c in constraints for v in _edge_candidates(c) if allowed(v)]
    return _unique(invalid), _unique(edge)


def _unique(items):
    """``items`` without repeats (``nan`` once), in order."""
    seen, kept = set(), []
    for item in items:
        key = (type(item).__name__, repr(item))
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _estimator_class(name):
    return type(ESTIMATORS[name].make())


def constraints_of(name):
    """The declared constraints of estimator or function ``name``, data parameters left out."""
    if name in FUNCTIONS:
        declared = FUNCTIONS[name].function._skl_parameter_constraints
    else:
        declared = _estimator_class(name)._parameter_constraints
    return {p: c for p, c in declared.items() if c != "no_validation"}


def cells():
    """Every (name, parameter, value, kind) of the matrix, ``kind`` ``"invalid"`` or
    ``"edge"``."""
    found = []
    for name in [*ESTIMATORS, *FUNCTIONS]:
        for parameter, constraints in constraints_of(name).items():
            invalid, edge = values(constraints)
            found += [(name, parameter, value, "invalid") for value in invalid]
            found += [(name, parameter, value, "edge") for value in edge]
    return found


def cell(name, parameter, value, kind):
    """Fit estimator ``name``, or call function ``name``, with ``parameter=value`` on the
    clean problem: ``(outcome, detail)``."""
    X, y = base_problem()
    if name in FUNCTIONS:
        run = lambda: FUNCTIONS[name].call(X, y, **{parameter: value})  # noqa: E731
    else:
        estimator = ESTIMATORS[name].make().set_params(**{parameter: value})
        run = lambda: ESTIMATORS[name].run(estimator, X, y)  # noqa: E731
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = run()
    except (ValueError, TypeError) as error:
        named = re.search(rf"\b{re.escape(parameter)}\b", str(error)) is not None
        return ("clear error" if named else "obscure error"), _short(error)
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return "obscure error", _short(error)
    if kind == "invalid":
        return "garbage", f"accepted {value!r}"
    result = np.asarray(result)
    finite = result.dtype.kind not in "fc" or np.all(np.isfinite(result))
    return ("result", "finite") if finite else ("garbage", "not finite")


def _short(error):
    return re.sub(r"\s+", " ", f"{type(error).__name__}: {error}")[:160]


def matrix():
    """Every cell: DataFrame (method, parameter, value, kind, outcome, detail)."""
    rows = [(n, p, repr(v), k, *cell(n, p, v, k)) for n, p, v, k in cells()]
    columns = ["method", "parameter", "value", "kind", "outcome", "detail"]
    return pd.DataFrame(rows, columns=columns)
