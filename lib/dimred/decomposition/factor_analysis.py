"""Factor analysis as scikit-learn fits it, with its randomized SVD taken in feature space.

scikit-learn's :class:`~sklearn.decomposition.FactorAnalysis` (the AwA2 survey's FA,
Sect. III-F; Barber 2012, Algorithm 21.1) alternates, until the log-likelihood gains
less than ``tol``, a truncated SVD of the scaled data ``A = X_c Psi^(-1/2) / sqrt(n)``
and an update of the noise variances ``Psi``. With ``svd_method="randomized"`` (its
default, and the survey's) the SVD is Halko et al.'s (2011) Algorithm 4.4: ``k' = k +
10`` Gaussian vectors ``Omega``, ``q = iterated_power`` power iterations with
normalisation, an orthonormal basis ``Q`` of ``range(A (A^T A)^q Omega)``, and the SVD
of ``B = Q^T A``. Every product of that algorithm goes through the ``n x d`` matrix
``A``: ``2 q + 2`` passes of ``n d k'`` multiply-adds per iteration of the EM.

All the EM needs of the SVD is in feature space: the singular values ``s``, the right
singular vectors ``V`` and ``||A||_F^2``. With the ``d x d`` Gram matrix ``G = A^T A =
D X_c^T X_c D`` (``D = Psi^(-1/2) / sqrt(n)``, a diagonal rescaling of ``X_c^T X_c``,
which is formed once per fit), let ``Z`` span ``range((A^T A)^q Omega)`` (``q``
products by ``G``, each followed by a QR), ``W = G Z`` and ``C = Z^T W = E Lambda E^T``.
Then ``Q = A Z E Lambda^(-1/2)`` is an orthonormal basis of ``range(A Z)``, the range
scikit-learn's ``Q`` spans, and ``B = Q^T A = Lambda^(-1/2) E^T W^T``, a ``k' x d``
matrix like scikit-learn's: the two ``B`` differ by an orthogonal ``k' x k'`` factor on
the left, which leaves ``s`` and ``V`` unchanged, and ``||A||_F^2 = trace(G)``. The
Gaussian draws are scikit-learn's, from the same generator in the same order. So each
EM iteration costs ``O(d^2 k')`` instead of ``O(n d k')``, and the fit one ``O(n d^2)``
product and one ``O(n d k)`` product for the signs at the end: at the survey's
22,393 training points and 2,048 features, about 20 times fewer operations per
iteration (``benchmarks/bench_fa.py`` measures the fits: 1.4 to 4.5 times faster over
Table VI's dimensions 2 to 512 there, where the Gram matrix itself takes most of the
small fits).

In exact arithmetic the result is scikit-learn's; in floating point the Gram matrix
carries the rounding of ``A``'s squared singular values, an absolute error of about
``eps * s_1^2`` (``eps`` the float64 machine epsilon), where scikit-learn's SVD carries
``eps * s_1`` on the singular values themselves, and both compute the unexplained
variance ``||A||_F^2 - sum(s^2)`` with an error of about ``eps * ||A||_F^2``. So the
Gram path is used only while each of these quantities is at least :data:`GRAM_RTOL`
of its scale, the smallest ``s_k^2`` of ``s_1^2`` and the unexplained variance of
``||A||_F^2`` (:func:`_resolved`): their relative error is then at most about ``eps /
GRAM_RTOL = 2e-10``, which the EM does not amplify (``tests/unit/
test_factor_analysis.py``: factors, noise variances and log-likelihoods within ``1e-7``
of their largest magnitude, the same iterations). Otherwise, in particular whenever
``n_components`` reaches the rank of ``X`` (rank-deficient or collinear data, the
default ``n_components=None`` included), scikit-learn's ``s_k`` beyond the rank or
its unexplained variance are its own rounding noise, which its log-likelihood and
stopping rule depend on and no other computation reproduces; then the fit is
scikit-learn's own computation, restarted from the same random state.

Reference: Halko, N., Martinsson, P.-G. and Tropp, J. A. (2011). Finding structure with
randomness: probabilistic algorithms for constructing approximate matrix
decompositions. SIAM Review 53, 217-288.
"""

import warnings

import numpy as np
from scipy.linalg import eigh, qr, svd
from sklearn.base import _fit_context
from sklearn.decomposition import FactorAnalysis
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.extmath import svd_flip
from sklearn.utils.validation import validate_data

