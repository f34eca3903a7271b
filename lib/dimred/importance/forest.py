"""Random-forest and Shapley feature importances, as Section 4 of the
metrical-importance paper uses them for comparison.

The paper takes them from R's ``randomForest`` (``importance=TRUE``) and
``fastshap``; here they are computed on a scikit-learn random forest:

- ``rf``: mean decrease in accuracy (MDA). Per tree, the out-of-bag (OOB)
  samples of each class are predicted before and after permuting one feature
  among the OOB samples; the decrease in class accuracy is averaged over trees
  and divided by its standard error (``randomForest::importance`` with its
  default ``scale=TRUE``), then averaged over classes. Trees without an OOB
  sample of a class are left out of that class's mean (R divides by ``ntree``;
  with 500 trees such trees practically never occur).
- ``sd``: the standard errors of the class-wise permutation importances
  (``randomForest``'s ``importanceSD``), averaged over classes.
- ``gini``: mean decrease in Gini impurity: per tree the weighted impurity
  decrease summed over the feature's splits (scikit-learn's
  ``compute_feature_importances(normalize=False)``, i.e. divided by the root's
  sample weight, where R's ``MeanDecreaseGini`` is not), averaged over trees.
  The two differ by a factor common to all features of a tree.
- ``shapley``: mean absolute SHAP value (``shap.TreeExplainer``, exact for
  trees, where the paper used Monte-Carlo ``fastshap``), averaged over classes.

Categorical features enter the forest as integer level codes (scikit-learn
forests have no categorical splits; R's forest splits on level subsets).

Each feature is divided by a power of two near its largest magnitude before the
forest sees it: exact, and monotone, so the trees split the samples exactly as on
the raw features, while scikit-learn's float32 copy of ``X`` can neither overflow
(``X * 1e200``) nor underflow to a constant (``X * 1e-200``). The importances
therefore do not depend on the scale of the features.
"""

from numbers import Integral

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.ensemble import RandomForestClassifier
from sklearn.preprocessing import LabelEncoder
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, validate_params
from sklearn.utils.validation import check_X_y

from ..utils.validation import is_constant

__all__ = [
    "fit_forest",
    "forest_importances",
    "permutation_importances",
    "plain_permutation_importances",
    "shapley_importance",
]


def fit_forest(X, y, n_estimators=500, random_state=None, n_jobs=None):
    """Fit the forest the importances are read from (R's default 500 trees).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numeric matrix (categorical features as level codes).
    y : array-like of shape (n_samples,)
    n_estimators : int, default=500
    random_state : int, RandomState or None
    n_jobs : int or None

    Returns
    -------
    forest : RandomForestClassifier
        Fitted on the label codes ``0..c-1``.
    """
    y_codes = LabelEncoder().fit_transform(y)
    forest = RandomForestClassifier(
        n_estimators=n_estimators, random_state=random_state, n_jobs=n_jobs
    )
    return forest.fit(X, y_codes)


