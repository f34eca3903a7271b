"""The verbal claims of the metrical-importance paper (Denisiuk), Section 4
(``claims.csv``).

Each claim is decided on our importances (over every seed of the forests: a claim about
the random-forest importances must hold for all of them) and on the F1 discard curves of
Figs. 3, 5, 7 (:mod:`.curves`): feature 11 of Australian and feature 6 of Heart "very
important for all the algorithms", the metrical importance's most important feature,
Bank's feature 11 least important for most algorithms and its loss of F1 when dropped
first (Fig. 5), and every direct order beating its reverse. Each row quotes the paper.
"""

import numpy as np
import pandas as pd

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row

from .data import DATA, DATASETS, ORDERS, _figure_numbers
from .discard import reverse_name
from .orders import _orders

__all__ = ["claim_artefacts"]


def direct_beats_reverse(curves):
    """Per importance and classifier: mean F1 of the direct minus the reverse order."""
    summary = curves.summary()
    direct = [name for name in ORDERS if name in summary.index]
    return pd.DataFrame(
        {name: summary.loc[name] - summary.loc[reverse_name(name)] for name in direct}
    ).T


def _rank_from_top(importance_table, feature):
    """Rank of ``feature`` per importance (1 = most important)."""
    return importance_table.rank(ascending=False).loc[feature].astype(int)


def claim_rows(name, importance_tables, curves, orders_table, claims, figure):
    """Rows for the paper's verbal claims about one dataset.

    ``importance_tables`` holds one importance table per seed; a claim about
    the random-forest importances must hold for every seed. ``claims`` is the
    transcribed ``claims.csv``; ``figure`` the dataset's discard-curve figure.
    """
    first = importance_tables[0]
    rows = []
    if name == "australian":
        rows.append(_top_claim("feature11_important_all", importance_tables, 11, 3))
        rows.append(_most_important_claim("pca_most_important_14", first, 14))
    if name == "heart":
        rows.append(_top_claim("feature6_important_all", importance_tables, 6, 3))
        rows.append(
            _most_important_claim(
                "pca_most_important_8", first, 8, note="numbering fitted to Table 3's pca row"
            )
        )
    if name == "bank":
        rows.append(_least_claim(importance_tables))
        rows.append(_drop11_claim(curves, orders_table))
    gains = direct_beats_reverse(curves)
    holds = int((gains > 0).to_numpy().sum())
    rows.append(
        reproduction_row(
            figure,
            f"direct_beats_reverse: {name}, importance x classifier pairs where the direct "
            "order beats its reverse",
            gains.size,
            holds,
            "match" if holds == gains.size else "deviates",
            note="mean F1 over the discard steps, direct minus reverse; "
            f"smallest gain {gains.to_numpy().min():.3f}; random forest averaged over "
            f"{int(curves.runs['run'].max()) + 1} runs (paper: 100)",
        )
    )
    return [_with_quote(row, claims) | {"data": DATA[name]} for row in rows]


def _with_quote(row, claims):
    """Name the claim as the row's source and prefix its note with the paper's words."""
    claim = row["item"].split(":")[0]
    quote = f'paper ({claims.loc[claim, "section"]}): "{claims.loc[claim, "quote"]}"'
    note = f"{quote}; {row['note']}" if row["note"] else quote
    return row | {"note": note, "source": source("claims", claim)}


def _top_claim(claim, tables, feature, top):
    """'Feature k was marked very important by all the algorithms': in the top 3."""
    worst = max(int(_rank_from_top(t, feature).max()) for t in tables)
    return reproduction_row(
        "text",
        f"{claim}: worst rank of feature {feature} over the 5 importances and seeds",
        f"<= {top}",
        worst,
        "match" if worst <= top else "deviates",
        deviation=max(0, worst - top),
        note="'very important' read as ranked in the top 3",
    )


def _most_important_claim(claim, first, feature, note=""):
    """'The pca marked feature k as the most important'."""
    top = int(first["pca"].idxmax())
    return reproduction_row(
        "text",
        f"{claim}: most important feature by the metrical importance",
        feature,
        top,
        "match" if top == feature else "deviates",
        note=note,
    )


def _least_claim(tables):
    """Bank: 'most algorithms marked feature 11 as less important'."""
    forest = [n for n in ORDERS if n != "pca"]
    least = np.mean([[int(t[n].idxmin()) == 11 for n in forest] for t in tables])
    return reproduction_row(
        "text",
        "feature11_least_important_most: share of forest importances (x seeds) "
        "ranking feature 11 last",
        "> 0.5",
        round(float(least), 3),
        "match" if least > 0.5 else "deviates",
    )


def _drop11_claim(curves, orders_table):
    """Bank: 'dropping feature 11 in random forest caused significant loss of F1'.

    Read on the random-forest curve of the first order that discards feature
    11 first: the F1 lost at that step, run by run (the runs share seeds), is
    significant when its mean exceeds twice its standard error.
    """
    item = "drop11_hurts_rf: F1 loss of the random forest when feature 11 is dropped first"
    curved = set(curves.runs["order"])
    first11 = [
        name for name, row in orders_table.iterrows() if row.iloc[0] == 11 and name in curved
    ]
    if not first11:
        return reproduction_row(
            "fig5",
            item,
            "significant loss",
            "no order discards feature 11 first",
            "not_reproducible",
        )
    loss = curves.paired_loss(first11[0], "random_forest", 1)
    se = loss.std(ddof=1) / np.sqrt(loss.size) if loss.size > 1 else np.nan
    return reproduction_row(
        "fig5",
        item,
        "significant loss",
        round(float(loss.mean()), 4),
        "match" if loss.mean() > 2 * se else "deviates",
        note=f"{first11[0]} order; mean paired loss vs 2 x its standard error ({2 * se:.4f}) "
        f"over {loss.size} runs",
    )


def claim_artefacts(imps, discard, published):
    """Rows of every claim of ``claims.csv`` (see :func:`claim_rows`)."""
    orders = _orders(imps)
    rows = []
    for name in DATASETS:
        _, _, figure = _figure_numbers(published, name)
        rows += claim_rows(
            name, imps[name], discard[name], orders[name][0], published["claims"], f"fig{figure}"
        )
    return Artefacts(rows=rows)
