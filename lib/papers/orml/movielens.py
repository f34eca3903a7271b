"""Table 1 of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan, AAAI 2011):
MovieLens-100k, per user, tune on 100 training movies and test on the rest.

:func:`movielens_users` draws the users with more than 100 ratings and
:func:`movielens_split` one user's split (19 genre flags -> rating);
:func:`run_movielens` tunes and tests every method per user, and
:func:`movielens_artefacts` sets Table 1 beside the paper's. Two studies on the
same splits: :func:`c_invariance` (how ``C`` acts on ORML, on the first user) and
:func:`row_order_artefacts` (whether Table 1 depends on the order of the rows,
:func:`~.draws.row_order_check`).
"""

import time

import numpy as np
import pandas as pd

from compendium.reporting import Artefacts
from dimred.ordinal import ORML
from dimred.utils.parallel import run_tasks

from .draws import row_order_check
from .findings import MOVIELENS
from .methods import (
    C_GRID,
    MOVIELENS_METHODS,
    N_NEIGHBORS,
    TRIVIAL_METHODS,
    _floor_note,
    _quiet,
    evaluate,
    mean_absolute_error,
    repetition_seed,
    summarise,
    table_rows,
    tune,
)

__all__ = [
    "c_invariance",
    "c_invariance_artefacts",
    "movielens_artefacts",
    "movielens_split",
    "movielens_users",
    "row_order_artefacts",
    "run_movielens",
]


def movielens_users(ratings, n_users=10, min_ratings=100, seed=0):
    """``n_users`` users with more than ``min_ratings`` ratings, drawn with ``seed``."""
    counts = ratings["user"].value_counts().sort_index()
    eligible = counts.index[counts > min_ratings].to_numpy()
    return np.sort(np.random.default_rng(seed).choice(eligible, n_users, replace=False))


def movielens_split(movielens, user, n_train=100, seed=0):
    """One user's movies: 19 genre flags -> rating; ``n_train`` random movies for training.

    The user's ratings are put in movie-id order before the draw, so the split does
    not depend on the order of the rows of the ratings file.
    """
    rated = movielens.ratings[movielens.ratings["user"] == user].sort_values("item")
    X = movielens.genres.loc[rated["item"]].to_numpy(dtype=float)
    y = rated["rating"].to_numpy()
    order = np.random.default_rng([seed, int(user)]).permutation(len(y))
    train, test = order[:n_train], order[n_train:]
    return X[train], y[train], X[test], y[test]


def _movielens_user(movielens, user, methods, seed, search_options):
    X_train, y_train, X_test, y_test = movielens_split(movielens, user, seed=seed)
    rows, searches = [], []
    for name in methods:
        params, search = tune(name, X_train, y_train, seed=seed, **search_options)
        searches.append(search.assign(user=user, method=name))
        own = repetition_seed(seed, user)
        mae = evaluate(name, X_train, y_train, X_test, y_test, params, seed=own)
        rows.append({"user": user, "method": name, "mae": mae, "params": params})
    return rows, searches


def run_movielens(movielens, users, methods=MOVIELENS_METHODS, seed=0, n_jobs=1, **search_options):
    """Table 1's protocol: per user, tune on the training movies, test on the rest.

    ``search_options`` (``c_grid``, ``cv_folds``) go to :func:`~.methods.tune`.

    Returns
    -------
    results : DataFrame (user, method, mae, params)
    searches : DataFrame (user, method, param, value, mae)
    """
    tasks = [(movielens, user, methods, seed, search_options) for user in users]
    outputs = run_tasks(_movielens_user, tasks, "MovieLens users", n_jobs)
    results = pd.DataFrame([row for rows, _ in outputs for row in rows])
    searches = pd.concat([s for _, found in outputs for s in found], ignore_index=True)
    return results, searches


def c_invariance(X_train, y_train, X_test, y_test, c_grid=C_GRID):
    """How ``C`` acts on ORML: ``|w|``, ``b_1`` and the test predictions against ``C = 1``.

    Returns
    -------
    DataFrame indexed by ``C``
        ``|w|``, the ratios ``|w| / (C |w(1)|)`` and ``b_1 / (C b_1(1))`` (both 1
        when ``w`` and the thresholds scale linearly), whether the test
        predictions equal those at ``C = 1``, and the test MAE.
    """
    with _quiet():
        reference = ORML(C=1.0).fit(X_train, y_train)
        models = {C: ORML(C=C).fit(X_train, y_train) for C in c_grid}
    norm = np.linalg.norm(reference.coef_)
    expected = reference.predict(X_test)
    rows = [
        {
            "C": C,
            "|w|": np.linalg.norm(model.coef_),
            "|w| / (C |w(1)|)": np.linalg.norm(model.coef_) / (C * norm),
            "b_1 / (C b_1(1))": model.thresholds_[0] / (C * reference.thresholds_[0]),
            "predictions equal to C=1": bool((model.predict(X_test) == expected).all()),
            "test MAE": mean_absolute_error(y_test, model.predict(X_test)),
        }
        for C, model in models.items()
    ]
    return pd.DataFrame(rows).set_index("C")


def c_invariance_artefacts(data, p):
    """:func:`c_invariance` on the first MovieLens user's split."""
    movielens = data["movielens"]
    user = movielens_users(movielens.ratings, p.n_users, seed=p.seed)[0]
    table = c_invariance(*movielens_split(movielens, user, seed=p.seed))
    return Artefacts(tables={"c_invariance": table}, data=MOVIELENS)


def row_order_artefacts(data, p):
    """Does Table 1 depend on the order of the MovieLens rows? (:func:`~.draws.row_order_check`)"""
    movielens = data["movielens"]
    users = movielens_users(movielens.ratings, p.n_users, seed=p.seed)
    splits = {user: movielens_split(movielens, user, seed=p.seed) for user in users}
    with _quiet():  # training rows may miss a rating level
        table = row_order_check(splits, N_NEIGHBORS, p.seed)
    return Artefacts(tables={"row_order": table}, data=MOVIELENS)


def movielens_artefacts(data, published, p):
    """Table 1: per user, tune on the training movies, test on the rest (:func:`run_movielens`).

    Returns
    -------
    Artefacts
        Tables ``table1_movielens`` (published beside ours), ``table1_per_user``
        and ``table1_search``; the rows of every published cell; a note on the
        spread of ORML's cross-validated MAE over ``C``.
    """
    movielens = data["movielens"]
    users = movielens_users(movielens.ratings, p.n_users, seed=p.seed)
    start = time.perf_counter()
    methods = MOVIELENS_METHODS + TRIVIAL_METHODS
    results, searches = run_movielens(movielens, users, methods, p.seed, p.n_jobs, **p.search)
    seconds = time.perf_counter() - start
    table1 = summarise(results, [])
    transcribed = published["table1_movielens"]
    view = transcribed.reset_index().merge(
        table1, on="method", how="right", suffixes=(" paper", " ours")
    )
    orml_search = searches[searches["method"] == "ORML"].groupby("user")["mae"]
    spread = float((orml_search.max() - orml_search.min()).max())
    notes = [
        f"Users {users.tolist()}; {seconds:.0f} s.",
        f"Largest spread of ORML's cross-validated MAE over C, over the users: {spread:.3g}.",
        _floor_note(table1, []),
    ]
    return Artefacts(
        tables={
            "table1_movielens": view,
            "table1_per_user": results.drop(columns="params"),
            "table1_search": searches,
        },
        rows=table_rows(transcribed, table1, "table1_movielens", []),
        notes=notes,
        data=MOVIELENS,
    )
