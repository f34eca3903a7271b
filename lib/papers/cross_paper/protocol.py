"""A cross-paper benchmark: the compendium's methods on common ground.

No paper of the compendium compares its method with the others' on the same data and
protocol, nor with trivial baselines. This entry does (``data/papers.toml``,
``cross_paper``):

1. the ordinal league table (:mod:`.league`, data from :mod:`.partitions`): every
   ordinal method on ten ORCA datasets with ORCA's 30 hold-outs, car, USPS as ranks
   and the MovieLens users, with the median-rank and chance baselines, a
   critical-difference diagram and, per dataset, the best method against the median
   rank;
2. every 2-D map scored by ``R_NX(k)`` and its log-``k`` AUC, trustworthiness and
   continuity (:mod:`.maps`);
3. NeRV relevance of those maps against the metrical and forest importances of the
   same features (:mod:`.agreement`).

The ORCA review (Gutiérrez et al., IEEE TKDE 2016) publishes per-dataset results for
KDLOR, but its tables could not be read from here (only the first lines of the paper
and of its web page are indexed, and no repository holds them): the league table sets
no published number beside ours, and a ``not_reproducible`` row says so.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from compendium.published import source
from compendium.reporting import (
    Artefacts,
    draws_note,
    finding_row,
    format_spread,
    listed,
    reproduction_row,
)
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.datasets import ORCA_HOLDOUT_DATASETS
from dimred.metrics.comparison import average_ranks
from dimred.utils.parallel import available_cores, resolve_n_jobs

from ..bvp import data as bvp
from ..metrical_importance import data as metrical
from ..orml.methods import C_GRID
from . import plots
from .agreement import agreement_scores
from .league import (
    METHODS,
    beats_median,
    friedman_table,
    league_summary,
    median_gains,
    score_partitions,
)
from .maps import map_draws, map_scores
from .partitions import canonical, load_partitions

__all__ = [
    "BUILDS_ON",
    "LOADERS",
    "PAPER",
    "Params",
    "agreement_artefacts",
    "league_artefacts",
    "load_data",
    "map_artefacts",
    "maps_of",
    "params",
]

#: Folder of the entry under ``data/published``, ``figures`` and ``notebooks``.
PAPER = "cross_paper"
#: The papers whose protocols the benchmark reuses as they are (their data loading,
#: splits, methods and settings): a change to one of them reruns this entry too.
BUILDS_ON = ("metrical_importance", "bvp", "orml", "relevance_learning", "awa2_dr_survey")
#: The loaders of every dataset the entry reads, most of them called through those
#: protocols; the registry names ``cross_paper`` on exactly these datasets.
LOADERS = (
    datasets.load_orca_holdouts,
    datasets.load_orca,
    datasets.load_usps,
    datasets.load_movielens,
    datasets.load_statlog_heart,
    datasets.load_statlog_australian,
    datasets.load_bank_marketing,
    datasets.load_fashion_mnist,
    datasets.load_awa2,
)
LEAGUE_DATASETS = (*ORCA_HOLDOUT_DATASETS, "car", "usps", "movielens")
LEAGUE_DATA = "real (ORCA ordinal datasets, USPS, MovieLens-100k)"
AGREEMENT_DATA = "real (ORCA ordinal datasets, UCI Statlog Heart, Australian, Bank Marketing)"
#: The methods of the ORML paper's Table 1, as the league runs them.
ORML_COMPARED = ("LDA (threshold)", "KDLOR", "IsoProjection", "NPE", "LPP")
SUPERVISED_MAPS = ("BVP", "LDA", "KDA", "LSDA")
UNSUPERVISED_MAPS = ("PCA", "MDS", "t-SNE")
#: Level of Friedman's test and of the Nemenyi critical difference.
ALPHA = 0.05
#: Below this median Spearman correlation, relevance and importance agree weakly.
WEAK_RHO = 0.5


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        Three small ORCA sets with 3 partitions, two draws of smaller maps.
    seed : int
        Seeds the car and USPS partitions, the MovieLens users, the folds, every
        stochastic map and draw, and the forests.
    n_jobs : int
        Local workers (default: every available core), or a dask cluster:
        :func:`dimred.utils.parallel.use_scheduler`.
    league_datasets : tuple of str
        Datasets of the league table.
    n_partitions : int
        Partitions per dataset (ORCA's 30).
    n_users : int
        MovieLens users (the ORML paper's 10).
    c_grid : tuple of float
        ORML's ``C`` searched inside each training part.
    methods : tuple of str
        The league's methods (:data:`~.league.METHODS`).
    map_draws : int
        Draws (seeds) of every stochastic map and of the forests.
    map_real : tuple of str
        Real BVP datasets mapped (item 2) and compared (item 3).
    per_class : int
        Images per class of each USPS and AwA2 draw.
    ae_epochs : int
        The autoencoder's epochs (the AwA2 survey's CPU schedule: 50).
    mixed : tuple of str
        The metrical-importance datasets of item 3.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    league_datasets: tuple = LEAGUE_DATASETS
    n_partitions: int = 30
    n_users: int = 10
    c_grid: tuple = C_GRID
    methods: tuple = METHODS
    map_draws: int = 10
    map_real: tuple = bvp.REAL_DATASETS
    per_class: int = 100
    ae_epochs: int = 50
    mixed: tuple = tuple(metrical.DATASETS)


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        small = ("contact-lenses", "pasture", "squash-stored")
        return Params(
            quick=True,
            seed=seed,
            n_jobs=n_jobs,
            league_datasets=small,
            n_partitions=3,
            n_users=3,
            c_grid=(1e-2, 1.0, 1e2),
            map_draws=2,
            map_real=small[:2],
            per_class=10,
            ae_epochs=2,
            mixed=("heart",),
        )
    return Params(False, seed, n_jobs)


def load_data(p):
    """The league's partitions, the maps' draws and the mixed datasets.

    Returns
    -------
    dict
        ``partitions`` ``{dataset: [(X_train, y_train, X_test, y_test), ...]}``;
        ``draws`` ``{dataset: [(X, y), ...]}``; ``awa2_label`` (AwA2 or its stand-in);
        ``real`` ``{name: (X, y)}`` (standardised, rows in canonical order);
        ``mixed`` ``{name: PaperData}``.
    """
    draws, awa2_label = map_draws(p)
    return {
        "partitions": load_partitions(p.league_datasets, p.n_partitions, p.n_users, p.seed),
        "draws": draws,
        "awa2_label": awa2_label,
        "real": {name: canonical(*bvp.load_real(name)) for name in p.map_real},
        "mixed": {name: metrical.load(name) for name in p.mixed},
    }


# --------------------------------------------------------------------------- item 1
def league_artefacts(data, published, p):
    """The league table, its ranks, the CD diagrams, the median-rank comparison."""
    scores = score_partitions(data["partitions"], p)
    summary = league_summary(scores)
    tables = {"league_partitions": scores, "league_scores": summary}
    figures, notes, tests = {}, [], {}
    for score in ("mae", "tau_b"):
        ranks, test, cd, groups = friedman_table(summary, score, ALPHA)
        tests[score] = (ranks, test, cd, groups)
        tables[f"league_ranks_{score}"] = ranks
        figures[f"cd_{score}"] = plots.figure_cd(
            ranks["mean_rank"],
            cd,
            groups,
            f"Average rank on mean {score.upper()} over {test.n_datasets} datasets "
            f"(Friedman p = {test.f_pvalue:.2g}; Nemenyi, alpha = 0.05)",
        )
        notes.append(
            f"{score.upper()}: Iman-Davenport F = {test.f:.2f} (p = {test.f_pvalue:.2g}), "
            f"critical difference {cd:.2f}; best average rank: {ranks.index[0]} "
            f"({ranks['mean_rank'].iloc[0]:.2f})."
        )
    versus = beats_median(scores)
    tables["league_vs_median"] = versus
    rows = [*_orml_claims(summary, published["claims"]), _kdlor_review_row()]
    findings = [
        *_median_findings(scores, versus),
        _best_finding(tests["mae"]),
        _rule_finding(summary),
    ]
    return Artefacts(tables, figures, rows, notes, findings, data=LEAGUE_DATA)


def _orml_claims(summary, claims):
    """The ORML paper's two claims of superiority, decided on the league."""
    wide = summary.pivot(index="dataset", columns="method", values="mae_mean")
    compared = wide[["ORML", *ORML_COMPARED]]
    mean_ranks = pd.Series(average_ranks(compared.to_numpy())[1], compared.columns)
    wins = int((compared.idxmin(axis=1) == "ORML").sum())
    better = mean_ranks.drop("ORML") > mean_ranks["ORML"]
    rows = []
    for claim, holds, value in (
        (
            "orml_best_on_average",
            bool(better.all()),
            f"ORML's average rank {mean_ranks['ORML']:.2f}; "
            + ", ".join(f"{m} {r:.2f}" for m, r in mean_ranks.drop("ORML").items()),
        ),
        (
            "orml_best_mostly",
            wins > len(compared) / 2,
            f"ORML lowest on {wins} of {len(compared)} datasets",
        ),
    ):
        rows.append(
            reproduction_row(
                claims.loc[claim, "artifact"],
                f"{claim}: {claims.loc[claim, 'decided_by']}",
                "holds",
                value,
                "match" if holds else "deviates",
                note=f'ORML paper: "{claims.loc[claim, "quote"]}" Decided on the league\'s '
                "datasets and protocol, not the paper's.",
                source=source("claims", claim),
            )
        )
    return rows