def permutation_importances(forest, X, y, random_state=None):
    """Class-wise OOB permutation importances of every tree.

    Parameters
    ----------
    forest : RandomForestClassifier
        Fitted by :func:`fit_forest` on ``X, y``.
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    random_state : int, RandomState or None
        Seeds the permutations.

    Returns
    -------
    decrease : ndarray of shape (n_trees, n_classes, n_features)
        Decrease of the OOB accuracy on each class when a feature is permuted
        (``nan`` where a tree has no OOB sample of a class).

    Notes
    -----
    The trees predict from one float32 copy of the OOB rows (the copy scikit-learn's
    ``predict`` would make at every call), without its input checks; each feature is
    permuted in place and put back after the prediction. The permutations are the same
    draws as those of a fresh copy per feature, so the result is the same bit for bit
    (``tests/unit/test_forest_importance.py``), about 2-3 times faster (``make bench``:
    ``metrical_importance/benchmark_forest.md``).
    """
    rng = check_random_state(random_state)
    y_codes = LabelEncoder().fit_transform(y)
    n_classes = forest.n_classes_
    n_trees, n_features = len(forest.estimators_), X.shape[1]
    decrease = np.full((n_trees, n_classes, n_features), np.nan)
    X32 = np.asarray(X, dtype=np.float32)  # what DecisionTreeClassifier.predict converts to
    for t, (tree, in_bag) in enumerate(
        zip(forest.estimators_, forest.estimators_samples_, strict=True)
    ):
        oob = np.setdiff1d(np.arange(X.shape[0]), in_bag)
        if oob.size == 0:
            continue
        X_oob, y_oob = X32[oob], y_codes[oob]  # C-contiguous, as tree_.predict needs
        per_class = np.bincount(y_oob, minlength=n_classes)
        present = per_class > 0
        base = _class_hits(tree.predict(X_oob, check_input=False), y_oob, n_classes)
        for j in range(n_features):
            column = X_oob[:, j].copy()
            X_oob[:, j] = rng.permutation(column)
            hits = _class_hits(tree.predict(X_oob, check_input=False), y_oob, n_classes)
            X_oob[:, j] = column
            decrease[t, present, j] = (base - hits)[present] / per_class[present]
    return decrease


def plain_permutation_importances(forest, X, y, random_state=None):
    """Reference of :func:`permutation_importances`: a fresh copy of the OOB rows per
    feature, predicted through scikit-learn's checked ``predict``.

    The straightforward loop, kept as the baseline of ``make bench`` and the tests, which
    check that :func:`permutation_importances` returns the same array bit for bit.
    """
    rng = check_random_state(random_state)
    y_codes = LabelEncoder().fit_transform(y)
    n_classes = forest.n_classes_
    decrease = np.full((len(forest.estimators_), n_classes, X.shape[1]), np.nan)
    trees = zip(forest.estimators_, forest.estimators_samples_, strict=True)
    for t, (tree, in_bag) in enumerate(trees):
        oob = np.setdiff1d(np.arange(X.shape[0]), in_bag)
        if oob.size == 0:
            continue
        X_oob, y_oob = X[oob], y_codes[oob]
        per_class = np.bincount(y_oob, minlength=n_classes)
        present = per_class > 0
        base = _class_hits(tree.predict(X_oob), y_oob, n_classes)
        for j in range(X.shape[1]):
            X_perm = X_oob.copy()
            X_perm[:, j] = rng.permutation(X_perm[:, j])
            hits = _class_hits(tree.predict(X_perm), y_oob, n_classes)
            decrease[t, present, j] = (base - hits)[present] / per_class[present]
    return decrease


def _class_hits(predicted, truth, n_classes):
    """Number of correct predictions per class."""
    correct = predicted.astype(np.intp) == truth
    return np.bincount(truth[correct], minlength=n_classes)


def shapley_importance(forest, X, n_jobs=None, chunk_size=256):
    """Mean absolute SHAP value per feature, averaged over classes.

    Parameters
    ----------
    forest : RandomForestClassifier
    X : ndarray of shape (n_samples, n_features)
        Rows to explain.
    n_jobs : int or None
        Row blocks are explained in parallel through joblib.
    chunk_size : int

    Returns
    -------
    importance : ndarray of shape (n_features,)
    """
    import shap

    explainer = shap.TreeExplainer(forest)
    blocks = [X[start : start + chunk_size] for start in range(0, X.shape[0], chunk_size)]
    sums = Parallel(n_jobs=n_jobs)(delayed(_abs_shap_sum)(explainer, block) for block in blocks)
    return np.sum(sums, axis=0) / X.shape[0]


def _abs_shap_sum(explainer, block):
    """Sum over rows of |SHAP|, averaged over classes, for one block."""
    values = np.asarray(explainer.shap_values(block, check_additivity=False))
    if values.shape != (*block.shape, values.shape[-1]):
        raise RuntimeError(f"unexpected SHAP value layout {values.shape} for rows {block.shape}")
    return np.abs(values).sum(axis=0).mean(axis=-1)


