"""Helpers shared by the steps of the AwA2 survey's protocol."""

import time

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.manifold import trustworthiness
from sklearn.metrics import silhouette_score

from dimred.utils.parallel import run_tasks

from .data import TEST_SIZE, stratified_subsample
from .pipelines import SVC_C, Split, svc_accuracy

__all__ = [
    "all_tables",
    "measurements",
    "metrics_table",
    "pca_scores",
    "score_slices",
    "score_transductive",
    "silhouette",
    "stack",
    "subsample",
    "timed",
    "title",
    "trustworthiness_of",
]


def all_tables(results):
    """Every table of the earlier steps' artefacts, by name."""
    return {name: frame for r in results for name, frame in r.tables.items()}


def score_slices(Z_train, Z_test, s, cells, desc, p, max_iter=-1):
    """``{key: svc_accuracy}`` of the first ``d`` columns, for ``(key, d, kernel)`` cells.

    Cells with ``d`` above the number of columns are left out (not defined);
    ``max_iter`` bounds libsvm's iterations (-1: no bound, the paper's SVC).
    """
    y_train, y_test = s.labels
    cells = [c for c in cells if c[1] <= Z_train.shape[1]]
    tasks = [
        (Z_train[:, :d], y_train, Z_test[:, :d], y_test, k, SVC_C, max_iter) for _, d, k in cells
    ]
    results = run_tasks(svc_accuracy, tasks, desc, p.n_jobs)
    return {key: r for (key, _, _), r in zip(cells, results, strict=True)}


def score_transductive(Z, s, cells, desc, p, max_iter=-1):
    """:func:`score_slices` of an embedding ``Z`` of all points of ``s``."""
    return score_slices(Z[s.train], Z[s.test], s, cells, desc, p, max_iter)


def stack(parts, s):
    """Rows of a train/test pair of embeddings back in the order of the data."""
    Z_train, Z_test = parts
    Z = np.empty((len(s.y), Z_train.shape[1]))
    Z[s.train], Z[s.test] = Z_train, Z_test
    return Z


def pca_scores(X, n_components):
    """PCA scores of ``X`` (fitted on ``X`` itself, as the authors' preprocessing)."""
    return PCA(min(n_components, *X.shape), svd_solver="full").fit_transform(X)


def silhouette(Z, y, p):
    """Class silhouette of ``Z`` on a seeded subsample of at most ``p.metric_n`` points."""
    n = min(p.metric_n, len(y))
    return float(silhouette_score(Z, y, sample_size=n, random_state=p.seed))


def trustworthiness_of(embeddings, X, p):
    """Trustworthiness (5 neighbours) of each embedding of ``X`` on one seeded subsample."""
    keep = np.sort(np.random.default_rng(p.seed).permutation(len(X))[: p.metric_n])
    return {
        f"{name}_trustworthiness": float(trustworthiness(X[keep], Z[keep], n_neighbors=5))
        for name, Z in embeddings.items()
    }


def metrics_table(values):
    """A step's measurements beyond the cells (``name -> value``), read by the claims.

    Which data they came from is the step's (:attr:`Artefacts.data`), or a ``data``
    column the caller adds.
    """
    return pd.DataFrame({"value": pd.Series(values, dtype=float)}).rename_axis("metric")


def timed(function, *args):
    """``(function(*args), wall seconds)``."""
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def subsample(data, n, p):
    """``(X, y, split)`` of a stratified subsample of ``n`` points (``None``: all)."""
    run = data["run"]
    keep = stratified_subsample(run.y, n, p.seed)
    X, y = run.X[keep], run.y[keep]
    return X, y, Split(X, y, TEST_SIZE, p.seed)


def title(data, text):
    """A figure title labelled with the run's data (``AwA2`` or the stand-in)."""
    return f"{text} [{data['run'].label}]"


def measurements(results):
    """Every step's ``*_metrics`` table as one ``name -> value`` dict, plus derived ones.

    Raises
    ------
    ValueError
        When two steps measure under the same name.
    """
    tables = all_tables(results)
    m = {}
    for name, frame in tables.items():
        if name.endswith("_metrics"):
            values = frame["value"].to_dict()
            if set(values) & set(m):
                raise ValueError(f"{name} repeats the measurements {sorted(set(values) & set(m))}")
            m |= values
    m["lda_curve"] = tables["fig6_lda_curve"]["ours_percent"].to_numpy()
    m["fa_pca_train_test_gaps"] = _fa_pca_gaps(tables["table6"], tables["table4"])
    if "table14" in tables:
        m["table14_pairs"] = tables["table14"][["published_percent", "ours_percent"]].to_numpy()
    return m


def _fa_pca_gaps(fa, table4):
    """``d -> (train - test accuracy of FA) - (that of PCA)``, where both exist."""
    pca = table4[table4["kernel"] == "linear"].set_index("n_components")
    gaps = {}
    for _, row in fa.iterrows():
        d = row["n_components"]
        gap = (row["ours_train_percent"] - row["ours_percent"]) - (
            pca.loc[d, "ours_train_percent"] - pca.loc[d, "ours_percent"]
        )
        if np.isfinite(gap):
            gaps[int(d)] = round(float(gap), 2)
    return gaps
