"""The AwA2 survey notebook: its quick run's artefacts, and the committed run's findings
against the committed tables they summarise (no number of today's run is written here)."""

import numpy as np
import pandas as pd
import pytest

from compendium import paths
from compendium.published import load_published
from compendium.reporting import MIN_DRAWS
from papers import awa2_dr_survey as protocol
from papers.awa2_dr_survey import leak, text
from papers.awa2_dr_survey.data import STANDIN_LABEL, SYNTHETIC_LABEL

FOLDER = paths.FIGURES_DIR / "awa2_dr_survey"
PUBLISHED = load_published("awa2_dr_survey")


@pytest.fixture(scope="module")
def awa2_run(quick_run):
    return quick_run("awa2_dr_survey")[0]


def _findings(folder):
    return pd.read_csv(folder / "findings.csv", keep_default_na=False).set_index("finding")


def _metrics(folder):
    frames = [pd.read_csv(f, index_col=0) for f in folder.glob("*_metrics.csv")]
    return pd.concat(frames)["value"]


@pytest.mark.notebook
def test_awa2_notebook_writes_every_artefact(awa2_run):
    figures = [f"fig{i}" for i in range(4, 16)] + ["cost_exponents", "leak_by_ratio"]
    written = {path.stem for path in awa2_run.glob("*.png")}
    for prefix in figures:
        stems = [s for s in written if s == prefix or s.startswith(prefix + "_")]
        assert stems, prefix
        assert all((awa2_run / f"{s}.pdf").exists() for s in stems), prefix
    tables = [f"table{i}" for i in range(1, 15)] + ["table8_inputs", "table10_standardised"]
    tables += ["fig6_lda_curve", "fig11_ae_loss", "cost_predicted", "cost_svc_fits", "claims"]
    tables += ["leak_by_ratio", "leak_by_ratio_draws", "reproduction", "findings"]
    for stem in tables:
        assert (awa2_run / f"{stem}.csv").exists() and (awa2_run / f"{stem}.md").exists(), stem


@pytest.mark.notebook
def test_awa2_notebook_labels_the_standin_and_decides_what_it_can(awa2_run):
    """Without AwA2 no stand-in number is a reproduction; the paper's self-contradictions,
    the cost at AwA2's size and the mathematics are decided anyway."""
    table4 = pd.read_csv(awa2_run / "table4.csv")
    if (table4["dataset"] == "AwA2").all():
        pytest.skip("the AwA2 features are present: the run is a reproduction")
    assert (table4["dataset"] == "Fashion-MNIST (stand-in)").all()
    assert (table4["data"] == STANDIN_LABEL).all()
    report = pd.read_csv(awa2_run / "reproduction.csv")
    cells = report[report["source"].str.match(r"table\d+:")]
    assert len(cells) == 168 and (cells["status"] == "not_reproducible").all()
    assert cells["reproduced"].isna().all() and (cells["data"] == STANDIN_LABEL).all()
    assert cells["note"].str.contains("Fashion-MNIST (stand-in)", regex=False).all()
    claims = pd.read_csv(awa2_run / "claims.csv", index_col=0)
    contradicted = ["kpca_cosine_best", "kpca_rbf_worst", "kpca_rbf_gap_grows", "mds_close_to_pca"]
    assert (claims.loc[contradicted, "status"] == "deviates").all()
    assert (claims.loc[contradicted, "data"] == "published").all()
    independent = ["mds_pca_math_relation", "tsne_bh_only_2_3", "lda_max_49"]
    assert (claims.loc[independent, "status"] == "match").all()
    shape = claims[claims["scope"] == "shape"]
    assert shape.loc["tsne_exact_limited", "status"] == "match"
    assert shape.loc["mds_limited", "status"] == "match"
    assert (shape["data"] == SYNTHETIC_LABEL).all()
    inputs = pd.read_csv(awa2_run / "table8_inputs.csv")
    assert set(inputs["reading"]) == {"transductive (authors)", "inductive (openTSNE transform)"}