@validate_params(
    {
        "X": "no_validation",
        "y": "no_validation",
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "shap_rows": [Interval(Integral, 1, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def forest_importances(X, y, n_estimators=500, random_state=None, n_jobs=None, shap_rows=None):
    """The four comparison importances of Section 4 from one forest.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite numeric matrix (categorical features as level codes), dense.
    y : array-like of shape (n_samples,)
        At least two classes.
    n_estimators : int, default=500
    random_state : int or None
        Seeds the forest, the permutations and the SHAP row sample.
    n_jobs : int or None
    shap_rows : int or None
        Explain a random subset of this many rows, a positive number (all rows when
        ``None`` or at least ``n_samples``).

    Returns
    -------
    importances : DataFrame
        Columns ``rf``, ``sd``, ``gini``, ``shapley``; one row per feature.

    Raises
    ------
    ValueError
        Non-finite or empty ``X``, fewer than two classes, every feature
        constant, or a class that no tree leaves out of its bootstrap sample
        (too few samples to measure a permutation importance); ``shap_rows`` neither
        ``None`` nor a positive int.
    TypeError
        Sparse ``X``.

    Examples
    --------
    Feature 0 separates the classes, feature 1 is noise and feature 2 random level
    codes; 50 trees rather than 500, to be quick. Every measure ranks feature 0 first.

    >>> import numpy as np
    >>> from dimred import forest_importances
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 30)
    >>> X = np.column_stack(
    ...     [y + 0.3 * rng.normal(size=60), rng.normal(size=60), rng.integers(0, 3, size=60)]
    ... )
    >>> importances = forest_importances(X, y, n_estimators=50, random_state=0)
    >>> importances.columns.tolist()
    ['rf', 'sd', 'gini', 'shapley']
    >>> importances.idxmax().tolist()
    [0, 0, 0, 0]
    """
    X, y = _check_input(X, y)
    rng = check_random_state(random_state)
    seed = rng.randint(np.iinfo(np.int32).max)
    forest = fit_forest(X, y, n_estimators, seed, n_jobs)
    decrease = permutation_importances(forest, X, y, rng)
    if np.isnan(decrease).all(axis=(0, 2)).any():
        raise ValueError(
            f"forest_importances: with {X.shape[0]} samples some class is never out of bag in "
            f"n_estimators={n_estimators} trees, so no permutation importance can be measured; "
            "more trees or more samples per class are needed."
        )
    mean = np.nanmean(decrease, axis=0)
    counts = np.sum(~np.isnan(decrease), axis=0)
    stderr = np.nanstd(decrease, axis=0) / np.sqrt(counts)
    scaled = np.divide(mean, stderr, out=np.zeros_like(mean), where=stderr > 0)
    gini = np.mean(
        [tree.tree_.compute_feature_importances(normalize=False) for tree in forest.estimators_],
        axis=0,
    )
    rows = np.arange(X.shape[0])
    if shap_rows is not None and shap_rows < X.shape[0]:
        rows = np.sort(rng.choice(rows, shap_rows, replace=False))
    return pd.DataFrame(
        {
            "rf": scaled.mean(axis=0),
            "sd": stderr.mean(axis=0),
            "gini": gini,
            "shapley": shapley_importance(forest, X[rows], n_jobs=n_jobs),
        }
    )


def _check_input(X, y):
    """Validated ``X`` (each feature scaled by an exact power of two) and ``y``."""
    X, y = check_X_y(X, y, accept_sparse=False, dtype=np.float64)
    if np.unique(y).size < 2:
        raise ValueError(
            f"forest_importances needs at least 2 classes in y; got {np.unique(y).size}."
        )
    if all(is_constant(column) for column in X.T):
        raise ValueError(
            f"forest_importances: every feature of X is constant (all {X.shape[0]} samples "
            "share each value); a forest cannot split on any."
        )
    magnitude = np.abs(X).max(axis=0)
    exponents = np.frexp(np.where(magnitude > 0, magnitude, 1.0))[1]
    return np.ldexp(X, -exponents), y
