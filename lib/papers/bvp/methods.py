"""The seven methods of Figs. 2-9 of the Best-View Projection paper, their embeddings
and the paper's three visual criteria as measured verdicts.

The paper judges every 2-D projection by eye on three criteria. Here each is a
verdict on a metric of :mod:`dimred.metrics.embedding`, with thresholds fixed before the
first run (:data:`SEPARATION_TOLERANCE`, :data:`ORDER_THRESHOLD`,
:data:`INFORMATIVE_RATIO`), and one added after an independent review
(:data:`SEPARATION_MARGIN`):

1. *separates*: cross-validated 5-NN accuracy in 2-D at least the accuracy in
   the input space minus 0.10 (what the input space separates, the view keeps),
   **and** at least the majority-class rate plus 0.05 (a view that classifies no
   better than always guessing the largest class separates nothing, even where
   the input space does no better: contact-lenses and bondrate, whose 5-NN
   accuracy in the input space is about the majority rate);
2. *ordered*: Spearman correlation of class rank and projected centre at least
   0.9, and adjacent centres nearer than non-adjacent ones in at least 90 % of
   the comparisons;
3. *informative*: the within-class share of the variance in 2-D at least half
   its share in the input space (classes not collapsed onto their centres).

:func:`evaluate` embeds, measures and judges (seeding t-SNE, MDS and the 5-NN
folds); :func:`evaluate_synthetic` and :func:`evaluate_real` run it on the data of
Figs. 2-3 and of Figs. 4-9, :func:`method_figures` draws those figures and
:func:`metrics_artefacts` tabulates every method x dataset.
"""

import numpy as np
import pandas as pd
from tqdm import tqdm

from compendium.reporting import Artefacts
from dimred.metrics import embedding as quality
from dimred.utils.labels import class_centres
from dimred.utils.parallel import run_tasks

from . import plots
from .data import REAL_FIGURES, SYNTHETIC_FIGURES, _with_data

__all__ = [
    "METHODS",
    "embed",
    "embedding_metrics",
    "evaluate",
    "evaluate_real",
    "evaluate_synthetic",
    "judge",
    "method_figures",
    "metrics_artefacts",
]

#: Verdict thresholds (see the module docstring), fixed before the first run.
SEPARATION_TOLERANCE = 0.10
#: "Separates" must also beat the majority-class rate by this much (added after review).
SEPARATION_MARGIN = 0.05
ORDER_THRESHOLD = 0.9
INFORMATIVE_RATIO = 0.5

#: The seven methods of Figs. 2 and 3, in the paper's panel order (c)-(i).
METHODS = ("BVP", "PCA", "MDS", "t-SNE", "LDA", "KDA", "LSDA")


def make_method(name, seed=0, perplexity=30.0):
    """Estimator reducing to 2-D for one of :data:`METHODS`.

    BVP: spectral solver (identical subspace to Algorithm 1, see
    :mod:`dimred.projection.bvp`); MDS: metric SMACOF from the classical solution; t-SNE:
    PCA initialisation; KDA: Gaussian kernel, regularisation 0.1 (the paper's);
    LSDA: k = 5, alpha = 0.1 (Cai's defaults).
    """
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.manifold import MDS, TSNE

    from dimred.projection import (
        BestViewProjection,
        KernelDiscriminantAnalysis,
        LocalitySensitiveDiscriminantAnalysis,
    )

    factories = {
        "BVP": lambda: BestViewProjection(2),
        "PCA": lambda: PCA(2, random_state=seed),
        "MDS": lambda: MDS(2, init="classical_mds", n_init=1, random_state=seed),
        "t-SNE": lambda: TSNE(2, perplexity=perplexity, init="pca", random_state=seed),
        "LDA": lambda: LinearDiscriminantAnalysis(n_components=2),
        "KDA": lambda: KernelDiscriminantAnalysis(2, alpha=0.1),
        "LSDA": lambda: LocalitySensitiveDiscriminantAnalysis(2, n_neighbors=5, alpha=0.1),
    }
    return factories[name]()


def embed(name, X, y, seed=0, perplexity=30.0):
    """2-D embedding of ``X`` by one method, with axes reflected so that the
    first class lies left of (and below) the last one (stable figures)."""
    Z = np.asarray(make_method(name, seed, perplexity).fit_transform(X, y), dtype=float)
    _, centres = class_centres(Z, y)
    return Z * np.where(centres[-1] - centres[0] < 0, -1.0, 1.0)


def embedding_metrics(X, y, Z, n_neighbors=5, seed=0):
    """The paper's three visual criteria as numbers (see :mod:`dimred.metrics.embedding`).

    ``seed`` draws the folds of the cross-validated 5-NN accuracy.
    """
    return {
        "knn_accuracy": quality.knn_accuracy(Z, y, random_state=seed),
        "order_correlation": quality.order_correlation(Z, y),
        "adjacent_nearer": quality.adjacent_centres_nearer(Z, y),
        "within_class_share": quality.within_class_share(Z, y),
        **quality.neighbourhood_scores(X, Z, n_neighbors),
    }


