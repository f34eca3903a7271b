"""The relevance-learning notebook: its quick run's artefacts and the committed run's findings."""

import numpy as np
import pandas as pd
import pytest

from compendium import paths


def finding(findings, key):
    return findings.set_index("finding").loc[key]


@pytest.fixture(scope="module")
def relevance_run(quick_run):
    return quick_run("relevance_learning")[0]


@pytest.mark.notebook
def test_relevance_quick_run_decides_fig2_over_draws(relevance_run):
    draws = pd.read_csv(relevance_run / "fig2_draws.csv", index_col=0)
    assert len(draws) >= 2 and draws.index.is_unique
    report = pd.read_csv(relevance_run / "reproduction.csv")
    claims = report["source"].fillna("").str.startswith("claims:set1_")
    fig2 = report[claims & report["artifact"].eq("fig2")]  # Fig. 1's claim is on one map
    assert len(fig2) >= 5
    assert fig2["reproduced"].str.endswith(f"of {len(draws)} draws of set1").all()
    settings = report[report["item"].str.startswith("setting ")]
    # a setting is restated ("setting"), differs ("deviates") or is one of the Adrenal data,
    # which no one can obtain ("not_reproducible")
    assert set(settings["status"]) <= {"setting", "deviates", "not_reproducible"}
    findings = pd.read_csv(relevance_run / "findings.csv", keep_default_na=False)
    assert {"fig2_nerv_zero_k", "table1_seeds", "table2_leak_free_gain"} <= set(findings["finding"])


def test_committed_relevance_findings_summarise_the_committed_tables():
    """Each finding's value is recomputed from the committed table it summarises."""
    folder = paths.FIGURES_DIR / "relevance_learning"
    findings = pd.read_csv(folder / "findings.csv", keep_default_na=False)
    draws = pd.read_csv(folder / "fig2_draws.csv", index_col=0)
    assert len(draws) >= 10
    zero = draws["nerv_zero_from_k_perplexity"].dropna()
    row = finding(findings, "fig2_nerv_zero_k")
    assert (row["value"], row["low"], row["high"]) == (zero.median(), zero.min(), zero.max())
    drop = draws["q_smallest_k"] - draws["q_smallest_k_without_dim3"]
    assert finding(findings, "fig2_backward_local")["value"] == pytest.approx(drop.median())
    errors = pd.read_csv(folder / "table2_usps_draws.csv", keep_default_na=False)
    errors = errors.set_index(["reading", "space", "neighbourhood"]).drop(columns="data")
    assert errors.shape[1] >= 10
    gain = errors.loc[("leak_free", "X", "")] - errors.loc[("leak_free", "X_lambda", "medium")]
    row = finding(findings, "table2_leak_free_gain")
    assert (row["value"], row["low"], row["high"]) == pytest.approx(
        (np.median(gain), gain.min(), gain.max()), abs=1e-6
    )
    sensitivity = pd.read_csv(folder / "table1_sensitivity.csv", index_col=0)
    seeds = sensitivity.loc[sensitivity["kind"] == "seed", "all_cells_agreeing"]
    assert len(seeds) >= 10
    assert finding(findings, "table1_seeds")["value"] == seeds.median()


@pytest.mark.parametrize(("key", "rows"), [("nerv_chunk_speed", "chunks of rows vs")])
def test_committed_evaluation_findings_summarise_the_benchmark(key, rows):
    """``make bench``'s per-evaluation findings restate the ratios of their rows of
    ``benchmark.csv`` (median and range over the sizes) and the rows' largest difference."""
    folder = paths.FIGURES_DIR / "relevance_learning"
    findings = pd.read_csv(folder / "findings.csv", keep_default_na=False)
    bench = pd.read_csv(folder / "benchmark.csv")
    ratios = bench.loc[
        bench["benchmark"].str.contains(rows), ["n", "speed_ratio", "max_difference"]
    ]
    assert len(ratios) == 2
    row = finding(findings, key)
    assert (row["value"], row["low"], row["high"], row["n_draws"]) == pytest.approx(
        (
            ratios["speed_ratio"].median(),
            ratios["speed_ratio"].min(),
            ratios["speed_ratio"].max(),
            2,
        )
    )
    for r in ratios.itertuples():
        assert f"{r.speed_ratio:.1f}× at {r.n:,} points" in row["statement"]
    assert f"largest difference {ratios['max_difference'].max():.0g}" in row["statement"]
