"""The t-SNE perplexity of Figs. 2 and 3 of the Best-View Projection paper (40 and 30):
the perplexity sweeps over the draws of the synthetic data.

:func:`tsne_sweep` embeds a synthetic dataset by t-SNE for several perplexities
on several draws (each seed drawing the data, t-SNE and the 5-NN folds, as
:func:`~.methods.evaluate` does); :func:`best_perplexities` picks the best of
each draw, :func:`flatness` measures how little the metrics move across
perplexities against across draws, and :func:`perplexity_rows` compares the
most frequent best with the paper's.
"""

import pandas as pd

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row
from dimred.utils.parallel import run_tasks

from . import findings
from .data import SYNTHETIC_DATASETS, _with_data, data_label, load_synthetic
from .methods import embed, embedding_metrics, judge

__all__ = [
    "best_perplexities",
    "best_perplexity",
    "flatness",
    "perplexity_rows",
    "sweep_artefacts",
    "tsne_sweep",
    "tsne_sweeps",
]


def _tsne_case(name, quick, seed, perplexity):
    """One t-SNE embedding of the sweep (on the data of draw ``seed``) and its metrics."""
    X, y = load_synthetic(name, quick, seed)
    Z = embed("t-SNE", X, y, seed, perplexity)
    return Z, {"seed": seed, "perplexity": perplexity, **embedding_metrics(X, y, Z, seed=seed)}


def tsne_sweep(name, perplexities, seeds=(0,), quick=False, n_jobs=None):
    """t-SNE for several perplexities on several draws of a synthetic dataset.

    Draw ``seed`` generates the data (:func:`~.data.load_synthetic`), seeds t-SNE and
    draws the 5-NN folds, as :func:`~.methods.evaluate` does with that seed. (With its PCA
    initialisation, t-SNE itself hardly depends on its seed: the spread over the
    draws is mostly that of the data.)

    Returns
    -------
    embeddings : dict of (int, float) to ndarray
        Keyed by (seed, perplexity).
    table : DataFrame
        One row per seed and perplexity: the metrics, judged against the input
        space of the same draw (:func:`~.methods.judge`).
    """
    n_samples = len(load_synthetic(name, quick)[1])
    cases = [(s, p) for s in seeds for p in perplexities if p < n_samples - 1]
    tasks = [(name, quick, s, p) for s, p in cases]
    results = run_tasks(_tsne_case, tasks, f"t-SNE sweep, {name}", n_jobs)
    embeddings = {case: Z for case, (Z, _) in zip(cases, results, strict=True)}
    table = pd.DataFrame([metrics for _, metrics in results])
    judged = [
        judge(draw, *load_synthetic(name, quick, seed), seed)
        for seed, draw in table.groupby("seed")
    ]
    return embeddings, pd.concat(judged, ignore_index=True)


def best_perplexity(table):
    """Perplexity with the best order preservation, then class separation (one seed's sweep)."""
    ranked = table.sort_values(["order_correlation", "knn_accuracy"], ascending=False)
    return float(ranked.iloc[0]["perplexity"])


def best_perplexities(table):
    """:func:`best_perplexity` of every seed of a sweep: a Series indexed by seed."""
    return pd.Series(
        {seed: best_perplexity(group) for seed, group in table.groupby("seed")}, name="best"
    ).rename_axis("seed")


def perplexity_rows(published, best):
    """Rows for the best t-SNE perplexities (40 for Fig. 2, 30 for Fig. 3).

    ``best`` maps dataset to our best perplexity on each draw
    (:func:`best_perplexities`). The paper's perplexity matches when it is the
    most frequent best (ties included); otherwise the most frequent best (the
    smallest, on a tie) is reported.
    """
    rows = []
    for name in published.index:
        if name not in best:
            continue
        counts = best[name].value_counts().sort_index()
        paper = float(published.loc[name, "perplexity"])
        top = counts.get(paper, 0) == counts.max()
        tally = ", ".join(f"{perplexity:g}: {count}" for perplexity, count in counts.items())
        rows.append(
            reproduction_row(
                "fig2" if name == "gaussians" else "fig3",
                f"best t-SNE perplexity on {name}",
                int(paper),
                paper if top else float(counts.idxmax()),
                "match" if top else "deviates",
                note="best = highest order correlation, then 5-NN accuracy; the most frequent "
                f"best over {len(best[name])} draws of the data and t-SNE (perplexity: draws "
                f"{tally})",
                source=source("tsne_perplexity", name),
                data=data_label(name),
            )
        )
    return rows


def flatness(table, metrics=("order_correlation", "knn_accuracy")):
    """How much each metric of a t-SNE sweep moves across perplexities and across draws.

    Returns
    -------
    DataFrame
        Per metric: ``across_perplexities``, the median over the draws (seeds)
        of the metric's range over the perplexities, and ``across_seeds``, the
        median over perplexities of its range over the draws.
    """
    columns = list(metrics)
    by_seed, by_perplexity = table.groupby("seed")[columns], table.groupby("perplexity")[columns]
    return pd.DataFrame(
        {
            "across_perplexities": (by_seed.max() - by_seed.min()).median(),
            "across_seeds": (by_perplexity.max() - by_perplexity.min()).median(),
        }
    ).rename_axis("metric")


def tsne_sweeps(p):
    """:func:`tsne_sweep` on each synthetic dataset over the draws of ``p.draw_seeds``.

    Returns
    -------
    dict
        ``{name: (embeddings, table)}``; draw ``p.seed`` is the data of the figures.
    """
    return {
        name: tsne_sweep(name, p.perplexities, p.draw_seeds, p.quick, p.n_jobs)
        for name in SYNTHETIC_DATASETS
    }


def sweep_artefacts(sweeps, published):
    """The sweep's metrics, the best perplexity of every seed, how flat the sweep is,
    the rows of the best perplexities and one finding per dataset."""
    tables = {name: table for name, (_, table) in sweeps.items()}
    best = {name: best_perplexities(table) for name, table in tables.items()}
    sweep = pd.concat([table.assign(dataset=name) for name, table in tables.items()])
    flat = pd.concat({name: flatness(table) for name, table in tables.items()}, names=["dataset"])
    paper = published["tsne_perplexity"]["perplexity"]
    return Artefacts(
        tables={
            "tsne_perplexity_sweep": _with_data(sweep.set_index(["dataset", "seed", "perplexity"])),
            "tsne_best_perplexity": _with_data(pd.concat(best, names=["dataset"]).to_frame()),
            "tsne_perplexity_flatness": _with_data(flat),
        },
        rows=perplexity_rows(published["tsne_perplexity"], best),
        findings=[
            findings.best_perplexity(
                name, best[name], flat.loc[name], float(paper[name]), data_label(name)
            )
            for name in tables
        ],
    )
