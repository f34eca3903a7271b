"""Fisher distances: lengths of straight paths in the Fisher metric of labelled data
(the metric: :mod:`dimred.manifold.fisher_metric`).

Distances
---------
The Riemannian distance is approximated by the length of the straight path,
a ``T``-point quadrature of the line integral (the "T-point approximation" of
Peltonen et al. 2004, which ref. [5] takes over with ``T`` equidistant points):

.. math:: d_T(x_i, x_j) = \\sum_{t=1}^T \\sqrt{\\frac{1}{T^2} \\, v^T J(x_i + s_t v) \\, v},
          \\qquad v = x_j - x_i.

Peltonen et al. sum ``T`` one-point distances, each with ``J`` at the start of
its segment, ``s_t = (t - 1) / T`` (``rule="left"``: asymmetric, first-order
accurate in ``1/T``); the default ``rule="midpoint"`` takes ``s_t = (t - 1/2) / T``, which is
symmetric, ``d_T(x_i, x_j) = d_T(x_j, x_i)``, and second-order accurate. Both
converge to the same line integral as ``T`` grows (tested). ``T = 10``
(``n_steps``) by default. It is coarse at the leave-one-out width, where the
posterior turns sharply between classes: on 300 USPS digits ``d_10`` differs
from ``d_40`` by 5 % (median over pairs; 58 % at the 99th percentile). Time
grows linearly in ``T``; the benchmark reports the difference.

Two implementations
-------------------
:func:`fisher_distances` is the reference: every pair, every path point, the
Parzen scores over all ``N`` points in input coordinates, ``O(N^2 T N d)``.
:func:`fisher_neighbors` gives the sparse neighbour graph t-SNE needs, with
the same sums over all ``N`` points but two shortcuts, documented there: the
path points' Parzen weights from the ``N x N`` squared Euclidean distances
(``O(N)`` instead of ``O(N d)`` per path point, no score vectors) and Fisher
distances for Euclidean candidate pairs only. Its path sums run compiled
(:mod:`dimred.manifold.fisher_compiled`: two plain passes per chunk of pairs with
``np.exp`` between them), NumPy's passes (``_block_lengths``, the reference) to rounding
(``rtol=1e-10`` in ``tests/unit/test_fisher_tsne.py``; CONTRIBUTING.md, "One standard of
equality"); ``make bench`` times both.
"""

import numbers
from functools import partial

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.utils.validation import check_consistent_length

from ..utils.graphs import knn_distances
from . import fisher_compiled
from .fisher_metric import (
    _check_count,
    _check_data,
    _check_points,
    _check_sigma,
    _class_moments,
    _scores,
    check_partly_labelled,
    parzen_posterior,
    parzen_width,
    squared_distance_matrix,
)

__all__ = [
    "fisher_distances",
    "fisher_neighbors",
    "fisher_path_lengths",
    "path_fractions",
]

#: Path rules: fraction ``s_t`` of the way from ``x_i`` to ``x_j`` of each of the ``T`` points.
RULES = ("midpoint", "left")
#: Floats per working block (path points times data points).
_BLOCK = 2**21
#: Floats per block of the NumPy passes of :func:`fisher_neighbors`' path sums
#: (``_path_lengths(..., compiled=False)``; path points times pairs times Parzen
#: points): small enough for the block's arrays to stay in the CPU's cache. Each pair's
#: length is computed on its own row of the block, so the block size changes no value
#: (``tests/unit/test_fisher_tsne.py``).
_PATH_BLOCK = 2**18
#: Pairs per task of the compiled path lengths (``_path_lengths``), which chunk them
#: themselves (:data:`~dimred.manifold.fisher_compiled.CHUNK_FLOATS`).
_COMPILED_PAIRS = 2**12


