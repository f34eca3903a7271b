"""The ORML notebook: its quick run's artefacts and the committed run's findings."""

import numpy as np
import pandas as pd
import pytest

from compendium import paths
from compendium.published import load_published
from compendium.reporting import COLUMNS, STATUSES


@pytest.fixture(scope="module")
def orml_run(quick_run):
    return quick_run("orml")[0]


@pytest.mark.notebook
def test_orml_notebook_writes_every_artefact(orml_run):
    for stem in ["umist_subjects", "fig3_umist_projection", "table2_mae_curves"]:
        assert (orml_run / f"{stem}.png").exists() and (orml_run / f"{stem}.pdf").exists(), stem
    tables = ["c_invariance", "singular_scatter", "fig3_intervals", "fig3_summary"]
    tables += ["table1_movielens", "table1_search", "table2_usps", "table2_search", "table2_runs"]
    for stem in tables + ["reproduction"]:
        assert (orml_run / f"{stem}.csv").exists() and (orml_run / f"{stem}.md").exists(), stem


@pytest.mark.notebook
def test_orml_notebook_findings(orml_run):
    """C never changes a prediction; the pseudo-inverse fails exactly when the graph splits."""
    c_effect = pd.read_csv(orml_run / "c_invariance.csv", index_col=0)
    assert c_effect["predictions equal to C=1"].all()
    assert np.allclose(c_effect[["|w| / (C |w(1)|)", "b_1 / (C b_1(1))"]], 1.0)
    search = pd.read_csv(orml_run / "table1_search.csv")
    orml_search = search[search["method"] == "ORML"].groupby("user")["mae"]
    assert (orml_search.max() - orml_search.min()).max() < 1e-12
    singular = pd.read_csv(orml_run / "singular_scatter.csv", index_col=0)
    split = singular["components"] > 1
    assert split.all() and (singular["rank S"] < singular["rank X"]).all()
    assert (singular["cost ridge"] < 1e-6 * singular["cost pinv"]).all()
    assert (singular["margin ridge"] > singular["margin pinv"]).all()


@pytest.mark.notebook
def test_orml_notebook_reports_every_published_number(orml_run):
    report = pd.read_csv(orml_run / "reproduction.csv")
    assert tuple(report.columns) == COLUMNS and set(report["status"]) <= set(STATUSES)
    mae = report[report["item"].str.startswith("MAE")]
    # every size runs in quick mode too (2 repetitions): the 44 cells of Table 2
    assert mae["artifact"].value_counts().to_dict() == {"table1": 6, "table2": 44}
    fig3 = report[report["item"].str.contains("rank|resolution")]
    assert len(fig3) == 3 + 1 + 6 + 2
    quoted = report[report["note"].str.startswith("paper (")]
    assert len(quoted) == len(load_published("orml")["claims"])
    assert "not_reproducible" in set(report.loc[report["item"] == "USPS images", "status"])


def finding(findings, key):
    return findings.set_index("finding").loc[key]


@pytest.mark.notebook
def test_orml_quick_run_is_order_free_and_states_its_findings(orml_run):
    order = pd.read_csv(orml_run / "row_order.csv")
    assert (order[["agreement reversed", "agreement shuffled"]] == 1).all().all()
    assert (order["rows with a duplicate"] > 20).all()  # MovieLens rows do duplicate
    findings = pd.read_csv(orml_run / "findings.csv", keep_default_na=False)
    assert set(findings["finding"]) >= {"c_invariance", "pinv_graph_split", "row_order"}
    assert str(finding(findings, "row_order")["holds"]) == "True"


def test_committed_orml_findings_summarise_the_committed_tables():
    """Each finding's value is recomputed from the committed table it summarises."""
    folder = paths.FIGURES_DIR / "orml"
    findings = pd.read_csv(folder / "findings.csv", keep_default_na=False)
    per_user = pd.read_csv(folder / "table1_per_user.csv")
    orml = per_user.loc[per_user["method"] == "ORML", "mae"]
    row = finding(findings, "orml_movielens")
    assert (row["value"], row["low"], row["high"], row["n_draws"]) == pytest.approx(
        (orml.median(), orml.min(), orml.max(), len(orml))
    )
    assert row["n_draws"] >= 10
    median = per_user.loc[per_user["method"] == "median rank", "mae"]
    assert finding(findings, "movielens_median_rank")["value"] == pytest.approx(median.median())
    splits = pd.read_csv(folder / "umist_splits.csv", index_col=0)
    assert len(splits) >= 10
    assert finding(findings, "umist_fig3")["value"] == pytest.approx(
        splits["test_accuracy"].median()
    )
    gap = splits["test MAE pinv K=5"] - splits["test MAE ridge K=5"]
    assert finding(findings, "pinv_graph_split")["value"] == pytest.approx(gap.median())
    order = pd.read_csv(folder / "row_order.csv")
    agreement = order[["agreement reversed", "agreement shuffled"]].to_numpy()
    assert finding(findings, "row_order")["low"] == pytest.approx(agreement.min())
    table2 = pd.read_csv(folder / "table2_usps.csv")
    kdlor = table2.loc[table2["method"] == "KDLOR", "mean ours"]
    assert finding(findings, "usps_comparison")["value"] == pytest.approx(kdlor.median())
    # the claims on Fig. 3 are decided over the same splits
    report = pd.read_csv(folder / "reproduction.csv").set_index("item")
    assert report.loc["umist_train_ordered", "reproduced"].endswith(f"{len(splits)} splits")
