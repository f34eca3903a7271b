"""Metrical feature importance for mixed data (Denisiuk, "Dimensionality reduction
in product of metric spaces").

Every feature ``i`` carries its own distance ``dist_i``; the product distance is
``dist^2(x, y) = sum_i dist_i^2(x_i, y_i)``. Scaling feature ``i`` by ``u_i``
and minimising the total inner-class squared distance

.. math:: G(u) = \\sum_i u_i^2 z_i, \\qquad
          z_i = \\frac{1}{M^2} \\sum_k \\sum_{x, y \\in C_k} \\mathrm{dist}_i^2(x_i, y_i)
          \\quad (1)

under ``mean(u) = 1, u >= 0`` (problem (2)) gives ``u_i^0 = z_i^{-1} /
mean(z^{-1})`` (Eqs. (3)-(4)); Definition 1 and Eq. (5) call ``1 / u_i^0`` the
metrical importance. Algorithm 3.1 discards the ``m`` least important features.

Text versus tables
------------------
Eq. (5) makes the importance grow with the within-class spread ``z_i``, yet the
paper's "pca" rows of Tables 1-3 are reproduced exactly by the opposite order:
importance proportional to the optimal scaling ``u_i^0`` (features that are
tight within classes are kept). The notebook shows both readings against the
tables. ``importance="weight"`` (default) follows the tables;
``importance="definition"`` follows Definition 1 and Eq. (5) as printed.
"""

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.preprocessing import LabelEncoder
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import is_constant

__all__ = [
    "MetricalImportance",
    "encode_mixed",
    "within_class_sq_distances",
    "within_class_sq_distances_pairwise",
]

_IMPORTANCES = ("weight", "definition")
_SCALINGS = ("hamming", "empirical")


def encode_mixed(X, categorical, scaling="hamming"):
    """Encode mixed features for the normalised product metric (Remark 2).

    Numeric features are standardised to mean 0 and (population) variance 1,
    so that their mean squared distance over all ``M^2`` ordered pairs is
    exactly 2; the standardisation is computed on the feature divided by a power
    of two near its largest magnitude, so that it neither overflows nor
    underflows (the importances do not depend on the features' scale). A numeric
    feature is constant when its range is negligible against its magnitude
    (:func:`~dimred.utils.validation.is_constant`). Categorical features are
    integer-coded; their Hamming distance is multiplied by ``scale_i``:

    - ``scaling="hamming"`` (Remark 2): ``scale_i = sqrt(2k / (k - 1))`` for a
      feature with ``k`` observed levels. This gives mean squared distance 2
      only when the levels are equally frequent.
    - ``scaling="empirical"``: ``scale_i = sqrt(2 / p_i)`` with ``p_i`` the
      fraction of pairs that differ, so the mean squared distance is exactly 2
      for every feature, balanced or not (our correction of Remark 2).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), dtype object or float
        Raw feature values.
    categorical : ndarray of bool, shape (n_features,)
        Which features are categorical.
    scaling : {"hamming", "empirical"}
        Normalisation of the categorical distance.

    Returns
    -------
    values : ndarray of float, shape (n_samples, n_features)
        Standardised numeric values, or level codes for categorical features.
    scale : ndarray of float, shape (n_features,)
        Multiplier of the Hamming distance (1 for numeric features; ``nan``
        for constant features, whose normalised distance is undefined).
    """
    n_samples, n_features = X.shape
    values = np.empty((n_samples, n_features))
    scale = np.ones(n_features)
    for j in range(n_features):
        if categorical[j]:
            _, codes, counts = np.unique(X[:, j], return_inverse=True, return_counts=True)
            values[:, j] = codes
            scale[j] = _categorical_scale(counts, scaling)
        else:
            values[:, j], scale[j] = _standardise(X[:, j].astype(float))
    return values, scale


def _standardise(column):
    """``(column - mean) / std`` and its Hamming scale 1, or ``(0, nan)`` when constant."""
    if is_constant(column):
        return 0.0, np.nan
    scaled = np.ldexp(column, -np.frexp(np.abs(column).max())[1])  # exact: a power of two
    centred = scaled - scaled.mean()
    return centred / centred.std(), 1.0


def _categorical_scale(counts, scaling):
    """Multiplier of the Hamming distance of one categorical feature."""
    k = counts.size
    if k < 2:
        return np.nan
    if scaling == "hamming":
        return np.sqrt(2.0 * k / (k - 1))
    frequencies = counts / counts.sum()
    return np.sqrt(2.0 / (1.0 - np.sum(frequencies**2)))


