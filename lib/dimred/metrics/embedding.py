"""Quantitative stand-ins for visual judgements of an embedding.

The Best-View Projection paper judges 2-D projections by eye: (1) are the
classes separated, (2) is their order preserved, (3) is the within-class
distribution informative. Each function here turns one of these into a number.

Neighbours are found on distances rounded to a tie grid
(:mod:`dimred.utils.graphs`). Discrete data (the ORCA datasets' binary features)
tie massively, and scikit-learn's k-NN classifier and ``trustworthiness`` break
such ties by floating-point noise, which made these numbers depend on the BLAS
kernel; here they do not. The k-NN vote (:func:`knn_vote`) lets every point tied
with the ``k``-th neighbour vote, and :func:`knn_accuracy` draws its folds from a
canonical order of the rows, so that neither depends on the order of the rows
either. The rank-based measures (trustworthiness, continuity) order tied points
by index, as their definition needs a strict ranking.

An embedding ``Z`` is an array of shape ``(n_samples, n_components)`` or, for a
one-dimensional embedding, ``(n_samples,)``: one column (as in
:func:`~dimred.metrics.coranking.coranking_quality`). It must be finite, hold at least two
points and not be constant (every point at one position gives no neighbourhood, order
or spread to measure); the measures of its shape are computed on ``Z`` divided by a power
of two near its largest magnitude (exact), so that its scale can neither overflow nor
underflow them. Labels are class labels for the measures of separation and ranks
(numbers, or an ordered ``pandas.Categorical``: :func:`~dimred.utils.labels.check_ranks`)
for the measures of order.
"""

import warnings
from numbers import Integral

import numpy as np
from scipy.stats import spearmanr
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import Interval, validate_params
from sklearn.utils.validation import check_array, check_consistent_length

from ..utils.graphs import _binary_scaled
from ..utils.labels import check_classes, check_ranks, class_centres
from ..utils.ranks import crossed_ranks, neighbour_keys
from ..utils.rows import canonical_order
from ..utils.validation import check_variance
from .coranking import trustworthiness_continuity_from_ranks

__all__ = [
    "adjacent_centres_nearer",
    "continuity",
    "knn_accuracy",
    "knn_vote",
    "neighbourhood_scores",
    "order_correlation",
    "projected_centres",
    "trustworthiness",
    "within_class_share",
]


def projected_centres(Z, y):
    """Class labels in sorted order and their centres in the embedding.

    Examples
    --------
    >>> import numpy as np
    >>> from dimred.metrics import projected_centres
    >>> Z = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 1.0], [5.0, 3.0]])
    >>> classes, centres = projected_centres(Z, ["b", "b", "a", "a"])
    >>> classes.tolist()
    ['a', 'b']
    >>> centres
    array([[5., 2.],
           [1., 0.]])
    """
    Z, (classes, codes) = _labelled(Z, y, "projected_centres", check_classes, scaled=False)
    return classes, class_centres(Z, codes)[1]


def knn_vote(X, codes, queries=None, n_neighbors=1):
    """k-NN classification by a majority vote in which every tie at the ``k``-th distance votes.

    The neighbourhood of a query is every point of ``X`` with fewer than ``k``
    points strictly nearer (distances on the tie grid of
    :func:`~dimred.utils.ranks.neighbour_keys`; R's ``class::knn(use.all =
    TRUE)``), so the prediction does not depend on the order of the rows; a
    tied vote goes to the smallest code.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,) of int
        Class codes ``0 .. n_classes - 1`` of ``X``.
    queries : ndarray of shape (n_queries, n_features), optional
        Default ``X`` itself, each point leaving itself out (leave-one-out).
    n_neighbors : int, default=1

    Returns
    -------
    ndarray of shape (n_queries,) of int
        Predicted codes.
    """
    onehot = np.eye(int(codes.max()) + 1)[codes]
    predicted = []
    for _, keys in neighbour_keys(X, queries):
        kth = np.partition(keys, n_neighbors - 1, axis=1)[:, n_neighbors - 1 : n_neighbors]
        predicted.append(((keys <= kth) @ onehot).argmax(axis=1))
    return np.concatenate(predicted)