def _kdlor_review_row():
    return reproduction_row(
        "league",
        "KDLOR's per-dataset MAE in the ORCA review (Gutiérrez et al. 2016)",
        "not found",
        "league_scores.csv (KDLOR rows)",
        "not_reproducible",
        note="The review's tables could not be read from here: only the first lines of its "
        "PDF and web page are indexed, and no repository searched (ayrna/orca, orca-python, "
        "skordinal) holds them. Nothing published is set beside our KDLOR.",
    )


def _median_findings(scores, versus):
    findings = []
    gains_of = median_gains(scores)
    for dataset, row in versus.iterrows():
        gains = gains_of[dataset][1].to_numpy()
        verdict = "beyond" if row["beyond_spread"] else "not beyond"
        findings.append(
            finding_row(
                f"beats_median_{dataset}",
                f"{dataset}: best against the median rank",
                f"On {dataset}, the lowest mean MAE is {row['best']}'s, "
                f"{row['best_mae']:.3f} against the median rank's {row['median_mae']:.3f}: "
                f"a gain of {row['gain_mean']:.3f} ± {row['gain_sd']:.3f} (sd over "
                f"{int(row['partitions'])} partitions), {verdict} the partition-to-partition "
                "spread.",
                f"median-rank MAE minus {row['best']}'s, per partition ({dataset})",
                gains,
                data=LEAGUE_DATA,
                predicate="mean gain > its standard deviation over partitions",
                holds=bool(row["beyond_spread"]),
                spread=f"min-max over {len(gains)} partitions",
                note=draws_note(len(gains), "partitions"),
            )
        )
    return findings


