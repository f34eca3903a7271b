"""The cross-paper benchmark notebook: its quick run's artefacts and their consistency."""

import numpy as np
import pandas as pd
import pytest

from papers.cross_paper import league, protocol


@pytest.fixture(scope="module")
def cross_run(quick_run):
    return quick_run("cross_paper")[0]


@pytest.mark.notebook
def test_cross_paper_notebook_writes_every_artefact(cross_run):
    p = protocol.params(quick=True)
    tables = ["league_partitions", "league_scores", "league_ranks_mae", "league_ranks_tau_b"]
    tables += ["league_vs_median", "map_scores", "map_summary", "agreement_seeds"]
    for stem in [
        *tables,
        "agreement_summary",
        "agreement_fits",
        "reproduction",
        "findings",
        "cost",
    ]:
        assert (cross_run / f"{stem}.csv").exists(), stem
    for stem in ["cd_mae", "cd_tau_b", "agreement", *(f"rnx_{d}" for d in p.map_real)]:
        assert (cross_run / f"{stem}.png").exists(), stem


@pytest.mark.notebook
def test_cross_paper_league_is_complete_and_summarised(cross_run):
    p = protocol.params(quick=True)
    scores = pd.read_csv(cross_run / "league_partitions.csv")
    counts = scores.groupby(["dataset", "method"]).size()
    assert set(counts) == {p.n_partitions} and len(counts) == len(p.league_datasets) * len(
        league.METHODS
    )
    assert scores[["mae", "mze"]].ge(0).all().all() and scores["tau_b"].between(-1, 1).all()
    summary = pd.read_csv(cross_run / "league_scores.csv")
    again = league.league_summary(scores.drop(columns="data"))
    # the CSV keeps 6 significant digits
    np.testing.assert_allclose(summary["mae_mean"], again["mae_mean"], rtol=0, atol=1e-5)
    findings = pd.read_csv(cross_run / "findings.csv", keep_default_na=False)
    for dataset in p.league_datasets:
        assert f"beats_median_{dataset}" in set(findings["finding"])