from ..utils.linalg import centred_gram
from ..utils.validation import check_spread

__all__ = ["GRAM_RTOL", "N_OVERSAMPLES", "GramFactorAnalysis", "randomized_gram_svd"]

#: Oversampling of scikit-learn's randomized SVD (``randomized_svd``'s default).
N_OVERSAMPLES = 10
#: scikit-learn's floor of the noise variances (``SMALL`` in ``FactorAnalysis.fit``).
SMALL = 1e-12
#: The Gram path is trusted with a squared singular value of ``A`` at least this
#: fraction of the largest, and an unexplained variance at least this fraction of
#: ``||A||_F^2`` (relative rounding error at most about ``eps / GRAM_RTOL``); below it
#: the fit is scikit-learn's own (the module's docstring).
GRAM_RTOL = 1e-6


class GramFactorAnalysis(FactorAnalysis):
    """scikit-learn's :class:`~sklearn.decomposition.FactorAnalysis`, its SVD from ``X^T X``.

    The same parameters, attributes and methods as scikit-learn's estimator, of which it
    is a subclass; only :meth:`fit` differs, and only when ``svd_method="randomized"``
    and ``n_samples >= n_features``: each EM iteration's randomized SVD is computed from
    the ``d x d`` Gram matrix of the centred data (see the module's docstring), with
    scikit-learn's random draws, so that the fit equals scikit-learn's up to rounding
    in ``O(n d^2 + iterations * d^2 k)`` time instead of ``O(iterations * n d k)``.
    Otherwise (``svd_method="lapack"``, fewer samples than features, where
    scikit-learn's randomized SVD works on ``A^T`` and the ``n x n`` side is the
    smaller one, or a factor the Gram matrix cannot resolve, see the Notes) it is
    scikit-learn's fit.

    Parameters
    ----------
    n_components, tol, copy, max_iter, noise_variance_init, svd_method, \
iterated_power, rotation, random_state
        As :class:`~sklearn.decomposition.FactorAnalysis`.

    Attributes
    ----------
    components_, loglike_, noise_variance_, n_iter_, mean_, n_features_in_, \
feature_names_in_
        As :class:`~sklearn.decomposition.FactorAnalysis`.

    Notes
    -----
    Agreement with scikit-learn: the range of ``A (A^T A)^q Omega`` is the same
    subspace whichever the normalisation of the power iterations (scikit-learn's LU,
    QR here), and its top ``k = n_components`` singular values and vectors are
    ``A``'s in both, so the two fits differ only by rounding as long as the Gram
    matrix resolves each of them and the unexplained variance at every iteration
    (:data:`GRAM_RTOL`, :func:`_resolved`). When it does not, in particular when
    ``n_components`` is at least the rank of ``X`` (the default ``None`` on
    rank-deficient or collinear data), scikit-learn's ``s_k`` beyond the rank, or
    its unexplained variance, are rounding noise that its log-likelihood and its
    stopping rule depend on; then :meth:`fit` discards the Gram iterations and runs
    scikit-learn's own fit from the random state it started from (an int seed, or
    the generator's state rewound), so the result is scikit-learn's. As in
    scikit-learn, ``n_components > n_features`` gives ``n_features`` factors (the
    log-likelihood's constant counts ``n_components``).

    Input: unlike scikit-learn's estimator, it refuses (``ValueError``) a single
    sample, constant data (no factor to find: scikit-learn returns zeros), data
    spread over more than float64 can square (the Gram matrix would overflow or
    underflow; :func:`~dimred.utils.validation.check_spread`) and a
    ``noise_variance_init`` that is not a positive, finite variance per feature
    (scikit-learn fails on a negative one with "array must not contain infs or NaNs"
    and returns an infinite log-likelihood from a zero), on either path.

    Signs: as scikit-learn's ``svd_flip``, each factor is oriented so that the
    largest-magnitude entry of its left singular vector is positive. That vector is
    scikit-learn's ``Q Uhat`` (``A v / s`` differs from it outside the range of ``Q``,
    enough to flip a factor on sparse data), computed once, after the last iteration.

    Examples
    --------
    The factors are scikit-learn's, to rounding:

    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.decomposition import FactorAnalysis
    >>> from dimred import GramFactorAnalysis
    >>> X, _ = load_iris(return_X_y=True)
    >>> fa = GramFactorAnalysis(n_components=2, random_state=0).fit(X)
    >>> fa.components_.shape, fa.transform(X).shape
    ((2, 4), (150, 2))
    >>> reference = FactorAnalysis(n_components=2, random_state=0).fit(X)
    >>> bool(np.allclose(fa.components_, reference.components_, atol=1e-6))
    True
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the factor analysis model (scikit-learn's EM, SVD from ``X^T X``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self
        """
        given = X  # scikit-learn's fit validates it again (keeping its feature names)
        X = validate_data(self, X, copy=False, dtype=np.float64, ensure_min_samples=2)
        check_spread(X, type(self).__name__)
        n_samples, n_features = X.shape
        psi = self._initial_noise(n_features)
        if self.svd_method != "randomized" or n_samples < n_features:
            return super().fit(given)
        random_state = check_random_state(self.random_state)
        start = random_state.get_state()
        if not self._fit_gram(X, psi, random_state):
            random_state.set_state(start)  # scikit-learn's fit draws what it would have
            super().fit(given)
        return self

    def _fit_gram(self, X, psi, random_state):
        """scikit-learn's EM, every SVD from the Gram matrix; False if one is unresolved.

        Returns False (the model left unfitted) as soon as the Gram matrix of an
        iteration does not resolve what the EM takes from it (:func:`_resolved`); True
        once the EM has stopped, the model fitted.
        """
        n_samples, n_features = X.shape
        n_components = n_features if self.n_components is None else self.n_components
        mean = X.mean(axis=0)
        gram = centred_gram(X, mean)
        gram += np.triu(gram, 1).T  # dsyrk fills the upper triangle
        var = np.diag(gram) / n_samples  # the variance of each centred column
        llconst = n_features * np.log(2.0 * np.pi) + n_components
        loglike, old_ll = [], -np.inf
        for _ in range(self.max_iter):
            sqrt_psi = np.sqrt(psi) + SMALL
            scale = 1.0 / (sqrt_psi * np.sqrt(n_samples))
            scaled = gram * np.outer(scale, scale)  # A^T A
            s, Vt, left = randomized_gram_svd(
                scaled, n_components, self.iterated_power, random_state
            )
            total = np.trace(scaled)  # ||A||_F^2
            unexplained = total - np.sum(s)
            if not _resolved(s, unexplained, total, n_features):
                return False
            ll = llconst + np.sum(np.log(s)) + unexplained
            ll = -n_samples / 2.0 * (ll + np.sum(np.log(psi)))
            W = np.sqrt(np.maximum(s - 1.0, 0.0))[:, np.newaxis] * Vt * sqrt_psi
            loglike.append(ll)
            if ll - old_ll < self.tol:
                break
            old_ll = ll
            psi = np.maximum(var - np.sum(W**2, axis=0), SMALL)
        else:
            warnings.warn(
                "FactorAnalysis did not converge. You might want to increase the number "
                "of iterations.",
                ConvergenceWarning,
                stacklevel=4,  # _fit_gram, fit, scikit-learn's _fit_context, the caller
            )
        # scikit-learn's signs: its svd_flip on the left vectors U = A @ left (A = X_c * scale)
        _, W = svd_flip((X - mean) @ (scale[:, np.newaxis] * left), W)
        self.mean_ = mean
        self.components_ = W if self.rotation is None else self._rotate(W)
        self.noise_variance_ = psi
        self.loglike_ = loglike
        self.n_iter_ = len(loglike)
        return True

    def _initial_noise(self, n_features):
        """The noise variances the EM starts from (scikit-learn's rule), checked."""
        if self.noise_variance_init is None:
            return np.ones(n_features)
        psi = np.asarray(self.noise_variance_init, dtype=np.float64)
        if psi.shape != (n_features,):
            raise ValueError(
                f"noise_variance_init has shape {psi.shape}; X has {n_features} features, "
                "one variance each."
            )
        bad = np.flatnonzero(~(np.isfinite(psi) & (psi > 0)))
        if bad.size:
            raise ValueError(
                "noise_variance_init must hold positive, finite variances; feature "
                f"{bad[0]} has {psi[bad[0]]:g}."
            )
        return psi