def _best_finding(test_mae):
    ranks, test, cd, groups = test_mae
    best = ranks.index[0]
    tied = sorted({m for g in groups if best in g for m in g} - {best})
    per_dataset = ranks.loc[best].drop("mean_rank").to_numpy(dtype=float)
    return finding_row(
        "league_best",
        "Best average rank",
        f"Over {test.n_datasets} datasets, {best} has the best average MAE rank "
        f"({ranks.loc[best, 'mean_rank']:.2f} of {test.n_methods}); Friedman's test "
        f"{'rejects' if test.f_pvalue < ALPHA else 'does not reject'} equal methods "
        f"(Iman-Davenport p = {test.f_pvalue:.2g}) and the Nemenyi critical difference is "
        f"{cd:.2f}: {listed(tied, 'no other method')} "
        f"{'is' if len(tied) == 1 else 'are'} not significantly worse.",
        f"{best}'s MAE rank on each dataset",
        per_dataset,
        data=LEAGUE_DATA,
        spread=f"min-max over {len(per_dataset)} datasets",
        note="" if len(per_dataset) >= 10 else "quick run: fewer than 10 datasets",
    )


def _rule_finding(summary):
    wide = summary.pivot(index="dataset", columns="method", values="mae_mean")
    gains = np.concatenate(
        [(wide[f"{m} (threshold)"] - wide[f"{m} (1-NN)"]).to_numpy() for m in SUPERVISED_MAPS]
    )
    share = float(np.mean(gains > 0))
    return finding_row(
        "nearest_rule_better",
        "1-NN rule against the threshold rule",
        f"Followed by the 1-NN rule instead of ORML's threshold rule, BVP, LDA, KDA and LSDA "
        f"lower their mean MAE on {share:.0%} of the {len(gains)} dataset-projection pairs "
        f"(threshold MAE minus 1-NN MAE: {format_spread(gains, 3, what='pairs')}).",
        "threshold-rule MAE minus 1-NN-rule MAE, per dataset and projection",
        gains,
        data=LEAGUE_DATA,
        predicate="the 1-NN rule is better on more than half of the pairs",
        holds=share > 0.5,
        spread=f"min-max over {len(gains)} dataset-projection pairs",
    )


