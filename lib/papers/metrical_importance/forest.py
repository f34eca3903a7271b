"""A random forest's class probabilities without scikit-learn's per-tree overhead.

``RandomForestClassifier(random_state=seed, n_jobs=1).fit(X, y).predict_proba(X_test)``
does work per tree outside its Cython tree builder: a clone of the tree estimator with
a parameter round trip (``get_params``/``set_params``), two fresh ``RandomState``
objects, the tree's target checks (``check_classification_targets``, ``np.unique``),
``_check_sample_weight`` and one joblib dispatch per tree, fitting and predicting. On
data sets of a few hundred rows that outweighs building the tree, and the
metrical-importance paper's discard curves fit tens of thousands of forests (``make
bench``: ``figures/metrical_importance/benchmark_forest.md`` times both).

:func:`forest_proba` grows the same trees from the same random draws, in the order
the forest makes them:

1. the forest's ``RandomState(random_state)`` draws one seed per tree,
   ``randint(2**31 - 1)`` (``sklearn.ensemble._base._set_random_states``);
2. the bootstrap sample of a tree is ``RandomState(tree_seed).randint(0, n, n)``, given
   to the tree as counts (``_parallel_build_trees``);
3. the tree's splitter is seeded by another ``RandomState(tree_seed)`` (the tree's own
   ``check_random_state``), from which it draws its ``rand_r`` seed,
   ``randint(0, 2**31 - 1)``; one re-seeded ``RandomState`` stands for both;
4. the class probabilities of the trees are summed in tree order and divided by the
   number of trees (``ForestClassifier.predict_proba`` with one job).

Two engines grow them. ``engine="scikit-learn"`` calls scikit-learn's Cython objects
(``Gini``, ``BestSplitter``, ``DepthFirstTreeBuilder``) once per tree.
``engine="compiled"``, the default, grows all the trees in one compiled call
(:mod:`.forest_compiled`): scikit-learn's algorithm with class counts per feature value
in place of the sort of each node's values, about twice as fast on the discard
curves' data (``make bench``: ``benchmark_forest``'s ``compiled_ratio``).

The default forest is the one reproduced: Gini criterion, ``max_features="sqrt"``,
bootstrap, fully grown trees. Both engines' probabilities equal scikit-learn's bit for
bit: ``tests/papers/test_forest.py`` compares them on synthetic data (tied values, ties
within scikit-learn's ``1e-7``, constant columns, three and five classes, one
feature), ``tests/papers/test_discard.py`` the curves' F1 on a mixed frame, and ``make
bench`` on the paper's three data sets (``benchmark_forest``'s ``max_abs_difference``
and ``scikit_learn_engine_max_abs_difference``, which
``tests/integration/test_notebook_metrical_importance.py`` requires to be 0).

Version guard
-------------
Both engines build on scikit-learn :data:`MIRRORED`'s tree builder: its private
classes (``sklearn.tree._criterion``, ``_splitter``, ``_tree``), or its algorithm and
its ``rand_r`` stream. They run only on that release series. On any other
scikit-learn :func:`forest_proba` warns once (a ``UserWarning`` naming the installed
version and the fallback) and returns the public
``RandomForestClassifier(n_estimators, random_state=seed, n_jobs=1)``'s
``predict_proba``: the probabilities these engines reproduce, by the public path,
slower (``tests/papers/test_forest.py`` fakes the version). What the engines buy is speed
only: on the discard curves' forests the fallback took 4–13× as long as the compiled
engine (bank 3.9×, australian 7.5×, heart 13×, median over 5 seeds on 2 shared cores);
``make bench`` times it beside them (``benchmark_forest``'s ``public_forest_s`` and
``fallback_ratio``, the fallback's time over the compiled engine's).
"""

import warnings
from numbers import Integral

import numpy as np
import sklearn
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils._param_validation import Interval, StrOptions, validate_params
from sklearn.utils.validation import check_array, check_X_y

try:  # scikit-learn's private tree builder: only its MIRRORED release is used
    from sklearn.tree._criterion import Gini
    from sklearn.tree._splitter import BestSplitter
    from sklearn.tree._tree import DepthFirstTreeBuilder, Tree
except ImportError:  # another release: forest_proba falls back to the public forest
    Gini = BestSplitter = DepthFirstTreeBuilder = Tree = None

from .forest_compiled import grow_forest, rank_values

__all__ = ["ENGINES", "MIRRORED", "forest_proba"]

#: Bound of the seeds the forest draws for its trees, and the trees' unbounded depth.
MAX_INT = np.iinfo(np.int32).max
#: The scikit-learn release series (``major.minor``) whose tree builder both engines
#: mirror; on any other :func:`forest_proba` uses the public forest (module docstring).
MIRRORED = "1.9"
#: Whether the fallback to the public forest has been announced in this process.
_fallback_warned = False


#: How :func:`forest_proba` grows the trees.
ENGINES = ("compiled", "scikit-learn")


