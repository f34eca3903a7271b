"""The AwA2 survey's protocol: pipelines, cells, claims, text numbers, data fallback."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import pdist
from sklearn.datasets import make_blobs, make_swiss_roll
from sklearn.decomposition import KernelPCA
from sklearn.manifold import MDS
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from dimred.compendium.published import load_published
from dimred.datasets import awa2_like
from dimred.datasets.registry import DataDownloadError
from dimred.experiments.awa2_dr_survey import cells, claims, pipelines, protocol, summary, text
from dimred.experiments.awa2_dr_survey import data as awa2_data
from dimred.experiments.awa2_dr_survey.data import RunData, load_run_data, stratified_subsample

PUBLISHED = load_published("awa2_dr_survey")


def _aligned(A, B):
    """``B`` with each column's sign flipped to agree with ``A``."""
    return B * np.sign(np.sum(A * B, axis=0))


@pytest.fixture(scope="module")
def blobs():
    X, y = make_blobs(300, n_features=12, centers=4, cluster_std=2.0, random_state=0)
    return X, y


@pytest.mark.parametrize("kernel", ["rbf", "poly", "cosine", "sigmoid"])
def test_kernel_pca_components_are_nested(blobs, kernel):
    X, _ = blobs
    Z8, T8 = pipelines.kernel_pca(X[:200], X[200:], kernel, 8)
    Z3, T3 = pipelines.kernel_pca(X[:200], X[200:], kernel, 3)
    np.testing.assert_allclose(_aligned(Z3, Z8[:, :3]), Z3, atol=1e-8)
    np.testing.assert_allclose(_aligned(T3, T8[:, :3]), T3, atol=1e-8)


def test_linear_kernel_pca_is_pca(blobs):
    X, _ = blobs
    Z, T = pipelines.kernel_pca(X[:200], X[200:], "linear", 4)
    kpca = KernelPCA(4, kernel="linear").fit(X[:200])
    np.testing.assert_allclose(_aligned(Z, kpca.transform(X[:200])), Z, atol=1e-8)
    np.testing.assert_allclose(_aligned(T, kpca.transform(X[200:])), T, atol=1e-8)


def test_sigmoid_kernel_pca_keeps_only_positive_eigenvalues(blobs):
    X, _ = blobs
    Z, _ = pipelines.kernel_pca(X[:60], X[60:], "sigmoid", 60)
    assert 0 < Z.shape[1] < 60  # sklearn refuses all 60: the kernel is not PSD


def test_lle_components_are_nested():
    """On a connected manifold (no degenerate null space) slicing equals refitting."""
    X, _ = make_swiss_roll(400, noise=0.05, random_state=0)
    wide = pipelines.lle(X, 10, 3).embedding_
    narrow = pipelines.lle(X, 10, 2).embedding_
    np.testing.assert_allclose(_aligned(narrow, wide[:, :2]), narrow, atol=1e-6)


def test_variance_order_breaks_ties_by_index():
    X = np.array([[0.0, 1.0, 0.0, 5.0], [0.0, -1.0, 0.0, -5.0]])
    assert pipelines.variance_order(X).tolist() == [3, 1, 0, 2]


def test_split_is_stratified_seeded_and_disjoint(blobs):
    X, y = blobs
    s = pipelines.Split(X, y, 0.4, seed=3)
    assert np.intersect1d(s.train, s.test).size == 0 and s.test.size == 120
    assert np.bincount(y[s.test]).tolist() == [30, 30, 30, 30]
    assert np.array_equal(s.test, pipelines.Split(X, y, 0.4, seed=3).test)


def test_opentsne_maps_test_points_into_their_clusters():
    X, y = make_blobs(400, n_features=10, centers=3, cluster_std=0.5, random_state=1)
    Z_train, Z_test = pipelines.opentsne_inductive(X[:300], X[300:], seed=0)
    knn = KNeighborsClassifier(1).fit(Z_train, y[:300])
    assert knn.score(Z_test, y[300:]) == 1.0


