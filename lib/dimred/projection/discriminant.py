"""Supervised baselines scikit-learn lacks: LSDA and kernel Fisher discriminant
analysis (KDA), as the Best-View Projection paper compares with them."""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.graphs import knn_graph, split_by_label
from ..utils.linalg import generalized_eigh, numerical_rank
from ._base import LinearProjection, SupervisedProjection

__all__ = ["KernelDiscriminantAnalysis", "LocalitySensitiveDiscriminantAnalysis"]


def _check_labels(y, name):
    """Classes of ``y``; at least two."""
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"{name} needs at least 2 classes; got {classes.size} class(es).")
    return classes, codes


def _check_n_components(n_components, upper, what):
    if not isinstance(n_components, numbers.Integral) or not 1 <= n_components <= upper:
        raise ValueError(
            f"n_components={n_components!r} must be an integer with 1 <= n_components <= {upper} "
            f"({what})."
        )


class LocalitySensitiveDiscriminantAnalysis(LinearProjection):
    """Locality Sensitive Discriminant Analysis (Cai, He, Zhou, Han, Bao, IJCAI 2007).

    A k-nearest-neighbour graph of the data is split into a within-class graph
    ``W_w`` (neighbours with the same label) and a between-class graph ``W_b``
    (neighbours with different labels); edges are symmetric (``i ~ j`` when
    either is among the other's ``k`` nearest neighbours). The projection
    ``a`` maximises the margin between nearby points of different classes
    while keeping nearby points of the same class close:

    .. math:: X^T (\\alpha L_b + (1 - \\alpha) W_w) X a = \\lambda X^T D_w X a,

    with ``L_b = D_b - W_b`` and ``D`` the degree matrices; the leading
    eigenvectors are kept. As in Cai's graph-embedding code, the data are
    first reduced to their principal subspace (the rank of the centred data),
    and ``ridge * trace / n`` is added to the right-hand matrix, which is
    singular when some points have no neighbour of their own class.

    Parameters
    ----------
    n_components : int, default=2
    n_neighbors : int, default=5
        ``k`` of the neighbourhood graph.
    alpha : float in [0, 1], default=0.1
        Weight of the between-class graph (Cai's code: ``lambda``, default 0.1).
    ridge : float, default=1e-8

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
    eigenvalues_ : ndarray of shape (n_components,)
    mean_ : ndarray of shape (n_features,)
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
    """

    def __init__(self, n_components=2, n_neighbors=5, alpha=0.1, ridge=1e-8):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.alpha = alpha
        self.ridge = ridge

    def fit(self, X, y):
        """Fit the projection.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y)
        self.classes_, _ = _check_labels(y, "LSDA")
        if not 0 <= self.alpha <= 1:
            raise ValueError(f"alpha={self.alpha!r} must lie in [0, 1].")
        self.mean_ = X.mean(axis=0)
        centred = X - self.mean_
        _, singular, vt = np.linalg.svd(centred, full_matrices=False)
        rank = numerical_rank(singular)
        _check_n_components(self.n_components, rank, "rank of the centred data")
        basis = vt[:rank].T
        Z = centred @ basis
        within, between = split_by_label(knn_graph(X, self.n_neighbors), y)
        laplacian_b = sp.diags(np.asarray(between.sum(axis=1)).ravel()) - between
        degree_w = sp.diags(np.asarray(within.sum(axis=1)).ravel())
        A = Z.T @ ((self.alpha * laplacian_b + (1 - self.alpha) * within) @ Z)
        B = Z.T @ (degree_w @ Z)
        self.eigenvalues_, vectors = generalized_eigh(A, B, self.n_components, ridge=self.ridge)
        self.components_ = (basis @ vectors).T
        return self


class KernelDiscriminantAnalysis(SupervisedProjection):
    """Kernel Fisher discriminant analysis (Mika et al. 1999), multi-class.

    With the centred Gaussian kernel matrix ``K`` of the training data and
    ``W`` the block matrix with ``1 / n_c`` between members of class ``c``
    (the between-class scatter in feature space is ``K W K``, the total
    scatter ``K K``), the dual coefficients solve

    .. math:: K W K \\beta = \\lambda (K K + \\alpha I) \\beta,

    the leading ``n_components <= n_classes - 1`` eigenvectors. ``alpha`` is the
    regularisation (0.1 in the BVP paper). New points are projected with their
    kernel against the training data, centred with the training statistics.
    Because ``W`` is a projection, every eigenvalue lies in ``[0, 1)``.

    Parameters
    ----------
    n_components : int, default=2
    gamma : float or None, default=None
        Gaussian kernel ``exp(-gamma ||x - x'||^2)``; ``None`` uses
        ``1 / (n_features * X.var())`` (scikit-learn's ``"scale"``).
    alpha : float, default=0.1

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples_fit, n_components)
    eigenvalues_ : ndarray of shape (n_components,)
    X_fit_ : ndarray of shape (n_samples_fit, n_features)
    gamma_ : float
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Memory is O(n^2) in the number of training samples, as for any exact
    kernel method.
    """

    def __init__(self, n_components=2, gamma=None, alpha=0.1):
        self.n_components = n_components
        self.gamma = gamma
        self.alpha = alpha

    def fit(self, X, y):
        """Fit the dual coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y)
        self.classes_, codes = _check_labels(y, "KDA")
        _check_n_components(self.n_components, self.classes_.size - 1, "n_classes - 1")
        if self.alpha <= 0:
            raise ValueError(f"alpha={self.alpha!r} must be positive.")
        variance = X.var()
        self.gamma_ = self.gamma or (1.0 / (X.shape[1] * variance) if variance > 0 else 1.0)
        self.X_fit_ = X
        self._centerer = KernelCenterer().fit(rbf_kernel(X, gamma=self.gamma_))
        K = self._centerer.transform(rbf_kernel(X, gamma=self.gamma_))
        class_means = np.zeros((self.classes_.size, X.shape[0]))
        class_means[codes, np.arange(X.shape[0])] = 1.0
        class_means /= class_means.sum(axis=1, keepdims=True)
        KW = K @ class_means.T  # K W K = (K M^T diag(n_c)) (M K) with M the class means
        A = KW @ (np.bincount(codes)[:, None] * KW.T)
        B = K @ K + self.alpha * np.eye(X.shape[0])
        self.eigenvalues_, self.dual_coef_ = generalized_eigh(A, B, self.n_components)
        return self

    def transform(self, X):
        """Project ``X`` through its centred kernel against the training data.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        K = self._centerer.transform(rbf_kernel(X, self.X_fit_, gamma=self.gamma_))
        return K @ self.dual_coef_
