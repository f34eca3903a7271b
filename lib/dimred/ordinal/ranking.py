"""Ranks from any projection: a fitted transformer followed by one stated rank rule.

The ordinal methods of the compendium project the data (BVP, LDA, KDA, LSDA, LPP, NPE,
IsoProjection); to compare them as ordinal classifiers on common ground, each projection
is followed by the same rule (:class:`ProjectionRanker`):

``"threshold"``
    the rule of ORML (Liu, Liu & Chan 2011, Eqs. 8-9): the first component, oriented so
    that it increases with the rank, is cut at ``b_r``, the mean projection of the
    training samples of ranks ``r`` and ``r + 1``
    (:func:`~dimred.ordinal.thresholds.rank_thresholds`);
``"nearest"``
    the rank of the nearest training sample in the projected space (all components),
    points tied for the nearest distance all voting and a tied vote going to the lowest
    rank (:func:`~dimred.metrics.embedding.knn_vote`), so that the prediction does not
    depend on the order of the rows.
"""

import numpy as np
import pandas as pd
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    TransformerMixin,
    _fit_context,
    clone,
)
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..metrics.embedding import knn_vote
from ..utils.labels import check_ranks
from ..utils.validation import check_variance
from .scoring import RankClassifierMixin
from .thresholds import rank_sign, rank_thresholds, threshold_predict

__all__ = ["ProjectionRanker"]


class ProjectionRanker(MetaEstimatorMixin, RankClassifierMixin, TransformerMixin, BaseEstimator):
    """Ordinal classifier: a projection, then the threshold or the 1-NN rank rule.

    Parameters
    ----------
    projection : estimator
        A transformer with ``fit(X, y)`` and ``transform``; cloned and fitted on the
        training data with their ranks (unsupervised ones ignore them).
    rule : {"threshold", "nearest"}, default="threshold"
        The rank rule (module docstring).

    Attributes
    ----------
    projection_ : estimator
        The fitted clone of ``projection``.
    classes_ : ndarray of shape (n_classes,)
        The ranks, in their order (:func:`~dimred.utils.labels.check_ranks`).
    sign_ : float
        ``+1`` or ``-1``: the orientation of the first component that makes it grow
        with the rank (``"threshold"``).
    thresholds_ : ndarray of shape (n_classes,)
        ``b_1 .. b_k`` of Eq. (9) on the oriented first component (``"threshold"``).
    embedding_ : ndarray of shape (n_samples, n_components)
        The projected training data (``"nearest"``).
    codes_ : ndarray of shape (n_samples,)
        Rank indices of the training data (``"nearest"``).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from dimred.ordinal import ProjectionRanker
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 20)
    >>> X = np.column_stack([y + 0.3 * rng.normal(size=60), rng.normal(size=60)])
    >>> model = ProjectionRanker(LinearDiscriminantAnalysis(n_components=1)).fit(X, y)
    >>> float(np.mean(model.predict(X) == y))
    1.0
    """

    _parameter_constraints: dict = {
        "projection": [HasMethods(["fit", "transform"])],
        "rule": [StrOptions({"threshold", "nearest"})],
    }

    def __init__(self, projection, rule="threshold"):
        self.projection = projection
        self.rule = rule

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the projection and the rank rule.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Not constant (:func:`~dimred.utils.validation.check_variance`): every
            projection of constant data is 0 or rounding noise, and so would the ranks be.
        y : array-like of shape (n_samples,)
            Ordinal labels: numbers (ranked by value) or an ordered ``pandas.Categorical``.

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If ``X`` is constant or the fitted projection returns no component.
        """
        X, _ = validate_data(self, X, y, dtype=np.float64)
        name = type(self).__name__
        self.classes_, codes = check_ranks(y, name)
        check_variance(X, name)
        self.projection_ = clone(self.projection).fit(X, _ranked_labels(y, self.classes_, codes))
        Z = self._project(X)
        if Z.shape[1] == 0:
            raise ValueError(
                f"{name}: the projection {self.projection_!r} returned no component "
                f"(shape {Z.shape}); the rank rule needs at least one."
            )
        if self.rule == "threshold":
            z = Z[:, 0]
            self.sign_ = rank_sign(z, codes)
            self.thresholds_ = rank_thresholds(self.sign_ * z, codes)
        else:
            self.embedding_, self.codes_ = Z, codes
        return self

    def predict(self, X):
        """Ranks of ``X`` by the rule.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        Z = self.transform(X)
        if self.rule == "threshold":
            return self.classes_[threshold_predict(self.sign_ * Z[:, 0], self.thresholds_)]
        return self.classes_[knn_vote(self.embedding_, self.codes_, Z)]

    def transform(self, X):
        """The projection of ``X`` by the fitted ``projection_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._project(X)

    def _project(self, X):
        Z = np.asarray(self.projection_.transform(X), dtype=np.float64)
        return Z.reshape(len(X), -1)


def _ranked_labels(y, classes, codes):
    """The labels the projection is fitted on: ``y``'s own values, as an ordered
    Categorical of the ranks present when ``y`` declares its order by one (an array of its
    categories would have lost the order)."""
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        return pd.Categorical.from_codes(codes, classes, ordered=True)
    return classes[codes]
