"""PCA, SMACOF MDS and t-SNE maps whose numbers do not depend on the BLAS kernel.

scikit-learn's ``PCA``, ``MDS(init="classical_mds")`` and ``TSNE(init="pca")`` give
maps that move with the OpenBLAS kernel in two ways, both measured by
``scripts/verify_determinism.py`` on the cross-paper benchmark:

1. **Repeated variances.** The one-hot columns of a full factorial design (car,
   contact-lenses) give covariance eigenvalues repeated up to six times; every basis
   of such an eigenspace is principal, and LAPACK returns one that rounding chooses.
   The PCA map and the classical-MDS start of SMACOF then rotate from one kernel to
   another.
2. **Chaotic optimisers.** t-SNE amplifies a last-bit difference of its input
   affinities or of its start into a different map.

The maps here are the same algorithms with inputs that are a function of the data
(and of a seed) alone:

- :func:`pca_map` projects on :func:`~dimred.utils.linalg.principal_axes`, which
  resolves a repeated variance by a rotation drawn from a fixed seed,
  :data:`TIE_SEED` (a basis in general position: the basis that follows the input
  axes stacks car's 1,728 points on 3 locations, a general one on 27);
- SMACOF starts from that map, each point moved by :data:`START_JITTER` of its
  spread in a direction drawn from a hash of the point's features (so the start does
  not depend on the row order), rounded to a power-of-two grid of
  :data:`START_RTOL` times its largest magnitude (:func:`on_grid`): rounding noise
  (about 1e-16 of the scale) cannot move it, except for a coordinate that lies
  within that noise of a grid point. The jitter breaks the start's symmetries: on
  car and contact-lenses the PCA map stacks the points on 27 and 3 locations, and
  SMACOF's BLAS products broke those ties differently under every OpenBLAS kernel
  (R_NX AUC up to 0.074 apart); from the jittered start the maps agree to 1e-10;
- :func:`tsne_map` runs scikit-learn's Barnes-Hut t-SNE from a seeded random start
  through :func:`exact_tsne`: on the ``3 perplexity + 1`` nearest neighbours of
  :func:`~dimred.utils.graphs.knn_distances` (distances from the differences, ties
  to the first in a seeded order), not on neighbours from the norm expansion; its
  gradient code uses no BLAS. :func:`exact_tsne` takes any start and any of
  ``TSNE``'s parameters (the AwA2 survey's t-SNE is scikit-learn 0.22's, from PCA);
- :func:`smacof_map` runs scikit-learn's metric SMACOF on distances computed
  from the differences (``scipy.spatial.distance.pdist``).

With the same start and affinities, Barnes-Hut t-SNE repeats the same arithmetic and
gives the same map (on a machine with the same number of threads: its normalisation
is an OpenMP sum); SMACOF's iterations still multiply through the BLAS, so its maps
agree to rounding, which the tie grid of the co-ranking measures absorbs.
"""

import hashlib

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import pdist, squareform
from sklearn.manifold import MDS, TSNE
from sklearn.neighbors import sort_graph_by_row_values

from dimred.utils.graphs import knn_distances
from dimred.utils.linalg import principal_axes

__all__ = [
    "START_JITTER",
    "START_RTOL",
    "TIE_SEED",
    "exact_tsne",
    "on_common_grid",
    "on_grid",
    "pca_map",
    "smacof_map",
    "tsne_map",
]

#: Seed of the rotation that picks a basis of a repeated variance (:func:`pca_map`).
TIE_SEED = 0
#: Grid of the starts, relative to their largest magnitude.
START_RTOL = 1e-6
#: SMACOF's start: each point moved by this fraction of the PCA map's spread.
START_JITTER = 1e-3


def on_grid(Y, rtol=START_RTOL, largest=None):
    """``Y`` rounded to the power of two at or below ``rtol`` times its largest magnitude.

    Parameters
    ----------
    Y : ndarray
    rtol : float, default=START_RTOL
    largest : float, optional
        The magnitude the grid is relative to, when it is not ``Y``'s own
        (:func:`on_common_grid`).

    Returns
    -------
    ndarray
        Multiples of the grid (exact: the grid is a power of two).
    """
    if largest is None:
        largest = np.abs(Y).max(initial=0.0)
    if largest == 0:
        return np.array(Y, dtype=float)
    unit = np.ldexp(1.0, int(np.floor(np.log2(rtol * largest))))
    return np.round(Y / unit) * unit


def on_common_grid(arrays, rtol=START_RTOL):
    """Each of ``arrays`` on the :func:`on_grid` of the largest magnitude of them all (a
    training and a test part on one grid, as if they were one array).

    Parameters
    ----------
    arrays : sequence of ndarray
    rtol : float, default=START_RTOL

    Returns
    -------
    tuple of ndarray
    """
    largest = max(np.abs(a).max(initial=0.0) for a in arrays)
    return tuple(on_grid(a, rtol, largest) for a in arrays)


def pca_map(X, n_components=2):
    """Principal component scores on :func:`~dimred.utils.linalg.principal_axes`, a
    repeated variance resolved by :data:`TIE_SEED`.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_components : int, default=2

    Returns
    -------
    ndarray of shape (n_samples, n_components)
    """
    X = np.asarray(X, dtype=float)
    _, axes = principal_axes(X, n_components, random_state=TIE_SEED)
    return (X - X.mean(axis=0)) @ axes


