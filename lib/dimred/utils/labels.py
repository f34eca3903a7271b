"""Labels shared by the estimators: class centres and the two label checks.

:func:`check_ranks` validates ordinal labels (BVP and the ORML family: the
order of the classes is part of the model); :func:`check_classes` validates
plain class labels (LSDA, KDA: any labels, no order).
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import column_or_1d

__all__ = ["check_classes", "check_ranks", "class_centres"]

#: Most levels a message lists one by one.
_FEW = 6
#: How the ordinal estimators' labels must look, for the error messages.
_ORDINAL = "ordinal labels that define an order: numbers or an ordered pandas.Categorical"


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


def check_classes(y, name):
    """Validate class labels (no order); return the sorted classes and each sample's index.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    name : str
        Estimator name for the messages.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    codes : ndarray of shape (n_samples,) of int

    Raises
    ------
    ValueError
        Continuous or multi-output labels, or fewer than two classes.
    """
    check_classification_targets(y)
    classes, codes = np.unique(column_or_1d(y), return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"{name} needs at least 2 classes; got {classes.size} class.")
    return classes, codes


def check_ranks(y, name, min_per_rank=1):
    """Validate ordinal labels; return the ranks in order and each sample's rank index.

    Two kinds of labels define an order. Numbers: the ranks are their
    distinct values in increasing order. An ordered ``pandas.Categorical``
    (or a Series of that dtype): the ranks are its categories in their
    declared order, whatever their type. Ranks are used by position (rank
    index ``0 .. k-1``), so ORML's ``|y_i - y_j|`` (Eq. 3) is the difference
    of positions. Strings, objects and unordered categoricals are refused:
    their order would be arbitrary (alphabetical). Levels of the scale with
    no sample -- a gap in integer labels (ratings 1, 3, 4, 5) or an unused
    category -- are skipped with a warning.

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
        The ranks present, in order.
    codes : ndarray of shape (n_samples,) of int

    Raises
    ------
    ValueError
        Labels without an order, missing labels, fewer than two ranks, or a
        rank with fewer than ``min_per_rank`` samples.
    """
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        classes, codes, missing = _categorical_ranks(pd.Categorical(y), name)
    else:
        classes, codes, missing = _numeric_ranks(y, name)
    if classes.size < 2:
        raise ValueError(
            f"{name} needs at least 2 ranks (ordered classes); got {classes.size} class."
        )
    counts = np.bincount(codes)
    if counts.min() < min_per_rank:
        raise ValueError(
            f"{name} needs at least {min_per_rank} samples per rank; rank "
            f"{classes[counts.argmin()].item()!r} has {counts.min()}."
        )
    if missing[1]:
        warnings.warn(
            f"{name}: rank levels {_some(*missing)} have no training sample; the "
            f"{classes.size} ranks present ({_some(classes.tolist())}) are used by position, "
            "so their neighbours are treated as adjacent.",
            UserWarning,
            stacklevel=3,
        )
    return classes, codes


def _some(values, count=None):
    """``values`` in one short list: all when at most :data:`_FEW`, else the first three
    and the last, and how many there are when ``count`` is given."""
    if (len(values) if count is None else count) <= _FEW:
        return str(list(values))
    listed = f"[{', '.join(map(repr, values[:3]))}, ..., {values[-1]!r}]"
    return listed if count is None else f"{listed} ({count} levels)"


def _categorical_ranks(categorical, name):
    """Ranks of an ordered Categorical: the categories present, in declared order."""
    if not categorical.ordered:
        raise ValueError(
            f"{name} needs {_ORDINAL}; got an unordered pandas.Categorical "
            f"(categories {list(categorical.categories)}): declare ordered=True with the "
            "categories in rank order."
        )
    if (categorical.codes < 0).any():
        raise ValueError(f"{name}: the labels contain missing values (NaN).")
    present = np.bincount(categorical.codes, minlength=categorical.categories.size) > 0
    categories = np.asarray(categorical.categories)
    codes = (np.cumsum(present) - 1)[categorical.codes]
    unused = categories[~present].tolist()
    return categories[present], codes, (unused, len(unused))


def _numeric_ranks(y, name):
    """Ranks of numeric labels: their sorted values; integer levels in between are missing."""
    check_classification_targets(y)
    y = column_or_1d(y)
    if not (np.issubdtype(y.dtype, np.number) or np.issubdtype(y.dtype, np.bool_)):
        raise ValueError(
            f"{name} needs {_ORDINAL}; got dtype {y.dtype} ({type_of_target(y)} target)."
        )
    classes, codes = np.unique(y, return_inverse=True)
    levels = classes.astype(float)  # bool labels: numpy refuses bool subtraction
    n_missing = levels[-1] - levels[0] + 1 - classes.size
    if not (np.all(np.mod(levels, 1) == 0) and n_missing > 0):
        return classes, codes, ([], 0)
    return classes, codes, _missing_levels(levels)


def _missing_levels(levels):
    """The integer levels strictly between sorted ``levels`` that no label takes, walked
    gap by gap: labels such as (1, 10**9) never enumerate the 10**9 levels between."""
    pairs = zip(levels[:-1], levels[1:], strict=True)
    gaps = [(int(a) + 1, int(b)) for a, b in pairs if b - a > 1]
    count = sum(stop - start for start, stop in gaps)
    if count <= _FEW:
        return [level for start, stop in gaps for level in range(start, stop)], count
    first = [level for start, stop in gaps for level in range(start, min(stop, start + 3))][:3]
    return [*first, gaps[-1][1] - 1], count