@pytest.mark.notebook
def test_awa2_notebook_says_which_data_and_which_rows_are_settings(awa2_run):
    """The loss curves are the stand-in's, the cost predictions the synthetic set's (or the
    run's timings, scaled); restated settings are ``setting``, never ``match``."""
    assert (pd.read_csv(awa2_run / "fig11_ae_loss.csv")["data"] == STANDIN_LABEL).all()
    metrics = pd.read_csv(awa2_run / "cost_metrics.csv", index_col=0)["data"]
    assert metrics["tsne_speedup_at_awa2"] == SYNTHETIC_LABEL
    assert metrics["lle_predicted_s"] == STANDIN_LABEL
    assert (pd.read_csv(awa2_run / "cost_measured.csv")["data"] == SYNTHETIC_LABEL).all()
    report = pd.read_csv(awa2_run / "reproduction.csv").set_index("source")
    settings = [f"text_numbers:{k}" for k, (kind, _) in text.TEXT.items() if kind == "setting"]
    assert set(report.loc[settings, "status"]) == {"setting", "deviates"}
    layers = report.loc[["text_numbers:ae_encoder_layers", "text_numbers:ae_decoder_layers"]]
    assert (layers["status"] == "not_reproducible").all()
    assert report.loc["text_numbers:tsne_bh_complexity", "data"] == SYNTHETIC_LABEL


@pytest.mark.notebook
def test_awa2_notebook_measures_the_leak_by_ratio(awa2_run):
    p = protocol.params(quick=True)
    draws = pd.read_csv(awa2_run / "leak_by_ratio_draws.csv")
    assert list(draws["ratio_of"].unique()) == [name for name, _ in p.leak_ratios]
    assert (draws.groupby("ratio_of")["seed"].nunique() == p.leak_draws).all()
    leak_points = draws["lda_all_labels_percent"] - draws["lda_training_percent"]
    np.testing.assert_allclose(draws["leak_points"], leak_points, atol=2e-3)
    findings = _findings(awa2_run)
    for name, _ in p.leak_ratios:
        assert f"leak_at_{name}_ratio" in findings.index
    assert findings.loc["headline_without_leak", "statement"].endswith(
        "cannot be decided without AwA2."
    )


# ------------------------------------------------------------------ the committed full run
def test_committed_leak_findings_summarise_the_leak_tables():
    findings = _findings(FOLDER)
    p = protocol.params()
    draws = pd.read_csv(FOLDER / "leak_by_ratio_draws.csv")
    for name, part in draws.groupby("ratio_of"):
        row = findings.loc[f"leak_at_{name}_ratio"]
        assert row["n_draws"] == len(part) == p.leak_draws >= MIN_DRAWS
        assert row["value"] == pytest.approx(part["leak_points"].median(), abs=1e-3)
        assert row["low"] == pytest.approx(part["leak_points"].min(), abs=1e-3)
        assert row["high"] == pytest.approx(part["leak_points"].max(), abs=1e-3)
    at_awa2 = draws.loc[draws["ratio_of"] == "awa2", "leak_points"]
    corrected = PUBLISHED["table8"].loc[leak.HEADLINE, "accuracy_percent"] - at_awa2
    headline = findings.loc["headline_without_leak"]
    assert headline["value"] == pytest.approx(corrected.median(), abs=1e-3)
    best = leak.best_other_cell(PUBLISHED)["any"][0]
    assert headline["holds"] == str(bool((corrected > best).all()))
    assert headline["statement"].endswith("cannot be decided without AwA2.")
    inputs = pd.read_csv(FOLDER / "table8_inputs.csv").set_index(["input", "reading"])
    inputs = inputs[inputs["n_components"] == 2]["ours_percent"]
    transductive = "transductive (authors)"
    full_leak = inputs[("LDA", transductive)] - inputs[("LDA (training labels)", transductive)]
    assert findings.loc["leak_on_run_data", "value"] == pytest.approx(full_leak, abs=1e-3)


def test_committed_embedding_findings_summarise_their_tables():
    findings, value = _findings(FOLDER), _metrics(FOLDER)
    lle = pd.read_csv(FOLDER / "table10.csv")["ours_percent"]
    assert findings.loc["lle_linear_svc", ["value", "low"]].tolist() == pytest.approx(
        [lle.max(), lle.min()], abs=1e-3
    )
    assert findings.loc["lle_linear_svc", "holds"] == str(bool(lle.max() <= 12))
    axes = findings.loc["lle_axes", "value"]
    assert axes == pytest.approx(value["lle2_K4_on_line_fraction"], rel=1e-4)
    classical = findings.loc["mds_classical_is_pca"]
    assert classical["value"] == pytest.approx(value["mds_classical_pca_procrustes_2d"], rel=1e-3)
    assert classical["holds"] == "True"
    smacof = findings.loc["mds_smacof", "value"]
    assert smacof == pytest.approx(value["mds_smacof_pca_procrustes_2d"], rel=1e-4)
    table13 = pd.read_csv(FOLDER / "table13.csv")
    rbf = table13[table13["svc_kernel"] == "rbf"]
    best = rbf.loc[rbf["ours_percent"].idxmax(), "n_components"]
    assert findings.loc["ae_best_code_size", "value"] == best
    loss = pd.read_csv(FOLDER / "fig11_ae_loss.csv", index_col=0).drop(columns="data")
    change = ((loss.iloc[-1] - loss.iloc[-11]).abs() / loss.iloc[-11]).max()
    assert findings.loc["ae_convergence", "value"] == pytest.approx(change, rel=1e-3)
    assert findings.loc["ae_convergence", "holds"] == str(bool(change < 0.01))