# ---------------------------------------------------------------------- reference distances
def fisher_path_lengths(A, B, X, y, sigma, n_steps=10, rule="midpoint"):
    """``T``-point Fisher lengths of the straight paths from ``A[k]`` to ``B[k]``.

    The definition, evaluated directly: at each path point ``z_t = a + s_t
    (b - a)`` the Parzen scores ``g_c(z_t)`` over all of ``X`` (input
    coordinates), ``v^T J(z_t) v = sum_c p(c|z_t) (g_c . v)^2`` and
    ``d_T = (1/T) sum_t sqrt(v^T J(z_t) v)`` (module docstring).

    Parameters
    ----------
    A, B : array-like of shape (n_pairs, n_features)
        Start and end points (any points, not only data).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sigma : float
        Parzen width.
    n_steps : int, default=10
        ``T``.
    rule : {"midpoint", "left"}, default="midpoint"
        Where each of the ``T`` segments is evaluated (module docstring).

    Returns
    -------
    ndarray of shape (n_pairs,)

    Examples
    --------
    The data of :func:`~dimred.manifold.fisher_metric.parzen_posterior`: a path within
    class 0 is short, one across the border long (Euclidean lengths 1 and 4); more path
    points change it little.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import fisher_path_lengths
    >>> A, B = [[0.0], [0.0]], [[1.0], [4.0]]
    >>> fisher_path_lengths(A, B, X, y, sigma=1.0).round(2)
    array([0.42, 2.81])
    >>> fisher_path_lengths(A, B, X, y, sigma=1.0, n_steps=100).round(2)
    array([0.42, 2.8 ])
    """
    X, codes, n_classes = _check_data(X, y)
    A, B = _check_points(A, X), _check_points(B, X)
    check_consistent_length(A, B)
    sigma, fractions = _check_sigma(sigma), path_fractions(n_steps, rule)
    lengths = np.empty(A.shape[0])
    step = max(1, _BLOCK // (fractions.size * max(X.shape[0], n_classes * X.shape[1])))
    for start in range(0, A.shape[0], step):
        a, b = A[start : start + step], B[start : start + step]
        v = b - a
        Z = (a[:, None] + fractions[:, None] * v[:, None]).reshape(-1, X.shape[1])
        p, g = _scores(*_class_moments(Z, X, codes, n_classes, sigma), sigma)
        projections = np.einsum("pcd,pd->pc", g, np.repeat(v, fractions.size, axis=0))
        quadratic = np.sum(p * projections**2, axis=1).reshape(-1, fractions.size)
        lengths[start : start + step] = np.sqrt(quadratic).mean(axis=1)
    return lengths


def fisher_distances(X, y, sigma=None, n_steps=10, rule="midpoint", labelled=None):
    """All pairwise ``T``-point Fisher distances: the reference implementation.

    :func:`fisher_path_lengths` for every pair, ``O(N^2 T N d)`` time. With
    ``rule="midpoint"`` each pair is computed once and the matrix is
    symmetric; with ``"left"`` row ``i`` holds the paths starting at ``x_i``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sigma : float, optional
        Parzen width; default :func:`~dimred.manifold.fisher_metric.parzen_width`.
    n_steps : int, default=10
    rule : {"midpoint", "left"}, default="midpoint"
    labelled : array-like of bool of shape (n_samples,), optional
        Which labels the metric may use (:func:`fisher_neighbors`); default all.

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
        Zero diagonal.

    Examples
    --------
    The data of :func:`~dimred.manifold.fisher_metric.parzen_posterior`: points 1 and 2
    are Euclidean neighbours, but of different classes, and far apart in the Fisher metric.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import fisher_distances
    >>> fisher_distances(X, y, sigma=1.0).round(2)
    array([[0.  , 0.42, 2.39, 2.81],
           [0.42, 0.  , 1.97, 2.39],
           [2.39, 1.97, 0.  , 0.42],
           [2.81, 2.39, 0.42, 0.  ]])
    """
    X, labelled, _, codes = check_partly_labelled(X, y, labelled)
    path_fractions(n_steps, rule)  # validate before the work
    reference, ref_codes = X[labelled], codes[labelled]
    sigma = parzen_width(reference, ref_codes) if sigma is None else sigma
    n = X.shape[0]
    symmetric = rule == "midpoint"
    rows, cols = np.triu_indices(n, 1) if symmetric else np.nonzero(~np.eye(n, dtype=bool))
    distances = np.zeros((n, n))
    distances[rows, cols] = fisher_path_lengths(
        X[rows], X[cols], reference, ref_codes, sigma, n_steps, rule
    )
    if symmetric:
        distances[cols, rows] = distances[rows, cols]
    return distances


def path_fractions(n_steps, rule):
    """The fractions ``s_t`` of the way from ``x_i`` to ``x_j`` where ``J`` is evaluated.

    Parameters
    ----------
    n_steps : int
        ``T >= 1``.
    rule : {"midpoint", "left"}
        ``(t - 1/2) / T`` or ``(t - 1) / T``, ``t = 1..T``.

    Returns
    -------
    ndarray of shape (n_steps,)

    Examples
    --------
    >>> from dimred.manifold import path_fractions
    >>> path_fractions(4, "midpoint")
    array([0.125, 0.375, 0.625, 0.875])
    >>> path_fractions(4, "left")
    array([0.  , 0.25, 0.5 , 0.75])
    """
    if not isinstance(n_steps, numbers.Integral) or isinstance(n_steps, bool) or n_steps < 1:
        raise ValueError(f"n_steps={n_steps!r} must be a positive integer.")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}; got {rule!r}.")
    offset = 0.5 if rule == "midpoint" else 0.0
    return (np.arange(n_steps) + offset) / n_steps


