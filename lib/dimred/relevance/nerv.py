"""NeRV relevance learning (Schulz, Gisbrecht & Hammer, ESANN 2014, Sect. 3).

Given data ``X`` (``N x n``) and a visualisation ``Y`` of it, the relevances
``lambda_l^2 >= 0`` rescale the features, ``X_lambda = (lambda_1 x_1, ..., lambda_n x_n)``,
so that ``X_lambda`` is as close to ``Y`` as the smooth NeRV quality measures:

.. math:: \\min_{\\lambda} \\; Q_k^{NeRV}(X_\\lambda, Y) + \\delta \\sum_l \\lambda_l^2,

.. math:: Q_k^{NeRV} = \\gamma \\sum_i \\sum_{j \\ne i} p_{j|i} \\log \\frac{p_{j|i}}{q_{j|i}}
          + (1 - \\gamma) \\sum_i \\sum_{j \\ne i} q_{j|i} \\log \\frac{q_{j|i}}{p_{j|i}},

``p_{j|i} \\propto \\exp(-d_\\lambda(x_i, x_j)^2 / \\sigma_i^{x2})`` with
``d_\\lambda^2 = \\sum_l \\lambda_l^2 (x_{il} - x_{jl})^2`` and
``q_{j|i} \\propto \\exp(-||y_i - y_j||^2 / \\sigma_i^{y2})`` (the paper's Sect. 2 and 3).
Each width is chosen, separately in ``X`` and ``Y`` (footnote 1), "such that the
actual number of neighbors is ``k``". Two readings (``bandwidth``):

``"perplexity"`` (default)
    the perplexity ``exp(H(p_{.|i}))`` -- the effective number of neighbours --
    is ``k``: the convention of the original NeRV code (``sigma^2`` in the
    denominator, no factor 2, entropy matched to ``log k``);
``"kth_neighbor"``
    ``sigma_i`` is the distance from point ``i`` to its ``k``-th nearest
    neighbour (in ``X`` at ``lambda = 1`` and in ``Y``), a common reading of "a
    neighbourhood of ``k`` points"; it is a much narrower Gaussian (the
    effective number of neighbours is then about ``k / 3`` to ``k / 2``). Only
    with fixed widths.

Parameterisation and gradient
-----------------------------
The variables are ``theta_l = lambda_l^2`` themselves (the paper optimises "with
respect to ``lambda_l^2``"); ``theta >= 0`` is kept by projecting every Rprop step
onto the non-negative orthant. With ``a_ij = -beta_i d_ij^2`` (``beta_i = 1/sigma_i^2``)
and ``h_ij = gamma p_ij log(p_ij/q_ij) - (1 - gamma) q_ij``,

.. math:: \\frac{\\partial Q}{\\partial a_{ij}} = h_{ij} - p_{ij} \\sum_m h_{im}, \\qquad
          \\frac{\\partial Q}{\\partial \\theta_l} = \\sum_{ij} W_{ij} (x_{il} - x_{jl})^2,
          \\quad W_{ij} = -\\beta_i \\frac{\\partial Q}{\\partial a_{ij}},

evaluated for all ``l`` at once as Laplacian quadratic forms,
``sum_ij W_ij (x_il - x_jl)^2 = 2 x_l^T (D - S) x_l`` with ``S`` the symmetric part of
``W``: one product ``W X`` per block of rows, never an ``N x N x n`` tensor. With
``widths="adaptive"`` the widths follow ``theta`` through the perplexity
constraint ``H_i(beta_i, theta) = log k``; the implicit-function theorem adds
``-(dQ/dbeta_i) / (dH_i/dbeta_i) * dH_i/da_ij`` to ``dQ/da_ij``
(:func:`~dimred.relevance.objective._width_term`), so the gradient is exact in both
modes: it ignores nothing but the perplexity tolerance
(:data:`~dimred.relevance.pairs.ENTROPY_TOL`) and, with candidate pairs, their selection
(piecewise constant in ``theta``).

The two choices the paper leaves open
-------------------------------------
``widths``: with ``"adaptive"`` widths (recomputed at every step so that the
effective number of neighbours stays ``k``), ``Q^NeRV(X_{c lambda}, Y) =
Q^NeRV(X_lambda, Y)`` for every ``c > 0``: the widths absorb any common scale. The
penalty then only shrinks that scale, the objective has no minimiser and all
relevances go to 0 together: on set1 (:func:`~dimred.datasets.synthetic.relevance_set1`,
``Y`` its true 2-D coordinates, ``delta = 1``) every ``lambda^2`` ends below 0.002
for ``k = 5 .. 40``, at Rprop's smallest step. With ``"fixed"`` widths (calibrated
once, for the initial metric ``lambda = 1``) the scale matters, the optimum is
finite, and the penalty removes what does not help: set1 gives ``lambda^2 =
(1.4, 1.4, 0.05)`` at ``k = 5``, ``(1.26, 1.26, 0.009)`` at ``k = 10`` and ``(1.0 +- 0.15,
1.0 +- 0.15, 0)`` for ``k = 15 .. 40``. ``"fixed"`` is the default: it reproduces the
paper's "the baseline for irrelevant dimensions for lambda_NeRV is zero" with the
relevant dimensions positive at ``delta = 1``. ``"adaptive"`` with ``delta = 0``
gives a scale-free profile (set1: ``(1.93, 1.93, 0)`` for every ``k``).

``cost``: the original NeRV code (dredviz) averages the divergences over the
``N`` points; ``"mean"`` does so, which multiplies the weight of ``delta`` by ``N``
(Rprop follows only gradient signs, so ``cost="mean"`` with ``delta`` is
``cost="sum"`` with ``N delta``). On set1 (``N = 60``, ``delta = 1``) it shrinks the
relevant dimensions to 0.5 (``k = 5``) down to 0.1 (``k = 30``) and to 0 at ``k = 40``;
``"sum"`` (default, the paper's formula as printed) keeps them near 1.
``tests/unit/test_relevance.py`` checks these statements.

How the objective is evaluated (every pair or candidate pairs, by blocks of rows, the
tie rule) is :mod:`dimred.relevance.objective`'s; the pairs and widths are
:mod:`dimred.relevance.pairs`', the optimiser :mod:`dimred.relevance.rprop`'s.
"""

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.graphs import check_n_neighbors
from ..utils.validation import check_spread
from .objective import NeRVObjective
from .rprop import _minimise