def test_committed_cost_findings_summarise_the_cost_tables():
    findings = _findings(FOLDER)
    predicted = pd.read_csv(FOLDER / "cost_predicted.csv", index_col=0)["predicted_s"]
    for key, method in (
        ("cost_tsne_exact", "t-SNE exact"),
        ("cost_smacof", "SMACOF-MDS, 4 starts"),
        ("cost_lle", "LLE d = 128, K = 64 (dense)"),
        ("cost_classical_mds", "classical MDS (= PCA)"),
        ("cost_svc", "SVC linear, all features (one cell)"),
    ):
        assert findings.loc[key, "value"] == pytest.approx(predicted[method], rel=1e-3), key
    ae = predicted[predicted.index.str.startswith("autoencoder")] / 60
    assert findings.loc["cost_autoencoder", ["low", "high"]].tolist() == pytest.approx(
        [ae.min(), ae.max()], rel=1e-3
    )
    fits = pd.read_csv(FOLDER / "cost_svc_fits.csv")
    svc = findings.loc["cost_svc", "statement"]
    assert f"makes {fits['svc_fits'].sum()} SVC fits" in svc
    assert f"{fits['fits_on_1000_features_or_more'].sum()} on 1,000 features or more" in svc
    metrics = pd.read_csv(FOLDER / "cost_metrics.csv", index_col=0)["value"]
    speedup = findings.loc["cost_tsne_speedup"]
    assert speedup["value"] == pytest.approx(metrics["tsne_speedup_at_awa2"], rel=1e-4)
    assert speedup["holds"] == str(bool(metrics["tsne_speedup_at_awa2"] > 100))
    gap = abs(metrics["tsne_bh_exponent"] - metrics["tsne_bh_expected_exponent"])
    assert findings.loc["cost_tsne_exponents", "holds"] == str(bool(gap <= 0.1))


def test_committed_claim_findings_summarise_the_claims_and_the_report():
    findings = _findings(FOLDER)
    claims = pd.read_csv(FOLDER / "claims.csv", index_col=0)
    contradicted = claims.index[claims["paper_own_numbers"] == "fails"]
    assert findings.loc["paper_contradicts_itself", "value"] == len(contradicted)
    assert all(f"`{c}`" in findings.loc["paper_contradicts_itself", "statement"]
               for c in contradicted)  # fmt: skip
    assert sorted(contradicted) == sorted(
        [
            "kpca_cosine_best",
            "kpca_rbf_worst",
            "kpca_cosine_best_below16",
            "kpca_rbf_gap_grows",
            "lle_linear_better_more_dims_neighbors",
            "mds_close_to_pca",
        ]
    )
    decided = (claims["paper_own_numbers"] != "undecided").sum()
    assert findings.loc["predicates_match_transcription", "value"] == decided
    assert findings.loc["predicates_match_transcription", "holds"] == "True"
    report = pd.read_csv(FOLDER / "reproduction.csv")
    cells = report[report["source"].str.match(r"table\d+:")]
    not_reproducible = (cells["status"] == "not_reproducible").sum()
    assert findings.loc["run_data", "value"] == not_reproducible


def test_committed_reproduction_keeps_settings_apart():
    """Restated settings are ``setting``; no ``match`` row restates a setting."""
    report = pd.read_csv(FOLDER / "reproduction.csv").set_index("source")
    settings = [f"text_numbers:{k}" for k, (kind, _) in text.TEXT.items() if kind == "setting"]
    assert set(report.loc[settings, "status"]) <= {"setting", "deviates"}
    assert (report.loc[settings, "status"] == "setting").sum() > 0
    matches = report[report["status"] == "match"]
    assert not matches.index.isin(settings).any()