# --------------------------------------------------------------------------- fast version
def fisher_neighbors(
    X,
    y,
    n_neighbors,
    *,
    labelled=None,
    sigma=None,
    n_steps=10,
    rule="midpoint",
    n_candidates=None,
    n_jobs=None,
):
    """Sparse graph of each point's ``n_neighbors`` nearest Fisher neighbours.

    What t-SNE needs (its Barnes-Hut version uses each point's ``3 *
    perplexity + 1`` nearest neighbours), from the same ``d_T`` as
    :func:`fisher_distances` but with two shortcuts:

    1. **No coordinates on the path.** For ``z = (1 - s) x_i + s x_j`` and any
       ``x_l``, ``||z - x_l||^2 = (1 - s) D_il + s D_jl - s (1 - s) D_ij`` with
       ``D`` the squared Euclidean distances, computed once (``N x N``, from
       coordinate differences). The last term is the same for every ``l`` and
       cancels in the Parzen posterior, so ``log w_l(z_s) = const + s (D_il -
       D_jl) / (2 sigma^2)`` -- linear in ``s`` with slope ``lambda_l`` -- and
       the quadratic form is a variance of the slopes:
       ``(m_c - m) . v / sigma^2 = d/ds log p(c|z_s) = E_c[lambda] - E[lambda]``
       (weighted means within class ``c`` and overall), ``v^T J v = sum_c
       p_c (E_c[lambda] - E[lambda])^2``. A path point costs ``O(N)`` (one
       exponential per data point, class sums over class-sorted columns)
       instead of ``O(N d)`` plus the ``C`` score vectors of length ``d``; the
       sums stay exact over all ``N`` points. Truncating them to the points
       near the path does not pay in high dimension: on 3,000 candidate pairs
       of 2,000 USPS digits (leave-one-out width), Parzen sums over the 256
       Euclidean neighbours of each end point changed ``d_T`` by up to 6 %
       (median 1e-4), and the bound on the neglected Parzen mass that such
       neighbourhoods certify exceeded 1e-6 for 96 % of the pairs.
    2. **Candidate pairs.** Fisher distances are computed only from each
       point to its ``n_candidates`` Euclidean nearest neighbours *of its own
       class* and to its ``n_candidates`` Euclidean nearest neighbours of any
       class (ties by index, :func:`~dimred.utils.graphs.knn_distances`), both
       ways (the ``midpoint`` rule is symmetric: each pair is computed once and
       is a candidate of both points). Why own-class first: along the path the
       metric is the Fisher-Rao metric of the posteriors, so the (continuous)
       length is at least their Fisher-Rao distance ``2 arccos sum_c
       sqrt(p_c(x_i) p_c(x_j))`` -- ``pi`` between points confidently of
       different classes -- while within a region of constant posterior it is
       near 0 whatever the Euclidean length: the Fisher neighbours are of the
       own class, but not the Euclidean-nearest ones. On 2,000 USPS digits
       (60 rows checked against all their exact distances) every point's 91
       nearest Fisher neighbours were of its own class; the default
       ``n_candidates = 2 n_neighbors`` (182) found 99.7 % of them, 136
       candidates 93 %, 91 candidates 78 %. Plain Euclidean candidates do
       worse for the same work (300 digits, 31 neighbours, 31 candidates: 60 %
       against 87 %). The overall Euclidean neighbours supply the other-class
       neighbours at class borders and in classes smaller than
       ``n_neighbors``. ``n_candidates = n_samples - 1`` gives the exact
       Fisher neighbours.

    The ``n_neighbors`` smallest Fisher distances of each row are kept, in
    increasing (Fisher distance, Euclidean distance, index) order.

    **Unlabelled points** (``labelled``, semi-supervised use): the metric is
    then learned from the labelled points alone -- the Parzen classifier, its
    width and the path sums use only them -- and is evaluated everywhere, so
    that points whose labels must not reach the metric (a test set) are
    embedded with the others without leaking their labels. An unlabelled
    point's own-class candidates are those of the class the Parzen
    classifier predicts for it (its largest posterior).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels; those of unlabelled points are ignored (any value).
    n_neighbors : int
        Neighbours per row, ``1 <= n_neighbors < n_samples``.
    labelled : array-like of bool of shape (n_samples,), optional
        Which labels the metric may use (at least two classes among them);
        default: every point's.
    sigma : float, optional
        Parzen width; default :func:`~dimred.manifold.fisher_metric.parzen_width`.
    n_steps : int, default=10
    rule : {"midpoint", "left"}, default="midpoint"
    n_candidates : int, optional
        Euclidean candidates per point, of its own class and of any class
        (clipped to what there is), at least ``n_neighbors``; default
        ``2 * n_neighbors``.
    n_jobs : int, optional
        Threads over blocks of pairs (joblib; ``None``: 1).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Row ``i`` stores ``i`` itself (an explicit 0) and its ``n_neighbors``
        nearest, increasing: the precomputed neighbour graph scikit-learn
        expects (as ``KNeighborsTransformer(mode="distance")``).

    Examples
    --------
    The data of :func:`~dimred.manifold.fisher_metric.parzen_posterior`: each row holds
    the point itself, then its nearest Fisher neighbour, of its own class.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> from dimred.manifold import fisher_neighbors
    >>> graph = fisher_neighbors(X, y, n_neighbors=1, sigma=1.0)
    >>> graph.indices.reshape(4, 2).tolist()
    [[0, 1], [1, 0], [2, 3], [3, 2]]
    >>> graph.data.reshape(4, 2).round(2)
    array([[0.  , 0.42],
           [0.  , 0.42],
           [0.  , 0.42],
           [0.  , 0.42]])
    """
    X, labelled, classes, codes = check_partly_labelled(X, y, labelled)
    n_classes = classes.size
    n = X.shape[0]
    n_neighbors = _check_count(n_neighbors, "n_neighbors", 1, n - 1)
    n_candidates = 2 * n_neighbors if n_candidates is None else n_candidates
    n_candidates = min(_check_count(n_candidates, "n_candidates", n_neighbors, None), n - 1)
    reference, ref_codes = X[labelled], codes[labelled]
    sigma = parzen_width(reference, ref_codes) if sigma is None else _check_sigma(sigma)
    fractions = path_fractions(n_steps, rule)
    groups = codes.copy()
    if not labelled.all():
        posterior = parzen_posterior(X[~labelled], reference, ref_codes, sigma)
        groups[~labelled] = np.argmax(posterior, axis=1)
    rows, cols = _candidate_pairs(X, groups, n_candidates, rule == "midpoint")
    squared = squared_distance_matrix(X)
    lengths = _path_lengths(
        squared[:, labelled], ref_codes, n_classes, sigma, fractions, rows, cols, n_jobs
    )
    if rule == "midpoint":
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
        lengths = np.concatenate([lengths, lengths])
    return _nearest_graph(rows, cols, lengths, squared[rows, cols], n_neighbors, n)


