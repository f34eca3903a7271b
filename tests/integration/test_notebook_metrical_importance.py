"""The metrical-importance notebook: its quick run's artefacts and the committed run's findings.

The committed checks do not hard-code the numbers of a run: they recompute each finding of
``findings.csv`` from the committed table it summarises.
"""

import numpy as np
import pandas as pd
import pytest

from compendium import paths
from compendium.reporting import COLUMNS, MIN_DRAWS, STATUSES
from papers.metrical_importance import data as mi

#: The findings the notebook writes, and the one ``make bench`` adds.
NOTEBOOK_FINDINGS = {
    "text_vs_tables",
    "feature_numbering",
    "forest_rows",
    "heart_numbering_check",
    "remark2_flaw",
    "empirical_scaling",
}
BENCH_FINDINGS = {
    "closed_form_speed",
    "forest_speed",
    "compiled_forest_speed",
    "permutation_speed",
    "f1_speed",
}
#: Findings measured over the forest seeds.
SEEDED = NOTEBOOK_FINDINGS - {"text_vs_tables", "feature_numbering"}


@pytest.fixture(scope="module")
def metrical_run(quick_run):
    return quick_run("metrical_importance")[0]


def read(folder, name, **kwargs):
    """A table the notebook wrote, without its ``data`` column."""
    return pd.read_csv(folder / f"{name}.csv", **kwargs).drop(columns="data")


def findings_of(folder):
    return pd.read_csv(folder / "findings.csv", keep_default_na=False).set_index("finding")


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
        "scaling_forest_agreement",
        "heart_numbering_check",
        "findings",
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
    quoted = report[report["source"].fillna("").str.startswith("claims:")]
    assert quoted["note"].str.startswith("paper (").all()
    sizes_and_pca = report[
        report["item"].str.startswith("pca order") & (report["artifact"] == "table3")
    ]
    assert sizes_and_pca["note"].str.contains("fitted to this row").all()
    settings = report[report["status"] == "setting"]
    assert len(settings) == 2 and settings["source"].isna().all()
    assert set(report.loc[report["item"].str.startswith("bank: "), "data"]) == {mi.DATA["bank"]}


@pytest.mark.notebook
def test_metrical_importance_tables_have_paper_layout(metrical_run):
    table = read(metrical_run, "table3_discard_orders", index_col=0)
    assert list(table.index) == ["pca", "rf", "sd", "gini", "shapley"]
    assert list(table.columns) == [str(k) for k in range(1, 14)]
    assert all(sorted(row) == list(range(1, 14)) for row in table.to_numpy().tolist())


@pytest.mark.notebook
def test_metrical_importance_findings_beyond_the_tables(metrical_run):
    """The notebook's own findings: the Heart numbering check and Remark 2's flaw."""
    check = read(metrical_run, "heart_numbering_check", index_col=[0, 1])
    assert (check["paper"] > check["continuous_first"] + 0.2).all()
    scaling = read(metrical_run, "scaling_comparison").set_index(["dataset", "scaling"])
    top = scaling["most_important"]
    # Remark 2's factor makes unbalanced binary features the most important ...
    assert top["bank", "hamming"] == 11 and top["heart", "hamming"] == 8
    # ... the empirical normalisation picks the forests' favourites instead
    assert (
        top["australian", "empirical"],
        top["bank", "empirical"],
        top["heart", "empirical"],
    ) == (11, 4, 6)
    readings = read(metrical_run, "pca_order_readings", index_col=[0, 1])
    paper = readings.xs("paper", level="numbering")
    assert (paper["weight"] == paper["n_features"]).all() and (paper["definition"] < 2).all()
    inferred = read(metrical_run, "heart_numbering_inferred", index_col=0)
    assert tuple(inferred["inferred from Table 3"].iloc[5:]) == mi.HEART_PAPER_CATEGORICAL


@pytest.mark.notebook
def test_quick_findings_say_they_rest_on_fewer_seeds(metrical_run):
    found = findings_of(metrical_run)
    assert set(found.index) == NOTEBOOK_FINDINGS
    assert found.loc[sorted(SEEDED), "note"].str.contains("quick run").all()
    assert (found.loc[["text_vs_tables", "feature_numbering"], "spread"] == "deterministic").all()
    assert_findings_summarise_tables(metrical_run)