# --------------------------------------------------------------------------- item 2
def maps_of(data, p):
    """Every map of item 2 scored: ``(table, curves, maps)`` (:func:`.maps.map_scores`)."""
    return map_scores(data["draws"], p)


def map_artefacts(data, scored, p):
    """AUC, trustworthiness and continuity of every map (mean, sd over draws), one
    ``R_NX`` figure per dataset and the best map per dataset."""
    table, curves, _ = scored
    label = f"mixed (BVP synthetic and ORCA sets, USPS, {data['awa2_label']})"
    grouped = table.groupby(["dataset", "method"], sort=False)
    metrics = ["rnx_auc", "trustworthiness", "continuity"]
    summary = grouped[metrics].agg(["mean", "std"])
    summary.columns = [f"{a}_{b}" for a, b in summary.columns]
    summary["draws"] = grouped.size()
    summary = summary.reset_index()
    figures, findings = {}, []
    for dataset in dict.fromkeys(table["dataset"]):
        own = summary[summary["dataset"] == dataset].set_index("method")
        aucs = own["rnx_auc_mean"]
        name = f"{dataset} ({data['awa2_label']})" if dataset == "awa2" else dataset
        figures[f"rnx_{dataset}"] = plots.figure_rnx(
            {m: curves[dataset, m] for m in aucs.index}, aucs, f"$R_{{NX}}(k)$: {name}"
        )
        findings.append(_best_map(table, dataset, name, aucs, label))
    return Artefacts(
        {"map_scores": table, "map_summary": summary}, figures, findings=findings, data=label
    )


def _best_map(table, dataset, name, aucs, label):
    best, worst = aucs.idxmax(), aucs.idxmin()
    values = table[(table["dataset"] == dataset) & (table["method"] == best)]["rnx_auc"]
    return finding_row(
        f"best_map_{dataset}",
        f"{dataset}: best map by R_NX AUC",
        f"On {name}, {best} keeps neighbourhoods best (R_NX AUC "
        f"{format_spread(values, 3)}); {worst} worst ({aucs[worst]:.3f}).",
        f"R_NX AUC of {best} on {dataset}",
        values.to_numpy(),
        data=label,
        note=draws_note(len(values)) if len(values) > 1 else "",
    )


