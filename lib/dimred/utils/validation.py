"""Checks of the training data shared by the estimators."""

from numbers import Integral

import numpy as np

__all__ = [
    "CONSTANT_RTOL",
    "SPREAD_RANGE",
    "check_max_iter",
    "check_spread",
    "check_variance",
    "is_constant",
]

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
    check_variance(X, name)
    spread = float(np.ptp(np.asarray(X, dtype=float), axis=0).max(initial=0.0))
    low, high = SPREAD_RANGE
    if not low <= spread <= high:
        raise ValueError(
            f"{name}: X's features range over up to {spread:.3g}, outside [{low:.3g}, "
            f"{high:.3g}] where float64 holds the estimator's fourth-order quantities; rescale "
            "X (e.g. with sklearn.preprocessing.StandardScaler)."
        )


def check_variance(X, name, what="X"):
    """Refuse constant training data (:func:`is_constant`), the first check of
    :func:`check_spread`, for estimators that leave the scale to another one.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite (validated) data.
    name : str
        Estimator name for the message.
    what : str, default="X"
        The data's name in the message (``"Z"``: an embedding).

    Raises
    ------
    ValueError
    """
    if is_constant(X):
        raise ValueError(
            f"{name}: {what} has no variance (all {X.shape[0]} samples are identical, up to "
            f"{CONSTANT_RTOL:g} of their magnitude); there is no direction in which they vary."
        )


def check_max_iter(max_iter, iteration):
    """Refuse a ``max_iter`` that is not an integer >= 1.

    Without an iteration an iterative estimator would return its starting point.

    Parameters
    ----------
    max_iter : object
        The parameter as given.
    iteration : str
        What one iteration is, for the message (e.g. ``"Algorithm 1's MaxIter"``).

    Raises
    ------
    ValueError

    Examples
    --------
    >>> from dimred.utils.validation import check_max_iter
    >>> check_max_iter(20, "sweeps")
    >>> check_max_iter(0, "sweeps")
    Traceback (most recent call last):
    ...
    ValueError: max_iter=0 must be an integer >= 1 (sweeps); without an iteration ...
    """
    if isinstance(max_iter, bool) or not isinstance(max_iter, Integral) or max_iter < 1:
        raise ValueError(
            f"max_iter={max_iter!r} must be an integer >= 1 ({iteration}); without an "
            "iteration the result would be the starting point."
        )
