"""The Fisher (learning) metric of labelled data and its path distances.

Fisher t-SNE (Gisbrecht, Schulz, Hammer, "Parametric nonlinear dimensionality
reduction using kernel t-SNE", Neurocomputing 147, 2015; used as
"F-t-SNE" by Schulz, Gisbrecht, Hammer, ESANN 2014) replaces the Euclidean
distance of t-SNE by the Riemannian distance of the *learning metric* of
Kaski & Sinkkonen ("Principle of learning metrics for exploratory data
analysis", 2004) and Peltonen, Klami & Kaski ("Improved learning of
Riemannian metrics for exploratory analysis", Neural Networks 17, 2004).

The metric
----------
The class posterior is the Parzen (kernel density) classifier of the labelled
data ``(x_l, c_l)``, ``l = 1..N``, with one isotropic Gaussian width ``sigma``:

.. math:: p(c|x) = \\frac{\\sum_l 1[c_l = c] \\, w_l(x)}{\\sum_l w_l(x)},
          \\qquad w_l(x) = \\exp(-\\|x - x_l\\|^2 / (2 \\sigma^2)).

Its score is ``grad_x log p(c|x) = (m_c(x) - m(x)) / sigma^2``, with ``m_c`` the
``w``-weighted mean of class ``c`` and ``m`` the ``w``-weighted mean of all
points, and the local metric is the Fisher information of the posterior

.. math:: J(x) = \\sum_c p(c|x) \\, \\nabla \\log p(c|x) \\, \\nabla \\log p(c|x)^T
          = \\frac{1}{\\sigma^4} \\sum_c p(c|x) (m_c - m)(m_c - m)^T,

positive semi-definite of rank at most ``C - 1`` (the scores have
``p``-weighted mean zero). It is one smooth field over the input space: at a
data point ``x_i`` the Parzen sum includes ``x_i`` itself (leaving it out
would make ``J`` jump at the data points, and the path integral below would
integrate a discontinuous function). Only the choice of ``sigma`` leaves
points out (:func:`parzen_width`).

The distances along this metric are :mod:`dimred.manifold.fisher_paths`'.
"""

import numbers

import numpy as np
from scipy.spatial.distance import pdist, squareform
from scipy.special import logsumexp
from sklearn.utils.validation import check_array, check_consistent_length

from ..utils.labels import check_classes

__all__ = [
    "PARZEN_WIDTH_FACTORS",
    "check_partly_labelled",
    "fisher_information",
    "log_posterior_gradient",
    "parzen_posterior",
    "parzen_width",
    "squared_distance_matrix",
]

#: Grid of Parzen widths searched by :func:`parzen_width`, in units of the median
#: distance to the nearest distinct point: 1/16 to 4 in steps of sqrt(2).
PARZEN_WIDTH_FACTORS = 2.0 ** np.arange(-4.0, 2.25, 0.5)


# ----------------------------------------------------------------------------- Parzen model
def parzen_width(X, y, factors=PARZEN_WIDTH_FACTORS):
    """Parzen width maximising the leave-one-out likelihood of the labels.

    Peltonen et al. (2004) fit the width of the Parzen posterior by the
    likelihood of held-out labels; here the held-out likelihood is the
    leave-one-out one, ``sum_i log p_{-i}(c_i | x_i)`` with ``x_i`` left out of
    its own Parzen sums (ref. [5] states no rule), and with it its duplicates (the
    points equal to it): a duplicate is the held-out point itself, whose label
    would otherwise be predicted perfectly at every width. The grid is ``factors``
    times the median over the points of the distance to the nearest point distinct
    from each, which makes the choice scale-equivariant; ties go to the largest
    width. Duplicating every point therefore changes no width. Points whose class
    has no other member at another location carry no leave-one-out information and
    are left out of the likelihood. When the classes separate perfectly the
    likelihood grows as the width shrinks and the smallest grid value is returned.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (at least two classes).
    factors : array-like of float, default=:data:`PARZEN_WIDTH_FACTORS`
        Increasing positive multiples of the nearest-neighbour scale.

    Returns
    -------
    float

    Examples
    --------
    The choice is scale-equivariant: data ten times larger get a width ten times larger.

    >>> from sklearn.datasets import load_iris
    >>> from dimred.manifold import parzen_width
    >>> X, y = load_iris(return_X_y=True)
    >>> round(parzen_width(X, y), 3)
    0.245
    >>> round(parzen_width(10 * X, y), 2)
    2.45
    """
    X, codes, n_classes = _check_data(X, y)
    factors = np.asarray(factors, dtype=float)
    if factors.ndim != 1 or factors.size == 0 or factors[0] <= 0 or np.any(np.diff(factors) <= 0):
        raise ValueError(f"factors must be increasing positive numbers; got {factors}.")
    squared = squared_distance_matrix(X)  # exactly zero between equal points
    squared[squared == 0] = np.inf  # a point's duplicates are left out with it
    nearest = np.sqrt(squared.min(axis=1))  # the nearest distinct point
    if np.isinf(nearest).any():
        raise ValueError(
            f"The Parzen width needs two distinct points; all {X.shape[0]} points of X are equal."
        )
    scale = np.median(nearest)
    same_class = codes[:, np.newaxis] == codes
    informative = np.any(same_class & np.isfinite(squared), axis=1)
    scores = np.array(
        [_loo_log_likelihood(squared, codes, n_classes, f * scale, informative) for f in factors]
    )
    return float(factors[np.flatnonzero(scores == scores.max())[-1]] * scale)


