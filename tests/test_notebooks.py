"""Every notebook runs end to end in quick mode through papermill."""

import json

import pandas as pd
import papermill as pm
import pytest

from dimred import paths
from dimred.experiments import metrical_importance as mi
from dimred.reporting import COLUMNS, STATUSES

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


@pytest.fixture(scope="module")
def metrical_run(mirrored_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("metrical_importance")
    pm.execute_notebook(
        str(paths.ROOT / "notebooks" / "metrical_importance.ipynb"),
        str(out / "executed.ipynb"),
        parameters={"quick": True, "output_dir": str(out / "figures")},
        cwd=str(paths.ROOT / "notebooks"),
        progress_bar=False,
    )
    return out / "figures"


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