def within_class_sq_distances(values, scale, categorical, y_codes):
    """Coefficients ``z_i`` of Eq. (1) in closed form, O(M n) time and memory.

    For a numeric feature, ``sum_{x,y in C} (x - y)^2 = 2 (|C| S2 - S1^2)``
    with ``S1, S2`` the class sums of ``x`` and ``x^2``; for a categorical one,
    ``sum_{x,y in C} [x != y] = |C|^2 - sum_v |C_v|^2`` with ``|C_v|`` the
    number of class members at level ``v``.

    Parameters
    ----------
    values, scale : ndarray
        Output of :func:`encode_mixed`.
    categorical : ndarray of bool, shape (n_features,)
    y_codes : ndarray of int, shape (n_samples,)
        Class codes ``0..c-1``.

    Returns
    -------
    z : ndarray of shape (n_features,)
        ``nan`` for constant features.
    """
    n_samples, n_features = values.shape
    n_classes = int(y_codes.max()) + 1
    class_sizes = np.bincount(y_codes, minlength=n_classes).astype(float)
    indicator = np.zeros((n_classes, n_samples))
    indicator[y_codes, np.arange(n_samples)] = 1.0
    z = np.empty(n_features)
    for j in range(n_features):
        column = values[:, j]
        if categorical[j]:
            codes = column.astype(np.intp)
            n_levels = int(codes.max()) + 1
            table = np.bincount(y_codes * n_levels + codes, minlength=n_classes * n_levels)
            differing = np.sum(class_sizes**2) - np.sum(table.astype(float) ** 2)
            z[j] = scale[j] ** 2 * differing
        else:
            s1, s2 = indicator @ column, indicator @ column**2
            z[j] = 2.0 * np.sum(class_sizes * s2 - s1**2)
    z[np.isnan(scale)] = np.nan
    return z / n_samples**2


def within_class_sq_distances_pairwise(values, scale, categorical, y_codes, chunk_size=256):
    """Coefficients ``z_i`` of Eq. (1) by brute force over all ordered pairs.

    The literal double sum of Eq. (1), evaluated in row blocks so memory stays
    O(``chunk_size`` x class size). O(M^2 n) time: the reference the closed
    form :func:`within_class_sq_distances` is tested and benchmarked against.

    Parameters
    ----------
    values, scale, categorical, y_codes
        As in :func:`within_class_sq_distances`.
    chunk_size : int
        Rows per block.

    Returns
    -------
    z : ndarray of shape (n_features,)
    """
    n_samples, n_features = values.shape
    z = np.zeros(n_features)
    for label in np.unique(y_codes):
        members = values[y_codes == label]
        for start in range(0, len(members), chunk_size):
            block = members[start : start + chunk_size]
            for j in range(n_features):
                if categorical[j]:
                    sq = scale[j] ** 2 * (block[:, j, None] != members[None, :, j])
                else:
                    sq = (block[:, j, None] - members[None, :, j]) ** 2
                z[j] += sq.sum()
    z[np.isnan(scale)] = np.nan
    return z / n_samples**2


def optimal_scaling(z):
    """Solution ``u^0`` of problem (2): ``u_i = z_i^{-1} / mean(z^{-1})``.

    Eq. (4) with the multiplier of the constraint ``mean(u) = 1``. Features
    with ``z_i = 0`` (constant within every class, but not overall) are the
    limit ``z_i -> 0``: they share the whole budget. Constant features
    (``nan``) are excluded and get ``u_i = 0``.
    """
    z = np.asarray(z, dtype=float)
    active = ~np.isnan(z)
    n_active = active.sum()
    u = np.zeros_like(z)
    zero = active & (z == 0)
    if zero.any():
        u[zero] = n_active / zero.sum()
        return u
    inverse = 1.0 / z[active]
    u[active] = inverse / inverse.mean()
    return u