def _loo_log_likelihood(squared, codes, n_classes, sigma, informative):
    """``sum_i log p_{-i}(c_i|x_i)`` over the informative points (``squared``: inf where 0)."""
    logits = -squared / (2 * sigma**2)
    per_class = np.column_stack(
        [logsumexp(logits[:, codes == c], axis=1) for c in range(n_classes)]
    )
    own = per_class[np.arange(codes.size), codes] - logsumexp(per_class, axis=1)
    return float(own[informative].sum())


def parzen_posterior(Z, X, y, sigma):
    """Parzen class posterior ``p(c|z)`` of the labelled data ``(X, y)`` at the points ``Z``.

    Parameters
    ----------
    Z : array-like of shape (n_points, n_features)
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sigma : float
        Parzen width.

    Returns
    -------
    ndarray of shape (n_points, n_classes)
        Columns in the order of the sorted class labels; rows sum to 1.

    Examples
    --------
    Two classes on a line, at 0 and 1 and at 3 and 4; halfway between them the
    posterior is even.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import parzen_posterior
    >>> parzen_posterior([[0.0], [2.0], [4.0]], X, y, sigma=1.0).round(2)
    array([[0.99, 0.01],
           [0.5 , 0.5 ],
           [0.01, 0.99]])
    """
    X, codes, n_classes = _check_data(X, y)
    Z = _check_points(Z, X)
    log_p, _ = _class_moments(Z, X, codes, n_classes, _check_sigma(sigma))
    return np.exp(log_p)


def log_posterior_gradient(Z, X, y, sigma):
    """Scores ``grad_z log p(c|z) = (m_c(z) - m(z)) / sigma^2`` of the Parzen posterior.

    Parameters
    ----------
    Z, X, y, sigma
        As :func:`parzen_posterior`.

    Returns
    -------
    ndarray of shape (n_points, n_classes, n_features)

    Examples
    --------
    The data of :func:`parzen_posterior`: halfway between the classes the log
    posterior of class 1 grows to the right as fast as that of class 0 falls.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import log_posterior_gradient
    >>> g = log_posterior_gradient([[0.0], [2.0], [4.0]], X, y, sigma=1.0)
    >>> g.shape
    (3, 2, 1)
    >>> g[1, :, 0].round(2)
    array([-1.18,  1.18])
    """
    X, codes, n_classes = _check_data(X, y)
    Z = _check_points(Z, X)
    sigma = _check_sigma(sigma)
    return _scores(*_class_moments(Z, X, codes, n_classes, sigma), sigma)[1]


def fisher_information(Z, X, y, sigma):
    """Fisher information ``J(z) = sum_c p(c|z) g_c g_c^T`` of the Parzen posterior.

    ``g_c = grad_z log p(c|z)`` (:func:`log_posterior_gradient`). ``J`` is
    positive semi-definite of rank at most ``n_classes - 1``. Forms ``d x d``
    matrices: for inspection and tests; the distances never form ``J``.

    Parameters
    ----------
    Z, X, y, sigma
        As :func:`parzen_posterior`.

    Returns
    -------
    ndarray of shape (n_points, n_features, n_features)

    Examples
    --------
    The data of :func:`parzen_posterior`: the metric is largest at the border
    between the classes, where the posterior changes fastest.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import fisher_information
    >>> J = fisher_information([[0.0], [2.0], [4.0]], X, y, sigma=1.0)
    >>> J.shape
    (3, 1, 1)
    >>> J[:, 0, 0].round(2)
    array([0.05, 1.4 , 0.05])
    """
    X, codes, n_classes = _check_data(X, y)
    Z = _check_points(Z, X)
    sigma = _check_sigma(sigma)
    p, g = _scores(*_class_moments(Z, X, codes, n_classes, sigma), sigma)
    return np.einsum("pc,pci,pcj->pij", p, g, g)


