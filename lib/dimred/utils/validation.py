"""Checks of the training data shared by the estimators."""

import numpy as np

__all__ = ["CONSTANT_RTOL", "SPREAD_RANGE", "check_spread", "is_constant"]

#: ``X`` is constant when its largest feature range is at most this fraction of its
#: largest magnitude (a column of 3.7s, whose mean rounds, is constant).
CONSTANT_RTOL = 1e-12
#: Accepted range of the largest feature range ``max_j (max_i x_ij - min_i x_ij)``.
#: The estimators form up to fourth powers of the data (IsoProjection's
#: ``Z^T tau(D_G) Z``, with ``n^4`` on top), which must stay normal float64 numbers.
SPREAD_RANGE = (2.0**-200, 2.0**200)


def is_constant(X):
    """Whether every feature of ``X`` ranges over at most :data:`CONSTANT_RTOL` of the
    largest magnitude in ``X`` (a tolerance relative to the data's scale, so that a
    column of 3.7s, whose mean rounds, is constant and ``X * 1e-200`` is not)."""
    X = np.asarray(X, dtype=float)
    X = X.reshape(X.shape[0], -1)
    return bool(np.ptp(X, axis=0).max(initial=0.0) <= CONSTANT_RTOL * np.abs(X).max(initial=0.0))


def check_spread(X, name):
    """Refuse training data that give no direction or that float64 cannot process.

    Identical samples (``X`` constant: no feature ranges over more than
    :data:`CONSTANT_RTOL` of the data's largest magnitude) have no direction in
    which they vary: every projection of them is 0 or rounding noise, so the
    estimators would return zeros or arbitrary directions. Values spread over more
    than :data:`SPREAD_RANGE` (about ``1e60``) overflow the second- and fourth-order quantities the
    estimators form; below it they underflow. Either way a clear error is raised
    rather than a rescaled fit, so that the fitted attributes keep the units of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite (validated) data.
    name : str
        Estimator name for the messages.

    Raises
    ------
    ValueError
    """
    if is_constant(X):
        raise ValueError(
            f"{name}: X has no variance (all {X.shape[0]} samples are identical, up to "
            f"{CONSTANT_RTOL:g} of their magnitude); there is no direction in which they vary."
        )
    spread = float(np.ptp(np.asarray(X, dtype=float), axis=0).max(initial=0.0))
    low, high = SPREAD_RANGE
    if not low <= spread <= high:
        raise ValueError(
            f"{name}: X's features range over up to {spread:.3g}, outside [{low:.3g}, "
            f"{high:.3g}] where float64 holds the estimator's fourth-order quantities; rescale "
            "X (e.g. with sklearn.preprocessing.StandardScaler)."
        )