__all__ = ["NeRVRelevance"]

_WIDTHS = ("fixed", "adaptive")
_COSTS = ("sum", "mean")
_BANDWIDTHS = ("perplexity", "kth_neighbor")
#: ``neighbors="auto"`` uses ``M = AUTO_FACTOR * n_neighbors`` candidates per point.
AUTO_FACTOR = 5
#: Most distinct integer values of a one-column ``y`` that :class:`NeRVRelevance` reads as
#: class labels rather than as a map.
LABEL_LEVELS = 20


def _warn_if_labels(Y, name):
    """Warn in one line when the map ``Y`` is one column of a few integer levels."""
    levels = np.unique(Y)
    if Y.shape[1] == 1 and levels.size <= LABEL_LEVELS and np.all(levels == np.round(levels)):
        warnings.warn(
            f"{name}: y has one column of {levels.size} integer levels and looks like class "
            "labels; y must be the map (projection) of X, shape (n_samples, n_components).",
            UserWarning,
            stacklevel=3,
        )


class NeRVRelevance(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Relevances ``lambda_l^2`` of the features of ``X`` for a map ``y`` of it (NeRV).

    ``y`` is not a class label: it is the projection (map) of ``X``, shape
    ``(n_samples, n_components)``, whose neighbourhoods the relevances explain; a
    one-column ``y`` of a few integer levels gets a warning that it looks like labels.

    Minimises ``Q_k^NeRV(X_lambda, Y) + delta sum_l lambda_l^2`` (Schulz, Gisbrecht &
    Hammer, ESANN 2014, Sect. 3) over ``lambda_l^2 >= 0`` by Rprop, from
    ``lambda = 1``. See :mod:`dimred.relevance.nerv` for the formulas, the
    gradient and the choices the paper leaves open.

    Parameters
    ----------
    n_neighbors : int, default=10
        ``k``: the perplexity (effective number of neighbours) of ``p_{.|i}`` and
        ``q_{.|i}``. Clipped to ``n_samples - 1`` with a warning.
    gamma : float, default=0.5
        Weight of ``KL(p || q)`` against ``KL(q || p)``, in ``[0, 1]`` (the paper: 0.5).
    delta : float, default=1.0
        Weight of ``sum_l lambda_l^2``, ``>= 0`` (the paper: 1).
    widths : {"fixed", "adaptive"}, default="fixed"
        ``"fixed"``: ``sigma_i^x`` calibrated once, for ``lambda = 1``; ``"adaptive"``:
        recalibrated at every step so that the perplexity stays ``k`` (the
        objective is then invariant to the scale of ``lambda`` and the penalty
        shrinks every relevance towards 0; use it with ``delta=0``).
    cost : {"sum", "mean"}, default="sum"
        Divergences summed over the points (the paper's formula) or averaged (the
        original NeRV code; ``delta`` then weighs ``N`` times more).
    bandwidth : {"perplexity", "kth_neighbor"}, default="perplexity"
        How ``k`` sets the widths: the perplexity of ``p_{.|i}`` and ``q_{.|i}`` is
        ``k`` (the NeRV code), or ``sigma_i`` is the distance to the ``k``-th
        neighbour (a narrower reading of the paper's "the actual number of
        neighbors is k"; only with ``widths="fixed"``). See
        :mod:`dimred.relevance.nerv`.
    neighbors : {"auto", "all"} or int, default="auto"
        ``"all"``: every pair (exact). An int ``M >= n_neighbors``: each point's sums
        run over its ``M`` nearest neighbours in ``Y`` and in ``X_lambda`` and the
        points it gives a probability of at least ``MASS_TOL / N`` (approximate,
        faster; see the module docstring). ``"auto"``: ``M =`` :data:`AUTO_FACTOR`
        ``* n_neighbors``.
    max_iter : int, default=500
        Most evaluations of the objective.
    tol : float, default=1e-4
        Stop when no relevance moved by more than ``tol`` times the largest one in a
        step and the candidate pairs are stable.
    step_size : float, default=0.1
        Rprop's initial step (in units of ``lambda^2``).
    verbose : bool, default=False
        Show a tqdm progress bar of the Rprop steps.

    Attributes
    ----------
    relevances_ : ndarray of shape (n_features,)
        ``lambda_l^2`` (``lambda_NeRV^k(l)`` of the paper).
    quality_ : float
        ``Q_k^NeRV(X_lambda, Y)`` (summed or averaged, as ``cost``) at ``relevances_``,
        over the candidate pairs unless ``neighbors="all"``.
    objective_ : ndarray of shape (n_iter_,)
        The penalised objective at every evaluation.
    n_iter_ : int
    n_neighbors_ : int
        ``k`` used.
    n_candidates_ : int
        ``M`` used (``n_samples - 1`` for ``neighbors="all"``).
    n_pairs_ : int
        Ordered pairs ``(i, j)`` the final objective sums over (``N (N - 1)`` for
        ``neighbors="all"``).
    sigma_x_, sigma_y_ : ndarray of shape (n_samples,)
        Final widths ``sigma_i^x``, ``sigma_i^y`` of the training points.
    unreached_ : dict
        For ``"X"`` and ``"Y"``, the number of points whose width ``k`` cannot set
        (more than ``k`` duplicates; a warning says so). In ``Y`` their ``q`` sits on
        the duplicates at the edge of the searched widths, ``KL(p || q)`` is then
        of order ``1 / sigma^2`` and outweighs the penalty: the relevances are those
        of the limit of vanishing widths.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The fit is deterministic: it starts from ``lambda = 1`` and every discrete
    choice (the candidate pairs) breaks ties by index, so repeated fits are
    bitwise equal. Another BLAS kernel rounds the Gram blocks differently, which
    moves the relevances by rounding-level amounts only (tie decisions are made on
    a grid coarser than that rounding).

    Examples
    --------
    >>> from dimred.datasets.synthetic import relevance_set1
    >>> from dimred.relevance import NeRVRelevance
    >>> X, _ = relevance_set1(random_state=0)
    >>> model = NeRVRelevance(n_neighbors=25).fit(X, X[:, :2])
    >>> model.relevances_.round(1)
    array([1., 1., 0.])
    """

    _parameter_constraints: dict = {
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0, 1, closed="both")],
        "delta": [Interval(numbers.Real, 0, None, closed="left")],
        "widths": [StrOptions(set(_WIDTHS))],
        "cost": [StrOptions(set(_COSTS))],
        "bandwidth": [StrOptions(set(_BANDWIDTHS))],
        "neighbors": [
            StrOptions({"auto", "all"}),
            Interval(numbers.Integral, 1, None, closed="left"),
        ],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "step_size": [Interval(numbers.Real, 0, None, closed="neither")],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        n_neighbors=10,
        gamma=0.5,
        delta=1.0,
        widths="fixed",
        cost="sum",
        bandwidth="perplexity",
        neighbors="auto",
        max_iter=500,
        tol=1e-4,
        step_size=0.1,
        verbose=False,
    ):
        self.n_neighbors = n_neighbors
        self.gamma = gamma
        self.delta = delta
        self.widths = widths
        self.cost = cost
        self.bandwidth = bandwidth
        self.neighbors = neighbors
        self.max_iter = max_iter
        self.tol = tol
        self.step_size = step_size
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = True  # Y: the projection, one column per dimension
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the relevances for the projection ``y`` of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples, n_components) or (n_samples,)
            The projection ``Y`` (a 1-D array is a one-dimensional projection), not
            class labels.

        Returns
        -------
        self : NeRVRelevance
        """
        X, Y = validate_data(self, X, y, multi_output=True, y_numeric=True, dtype=np.float64)
        Y = np.asarray(Y, dtype=np.float64).reshape(X.shape[0], -1)
        name = type(self).__name__
        _warn_if_labels(Y, name)
        self._check_params()
        check_spread(X, name)
        self.n_neighbors_ = check_n_neighbors(self.n_neighbors, X.shape[0], name)
        self.n_candidates_ = self._n_candidates(X.shape[0])
        objective = NeRVObjective(
            X, Y, self.n_neighbors_, self.gamma, self.delta, self.widths, self.cost,
            self.n_candidates_, self.bandwidth,
        )  # fmt: skip
        for space, count in objective.unreached.items():
            if count:
                warnings.warn(
                    f"{name}: for {count} points of {space} the width cannot be set by "
                    f"n_neighbors_ = {self.n_neighbors_}: more than that many samples share "
                    "their position; their neighbourhoods are the duplicates.",
                    UserWarning,
                    stacklevel=2,
                )
        theta, values, converged = _minimise(
            objective, np.ones(X.shape[1]), self.max_iter, self.tol, self.step_size, self.verbose
        )
        if not converged:
            warnings.warn(
                f"{name} stopped after max_iter={self.max_iter} evaluations before converging.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.relevances_ = theta
        self.quality_ = objective.quality
        self.objective_ = values
        self.n_iter_ = values.size
        self.unreached_ = dict(objective.unreached)
        self.sigma_x_ = 1 / np.sqrt(objective.precision_x)
        self.sigma_y_ = 1 / np.sqrt(objective.precision_y)
        n = X.shape[0]
        self.n_pairs_ = n * (n - 1) if objective.pairs is None else objective.pairs.size
        return self

    def transform(self, X):
        """``X_lambda``: every feature multiplied by its ``lambda_l``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X * np.sqrt(self.relevances_)

    def _check_params(self):
        """Refuse a combination of parameters the method does not define (the types and
        ranges of each are :attr:`_parameter_constraints`')."""
        name = type(self).__name__
        if self.bandwidth == "kth_neighbor" and self.widths != "fixed":
            raise ValueError(f"{name}: bandwidth='kth_neighbor' needs widths='fixed'.")

    def _n_candidates(self, n_samples):
        """``M`` for ``neighbors``, at most ``n_samples - 1``."""
        k = self.n_neighbors_
        if isinstance(self.neighbors, str):
            M = AUTO_FACTOR * k if self.neighbors == "auto" else n_samples - 1
        elif self.neighbors >= k:
            M = self.neighbors
        else:
            raise ValueError(
                f"{type(self).__name__}: neighbors={self.neighbors!r} must be 'auto', 'all' or "
                f"an integer >= n_neighbors_ = {k}."
            )
        return int(min(M, n_samples - 1))
