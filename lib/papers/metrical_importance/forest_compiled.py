"""scikit-learn's best-split trees grown from class counts per feature value (numba).

scikit-learn's ``BestSplitter`` sorts the node's values of every feature it draws
(``simultaneous_sort``, ``O(m log m)`` for ``m`` samples) and scans the sorted values
for the best Gini split. The scan only needs, for each distinct value present in the
node, the weighted class counts of the samples with that value: with bootstrap counts
as weights every such count and every sum of them is an integer, exact in float64 in
any order, so neither the order of the samples nor that of the additions changes a
bit. :func:`grow_forest` therefore ranks every feature's values once per forest and,
at a node, counts the samples into one bin per rank, marking the ranks present in a
bitmap (``O(m + K / 64)`` for ``K`` ranks, :func:`_value_groups`); a node's class counts
and weight come from its parent's split. Everything else is scikit-learn 1.9's tree
builder, step for step:

- the splitter's ``rand_r`` generator (``sklearn/utils/_random.pxd``: xorshift 13, 17,
  5 on 32 bits, ``0`` replaced by ``1``, modulo ``2**31``), seeded per tree;
- the Fisher-Yates draw of up to ``max_features`` features with its bookkeeping of
  constant features, passed to both children (``node_split_best``);
- ties: a value within ``1e-7`` (in float32) of the previous one joins its group
  (``DensePartitioner.next_p``); a feature whose range is within ``1e-7`` is constant;
- the Gini proxy ``-w_R g_R - w_L g_L``, the first strict maximum in the order of the
  draws and of the values, the threshold ``v_left / 2 + v_right / 2`` in float64;
- a node is a leaf when it has one sample, its impurity is at most ``eps``, no split
  exists or the improvement plus ``eps`` is negative (``DepthFirstTreeBuilder``, left
  child first); a leaf's value is its class counts over its weight.

The helpers are inlined into :func:`grow_forest` (numba's ``inline="always"``): as
calls, the per-node and per-value ones spent a measurable share of the time passing
their arrays.

The test rows are sent down with the training samples while the tree grows, and each
tree's leaf values are added to their sums in tree order, as the forest's
``predict_proba`` adds its trees' predictions. ``tests/papers/test_forest.py`` compares the
result with scikit-learn's forest bit for bit (ties, ties that only float32 arithmetic
makes, constant columns, ``-0.0`` beside ``0.0``, three and five classes); ``make bench``
times both engines of :func:`~papers.metrical_importance.forest.forest_proba`
(``benchmark_forest``). It mirrors scikit-learn 1.9 and runs only there: ``forest.py``'s
version guard sends any other release to the public ``RandomForestClassifier``.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["grow_forest", "rank_values"]

#: ``FEATURE_THRESHOLD`` of scikit-learn's partitioner, a float32.
TIE = np.float32(1e-7)
#: ``np.finfo(float).eps``, the builder's ``EPSILON``.
EPSILON = np.finfo(np.float64).eps


def rank_values(X):
    """Each feature's distinct values, ascending, and every sample's rank among them.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32

    Returns
    -------
    values : ndarray of shape (n_features, max_distinct), float32
        Row ``f``: the distinct values of feature ``f``, then padding.
    ranks : ndarray of shape (n_features, n_samples), int64
        ``values[f, ranks[f, i]] == X[i, f]``.
    """
    columns = [np.unique(column, return_inverse=True) for column in X.T]
    values = np.zeros((X.shape[1], max(distinct.size for distinct, _ in columns)), dtype=np.float32)
    for f, (distinct, _) in enumerate(columns):
        values[f, : distinct.size] = distinct
    return values, np.array([inverse for _, inverse in columns], dtype=np.int64)


@njit(cache=True, inline="always")
def _rand_int(state, high):
    """``rand_int(0, high)`` of scikit-learn's splitter, advancing ``state[0]``."""
    s = state[0]
    if s == 0:
        s = 1
    s ^= (s << 13) & 0xFFFFFFFF
    s ^= s >> 17
    s ^= (s << 5) & 0xFFFFFFFF
    state[0] = s
    return (s % 2147483648) % high


@njit(cache=True, inline="always")
def _tied(column, low, high):
    """Whether rank ``high``'s value is within ``1e-7`` of rank ``low``'s, in float32
    (``next_p``'s tie and ``node_split_best``'s constant feature)."""
    return column[high] <= column[low] + TIE


