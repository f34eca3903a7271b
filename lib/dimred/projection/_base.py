"""Base classes shared by the supervised projections (BVP, LSDA, KDA)."""

import warnings

from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data


class SupervisedProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """A transformer fitted on ``(X, y)`` to ``n_components_`` output features.

    The base of the supervised projections: it names the output features after the
    class (``get_feature_names_out``) and tells scikit-learn that ``fit`` needs ``y``.

    Examples
    --------
    >>> import numpy as np
    >>> from dimred.projection import KernelDiscriminantAnalysis, SupervisedProjection
    >>> issubclass(KernelDiscriminantAnalysis, SupervisedProjection)
    True
    >>> X = np.array([[0.0, 0.0], [0.1, 1.0], [2.0, 0.0], [2.1, 1.0]])
    >>> kda = KernelDiscriminantAnalysis(n_components=1).fit(X, [0, 0, 1, 1])
    >>> kda.get_feature_names_out()
    array(['kerneldiscriminantanalysis0'], dtype=object)
    """

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _set_n_components(self, upper, what):
        """Set ``n_components_ = min(n_components, upper)``.

        ``upper`` is the most components the fitted data define (``what`` says
        why); asking for more gives ``upper``, with a warning, rather than
        directions of an arbitrary null space. ``n_components`` itself is checked by the
        estimator's ``_parameter_constraints``.
        """
        name = type(self).__name__
        if self.n_components > upper:
            warnings.warn(
                f"{name}: n_components={self.n_components} exceeds {upper} ({what}); "
                f"using n_components_ = {upper}.",
                UserWarning,
                stacklevel=3,
            )
        self.n_components_ = int(min(self.n_components, upper))


class LinearProjection(SupervisedProjection):
    """A supervised projection ``(X - mean_) @ components_.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from dimred import BestViewProjection
    >>> from dimred.projection import LinearProjection
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 2, 3], 10)
    >>> X = rng.normal(size=(30, 3)) + y[:, None] * [1.0, 0.0, 0.0]
    >>> bvp = BestViewProjection(n_components=2).fit(X, y)
    >>> isinstance(bvp, LinearProjection)
    True
    >>> bool(np.allclose(bvp.transform(X), (X - bvp.mean_) @ bvp.components_.T))
    True
    """

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
