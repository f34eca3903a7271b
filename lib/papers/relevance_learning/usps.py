"""Table 2 on USPS: 1-NN errors in X, t-SNE(X), F-t-SNE(X), X_lambda and t-SNE(X_lambda).

The paper does not say how its 1-NN errors were measured. Two readings, both per
random draw of ``per_class`` images per digit (draw ``r`` seeded ``seed + r``):

``paper`` (the paper's reading, as we understand it)
    Every space is built from all drawn points, and the error is the
    leave-one-out 1-NN error over them. F-t-SNE uses every point's label, and
    ``lambda_NeRV`` is learned on that F-t-SNE map, so labels reach the points
    that are evaluated: F-t-SNE's near-zero error is largely the label it was
    given.
``leak_free``
    A stratified half of the draw is the training set, the other half the test
    set, and the error is that of the 1-NN classifier of the training points on
    the test points. The Fisher metric is learned from the training labels only
    (:class:`~dimred.manifold.FisherTSNE` with ``labelled``); all points are
    embedded together, test points without their labels. ``lambda_NeRV`` is
    learned on the training points' part of that map, with ``k`` scaled to the
    training clusters (the same factors of half the cluster size). t-SNE is
    unsupervised, so t-SNE(X) and t-SNE(X_lambda) embed all points (transductive,
    no labels involved).

Points tied for the nearest distance all vote, a tied vote going to the
smallest digit (:func:`~dimred.metrics.embedding.knn_vote`), so an error does
not depend on the order of the rows.
"""

import time

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from dimred.manifold import FisherTSNE
from dimred.metrics.embedding import knn_vote
from dimred.relevance import NeRVRelevance
from dimred.utils.parallel import run_tasks

from .toy import neighbourhoods, tsne_map

__all__ = ["SPACES", "draw_indices", "loo_error", "split_error", "usps_draw", "usps_draws"]

#: The columns of Table 2 (``X_lambda`` and ``t-SNE(X_lambda)`` per neighbourhood).
SPACES = ("X", "t-SNE(X)", "F-t-SNE(X)", "X_lambda", "t-SNE(X_lambda)")


def draw_indices(target, per_class, seed):
    """``per_class`` random indices of every class, sorted (seeded)."""
    rng = np.random.default_rng(seed)
    return np.sort(
        np.concatenate(
            [
                rng.choice(np.flatnonzero(target == c), per_class, replace=False)
                for c in np.unique(target)
            ]
        )
    )


def loo_error(Z, y):
    """Leave-one-out 1-NN error (percent) of the labels ``y`` (0, 1, ...) in the space ``Z``."""
    return 100.0 * float(np.mean(knn_vote(Z, y) != y))


def split_error(Z, y, train):
    """1-NN error (percent) of the training points' classifier on the test points ``~train``."""
    predicted = knn_vote(Z[train], y[train], Z[~train])
    return 100.0 * float(np.mean(predicted != y[~train]))


def usps_draw(X, y, draw, p):
    """Both readings of Table 2 for one draw.

    Parameters
    ----------
    X, y : ndarray
        All USPS images and digits.
    draw : int
        Repetition; seeds the subsample, the split and every map with ``p.seed + draw``.
    p : Params
        Uses ``usps_per_class``, ``cluster_factors``, ``usps_perplexity``,
        ``gamma``, ``delta``, ``usps_nerv``, ``test_size``.

    Returns
    -------
    errors : DataFrame
        Index ``(reading, space, neighbourhood)``, column ``error_percent``.
    extras : dict
        ``relevances`` ``{(reading, neighbourhood): lambda^2}``, ``fits`` (each NeRV
        fit's ``k``, points, Rprop evaluations, whether it converged before
        ``max_iter`` and its wall time),
        ``fisher_map`` (the paper reading's F-t-SNE map) and ``y`` of the draw.
    """
    seed = p.seed + draw
    index = draw_indices(y, p.usps_per_class, seed)
    X, y = X[index], y[index]
    train = np.zeros(y.size, dtype=bool)
    train[
        train_test_split(np.arange(y.size), test_size=p.test_size, stratify=y, random_state=seed)[0]
    ] = True
    readings = {
        "paper": (np.ones(y.size, dtype=bool), lambda Z: loo_error(Z, y)),
        "leak_free": (train, lambda Z: split_error(Z, y, train)),
    }
    tsne_x = tsne_map(X, p.usps_perplexity, seed)
    rows, relevances, fits = [], {}, []
    for reading, (labelled, error) in readings.items():
        fisher = FisherTSNE(perplexity=p.usps_perplexity, random_state=seed)
        fisher_map = fisher.fit_transform(X, y, labelled=labelled)
        rows.extend(
            [
                [(reading, "X", ""), error(X)],
                [(reading, "t-SNE(X)", ""), error(tsne_x)],
                [(reading, "F-t-SNE(X)", ""), error(fisher_map)],
            ]
        )
        cluster = int(np.bincount(y[labelled]).max())
        for neighbourhood, k in neighbourhoods(cluster, p.cluster_factors).items():
            nerv = NeRVRelevance(n_neighbors=k, gamma=p.gamma, delta=p.delta, **dict(p.usps_nerv))
            start = time.perf_counter()
            relevance = nerv.fit(X[labelled], fisher_map[labelled]).relevances_
            seconds = time.perf_counter() - start
            relevances[reading, neighbourhood] = relevance
            fits.append(
                {
                    "reading": reading,
                    "neighbourhood": neighbourhood,
                    "k": k,
                    "points": int(labelled.sum()),
                    "evaluations": nerv.n_iter_,
                    "converged": nerv.n_iter_ < nerv.max_iter,
                    "seconds": round(seconds, 1),
                }
            )
            X_lambda = X * np.sqrt(relevance)
            rows.append([(reading, "X_lambda", neighbourhood), error(X_lambda)])
            tsne_lambda = tsne_map(X_lambda, p.usps_perplexity, seed)
            rows.append([(reading, "t-SNE(X_lambda)", neighbourhood), error(tsne_lambda)])
        if reading == "paper":
            extras = {"fisher_map": fisher_map, "y": y}
    index = pd.MultiIndex.from_tuples(
        [r[0] for r in rows], names=["reading", "space", "neighbourhood"]
    )
    errors = pd.DataFrame({"error_percent": [r[1] for r in rows]}, index=index)
    return errors, {**extras, "relevances": relevances, "fits": pd.DataFrame(fits)}


def usps_draws(X, y, p, progress=True):
    """:func:`usps_draw` for draws ``0 .. p.usps_draws - 1`` through joblib.

    Returns
    -------
    errors : DataFrame
        One column per draw (``draw_0``, ...), rows as :func:`usps_draw`.
    extras : list of dict
        Per draw.
    """
    tasks = [(X, y, r, p) for r in range(p.usps_draws)]
    results = run_tasks(usps_draw, tasks, "USPS draws", p.n_jobs, progress)
    errors = pd.concat(
        [frame["error_percent"].rename(f"draw_{r}") for r, (frame, _) in enumerate(results)], axis=1
    )
    return errors, [extras for _, extras in results]
