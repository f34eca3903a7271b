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
:func:`~dimred.metrics.coranking.coranking_quality`).
"""

import warnings

import numpy as np
from scipy.stats import spearmanr
from sklearn.model_selection import StratifiedKFold

from ..utils.graphs import crossed_ranks, neighbour_keys
from ..utils.labels import class_centres
from ..utils.rows import canonical_order
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
    return class_centres(_embedding(Z), y)


def knn_vote(X, codes, queries=None, n_neighbors=1):
    """k-NN classification by a majority vote in which every tie at the ``k``-th distance votes.

    The neighbourhood of a query is every point of ``X`` with fewer than ``k``
    points strictly nearer (distances on the tie grid of
    :func:`~dimred.utils.graphs.neighbour_keys`; R's ``class::knn(use.all =
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
    Z = _embedding(Z)
    classes, codes = np.unique(y, return_inverse=True)
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
    classes, centres = projected_centres(Z, y)
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
    every adjacent pair is nearer than every non-adjacent one. Returns ``nan``
    for fewer than 3 classes.

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
    classes, centres = projected_centres(Z, y)
    if classes.size < 3:
        return float("nan")
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
    Z = _embedding(Z)
    _, codes = np.unique(y, return_inverse=True)
    _, centres = class_centres(Z, y)
    total = np.sum((Z - Z.mean(axis=0)) ** 2)
    within = np.sum((Z - centres[codes]) ** 2)
    return float(within / total) if total > 0 else 0.0


def trustworthiness(X, Z, n_neighbors=5):
    """Trustworthiness (Venna & Kaski): are the embedding's neighbours true neighbours?

    ``1 - 2 / (n k (2n - 3k - 1)) sum_i sum_{j in U_k(i)} (r(i, j) - k)``, with
    ``U_k(i)`` the ``k`` nearest neighbours of ``i`` in ``Z`` that are not among
    its ``k`` nearest in ``X`` and ``r(i, j)`` the rank of ``j`` in ``X``; the
    value of :func:`sklearn.manifold.trustworthiness`, with deterministic
    neighbours. The ranks of the ``k`` nearest only are computed
    (:func:`~dimred.utils.graphs.crossed_ranks`): the same integers as from the
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


def neighbourhood_scores(X, Z, n_neighbors=5):
    """Within-class distribution kept: trustworthiness and continuity (from one
    :func:`~dimred.utils.graphs.crossed_ranks` of the two spaces).

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
    X, Z = np.asarray(X, dtype=float), _embedding(Z)
    ranks = crossed_ranks(X, Z, n_neighbors)
    scores = trustworthiness_continuity_from_ranks(*ranks, n_neighbors)
    return dict(zip(("trustworthiness", "continuity"), scores, strict=True))


def _embedding(Z):
    """``Z`` as floats of shape ``(n_samples, n_components)``: a 1-D ``Z`` is one column."""
    Z = np.asarray(Z, dtype=float)
    return Z[:, np.newaxis] if Z.ndim == 1 else Z
