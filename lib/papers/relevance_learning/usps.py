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

__all__ = [
    "READINGS",
    "SPACES",
    "draw_indices",
    "loo_error",
    "reading_errors",
    "split_error",
    "tsne_errors",
    "usps_draws",
]

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


#: The two readings, in the order of the table's rows.
READINGS = ("paper", "leak_free")


def _draw(X, y, draw, p):
    """The images, digits and training mask of one draw, and its seed ``p.seed + draw``."""
    seed = p.seed + draw
    index = draw_indices(y, p.usps_per_class, seed)
    X, y = X[index], y[index]
    train = np.zeros(y.size, dtype=bool)
    train[
        train_test_split(np.arange(y.size), test_size=p.test_size, stratify=y, random_state=seed)[0]
    ] = True
    return X, y, train, seed


def _labelled(reading, train):
    """The points whose labels the reading uses: all of them, or the training half."""
    return np.ones(train.size, dtype=bool) if reading == "paper" else train


def _error(reading, Z, y, train):
    """The reading's 1-NN error of the space ``Z``."""
    return loo_error(Z, y) if reading == "paper" else split_error(Z, y, train)


def tsne_errors(X, y, draw, p):
    """t-SNE(X) of one draw and its 1-NN error in each reading.

    t-SNE uses no label, so one map serves both readings.

    Returns
    -------
    dict
        ``{reading: error_percent}``.
    """
    X, y, train, seed = _draw(X, y, draw, p)
    tsne_x = tsne_map(X, p.usps_perplexity, seed)
    return {reading: _error(reading, tsne_x, y, train) for reading in READINGS}


def reading_errors(X, y, draw, reading, p):
    """One reading of one draw: X, F-t-SNE(X), and ``X_lambda`` and t-SNE(``X_lambda``).

    Parameters
    ----------
    X, y : ndarray
        All USPS images and digits.
    draw : int
        Repetition; seeds the subsample, the split and every map with ``p.seed + draw``.
    reading : {"paper", "leak_free"}
    p : Params
        Uses ``usps_per_class``, ``cluster_factors``, ``usps_perplexity``,
        ``gamma``, ``delta``, ``usps_nerv``, ``test_size``.

    Returns
    -------
    errors : dict
        ``{(space, neighbourhood): error_percent}``, every space but t-SNE(X).
    relevances : dict
        ``{neighbourhood: lambda^2}``.
    fits : list of dict
        Each NeRV fit's ``k``, points, Rprop evaluations, whether it converged before
        ``max_iter`` and its wall time.
    fisher_map : ndarray
        The F-t-SNE map.
    """
    X, y, train, seed = _draw(X, y, draw, p)
    labelled = _labelled(reading, train)
    fisher = FisherTSNE(perplexity=p.usps_perplexity, random_state=seed)
    fisher_map = fisher.fit_transform(X, y, labelled=labelled)
    errors = {
        ("X", ""): _error(reading, X, y, train),
        ("F-t-SNE(X)", ""): _error(reading, fisher_map, y, train),
    }
    relevances, fits = {}, []
    cluster = int(np.bincount(y[labelled]).max())
    for neighbourhood, k in neighbourhoods(cluster, p.cluster_factors).items():
        nerv = NeRVRelevance(n_neighbors=k, gamma=p.gamma, delta=p.delta, **dict(p.usps_nerv))
        start = time.perf_counter()
        relevance = nerv.fit(X[labelled], fisher_map[labelled]).relevances_
        seconds = time.perf_counter() - start
        relevances[neighbourhood] = relevance
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
        errors["X_lambda", neighbourhood] = _error(reading, X_lambda, y, train)
        tsne_lambda = tsne_map(X_lambda, p.usps_perplexity, seed)
        errors["t-SNE(X_lambda)", neighbourhood] = _error(reading, tsne_lambda, y, train)
    return errors, relevances, fits, fisher_map


def _table_rows(tsne, readings):
    """One draw's errors in the table's row order: per reading X, t-SNE(X), F-t-SNE(X), then
    ``X_lambda`` and t-SNE(``X_lambda``) per neighbourhood."""
    rows = []
    for reading in READINGS:
        errors = readings[reading][0]
        spaces = [("X", ""), ("t-SNE(X)", ""), ("F-t-SNE(X)", "")]
        spaces += [key for key in errors if key[0] != "X" and key[0] != "F-t-SNE(X)"]
        errors = {**errors, ("t-SNE(X)", ""): tsne[reading]}
        rows += [((reading, *key), errors[key]) for key in spaces]
    index = pd.MultiIndex.from_tuples(
        [key for key, _ in rows], names=["reading", "space", "neighbourhood"]
    )
    return pd.DataFrame({"error_percent": [error for _, error in rows]}, index=index)


def _draw_result(tsne, readings, y_draw):
    """:func:`usps_draws`' errors and extras of one draw from its parts."""
    extras = {
        "fisher_map": readings["paper"][3],
        "y": y_draw,
        "relevances": {
            (reading, neighbourhood): relevance
            for reading in READINGS
            for neighbourhood, relevance in readings[reading][1].items()
        },
        "fits": pd.DataFrame([fit for reading in READINGS for fit in readings[reading][2]]),
    }
    return _table_rows(tsne, readings), extras


def _part(kind, X, y, draw, p):
    """One task of :func:`usps_draws`: t-SNE(X) of a draw (``kind="t-SNE"``) or a reading."""
    return tsne_errors(X, y, draw, p) if kind == "t-SNE" else reading_errors(X, y, draw, kind, p)


def usps_draws(X, y, p, progress=True):
    """Both readings of Table 2 for draws ``0 .. p.usps_draws - 1`` through joblib.

    Each draw is three independent tasks -- each reading (:func:`reading_errors`) and
    t-SNE(X) (:func:`tsne_errors`) -- sent out the paper reading's first, since they fit
    NeRV on twice the points and take longest.

    Returns
    -------
    errors : DataFrame
        Index ``(reading, space, neighbourhood)``, one column per draw (``draw_0``, ...).
    extras : list of dict
        Per draw: ``relevances`` ``{(reading, neighbourhood): lambda^2}``, ``fits`` (one
        row per NeRV fit, as :func:`reading_errors`), ``fisher_map`` (the paper
        reading's F-t-SNE map) and ``y`` of the draw.
    """
    draws = range(p.usps_draws)
    tasks = [(kind, X, y, r, p) for kind in (*READINGS, "t-SNE") for r in draws]
    parts = run_tasks(_part, tasks, "USPS draws", p.n_jobs, progress)
    n = len(draws)
    results = [
        _draw_result(
            parts[2 * n + r],
            {reading: parts[i * n + r] for i, reading in enumerate(READINGS)},
            y[draw_indices(y, p.usps_per_class, p.seed + r)],
        )
        for r in draws
    ]
    errors = pd.concat(
        [frame["error_percent"].rename(f"draw_{r}") for r, (frame, _) in enumerate(results)], axis=1
    )
    return errors, [extras for _, extras in results]
