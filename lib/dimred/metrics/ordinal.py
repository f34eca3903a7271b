"""Scores of ordinal predictions, as the ORCA review reports them (Gutiérrez et al. 2016,
Sect. 5.2): the mean absolute error of the rank indices (MAE), the mean zero-one error
(MZE) and Kendall's ``tau_b`` between true and predicted ranks.

Ranks are compared by their position in the ordered classes, so labels of any type
(numbers, an ordered ``pandas.Categorical``) score alike. A prediction that never
varies (the median-rank baseline) has no association with the truth: its ``tau_b``,
undefined as ``0 / 0``, is taken as 0.
"""

import numpy as np
import pandas as pd
from scipy.stats import kendalltau
from sklearn.utils._param_validation import validate_params

from ..utils.labels import check_ranks

__all__ = ["neg_rank_mae", "ordinal_scores"]


@validate_params(
    {"y_true": "no_validation", "y_pred": "no_validation", "classes": ["array-like", None]},
    prefer_skip_nested_validation=True,
)
def ordinal_scores(y_true, y_pred, classes=None):
    """MAE, MZE and Kendall's ``tau_b`` of ordinal predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    classes : array-like, optional
        The ranks in their order; default those of ``y_true`` and ``y_pred`` together
        (:func:`~dimred.utils.labels.check_ranks`).

    Returns
    -------
    dict
        ``mae`` (in rank steps), ``mze`` (a fraction) and ``tau_b``.

    Examples
    --------
    >>> from dimred.metrics import ordinal_scores
    >>> scores = ordinal_scores([1, 2, 3, 3], [1, 3, 3, 2])
    >>> {name: round(value, 2) for name, value in scores.items()}
    {'mae': 0.5, 'mze': 0.5, 'tau_b': 0.4}

    Labels of any type score by their position in ``classes``:

    >>> scores = ordinal_scores(["low", "mid", "high"], ["low", "high", "high"],
    ...                         classes=["low", "mid", "high"])
    >>> round(scores["mae"], 2), round(scores["mze"], 2)
    (0.33, 0.33)
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.ndim != 1 or y_true.size == 0:
        raise ValueError(
            f"y_true and y_pred must be 1-D of the same length; got {y_true.shape} and "
            f"{y_pred.shape}."
        )
    if classes is None:
        classes, _ = check_ranks(np.concatenate([y_true, y_pred]), "ordinal_scores")
    classes = np.asarray(classes)
    codes_true, codes_pred = _codes(y_true, classes), _codes(y_pred, classes)
    tau = kendalltau(codes_true, codes_pred).statistic
    return {
        "mae": float(np.mean(np.abs(codes_true - codes_pred))),
        "mze": float(np.mean(codes_true != codes_pred)),
        "tau_b": 0.0 if np.isnan(tau) else float(tau),
    }


def neg_rank_mae(estimator, X, y):
    """Scorer: minus the MAE of the ranks ``estimator`` predicts for ``X`` (greater is better).

    The measure the ORML paper and the ORCA review select and report by. Pass it as
    ``scoring=`` to ``GridSearchCV`` or ``cross_val_score``: an ordinal estimator's own
    ``score`` is the accuracy. Ranks are positions in ``y``'s categories when ``y`` is an
    ordered ``pandas.Categorical``, else among the values of ``y`` and the predictions
    (:func:`ordinal_scores`); for numbers on a scale of consecutive integers it is the
    plain ``mean |y - y_pred|``.

    Parameters
    ----------
    estimator : fitted estimator with ``predict``
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import GridSearchCV
    >>> from dimred import ORML
    >>> from dimred.metrics import neg_rank_mae
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 20)
    >>> X = np.column_stack([y + 0.3 * rng.normal(size=60), rng.normal(size=60)])
    >>> search = GridSearchCV(ORML(), {"C": [0.1, 1.0]}, scoring=neg_rank_mae, cv=3)
    >>> float(search.fit(X, y).best_score_) > -0.2
    True
    """
    classes = None
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        classes = np.asarray(pd.Categorical(y).categories)
    return -ordinal_scores(np.asarray(y), np.asarray(estimator.predict(X)), classes)["mae"]


def _codes(y, classes):
    """Position of each label in ``classes``; ``ValueError`` for a label not among them."""
    index = {label: i for i, label in enumerate(classes.tolist())}
    missing = set(y.tolist()) - index.keys()
    if missing:
        raise ValueError(f"labels {sorted(map(str, missing))} are not among the ranks {classes}.")
    return np.array([index[label] for label in y.tolist()])
