"""The hyper-parameter matrix: every public estimator against bad values of every parameter.

Each estimator (:data:`ESTIMATORS`) declares its parameters' types and ranges in
``_parameter_constraints`` (scikit-learn's parameter validation). From them
:func:`values` derives, for every parameter,

* **invalid values**: zero, negative or out-of-range numbers (just past each bound an
  interval excludes, ``nan`` and ``inf`` for real ones), the wrong type (a float for an
  integer, a string for a number, a number for a string option), an unknown option; a
  value counts only if it satisfies none of the parameter's constraints;
* **edge values** the constraints allow: each closed bound of an interval (``tol=0``,
  ``max_iter=1``, ``alpha=1``), ``None`` where it is allowed.

:func:`cell` fits the estimator on the clean problem of :mod:`bad_input` with one value
set and classifies the outcome: an invalid value must be refused by a ``ValueError`` or
``TypeError`` whose message names the parameter (``clear error``), an edge value must
give a finite result (``result``) or such a refusal; anything else is an ``obscure
error`` or, for an invalid value that gave a result, ``garbage``.
"""

import math
import re
import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from bad_input import _autoencoder, _map, base_problem
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, make_constraint

import dimred

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


def cells():
    """Every (estimator, parameter, value, kind) of the matrix, ``kind`` ``"invalid"`` or
    ``"edge"``."""
    found = []
    for name in ESTIMATORS:
        for parameter, constraints in _estimator_class(name)._parameter_constraints.items():
            invalid, edge = values(constraints)
            found += [(name, parameter, value, "invalid") for value in invalid]
            found += [(name, parameter, value, "edge") for value in edge]
    return found


def cell(name, parameter, value, kind):
    """Fit estimator ``name`` with ``parameter=value`` on the clean problem: ``(outcome,
    detail)``."""
    estimator = ESTIMATORS[name].make().set_params(**{parameter: value})
    X, y = base_problem()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = ESTIMATORS[name].run(estimator, X, y)
    except (ValueError, TypeError) as error:
        named = re.search(rf"\b{re.escape(parameter)}\b", str(error)) is not None
        return ("clear error" if named else "obscure error"), _short(error)
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return "obscure error", _short(error)
    if kind == "invalid":
        return "garbage", f"accepted {value!r}"
    finite = np.asarray(result).dtype.kind not in "fc" or np.all(np.isfinite(result))
    return ("result", "finite") if finite else ("garbage", "not finite")


def _short(error):
    return re.sub(r"\s+", " ", f"{type(error).__name__}: {error}")[:160]


def matrix():
    """Every cell: DataFrame (estimator, parameter, value, kind, outcome, detail)."""
    rows = [(n, p, repr(v), k, *cell(n, p, v, k)) for n, p, v, k in cells()]
    columns = ["estimator", "parameter", "value", "kind", "outcome", "detail"]
    return pd.DataFrame(rows, columns=columns)