def test_svc_accuracy_is_sklearns_score_in_percent(blobs):
    X, y = blobs
    for kernel in ("linear", "rbf"):
        test, train = pipelines.svc_accuracy(X[:200], y[:200], X[200:], y[200:], kernel)
        model = SVC(C=1.0, kernel=kernel, gamma="scale").fit(X[:200], y[:200])
        assert test == pytest.approx(100 * model.score(X[200:], y[200:]))
        assert train == pytest.approx(100 * model.score(X[:200], y[:200]))


# ------------------------------------------------------------------------------- cells
def test_cell_status_uses_printed_precision_and_both_sampling_errors():
    assert cells.cell_status(92.39, "92.39%", 92.394, 2000) == "match"
    assert cells.cell_status(89.0, "89%", 89.4, 2000) == "match"
    n_test = 2000
    error = 100 * math.sqrt(0.9239 * 0.0761 * (1 / cells.PAPER_TEST_SIZE + 1 / n_test))
    assert cells.cell_status(92.39, "92.39%", 92.39 + 1.9 * error, n_test) == "within_error"
    assert cells.cell_status(92.39, "92.39%", 92.39 + 2.1 * error, n_test) == "deviates"
    # a smaller test part (a subsample) widens the band
    assert cells.cell_status(92.39, "92.39%", 92.39 + 2.1 * error, 500) == "within_error"
    assert cells.cell_status(92.39, "92.39%", math.nan, n_test) == "not_reproducible"


def _run(is_awa2):
    return RunData(
        np.zeros((2, 2)),
        np.zeros(2),
        "AwA2" if is_awa2 else "X (stand-in)",
        is_awa2,
        "" if is_awa2 else "no AwA2",
    )


def test_standin_cells_are_never_reported_as_reproductions():
    table = PUBLISHED["table5"]
    frame = cells.cell_table(table, {"lda_d2": (31.234, 40.0)}, ["n_components"], _run(False), 9)
    rows = cells.cell_rows("table5", frame, _run(False), lambda r: "LDA")
    assert {r["status"] for r in rows} == {"not_reproducible"}
    assert {r["reproduced"] for r in rows} == {""}
    by_source = {r["source"]: r["note"] for r in rows}
    assert "31.23 %" in by_source["table5:lda_d2"] and "no AwA2" in by_source["table5:lda_d2"]
    assert "not defined on the stand-in" in by_source["table5:lda_d49"]


def test_awa2_cells_are_compared():
    table = PUBLISHED["table5"]
    frame = cells.cell_table(table, {"lda_d2": (29.6, 40.0)}, ["n_components"], _run(True), 9)
    rows = {r["source"]: r for r in cells.cell_rows("table5", frame, _run(True), lambda r: "LDA")}
    assert rows["table5:lda_d2"]["status"] == "match"
    assert rows["table5:lda_d4"]["status"] == "not_reproducible"


# ------------------------------------------------------------------------------ claims
def _paper_accuracies():
    frames = {}
    for name in (f"table{i}" for i in range(1, 15)):
        frame = PUBLISHED[name].copy()
        frame["published_percent"] = frame["ours_percent"] = frame["accuracy_percent"]
        frames[name] = frame
    return cells.lookup(frames)[0]


def test_every_claim_and_text_number_has_a_rule():
    assert set(claims.CLAIMS) == set(PUBLISHED["claims"].index)
    assert set(text.TEXT) == set(PUBLISHED["text_numbers"].index)
    assert {scope for scope, _ in claims.CLAIMS.values()} <= set(claims.SCOPES)
    kinds = {kind for kind, _ in text.TEXT.values()}
    assert kinds <= {"setting", "data", "claim", "cell", "exponent", "context"}


