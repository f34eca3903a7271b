"""Feature-discard curves: classification quality as features are dropped.

Section 4 of the metrical-importance paper: the features are discarded one by
one, least important first (a *direct* order) or most important first (the
*reverse* order, named by the reversed string: ``pca`` -> ``acp``), and the
F1 score of the minority class is measured on an 80/20 split with a random
forest (averaged over repeated runs), an SVM and XGBoost, default settings.

Every distinct (kept features, classifier, run) fit is done once, whichever
orders share it, through joblib (so a dask backend scales it out) with a tqdm
progress bar. The random forests, tens of thousands at the paper's 100 runs, are
grown by :func:`~papers.metrical_importance.forest.forest_proba` on categorical codes computed once
per split, with its compiled engine (class counts per feature value in place of
scikit-learn's sorts): the same probabilities, bit for bit, as the pipeline of
:func:`make_classifier`, without scikit-learn's per-tree and per-fit overhead
(``tests/papers/test_discard.py`` compares the two; ``make bench`` times them). The F1 is
counted directly (:func:`f1_of_class`), the same float as scikit-learn's ``f1_score``.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder, StandardScaler
from sklearn.svm import SVC

from dimred.utils.parallel import run_tasks

from .forest import forest_proba

__all__ = [
    "CLASSIFIERS",
    "DiscardCurves",
    "discard_curves",
    "f1_of_class",
    "reverse_name",
    "with_reverses",
]

#: Classifier names, in the order of the paper's figure panels.
CLASSIFIERS = ("random_forest", "svm", "xgboost")


def reverse_name(name):
    """Name of the reverse order, as the paper spells it (``pca`` -> ``acp``)."""
    return name[::-1]


def with_reverses(orders):
    """Add the reverse of every discard order.

    Parameters
    ----------
    orders : dict of str to array-like of int
        Discard orders (feature indices, least important first).

    Returns
    -------
    dict
        The direct orders followed by their reverses.
    """
    direct = {name: np.asarray(order) for name, order in orders.items()}
    reverse = {reverse_name(name): order[::-1] for name, order in direct.items()}
    clashes = set(direct) & set(reverse)
    if clashes:
        raise ValueError(f"order names {sorted(clashes)} clash with a reversed name (palindrome?).")
    return direct | reverse


def make_classifier(name, categorical, seed):
    """One of the three classifiers with library defaults.

    - ``random_forest``: :class:`~sklearn.ensemble.RandomForestClassifier`
      (100 trees), categorical features as ordinal codes. The curves compute its
      predictions with :func:`~papers.metrical_importance.forest.forest_proba` (:func:`_forest_f1`),
      which this pipeline's are equal to.
    - ``svm``: :class:`~sklearn.svm.SVC` (RBF, C=1) on standardised numeric and
      one-hot categorical features (R's ``e1071::svm`` also scales and one-hot
      encodes by default).
    - ``xgboost``: :class:`xgboost.XGBClassifier` with its native categorical
      support.

    Parameters
    ----------
    name : str
        One of :data:`CLASSIFIERS`.
    categorical : ndarray of bool
        Categorical mask of the columns the classifier will see.
    seed : int

    Returns
    -------
    estimator
        Unfitted; accepts a DataFrame whose categorical columns are ``category``.
    """
    numeric_cols, categorical_cols = np.flatnonzero(~categorical), np.flatnonzero(categorical)
    if name == "random_forest":
        encode = make_column_transformer(
            ("passthrough", numeric_cols),
            (_level_codes(), categorical_cols),
        )
        return make_pipeline(encode, RandomForestClassifier(random_state=seed, n_jobs=1))
    if name == "svm":
        encode = make_column_transformer(
            (StandardScaler(), numeric_cols),
            (OneHotEncoder(handle_unknown="ignore"), categorical_cols),
        )
        return make_pipeline(encode, SVC())
    if name == "xgboost":
        from xgboost import XGBClassifier

        return XGBClassifier(enable_categorical=True, random_state=seed, n_jobs=1)
    raise ValueError(f"Unknown classifier {name!r}; expected one of {CLASSIFIERS}.")


def _level_codes():
    """The random forest's encoding of categorical levels: ordinal codes, ``-1`` for a
    level the training part did not have."""
    return OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)


@dataclass(frozen=True)
class _Split:
    """The 80/20 split the curves are measured on, and its columns as the random
    forest's pipeline encodes them (categorical levels as ordinal codes fitted on the
    training part, unknown levels ``-1``; :func:`_forest_codes`)."""

    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: np.ndarray
    y_test: np.ndarray
    categorical: np.ndarray
    positive: object
    codes_train: np.ndarray
    codes_test: np.ndarray


def _forest_codes(X_train, X_test, categorical):
    """Both parts as float arrays, categorical columns as the pipeline's ordinal codes.

    The codes of a column depend on that column's training levels only, so encoding
    every column once gives, for any subset of columns, the values the pipeline of
    :func:`make_classifier` computes on that subset.
    """
    columns = np.flatnonzero(categorical)
    parts = [part.to_numpy(dtype=object) for part in (X_train, X_test)]
    if columns.size:
        encoder = _level_codes().fit(X_train.iloc[:, columns])
        for part, frame in zip(parts, (X_train, X_test), strict=True):
            part[:, columns] = encoder.transform(frame.iloc[:, columns])
    return [part.astype(np.float64) for part in parts]


def _forest_inputs(split, columns):
    """Training codes, labels and test codes of ``columns`` in the pipeline's column
    order: numeric columns first, then categorical ones (:func:`make_classifier`)."""
    order = sorted(columns, key=lambda column: split.categorical[column])  # stable
    return split.codes_train[:, order], split.y_train, split.codes_test[:, order]


def f1_of_class(y_true, y_pred, positive):
    """F1 score of the class ``positive``: ``2 tp / (n_true + n_predicted)``, 0 when the
    class is neither true nor predicted anywhere.

    The float ``sklearn.metrics.f1_score(y_true, y_pred, pos_label=positive)`` returns
    for two classes (it computes ``(1 + beta^2) tp / (beta^2 n_true + n_predicted)``
    with ``beta = 1``: integers, then one division), without its input checks, which on
    the curves' test parts of a few hundred rows cost hundreds of times the count
    (``tests/papers/test_discard.py``; ``make bench``: ``benchmark_f1``).

    Parameters
    ----------
    y_true, y_pred : ndarray of shape (n_samples,)
    positive : object
        The class whose F1 is returned.

    Returns
    -------
    float
    """
    true, predicted = y_true == positive, y_pred == positive
    denominator = int(np.count_nonzero(true) + np.count_nonzero(predicted))
    return 2.0 * int(np.count_nonzero(true & predicted)) / denominator if denominator else 0.0


def _forest_f1(split, columns, seed):
    """The random forest's F1 on ``columns`` (:func:`_forest_inputs`)."""
    proba = forest_proba(*_forest_inputs(split, columns), seed)
    predicted = np.unique(split.y_train).take(proba.argmax(axis=1))
    return f1_of_class(split.y_test, predicted, split.positive)