def _candidate_pairs(X, codes, n_candidates, symmetric):
    """Candidate pairs ``(i, j)`` (shortcut 2), directed, or each unordered pair once."""
    n = X.shape[0]
    _, overall = knn_distances(X, n_candidates)
    rows, cols = [np.repeat(np.arange(n), n_candidates)], [overall.ravel()]
    for c in range(codes.max() + 1):
        members = np.flatnonzero(codes == c)
        k = min(n_candidates, members.size - 1)
        if k > 0:
            _, within = knn_distances(X[members], k)
            rows.append(np.repeat(members, k))
            cols.append(members[within].ravel())
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    if symmetric:
        rows, cols = np.minimum(rows, cols), np.maximum(rows, cols)
    keys = np.unique(rows * n + cols)
    return keys // n, keys % n


def _path_lengths(squared, codes, n_classes, sigma, fractions, rows, cols, n_jobs, compiled=True):
    """``d_T`` of the pairs ``rows[k] -> cols[k]`` from squared distances (shortcut 1).

    ``squared`` holds the squared distances from every point (rows) to the
    Parzen points (columns, of classes ``codes``). The Parzen points are taken
    in class order, so that each class's sums are over a contiguous run of
    columns. ``compiled``: the mathematics of :func:`_block_lengths` in two compiled
    passes per chunk of pairs (:mod:`dimred.manifold.fisher_compiled`, the same values
    to rounding), else :func:`_block_lengths` itself on blocks of :data:`_PATH_BLOCK`
    floats. Blocks of pairs run on ``n_jobs`` threads.
    """
    order = np.argsort(codes, kind="stable")
    by_class = np.ascontiguousarray(squared[:, order])  # a pair's rows are read whole
    starts = np.searchsorted(codes[order], np.arange(n_classes))
    if compiled:
        step = _COMPILED_PAIRS
        task = partial(fisher_compiled.path_lengths, by_class, starts, sigma, fractions)
    else:
        step = max(1, _PATH_BLOCK // (fractions.size * squared.shape[0]))

        def task(rows, cols):
            return _block_lengths(by_class[rows], by_class[cols], starts, sigma, fractions)

    blocks = [slice(start, start + step) for start in range(0, rows.size, step)]
    parts = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(task)(rows[b], cols[b]) for b in blocks
    )
    return np.concatenate(parts) if parts else np.empty(0)