class MetricalImportance(SelectorMixin, BaseEstimator):
    """Metrical feature importance and Algorithm 3.1 feature selection.

    Computes the coefficients ``z_i`` of Eq. (1) for mixed numeric and
    categorical data under the normalised product metric of Remark 2, the
    optimal scaling ``u^0`` of problem (2) (Eqs. (3)-(4)), and the metrical
    importances, scaled to sum to 100 %. As a scikit-learn feature selector it
    discards the ``n_discard`` least important features (Algorithm 3.1).

    Parameters
    ----------
    categorical_features : "auto", None, or array-like, default="auto"
        Which features are categorical: a boolean mask, integer indices or
        feature names. ``"auto"`` takes the non-numeric columns of a pandas
        DataFrame (category, string, object, bool) and none of an array.
    n_discard : int, default=0
        ``m`` of Algorithm 3.1: how many of the least important features
        :meth:`transform` drops. Must be smaller than the number of features.
    importance : {"weight", "definition"}, default="weight"
        ``"weight"``: importance proportional to the optimal scaling ``u^0``
        (``1 / z_i``); this reading reproduces the paper's Tables 1-3 exactly.
        ``"definition"``: ``I_m(i) = 1 / u_i^0`` of Definition 1 and Eq. (5)
        (proportional to ``z_i``), as printed in the text.
    scaling : {"hamming", "empirical"}, default="hamming"
        Normalisation of categorical distances, see :func:`encode_mixed`.
        ``"hamming"`` is Remark 2; ``"empirical"`` makes every feature's mean
        squared distance exactly 2 even for unbalanced levels.

    Attributes
    ----------
    z_ : ndarray of shape (n_features_in_,)
        Mean within-class squared distances of Eq. (1); ``nan`` for constant
        features.
    weights_ : ndarray of shape (n_features_in_,)
        Optimal scaling ``u^0`` of problem (2), mean 1; 0 for constant features.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Importances in percent (sum 100). Constant features get 0.
    discard_order_ : ndarray of shape (n_features_in_,)
        Feature indices from least to most important (ties by index).
    categorical_ : ndarray of bool, shape (n_features_in_,)
        Resolved categorical mask.
    classes_ : ndarray
        Class labels.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Notes
    -----
    The closed form of :func:`within_class_sq_distances` costs O(M n); the
    definition's double sum (:func:`within_class_sq_distances_pairwise`) costs
    O(M^2 n). Both agree to rounding (see the tests and ``make bench``).

    References
    ----------
    A. Denisiuk, "Dimensionality reduction in product of metric spaces",
    Eqs. (1)-(5), Remark 2, Algorithm 3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from dimred import MetricalImportance
    >>> X = np.array([[0.0, 1, 5], [0.1, 0, 3], [1.0, 1, 4], [1.1, 0, 2]])
    >>> y = np.array([0, 0, 1, 1])
    >>> selector = MetricalImportance(categorical_features=[1], n_discard=1).fit(X, y)
    >>> selector.discard_order_
    array([1, 2, 0])
    >>> selector.transform(X).shape
    (4, 2)

    On a DataFrame the non-numeric columns (category, bool) are the categorical
    features; with pandas output the kept columns keep their dtypes.

    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> colour = np.where(y == 1, "red", "blue")
    >>> colour[::5] = "green"
    >>> frame = pd.DataFrame({
    ...     "weight": y + 0.5 * rng.normal(size=40),
    ...     "noise": rng.normal(size=40),
    ...     "colour": pd.Categorical(colour),
    ...     "flag": rng.integers(0, 2, size=40).astype(bool),
    ... })
    >>> selector = MetricalImportance(n_discard=2).fit(frame, y)
    >>> selector.categorical_
    array([False, False,  True,  True])
    >>> selector.feature_importances_.round(1)
    array([42.9, 13.9, 28.9, 14.3])
    >>> selector.set_output(transform="pandas").transform(frame).dtypes.astype(str).to_dict()
    {'weight': 'float64', 'colour': 'category'}
    """

    _parameter_constraints: dict = {
        "categorical_features": [StrOptions({"auto"}), "array-like", None],
        "n_discard": [Interval(numbers.Integral, 0, None, closed="left")],
        "importance": [StrOptions(set(_IMPORTANCES))],
        "scaling": [StrOptions(set(_SCALINGS))],
    }

    def __init__(
        self,
        categorical_features="auto",
        n_discard=0,
        importance="weight",
        scaling="hamming",
    ):
        self.categorical_features = categorical_features
        self.n_discard = n_discard
        self.importance = importance
        self.scaling = scaling

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the metrical importances of the features of ``X``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Mixed data; categorical columns may hold any hashable values.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).

        Returns
        -------
        self : MetricalImportance
        """
        frame = X if isinstance(X, pd.DataFrame) else None
        X, y = validate_data(self, _object_columns(X), y, dtype=None, ensure_all_finite=False)
        categorical = self._resolve_categorical(frame, X.shape[1])
        check_classification_targets(y)
        X = _check_values(X, categorical)
        encoder = LabelEncoder().fit(y)
        self.classes_ = encoder.classes_
        if self.classes_.size < 2:
            raise ValueError(
                "MetricalImportance needs at least 2 classes; got 1 class "
                f"({self.classes_[0]!r}). Eq. (1) sums distances within classes."
            )
        self._check_n_discard()
        y_codes = encoder.transform(y)
        values, scale = encode_mixed(X, categorical, self.scaling)
        if np.isnan(scale).all():
            raise ValueError(
                f"MetricalImportance: every feature of X is constant (all {X.shape[0]} samples "
                "share each value); no feature carries a distance to weigh."
            )
        self.categorical_ = categorical
        self.z_ = within_class_sq_distances(values, scale, categorical, y_codes)
        self.weights_ = optimal_scaling(self.z_)
        self.feature_importances_ = self._importances()
        self.discard_order_ = self._discard_order()
        return self

    def transform(self, X):
        """Keep all but the ``n_discard`` least important features of ``X``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features_in_)

        Returns
        -------
        X_kept : ndarray or DataFrame of shape (n_samples, n_features_in_ - n_discard)
            A DataFrame (with ``set_output(transform="pandas")``) keeps the
            columns' own dtypes.
        """
        kept = super().transform(_object_columns(X))
        if isinstance(kept, pd.DataFrame) and isinstance(X, pd.DataFrame):
            return X.loc[:, kept.columns]
        return kept

    def _discard_order(self):
        """Least to most important, ranked on ``z_`` itself (constant features first).

        Ranking on ``z_`` rather than on the percentages keeps the order of
        the other features when some ``z_i = 0`` takes the whole budget of (2).
        """
        key = -self.z_ if self.importance == "weight" else self.z_.copy()
        key[np.isnan(self.z_)] = -np.inf
        return np.argsort(key, kind="stable")

    def _importances(self):
        """Importances in percent from ``z_`` and ``weights_`` (Eq. (5))."""
        if self.importance == "weight":
            raw = self.weights_
        else:
            raw = np.where(np.isnan(self.z_), 0.0, self.z_)
        total = raw.sum()
        return 100.0 * raw / total if total > 0 else np.zeros_like(raw)

    def _get_support_mask(self):
        check_is_fitted(self)
        self._check_n_discard()
        mask = np.ones(self.n_features_in_, dtype=bool)
        mask[self.discard_order_[: self.n_discard]] = False
        return mask

    def _check_n_discard(self):
        if not 0 <= self.n_discard < self.n_features_in_:
            raise ValueError(
                f"n_discard={self.n_discard} must be >= 0 and smaller than "
                f"n_features = {self.n_features_in_}; Algorithm 3.1 requires n > m."
            )

    def _resolve_categorical(self, frame, n_features):
        """Boolean mask of categorical features from ``categorical_features``.

        ``frame`` is the DataFrame given to :meth:`fit` (``None`` for arrays).
        """
        spec = self.categorical_features
        if isinstance(spec, str) and spec == "auto":
            if frame is not None:
                return np.array([not _is_numeric(frame[c]) for c in frame.columns])
            return np.zeros(n_features, dtype=bool)
        if spec is None:
            return np.zeros(n_features, dtype=bool)
        spec = np.asarray(spec)
        if spec.dtype == bool:
            if spec.shape != (n_features,):
                raise ValueError(
                    f"categorical_features mask has shape {spec.shape}; expected ({n_features},)."
                )
            return spec.copy()
        mask = np.zeros(n_features, dtype=bool)
        if spec.dtype.kind in "OUS":
            columns = list(getattr(frame, "columns", []))
            missing = [name for name in spec if name not in columns]
            if missing:
                raise ValueError(f"categorical_features names not in X: {missing}.")
            spec = np.array([columns.index(name) for name in spec], dtype=int)
        if spec.size and (spec.min() < -n_features or spec.max() >= n_features):
            raise ValueError(
                f"categorical_features indices {spec.tolist()} out of range for "
                f"{n_features} features."
            )
        mask[spec.astype(int)] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags


def _is_numeric(column):
    """Whether a DataFrame column is numeric (bool counts as categorical)."""
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _object_columns(X):
    """``X`` with every non-numeric column of a DataFrame as ``object``.

    scikit-learn converts a DataFrame to one array of a dtype common to its
    columns; for bool and category columns together it picks a numeric one and
    fails on the categories' labels. Object columns make the array ``object``,
    which :func:`encode_mixed` reads column by column.
    """
    if not isinstance(X, pd.DataFrame):
        return X
    mixed = [column for column in X.columns if not _is_numeric(X[column])]
    return X.astype(dict.fromkeys(mixed, object)) if mixed else X


def _check_values(X, categorical):
    """Reject NaN/inf in numeric and missing values in categorical features."""
    X = np.asarray(X, dtype=object if X.dtype.kind not in "biuf" else float)
    if categorical.size != X.shape[1]:
        raise ValueError(
            f"categorical_features describes {categorical.size} features; X has {X.shape[1]}."
        )
    numeric = X[:, ~categorical]
    try:
        numeric = numeric.astype(float)
    except (TypeError, ValueError) as error:
        raise ValueError(
            "Non-numeric values in a feature not declared categorical; set categorical_features."
        ) from error
    if not np.isfinite(numeric).all():
        raise ValueError("Input X contains NaN or infinity in a numeric feature.")
    if pd.isna(pd.DataFrame(X[:, categorical])).to_numpy().any():
        raise ValueError("Input X contains missing values in a categorical feature.")
    return X
