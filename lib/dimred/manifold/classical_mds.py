"""Classical (Torgerson) multidimensional scaling, computed through its identity with PCA.

Classical MDS (principal coordinates analysis, Torgerson 1952, Gower 1966) embeds
``n`` points given their pairwise distances ``D``: it double-centres the squared
distances, ``B = -1/2 J D^(2) J`` with ``J = I - 11^T / n``, and returns the
eigenvectors of ``B`` for its ``k`` largest eigenvalues scaled by their square roots.
When ``D`` holds the Euclidean distances of rows of a matrix ``X``, ``B = X_c X_c^T``
is the Gram matrix of the centred data ``X_c = U S V^T``: its eigenvectors are ``U``,
its eigenvalues ``S^2``, and the embedding ``U S = X_c V`` is the matrix of principal
component scores. :class:`ClassicalMDS` therefore computes it from the thin SVD of
``X_c`` (``O(n d min(n, d))`` time, ``O(n d)`` memory) or, when there are many more
samples than features, from the eigendecomposition of the ``d x d`` matrix
``X_c^T X_c = V S^2 V^T`` (``O(n d^2 + d^3)`` time, ``O(d^2)`` memory beyond the data
and the embedding), and never forms the ``n x n`` matrices, which at AwA2's 37,322
points would take 11 GB each in float64; :func:`classical_mds_from_distances` is the
dense ``O(n^2)`` reference from ``D``.

The AwA2 survey (Feng, Li & Xu 2020, Sect. II-H) derives this classical MDS but its
experiments ran scikit-learn's metric SMACOF MDS (see
``data/published/awa2_dr_survey/AUTHORS_CODE.md``).
"""

import numbers
import warnings

import numpy as np
from scipy.linalg import eigh, svd
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from ..utils.linalg import centred_gram, numerical_rank, stable_signs
from ..utils.validation import check_spread

__all__ = ["SOLVERS", "ClassicalMDS", "classical_mds_from_distances", "gower_out_of_sample"]

#: Values of :class:`ClassicalMDS`'s ``solver``.
SOLVERS = ("auto", "svd", "covariance")


