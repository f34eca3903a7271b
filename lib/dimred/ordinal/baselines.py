"""Trivial rankers: the floor every ordinal regression method must beat.

A method whose mean absolute error (MAE) is not below that of a constant
prediction has learned nothing about the order. :class:`ConstantRank` predicts
the training median rank (the constant that minimises the training MAE) or a
rank drawn uniformly at random (chance).
"""

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.labels import check_ranks
from .scoring import RankClassifierMixin

__all__ = ["ConstantRank"]

_STRATEGIES = ("median", "uniform")


class ConstantRank(RankClassifierMixin, BaseEstimator):
    """Predict a rank without looking at the features.

    Parameters
    ----------
    strategy : {"median", "uniform"}, default="median"
        ``"median"``: always the lower median of the training ranks, the
        constant minimising the training MAE (with an even count the lower of
        the two middle ranks; any rank between them minimises it equally).
        ``"uniform"``: a rank drawn uniformly from the training ranks for each
        sample (chance level).
    random_state : int, RandomState or None, default=None
        Seeds the ``"uniform"`` draws.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The ranks in increasing order.
    constant_ : object
        The predicted rank (``"median"`` only).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from dimred import ConstantRank
    >>> X = np.zeros((6, 1))
    >>> y = np.array([1, 1, 2, 3, 3, 3])
    >>> ConstantRank().fit(X, y).predict(X[:3])
    array([2, 2, 2])
    >>> ConstantRank(strategy="uniform", random_state=0).fit(X, y).predict(X).shape
    (6,)
    """

    _parameter_constraints: dict = {
        "strategy": [StrOptions(set(_STRATEGIES))],
        "random_state": ["random_state"],
    }

    def __init__(self, strategy="median", random_state=None):
        self.strategy = strategy
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Store the ranks (and the median rank) of ``y``; ``X`` is only validated.

        ``y`` holds numeric ranks or an ordered ``pandas.Categorical``
        (:func:`~dimred.utils.labels.check_ranks`).

        Returns
        -------
        self
        """
        validate_data(self, X, y)
        self.classes_, codes = check_ranks(y, type(self).__name__)
        self.constant_ = self.classes_[int(np.quantile(codes, 0.5, method="lower"))]
        return self

    def predict(self, X):
        """The constant rank, or uniform random ranks.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        if self.strategy == "median":
            return np.full(X.shape[0], self.constant_)
        rng = check_random_state(self.random_state)
        return self.classes_[rng.randint(self.classes_.size, size=X.shape[0])]
