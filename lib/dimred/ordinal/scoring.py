"""What ``score`` of the ordinal estimators measures, and the scorer of the papers' MAE."""

from sklearn.base import ClassifierMixin

__all__ = ["RankClassifierMixin"]


class RankClassifierMixin(ClassifierMixin):
    """``score`` of a ranker: the accuracy, as for every scikit-learn classifier."""

    def score(self, X, y, sample_weight=None):
        """Accuracy of ``predict(X)``: the share of exactly predicted ranks (``1 - MZE``).

        This is scikit-learn's classifier contract, so ``GridSearchCV`` and
        ``cross_val_score`` without ``scoring=`` select by accuracy. The ordinal papers
        report the mean absolute error of the ranks (MAE); to select by it, pass
        ``scoring=`` :func:`~dimred.metrics.neg_rank_mae`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True ranks.
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        float

        Examples
        --------
        >>> import numpy as np
        >>> from dimred import ORML
        >>> X = np.array([[0.0, 1], [1, 0], [2, 1], [3, 0], [4, 1], [5, 0]])
        >>> y = np.array([1, 1, 2, 2, 3, 3])
        >>> float(ORML(n_neighbors=2).fit(X, y).score(X, y))
        1.0
        """
        return super().score(X, y, sample_weight=sample_weight)
