"""Protocol of the Best-View Projection paper (Zine-El-Abidine, Dutagaci,
Rousseau): the real ordinal datasets of Table I.

Table I lists, per dataset, the number of instances ``I``, the dimensionality
``Q``, the number of classes ``K`` and the class distribution; all are read
from the ORCA holdout-0 files (train ∪ test) here.
"""

import numpy as np
import pandas as pd

from .. import datasets, paths
from .._projection import class_centres
from ..reporting import reproduction_row

__all__ = ["REAL_DATASETS", "load_published", "table1", "table1_rows"]

PAPER = "bvp"

#: The real datasets of Table I, in its row order.
REAL_DATASETS = ("contact-lenses", "pasture", "squash-stored", "newthyroid", "car", "bondrate")


def load_published(artifact):
    """A table transcribed from the paper (``data/published/bvp``)."""
    return pd.read_csv(paths.PUBLISHED_DIR / PAPER / f"{artifact}.csv", index_col=0)


def table1():
    """Table I computed from the loaded data.

    Returns
    -------
    DataFrame
        Index: dataset; columns ``I``, ``Q``, ``K``, ``class_distribution``
        (counts of labels 1..K, space-separated).
    """
    rows = {}
    for name in REAL_DATASETS:
        bunch = datasets.load_orca(name)
        counts = np.bincount(bunch.target)[1:]
        rows[name] = {
            "I": bunch.data.shape[0],
            "Q": bunch.data.shape[1],
            "K": int(np.unique(bunch.target).size),
            "class_distribution": " ".join(map(str, counts)),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def table1_rows(published, reproduced):
    """``reproduction.csv`` rows: every cell of Table I, which must match exactly."""
    rows = []
    for name in published.index:
        for column in published.columns:
            expected, got = published.loc[name, column], reproduced.loc[name, column]
            expected = expected if isinstance(expected, str) else int(expected)
            got = got if isinstance(got, str) else int(got)
            rows.append(
                reproduction_row(
                    "table1",
                    f"{name}: {column}",
                    expected,
                    got,
                    "match" if expected == got else "deviates",
                    note="counted from the ORCA holdout-0 files (train ∪ test)",
                )
            )
    return rows


# ----------------------------------------------------------------------------- methods
#: The seven methods of Figs. 2 and 3, in the paper's panel order (c)-(i).
METHODS = ("BVP", "PCA", "MDS", "t-SNE", "LDA", "KDA", "LSDA")


def make_method(name, seed=0, perplexity=30.0):
    """Estimator reducing to 2-D for one of :data:`METHODS`.

    BVP: spectral solver (identical subspace to Algorithm 1, see
    :mod:`dimred.bvp`); MDS: metric SMACOF from the classical solution; t-SNE:
    PCA initialisation; KDA: Gaussian kernel, regularisation 0.1 (the paper's);
    LSDA: k = 5, alpha = 0.1 (Cai's defaults).
    """
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.manifold import MDS, TSNE

    from ..bvp import BestViewProjection
    from ..discriminant import KernelDiscriminantAnalysis, LocalitySensitiveDiscriminantAnalysis

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


def embedding_metrics(X, y, Z, n_neighbors=5):
    """The paper's three visual criteria as numbers (see :mod:`dimred.quality`)."""
    from .. import quality

    return {
        "knn_accuracy": quality.knn_accuracy(Z, y),
        "order_correlation": quality.order_correlation(Z, y),
        "adjacent_nearer": quality.adjacent_centres_nearer(Z, y),
        **quality.neighbourhood_scores(X, Z, n_neighbors),
    }


def tsne_sweep(X, y, perplexities, seed=0, n_jobs=None):
    """t-SNE for several perplexities with the metrics of each.

    Returns
    -------
    embeddings : dict of float to ndarray
    table : DataFrame
        One row per perplexity.
    """
    from joblib import Parallel, delayed

    usable = [p for p in perplexities if p < len(y) - 1]
    results = Parallel(n_jobs=n_jobs)(delayed(embed)("t-SNE", X, y, seed, p) for p in usable)
    embeddings = dict(zip(usable, results, strict=True))
    table = pd.DataFrame(
        [{"perplexity": p, **embedding_metrics(X, y, Z)} for p, Z in embeddings.items()]
    )
    return embeddings, table


def best_perplexity(table):
    """Perplexity with the best order preservation, then class separation."""
    ranked = table.sort_values(["order_correlation", "knn_accuracy"], ascending=False)
    return float(ranked.iloc[0]["perplexity"])
