"""Tables 1-3 and Figs. 2, 4, 6 of the metrical-importance paper (Denisiuk), Section 4:
the importances of every dataset and their discard orders.

The "pca" row of each table (the metrical importance of Definition 1, in its "weight"
reading) involves no randomness and is compared position by position; the random-forest
rows ("rf", "sd", "gini", "shapley") by their rank agreement with ours over every seed
(:func:`order_agreement`, Kendall's tau). :func:`pca_order_readings` decides which
reading of Definition 1 and which feature numbering reproduce the "pca" rows;
:func:`heart_numbering` infers Heart's numbering from Table 3's "pca" row and
:func:`heart_numbering_check` checks it on the forest rows, which did not enter it.
"""

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row

from . import findings, plots
from .data import (
    ALL_DATA,
    DATA,
    DATASETS,
    HEART_PAPER_CATEGORICAL,
    _figure_numbers,
    _with_data,
    dataset_rows,
    metrical,
)

__all__ = [
    "discard_orders",
    "heart_numbering",
    "heart_numbering_check",
    "importance_artefacts",
    "infer_numbering",
    "order_agreement",
    "pca_order_readings",
]


def discard_orders(importance_table):
    """Discard orders (least important first) as feature numbers.

    Returns
    -------
    DataFrame
        Rows: importances; columns: discard position 1..n; values: feature numbers.
    """
    orders = {
        name: importance_table.index.to_numpy()[np.argsort(column.to_numpy(), kind="stable")]
        for name, column in importance_table.items()
    }
    table = pd.DataFrame.from_dict(orders, orient="index")
    table.columns = pd.RangeIndex(1, table.shape[1] + 1)
    table.index.name = "order"
    return table


def infer_numbering(our_order, published_order, names):
    """Feature names in the paper's numbering implied by two aligned orders.

    Parameters
    ----------
    our_order : array-like of int
        Our discard order (feature numbers in our numbering).
    published_order : array-like of int
        The paper's discard order of the same importance.
    names : list of str
        Our feature names (number ``k`` is ``names[k-1]``).

    Returns
    -------
    list of str
        ``result[p-1]`` is the feature the paper numbers ``p``.
    """
    result = [None] * len(names)
    for ours, theirs in zip(our_order, published_order, strict=True):
        result[int(theirs) - 1] = names[int(ours) - 1]
    return result


def kendall_tau(order_a, order_b):
    """Kendall's tau between the feature ranks of two discard orders."""
    rank_a = np.argsort(np.asarray(order_a))
    rank_b = np.argsort(np.asarray(order_b))
    return kendalltau(rank_a, rank_b).statistic


