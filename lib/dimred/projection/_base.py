"""Base classes shared by the supervised projections (BVP, LSDA, KDA)."""

from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data


class SupervisedProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """A transformer fitted on ``(X, y)`` to ``n_components`` output features."""

    @property
    def _n_features_out(self):
        return self.n_components

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class LinearProjection(SupervisedProjection):
    """A supervised projection ``(X - mean_) @ components_.T``."""

    def transform(self, X):
        """Project ``X`` onto the fitted components.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return (X - self.mean_) @ self.components_.T