def _f1_of(split, kept, classifier, seed):
    """F1 of the minority class with only the features ``kept``."""
    columns = list(kept)
    if classifier == "random_forest":
        return _forest_f1(split, columns, seed)
    model = make_classifier(classifier, split.categorical[columns], seed)
    model.fit(split.X_train.iloc[:, columns], split.y_train)
    predicted = model.predict(split.X_test.iloc[:, columns])
    return f1_of_class(split.y_test, predicted, split.positive)


def _run_block(split, kept, classifier, seeds):
    """F1 scores of one feature subset and classifier over several seeds."""
    return [_f1_of(split, kept, classifier, seed) for seed in seeds]


@dataclass
class DiscardCurves:
    """Result of :func:`discard_curves`.

    Attributes
    ----------
    runs : DataFrame
        One row per fit: ``order``, ``classifier``, ``n_discarded``,
        ``n_kept``, ``run``, ``f1``. Runs with the same number share the seed,
        so two points of a curve can be compared run by run.
    """

    runs: pd.DataFrame

    @property
    def scores(self):
        """Curve points: ``f1`` (mean over runs), ``f1_sd`` (standard deviation
        over runs) and ``n_runs`` per order, classifier and ``n_discarded``."""
        keys = ["order", "classifier", "n_discarded", "n_kept"]
        grouped = self.runs.groupby(keys, sort=False)["f1"]
        return grouped.agg(f1="mean", f1_sd=lambda f: f.std(ddof=0), n_runs="size").reset_index()

    def summary(self):
        """Mean F1 over all discard steps (area under the curve / steps).

        Returns
        -------
        DataFrame
            Rows: orders; columns: classifiers.
        """
        return self.scores.pivot_table(index="order", columns="classifier", values="f1")

    def paired_loss(self, order, classifier, step):
        """F1 lost at discard step ``step`` of one curve, run by run.

        Returns
        -------
        ndarray
            ``F1(step - 1) - F1(step)`` for every run (same seeds on both sides).
        """
        curve = self.runs[(self.runs["order"] == order) & (self.runs["classifier"] == classifier)]
        by_step = curve.pivot_table(index="run", columns="n_discarded", values="f1")
        return (by_step[step - 1] - by_step[step]).to_numpy()


