"""Base classes shared by the supervised projections (BVP, LSDA, KDA)."""

import numbers
import warnings

from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data


class SupervisedProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """A transformer fitted on ``(X, y)`` to ``n_components_`` output features."""

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _set_n_components(self, upper, what):
        """Validate ``n_components`` and set ``n_components_ = min(n_components, upper)``.

        ``upper`` is the most components the fitted data define (``what`` says
        why); asking for more gives ``upper``, with a warning, rather than
        directions of an arbitrary null space.
        """
        name = type(self).__name__
        if not isinstance(self.n_components, numbers.Integral) or self.n_components < 1:
            raise ValueError(
                f"{name}: n_components={self.n_components!r} must be a positive integer."
            )
        if self.n_components > upper:
            warnings.warn(
                f"{name}: n_components={self.n_components} exceeds {upper} ({what}); "
                f"using n_components_ = {upper}.",
                UserWarning,
                stacklevel=3,
            )
        self.n_components_ = int(min(self.n_components, upper))


class LinearProjection(SupervisedProjection):
    """A supervised projection ``(X - mean_) @ components_.T``."""

    def transform(self, X):
        """Project ``X`` onto the fitted components.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return (X - self.mean_) @ self.components_.T