@njit(cache=True, inline="always")
def _children_gini(totals, left, left_weight, right_weight):
    """``Gini.children_impurity``: the Gini index of the left counts and of the rest
    (``Gini.node_impurity`` when ``left`` is ``totals``)."""
    squares_left, squares_right = 0.0, 0.0
    for c in range(totals.size):
        squares_left += left[c] * left[c]
        right = totals[c] - left[c]
        squares_right += right * right
    gini_left = 0.0 + (1.0 - squares_left / (left_weight * left_weight))
    gini_right = 0.0 + (1.0 - squares_right / (right_weight * right_weight))
    return gini_left / 1.0, gini_right / 1.0


@njit(cache=True, inline="always")
def _value_groups(samples, start, end, rank, y, weights, bins, present, groups, counts):
    """Distinct ranks of one feature in ``samples[start:end]``, ascending, with their
    weighted class counts: ``groups[:k]`` and ``counts[:k]``; returns ``k``.

    The counts go into one bin per rank and a bit per rank marks the bins used, so
    that the scan skips 64 empty bins at a time: ``O(m + K / 64)`` for ``m`` samples
    and ``K`` ranks. Bins and bits are left at zero.
    """
    for p in range(start, end):
        i = samples[p]
        r = rank[i]
        bins[r, y[i]] += weights[i]
        present[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    k = 0
    for word in range(present.size):
        bits = present[word]
        present[word] = 0
        while bits:
            r = (word << 6) + np.int64(trailing_zeros(bits))
            bits &= bits - np.uint64(1)
            groups[k] = r
            for c in range(counts.shape[1]):
                counts[k, c] = np.float64(bins[r, c])
                bins[r, c] = 0
            k += 1
    return k


@njit(cache=True, inline="always")
def _best_cut(column, k, groups, counts, totals, weight, left, best, best_left):
    """The best split of one feature's groups (``node_split_best``'s scan): updates
    ``best`` (proxy, threshold, left weight) and ``best_left`` where it beats ``best[0]``;
    returns whether it did."""
    for c in range(totals.size):
        left[c] = 0.0
    left_weight, improved = 0.0, False
    for g in range(1, k):
        for c in range(totals.size):
            left[c] += counts[g - 1, c]
            left_weight += counts[g - 1, c]
        if _tied(column, groups[g - 1], groups[g]):
            continue
        right_weight = weight - left_weight
        gini_left, gini_right = _children_gini(totals, left, left_weight, right_weight)
        proxy = -right_weight * gini_right - left_weight * gini_left
        if proxy > best[0]:
            best[0] = proxy
            best[1] = np.float64(column[groups[g - 1]]) / 2.0 + np.float64(column[groups[g]]) / 2.0
            best[2] = left_weight
            for c in range(totals.size):
                best_left[c] = left[c]
            improved = True
    return improved


@njit(cache=True, inline="always")
def _node_split(samples, start, end, totals, weight, n_known, draws, data, work):
    """``node_split_best`` on one node: the best feature (``-1`` when no split exists),
    its threshold and left weight (``best_left``: its class counts), and the number of
    constant features known to the children."""
    features, constants, state, max_features = draws
    values, ranks, y, weights = data
    bins, present, groups, counts, left, best, best_left = work
    best[0] = -np.inf
    f_i, n_visited, n_found, n_drawn, n_total = features.size, 0, 0, 0, n_known
    best_feature = -1
    while f_i > n_total and (n_visited < max_features or n_visited <= n_found + n_drawn):
        n_visited += 1
        f_j = n_drawn + _rand_int(state, f_i - n_found - n_drawn)
        if f_j < n_known:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            n_drawn += 1
            continue
        f_j += n_found
        f = features[f_j]
        k = _value_groups(samples, start, end, ranks[f], y, weights, bins, present, groups, counts)
        column = values[f]
        if _tied(column, groups[0], groups[k - 1]):
            features[f_j], features[n_total] = features[n_total], features[f_j]
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        if _best_cut(column, k, groups, counts, totals, weight, left, best, best_left):
            best_feature = f
    features[:n_known] = constants[:n_known]
    constants[n_known:n_total] = features[n_known:n_total]
    return best_feature, best[1], best[2], n_total


@njit(cache=True, inline="always")
def _partition(rows, start, end, X, feature, threshold):
    """Rows of ``rows[start:end]`` with ``X[row, feature] <= threshold`` first; returns
    where the others begin."""
    middle = start
    for p in range(start, end):
        if np.float64(X[rows[p], feature]) <= threshold:
            rows[middle], rows[p] = rows[p], rows[middle]
            middle += 1
    return middle


@njit(cache=True)
def _grow_tree(X, data, n_classes, weights, seed, max_features, X_test, proba):
    """Grow one tree (``DepthFirstTreeBuilder``) and add its leaf values to ``proba``."""
    values, y = data[0], data[2]
    samples = np.flatnonzero(weights > 0.0)
    m = samples.size
    total_weight = 0.0
    for i in range(weights.size):
        total_weight += weights[i]
    tests = np.arange(X_test.shape[0])
    draws = (
        np.arange(X.shape[1]),
        np.zeros(X.shape[1], dtype=np.int64),
        np.array([seed]),
        max_features,
    )
    best_left = np.zeros(n_classes)
    work = (
        np.zeros((values.shape[1], n_classes), dtype=np.int64),
        np.zeros((values.shape[1] + 63) // 64, dtype=np.uint64),
        np.zeros(m, dtype=np.int64),
        np.zeros((m, n_classes)),
        np.zeros(n_classes),
        np.zeros(3),
        best_left,
    )
    tree_data = (values, data[1], y, weights.astype(np.int64))
    # the stack: (start, end, test start, test end, known constants), and the node's
    # impurity and class counts (the parent's split computed them; their sum is its weight)
    stack = np.zeros((m + 1, 5), dtype=np.int64)
    impurities, totals = np.zeros(m + 1), np.zeros((m + 1, n_classes))
    node_totals, right_totals = np.zeros(n_classes), np.zeros(n_classes)
    for p in range(m):
        totals[0, y[samples[p]]] += weights[samples[p]]
    stack[0, 1], stack[0, 3] = m, tests.size
    top, first = 1, True
    while top > 0:
        top -= 1
        start, end, test_start, test_end, n_known = stack[top]
        impurity, weight = impurities[top], 0.0
        for c in range(n_classes):
            node_totals[c] = totals[top, c]
            weight += node_totals[c]
        if first:
            impurity = _children_gini(node_totals, node_totals, weight, weight)[0]
            first = False
        feature = -1
        if end - start >= 2 and impurity > EPSILON:
            feature, threshold, left_weight, n_known = _node_split(
                samples, start, end, node_totals, weight, n_known, draws, tree_data, work
            )
        if feature >= 0:
            right_weight = weight - left_weight
            impurity_left, impurity_right = _children_gini(
                node_totals, best_left, left_weight, right_weight
            )
            improvement = (weight / total_weight) * (
                impurity
                - right_weight / weight * impurity_right
                - left_weight / weight * impurity_left
            )
            if improvement + EPSILON < 0.0:
                feature = -1
        if feature < 0:
            for p in range(test_start, test_end):
                for c in range(n_classes):
                    proba[tests[p], c] += node_totals[c] / weight
            continue
        middle = _partition(samples, start, end, X, feature, threshold)
        test_middle = _partition(tests, test_start, test_end, X_test, feature, threshold)
        for c in range(n_classes):
            right_totals[c] = node_totals[c] - best_left[c]
        node = (middle, end, test_middle, test_end, n_known)
        _push(stack, impurities, totals, top, node, impurity_right, right_totals)
        node = (start, middle, test_start, test_middle, n_known)
        _push(stack, impurities, totals, top + 1, node, impurity_left, best_left)
        top += 2


@njit(cache=True, inline="always")
def _push(stack, impurities, totals, top, node, impurity, counts):
    """Put a node (start, end, test start, test end, known constants), its impurity and
    its class counts at position ``top`` of :func:`_grow_tree`'s stack."""
    for j in range(5):
        stack[top, j] = node[j]
    impurities[top] = impurity
    for c in range(counts.size):
        totals[top, c] = counts[c]


@njit(cache=True)
def grow_forest(X, ranked, y, n_classes, weights, seeds, max_features, X_test):
    """Sum over trees of the leaf values reached by ``X_test``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32
    ranked : tuple
        :func:`rank_values` of ``X``.
    y : ndarray of shape (n_samples,), int64
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    weights : ndarray of shape (n_trees, n_samples), float64
        Each tree's bootstrap counts.
    seeds : ndarray of shape (n_trees,), int64
        Each tree's splitter seed (``rand_r_state``).
    max_features : int
    X_test : ndarray of shape (n_test, n_features), float32

    Returns
    -------
    ndarray of shape (n_test, n_classes)
        The trees' class frequencies at the leaves, added in tree order.
    """
    proba = np.zeros((X_test.shape[0], n_classes))
    data = (ranked[0], ranked[1], y)
    for t in range(seeds.size):
        _grow_tree(X, data, n_classes, weights[t], seeds[t], max_features, X_test, proba)
    return proba