def _block_lengths(a, b, starts, sigma, fractions):
    """``d_T`` of the pairs whose squared distances to all points are the rows of ``a``, ``b``."""
    base = a / (-2 * sigma**2)  # log w_l at s = 0, up to a constant
    slope = (a - b) / (2 * sigma**2)  # d/ds log w_l
    logits = np.empty((fractions.size, *a.shape))
    np.multiply(fractions[:, None, None], slope, out=logits)
    logits += base
    logits -= logits.max(axis=2, keepdims=True)
    weights = np.exp(logits, out=logits)
    mass = np.add.reduceat(weights, starts, axis=2)  # (T, pairs, C)
    moment = np.add.reduceat(np.multiply(weights, slope, out=weights), starts, axis=2)
    total = mass.sum(axis=2, keepdims=True)
    p = mass / total
    deviation = moment / total - p * (moment.sum(axis=2, keepdims=True) / total)  # p_c (E_c - E)
    terms = np.divide(deviation**2, p, out=np.zeros_like(p), where=p > 0)
    return _mean_over_steps(np.sqrt(terms.sum(axis=2)))


def _mean_over_steps(values):
    """Mean over axis 0 of ``values`` (steps x pairs), the steps added in order,
    ``(v_0 + v_1) + v_2 ...``, for every block alike: ``np.mean`` may sum a single
    pair's column in another order, and a pair's length would then depend on the block
    it falls in (``tests/unit/test_fisher_tsne.py``)."""
    total = values[0].copy()
    for row in values[1:]:
        total += row
    return total / values.shape[0]


def _nearest_graph(rows, cols, lengths, euclidean, n_neighbors, n):
    """CSR graph: each point itself, then its first ``n_neighbors`` by (length, euclidean, col)."""
    order = np.lexsort((cols, euclidean, lengths, rows))
    starts = np.searchsorted(rows[order], np.arange(n))
    chosen = order[starts[:, None] + np.arange(n_neighbors)]
    indices = np.hstack([np.arange(n)[:, None], cols[chosen]]).ravel()
    data = np.hstack([np.zeros((n, 1)), lengths[chosen]]).ravel()
    indptr = np.arange(0, n * (n_neighbors + 1) + 1, n_neighbors + 1)
    return sp.csr_matrix((data, indices, indptr), shape=(n, n))
