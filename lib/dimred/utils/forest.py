"""A random forest's class probabilities without scikit-learn's per-tree overhead.

``RandomForestClassifier(random_state=seed, n_jobs=1).fit(X, y).predict_proba(X_test)``
does work per tree outside its Cython tree builder: a clone of the tree estimator with
a parameter round trip (``get_params``/``set_params``), two fresh ``RandomState``
objects, the tree's target checks (``check_classification_targets``, ``np.unique``),
``_check_sample_weight`` and one joblib dispatch per tree, fitting and predicting. On
data sets of a few hundred rows that outweighs building the tree, and the
metrical-importance paper's discard curves fit tens of thousands of forests (``make
bench``: ``figures/metrical_importance/benchmark_forest.md`` times both).

:func:`forest_proba` grows the same trees with the same Cython objects
(``Gini``, ``BestSplitter``, ``DepthFirstTreeBuilder``) and the same random draws,
in the order the forest makes them:

1. the forest's ``RandomState(random_state)`` draws one seed per tree,
   ``randint(2**31 - 1)`` (``sklearn.ensemble._base._set_random_states``);
2. the bootstrap sample of a tree is ``RandomState(tree_seed).randint(0, n, n)``, given
   to the tree as counts (``_parallel_build_trees``);
3. the tree's splitter is seeded by another ``RandomState(tree_seed)`` (the tree's own
   ``check_random_state``); one re-seeded ``RandomState`` stands for both;
4. the class probabilities of the trees are summed in tree order and divided by the
   number of trees (``ForestClassifier.predict_proba`` with one job).

The default forest is the one reproduced: Gini criterion, ``max_features="sqrt"``,
bootstrap, fully grown trees. The probabilities equal scikit-learn's bit for bit:
``tests/test_forest.py`` compares them on synthetic data (tied values, three classes,
one feature), ``tests/test_discard.py`` the curves' F1 on a mixed frame, and ``make
bench`` on the paper's three data sets (``benchmark_forest``'s ``max_abs_difference``,
which ``tests/test_notebook_metrical_importance.py`` requires to be 0). The module
builds on scikit-learn's private tree classes, so these tests guard any scikit-learn
version other than the pinned one.
"""

import numpy as np
from sklearn.tree._criterion import Gini
from sklearn.tree._splitter import BestSplitter
from sklearn.tree._tree import DepthFirstTreeBuilder, Tree
from sklearn.utils.validation import check_array, check_X_y

__all__ = ["forest_proba"]

#: Bound of the seeds the forest draws for its trees, and the trees' unbounded depth.
MAX_INT = np.iinfo(np.int32).max


def forest_proba(X, y, X_test, random_state, n_estimators=100):
    """Class probabilities of ``RandomForestClassifier(random_state, n_jobs=1)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training features, finite (scikit-learn's forest sends missing values down
        a learned side of each split; this function does not).
    y : array-like of shape (n_samples,)
        Class labels.
    X_test : array-like of shape (n_test, n_features)
        Rows to predict.
    random_state : int
        The forest's seed (an integer: the result is a function of it).
    n_estimators : int, default=100
        Number of trees (scikit-learn's default).

    Returns
    -------
    proba : ndarray of shape (n_test, n_classes)
        Mean of the trees' class frequencies at the leaves, columns in the order of
        ``np.unique(y)``: equal, bit for bit, to the forest's ``predict_proba``.
    """
    if not isinstance(n_estimators, int | np.integer) or n_estimators < 1:
        raise ValueError(f"n_estimators must be a positive integer; got {n_estimators!r}.")
    if not isinstance(random_state, int | np.integer):
        raise ValueError(f"random_state must be an integer seed; got {random_state!r}.")
    X, y = check_X_y(X, y, dtype=np.float32)
    X_test = check_array(X_test, dtype=np.float32)
    if X_test.shape[1] != X.shape[1]:
        raise ValueError(f"X_test has {X_test.shape[1]} features; X has {X.shape[1]}.")
    classes, codes = np.unique(y, return_inverse=True)
    targets = np.ascontiguousarray(codes.reshape(-1, 1), dtype=np.float64)
    n_samples, n_features = X.shape
    n_classes = np.array([classes.size], dtype=np.intp)
    max_features = max(1, int(np.sqrt(n_features)))
    tree_seeds = np.random.RandomState(random_state)
    tree_state = np.random.RandomState(0)  # re-seeded for every tree
    proba = np.zeros((X_test.shape[0], classes.size))
    for _ in range(n_estimators):
        seed = tree_seeds.randint(MAX_INT)
        tree_state.seed(seed)
        sample = tree_state.randint(0, n_samples, n_samples).astype(np.int32)
        weights = np.bincount(sample, minlength=n_samples).astype(np.float64)
        tree_state.seed(seed)  # the splitter draws from it when the build starts
        splitter = BestSplitter(Gini(1, n_classes), max_features, 1, 0.0, tree_state, None)
        tree = Tree(n_features, n_classes, 1)
        DepthFirstTreeBuilder(splitter, 2, 1, 0.0, MAX_INT, 0.0).build(
            tree, X, targets, weights, None
        )
        proba += tree.predict(X_test)[:, : classes.size]
    return proba / n_estimators
