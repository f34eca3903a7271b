"""Maps, relevance profiles and Table 1 cells of the synthetic sets set1, set2, set3.

Choices the paper leaves open (documented in the notebook):

* every map is computed on the data as generated (no scaling); PCA keeps two
  components; t-SNE is exact up to 500 points, PCA-initialised, with
  perplexity 10 (scikit-learn's default 30 spans most of a 50-point cluster
  and merges set2's clusters; the sensitivity study varies it); Fisher t-SNE
  is exact (:class:`~dimred.manifold.FisherTSNE`, ``method="exact"``) with the
  same perplexity;
* "medium" and "large" neighbourhoods are ``round(0.8 c)`` and ``round(1.2 c)``
  for clusters of ``c`` points (the paper's definition); every scheme uses the
  same ``k``;
* ``lambda_NeRV`` uses :class:`~dimred.relevance.NeRVRelevance` with the paper's
  ``gamma = 0.5``, ``delta = 1`` and the estimator's defaults otherwise (widths
  fixed at ``lambda = 1``, cost summed over points).
"""

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.manifold import TSNE

from dimred.datasets.synthetic import relevance_set1, relevance_set2, relevance_set3
from dimred.manifold import FisherTSNE
from dimred.metrics.coranking import coranking_quality
from dimred.relevance import NeRVRelevance, backward_relevance, forward_relevance
from dimred.utils.parallel import run_tasks

from .rankings import ranking_of

__all__ = [
    "MAPS",
    "SCHEMES",
    "neighbourhoods",
    "nerv_profile",
    "relevance_profiles",
    "sensitivity",
    "set1_draw",
    "set1_draws",
    "table1_cells",
    "table1_setting",
    "toy_maps",
    "tsne_map",
    "variant_cells",
]

#: The relevance schemes, in the paper's column order.
SCHEMES = ("nerv", "forward", "backward")
#: The maps of Table 1 per data set, in the paper's row order.
MAPS = {"set2": ("PCA", "t-SNE"), "set3": ("PCA", "t-SNE", "F-t-SNE")}


def tsne_map(X, perplexity, seed, n_jobs=None):
    """2-D t-SNE of ``X`` (exact up to 500 points, Barnes-Hut beyond; PCA start)."""
    method = "exact" if X.shape[0] <= 500 else "barnes_hut"
    tsne = TSNE(
        2, perplexity=perplexity, init="pca", method=method, random_state=seed, n_jobs=n_jobs
    )
    return tsne.fit_transform(X)


def toy_maps(sets, perplexity, seed):
    """The Table 1 maps: ``{(set, map): Y}`` for the maps of :data:`MAPS`.

    Parameters
    ----------
    sets : dict
        ``{"set2": (X, y), "set3": (X, y)}``.
    perplexity : float
        Of t-SNE and Fisher t-SNE.
    seed : int
    """
    maps = {}
    for name, methods in MAPS.items():
        X, y = sets[name]
        for method in methods:
            if method == "PCA":
                maps[name, method] = PCA(2).fit_transform(X)
            elif method == "t-SNE":
                maps[name, method] = tsne_map(X, perplexity, seed)
            else:
                fisher = FisherTSNE(perplexity=perplexity, method="exact", random_state=seed)
                maps[name, method] = fisher.fit_transform(X, y)
    return maps


def neighbourhoods(cluster_size, factors):
    """``{"medium": k, "large": k}`` from the cluster size and the paper's factors."""
    return {name: int(round(factor * cluster_size)) for name, factor in dict(factors).items()}


def nerv_profile(X, Y, ks, gamma, delta, **options):
    """``lambda_NeRV^k`` for every ``k`` in ``ks``: array of shape (len(ks), n_features)."""
    return np.array(
        [
            NeRVRelevance(n_neighbors=int(k), gamma=gamma, delta=delta, **options)
            .fit(X, Y)
            .relevances_
            for k in ks
        ]
    )


def relevance_profiles(X, Y, ks, gamma, delta):
    """The three schemes and the baselines of Fig. 2 for every ``k`` in ``ks``.

    Returns
    -------
    profiles : dict of str to ndarray of shape (len(ks), n_features)
        ``lambda_NeRV``, ``lambda_forward``, ``lambda_backward``.
    baselines : dict of str to ndarray of shape (len(ks),)
        ``nerv`` 0, ``forward`` the diagonal ``k / (N - 1)``, ``backward`` ``Q_k(X, Y)``.
    """
    ks = np.asarray(ks)
    profiles = {scheme: _scheme(scheme, X, Y, ks, gamma, delta) for scheme in SCHEMES}
    baselines = {
        "nerv": np.zeros(ks.size),
        "forward": ks / (X.shape[0] - 1),
        "backward": coranking_quality(X, Y, int(ks.max()))[ks - 1],
    }
    return profiles, baselines


