"""Item 2: every 2-D map of the compendium scored by one quality measure.

The maps: BVP, PCA, MDS, t-SNE, LDA, KDA and LSDA on the BVP paper's data (its two
synthetic sets, a new draw per seed, and its six real datasets, standardised;
t-SNE's perplexity 30, lowered to ``(n - 1) / 3`` on the smallest sets); t-SNE and
Fisher t-SNE on USPS (a new draw of 100 images per digit per seed, 10 in quick runs;
perplexity 30, as the relevance paper's Table 2); the AwA2 survey's methods (PCA, RBF
kernel PCA, LDA, FA, t-SNE, LLE with ``K = 10``, SMACOF MDS and the autoencoder with
the survey's CPU schedule of 50 epochs, on the CPU everywhere so that the maps do not
depend on the machine) on its data as this compendium runs it (AwA2, or the
Fashion-MNIST stand-in when AwA2's features are not at hand), a new draw of 100 images
per class per seed (10 in quick runs).

One implementation of each map for every dataset, whose numbers do not depend on the
BLAS kernel (:mod:`papers.stable_maps`): PCA, SMACOF MDS from the classical
solution and Barnes-Hut t-SNE from a seeded random start (as Fisher t-SNE's) on the
BVP paper's data and the mixed data of item 3, and t-SNE on USPS and AwA2. The other
maps are their papers' own. On fixed data (the real BVP sets) every map but t-SNE is a
function of the data alone, so it is made once (:data:`STOCHASTIC` maps at every
seed).

Each map ``Y`` of data ``X`` is scored by the co-ranking framework the relevance paper
uses (Lee & Verleysen): the curve ``R_NX(k)``, ``k = 1 .. N - 2``, and its area under a
log-scaled ``k`` axis (:func:`dimred.metrics.coranking.rnx_curve`), with the
trustworthiness and the continuity at ``k = 10`` (Venna & Kaski; continuity is the
trustworthiness with the two spaces swapped;
:func:`dimred.metrics.coranking.trustworthiness_continuity`, scikit-learn's values on
data without ties). The data of a draw are ranked once for all its maps
(:class:`~dimred.metrics.coranking.ReferenceRanking`): the scores are those of the two
functions, bit for bit.
"""

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from dimred import datasets
from dimred.manifold import FisherTSNE
from dimred.metrics.coranking import ReferenceRanking
from dimred.utils.parallel import run_tasks

from ..awa2_dr_survey import pipelines as awa2
from ..awa2_dr_survey.data import load_run_data
from ..bvp import data as bvp_data
from ..bvp import methods as bvp
from ..relevance_learning.usps import draw_indices
from ..stable_maps import pca_map, smacof_map, tsne_map
from .partitions import canonical

__all__ = [
    "AWA2_METHODS",
    "STOCHASTIC",
    "TC_NEIGHBOURS",
    "USPS_METHODS",
    "map_draws",
    "map_scores",
    "score_map",
    "stable_map",
]

#: Maps that depend on their seed on fixed data (made at every draw).
STOCHASTIC = ("t-SNE",)
#: Neighbourhood of the trustworthiness and the continuity.
TC_NEIGHBOURS = 10
USPS_METHODS = ("t-SNE", "Fisher t-SNE")
AWA2_METHODS = ("PCA", "kernel PCA", "LDA", "FA", "t-SNE", "LLE", "MDS", "autoencoder")
#: LLE's K.
LLE_NEIGHBOURS = 10
PERPLEXITY = 30.0


def stable_map(method, X, seed, perplexity=PERPLEXITY):
    """The benchmark's kernel-stable ``"PCA"``, ``"MDS"`` or ``"t-SNE"`` map of ``X``
    (:mod:`papers.stable_maps`; ``seed`` and ``perplexity`` are t-SNE's)."""
    if method == "PCA":
        return pca_map(X)
    if method == "MDS":
        return smacof_map(X)
    return tsne_map(X, perplexity, seed)


def _bvp_embed(method, X, y, seed):
    perplexity = min(PERPLEXITY, (len(y) - 1) / 3)
    if method in ("PCA", "MDS", "t-SNE"):
        return stable_map(method, X, seed, perplexity)
    return bvp.embed(method, X, y, seed, perplexity)


def _awa2_embed(method, X, y, seed, epochs):
    if method == "autoencoder":
        from dimred.neural import Autoencoder

        model = Autoencoder(2, max_epochs=epochs, random_state=seed, device="cpu")
        return model.fit(X).transform(X)
    embedders = {
        "PCA": lambda: PCA(2, random_state=seed).fit_transform(X),
        "kernel PCA": lambda: awa2.kernel_pca(X, X[:1], "rbf", 2)[0],
        "LDA": lambda: awa2.lda(X, y, X[:1], 2)[0],
        "FA": lambda: awa2.factor_analysis(X, X[:1], 2, seed)[0],
        "t-SNE": lambda: tsne_map(X, PERPLEXITY, seed),
        "LLE": lambda: awa2.lle(X, LLE_NEIGHBOURS, 2, seed).embedding_,
        "MDS": lambda: awa2.smacof_mds(X, 2, seed).embedding_,
    }
    return embedders[method]()


