"""Supervised baselines scikit-learn lacks: LSDA and kernel Fisher discriminant
analysis (KDA), as the Best-View Projection paper compares with them."""

import numbers
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import _fit_context
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.graphs import check_n_neighbors, knn_graph, split_by_label
from ..utils.labels import check_classes
from ..utils.linalg import generalized_eigh, rayleigh_in_row_space, row_space
from ..utils.validation import check_spread
from ._base import LinearProjection, SupervisedProjection

__all__ = ["KernelDiscriminantAnalysis", "LocalitySensitiveDiscriminantAnalysis"]

#: KDA's directions with an eigenvalue below this fraction of the largest lie in the null
#: space of the between-class scatter (arbitrary directions): they are dropped.
EIGEN_FLOOR = 1e-10


class LocalitySensitiveDiscriminantAnalysis(LinearProjection):
    """Locality Sensitive Discriminant Analysis (Cai, He, Zhou, Han, Bao, IJCAI 2007).

    A k-nearest-neighbour graph of the data is split into a within-class graph
    ``W_w`` (neighbours with the same label) and a between-class graph ``W_b``
    (neighbours with different labels); edges are symmetric (``i ~ j`` when
    either is in the other's ``k``-nearest neighbourhood, which takes every
    point tied with the ``k``-th, so the graph does not depend on the order of
    the rows; see :func:`dimred.utils.graphs.knn_neighbourhoods`). The
    projection ``a`` maximises the margin between nearby points of different
    classes while keeping nearby points of the same class close:

    .. math:: X^T (\\alpha L_b + (1 - \\alpha) W_w) X a = \\lambda X^T D_w X a,

    with ``L_b = D_b - W_b`` and ``D`` the degree matrices; the leading
    eigenvectors are kept. As in Cai's graph-embedding code, the problem is
    solved in the principal subspace of the centred data (its row space,
    numerical rank kept; :func:`~dimred.utils.linalg.rayleigh_in_row_space`).

    Parameters
    ----------
    n_components : int, default=2
        At most the rank of the centred data (more give that rank, with a warning).
    n_neighbors : int, default=5
        ``k`` of the neighbourhood graph; clipped to ``n_samples - 1`` with a warning.
    alpha : float in [0, 1], default=0.1
        Weight of the between-class graph (Cai's code: ``lambda``, default 0.1).
    ridge : float, default=1e-8
        See Notes.

    Attributes
    ----------
    components_ : ndarray of shape (n_components_, n_features)
    eigenvalues_ : ndarray of shape (n_components_,)
    mean_ : ndarray of shape (n_features,)
    classes_ : ndarray
    n_components_ : int
    n_neighbors_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Self-loops: the neighbourhood ``N_k(x_i)`` of the LSDA paper excludes
    ``x_i``, and so does ``W_w`` here (``k`` other points). Cai's
    ``LSDA.m`` takes the ``k + 1`` nearest points *including* ``x_i``, which
    puts a self-loop on every point: ``W_w + I`` and ``D_w + I``, i.e.
    ``(1 - alpha) X^T X`` added to the left and ``X^T X`` to the right-hand
    matrix. That shrinks every eigenvalue towards ``1 - alpha``, pulls the
    projection towards the directions of large total variance and makes the
    right-hand matrix non-singular. ``tests/unit/test_discriminant.py`` checks
    which equation is solved here.

    Against Cai's code: ``scripts/verify_lsda_against_cai.py`` runs ``LSDA.m``
    (v2.1, under GNU Octave) and this estimator on the BVP paper's data
    (k = 5, alpha = 0.1, 2 components, features standardised) and writes the
    largest principal angles between their subspaces, within the row space of
    the centred data, to ``figures/bvp/lsda_vs_cai.csv``. On the data without
    distance ties they differ by about 1 to 9 degrees on the real sets and
    below half a degree on the synthetic ones; adding ``LSDA.m``'s
    self-loops to this estimator's problem reproduces it to rounding, so the
    whole difference is the self-loop convention. On contact-lenses (one-hot
    columns: the centred data have rank 5 of 6) ``LSDA.m`` returns directions
    with an arbitrary component along which the data do not vary (its raw
    angle to ours changes with the order of the rows); within the row space
    the two agree. On car the second eigenvalue ``1 - alpha`` is repeated nine
    times, so any 2-D subspace of that eigenspace is optimal: ``LSDA.m``'s
    choice moves with the order of the rows, this estimator's is fixed by
    :func:`~dimred.utils.linalg.rayleigh_in_row_space`'s tie-break (largest
    data variance first); the nine-dimensional eigenspaces agree exactly. (An
    earlier version of this note quoted the angles between this estimator
    with and without self-loops as if they were angles to ``LSDA.m``.)

    Ridge: without self-loops ``X^T D_w X`` is singular when points without
    a same-class neighbour carry variance of their own, so
    ``ridge * trace / r`` (``r`` the rank) is added to it. At the default
    1e-8 it moves the solution by O(1e-8) when the matrix is well
    conditioned; directions in its null space get a finite but very large
    quotient and, if any exist, come first.

    Signs: each component is oriented by
    :func:`~dimred.utils.linalg.stable_signs` in input coordinates.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from dimred import LocalitySensitiveDiscriminantAnalysis
    >>> from dimred.metrics import knn_accuracy
    >>> X, y = load_iris(return_X_y=True)
    >>> lsda = LocalitySensitiveDiscriminantAnalysis(n_components=2, n_neighbors=5)
    >>> Z = lsda.fit_transform(X, y)
    >>> Z.shape
    (150, 2)
    >>> knn_accuracy(Z, y) > 0.9
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "alpha": [Interval(numbers.Real, 0, 1, closed="both")],
        "ridge": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=2, n_neighbors=5, alpha=0.1, ridge=1e-8):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.alpha = alpha
        self.ridge = ridge

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the projection.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y)
        name = type(self).__name__
        self.classes_, _ = check_classes(y, name)
        check_spread(X, name)
        self.n_neighbors_ = check_n_neighbors(self.n_neighbors, X.shape[0], name)
        self.mean_ = X.mean(axis=0)
        centred = X - self.mean_
        basis = row_space(centred)
        self._set_n_components(basis.shape[1], "the rank of the centred data")
        within, between = split_by_label(knn_graph(X, self.n_neighbors_), y)
        if within.nnz == 0:
            raise ValueError(
                f"{name}: no sample has a neighbour of its own class among its "
                f"{self.n_neighbors_} nearest, so the within-class graph is empty; every class "
                "needs at least 2 samples that are near each other."
            )
        left = self.alpha * (sp.diags(np.asarray(between.sum(axis=1)).ravel()) - between)
        left = left + (1 - self.alpha) * within
        degree_w = sp.diags(np.asarray(within.sum(axis=1)).ravel())

        def matrices(Z):
            return Z.T @ (left @ Z), Z.T @ (degree_w @ Z)

        self.eigenvalues_, vectors = rayleigh_in_row_space(
            centred, matrices, self.n_components_, ridge=self.ridge, basis=basis
        )
        self.components_ = vectors.T
        return self


class KernelDiscriminantAnalysis(SupervisedProjection):
    """Kernel Fisher discriminant analysis (Mika et al. 1999), multi-class.

    With the centred Gaussian kernel matrix ``K`` of the training data and
    ``W`` the block matrix with ``1 / n_c`` between members of class ``c``
    (the between-class scatter in feature space is ``K W K``, the total
    scatter ``K K``), the dual coefficients solve

    .. math:: K W K \\beta = \\lambda (K K + \\alpha I) \\beta,

    the leading ``n_components_ <= n_classes - 1`` eigenvectors (``K W K`` has
    rank at most ``n_classes - 1``: further eigenvectors would be arbitrary
    directions of eigenvalue 0; so are those with an eigenvalue below
    :data:`EIGEN_FLOOR` of the largest when the class means span fewer
    dimensions, which are dropped with a warning). ``alpha`` is the regularisation (0.1 in the
    BVP paper). New points are projected with their kernel against the
    training data, centred with the training statistics. Because ``W`` is a
    projection, every eigenvalue lies in ``[0, 1)``.

    Parameters
    ----------
    n_components : int, default=2
        At most ``n_classes - 1``; more give ``n_classes - 1`` (e.g. 1 for two
        classes), with a warning.
    gamma : float or None, default=None
        Gaussian kernel ``exp(-gamma ||x - x'||^2)``, ``gamma > 0``; ``None``
        uses ``1 / (n_features * X.var())`` (scikit-learn's ``"scale"``).
    alpha : float, default=0.1

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples_fit, n_components_)
        ``B``-orthonormal, signs by :func:`~dimred.utils.linalg.stable_signs`.
    eigenvalues_ : ndarray of shape (n_components_,)
    n_components_ : int
    X_fit_ : ndarray of shape (n_samples_fit, n_features)
    gamma_ : float
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Memory is O(n^2) in the number of training samples, as for any exact
    kernel method.

    Examples
    --------
    Three classes give at most two discriminant directions; new points are projected
    through their kernel against the training data.

    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from dimred import KernelDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> kda = KernelDiscriminantAnalysis(n_components=2).fit(X[::2], y[::2])
    >>> kda.transform(X[1::2]).shape
    (75, 2)
    >>> bool(np.all((kda.eigenvalues_ >= 0) & (kda.eigenvalues_ < 1)))
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "alpha": [Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(self, n_components=2, gamma=None, alpha=0.1):
        self.n_components = n_components
        self.gamma = gamma
        self.alpha = alpha

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the dual coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y)
        name = type(self).__name__
        self.classes_, codes = check_classes(y, name)
        check_spread(X, name)
        self._set_n_components(self.classes_.size - 1, "n_classes - 1")
        scale = 1.0 / (X.shape[1] * X.var())
        self.gamma_ = scale if self.gamma is None else float(self.gamma)
        self.X_fit_ = X
        self._centerer = KernelCenterer().fit(rbf_kernel(X, gamma=self.gamma_))
        K = self._centerer.transform(rbf_kernel(X, gamma=self.gamma_))
        class_means = np.zeros((self.classes_.size, X.shape[0]))
        class_means[codes, np.arange(X.shape[0])] = 1.0
        class_means /= class_means.sum(axis=1, keepdims=True)
        KW = K @ class_means.T  # K W K = (K M^T diag(n_c)) (M K) with M the class means
        A = KW @ (np.bincount(codes)[:, None] * KW.T)
        B = K @ K + self.alpha * np.eye(X.shape[0])
        values, vectors = generalized_eigh(A, B, self.n_components_)
        positive = int(np.sum(values > EIGEN_FLOOR * max(values[0], 0.0)))
        if positive == 0:
            raise ValueError(
                f"{name}: the class means coincide in the kernel's feature space; there is "
                "no discriminant direction."
            )
        if positive < self.n_components_:
            warnings.warn(
                f"{name}: only {positive} discriminant directions have a positive eigenvalue "
                f"(the class means span {positive} dimensions in the kernel's feature space); "
                f"using n_components_ = {positive} rather than directions of a null space.",
                UserWarning,
                stacklevel=2,
            )
            self.n_components_ = positive
        self.eigenvalues_, self.dual_coef_ = values[:positive], vectors[:, :positive]
        return self

    def transform(self, X):
        """Project ``X`` through its centred kernel against the training data.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        K = self._centerer.transform(rbf_kernel(X, self.X_fit_, gamma=self.gamma_))
        return K @ self.dual_coef_