class ClassicalMDS(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Classical (Torgerson) MDS of the Euclidean distances, via the principal axes of the data.

    On Euclidean input, classical MDS of the pairwise distances equals the
    principal component scores (see the module's docstring): the embedding of
    the training data is ``X_c V = U S`` from the thin SVD ``X_c = U S V^T`` of
    the centred data, whose squared singular values are the eigenvalues of the
    double-centred squared distances ``B``. The cost is that of PCA, not
    ``O(n^2)`` memory: ``O(n d min(n, d))`` time and ``O(n d)`` memory with
    ``solver="svd"``; ``O(n d^2 + d^3)`` time and ``O(d^2)`` memory beyond the
    data and the embedding with ``solver="covariance"``, which takes the axes
    ``V`` and eigenvalues ``S^2`` from ``eigh`` of ``X_c^T X_c`` (as
    scikit-learn's ``PCA(svd_solver="covariance_eigh")``); on 2 cores, for
    6,000 x 2,048 float32 AwA2-like data, 0.7 s against 2.9 s for the SVD
    (``benchmarks/bench_awa2.py`` measures both by size).

    New points are embedded by Gower's (1968) out-of-sample formula,
    ``y = 1/2 Lambda^(-1) Y^T (r - a)``, with ``Y`` the training embedding,
    ``Lambda`` its eigenvalues, ``a`` the squared distances of the point to the
    training points and ``r`` the row means of the training squared distances
    (:func:`gower_out_of_sample`). Since ``Y^T 1 = 0``, it reduces to the
    projection ``(x - mean_) V`` on the principal axes, which :meth:`transform`
    computes (``O(d k)`` per point instead of ``O(n d)``). Hence
    ``transform(X_train)`` equals ``fit_transform(X_train)``.

    Parameters
    ----------
    n_components : int, default=2
        At most the numerical rank of the centred data (more give that rank, with
        a warning).
    solver : {"auto", "svd", "covariance"}, default="auto"
        ``"svd"``: thin SVD of ``X_c`` (LAPACK ``gesdd``), accurate to the
        working precision for every component. ``"covariance"``:
        ``X_c^T X_c`` accumulated in float64 (also for float32 data), then its
        leading eigenpairs (``scipy.linalg.eigh``); faster when
        ``n_samples >> n_features``, but forming ``X_c^T X_c`` squares the
        condition number (see Notes). ``"auto"``: ``"covariance"`` when
        ``n_samples >= 2 * n_features``, else ``"svd"``.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components_)
        The training embedding ``U S`` (the principal component scores).
    eigenvalues_ : ndarray of shape (n_components_,)
        Largest eigenvalues of ``B``, decreasing: ``S^2``, i.e. ``n - 1`` times
        PCA's ``explained_variance_``.
    components_ : ndarray of shape (n_components_, n_features)
        The principal axes ``V^T`` (orthonormal rows).
    mean_ : ndarray of shape (n_features,)
    n_components_ : int
    solver_ : {"svd", "covariance"}
        The solver used (``"auto"`` resolved).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Signs: each axis (and so each embedding coordinate) is oriented so that its
    loading of largest magnitude is positive
    (:func:`~dimred.utils.linalg.stable_signs` on ``V``), the convention of
    scikit-learn's PCA (``svd_flip`` on ``V^T``); the embedding then equals
    ``PCA(svd_solver="full").fit_transform(X)``.

    Rank: components beyond the numerical rank of ``X_c`` (singular values below
    ``max(n, d) * eps`` times the largest, as ``numpy.linalg.matrix_rank``, with
    the ``eps`` of the data's dtype) have zero eigenvalue, zero training
    coordinates and arbitrary axes; they are not returned. The ``covariance``
    solver applies ``matrix_rank``'s rule to ``X_c^T X_c`` in float64 as well
    (eigenvalues below ``max(n, d) * eps64`` times the largest), i.e. it drops
    components with ``s_i / s_1 < sqrt(max(n, d) * eps64)`` (about ``3e-6`` at
    AwA2's size), which the SVD would keep for float64 data.

    Accuracy of the solvers: the SVD computes each singular value with an
    absolute error of about ``eps * s_1``, i.e. a relative error of about
    ``eps * s_1 / s_i``. The covariance solver computes the eigenvalue
    ``s_i^2`` with an absolute error of about ``eps64 * s_1^2``: a relative
    error of about ``eps64 * (s_1 / s_i)^2``, the square of the SVD's condition
    factor. The leading components (``s_i`` near ``s_1``) are as accurate as
    the SVD's (to about ``1e-14`` relative); a component with ``s_1 / s_i = 1e5``
    gets its eigenvalue to a relative error of up to ``eps64 * 1e10 = 2e-6``
    (measured: up to ``4e-7``) instead of about ``1e-12`` from the SVD
    (``tests/unit/test_classical_mds.py`` measures both). The
    axes' accuracy depends on the gaps between eigenvalues in the same way,
    relative to ``eps64 * s_1^2`` instead of ``eps * s_1``. For the few leading
    components of an embedding this is immaterial; ask for ``solver="svd"`` when
    the trailing components of ill-conditioned data matter.

    Precision: float32 input is kept in float32 (as PCA), float64 otherwise
    (the covariance solver's ``X_c^T X_c`` and its eigendecomposition are float64
    in both cases; its axes are then rounded to the data's dtype).

    References
    ----------
    Torgerson, W. S. (1952). Multidimensional scaling: I. Theory and method.
    Psychometrika 17, 401-419.
    Gower, J. C. (1966). Some distance properties of latent root and vector methods
    used in multivariate analysis. Biometrika 53, 325-338.
    Gower, J. C. (1968). Adding a point to vector diagrams in multivariate analysis.
    Biometrika 55, 582-585.

    Examples
    --------
    The embedding is PCA's, and ``transform`` of the training data gives it back:

    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import PCA
    >>> from dimred import ClassicalMDS
    >>> X, _ = load_iris(return_X_y=True)
    >>> mds = ClassicalMDS(n_components=2)
    >>> Y = mds.fit_transform(X)
    >>> Y.shape, mds.solver_
    ((150, 2), 'covariance')
    >>> mds.eigenvalues_.round(1)
    array([630. ,  36.2])
    >>> bool(np.allclose(Y, PCA(n_components=2, svd_solver="full").fit_transform(X)))
    True
    >>> bool(np.allclose(mds.transform(X), Y))
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "solver": [StrOptions(set(SOLVERS))],
    }

    def __init__(self, n_components=2, solver="auto"):
        self.n_components = n_components
        self.solver = solver

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            At least 2 samples, not all identical.
        y : None
            Ignored.

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit and return the training embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            ``embedding_`` (a copy).
        """
        return self._fit(X).copy()

    def transform(self, X):
        """Embed points by Gower's formula, i.e. project them on the principal axes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return (X - self.mean_) @ self.components_.T

    def _fit(self, X):
        name = type(self).__name__
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2)
        check_spread(X, name)
        n_samples, n_features = X.shape
        solver = self.solver
        if solver == "auto":
            solver = "covariance" if n_samples >= 2 * n_features else "svd"
        self.mean_ = X.mean(axis=0)
        if solver == "svd":
            eigenvalues, axes, rank = _svd_axes(X, self.mean_, self.n_components)
        else:
            eigenvalues, axes, rank = _covariance_axes(X, self.mean_, self.n_components)
        if rank == 0:
            raise ValueError(
                f"{name}: X has no variance (all {n_samples} samples are identical); there "
                "is nothing to embed."
            )
        if self.n_components > rank:
            warnings.warn(
                f"{name}: n_components={self.n_components} exceeds {rank} (the rank of the "
                f"centred data); using n_components_ = {rank}.",
                UserWarning,
                stacklevel=3,
            )
        self.n_components_ = k = int(min(self.n_components, rank))
        self.solver_ = solver
        self.components_ = stable_signs(axes[:, :k]).T.astype(X.dtype, copy=False)
        self.eigenvalues_ = eigenvalues[:k].astype(X.dtype, copy=False)
        # U S with the axes' signs, computed as transform() computes it, so that
        # transform(X_train) equals the training embedding exactly.
        self.embedding_ = (X - self.mean_) @ self.components_.T
        return self.embedding_


def _svd_axes(X, mean, n_components):
    """Squared singular values, right singular vectors (columns) and numerical rank of
    ``X - mean``, from its thin SVD; the leading ``min(n_components, rank)`` of each."""
    u, singular, vt = svd(X - mean, full_matrices=False, overwrite_a=True, check_finite=False)
    del u  # (n_samples, min(n_samples, n_features)): freed before the projection
    rank = numerical_rank(singular, rtol=max(X.shape) * np.finfo(X.dtype).eps)
    k = min(n_components, rank)
    return singular[:k] ** 2, vt[:k].T, rank


def _covariance_axes(X, mean, n_components):
    """The same as :func:`_svd_axes` from ``eigh`` of ``X_c^T X_c`` (float64).

    The Gram matrix comes from :func:`~dimred.utils.linalg.centred_gram` (float64,
    blocks of rows), so that the memory beyond ``X`` is ``O(d^2)``. Only the
    ``min(n_components, d)`` leading eigenpairs are computed; the rank is counted among them (rank
    ``< n_components`` when the smallest of them falls below the threshold, see
    :class:`ClassicalMDS`'s Notes), which is all :meth:`ClassicalMDS._fit` needs.
    """
    n_features = X.shape[1]
    gram = centred_gram(X, mean)
    k = min(n_components, n_features)
    eigenvalues, vectors = eigh(
        gram,
        lower=False,
        subset_by_index=[n_features - k, n_features - 1],
        overwrite_a=True,
        check_finite=False,
    )
    eigenvalues, vectors = eigenvalues[::-1], vectors[:, ::-1]
    rtol = max(
        max(X.shape) * np.finfo(np.float64).eps,  # matrix_rank's rule on the float64 Gram
        (max(X.shape) * np.finfo(X.dtype).eps) ** 2,  # the SVD's rule for X's dtype, squared
    )
    # The largest eigenvalue is eigenvalues[0]; numerical_rank takes the maximum of those given.
    rank = numerical_rank(np.clip(eigenvalues, 0, None), rtol=rtol)
    return np.clip(eigenvalues[:rank], 0, None), vectors[:, :rank], rank


def classical_mds_from_distances(D, n_components=2):
    """Classical MDS of a distance matrix, the dense ``O(n^2)`` reference.

    Double-centres the squared distances, ``B = -1/2 J D^(2) J`` with
    ``J = I - 11^T / n``, and scales the eigenvectors of ``B`` for its
    ``n_components`` largest eigenvalues by their square roots (``scipy.linalg.eigh``).
    Each coordinate is oriented so that its entry of largest magnitude is positive
    (:func:`~dimred.utils.linalg.stable_signs`; ``D`` has no features to orient
    loadings by, so the signs differ from :class:`ClassicalMDS`'s, up to a flip of
    whole columns). Memory ``O(n^2)``, time ``O(n^2 k)`` to ``O(n^3)``.

    Parameters
    ----------
    D : array-like of shape (n_samples, n_samples)
        Symmetric distances (not squared), zero diagonal.
    n_components : int, default=2
        At most ``n_samples``.

    Returns
    -------
    embedding : ndarray of shape (n_samples, n_components)
    eigenvalues : ndarray of shape (n_components,)
        Decreasing. Negative ones (``D`` not Euclidean) give zero coordinates,
        with a warning.

    Raises
    ------
    ValueError
        When ``D`` is not square, symmetric, non-negative with a zero diagonal, or
        ``n_components`` is not in ``1..n_samples``.
    """
    D = _check_distances(D, "classical_mds_from_distances")
    n = D.shape[0]
    if isinstance(n_components, bool) or not (
        isinstance(n_components, numbers.Integral) and 1 <= n_components <= n
    ):
        raise ValueError(
            f"classical_mds_from_distances: n_components={n_components!r} must be an "
            f"integer in 1..{n}."
        )
    squared = D**2
    row_means = squared.mean(axis=1)
    B = -0.5 * (squared - row_means[:, None] - row_means[None, :] + row_means.mean())
    eigenvalues, vectors = eigh(B, subset_by_index=[n - n_components, n - 1])
    eigenvalues, vectors = eigenvalues[::-1], vectors[:, ::-1]
    if np.any(eigenvalues < 0):
        warnings.warn(
            "classical_mds_from_distances: negative eigenvalues (the distances are not "
            "Euclidean); their coordinates are set to 0.",
            UserWarning,
            stacklevel=2,
        )
    return stable_signs(vectors * np.sqrt(np.clip(eigenvalues, 0, None))), eigenvalues


def gower_out_of_sample(D_new, D_train, embedding, eigenvalues):
    """Gower's (1968) formula: embed new points from their distances to the training points.

    ``y = 1/2 Lambda^(-1) Y^T (r - a)`` for each new point, with ``Y`` the
    training ``embedding`` (columns summing to 0, as classical MDS gives), ``Lambda``
    its ``eigenvalues``, ``a`` the point's squared distances to the training
    points and ``r`` the row means of the training squared distances. For Euclidean
    distances it is the projection on the principal axes
    (:meth:`ClassicalMDS.transform`); its cost is ``O(n)`` per point and it needs
    only distances.

    Parameters
    ----------
    D_new : array-like of shape (n_new, n_samples)
        Distances (not squared) of the new points to the training points.
    D_train : array-like of shape (n_samples, n_samples)
        Distances between the training points.
    embedding : array-like of shape (n_samples, k)
    eigenvalues : array-like of shape (k,)
        Positive.

    Returns
    -------
    ndarray of shape (n_new, k)
    """
    D_train = _check_distances(D_train, "gower_out_of_sample")
    D_new = check_array(D_new, dtype=np.float64)
    embedding = check_array(embedding, dtype=np.float64)
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    n = D_train.shape[0]
    if D_new.shape[1] != n or embedding.shape[0] != n or eigenvalues.shape != embedding.shape[1:]:
        raise ValueError(
            f"gower_out_of_sample: shapes do not match: D_new {D_new.shape}, D_train "
            f"{D_train.shape}, embedding {embedding.shape}, eigenvalues {eigenvalues.shape}."
        )
    if not np.all(eigenvalues > 0):
        raise ValueError("gower_out_of_sample: eigenvalues must be positive.")
    row_means = (D_train**2).mean(axis=1)
    return 0.5 * ((row_means[None, :] - D_new**2) @ embedding) / eigenvalues


def _check_distances(D, name):
    D = check_array(D, dtype=np.float64)
    if D.shape[0] != D.shape[1]:
        raise ValueError(f"{name}: the distance matrix must be square, got shape {D.shape}.")
    scale = np.abs(D).max(initial=0.0)
    if not np.allclose(D, D.T, rtol=0, atol=1e-12 * scale):
        raise ValueError(f"{name}: the distance matrix must be symmetric.")
    if np.any(D < 0) or np.any(np.diag(D) != 0):
        raise ValueError(f"{name}: distances must be non-negative with a zero diagonal.")
    return D