def _usps_embed(method, X, y, seed):
    if method == "t-SNE":
        return tsne_map(X, PERPLEXITY, seed)
    return FisherTSNE(perplexity=PERPLEXITY, random_state=seed).fit_transform(X, y)


def score_map(X, Y):
    """``R_NX`` curve, its AUC, trustworthiness and continuity of the map ``Y`` of ``X``."""
    return _scores(ReferenceRanking(X), Y)


def _scores(reference, Y):
    """:func:`score_map` with the data's ranking ``reference`` (a
    :class:`~dimred.metrics.coranking.ReferenceRanking`, shared by the maps of a draw)."""
    coranking = reference.compare(Y)
    rnx, auc = coranking.rnx_curve()
    k = min(TC_NEIGHBOURS, (len(Y) - 1) // 2 - 1)
    trust, continuity = coranking.trustworthiness_continuity(k)
    return rnx, {"rnx_auc": auc, "trustworthiness": trust, "continuity": continuity}


def map_case(dataset, draw, X, y, methods, seed, epochs):
    """Every map of one draw of one dataset, scored.

    Returns
    -------
    rows : list of dict
    curves : dict of str to ndarray
        ``R_NX(k)`` of each method.
    maps : dict of str to ndarray
        The maps themselves (item 3 reuses them).
    """
    rows, curves, maps = [], {}, {}
    reference = ReferenceRanking(X)
    for method in methods:
        if dataset == "usps":
            Y = _usps_embed(method, X, y, seed)
        elif dataset == "awa2":
            Y = _awa2_embed(method, X, y, seed, epochs)
        else:
            Y = _bvp_embed(method, X, y, seed)
        Y = np.asarray(Y, dtype=float)
        curves[method], scores = _scores(reference, Y)
        maps[method] = Y
        rows.append({"dataset": dataset, "draw": draw, "method": method, **scores})
    return rows, curves, maps


def map_draws(p):
    """The data of every draw: ``{dataset: [(X, y), ...]}`` (module docstring).

    The synthetic sets, USPS and AwA2 are drawn anew with seed ``p.seed + draw``. The
    real BVP datasets are the same at every draw; :func:`methods_of` maps them fully at
    draw 0 and by the :data:`STOCHASTIC` maps only at the others.
    """
    draws = {}
    seeds = [p.seed + d for d in range(p.map_draws)]
    for name in bvp_data.SYNTHETIC_DATASETS:
        draws[name] = [bvp_data.load_synthetic(name, p.quick, s) for s in seeds]
    for name in p.map_real:
        draws[name] = [canonical(*bvp_data.load_real(name))] * p.map_draws
    usps = datasets.load_usps()
    usps = (np.asarray(usps.data, dtype=float), np.asarray(usps.target))
    draws["usps"] = [_draw(usps, s, p.per_class) for s in seeds]
    run = load_run_data(None, None, p.seed)
    draws["awa2"] = [_draw((run.X, run.y), s, p.per_class) for s in seeds]
    return draws, run.data_label


def _draw(data, seed, per_class):
    X, y = data
    index = draw_indices(y, per_class, seed)
    return X[index], y[index]


def methods_of(dataset, draw=0, fixed=False):
    """The maps drawn on ``dataset`` at ``draw``: on ``fixed`` data (the same at every
    draw), only the :data:`STOCHASTIC` ones after draw 0."""
    if dataset == "usps":
        return USPS_METHODS
    if dataset == "awa2":
        return AWA2_METHODS
    return bvp.METHODS if draw == 0 or not fixed else STOCHASTIC


def map_scores(draws, p):
    """:func:`map_case` for every dataset and draw.

    Returns
    -------
    table : DataFrame
        One row per dataset, draw and method.
    curves : dict
        ``{(dataset, method): ndarray (n_draws, N - 2)}``.
    maps : dict
        ``{(dataset, draw, method): Y}``.
    """
    tasks = [
        (name, d, X, y, methods_of(name, d, name in p.map_real), p.seed + d, p.ae_epochs)
        for name, parts in draws.items()
        for d, (X, y) in enumerate(parts)
    ]
    outputs = run_tasks(map_case, tasks, "maps", p.n_jobs)
    table = pd.DataFrame([row for rows, _, _ in outputs for row in rows])
    curves, maps = {}, {}
    for (name, d, *_), (_, task_curves, task_maps) in zip(tasks, outputs, strict=True):
        for method, rnx in task_curves.items():
            curves.setdefault((name, method), []).append(rnx)
            maps[name, d, method] = task_maps[method]
    curves = {key: np.vstack(rows) for key, rows in curves.items()}
    return table, curves, maps
