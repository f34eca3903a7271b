"""Checks of the training data shared by the estimators."""

import numpy as np

__all__ = ["SPREAD_RANGE", "check_spread"]

#: Accepted range of the largest feature range ``max_j (max_i x_ij - min_i x_ij)``.
#: The estimators form up to fourth powers of the data (IsoProjection's
#: ``Z^T tau(D_G) Z``, with ``n^4`` on top), which must stay normal float64 numbers.
SPREAD_RANGE = (2.0**-200, 2.0**200)


def check_spread(X, name):
    """Refuse training data that give no direction or that float64 cannot process.

    Identical samples (``X`` constant) have no direction in which they vary:
    every projection of them is 0, so the estimators would return zeros or
    arbitrary directions. Values spread over more than :data:`SPREAD_RANGE`
    (about ``1e60``) overflow the second- and fourth-order quantities the
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
    spread = np.ptp(X, axis=0).max(initial=0.0)
    if spread == 0:
        raise ValueError(
            f"{name}: X has no variance (all {X.shape[0]} samples are identical); there is "
            "no direction to learn."
        )
    low, high = SPREAD_RANGE
    if not low <= spread <= high:
        raise ValueError(
            f"{name}: X's features range over up to {spread:.3g}, outside [{low:.3g}, "
            f"{high:.3g}] where float64 holds the estimator's fourth-order quantities; rescale "
            "X (e.g. with sklearn.preprocessing.StandardScaler)."
        )
