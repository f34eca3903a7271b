"""The order of the rows: results that must not depend on it.

A data file lists its samples in some order; a protocol that splits, folds or
subsamples by position, or breaks ties by index, gives another result when the
same samples arrive in another order. :func:`canonical_order` gives every sample
a position that depends on its values only, so that drawing from the rows in that
order makes a draw a function of the data, not of the file.
"""

import numpy as np

from .graphs import _tie_keys, _tie_unit

__all__ = ["canonical_order"]


def canonical_order(X, *columns):
    """Permutation that sorts the rows of ``X`` by value (lexicographically).

    Values are compared on the tie grid of :mod:`dimred.utils.graphs` (a
    ``TIE_RTOL`` fraction of the data's diameter), so that rounding noise --
    another BLAS kernel's -- does not reorder rows.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    *columns : ndarray of shape (n_samples,)
        Further keys compared before ``X``'s features (labels, say), first one
        first.

    Returns
    -------
    ndarray of shape (n_samples,) of int
        ``X[order]`` is the same array for every permutation of the rows of ``X``
        (and of ``columns`` with them); rows equal on the grid keep their
        relative order, which no result can tell apart.
    """
    X = np.asarray(X, dtype=float)
    grid = _tie_keys(X, _tie_unit(X))
    keys = [grid[:, j] for j in range(X.shape[1] - 1, -1, -1)]
    keys += [np.asarray(c) for c in reversed(columns)]
    return np.lexsort(keys) if keys else np.arange(X.shape[0])
