"""Ordinal regression via manifold learning (ORML, ORML/M) and the 1-D baselines.

Liu, Liu & Chan, "Ordinal Regression via Manifold Learning", AAAI 2011. Every
estimator here learns one direction, projects on it and turns the projection
into ranks by the threshold rule of Eqs. (8)-(9): ORML and ORML/M by their
paper, LDA, LPP, NPE, IsoProjection and their tensor versions (MLDA, TLPP,
TNPE, MIE) by the same rule, as the comparison in the paper requires
(a projection method yields no ranks on its own).
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..projection._base import LinearProjection
from ..utils.graphs import check_n_neighbors
from ..utils.labels import check_ranks
from ..utils.validation import check_spread
from .criteria import (
    IsoProjectionCriterion,
    LDACriterion,
    LPPCriterion,
    NPECriterion,
    ORMLCriterion,
)
from .scoring import RankClassifierMixin
from .thresholds import rank_sign, rank_thresholds, threshold_predict

__all__ = ["ORML", "MultilinearORML", "MultilinearRankProjection", "RankProjection"]

#: Baseline criteria by name: factory(X, codes, n_neighbors, ridge).
BASELINES = {
    "lda": lambda X, codes, k, ridge: LDACriterion(codes, ridge),
    "lpp": lambda X, codes, k, ridge: LPPCriterion(X, k, ridge),
    "npe": lambda X, codes, k, ridge: NPECriterion(X, k, ridge),
    "isoprojection": lambda X, codes, k, ridge: IsoProjectionCriterion(X, k, ridge),
}
#: The parameters of the tensor versions beyond their vector version's.
_TENSOR_CONSTRAINTS = {
    "image_shape": ["array-like", None],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left")],
    "random_state": ["random_state"],
}


class _ThresholdRanker(RankClassifierMixin, LinearProjection):
    """A direction on centred data plus the thresholds of Eq. (9).

    The direction is ``components_[0]`` (``coef_``), so ``transform`` is the
    1-D projection ``w^T (x - mean_)`` of :class:`LinearProjection`.
    Subclasses define ``_criterion(X, codes)`` and ``_direction(X, criterion)``.
    """

    #: Flip the direction so the projection increases with the rank.
    _orient = True
    #: One output feature, the projection (``get_feature_names_out``).
    _n_features_out = 1

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the direction and the rank thresholds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant; see :func:`~dimred.utils.validation.check_spread`.
        y : array-like of shape (n_samples,)
            Ordinal labels: numbers (ranked by value) or an ordered
            ``pandas.Categorical`` (ranked by its categories' order); see
            :func:`~dimred.utils.labels.check_ranks`.

        Returns
        -------
        self
        """
        X, _ = validate_data(self, X, y, dtype=np.float64)
        name = type(self).__name__
        self.classes_, codes = check_ranks(y, name)
        check_spread(X, name)
        self.n_neighbors_ = check_n_neighbors(self.n_neighbors, X.shape[0], name)
        self.mean_ = X.mean(axis=0)
        X = X - self.mean_
        w = self._direction(X, self._criterion(X, codes))
        z = X @ w
        if self._orient and rank_sign(z, codes) < 0:
            w, z = -w, -z
        self.components_ = w[None, :]
        self.thresholds_ = rank_thresholds(z, codes)
        return self

    @property
    def coef_(self):
        """The direction ``w``, shape ``(n_features,)``."""
        check_is_fitted(self)
        return self.components_[0]

    def predict(self, X):
        """Ranks by Eq. (8).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[threshold_predict(self.transform(X)[:, 0], self.thresholds_)]


class _VectorRanker(_ThresholdRanker):
    def _direction(self, X, criterion):
        w, self.fit_info_ = criterion.direction(X)
        return w


class _TensorRanker(_ThresholdRanker):
    """Alternating optimisation over the two modes of ``d1 x d2`` tensors.

    Rows of ``X`` are images flattened row-major. Each sweep solves the
    criterion for ``w1`` on ``X_i w2`` and then for ``w2`` on ``X_i^T w1``
    with the graph fixed (Eq. 11); the objective after every sweep is kept in
    ``objective_``. ``coef_ = vec(w1 w2^T)``, so ``w1^T X_i w2 = coef_ . x_i``;
    ``(w1, w2)`` is kept in ``mode_vectors_``.
    """

    def _shape(self, n_features):
        shape = (n_features, 1) if self.image_shape is None else tuple(self.image_shape)
        if len(shape) != 2 or int(np.prod(shape)) != n_features or min(shape) < 1:
            raise ValueError(
                f"image_shape={self.image_shape!r} does not describe second-order tensors "
                f"with {n_features} entries (rows of X are images flattened row-major)."
            )
        return shape

    def _direction(self, X, criterion):
        shape = self._shape(X.shape[1])
        tensors = X.reshape((-1,) + shape)
        rng = check_random_state(self.random_state)
        w2 = rng.standard_normal(shape[1])
        history = []
        for _ in range(self.max_iter):
            w1, _ = criterion.direction(tensors @ (w2 / np.linalg.norm(w2)))
            w1 /= np.linalg.norm(w1)
            Z2 = np.einsum("nij,i->nj", tensors, w1)
            w2, self.fit_info_ = criterion.direction(Z2)
            history.append(criterion.objective(Z2, w2))
            if len(history) > 1 and abs(history[-2] - history[-1]) <= self.tol * abs(history[-1]):
                break
        self.objective_ = np.asarray(history)
        self.n_iter_ = len(history)
        self.mode_vectors_ = (w1, w2)
        return np.outer(w1, w2).ravel()


class ORML(_VectorRanker):
    """Ordinal regression via manifold learning (Liu, Liu & Chan, AAAI 2011).

    Finds ``w`` minimising ``sum_ij (w^T x_i - w^T x_j)^2 A_ij - C gamma``
    subject to ``w^T (m_{r+1} - m_r) >= gamma`` (Eq. 1): the projection keeps
    the neighbourhood graph ``A`` together and pushes consecutive rank means
    apart by a margin. ``A`` is the heat kernel (Eq. 2) on the two-way k-NN
    graph of the rank-enlarged distance (Eq. 3), built sparse in O(n k)
    memory; ``S = X L X^T`` is formed from the sparse Laplacian. The dual
    (Eq. 7) is solved exactly, ``w`` follows from Eq. (6), thresholds from
    Eq. (9) and ranks from Eq. (8).

    Parameters
    ----------
    n_neighbors : int, default=10
        ``K`` (fixed at 10 in the paper's experiments). With fewer than
        ``K + 1`` training samples ``n_samples - 1`` is used, with a warning
        (``n_neighbors_``). Ties in the distances go to the lowest sample
        index (see :mod:`dimred.utils.graphs`).
    C : float, default=1.0
        Margin weight. Because the dual is homogeneous, ``alpha``, ``w`` and the
        thresholds all scale linearly with ``C`` and the predicted ranks do not
        depend on it at all (the paper's cross-validation of ``C`` is
        therefore void; tested in ``tests/unit/test_orml.py``).
    ridge : float, default=0.0
        0 is the paper's Moore-Penrose pseudo-inverse of ``S``. ``S`` is
        singular whenever ``n_features >= n_samples - n_components(graph)``;
        the pseudo-inverse then confines ``w`` to the range of ``S`` although
        the null space of ``S`` holds directions of zero manifold cost (see the
        notebook). ``ridge > 0`` inverts ``S + ridge * trace(S) / d * I``
        instead; as ``ridge -> 0`` its direction tends to the largest-margin
        direction inside the null space, the limit of the primal problem. Where
        ``S`` vanishes (every edge of the graph joins equal rows, e.g. duplicated
        samples: ``trace(S)`` is rounding noise), the ridge is relative to ``S``'s
        bound ``2 trace(X^T D X)`` instead (``D`` the degrees), and the direction
        is that largest-margin one, for every ``ridge > 0``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        ``w`` (Eq. 6), i.e. ``components_[0]``.
    components_ : ndarray of shape (1, n_features)
    thresholds_ : ndarray of shape (n_classes,)
        ``b_1 .. b_k`` (Eq. 9), for the centred data.
    mean_ : ndarray of shape (n_features,)
        Training mean (the projection is ``w^T (x - mean_)``; Eqs. 8-9 are
        invariant to this shift).
    fit_info_ : dict
        ``alpha`` (dual solution), ``margin`` (``gamma``) and
        ``scatter_rank`` (rank of ``S``).
    graph_ : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        ``A`` of Eq. (2).
    sigma_ : float
        Heat-kernel width.
    n_neighbors_ : int
        ``K`` used: ``min(n_neighbors, n_samples - 1)``.
    classes_ : ndarray of shape (n_classes,)
        The ranks in order (the categories of an ordered ``pandas.Categorical``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    Four ranks, one informative feature and two of noise; the features are
    standardised first, in a pipeline, and the test ranks are predicted with a mean
    absolute error well below that of the median rank (:class:`~dimred.ordinal.ConstantRank`).

    >>> import numpy as np
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from dimred import ORML, ConstantRank
    >>> from dimred.metrics import ordinal_scores
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3, 4], 15)
    >>> X = np.column_stack([y + 0.5 * rng.normal(size=60), rng.normal(size=(60, 2)) * [10, 1]])
    >>> X_train, X_test, y_train, y_test = train_test_split(
    ...     X, y, test_size=0.5, stratify=y, random_state=0
    ... )
    >>> model = make_pipeline(StandardScaler(), ORML(n_neighbors=5)).fit(X_train, y_train)
    >>> model.predict(X_test[:6])
    array([2, 1, 4, 2, 1, 3])
    >>> y_test[:6]
    array([2, 1, 4, 2, 1, 3])
    >>> round(ordinal_scores(y_test, model.predict(X_test))["mae"], 2)
    0.17
    >>> baseline = ConstantRank().fit(X_train, y_train).predict(X_test)
    >>> round(ordinal_scores(y_test, baseline)["mae"], 2)
    1.03
    """

    _orient = False
    _parameter_constraints: dict = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "ridge": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_neighbors=10, C=1.0, ridge=0.0):
        self.n_neighbors = n_neighbors
        self.C = C
        self.ridge = ridge

    def _criterion(self, X, codes):
        criterion = ORMLCriterion(X, codes, self.n_neighbors_, self.C, self.ridge)
        self.graph_, self.sigma_ = criterion.graph, criterion.sigma
        return criterion


class MultilinearORML(_TensorRanker, ORML):
    """ORML/M: ORML for second-order tensors (images), Eqs. (10)-(13).

    The projection is ``w1^T X w2``. Starting from a random unit ``w2`` (drawn
    from ``random_state``; the paper does not say how it starts), each sweep
    solves problem (11) exactly for ``w1`` and then for ``w2``; the graph is
    built once on the vectorised tensors (their Frobenius distances). The
    objective ``J`` of Eq. (10) is non-increasing over sweeps and recorded.

    Parameters
    ----------
    image_shape : tuple of (int, int) or None, default=None
        ``(d1, d2)``; rows of ``X`` are row-major flattened ``d1 x d2`` images.
        ``None`` treats each row as a ``n_features x 1`` tensor, which is ORML.
    n_neighbors, C, ridge :
        As in :class:`ORML`.
    max_iter : int, default=20
        Most sweeps, at least 1.
    tol : float, default=1e-6
        Stop when the objective changes by less than ``tol * |J|`` over a sweep.
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    mode_vectors_ : tuple of ndarray
        ``(w1, w2)``; ``w1`` has unit norm.
    objective_ : ndarray of shape (n_iter_,)
        ``J`` after each sweep.
    n_iter_ : int
    coef_, thresholds_, mean_, fit_info_, graph_, sigma_, n_neighbors_, classes_ :
        As in :class:`ORML` (``coef_ = vec(w1 w2^T)``).

    Notes
    -----
    The start ``w2`` is the only random element: for a given ``random_state``
    the fit is deterministic (graph ties joined, signs fixed), and
    different starts may reach different local optima of the alternation.

    Examples
    --------
    Rows are ``4 x 3`` images flattened row-major, brighter in one pattern as the
    rank grows; the projection is ``w1^T X w2``.

    >>> import numpy as np
    >>> from dimred import MultilinearORML
    >>> from dimred.metrics import ordinal_scores
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 12)
    >>> pattern = np.outer([1.0, 2.0, 1.0, 0.0], [0.0, 1.0, 1.0])
    >>> X = (y[:, None, None] * pattern + rng.normal(size=(36, 4, 3))).reshape(36, 12)
    >>> model = MultilinearORML(image_shape=(4, 3), n_neighbors=5, random_state=0).fit(X, y)
    >>> w1, w2 = model.mode_vectors_
    >>> w1.shape, w2.shape
    ((4,), (3,))
    >>> bool(np.allclose(model.coef_, np.outer(w1, w2).ravel()))
    True
    >>> round(ordinal_scores(y, model.predict(X))["mae"], 2)
    0.06
    """

    _parameter_constraints: dict = {**ORML._parameter_constraints, **_TENSOR_CONSTRAINTS}

    def __init__(
        self,
        image_shape=None,
        n_neighbors=10,
        C=1.0,
        ridge=0.0,
        max_iter=20,
        tol=1e-6,
        random_state=None,
    ):
        super().__init__(n_neighbors=n_neighbors, C=C, ridge=ridge)
        self.image_shape = image_shape
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state


class RankProjection(_VectorRanker):
    """A baseline 1-D projection (LDA, LPP, NPE or IsoProjection) ranked by Eqs. (8)-(9).

    The ORML paper compares with these methods without saying how their
    projections become ranks; we apply ORML's own threshold rule to the
    leading direction, oriented so that the projection correlates positively
    with the rank. The graph methods are unsupervised, as published, with
    ``K = n_neighbors`` (the paper's only stated setting): LPP's heat kernel
    uses ORML's width rule on Euclidean distances, NPE the LLE weights with
    regularisation 1e-3, IsoProjection the k-NN geodesics.

    As in Cai's reference code of LPP, NPE and IsoProjection, every method
    maximises its Rayleigh quotient inside the row space of the centred
    training data (their principal subspace, numerical rank kept), LPP and NPE
    in their complementary form (``Z^T W Z / Z^T D Z`` and
    ``Z^T (W + W^T - W^T W) Z / Z^T Z``, one minus the published quotients,
    same direction when ``ridge = 0``). Minimising the published quotients
    over all directions instead, whenever ``n_samples <= n_features`` or a
    feature is constant (a MovieLens user's all-zero genre columns), any
    direction orthogonal to the data scores ``0 / ridge``, the minimum: every
    training point would project to rounding noise. See
    :mod:`dimred.ordinal.criteria`.

    Parameters
    ----------
    method : {"lda", "lpp", "npe", "isoprojection"}, default="lda"
    n_neighbors : int, default=10
        ``K`` of the graph methods (unused by LDA); clipped to
        ``n_samples - 1`` with a warning, as in :class:`ORML`.
    ridge : float, default=1e-3
        ``ridge * trace(B) / r`` is added to the denominator matrix ``B`` of the
        quotient in the ``r``-dimensional row space of the data (``B`` is
        singular there when, e.g., LDA's within-rank scatter has rank below
        ``r``); the paper does not say how the baselines were regularised.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The direction, ``components_[0]``.
    components_ : ndarray of shape (1, n_features)
    thresholds_ : ndarray of shape (n_classes,)
    mean_ : ndarray of shape (n_features,)
    fit_info_ : dict
        ``eigenvalue``: the (complementary, regularised) quotient at the direction.
    n_neighbors_ : int
        ``K`` used: ``min(n_neighbors, n_samples - 1)``.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    The data of the example of :class:`ORML`: supervised LDA ranks the test set
    better than unsupervised LPP, whose graph does not know the ranks.

    >>> import numpy as np
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from dimred import RankProjection
    >>> from dimred.metrics import ordinal_scores
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3, 4], 15)
    >>> X = np.column_stack([y + 0.5 * rng.normal(size=60), rng.normal(size=(60, 2)) * [10, 1]])
    >>> X_train, X_test, y_train, y_test = train_test_split(
    ...     X, y, test_size=0.5, stratify=y, random_state=0
    ... )
    >>> for method in ("lda", "lpp"):
    ...     ranker = RankProjection(method=method, n_neighbors=5)
    ...     model = make_pipeline(StandardScaler(), ranker).fit(X_train, y_train)
    ...     print(method, round(ordinal_scores(y_test, model.predict(X_test))["mae"], 2))
    lda 0.17
    lpp 0.43
    """

    _parameter_constraints: dict = {
        "method": [StrOptions(set(BASELINES))],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "ridge": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, method="lda", n_neighbors=10, ridge=1e-3):
        self.method = method
        self.n_neighbors = n_neighbors
        self.ridge = ridge

    def _criterion(self, X, codes):
        return BASELINES[self.method](X, codes, self.n_neighbors_, self.ridge)


class MultilinearRankProjection(_TensorRanker, RankProjection):
    """Tensor baselines MLDA, TLPP, TNPE, MIE: alternating 1-D projections of images.

    MLDA (Yan et al. 2005), TLPP (He, Cai & Niyogi 2006), TNPE (Dai & Yeung
    2006) and MIE (Liu, Liu & Chan 2009) optimise their vector criterion
    over ``w1^T X w2`` by alternating between the two modes with the graph
    built once on the vectorised images; ranks follow Eqs. (12)-(13).

    Parameters
    ----------
    image_shape, max_iter, tol, random_state :
        As in :class:`MultilinearORML`.
    method, n_neighbors, ridge :
        As in :class:`RankProjection`.

    Attributes
    ----------
    mode_vectors_, objective_, n_iter_ :
        As in :class:`MultilinearORML` (``objective_`` is the regularised
        quotient of each mode's row space, see :mod:`dimred.ordinal.criteria`).
    coef_, thresholds_, mean_, fit_info_, n_neighbors_, classes_ :
        As in :class:`RankProjection`.

    Notes
    -----
    As for :class:`MultilinearORML`, the random start ``w2`` is the only
    source of run-to-run variation.

    Examples
    --------
    MLDA on the images of the example of :class:`MultilinearORML`:

    >>> import numpy as np
    >>> from dimred import MultilinearRankProjection
    >>> from dimred.metrics import ordinal_scores
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 12)
    >>> pattern = np.outer([1.0, 2.0, 1.0, 0.0], [0.0, 1.0, 1.0])
    >>> X = (y[:, None, None] * pattern + rng.normal(size=(36, 4, 3))).reshape(36, 12)
    >>> model = MultilinearRankProjection(
    ...     method="lda", image_shape=(4, 3), n_neighbors=5, random_state=0
    ... ).fit(X, y)
    >>> model.coef_.shape
    (12,)
    >>> round(ordinal_scores(y, model.predict(X))["mae"], 2)
    0.06
    """

    _parameter_constraints: dict = {**RankProjection._parameter_constraints, **_TENSOR_CONSTRAINTS}

    def __init__(
        self,
        method="lda",
        image_shape=None,
        n_neighbors=10,
        ridge=1e-3,
        max_iter=20,
        tol=1e-6,
        random_state=None,
    ):
        super().__init__(method=method, n_neighbors=n_neighbors, ridge=ridge)
        self.image_shape = image_shape
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