def assert_findings_summarise_tables(folder):
    """Each finding of ``folder/findings.csv`` recomputed from the table it summarises."""
    found = findings_of(folder)
    readings = read(folder, "pca_order_readings", index_col=[0, 1])
    paper = readings.xs("paper", level="numbering")
    assert found.loc["text_vs_tables", "value"] == paper["weight"].sum()
    assert found.loc["text_vs_tables", "holds"] == str(
        bool((paper["weight"] == paper["n_features"]).all())
    )
    stated = readings.xs("continuous_first", level="numbering")
    assert found.loc["feature_numbering", "value"] == stated.loc["heart", "weight"]

    agreement = read(folder, "order_agreement", index_col=[0, 1])
    forest = agreement.drop(index="pca", level="order")
    assert found.loc["forest_rows", "value"] == pytest.approx(forest["tau_published"].median())
    assert found.loc["forest_rows", "n_draws"] == len(forest) == 12

    check = read(folder, "heart_numbering_check", index_col=[0, 1])
    per_seed = check.groupby(level="seed").mean()
    gain = per_seed["paper"] - per_seed["continuous_first"]
    row = found.loc["heart_numbering_check"]
    assert (row["value"], row["low"], row["high"]) == pytest.approx(
        (gain.median(), gain.min(), gain.max()), abs=1e-6
    )
    assert row["n_draws"] == forest["n_seeds"].iloc[0] == len(per_seed)

    tops = read(folder, "scaling_comparison")
    scaling = read(folder, "scaling_forest_agreement")
    hamming = scaling[scaling["scaling"] == "hamming"]
    n_features = tops[tops["scaling"] == "hamming"].set_index("dataset")["n_features"]
    relative = hamming["forest_rank_of_top"] / hamming["dataset"].map(n_features)
    medians = relative.groupby(hamming["seed"]).median()
    assert found.loc["remark2_flaw", "value"] == pytest.approx(medians.median(), abs=1e-6)
    assert found.loc["remark2_flaw", "holds"] == str(not hamming["same_top"].any())
    share = scaling.groupby(["scaling", "seed"])["same_top"].mean().mul(100)["empirical"]
    assert found.loc["empirical_scaling", "value"] == pytest.approx(share.median(), abs=1e-4)
    assert found.loc["empirical_scaling", "n_draws"] == len(per_seed)


def test_committed_findings_summarise_the_committed_tables():
    """findings.csv agrees with the committed tables (and the benchmark) it summarises."""
    folder = paths.FIGURES_DIR / "metrical_importance"
    found = findings_of(folder)
    assert set(found.index) == NOTEBOOK_FINDINGS | BENCH_FINDINGS
    assert found.loc["text_vs_tables", "holds"] == "True"
    assert (found.loc[sorted(SEEDED), "n_draws"] >= MIN_DRAWS).all()
    assert read(folder, "order_agreement")["n_seeds"].min() >= MIN_DRAWS
    assert not found["note"].str.contains("quick run").any()
    assert_findings_summarise_tables(folder)
    bench = read(folder, "benchmark").iloc[0]
    speed = found.loc["closed_form_speed"]
    assert speed["value"] == pytest.approx(bench["speed_ratio"], rel=1e-3)
    assert speed["n_draws"] == bench["closed_form_repeats"] >= 3
    assert speed["produced_by"] == "make bench (bench_metrical.py)"
    forests = read(folder, "benchmark_forest")
    forest = found.loc["forest_speed"]
    assert forest["value"] == pytest.approx(forests["speed_ratio"].median(), rel=1e-6)
    assert forest["n_draws"] == len(forests) == 3 and (forests["seeds"] >= MIN_DRAWS).all()
    assert (forests["max_abs_difference"] == 0).all()  # the same forests, bit for bit
    assert (forests["scikit_learn_engine_max_abs_difference"] == 0).all()
    compiled = found.loc["compiled_forest_speed"]
    assert compiled["value"] == pytest.approx(forests["compiled_ratio"].median(), rel=1e-6)
    assert compiled["n_draws"] == 3
    ratio = forests["scikit_learn_engine_s"] / forests["forest_proba_s"]
    assert ratio.to_numpy() == pytest.approx(forests["compiled_ratio"].to_numpy(), rel=0.5)
    permutations = read(folder, "benchmark_permutation")
    permutation = found.loc["permutation_speed"]
    assert permutation["value"] == pytest.approx(permutations["speed_ratio"].median(), rel=1e-6)
    assert permutation["n_draws"] == len(permutations) == 3
    assert permutations["bitwise_equal"].all()  # the same importances, bit for bit
    scores = read(folder, "benchmark_f1")
    f1 = found.loc["f1_speed"]
    assert f1["value"] == pytest.approx(scores["speed_ratio"].median(), rel=1e-6)
    assert f1["n_draws"] == len(scores) == 3
    assert scores["equal"].all()  # the same float


def test_committed_run_restates_its_settings():
    """The random-forest runs per point of the committed curves, as a ``setting`` row."""
    folder = paths.FIGURES_DIR / "metrical_importance"
    report = pd.read_csv(folder / "reproduction.csv")
    runs = report[report["item"] == "random-forest runs averaged per curve point"]
    assert runs["status"].tolist() == ["setting"]
    curves = pd.read_csv(folder / "fig3_discard_curves.csv")
    forest = curves[curves["classifier"] == "random_forest"]
    assert np.unique(forest["n_runs"]).tolist() == [int(runs["reproduced"].iloc[0])]