def judge(table, X, y, seed=0):
    """Add the verdicts ``separates``, ``ordered``, ``informative`` to a metrics table.

    The references are the input space's 5-NN accuracy (folds drawn by
    ``seed``, as the table's) and within-class share, also added as
    ``knn_input`` and ``share_input``; the share of the largest class is
    ``majority_rate``.
    """
    table = table.copy()
    table["knn_input"] = quality.knn_accuracy(X, y, random_state=seed)
    table["share_input"] = quality.within_class_share(X, y)
    table["majority_rate"] = np.bincount(np.unique(y, return_inverse=True)[1]).max() / len(y)
    keeps = table["knn_accuracy"] >= table["knn_input"] - SEPARATION_TOLERANCE
    beats_chance = table["knn_accuracy"] >= table["majority_rate"] + SEPARATION_MARGIN
    table["separates"] = keeps & beats_chance
    # rho takes discrete values (0.9 is one adjacent swap among 5 classes): compare
    # with a rounding tolerance so that "at least 0.9" includes 0.8999999999999999
    threshold = ORDER_THRESHOLD - 1e-9
    adjacent = table["adjacent_nearer"].fillna(1.0)
    table["ordered"] = (table["order_correlation"] >= threshold) & (adjacent >= threshold)
    table["informative"] = table["within_class_share"] >= INFORMATIVE_RATIO * table["share_input"]
    return table


def evaluate(X, y, methods=METHODS, seed=0, perplexity=30.0, n_jobs=None, precomputed=None):
    """Embed ``X`` by every method, measure and judge each embedding.

    Parameters
    ----------
    seed : int
        Seeds t-SNE, MDS and the folds of the 5-NN accuracy.
    precomputed : dict of str to ndarray, optional
        Embeddings already made (e.g. t-SNE's from :func:`~.tsne.tsne_sweep`); those
        methods are not run again.

    Returns
    -------
    embeddings : dict of str to ndarray of shape (n_samples, 2)
    table : DataFrame
        Indexed by method: the metrics of :func:`embedding_metrics` and the
        verdicts of :func:`judge`.
    """
    precomputed = precomputed or {}
    todo = [m for m in methods if m not in precomputed]
    tasks = [(m, X, y, seed, perplexity) for m in todo]
    results = run_tasks(embed, tasks, "embeddings", n_jobs, progress=False)
    computed = {**precomputed, **dict(zip(todo, results, strict=True))}
    embeddings = {m: computed[m] for m in methods}
    table = pd.DataFrame(
        {m: embedding_metrics(X, y, Z, seed=seed) for m, Z in embeddings.items()}
    ).T
    table.index.name = "method"
    return embeddings, judge(table.astype(float), X, y, seed)


def evaluate_synthetic(synthetic, sweeps, published, p):
    """Every method of :data:`METHODS` on each synthetic dataset, judged.

    t-SNE is the sweep's embedding of draw ``p.seed`` (the same data) at the
    paper's perplexity (not rerun).

    Returns
    -------
    dict of str to (embeddings, table)
    """
    result = {}
    for name, (X, y) in synthetic.items():
        perplexity = float(published["tsne_perplexity"].loc[name, "perplexity"])
        embedded = {"t-SNE": sweeps[name][0][p.seed, perplexity]}
        result[name] = evaluate(X, y, seed=p.seed, n_jobs=p.n_jobs, precomputed=embedded)
    return result


def evaluate_real(real, p):
    """BVP, LDA and LSDA on each real dataset, judged: ``{name: (embeddings, table)}``."""
    return {
        name: evaluate(X, y, ("BVP", "LDA", "LSDA"), p.seed, n_jobs=p.n_jobs)
        for name, (X, y) in tqdm(real.items(), "real datasets")
    }


def method_figures(data, evaluations):
    """Figs. 2-3 (synthetic: two 3-D views and seven methods) or Figs. 4-9 (real)."""
    figures = {}
    for name, (X, y) in data.items():
        embeddings, _ = evaluations[name]
        if name in REAL_FIGURES:
            figures[f"{REAL_FIGURES[name]}_{name}"] = plots.figure_real(embeddings, y, name)
        else:
            title = name.replace("_", " ")
            figure = plots.figure_methods(X, y, embeddings, suptitle=title)
            figures[f"{SYNTHETIC_FIGURES[name]}_{name}"] = figure
    return Artefacts(figures=figures)


def metrics_artefacts(evaluations):
    """Every method x dataset: the metrics, the input-space references and the verdicts."""
    metrics = pd.concat(
        {name: table for name, (_, table) in evaluations.items()}, names=["dataset"]
    )
    return Artefacts(tables={"metrics": _with_data(metrics)})