def discard_curves(
    X,
    y,
    orders,
    categorical,
    classifiers=CLASSIFIERS,
    n_rf_runs=100,
    test_size=0.2,
    random_state=0,
    n_jobs=None,
    progress=True,
):
    """F1 of the minority class as features are discarded along each order.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
        Features; categorical columns of ``category`` dtype.
    y : array-like of shape (n_samples,)
        Class labels (two classes; the F1 is that of the rarer one). They are
        coded ``0, 1`` in sorted order for the classifiers.
    orders : dict of str to array-like of int
        Discard orders (column indices, first discarded first); see
        :func:`with_reverses`.
    categorical : ndarray of bool, shape (n_features,)
    classifiers : sequence of str, default=CLASSIFIERS
    n_rf_runs : int, default=100
        Random-forest runs averaged per point (the paper's 100); the SVM and
        XGBoost are deterministic given the split and run once.
    test_size : float, default=0.2
    random_state : int, default=0
        Seeds the stratified split and the classifiers' runs.
    n_jobs : int or None
        joblib workers.
    progress : bool, default=True
        Show a tqdm progress bar.

    Returns
    -------
    DiscardCurves
    """
    split = _make_split(X, y, categorical, test_size, random_state)
    steps = _steps(orders)
    subsets = sorted({kept for _, _, kept in steps}, key=lambda s: (-len(s), s))
    seeds = {
        name: [random_state + run for run in range(n_rf_runs if name == "random_forest" else 1)]
        for name in classifiers
    }
    tasks = [(kept, name) for kept in subsets for name in classifiers]
    blocks = [(split, kept, name, seeds[name]) for kept, name in tasks]
    scores = dict(
        zip(tasks, run_tasks(_run_block, blocks, "discard", n_jobs, progress), strict=True)
    )
    rows = [
        {
            "order": order,
            "classifier": name,
            "n_discarded": step,
            "n_kept": len(kept),
            "run": run,
            "f1": f1,
        }
        for order, step, kept in steps
        for name in classifiers
        for run, f1 in enumerate(scores[kept, name])
    ]
    return DiscardCurves(pd.DataFrame(rows))


def _make_split(X, y, categorical, test_size, random_state):
    """The stratified split, labels coded ``0, 1`` in sorted order, and its codes."""
    labels, y, counts = np.unique(np.asarray(y), return_inverse=True, return_counts=True)
    if labels.size != 2:
        raise ValueError(f"discard_curves needs two classes; got {labels.size}.")
    X_train, X_test, y_train, y_test = train_test_split(
        _string_categories(X, categorical),
        y,
        test_size=test_size,
        stratify=y,
        random_state=random_state,
    )
    categorical = np.asarray(categorical)
    codes = _forest_codes(X_train, X_test, categorical)
    return _Split(X_train, X_test, y_train, y_test, categorical, counts.argmin(), *codes)


def _string_categories(X, categorical):
    """Categorical columns as ``category`` dtype with string levels (XGBoost
    rejects floating-point category values)."""
    X = X.copy()
    for column in X.columns[np.asarray(categorical)]:
        X[column] = X[column].astype(str).astype("category")
    return X


def _steps(orders):
    """(order, number discarded, kept columns) for every point of every curve."""
    return [
        (name, step, tuple(sorted(int(i) for i in order[step:])))
        for name, order in orders.items()
        for step in range(len(order))
    ]
