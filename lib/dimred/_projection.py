"""Base classes shared by the supervised projections (BVP, LSDA, KDA)."""

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data


def class_centres(X, y):
    """Sorted class labels and the mean of ``X`` over each class.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    centres : ndarray of shape (n_classes, n_features)
    """
    classes, codes = np.unique(y, return_inverse=True)
    centres = np.zeros((classes.size, X.shape[1]))
    np.add.at(centres, codes, X)
    return classes, centres / np.bincount(codes)[:, None]


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