def set1_draw(seed, ks, perplexity, gamma, delta, bandwidths):
    """Fig. 2 on one draw of set1: its map, the three profiles and ``lambda_NeRV`` under
    each reading of the widths.

    Parameters
    ----------
    seed : int
        Seeds set1 and its t-SNE map.
    ks : array-like of int
    perplexity : float
        t-SNE's.
    gamma, delta : float
    bandwidths : tuple of str
        :class:`~dimred.relevance.NeRVRelevance` ``bandwidth`` readings; the first
        gives the ``nerv`` profile.

    Returns
    -------
    dict
        ``profiles`` and ``baselines`` (:func:`relevance_profiles`), ``nerv_by_bandwidth``
        ``{bandwidth: array (len(ks), 3)}`` and ``cluster`` (points per cluster).
    """
    X, y = relevance_set1(random_state=seed)
    Y = tsne_map(X, perplexity, seed)
    ks = np.asarray(ks)
    profiles, baselines = relevance_profiles(X, Y, ks, gamma, delta)
    by_bandwidth = {bandwidths[0]: profiles["nerv"]}
    for bandwidth in bandwidths[1:]:
        by_bandwidth[bandwidth] = nerv_profile(X, Y, ks, gamma, delta, bandwidth=bandwidth)
    return {
        "profiles": profiles,
        "baselines": baselines,
        "nerv_by_bandwidth": by_bandwidth,
        "cluster": int(np.bincount(y).max()),
    }


def set1_draws(seeds, ks, perplexity, gamma, delta, bandwidths, n_jobs, progress):
    """:func:`set1_draw` for every seed, through joblib (one task per draw)."""
    tasks = [(seed, tuple(ks), perplexity, gamma, delta, tuple(bandwidths)) for seed in seeds]
    return run_tasks(set1_draw, tasks, "set1 draws", n_jobs, progress)


def table1_cells(sets, maps, ks, gamma, delta):
    """Our relevances and rankings for every cell of Table 1.

    Parameters
    ----------
    sets : dict
        ``{"set2": (X, y), "set3": (X, y)}``.
    maps : dict
        :func:`toy_maps`.
    ks : dict
        Per set, ``{"medium": k, "large": k}`` (:func:`neighbourhoods`).
    gamma, delta : float

    Returns
    -------
    DataFrame
        Index ``cell`` (the transcription's key), columns ``data, map, scheme,
        neighbourhood, k, ranking`` (our features, most relevant first, as
        ``"1 2 3 ..."``) and ``f1 .. fn`` the relevances.
    """
    records = []
    for (name, method), Y in maps.items():
        X = sets[name][0]
        values = {
            scheme: _scheme(scheme, X, Y, list(ks[name].values()), gamma, delta)
            for scheme in SCHEMES
        }
        for scheme in SCHEMES:
            for row, (neighbourhood, k) in enumerate(ks[name].items()):
                relevance = values[scheme][row]
                key = f"{name}_{method.lower().replace('-', '')}_{scheme}_{neighbourhood}"
                records.append(
                    {
                        "cell": key,
                        "data": name,
                        "map": method,
                        "scheme": scheme,
                        "neighbourhood": neighbourhood,
                        "k": k,
                        "ranking": " ".join(map(str, ranking_of(relevance, scheme))),
                        **{f"f{f + 1}": v for f, v in enumerate(relevance)},
                    }
                )
    return pd.DataFrame.from_records(records, index="cell")


def _scheme(scheme, X, Y, ks, gamma, delta):
    if scheme == "nerv":
        return nerv_profile(X, Y, ks, gamma, delta)
    relevance = forward_relevance if scheme == "forward" else backward_relevance
    return relevance(X, Y, np.asarray(ks))


def table1_setting(sets, perplexity, cluster_factors, seed):
    """The maps and the per-set ``k`` of Table 1: ``(maps, ks)``."""
    maps = toy_maps(sets, perplexity, seed)
    ks = {
        name: neighbourhoods(np.bincount(y).max(), cluster_factors) for name, (_, y) in sets.items()
    }
    return maps, ks


def variant_cells(variant, cluster_factors, gamma, delta):
    """Table 1 for one setting ``(name, set2_kwargs, set3_kwargs, seed, perplexity)``.

    Returns
    -------
    DataFrame
        :func:`table1_cells` with a column ``variant``.
    """
    name, set2_kwargs, set3_kwargs, seed, perplexity = variant
    sets = {
        "set2": relevance_set2(random_state=seed, **dict(set2_kwargs)),
        "set3": relevance_set3(random_state=seed, **dict(set3_kwargs)),
    }
    maps, ks = table1_setting(sets, perplexity, cluster_factors, seed)
    return table1_cells(sets, maps, ks, gamma, delta).assign(variant=name)


def sensitivity(variants, cluster_factors, gamma, delta, n_jobs, progress):
    """:func:`variant_cells` for every variant, through joblib (one task per variant)."""
    tasks = [(v, cluster_factors, gamma, delta) for v in variants]
    return pd.concat(run_tasks(variant_cells, tasks, "set variants", n_jobs, progress))