def order_agreement(published, ours_by_seed):
    """Agreement of the paper's random orders with ours over several seeds.

    Leave-one-out: each of our runs has a mean Kendall tau with the other
    runs; the paper's row is *within error* when its mean tau with our runs
    is at least the lowest of these, i.e. the paper's order is as close to our
    runs as one of our own runs is to the rest. Needs at least two seeds.

    Parameters
    ----------
    published : DataFrame
        Published discard orders (rows: importances).
    ours_by_seed : list of DataFrame
        Our discard orders, one table per seed.

    Returns
    -------
    DataFrame
        Per importance: ``n_seeds``, ``tau_published`` (mean over seeds),
        ``tau_runs_min`` and ``tau_runs_mean`` (leave-one-out means of our
        runs), ``identical`` and ``status``.
    """
    if len(ours_by_seed) < 2:
        raise ValueError("order_agreement needs our orders for at least two seeds.")
    rows = {}
    for name in published.index:
        ours = [table.loc[name].to_numpy() for table in ours_by_seed]
        pub = published.loc[name].to_numpy()
        to_pub = np.mean([kendall_tau(pub, order) for order in ours])
        loo = [
            np.mean([kendall_tau(a, b) for j, b in enumerate(ours) if j != i])
            for i, a in enumerate(ours)
        ]
        identical = all(np.array_equal(pub, order) for order in ours)
        within = to_pub >= min(loo)
        rows[name] = {
            "n_seeds": len(ours),
            "tau_published": float(to_pub),
            "tau_runs_min": float(min(loo)),
            "tau_runs_mean": float(np.mean(loo)),
            "identical": identical,
            "status": "match" if identical else "within_error" if within else "deviates",
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def _orders(imps):
    """Discard orders of every importance table: ``{name: [orders per seed]}``."""
    return {name: [discard_orders(t) for t in tables] for name, tables in imps.items()}


def table_rows(table_name, published, reproduced, agreement, numbering_note="", data=None):
    """Rows of ``reproduction.csv`` for one discard-order table.

    The "pca" row is compared position by position (it involves no
    randomness); each random-forest row by its rank agreement
    (:func:`order_agreement`). ``numbering_note`` is added to the "pca" rows
    (Heart: the numbering of the categorical features was fitted to that row).

    Parameters
    ----------
    table_name : str
        ``table<n>_discard_orders``, the transcribed table.
    data : str, optional
        Which data (:data:`DATA`).
    """
    artifact = table_name.split("_")[0]
    rows = [
        reproduction_row(
            artifact,
            f"pca order, position {position}",
            int(published.loc["pca", position]),
            int(reproduced.loc["pca", position]),
            "match"
            if published.loc["pca", position] == reproduced.loc["pca", position]
            else "deviates",
            note="deterministic: must be equal" + numbering_note,
            source=source(table_name, "pca"),
            data=data,
        )
        for position in published.columns
    ]
    for name, row in agreement.drop(index="pca").iterrows():
        rows.append(
            reproduction_row(
                artifact,
                f"{name} order, Kendall tau with ours",
                " ".join(map(str, published.loc[name])),
                round(row["tau_published"], 3),
                row["status"],
                deviation=round(1 - row["tau_published"], 3),
                note=(
                    f"mean tau over {row['n_seeds']} seeds; leave-one-out mean tau of our "
                    f"runs >= {row['tau_runs_min']:.3f} (mean {row['tau_runs_mean']:.3f})"
                ),
                source=source(table_name, name),
                data=data,
            )
        )
    return rows


def pca_order_readings(variants, published):
    """Which reading of Definition 1 and which numbering reproduce the "pca" rows.

    Parameters
    ----------
    variants : dict
        :func:`load_numberings`.
    published : mapping
        :func:`compendium.published.load_published` of this paper.

    Returns
    -------
    Artefacts
        Table ``pca_order_readings``: per dataset and numbering, the positions
        of the published "pca" row reproduced by each importance reading
        (``definition``, ``weight``) out of ``n_features``; findings
        ``text_vs_tables`` and ``feature_numbering`` (deterministic counts).
    """
    readings = {}
    for name in DATASETS:
        table, _, _ = _figure_numbers(published, name)
        pub = published[f"table{table}_discard_orders"].loc["pca"].to_numpy()
        for numbering, data in variants.items():
            matching = {
                importance: int(
                    (metrical(data[name], importance=importance).discard_order_ + 1 == pub).sum()
                )
                for importance in ("definition", "weight")
            }
            readings[name, numbering] = {**matching, "n_features": len(pub)}
    table = pd.DataFrame.from_dict(readings, orient="index")
    table.index.names = ["dataset", "numbering"]
    return Artefacts(
        tables={"pca_order_readings": _with_data(table)},
        findings=[
            findings.text_vs_tables(table, ALL_DATA),
            findings.feature_numbering(table, ALL_DATA),
        ],
    )


def heart_numbering(variants, published):
    """Heart's feature numbering implied by Table 3's "pca" row (continuous first).

    Returns
    -------
    Artefacts
        Table ``heart_numbering_inferred`` and a note saying whether the
        inferred categorical block is :data:`HEART_PAPER_CATEGORICAL`.
    """
    data = variants["continuous_first"]["heart"]
    ours = metrical(data).discard_order_ + 1
    pub = published["table3_discard_orders"].loc["pca"]
    inferred = infer_numbering(ours, pub, data.feature_names)
    table = pd.DataFrame(
        {"continuous-first": data.feature_names, "inferred from Table 3": inferred},
        index=pd.RangeIndex(1, len(inferred) + 1, name="paper number"),
    )
    same = tuple(inferred[5:]) == HEART_PAPER_CATEGORICAL
    note = f"Inferred categorical block equals `HEART_PAPER_CATEGORICAL`: **{same}**."
    return Artefacts(tables={"heart_numbering_inferred": table}, notes=[note], data=DATA["heart"])


def importance_artefacts(data, imps, published):
    """Tables 1-3, Figs. 2, 4, 6, the rank agreement of the forest rows and their rows.

    Returns
    -------
    Artefacts
        ``table<n>_discard_orders`` and ``fig<n>_importances`` (seed ``p.seed``),
        ``order_agreement`` (every dataset and importance, over every seed); the
        rows of the dataset facts and of every cell of Tables 1-3; the finding
        ``forest_rows``.
    """
    orders = _orders(imps)
    result = Artefacts(data={})
    agreements = {}
    for name, d in data.items():
        table, importance_figure, _ = _figure_numbers(published, name)
        table_name, figure = f"table{table}_discard_orders", f"fig{importance_figure}_importances"
        result.tables[table_name] = orders[name][0]
        result.tables[figure] = imps[name][0].round(4)
        result.data |= {table_name: DATA[name], figure: DATA[name]}
        result.figures[figure] = plots.plot_importances(
            imps[name][0], f"Fig. {importance_figure}: importances, {name}"
        )
        agreements[name] = order_agreement(published[table_name], orders[name])
        # Heart's categorical numbering was inferred from its own "pca" row
        fitted = (
            "; numbering of the categorical features fitted to this row "
            "(independent check: heart_numbering_check)"
            if name == "heart"
            else ""
        )
        result.rows += dataset_rows(name, d, published["datasets"].loc[name])
        result.rows += table_rows(
            table_name, published[table_name], orders[name][0], agreements[name], fitted, DATA[name]
        )
    agreement = pd.concat(agreements, names=["dataset", "order"]).round(3)
    result.tables["order_agreement"] = _with_data(agreement)
    result.findings.append(findings.forest_rows(agreement, ALL_DATA))
    return result


def heart_numbering_check(imps, published, variants, p):
    """Independent check of Heart's numbering: the forest rows' agreement under each.

    The forest-based rows of Table 3 did not enter :func:`heart_numbering`;
    their Kendall tau with our forest orders of every seed is computed with the
    published numbers read in the continuous-first and in the paper numbering.

    Returns
    -------
    Artefacts
        Table ``heart_numbering_check`` (tau per seed and forest row, under each
        numbering) and the finding ``heart_numbering_check``.
    """
    names = variants["paper"]["heart"].feature_names
    ours = _orders(imps)["heart"]
    rows = published["table3_discard_orders"].drop(index="pca")
    taus = {}
    for numbering in ("continuous_first", "paper"):
        numbered = variants[numbering]["heart"].feature_names
        mapping = {k + 1: names.index(feature) + 1 for k, feature in enumerate(numbered)}
        translated = rows.map(mapping.__getitem__)
        taus[numbering] = {
            (seed, order): kendall_tau(translated.loc[order], table.loc[order])
            for seed, table in zip(p.seeds, ours, strict=True)
            for order in translated.index
        }
    table = pd.DataFrame(taus).rename_axis(["seed", "order"]).round(3)
    return Artefacts(
        tables={"heart_numbering_check": table},
        findings=[findings.heart_numbering_check(table, DATA["heart"])],
        data=DATA["heart"],
    )
