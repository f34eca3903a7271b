"""Best-View Projection (BVP) for ordinal classification (Zine-El-Abidine,
Dutagaci, Rousseau, "Dimensionality Reduction for Ordinal Classification").

The data are translated to the mean of the class centres. At each step the
viewpoint ``v`` minimising ``F(v) = sum_k [v^T (c_{k+1} - c_k)]^2 = ||A v||^2``
(Eqs. (2), (6)) on the unit sphere is found and the data are projected onto
``v``'s orthogonal complement, until ``n_components`` dimensions remain.

What the iteration converges to
-------------------------------
``F(v) = v^T A^T A v`` is a Rayleigh quotient on the sphere: its minimiser is
an eigenvector of ``A^T A`` for the smallest eigenvalue. Projecting onto
``v^perp`` leaves the other eigenvectors of ``A^T A`` unchanged, so the ``N - d``
removed viewpoints are the eigenvectors of the ``N - d`` smallest eigenvalues,
and the kept subspace is spanned by the ``d`` leading right singular vectors
of ``A`` (the differences of adjacent class centres). ``solver="spectral"``
computes that subspace directly with one SVD; ``solver="riemannian"`` runs the
paper's Algorithm 1 at every step. When ``rank(A) = K - 1 < d``, ``F`` is zero on
a whole subspace and Algorithm 1 keeps a random part of it (it depends on the
initial viewpoints); the spectral solver fills the missing directions with the
leading principal axes of the data inside ``null(A)`` and documents the choice.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data

from ..utils.labels import check_ranks, class_centres
from ..utils.linalg import numerical_rank
from ..utils.validation import check_max_iter, check_spread
from ._base import LinearProjection

__all__ = ["BestViewProjection", "best_viewpoint"]

_SOLVERS = ("spectral", "riemannian")


def best_viewpoint(A, random_state=None, max_iter=100, tol=1e-5, step_size=0.05):
    """Algorithm 1: Riemannian gradient descent for ``min ||A v||^2, ||v|| = 1``.

    Euclidean gradient ``2 A^T A v`` (Eq. (5)), retraction ``(v + eta) / ||v + eta||``
    (Eq. (8)), Barzilai-Borwein step (Eq. (7)) after a first step ``gamma_0``;
    stops when the angle between successive viewpoints is below ``tol``.

    Parameters
    ----------
    A : ndarray of shape (n_classes - 1, n_dims)
        Differences of adjacent class centres (Eq. (6)).
    random_state : int, RandomState or None
        Seeds the initial viewpoint.
    max_iter : int, default=100
        At least 1.
    tol : float, default=1e-5
        Angle (radians) between successive viewpoints at which to stop; at least 0.
    step_size : float, default=0.05
        ``gamma_0``, positive (a first step of 0 would stop at the random start).

    Returns
    -------
    v : ndarray of shape (n_dims,)
    n_iter : int

    Raises
    ------
    ValueError
        If ``max_iter``, ``tol`` or ``step_size`` is out of its range.

    Warns
    -----
    ConvergenceWarning
        If ``max_iter`` iterations end before a step turns by less than ``tol``.
    """
    _check_descent_settings(max_iter, tol, step_size)
    v, n_iter, converged = _descend(A, check_random_state(random_state), max_iter, tol, step_size)
    if not converged:
        warnings.warn(
            f"best_viewpoint did not converge: {max_iter} iterations (max_iter) ended "
            f"before a step turned the viewpoint by less than tol={tol:g} rad.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return v, n_iter


def _check_descent_settings(max_iter, tol, step_size):
    """Refuse settings with which Algorithm 1 cannot run or cannot stop.

    Raises
    ------
    ValueError
        Unless ``max_iter`` is an integer >= 1, ``tol`` a number >= 0 and
        ``step_size`` a finite number > 0.
    """
    check_max_iter(max_iter, "Algorithm 1's MaxIter")
    if not isinstance(tol, Real) or not tol >= 0:
        raise ValueError(f"tol={tol!r} must be a number >= 0 (an angle in radians).")
    if not isinstance(step_size, Real) or not 0 < step_size < np.inf:
        raise ValueError(
            f"step_size={step_size!r} must be a finite number > 0 (Algorithm 1's gamma_0; "
            "a first step of 0 does not move, and the descent would stop at its random "
            "start)."
        )


def _descend(A, rng, max_iter, tol, step_size):
    """Algorithm 1 from a random viewpoint: ``(v, n_iter, converged)``."""
    gram = A.T @ A
    v = rng.normal(size=A.shape[1])
    v /= np.linalg.norm(v)
    gradient = 2 * gram @ v
    gamma = step_size
    for n_iter in range(1, max_iter + 1):
        step = v - gamma * gradient
        v_new = step / np.linalg.norm(step)
        gradient_new = 2 * gram @ v_new
        angle = np.arccos(np.clip(v_new @ v, -1.0, 1.0))
        dv, dg = v_new - v, gradient_new - gradient
        v, gradient = v_new, gradient_new
        if angle < tol:
            return v, n_iter, True
        denominator = dg @ dg
        gamma = abs(dv @ dg) / denominator if denominator > 0 else step_size
    return v, max_iter, False


class BestViewProjection(LinearProjection):
    """Best-View Projection for ordinal classes.

    Parameters
    ----------
    n_components : int, default=2
        Dimensions kept. At most ``n_features`` (more give ``n_features``,
        with a warning); ``n_features`` itself removes no viewpoint and only
        rotates the data into the canonical orientation.
    solver : {"spectral", "riemannian"}, default="spectral"
        ``"riemannian"``: the paper's Algorithm 1 (Riemannian gradient descent
        with Barzilai-Borwein steps), one viewpoint per removed dimension.
        ``"spectral"``: the subspace Algorithm 1 converges to, in closed form
        (leading right singular vectors of the centre differences ``A``).
    max_iter : int, default=100
        Algorithm 1's MaxIter, at least 1. A ``ConvergenceWarning`` is issued when it
        ends the descent for a viewpoint before ``tol`` does.
    tol : float, default=1e-5
        Algorithm 1's epsilon (angle between successive viewpoints), at least 0.
    step_size : float, default=0.05
        Algorithm 1's gamma_0, positive.
    random_state : int, RandomState or None
        Seeds Algorithm 1's initial viewpoints.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Labels in their order (the categories of an ordered ``pandas.Categorical``).
    centres_ : ndarray of shape (n_classes, n_features)
        Class centres in the input space.
    mean_ : ndarray of shape (n_features,)
        Mean of the class centres (the origin of the projection).
    n_components_ : int
        Dimensions kept, ``min(n_components, n_features)``.
    components_ : ndarray of shape (n_components_, n_features)
        Orthonormal axes of the projection, in canonical orientation: the
        first axis is the direction in which the projected centres spread most
        along the order (class 1 on the left, i.e. its coordinate below the
        last class's); each further axis has the sign making the last class's
        projected centre non-negative.
    objective_ : float
        ``G`` of Eq. (1): sum of squared distances of adjacent projected centres.
    n_iter_ : int
        Iterations of Algorithm 1 summed over the removed dimensions; 1 for
        the spectral solver (one SVD).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> import numpy as np
    >>> from dimred import BestViewProjection
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 20)
    >>> X = rng.normal(size=(60, 4)) + y[:, None] * [1.0, 0.5, 0.0, 0.0]
    >>> bvp = BestViewProjection(n_components=2).fit(X, y)
    >>> bvp.transform(X).shape
    (60, 2)

    The first axis keeps the order of the classes: their projected centres increase
    from class 1 to class 3.

    >>> bool(np.all(np.diff(bvp.transform(bvp.centres_)[:, 0]) > 0))
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "solver": [StrOptions(set(_SOLVERS))],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "step_size": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components=2,
        solver="spectral",
        max_iter=100,
        tol=1e-5,
        step_size=0.05,
        random_state=None,
    ):
        self.n_components = n_components
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.step_size = step_size
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Find the projection from the class centres of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples,)
            Ordinal labels: numbers (their sorted values give the order) or an
            ordered ``pandas.Categorical`` (its categories' order); see
            :func:`~dimred.utils.labels.check_ranks`.

        Returns
        -------
        self : BestViewProjection
        """
        X, _ = validate_data(self, X, y)
        self._set_n_components(X.shape[1], f"n_features = {X.shape[1]}")
        name = type(self).__name__
        self.classes_, codes = check_ranks(y, name)
        check_spread(X, name)
        self.centres_ = class_centres(X, codes)[1]
        self.mean_ = self.centres_.mean(axis=0)
        differences = np.diff(self.centres_, axis=0)
        if self.solver == "spectral":
            basis = self._spectral_basis(differences, X - self.mean_)
            self.n_iter_ = 1
        else:
            basis, iterations = self._riemannian_basis(differences)
            self.n_iter_ = int(np.sum(iterations))
        self.components_ = self._canonical(basis, differences)
        projected = differences @ self.components_.T
        self.objective_ = float(np.sum(projected**2))
        return self

    def _spectral_basis(self, differences, centred):
        """Leading right singular vectors of ``A``, completed inside ``null(A)``."""
        _, singular, vt = np.linalg.svd(differences, full_matrices=True)
        rank = numerical_rank(singular)
        basis = vt[: min(rank, self.n_components_)]
        missing = self.n_components_ - basis.shape[0]
        if missing > 0:
            null = vt[rank:]
            _, _, inner = np.linalg.svd(centred @ null.T, full_matrices=False)
            basis = np.vstack([basis, inner[:missing] @ null])
        return basis

    def _riemannian_basis(self, differences):
        """Algorithm 1 repeated, each time projecting onto the viewpoint's complement."""
        rng = check_random_state(self.random_state)
        basis = np.eye(differences.shape[1])  # rows: current axes in input coordinates
        iterations, unconverged = [], 0
        while basis.shape[0] > self.n_components_:
            local = differences @ basis.T
            v, n_iter, converged = _descend(local, rng, self.max_iter, self.tol, self.step_size)
            iterations.append(n_iter)
            unconverged += not converged
            basis = _orthogonal_complement(v) @ basis
        if unconverged:
            self._warn_unconverged(unconverged, len(iterations))
        return basis, iterations

    def _warn_unconverged(self, unconverged, n_viewpoints):
        """One ``ConvergenceWarning`` for the viewpoints whose descent ``max_iter`` ended."""
        warnings.warn(
            f"{type(self).__name__}: Algorithm 1 did not converge for {unconverged} of the "
            f"{n_viewpoints} viewpoints removed: max_iter={self.max_iter} iterations ended "
            f"before a step turned by less than tol={self.tol:g} rad. Increase max_iter, or "
            "use solver='spectral' (its limit, in closed form).",
            ConvergenceWarning,
            stacklevel=4,
        )

    def _canonical(self, basis, differences):
        """Rotate and reflect ``basis`` into the canonical orientation."""
        spread = differences @ basis.T
        _, _, vt = np.linalg.svd(spread, full_matrices=True)
        rotated = vt @ basis
        last = (self.centres_[-1] - self.centres_[0]) @ rotated.T
        scale = np.abs(self.centres_[-1] - self.centres_[0]).sum()
        # where the centres do not separate an axis, fall back to svd_flip's rule
        largest = rotated[np.arange(len(rotated)), np.argmax(np.abs(rotated), axis=1)]
        reference = np.where(np.abs(last) > 1e-8 * scale, last, largest)
        return rotated * np.where(reference < 0, -1.0, 1.0)[:, None]


def _orthogonal_complement(v):
    """Orthonormal rows spanning the complement of the unit vector ``v``."""
    q, _ = np.linalg.qr(np.column_stack([v, np.eye(v.size)]))
    return q[:, 1 : v.size].T
