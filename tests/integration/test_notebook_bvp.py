"""The Best-View Projection notebook: its quick run's artefacts and the committed run's findings.

The committed checks do not hard-code the numbers of a run: they recompute each finding of
``findings.csv`` from the committed table it summarises, and check that the redrawn runs
contain the run the figures show.
"""

import pandas as pd
import pytest

from compendium import paths
from compendium.published import load_published
from compendium.reporting import COLUMNS, MIN_DRAWS, STATUSES
from papers.bvp.data import REAL_DATASETS, REAL_FIGURES, SYNTHETIC_DATASETS, data_label
from papers.bvp.methods import METHODS
from papers.bvp.sensitivity import SENSITIVITY_CLAIMS
from papers.bvp.tsne import best_perplexities

#: The findings the notebook writes, and the one ``make bench`` adds.
NOTEBOOK_FINDINGS = {
    "spectral_closed_form",
    "raw_features",
    "tsne_perplexity_gaussians",
    "tsne_perplexity_swiss_rolls",
    "claims_held",
    "synthetic_claims_over_seeds",
    "real_claims_over_folds",
    "lsda_separation",
    "swiss_roll_sensitivity",
}
BENCH_FINDINGS = {"spectral_speed"}
#: Findings measured over the draws of ``params().draw_seeds``.
DRAWN = {
    "tsne_perplexity_gaussians",
    "tsne_perplexity_swiss_rolls",
    "synthetic_claims_over_seeds",
    "real_claims_over_folds",
    "lsda_separation",
}


@pytest.fixture(scope="module")
def bvp_run(quick_run):
    return quick_run("bvp")[0]


def read(folder, name, **kwargs):
    """A table the notebook wrote, without its ``data`` column."""
    return pd.read_csv(folder / f"{name}.csv", **kwargs).drop(columns="data")


def findings_of(folder):
    return pd.read_csv(folder / "findings.csv", keep_default_na=False).set_index("finding")


def claim_statuses(folder):
    """``{claim: holds}`` from the claim rows of ``reproduction.csv``."""
    report = pd.read_csv(folder / "reproduction.csv")
    claims = report[report["source"].fillna("").str.startswith("claims:")]
    return (claims.set_index(claims["source"].str.removeprefix("claims:"))["status"]) == "match"


@pytest.mark.notebook
def test_bvp_notebook_writes_every_artefact(bvp_run):
    figures = ["fig1_view_sphere", "fig2_gaussians", "fig3_swiss_rolls"] + [
        f"{fig}_{name}" for name, fig in REAL_FIGURES.items()
    ]
    for stem in figures:
        assert (bvp_run / f"{stem}.png").exists() and (bvp_run / f"{stem}.pdf").exists(), stem
    tables = ["table1_datasets", "solver_agreement", "tsne_perplexity_sweep", "metrics"]
    tables += ["tsne_best_perplexity", "tsne_perplexity_flatness", "synthetic_claims_by_seed"]
    tables += ["knn_fold_draws", "real_claims_by_fold_draw", "findings"]
    for stem in tables + ["swiss_roll_sensitivity", "reproduction"]:
        assert (bvp_run / f"{stem}.csv").exists() and (bvp_run / f"{stem}.md").exists(), stem


@pytest.mark.notebook
def test_bvp_notebook_measures_every_method_and_claim(bvp_run):
    metrics = read(bvp_run, "metrics", index_col=[0, 1])
    for name in SYNTHETIC_DATASETS:
        assert list(metrics.loc[name].index) == list(METHODS)
    for name in REAL_DATASETS:
        assert list(metrics.loc[name].index) == ["BVP", "LDA", "LSDA"]
    assert metrics[["separates", "ordered", "informative"]].dtypes.eq(bool).all()
    report = pd.read_csv(bvp_run / "reproduction.csv")
    assert tuple(report.columns) == COLUMNS and set(report["status"]) <= set(STATUSES)
    table1 = report[report["artifact"] == "table1"]
    assert len(table1) == 24 and (table1["status"] == "match").all()
    assert set(table1["data"]) == {data_label(name) for name in REAL_DATASETS}
    claims = report[report["note"].str.startswith("predicate ")]
    assert len(claims) == len(load_published("bvp")["claims"])
    assert report["item"].str.startswith("best t-SNE perplexity").sum() == 2
    agreement = read(bvp_run, "solver_agreement", index_col=[0, 1])
    assert agreement.loc[(slice(None), "standardised"), "max_angle_deg"].max() < 0.01