def _resolved(squared, unexplained, total, n_features):
    """Whether the Gram matrix resolves the EM's quantities to :data:`GRAM_RTOL`.

    Its eigenvalues carry an absolute rounding error of about ``eps * s_1^2``, and
    the unexplained variance ``trace(A^T A) - sum(s^2)`` one of about ``eps * trace``
    (a cancellation, in scikit-learn's ``||A||_F^2 - ||s||^2`` as well). Each must be
    at least :data:`GRAM_RTOL` of its scale: the smallest ``s_k^2`` of ``s_1^2`` and,
    unless every feature is a factor (the unexplained variance is then zero in exact
    arithmetic, rounding in both), the unexplained variance of the trace. Neither is
    when ``X`` has rank at most ``n_components``.

    Parameters
    ----------
    squared : ndarray of shape (k,)
        ``s_1^2 >= ... >= s_k^2``.
    unexplained, total : float
        ``trace(A^T A) - sum(squared)`` and ``trace(A^T A)``.
    n_features : int

    Returns
    -------
    bool
    """
    if squared.size and squared[-1] < GRAM_RTOL * squared[0]:
        return False
    return squared.size == n_features or unexplained >= GRAM_RTOL * total


def randomized_gram_svd(gram, n_components, n_iter, random_state):
    """scikit-learn's ``randomized_svd(A, n_components, n_iter=n_iter)``, from ``A^T A``.

    Halko et al.'s Algorithm 4.4 as scikit-learn runs it (``n_components + 10``
    Gaussian vectors drawn from ``random_state`` as it draws them, ``n_iter`` power
    iterations), every product taken in feature space (the module's docstring).

    Parameters
    ----------
    gram : ndarray of shape (n_features, n_features)
        ``A^T A``, symmetric.
    n_components, n_iter : int
    random_state : numpy.random.RandomState

    Returns
    -------
    squared_singular_values : ndarray of shape (k,)
        ``k = min(n_components, n_features)``, as scikit-learn's ``randomized_svd``
        returns. Decreasing; zero beyond the rank of ``A``.
    Vt : ndarray of shape (k, n_features)
        The right singular vectors (rows), up to sign; zero rows beyond the rank.
    left : ndarray of shape (n_features, k)
        The left singular vectors are ``U = A @ left``: scikit-learn's ``Q Uhat``,
        with ``Q = A Z E Lambda^(-1/2)``.

    Examples
    --------
    The squared singular values of scikit-learn's ``randomized_svd`` of ``A``, from
    ``A^T A`` and the same random draws:

    >>> import numpy as np
    >>> from sklearn.utils.extmath import randomized_svd
    >>> from dimred.decomposition import randomized_gram_svd
    >>> A = np.random.default_rng(0).normal(size=(50, 20))
    >>> s, Vt, left = randomized_gram_svd(A.T @ A, 3, 4, np.random.RandomState(0))
    >>> s.shape, Vt.shape, left.shape
    ((3,), (3, 20), (20, 3))
    >>> _, singular, _ = randomized_svd(A, 3, n_iter=4, random_state=np.random.RandomState(0))
    >>> bool(np.allclose(s, singular**2))
    True
    >>> U = A @ left
    >>> bool(np.allclose(U.T @ U, np.eye(3)))
    True
    """
    n_features = gram.shape[0]
    size = n_components + N_OVERSAMPLES
    omega = random_state.normal(size=(n_features, size))
    if size >= n_features:  # the range is every direction: the SVD is exact
        values, ZE = eigh(gram, check_finite=False)
        WE = ZE * values  # G E = E Lambda
    else:
        Z = qr(omega, mode="economic", check_finite=False)[0]
        for _ in range(n_iter):
            Z = qr(gram @ Z, mode="economic", check_finite=False)[0]
        W = gram @ Z
        values, E = eigh(Z.T @ W, check_finite=False)  # C = Z^T A^T A Z
        ZE, WE = Z @ E, W @ E
    values, ZE, WE = values[::-1], ZE[:, ::-1], WE[:, ::-1]
    kept = values > values[0] * len(values) * np.finfo(np.float64).eps
    root = np.sqrt(values[kept])
    basis = ZE[:, kept] / root  # Q = A @ basis, orthonormal
    B = WE[:, kept].T / root[:, np.newaxis]  # Q^T A
    uhat, singular, Vt = svd(B, full_matrices=False, check_finite=False)
    size, k = min(n_components, n_features), min(n_components, len(singular))
    squared, rows, left = np.zeros(size), np.zeros((size, n_features)), np.zeros((n_features, size))
    squared[:k], rows[:k], left[:, :k] = singular[:k] ** 2, Vt[:k], basis @ uhat[:, :k]
    return squared, rows, left