def _class_moments(Z, X, codes, n_classes, sigma):
    """Log posteriors ``(n_points, C)`` and class means ``m_c`` ``(n_points, C, d)`` at ``Z``.

    Each class's weights are normalised by its own largest one (log-sum-exp),
    so ``m_c`` is exact even where the class's Parzen mass underflows.
    Squared distances from the norm expansion on data centred on ``X``'s mean.
    """
    centre = X.mean(axis=0)
    X, Z = X - centre, Z - centre
    squared = np.maximum(np.sum(Z * Z, axis=1)[:, None] + np.sum(X * X, axis=1) - 2 * Z @ X.T, 0.0)
    logits = -squared / (2 * sigma**2)
    log_mass = np.empty((Z.shape[0], n_classes))
    means = np.empty((Z.shape[0], n_classes, X.shape[1]))
    for c in range(n_classes):
        members = codes == c
        log_mass[:, c] = logsumexp(logits[:, members], axis=1)
        means[:, c] = np.exp(logits[:, members] - log_mass[:, c, None]) @ X[members]
    return log_mass - logsumexp(log_mass, axis=1, keepdims=True), means + centre


def _scores(log_p, means, sigma):
    """Posteriors ``p`` ``(n, C)`` and scores ``(m_c - m) / sigma^2`` ``(n, C, d)``."""
    p = np.exp(log_p)
    overall = np.einsum("pc,pcd->pd", p, means)
    return p, (means - overall[:, None]) / sigma**2


def squared_distance_matrix(X):
    """Squared Euclidean distances from coordinate differences (exactly symmetric, zero diagonal).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
    """
    return squareform(pdist(X, "sqeuclidean"))


# ------------------------------------------------------------------------------ validation
def _check_data(X, y):
    """Finite 2-d ``X``, class codes ``0..C-1`` and ``C`` (at least 2 classes)."""
    X = check_array(X, dtype=np.float64, ensure_min_samples=2)
    _, codes = check_classes(y, "The Fisher metric")
    check_consistent_length(X, codes)
    return X, codes, int(codes.max()) + 1


def check_partly_labelled(X, y, labelled, name="The Fisher metric"):
    """Validate data whose labels the metric may use only where ``labelled`` is set.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    labelled : array-like of bool of shape (n_samples,) or None
        ``None``: every label.
    name : str
        Who validates (prefix of the error messages).

    Returns
    -------
    X : ndarray of float64
    labelled : ndarray of bool of shape (n_samples,)
    classes : ndarray
        The labelled points' classes (at least two).
    codes : ndarray of int
        ``0..C-1`` for the labelled points, -1 elsewhere.
    """
    X = check_array(X, dtype=np.float64, ensure_min_samples=2)
    y = np.asarray(y)
    check_consistent_length(X, y)
    if labelled is None:
        labelled = np.ones(X.shape[0], dtype=bool)
    labelled = np.asarray(labelled)
    if labelled.dtype != bool or labelled.shape != (X.shape[0],):
        raise ValueError(
            f"{name}: labelled must be a boolean mask of shape ({X.shape[0]},); "
            f"got dtype {labelled.dtype} and shape {labelled.shape}."
        )
    classes, known = check_classes(y[labelled], name)
    codes = np.full(X.shape[0], -1, dtype=known.dtype)
    codes[labelled] = known
    return X, labelled, classes, codes


def _check_points(Z, X):
    Z = check_array(Z, dtype=np.float64, ensure_min_samples=0)
    if Z.shape[1] != X.shape[1]:
        raise ValueError(f"The points have {Z.shape[1]} features; X has {X.shape[1]}.")
    return Z


def _check_sigma(sigma):
    if not isinstance(sigma, numbers.Real) or not np.isfinite(sigma) or sigma <= 0:
        raise ValueError(f"sigma={sigma!r} must be a positive finite number.")
    return float(sigma)


def _check_count(value, name, low, high):
    """An integer ``value >= low`` (and ``<= high`` unless ``high`` is None)."""
    if (
        not isinstance(value, numbers.Integral)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        bounds = f">= {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{name}={value!r} must be an integer {bounds}.")
    return int(value)
