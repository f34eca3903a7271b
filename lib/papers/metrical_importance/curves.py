"""Figs. 3, 5, 7 of the metrical-importance paper (Denisiuk), Section 4: the F1 discard
curves.

Along the discard order of each importance (:mod:`.orders`) and its reverse, the
features are discarded one by one, least important first, and the F1 score of each
classifier on the held-out 20 % (the paper's 80/20 split, :data:`~.data.TEST_SIZE`) is
recorded (:func:`~.discard.discard_curves`; the random forest averaged over the paper's
100 runs). :func:`setting_rows` restates the settings of Section 4 the curves use.
"""

import pandas as pd

from compendium.reporting import Artefacts, reproduction_row

from . import plots
from .data import ALL_DATA, DATA, TEST_SIZE, _figure_numbers, _with_data
from .discard import CLASSIFIERS, discard_curves, with_reverses
from .orders import _orders

__all__ = ["curve_artefacts", "discard_curves_by_dataset", "setting_rows"]


def curves(data, orders_table, n_rf_runs=100, seed=0, n_jobs=None, classifiers=CLASSIFIERS):
    """F1 discard curves for the orders of a table (rows) and their reverses.

    Returns
    -------
    DiscardCurves
    """
    orders = {name: row.to_numpy() - 1 for name, row in orders_table.iterrows()}
    return discard_curves(
        data.X,
        data.y,
        with_reverses(orders),
        data.categorical,
        classifiers=classifiers,
        n_rf_runs=n_rf_runs,
        test_size=TEST_SIZE,
        random_state=seed,
        n_jobs=n_jobs,
    )


def setting_rows(n_rf_runs):
    """The settings of Section 4 the discard curves restate (status ``setting``).

    Parameters
    ----------
    n_rf_runs : int
        Random-forest runs averaged per curve point in this run.
    """
    settings = [
        ("train fraction of the stratified train/test split", 0.8, 1 - TEST_SIZE, ""),
        (
            "random-forest runs averaged per curve point",
            100,
            n_rf_runs,
            "paper: 'an average result for 100 tests'; fewer runs only smooth the curves "
            "less (N_RF_RUNS)",
        ),
    ]
    return [
        reproduction_row("text", item, paper, ours, "setting", note=note, data=ALL_DATA)
        for item, paper, ours, note in settings
    ]


def discard_curves_by_dataset(data, imps, p):
    """F1 discard curves of every dataset along the seed-``p.seed`` orders of ``p.curve_orders``."""
    orders = _orders(imps)
    return {
        name: curves(
            d,
            orders[name][0].loc[list(p.curve_orders)],
            n_rf_runs=p.n_rf_runs,
            seed=p.seed,
            n_jobs=p.n_jobs,
        )
        for name, d in data.items()
    }


def curve_artefacts(discard, published):
    """Figs. 3, 5, 7 (curves and their points), the mean F1 of every curve and the
    settings the curves restate (:func:`setting_rows`)."""
    result = Artefacts(data={})
    for name, c in discard.items():
        _, _, figure = _figure_numbers(published, name)
        result.tables[f"fig{figure}_discard_curves"] = c.scores.round(5)
        result.data[f"fig{figure}_discard_curves"] = DATA[name]
        result.figures[f"fig{figure}_discard_curves"] = plots.plot_curves(
            c.scores, f"Fig. {figure}: F1 while discarding, {name}"
        )
    summary = pd.concat({name: c.summary() for name, c in discard.items()}, names=["dataset"])
    result.tables["discard_curve_summary"] = _with_data(summary.round(4))
    (n_rf_runs,) = {
        int(c.runs.loc[c.runs["classifier"] == "random_forest", "run"].nunique())
        for c in discard.values()
    }
    result.rows = setting_rows(n_rf_runs)
    return result