@validate_params(
    {
        "Z": "no_validation",
        "y": "no_validation",
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_splits": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def knn_accuracy(Z, y, n_neighbors=5, n_splits=5, random_state=0):
    """Class separation: stratified cross-validated k-NN accuracy in the embedding.

    Majority vote of the ``k`` nearest training points, every point tied with the
    ``k``-th voting, a tied vote to the smallest label (:func:`knn_vote`). The
    folds are drawn on the rows in :func:`~dimred.utils.rows.canonical_order`
    of ``(Z, y)``, so the accuracy does not depend on the order of the rows.
    ``n_splits`` is lowered to the size of the smallest class (at least 2); a
    class with a single member (bondrate's class 5) is then missing from one
    training fold and always misclassified there (scikit-learn's warning about
    it is silenced).

    Examples
    --------
    The iris classes are as well separated in a 2-D PCA map as in the data, and far
    less by the sepal width alone:

    >>> from dimred.metrics import knn_accuracy
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> X, y = load_iris(return_X_y=True)
    >>> Z = PCA(n_components=2).fit_transform(X)
    >>> round(knn_accuracy(X, y), 2), round(knn_accuracy(Z, y), 2)
    (0.97, 0.97)
    >>> round(knn_accuracy(X[:, 1:2], y), 2)
    0.52
    """
    Z, (_, codes) = _labelled(Z, y, "knn_accuracy", check_classes)
    order = canonical_order(Z, codes)
    Z, codes = Z[order], codes[order]
    splits = max(2, min(n_splits, np.bincount(codes).min()))
    folds = StratifiedKFold(splits, shuffle=True, random_state=random_state)
    n_neighbors = min(n_neighbors, len(y) - len(y) // splits - 1)
    with warnings.catch_warnings():  # bondrate's class 5 has one member: said above
        warnings.filterwarnings("ignore", "The least populated class", UserWarning)
        splits = list(folds.split(Z, codes))
    scores = []
    for train, test in splits:
        predicted = knn_vote(Z[train], codes[train], Z[test], n_neighbors)
        scores.append(np.mean(predicted == codes[test]))
    return float(np.mean(scores))


def order_correlation(Z, y):
    """Order preservation: Spearman correlation of class rank and projected centre.

    The centres are read along the 1-D direction that best explains the class
    rank by least squares (the regression of rank on centre coordinates);
    the absolute value is returned, since a reflection preserves the order.

    Examples
    --------
    Ordinal Gaussian classes whose order PCA misses and Best-View Projection keeps:

    >>> from dimred.metrics import order_correlation
    >>> from sklearn.decomposition import PCA
    >>> from dimred import BestViewProjection
    >>> from dimred.datasets import ordinal_gaussians
    >>> X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    >>> Z_bvp = BestViewProjection(n_components=2).fit_transform(X, y)
    >>> Z_pca = PCA(n_components=2).fit_transform(X)
    >>> round(order_correlation(Z_bvp, y), 2), round(order_correlation(Z_pca, y), 2)
    (1.0, 0.8)
    """
    Z, (classes, codes) = _labelled(Z, y, "order_correlation", check_ranks)
    centres = class_centres(Z, codes)[1]
    ranks = np.arange(classes.size, dtype=float)
    centred = centres - centres.mean(axis=0)
    direction, *_ = np.linalg.lstsq(centred, ranks - ranks.mean(), rcond=None)
    if not np.any(direction):
        return 0.0
    return float(abs(spearmanr(ranks, centred @ direction).statistic))


def adjacent_centres_nearer(Z, y):
    """Order preservation, locally: share of (adjacent, non-adjacent) pairs of
    class pairs in which the adjacent centres are the nearer ones.

    For every class ``k`` and every ``l`` with ``|k - l| >= 2``, compares the
    distance from ``k`` to its adjacent classes with that to ``l``; 1 means
    every adjacent pair is nearer than every non-adjacent one. Fewer than 3 ranks
    have no non-adjacent pair: a ``ValueError``.

    Examples
    --------
    The maps of the example of :func:`order_correlation`:

    >>> from dimred.metrics import adjacent_centres_nearer
    >>> from sklearn.decomposition import PCA
    >>> from dimred import BestViewProjection
    >>> from dimred.datasets import ordinal_gaussians
    >>> X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    >>> Z_bvp = BestViewProjection(n_components=2).fit_transform(X, y)
    >>> Z_pca = PCA(n_components=2).fit_transform(X)
    >>> round(adjacent_centres_nearer(Z_bvp, y), 2), round(adjacent_centres_nearer(Z_pca, y), 2)
    (1.0, 0.44)
    """
    Z, (classes, codes) = _labelled(Z, y, "adjacent_centres_nearer", check_ranks)
    if classes.size < 3:
        raise ValueError(
            f"adjacent_centres_nearer needs at least 3 ranks (a non-adjacent pair); got "
            f"{classes.size}."
        )
    centres = class_centres(Z, codes)[1]
    d = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    wins = []
    for k in range(classes.size):
        adjacent = [d[k, j] for j in (k - 1, k + 1) if 0 <= j < classes.size]
        far = [d[k, j] for j in range(classes.size) if abs(j - k) >= 2]
        wins += [a < f for a in adjacent for f in far]
    return float(np.mean(wins))


def within_class_share(Z, y):
    """Within-class distribution kept: share of the total variance that lies
    within the classes, ``trace(S_w) / trace(S_t)``.

    0 means every class collapsed to its centre (nothing of the within-class
    distribution is visible); compare with the same share in the input space.

    Examples
    --------
    The maps of the example of :func:`order_correlation`: PCA shows mostly the spread
    within the classes, Best-View Projection less of it than the data hold.

    >>> from dimred.metrics import within_class_share
    >>> from sklearn.decomposition import PCA
    >>> from dimred import BestViewProjection
    >>> from dimred.datasets import ordinal_gaussians
    >>> X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    >>> Z_bvp = BestViewProjection(n_components=2).fit_transform(X, y)
    >>> Z_pca = PCA(n_components=2).fit_transform(X)
    >>> round(within_class_share(X, y), 2)
    0.85
    >>> round(within_class_share(Z_bvp, y), 2), round(within_class_share(Z_pca, y), 2)
    (0.81, 0.97)
    """
    Z, (_, codes) = _labelled(Z, y, "within_class_share", check_classes)
    total = np.sum((Z - Z.mean(axis=0)) ** 2)
    within = np.sum((Z - class_centres(Z, codes)[1][codes]) ** 2)
    return float(within / total)


#: The parameter constraints of the neighbourhood scores (the upper bound of
#: ``n_neighbors``, ``n_samples - 1``, is checked against the data).
_validate_neighbourhood = validate_params(
    {
        "X": "no_validation",
        "Z": "no_validation",
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)


@_validate_neighbourhood
def trustworthiness(X, Z, n_neighbors=5):
    """Trustworthiness (Venna & Kaski): are the embedding's neighbours true neighbours?

    ``1 - 2 / (n k (2n - 3k - 1)) sum_i sum_{j in U_k(i)} (r(i, j) - k)``, with
    ``U_k(i)`` the ``k`` nearest neighbours of ``i`` in ``Z`` that are not among
    its ``k`` nearest in ``X`` and ``r(i, j)`` the rank of ``j`` in ``X``; the
    value of :func:`sklearn.manifold.trustworthiness`, with deterministic
    neighbours. The ranks of the ``k`` nearest only are computed
    (:func:`~dimred.utils.ranks.crossed_ranks`): the same integers as from the
    full rankings.

    Examples
    --------
    >>> from dimred.metrics import trustworthiness
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> X, y = load_iris(return_X_y=True)
    >>> Z = PCA(n_components=2).fit_transform(X)
    >>> round(trustworthiness(X, Z, n_neighbors=5), 2)
    0.98
    >>> round(trustworthiness(X, X[:, :1], n_neighbors=5), 2)
    0.81
    """
    return neighbourhood_scores(X, Z, n_neighbors)["trustworthiness"]


@_validate_neighbourhood
def continuity(X, Z, n_neighbors=5):
    """Continuity (Venna & Kaski): trustworthiness with the two spaces swapped.

    Are the data's neighbours kept as neighbours in the embedding?

    Examples
    --------
    >>> from dimred.metrics import continuity
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> X, y = load_iris(return_X_y=True)
    >>> Z = PCA(n_components=2).fit_transform(X)
    >>> round(continuity(X, Z, n_neighbors=5), 2)
    0.99
    """
    return neighbourhood_scores(X, Z, n_neighbors)["continuity"]


@_validate_neighbourhood
def neighbourhood_scores(X, Z, n_neighbors=5):
    """Within-class distribution kept: trustworthiness and continuity (from one
    :func:`~dimred.utils.ranks.crossed_ranks` of the two spaces).

    Examples
    --------
    >>> from dimred.metrics import neighbourhood_scores
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> X, y = load_iris(return_X_y=True)
    >>> Z = PCA(n_components=2).fit_transform(X)
    >>> scores = neighbourhood_scores(X, Z, n_neighbors=5)
    >>> {name: round(value, 2) for name, value in scores.items()}
    {'trustworthiness': 0.98, 'continuity': 0.99}
    """
    X, Z = (_embedding(A, "neighbourhood_scores", what=what) for A, what in ((X, "X"), (Z, "Z")))
    check_consistent_length(X, Z)
    ranks = crossed_ranks(X, Z, n_neighbors)
    scores = trustworthiness_continuity_from_ranks(*ranks, n_neighbors)
    return dict(zip(("trustworthiness", "continuity"), scores, strict=True))


def _embedding(Z, name, scaled=True, what="Z"):
    """``Z`` validated (module docstring) as floats of shape ``(n_samples, n_components)``
    (a 1-D ``Z`` is one column), divided by a power of two near its largest magnitude
    when ``scaled``; ``what`` names it in the messages."""
    Z = check_array(Z, ensure_2d=False, ensure_min_samples=2, input_name=what)
    Z = Z[:, np.newaxis] if Z.ndim == 1 else Z
    check_variance(Z, name, what)
    return _binary_scaled(Z)[0] if scaled else Z


def _labelled(Z, y, name, check_labels, scaled=True):
    """``(Z, check_labels(y, name))``: :func:`_embedding` and its labels, one per point."""
    Z = _embedding(Z, name, scaled)
    check_consistent_length(Z, y)
    return Z, check_labels(y, name)