def smacof_map(X, n_components=2):
    """Metric SMACOF MDS (scikit-learn's, its defaults) from the classical solution.

    The classical MDS of Euclidean distances is the PCA map (Torgerson; see
    :mod:`dimred.manifold.classical_mds`): the start is :func:`pca_map`, each point
    moved by :data:`START_JITTER` of its spread (:func:`_point_noise`), on
    :func:`on_grid`; the dissimilarities are computed from the differences.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_components : int, default=2

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        SMACOF from a given start draws nothing: no seed.
    """
    X = np.asarray(X, dtype=float)
    distances = squareform(pdist(X))
    start = pca_map(X, n_components)
    start = on_grid(start + START_JITTER * start.std() * _point_noise(X, n_components))
    mds = MDS(n_components, n_init=1, init="classical_mds", metric="precomputed")
    return mds.fit_transform(distances, init=start)


def _point_noise(X, n_components):
    """Standard normal draws, one row per point, seeded by a hash (SHA-256) of the
    point's features on :func:`on_grid` (``-0.0`` read as ``0.0``): the same for a
    point wherever it stands in ``X`` and whatever rounding noise it carries."""
    digests = (hashlib.sha256(row.tobytes()).digest() for row in on_grid(X) + 0.0)
    seeds = (int.from_bytes(digest[:8], "little") for digest in digests)
    return np.array([np.random.default_rng(s).standard_normal(n_components) for s in seeds])


def tsne_map(X, perplexity=30.0, random_state=None, n_components=2):
    """Barnes-Hut t-SNE (scikit-learn's, its defaults) from a seeded random start.

    As ``TSNE(init="random", method="barnes_hut")``, the start scikit-learn's
    (Gaussian, standard deviation 1e-4, drawn from ``random_state`` by numpy: the
    same on any machine) and :class:`~dimred.manifold.FisherTSNE`'s, so that the two
    differ only in their distances, which come from :func:`exact_tsne`.

    Not from PCA: where the leading variances are repeated, every PCA start of car's
    one-hot full factorial design stacks its 1,728 points on 27 locations, and
    Barnes-Hut t-SNE from there collapses (scikit-learn's ``init="pca"`` ends with
    a spread of 1e-13 and a negative KL divergence; ``tests/papers/test_stable_maps.py``).

    Parameters
    ----------
    X, perplexity, random_state
        As :func:`exact_tsne`; ``random_state`` also draws the start.
    n_components : int, default=2

    Returns
    -------
    ndarray of shape (n_samples, n_components) of float32
    """
    return exact_tsne(X, perplexity, random_state, n_components=n_components)


def exact_tsne(X, perplexity=30.0, random_state=None, init="random", **params):
    """scikit-learn's ``TSNE`` on distances computed from the coordinate differences.

    ``TSNE(perplexity=perplexity, init=init, random_state=random_state, **params)``
    fitted on precomputed distances instead of its own (scikit-learn squares them, as
    it squares its Euclidean ones):

    - Barnes-Hut (the default ``method``): the ``min(n - 1, 3 perplexity + 1)``
      nearest neighbours of :func:`~dimred.utils.graphs.knn_distances`, not the
      neighbours of scikit-learn's norm expansion, whose rounding reorders
      near-tied neighbours from one BLAS kernel to another;
    - exact: every distance, by ``scipy.spatial.distance.pdist``.

    The points are taken in an order drawn from ``random_state`` (the map is
    returned in the given order): neighbours tied in distance go to the first in
    that order, not to the lowest row index of the file, which made the first rows
    of car's tied design hubs of every neighbourhood, and Barnes-Hut t-SNE
    collapsed from one of ten seeds. A start given as an array is in the given
    order, and is best on :func:`on_grid`: its rounding noise then cannot reach the
    map. Barnes-Hut's gradient uses no BLAS, so equal distances and start give the
    same map (on a machine with the same number of threads: its normalisation is an
    OpenMP sum); the exact gradient multiplies through the BLAS.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    perplexity : float, default=30.0
        Less than ``n_samples``.
    random_state : int, optional
        Seeds the order of the points, and the start when ``init="random"``.
    init : {"random"} or ndarray of shape (n_samples, n_components), default="random"
    **params
        Further parameters of ``TSNE`` (not ``metric``).

    Returns
    -------
    ndarray of shape (n_samples, n_components) of float32
    """
    X = np.asarray(X, dtype=float)
    n_samples = X.shape[0]
    order = np.random.default_rng(random_state).permutation(n_samples)
    if not isinstance(init, str):
        init = np.asarray(init)[order]
    if params.get("method", "barnes_hut") == "exact":
        distances = squareform(pdist(X[order]))
    else:
        distances = _neighbour_graph(X[order], min(n_samples - 1, int(3.0 * perplexity + 1)))
    tsne = TSNE(
        perplexity=perplexity,
        metric="precomputed",
        init=init,
        random_state=random_state,
        **params,
    )
    return tsne.fit_transform(distances)[np.argsort(order)]


def _neighbour_graph(X, k):
    """Each point at distance 0 from itself and its ``k`` nearest
    (:func:`~dimred.utils.graphs.knn_distances`), as a CSR graph sorted by distance
    (scikit-learn's neighbour query on a precomputed graph drops the point itself)."""
    n_samples = X.shape[0]
    distances, indices = knn_distances(X, k)
    distances = np.column_stack([np.zeros(n_samples), distances])
    indices = np.column_stack([np.arange(n_samples), indices])
    graph = sp.csr_matrix(
        (distances.ravel(), indices.ravel(), np.arange(0, n_samples * (k + 1) + 1, k + 1)),
        shape=(n_samples, n_samples),
    )
    return sort_graph_by_row_values(graph, warn_when_not_sorted=False)
