"""Scores of ordinal predictions, as the ORCA review reports them (Gutiérrez et al. 2016,
Sect. 5.2): the mean absolute error of the rank indices (MAE), the mean zero-one error
(MZE) and Kendall's ``tau_b`` between true and predicted ranks.

Ranks are compared by their position in the ordered classes, so labels of any type
(numbers, an ordered ``pandas.Categorical``) score alike. A prediction that never
varies (the median-rank baseline) has no association with the truth: its ``tau_b``,
undefined as ``0 / 0``, is taken as 0.
"""

import numpy as np
from scipy.stats import kendalltau

from ..utils.labels import check_ranks

__all__ = ["ordinal_scores"]


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


def _codes(y, classes):
    """Position of each label in ``classes``; ``ValueError`` for a label not among them."""
    index = {label: i for i, label in enumerate(classes.tolist())}
    missing = set(y.tolist()) - index.keys()
    if missing:
        raise ValueError(f"labels {sorted(map(str, missing))} are not among the ranks {classes}.")
    return np.array([index[label] for label in y.tolist()])