@validate_params(
    {
        "X": "no_validation",
        "y": "no_validation",
        "X_test": "no_validation",
        "random_state": [Interval(Integral, 0, 2**32 - 1, closed="both")],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "engine": [StrOptions(set(ENGINES))],
    },
    prefer_skip_nested_validation=True,
)
def forest_proba(X, y, X_test, random_state, n_estimators=100, engine="compiled"):
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
        The forest's seed, in ``[0, 2**32 - 1]`` (an integer: the result is a function of it).
    n_estimators : int, default=100
        Number of trees (scikit-learn's default).
    engine : {"compiled", "scikit-learn"}, default="compiled"
        ``"scikit-learn"`` grows the trees with scikit-learn's Cython objects;
        ``"compiled"`` with :func:`~papers.metrical_importance.forest_compiled.grow_forest`, which
        scans class counts per feature value instead of sorting the node's values:
        the same trees, bit for bit, about twice as fast on the discard curves' data.
        Both only on scikit-learn :data:`MIRRORED`; on another release the public
        ``RandomForestClassifier`` instead, with a warning (once per process).

    Returns
    -------
    proba : ndarray of shape (n_test, n_classes)
        Mean of the trees' class frequencies at the leaves, columns in the order of
        ``np.unique(y)``: equal, bit for bit, to the forest's ``predict_proba``.
    """
    X, y = check_X_y(X, y, dtype=np.float32)
    X_test = check_array(X_test, dtype=np.float32)
    if X_test.shape[1] != X.shape[1]:
        raise ValueError(f"X_test has {X_test.shape[1]} features; X has {X.shape[1]}.")
    if not _mirrors_installed():
        return _public_forest(X, y, X_test, random_state, n_estimators)
    classes, codes = np.unique(y, return_inverse=True)
    max_features = max(1, int(np.sqrt(X.shape[1])))
    seeds, weights = _tree_draws(random_state, X.shape[0], n_estimators)
    grow = _compiled_trees if engine == "compiled" else _scikit_learn_trees
    return grow(X, codes, classes.size, X_test, seeds, weights, max_features) / n_estimators


def _mirrors_installed():
    """Whether the installed scikit-learn is of the :data:`MIRRORED` series (and its
    private tree builder imported); if not, warn once per process."""
    global _fallback_warned
    version = sklearn.__version__
    if version.split(".")[:2] == MIRRORED.split(".") and Tree is not None:
        return True
    if not _fallback_warned:
        _fallback_warned = True
        warnings.warn(
            f"forest_proba: its engines mirror scikit-learn {MIRRORED}'s tree builder, and "
            f"scikit-learn {version} is installed; using the public RandomForestClassifier "
            "instead (the same probabilities, slower).",
            UserWarning,
            stacklevel=3,
        )
    return False


def _public_forest(X, y, X_test, random_state, n_estimators):
    """The probabilities the engines reproduce, by the public path:
    ``RandomForestClassifier(n_estimators, random_state, n_jobs=1)``."""
    forest = RandomForestClassifier(n_estimators, random_state=random_state, n_jobs=1)
    return forest.fit(X, y).predict_proba(X_test)


def _tree_draws(random_state, n_samples, n_estimators):
    """Each tree's seed and bootstrap counts, drawn as the forest draws them (steps 1
    and 2 of the module docstring)."""
    tree_seeds = np.random.RandomState(random_state)
    tree_state = np.random.RandomState(0)  # re-seeded for every tree
    seeds = np.array([tree_seeds.randint(MAX_INT) for _ in range(n_estimators)], dtype=np.int64)
    weights = np.zeros((n_estimators, n_samples))
    for seed, tree_weights in zip(seeds, weights, strict=True):
        tree_state.seed(seed)
        tree_weights[:] = np.bincount(
            tree_state.randint(0, n_samples, n_samples), minlength=n_samples
        )
    return seeds, weights


def _scikit_learn_trees(X, codes, n_classes, X_test, seeds, weights, max_features):
    """Sum of the trees' leaf values, grown by scikit-learn's Cython tree builder."""
    targets = np.ascontiguousarray(codes.reshape(-1, 1), dtype=np.float64)
    classes = np.array([n_classes], dtype=np.intp)
    proba = np.zeros((X_test.shape[0], n_classes))
    tree_state = np.random.RandomState(0)
    for seed, tree_weights in zip(seeds, weights, strict=True):
        tree_state.seed(seed)  # the splitter draws its rand_r seed from it
        splitter = BestSplitter(Gini(1, classes), max_features, 1, 0.0, tree_state, None)
        tree = Tree(X.shape[1], classes, 1)
        DepthFirstTreeBuilder(splitter, 2, 1, 0.0, MAX_INT, 0.0).build(
            tree, X, targets, tree_weights, None
        )
        proba += tree.predict(X_test)[:, :n_classes]
    return proba


def _compiled_trees(X, codes, n_classes, X_test, seeds, weights, max_features):
    """Sum of the trees' leaf values, grown by :func:`~.forest_compiled.grow_forest`
    with the ``rand_r`` seed each tree's ``BestSplitter`` draws (step 3)."""
    tree_state = np.random.RandomState(0)
    splitter_seeds = np.zeros_like(seeds)
    for t, seed in enumerate(seeds):
        tree_state.seed(seed)
        splitter_seeds[t] = tree_state.randint(0, MAX_INT)
    return grow_forest(
        X,
        rank_values(X),
        codes.astype(np.int64),
        n_classes,
        weights,
        splitter_seeds,
        max_features,
        X_test,
    )