# --------------------------------------------------------------------------- item 3
def agreement_artefacts(data, scored, p):
    """Spearman correlation of NeRV relevance and feature importance (mean, sd over
    seeds), the heat map and what the agreement says."""
    table, fits = agreement_scores(data["real"], data["mixed"], scored[2], p)
    grouped = table.groupby(["dataset", "map", "importance"], sort=False)["spearman"]
    summary = grouped.agg(["mean", "std", "count"]).add_prefix("spearman_").reset_index()
    figure = plots.figure_agreement(summary, "NeRV relevance of each map against importance")
    findings = [
        _agreement_finding(table, "metrical"),
        _agreement_finding(table, "rf"),
        _supervised_finding(table, data["real"]),
    ]
    stopped = fits[~fits["converged"]]
    note = (
        f"{len(stopped)} of {len(fits)} NeRV fits stopped at max_iter before converging "
        f"({listed(sorted(set(stopped['dataset'] + ' ' + stopped['map'])), 'none')}; "
        "`agreement_fits`): their relevances are kept as they stood."
    )
    stacked = fits[fits["stacked"] > 0]
    note += (
        f" {len(stacked)} fits are of maps that stack more than k = 10 points on one "
        f"location ({listed(sorted(set(stacked['dataset'] + ' ' + stacked['map'])), 'none')}; "
        "column `stacked`): NeRV's width in the map cannot make k neighbours there, q sits "
        "on the duplicates and the divergence outweighs the penalty, so their relevances "
        "are those of vanishing map widths; they are kept in the correlations."
    )
    return Artefacts(
        {"agreement_seeds": table, "agreement_summary": summary, "agreement_fits": fits},
        {"agreement": figure},
        notes=[note],
        findings=findings,
        data=AGREEMENT_DATA,
    )


def _agreement_finding(table, kind):
    own = table[table["importance"] == kind]
    per_seed = own.groupby("seed")["spearman"].median().to_numpy()
    positive = float(np.mean(own["spearman"].dropna() > 0))
    strength = "weak" if np.median(per_seed) < WEAK_RHO else "clear"
    return finding_row(
        f"relevance_vs_{kind}",
        f"Relevance against the {kind} importance",
        f"Over every dataset and map, the median Spearman correlation of NeRV relevance "
        f"with the {kind} importance is {format_spread(per_seed, 2, what='seeds')}; "
        f"{positive:.0%} of the correlations are positive. The agreement is {strength} "
        f"(median rho {'below' if strength == 'weak' else 'at least'} {WEAK_RHO}): what a "
        "map keeps of a feature and what the feature tells about the labels are "
        + ("largely different things." if strength == "weak" else "largely the same thing."),
        f"median over datasets and maps of Spearman(relevance, {kind}), per seed",
        per_seed,
        data=AGREEMENT_DATA,
        predicate=f"the median correlation is below {WEAK_RHO} (weak agreement)",
        holds=strength == "weak",
        spread=f"min-max over {len(per_seed)} seeds",
        note=draws_note(len(per_seed), "seeds"),
    )


def _supervised_finding(table, real):
    """Supervised against unsupervised maps, per ORCA set: the median over maps and seeds
    (only t-SNE changes with the seed; the metrical importance does not)."""
    own = table[(table["importance"] == "metrical") & table["dataset"].isin(list(real))]
    by = own.groupby(["dataset", own["map"].isin(SUPERVISED_MAPS)])["spearman"].median()
    gap = by.unstack()
    gap = (gap[True] - gap[False]).dropna()
    wins = int((gap > 0).sum())
    holds = wins > len(gap) / 2
    reading = (
        "a map that separates the ranks keeps more of the features that tell them apart."
        if holds
        else "separating the ranks does not make a map keep the features that tell them apart."
    )
    return finding_row(
        "supervised_maps_agree",
        "Supervised maps agree more with the importance",
        f"On {wins} of {len(gap)} ORCA sets, the relevance of the supervised maps (BVP, LDA, "
        f"KDA, LSDA) correlates with the metrical importance more than that of PCA, MDS "
        f"and t-SNE (difference of median Spearman's rho: "
        f"{format_spread(gap.to_numpy(), 2, what='datasets')}): " + reading,
        "median Spearman(relevance, metrical) of supervised minus unsupervised maps, per ORCA set",
        gap.to_numpy(),
        data=AGREEMENT_DATA,
        predicate="the difference is positive on more than half of the datasets",
        holds=holds,
        spread=f"min-max over {len(gap)} datasets",
        note="per dataset, the median over maps and seeds (t-SNE is drawn at every seed); "
        "the spread is over datasets",
    )