def test_predicates_on_the_papers_numbers_agree_with_the_transcription():
    """Where the paper's own tables decide a claim, our predicate reaches the verdict
    recorded by hand in ``claims.csv:paper_own_numbers`` (supported / contradicted)."""
    a = _paper_accuracies()
    decided = 0
    for claim, row in PUBLISHED["claims"].iterrows():
        _, holds, evidence = claims.evaluate(claim, a, {})
        if holds is None:
            continue
        decided += 1
        verdict = str(row["paper_own_numbers"]).split()[0].rstrip(":")
        assert verdict == ("supported" if holds else "contradicted"), (claim, evidence)
    assert decided == 27


def test_lda_tsne_headline_and_kernel_claims_on_the_papers_numbers():
    a = _paper_accuracies()
    assert claims.evaluate("lda_tsne_best_overall", a, {})[1:] == (
        True,
        "LDA->t-SNE 95.40, next best 93.10",
    )
    assert claims.evaluate("kpca_rbf_worst", a, {})[1] is False
    assert claims.evaluate("mds_close_to_pca", a, {})[1] is False


def test_claims_without_their_measurements_are_undecided():
    a = _paper_accuracies()
    assert claims.evaluate("ae_fig15_radial", a, {})[1] is None
    assert claims.evaluate("ae_high_dim_harder", a, {})[1] is None  # losses are not published
    m = {
        "ae2_knn_angle_percent": 90.0,
        "ae2_knn_radius_percent": 10.0,
        "ae2_knn_both_percent": 95.0,
    }
    assert claims.evaluate("ae_fig15_radial", a, m)[1] is True


@pytest.mark.parametrize(
    ("scope", "paper", "ours", "is_awa2", "status"),
    [
        ("data", True, True, True, "match"),
        ("data", True, False, True, "deviates"),
        ("data", None, None, True, "not_reproducible"),
        ("data", True, True, False, "not_reproducible"),
        ("data", False, True, False, "deviates"),
        ("data", False, True, True, "deviates"),
        ("data", False, None, True, "deviates"),
        ("shape", None, True, False, "match"),
        ("independent", None, False, False, "deviates"),
    ],
)
def test_claim_status(scope, paper, ours, is_awa2, status):
    assert summary.claim_status(scope, paper, ours, is_awa2) == status


# -------------------------------------------------------------------------------- data
def test_stratified_subsample_is_seeded_and_keeps_proportions():
    y = np.repeat([0, 1, 2], [100, 200, 300])
    keep = stratified_subsample(y, 60, seed=1)
    assert np.bincount(y[keep]).tolist() == [10, 20, 30]
    assert np.array_equal(keep, stratified_subsample(y, 60, seed=1))
    assert np.array_equal(stratified_subsample(y, None, 0), np.arange(600))


def test_awa2_is_used_when_the_loader_delivers():
    X = np.arange(200, dtype=np.float32).reshape(50, 4)
    y = np.repeat(np.arange(5), 10)
    data = load_run_data(4, 500, seed=0, loader=lambda return_X_y: (X, y))
    assert data.is_awa2 and data.name == "AwA2" and data.label == "AwA2"
    assert data.X.dtype == np.float64 and np.bincount(data.y).tolist() == [4] * 5


def test_standin_is_used_and_labelled_when_awa2_cannot_be_downloaded(monkeypatch):
    images = np.full((40, 6), 255, dtype=np.uint8)
    fake = pd.Series({"data": images, "target": np.repeat(np.arange(4), 10)})
    monkeypatch.setattr(awa2_data.datasets, "load_fashion_mnist", lambda: fake)

    def unreachable(return_X_y):
        raise DataDownloadError("awa2: download failed (no network)\nmore")

    data = load_run_data(None, 3, seed=0, loader=unreachable)
    assert not data.is_awa2 and "stand-in" in data.name and data.label.startswith("STAND-IN")
    assert data.reason.startswith("AwA2 features not obtainable here (awa2: download failed")
    assert data.X.shape == (12, 6) and data.X.max() == 1.0