@pytest.mark.notebook
def test_quick_findings_say_they_rest_on_fewer_draws(bvp_run):
    found = findings_of(bvp_run)
    assert set(found.index) == NOTEBOOK_FINDINGS
    assert found.loc[sorted(DRAWN), "note"].str.startswith("quick run").all()
    assert_findings_summarise_tables(bvp_run)
    assert_draws_contain_the_run(bvp_run)


def assert_draws_contain_the_run(folder):
    """The first draw of every redrawn table is the run the figures and claims show."""
    held = claim_statuses(folder)
    synthetic = read(folder, "synthetic_claims_by_seed", index_col=0)
    assert synthetic.iloc[0].to_dict() == held[synthetic.columns].to_dict()
    real = read(folder, "real_claims_by_fold_draw", index_col=0)
    assert real.iloc[0].to_dict() == held[real.columns].to_dict()
    sweep = read(folder, "tsne_perplexity_sweep", index_col=[0, 1, 2])
    metrics = read(folder, "metrics", index_col=[0, 1])
    paper = load_published("bvp")["tsne_perplexity"]["perplexity"]
    for name in SYNTHETIC_DATASETS:
        first = sweep.loc[(name, synthetic.index[0], paper[name])]
        assert first["knn_accuracy"] == pytest.approx(metrics.loc[(name, "t-SNE"), "knn_accuracy"])


def assert_findings_summarise_tables(folder):
    """Each finding of ``folder/findings.csv`` recomputed from the table it summarises."""
    found = findings_of(folder)
    solvers = read(folder, "solver_agreement", index_col=[0, 1])
    scaled = solvers.drop(index="raw", level="features").drop(index="swiss_rolls", level=0)
    value = found.loc["spectral_closed_form", "value"]
    assert value == pytest.approx(scaled["max_angle_deg"].max(), rel=1e-5)
    raw = solvers.xs("raw", level="features")["max_angle_deg"]
    assert found.loc["raw_features", "value"] == pytest.approx(raw.max(), rel=1e-5)

    sweep = read(folder, "tsne_perplexity_sweep")
    best = read(folder, "tsne_best_perplexity", index_col=[0, 1])["best"]
    for name in SYNTHETIC_DATASETS:
        recomputed = best_perplexities(sweep[sweep["dataset"] == name])
        assert recomputed.tolist() == best.loc[name].tolist()
        row = found.loc[f"tsne_perplexity_{name}"]
        assert (row["value"], row["low"], row["high"], row["n_draws"]) == (
            best.loc[name].median(),
            best.loc[name].min(),
            best.loc[name].max(),
            len(best.loc[name]),
        )

    assert found.loc["claims_held", "value"] == claim_statuses(folder).sum()
    for key, table in [
        ("synthetic_claims_over_seeds", "synthetic_claims_by_seed"),
        ("real_claims_over_folds", "real_claims_by_fold_draw"),
    ]:
        counts = read(folder, table, index_col=0).sum(axis=1)
        assert found.loc[key, "value"] == counts.median() and found.loc[key, "n_draws"] == len(
            counts
        )

    knn = read(folder, "knn_fold_draws", index_col=[0, 1, 2]).xs("LSDA", level="method")
    claims = load_published("bvp")["claims"]
    claimed = claims.loc[
        claims["decided_by"].eq("not_separated") & claims["method"].eq("LSDA"), "dataset"
    ]
    not_separated = (~knn["separates"].unstack("dataset")[list(claimed)]).sum(axis=1)
    assert found.loc["lsda_separation", "value"] == not_separated.median()

    sensitivity = read(folder, "swiss_roll_sensitivity")
    together = sensitivity[list(SENSITIVITY_CLAIMS)].all(axis=1).mean()
    assert found.loc["swiss_roll_sensitivity", "value"] == pytest.approx(together, abs=1e-6)


def test_committed_bvp_findings_summarise_the_committed_tables():
    """findings.csv agrees with the committed tables (and the benchmark) it summarises."""
    folder = paths.FIGURES_DIR / "bvp"
    found = findings_of(folder)
    assert set(found.index) == NOTEBOOK_FINDINGS | BENCH_FINDINGS
    assert (found.loc[sorted(DRAWN), "n_draws"] >= MIN_DRAWS).all()
    assert not found["note"].str.contains("quick run").any()
    assert_findings_summarise_tables(folder)
    assert_draws_contain_the_run(folder)
    assert len(read(folder, "swiss_roll_sensitivity")) == 42 * 3
    bench = read(folder, "benchmark")
    speed = found.loc["spectral_speed"]
    assert speed["value"] == pytest.approx(bench["speed_ratio"].median())
    assert (
        speed["n_draws"] == len(bench) >= 3 and speed["produced_by"] == "make bench (bench_bvp.py)"
    )
