"""Every notebook runs end to end in quick mode through papermill."""

import json

import numpy as np
import pandas as pd
import papermill as pm
import pytest

from dimred.compendium import paths
from dimred.compendium.reporting import COLUMNS, STATUSES
from dimred.experiments.bvp import protocol as bvp
from dimred.experiments.metrical_importance import protocol as mi
from dimred.experiments.orml import protocol as orml

NOTEBOOKS = sorted((paths.ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs_and_parameterised(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    parameters = [c for c in code if "parameters" in c["metadata"].get("tags", [])]
    assert len(parameters) == 1
    source = "".join(parameters[0]["source"])
    assert "quick = False" in source and "output_dir =" in source


def run_quick(name, tmp_path_factory):
    """Execute ``notebooks/<name>.ipynb`` in quick mode; return its output folder."""
    out = tmp_path_factory.mktemp(name)
    pm.execute_notebook(
        str(paths.ROOT / "notebooks" / f"{name}.ipynb"),
        str(out / "executed.ipynb"),
        parameters={"quick": True, "output_dir": str(out / "figures")},
        cwd=str(paths.ROOT / "notebooks"),
        progress_bar=False,
    )
    return out / "figures"


@pytest.fixture(scope="module")
def metrical_run(mirrored_data, tmp_path_factory):
    return run_quick("metrical_importance", tmp_path_factory)


@pytest.mark.notebook
def test_metrical_importance_notebook(metrical_run):
    for stem in [
        "table1_discard_orders",
        "table2_discard_orders",
        "table3_discard_orders",
        "fig2_importances",
        "fig4_importances",
        "fig6_importances",
        "fig3_discard_curves",
        "fig5_discard_curves",
        "fig7_discard_curves",
    ]:
        assert (metrical_run / f"{stem}.csv").exists(), stem
        assert (metrical_run / f"{stem}.md").exists(), stem
        if stem.startswith("fig"):
            assert (metrical_run / f"{stem}.png").exists() and (
                metrical_run / f"{stem}.pdf"
            ).exists()
    report = pd.read_csv(metrical_run / "reproduction.csv")
    assert tuple(report.columns) == COLUMNS
    assert set(report["status"]) <= set(STATUSES)
    pca = report[report["item"].str.startswith("pca order")]
    assert len(pca) == 14 + 16 + 13 and (pca["status"] == "match").all()
    sizes = report[report["artifact"] == "text"].iloc[:4]
    assert (sizes["status"] == "match").all()
    forest_rows = report[report["item"].str.contains("Kendall tau")]
    assert len(forest_rows) == 12
    claims = mi.load_published("claims").index
    claimed = {item.split(":")[0] for item in report["item"]} & set(claims)
    assert claimed == set(claims)
    quoted = report[report["item"].str.split(":").str[0].isin(claims)]
    assert quoted["note"].str.startswith("paper (").all()
    sizes_and_pca = report[
        report["item"].str.startswith("pca order") & (report["artifact"] == "table3")
    ]
    assert sizes_and_pca["note"].str.contains("fitted to this row").all()


@pytest.mark.notebook
def test_metrical_importance_tables_have_paper_layout(metrical_run):
    table = pd.read_csv(metrical_run / "table3_discard_orders.csv", index_col=0)
    assert list(table.index) == ["pca", "rf", "sd", "gini", "shapley"]
    assert list(table.columns) == [str(k) for k in range(1, 14)]
    assert all(sorted(row) == list(range(1, 14)) for row in table.to_numpy().tolist())


@pytest.mark.notebook
def test_metrical_importance_findings_beyond_the_tables(metrical_run):
    """The notebook's own findings: the Heart numbering check and Remark 2's flaw."""
    check = pd.read_csv(metrical_run / "heart_numbering_check.csv", index_col=0)
    assert (check["paper"] > check["continuous_first"] + 0.2).all()
    scaling = pd.read_csv(metrical_run / "scaling_comparison.csv").set_index(["dataset", "scaling"])
    top = scaling["most_important"]
    # Remark 2's factor makes unbalanced binary features the most important ...
    assert top["bank", "hamming"] == 11 and top["heart", "hamming"] == 8
    # ... the empirical normalisation picks the forests' favourites instead
    assert (
        top["australian", "empirical"],
        top["bank", "empirical"],
        top["heart", "empirical"],
    ) == (11, 4, 6)
    readings = pd.read_csv(metrical_run / "pca_order_readings.csv")
    paper = readings[(readings["numbering"] == "paper") & (readings["importance"] == "weight")]
    assert (paper["positions_matching"] == paper["n_features"]).all()


@pytest.fixture(scope="module")
def bvp_run(mirrored_data, tmp_path_factory):
    return run_quick("bvp", tmp_path_factory)


@pytest.mark.notebook
def test_bvp_notebook_writes_every_artefact(bvp_run):
    figures = ["fig1_view_sphere", "fig2_gaussians", "fig3_swiss_rolls"] + [
        f"{fig}_{name}" for name, fig in bvp.REAL_FIGURES.items()
    ]
    for stem in figures:
        assert (bvp_run / f"{stem}.png").exists() and (bvp_run / f"{stem}.pdf").exists(), stem
    tables = ["table1_datasets", "solver_agreement", "tsne_perplexity_sweep", "metrics"]
    for stem in tables + ["swiss_roll_sensitivity", "reproduction"]:
        assert (bvp_run / f"{stem}.csv").exists() and (bvp_run / f"{stem}.md").exists(), stem


@pytest.mark.notebook
def test_bvp_notebook_measures_every_method_and_claim(bvp_run):
    metrics = pd.read_csv(bvp_run / "metrics.csv", index_col=[0, 1])
    for name in bvp.SYNTHETIC_DATASETS:
        assert list(metrics.loc[name].index) == list(bvp.METHODS)
    for name in bvp.REAL_DATASETS:
        assert list(metrics.loc[name].index) == ["BVP", "LDA", "LSDA"]
    assert metrics[["separates", "ordered", "informative"]].dtypes.eq(bool).all()
    report = pd.read_csv(bvp_run / "reproduction.csv")
    assert tuple(report.columns) == COLUMNS and set(report["status"]) <= set(STATUSES)
    table1 = report[report["artifact"] == "table1"]
    assert len(table1) == 24 and (table1["status"] == "match").all()
    claims = report[report["note"].str.startswith("predicate ")]
    assert len(claims) == len(bvp.load_published("claims"))
    assert report["item"].str.startswith("best t-SNE perplexity").sum() == 2
    agreement = pd.read_csv(bvp_run / "solver_agreement.csv", index_col=[0, 1])
    assert agreement.loc[(slice(None), "standardised"), "max_angle_deg"].max() < 0.01


def test_committed_bvp_findings_match_the_text():
    """The numbers the BVP notebook's prose and the README quote, from the committed full run."""
    folder = paths.FIGURES_DIR / "bvp"
    report = pd.read_csv(folder / "reproduction.csv")
    claims = report[report["note"].str.startswith("predicate ")]
    by_artifact = claims.groupby(claims["artifact"].str.slice(0, 4))["status"]
    held = by_artifact.apply(lambda s: (s == "match").sum()).to_dict()
    assert (held["fig2"], held["fig3"], len(claims)) == (4, 5, 32)
    assert (claims["status"] == "match").sum() == 16
    sensitivity = pd.read_csv(folder / "swiss_roll_sensitivity.csv")
    assert len(sensitivity) == 42 * 3
    share = sensitivity[list(bvp.SENSITIVITY_CLAIMS)].mean().round(2)
    assert share.to_dict() == {
        "swiss_pca_fails": 0.44,
        "swiss_lda_fails": 0.87,
        "swiss_bvp_good": 0.39,
        "swiss_lsda_good": 0.70,
    }
    assert sensitivity[list(bvp.SENSITIVITY_CLAIMS)].all(axis=1).mean() < 0.02
    agreement = pd.read_csv(folder / "solver_agreement.csv", index_col=[0, 1])
    raw = agreement.xs("raw", level=1)["max_angle_deg"]
    assert (raw[["pasture", "bondrate"]] > 89).all() and (
        raw.drop(["pasture", "bondrate"]) < 0.01
    ).all()


@pytest.fixture(scope="module")
def orml_run(mirrored_data, tmp_path_factory):
    return run_quick("orml", tmp_path_factory)


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
    assert len(report[report["artifact"] == "table1"]) == 6
    # quick mode runs one training size: its 11 cells of Table 2
    assert len(report[report["artifact"] == "table2"]) == 11
    assert len(report[report["artifact"] == "fig3"]) == 3 + 1 + 6 + 2
    quoted = report[report["note"].str.startswith("paper (")]
    assert len(quoted) == len(orml.load_published("claims"))
    assert "not_reproducible" in set(report.loc[report["item"] == "USPS images", "status"])


def test_committed_orml_findings_match_the_text():
    """The numbers the ORML notebook's prose and the README quote, from the committed full run."""
    folder = paths.FIGURES_DIR / "orml"
    assert pd.read_csv(folder / "c_invariance.csv")["predictions equal to C=1"].all()
    singular = pd.read_csv(folder / "singular_scatter.csv", index_col=0)
    assert singular.loc[5, ["test MAE pinv", "test MAE ridge"]].round(2).tolist() == [0.57, 0.04]
    assert singular.loc[10, "components"] == 1
    assert singular.loc[10, "test MAE pinv"] == singular.loc[10, "test MAE ridge"]
    table2 = pd.read_csv(folder / "table2_usps.csv").set_index(["method", "per_class"])
    assert table2.loc["ORML", "mean ours"].round(2).tolist() == [2.50, 2.69, 1.99, 1.80]
    assert table2.loc["KDLOR", "mean ours"].agg(["min", "max"]).round(2).tolist() == [0.54, 1.17]
    assert table2.loc["ORML/M", "mean ours"].between(2.85, 3.05).all()
    report = pd.read_csv(folder / "reproduction.csv")
    orml_cells = report[report["item"].str.startswith("MAE ORML per_class")]
    assert orml_cells["status"].tolist() == ["within_error", "deviates"] + ["within_error"] * 2
    table1 = pd.read_csv(folder / "table1_movielens.csv").set_index("method")["mean ours"]
    assert (round(table1["ORML"], 2), round(table1["KDLOR"], 2)) == (1.45, 0.87)
    summary = pd.read_csv(folder / "fig3_summary.csv", index_col=0)
    assert summary["train_ordered"].all() and (summary["test_accuracy"].round(2) == 0.96).all()
    assert summary.loc[16, "pose_rho"].round(2) == 0.32
