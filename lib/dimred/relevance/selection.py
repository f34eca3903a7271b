"""Forward and backward relevance by one step of feature selection on ``Q_k``
(Schulz, Gisbrecht & Hammer, ESANN 2014, Sect. 3).

.. math:: \\lambda^k_{forward}(l) = Q_k(X|_l, Y), \\qquad
          \\lambda^k_{backward}(l) = Q_k(X|_{-l}, Y),

with ``X|_l`` the data reduced to feature ``l`` and ``X|_{-l}`` the data without it;
``Q_k`` is the co-ranking quality of :mod:`dimred.metrics.coranking`. A large
forward relevance marks a relevant feature (baseline ``k / (N - 1)``, the
diagonal of the paper's Fig. 2, middle); a small backward relevance does
(baseline ``Q_k(X, Y)``, the quality of the projection itself).

Every ``k`` requested comes from one neighbour ranking of ``Y`` (shared by all
features) and one of each reduced data set, up to the largest ``k``. Ties in
distance -- frequent for a single feature -- are ranked by point index
(:mod:`dimred.metrics.coranking`). A constant feature orders no neighbour before
another: its forward relevance is the chance level ``k / (N - 1)``, the expected
``Q_k`` of a random ranking (the paper's baseline for an irrelevant feature).
"""

import numbers

import numpy as np
from joblib import Parallel, delayed
from sklearn.utils._param_validation import Interval, validate_params
from tqdm import tqdm

from ..metrics.coranking import check_spaces, quality_from_neighbours
from ..utils.graphs import knn_distances
from ..utils.validation import is_constant

__all__ = ["backward_relevance", "forward_relevance"]


#: The parameter constraints of both selection schemes (each ``k`` is checked against the
#: data's size inside).
_validate_selection = validate_params(
    {
        "X": "no_validation",
        "Y": "no_validation",
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left"), "array-like"],
        "n_jobs": [numbers.Integral, None],
        "progress": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)


@_validate_selection
def forward_relevance(X, Y, n_neighbors, n_jobs=None, progress=False):
    """``Q_k(X|_l, Y)``: how well feature ``l`` alone reproduces the neighbourhoods of ``Y``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_components) or (n_samples,)
        The projection.
    n_neighbors : int or sequence of int
        ``k`` (each ``1 <= k <= n_samples - 1``).
    n_jobs : int, optional
        joblib workers over the features.
    progress : bool, default=False
        Show a tqdm progress bar over the features.

    Returns
    -------
    ndarray of shape (n_features,) for an int ``n_neighbors``, else (n_ks, n_features)
        Row ``r`` holds the relevances for ``n_neighbors[r]``.

    Examples
    --------
    The relevance paper's *set1* mapped onto its first two dimensions: each of them
    alone keeps part of the neighbourhoods, the third stays near the chance level
    ``k / (N - 1) = 5 / 59 = 0.08``.

    >>> from dimred.datasets.synthetic import relevance_set1
    >>> from dimred.relevance import forward_relevance
    >>> X, _ = relevance_set1(random_state=0)
    >>> forward_relevance(X, X[:, :2], n_neighbors=5).round(2)
    array([0.43, 0.39, 0.07])
    >>> forward_relevance(X, X[:, :2], n_neighbors=[5, 10]).shape
    (2, 3)
    """
    X, Y = check_spaces(X, Y)
    return _relevance(X, Y, n_neighbors, _alone, n_jobs, progress)


@_validate_selection
def backward_relevance(X, Y, n_neighbors, n_jobs=None, progress=False):
    """``Q_k(X|_{-l}, Y)``: the quality left when feature ``l`` is removed.

    Parameters and return value as in :func:`forward_relevance`; ``X`` needs at
    least two features.

    Examples
    --------
    The map of the example of :func:`forward_relevance`: without the third dimension
    the data are the map itself (quality 1); without either of the others much is lost.

    >>> from dimred.datasets.synthetic import relevance_set1
    >>> from dimred.relevance import backward_relevance
    >>> X, _ = relevance_set1(random_state=0)
    >>> backward_relevance(X, X[:, :2], n_neighbors=5).round(2)
    array([0.32, 0.37, 1.  ])
    """
    X, Y = check_spaces(X, Y)
    if X.shape[1] < 2:
        raise ValueError(f"Backward relevance needs at least 2 features; got {X.shape[1]}.")
    return _relevance(X, Y, n_neighbors, _without, n_jobs, progress)


def _alone(X, feature):
    return X[:, [feature]]


def _without(X, feature):
    return np.delete(X, feature, axis=1)


def _relevance(X, Y, n_neighbors, reduce, n_jobs, progress):
    """``Q_k(reduce(X, l), Y)`` for every feature ``l`` and every requested ``k``
    (``X``, ``Y`` validated by :func:`~dimred.metrics.coranking.check_spaces`)."""
    ks, scalar = _check_ks(n_neighbors, X.shape[0])
    neighbours_y = knn_distances(Y, ks.max())[1]
    features = tqdm(range(X.shape[1]), desc="features", disable=not progress)
    curves = Parallel(n_jobs=n_jobs)(
        delayed(_quality_at)(reduce(X, feature), neighbours_y, ks) for feature in features
    )
    relevance = np.column_stack(curves)
    return relevance[0] if scalar else relevance


def _quality_at(X, neighbours_y, ks):
    """``Q_k(X, Y)`` at the ``ks``, from ``Y``'s neighbour ranking up to ``max(ks)``; the
    chance level ``k / (N - 1)`` for a constant ``X``."""
    if is_constant(X):
        return ks / (X.shape[0] - 1)
    curve = quality_from_neighbours(knn_distances(X, neighbours_y.shape[1])[1], neighbours_y)
    return curve[ks - 1]


def _check_ks(n_neighbors, n_samples):
    """The requested ``k`` as an int array, and whether a single int was given."""
    scalar = isinstance(n_neighbors, numbers.Integral)
    ks = np.atleast_1d(np.asarray(n_neighbors))
    if ks.ndim != 1 or ks.size == 0 or not np.issubdtype(ks.dtype, np.integer):
        raise ValueError(f"n_neighbors={n_neighbors!r} must be an int or a sequence of ints.")
    if ks.min() < 1 or ks.max() > n_samples - 1:
        raise ValueError(
            f"n_neighbors={n_neighbors!r} must lie in [1, n_samples - 1 = {n_samples - 1}]."
        )
    return ks.astype(np.intp), scalar