def _raw_stress(X, Z):
    return float(np.sum((pdist(X) - pdist(Z)) ** 2))


def test_smacof_runs_past_the_early_stop_of_a_carried_over_eps(blobs):
    """With 0.22's eps = 1e-3 read as modern scikit-learn's relative eps, SMACOF stops
    after a few iterations; the default the pipeline keeps reaches a far lower stress."""
    X, _ = blobs
    early = MDS(4, metric_mds=True, n_init=1, init="random", max_iter=300, eps=1e-3,
                random_state=0, normalized_stress=False).fit(X)  # fmt: skip
    ours = pipelines.smacof_mds(X, 4, seed=0).embedding_
    assert early.n_iter_ < 50
    assert _raw_stress(X, ours) < 0.5 * _raw_stress(X, early.embedding_)


# ------------------------------------------------------------- the AwA2 path, end to end
STEPS = ("table1_svc_c", "tables2_3_variance", "table4_kernel_pca", "table5_lda")
STEPS += ("tables7_9_tsne", "table8_tsne_preprocessing", "tables10_11_lle", "table12_mds")
STEPS += ("table13_autoencoder",)
SUMMARY_STEPS = ("table6_fa", "table14_summary", "cost", "claims_and_text")


@pytest.fixture(scope="module")
def awa2_path():
    """Every step in quick mode on data delivered as AwA2 (an AwA2-shaped synthetic set)."""
    X, y = awa2_like(n_samples=2000, n_features=40, n_latent=16, imbalance=2.0, random_state=0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(awa2_data.datasets, "load_awa2", lambda return_X_y: (X, y))
        p = protocol.params(quick=True, n_jobs=1)
        data = protocol.load_data(p)
    results = [getattr(protocol, step)(data, PUBLISHED, p) for step in STEPS]
    for step in SUMMARY_STEPS:
        results.append(getattr(protocol, step)(data, PUBLISHED, p, results))
    rows = pd.DataFrame([row for r in results for row in r.rows])
    return data, results, rows


def test_awa2_path_compares_every_computed_cell(awa2_path):
    data, _, rows = awa2_path
    assert data["run"].is_awa2 and data["run"].name == "AwA2" and len(data["run"].y) == 400
    cell_rows = rows[rows["source"].str.match(r"table\d+:")]
    assert len(cell_rows) == 168
    computed = pd.to_numeric(cell_rows["reproduced"], errors="coerce").notna()
    assert computed.sum() > 100
    assert set(cell_rows.loc[computed, "status"]) <= {"match", "within_error", "deviates"}
    assert (cell_rows.loc[~computed, "status"] == "not_reproducible").all()
    text = rows[rows["source"] == "text_numbers:n_images"].iloc[0]
    assert (text["reproduced"], text["status"]) == ("400", "deviates")


def test_awa2_path_decides_every_claim_it_has_measurements_for(awa2_path):
    """Only claims whose cells this small set lacks, or whose measurement no step makes,
    stay undecided: a renamed measurement would leave a claim silently undecided."""
    _, results, rows = awa2_path
    claims_table = results[-1].tables["claims"]
    undecided = claims_table[claims_table["ours"] == "undecided"]
    unexplained = undecided[~undecided["evidence"].str.startswith("cells missing")]
    assert set(unexplained.index) == {
        "tsne_higher_dim_converge",  # scikit-learn's TSNE keeps no KL trace
        "kpca_parallel_memory",  # not measured
        "ae_converged",  # 3 epochs in quick mode: no last 10
    }
    claim_rows = rows[rows["source"].str.startswith("claims:")]
    paper_contradicted = claims_table["paper_own_numbers"] == "fails"
    assert (claims_table.loc[paper_contradicted, "status"] == "deviates").all()
    assert (claim_rows["reproduced"] != "").all()
