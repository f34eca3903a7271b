"""Labels shared by the estimators: class centres and the check of ordinal ranks."""

import warnings

import numpy as np
from sklearn.utils.multiclass import check_classification_targets, type_of_target

__all__ = ["check_ranks", "class_centres"]


def class_centres(X, y):
    """Sorted class labels and the mean of ``X`` over each class.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    centres : ndarray of shape (n_classes, n_features)
    """
    classes, codes = np.unique(y, return_inverse=True)
    centres = np.zeros((classes.size, X.shape[1]))
    np.add.at(centres, codes, X)
    return classes, centres / np.bincount(codes)[:, None]


def check_ranks(y, name, min_per_rank=1):
    """Validate ordinal labels; return the sorted ranks and each sample's rank index.

    The ranks are the distinct values of ``y`` in increasing numeric order and
    are used by position (rank index ``0 .. k-1``), so Eq. (3)'s ``|y_i - y_j|``
    is the difference of positions. Labels must be numeric: strings have no
    order that means anything for ranks. Integer labels with a gap (a level
    between the smallest and largest never observed, e.g. ratings 1, 3, 4, 5)
    are accepted with a warning, the missing level being skipped.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    name : str
        Estimator name for the messages.
    min_per_rank : int, default=1
        Fewest samples a rank may have. Eqs. (1)-(9) need only each rank's
        mean, which one sample defines; MovieLens' protocol (100 random
        training movies per user) gives a single-sample rating level for about
        one user in six, so the estimators accept it.

    Returns
    -------
    classes : ndarray of shape (k,)
    codes : ndarray of shape (n_samples,) of int

    Raises
    ------
    ValueError
        Non-numeric labels, fewer than two ranks, or a rank with fewer than
        ``min_per_rank`` samples.
    """
    check_classification_targets(y)
    y = np.asarray(y)
    if not (np.issubdtype(y.dtype, np.number) or np.issubdtype(y.dtype, np.bool_)):
        raise ValueError(
            f"{name} needs numeric rank labels that define an order; got dtype {y.dtype} "
            f"({type_of_target(y)} target)."
        )
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"{name} needs at least 2 ranks (classes); got {classes.size} class.")
    counts = np.bincount(codes)
    if counts.min() < min_per_rank:
        raise ValueError(
            f"{name} needs at least {min_per_rank} samples per rank; rank "
            f"{classes[counts.argmin()].item()!r} has {counts.min()}."
        )
    levels = classes.astype(float)  # bool labels: numpy refuses bool subtraction
    integral = np.all(np.mod(levels, 1) == 0)
    n_missing = levels[-1] - levels[0] + 1 - classes.size
    if integral and n_missing > 0:
        # Listed only when few: labels such as (1, 10**9) would enumerate 10**9 levels.
        missing = (
            sorted(set(range(int(levels[0]), int(levels[-1]) + 1)) - set(levels))
            if n_missing <= 20
            else f"({n_missing:.0f} levels)"
        )
        warnings.warn(
            f"{name}: rank levels {missing} have no training sample; the ranks "
            f"{classes.tolist()} are used by position, so their neighbours are treated as "
            "adjacent.",
            UserWarning,
            stacklevel=3,
        )
    return classes, codes
