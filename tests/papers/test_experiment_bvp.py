"""The BVP paper's protocol: Table I, verdicts and claims, solver agreement, sensitivity."""

import pytest

from compendium.published import load_table
from papers.bvp import findings
from papers.bvp.claims import PREDICATES, claim_rows
from papers.bvp.data import (
    REAL_DATASETS,
    REAL_FIGURES,
    SYNTHETIC_DATASETS,
    data_label,
    load_real,
    load_real_data,
    load_synthetic,
    params,
)
from papers.bvp.draws import _fold_case
from papers.bvp.methods import METHODS, SEPARATION_MARGIN, embed, embedding_metrics, evaluate, judge
from papers.bvp.sensitivity import SENSITIVITY_CLAIMS, swiss_roll_configs, swiss_roll_sensitivity
from papers.bvp.solvers import solver_agreement
from papers.bvp.table1 import table1, table1_rows
from papers.bvp.tsne import (
    best_perplexities,
    best_perplexity,
    flatness,
    perplexity_rows,
    tsne_sweep,
)


@pytest.fixture(scope="module")
def real(mirrored_data):
    return load_real_data()


def test_table1_reproduced_exactly(real):
    published = load_table("bvp", "table1_datasets")
    reproduced = table1(real)
    assert list(reproduced.index) == list(published.index)
    rows = table1_rows(published, reproduced)
    assert len(rows) == 6 * 4
    assert {row["status"] for row in rows} == {"match"}
    assert {row["source"] for row in rows} == {f"table1_datasets:{n}" for n in published.index}


def test_table1_rows_flag_a_wrong_cell(real):
    published = load_table("bvp", "table1_datasets")
    wrong = published.copy()
    wrong.loc["car", "I"] = 1727
    statuses = {r["item"]: r["status"] for r in table1_rows(wrong, table1(real))}
    assert statuses["car: I"] == "deviates" and statuses["car: Q"] == "match"


def test_embeddings_are_oriented_and_measured():

    from dimred.datasets.synthetic import ordinal_gaussians

    X, y = ordinal_gaussians(n_per_class=40, random_state=0)
    for method in ("BVP", "PCA", "LDA", "LSDA"):
        Z = embed(method, X, y)
        assert Z.shape == (len(y), 2)
        first, last = Z[y == 1].mean(0), Z[y == 5].mean(0)
        assert (last >= first).all()
        metrics = embedding_metrics(X, y, Z)
        assert set(metrics) == {
            "knn_accuracy",
            "order_correlation",
            "adjacent_nearer",
            "within_class_share",
            "trustworthiness",
            "continuity",
        }
    # the construction hides the order from PCA but not from BVP
    assert embedding_metrics(X, y, embed("BVP", X, y))["order_correlation"] > 0.999
    assert embedding_metrics(X, y, embed("PCA", X, y))["order_correlation"] < 0.9


def test_best_perplexity_prefers_order_then_separation():
    import pandas as pd

    table = pd.DataFrame(
        {
            "perplexity": [5, 30, 40],
            "order_correlation": [0.8, 1.0, 1.0],
            "knn_accuracy": [0.9, 0.6, 0.7],
        }
    )
    assert best_perplexity(table) == 40


# ----------------------------------------------------------------------------- verdicts
def judged(**columns):
    """A judged table of hypothetical methods on a known 3-D dataset."""
    import pandas as pd

    table = pd.DataFrame(columns, index=[f"m{i}" for i in range(len(columns["knn_accuracy"]))])
    return judge(table, *_three_blobs())


def test_verdict_thresholds():
    from dimred.metrics import embedding as quality

    table = judged(
        knn_accuracy=[1.0, 0.0, 1.0, 1.0],
        order_correlation=[1.0, 0.8999999999999999, 0.89, 1.0],  # rho = 0.9 up to rounding
        adjacent_nearer=[1.0, 1.0, 1.0, float("nan")],
        within_class_share=[0.9, 0.9, 0.9, 0.0],
    )
    assert table["knn_input"].iloc[0] == pytest.approx(
        quality.knn_accuracy(*_three_blobs()), abs=1e-12
    )
    assert list(table["separates"]) == [True, False, True, True]
    assert list(table["ordered"]) == [True, True, False, True]  # nan: fewer than 3 classes
    assert list(table["informative"]) == [True, True, True, False]


def test_separation_must_beat_the_majority_class():
    """A view at the majority-class rate separates nothing, even where the input space
    does no better (contact-lenses: 15 of 24 in the largest class)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    y = np.repeat([1, 2, 3], [15, 5, 4])
    X = rng.normal(size=(24, 3))  # no class structure: 5-NN about the majority rate
    table = pd.DataFrame({"knn_accuracy": [15 / 24, 15 / 24 + 0.05, 0.9]}, index=["a", "b", "c"])
    table["order_correlation"] = table["adjacent_nearer"] = table["within_class_share"] = 1.0
    judged_table = judge(table, X, y)
    assert judged_table["majority_rate"].iloc[0] == pytest.approx(15 / 24)
    assert judged_table["knn_input"].iloc[0] < 15 / 24 + SEPARATION_MARGIN
    assert list(judged_table["separates"]) == [False, True, True]


def _three_blobs():
    import numpy as np

    X, y = np.repeat(np.eye(3), 10, axis=0), np.repeat([1, 2, 3], 10)
    return X + np.random.default_rng(0).normal(scale=0.4, size=X.shape), y


def test_claims_are_decided_by_their_predicates():
    import pandas as pd

    table = judged(
        knn_accuracy=[1.0, 1.0, 1.0, 0.2],
        order_correlation=[1.0, 1.0, 0.2, 0.2],
        adjacent_nearer=[1.0, 1.0, 0.0, 0.0],
        within_class_share=[0.9, 0.05, 0.05, 0.9],
    ).rename(index={"m0": "BVP", "m1": "LDA", "m2": "KDA", "m3": "PCA"})
    claims = pd.DataFrame(
        {
            "artifact": "fig2",
            "dataset": "toy",
            "method": ["PCA", "KDA", "LDA", "BVP", "LDA"],
            "decided_by": [
                "fails",
                "compressed_without_order",
                "not_informative",
                "succeeds_informative",
                "informative_ordered",
            ],
            "quote": "...",
        },
        index=["a", "b", "c", "d", "e"],
    )
    rows = claim_rows(claims, {"toy": table})
    assert [r["status"] for r in rows] == ["match"] * 4 + ["deviates"]
    assert rows[0]["reproduced"].endswith("not separates, not ordered, informative")


def test_published_claims_name_known_methods_datasets_and_predicates():
    claims = load_table("bvp", "claims")
    assert set(claims["decided_by"]) <= set(PREDICATES) | {"similar_to_LDA_LSDA"}
    assert set(claims["method"]) <= set(METHODS)
    assert set(claims["dataset"]) <= set(REAL_DATASETS) | set(SYNTHETIC_DATASETS)
    real = claims[claims["dataset"].isin(REAL_DATASETS)]
    assert (real["artifact"] == real["dataset"].map(REAL_FIGURES)).all()


def test_perplexity_rows_report_the_most_frequent_best():
    import pandas as pd

    published = load_table("bvp", "tsne_perplexity")
    best = {
        "gaussians": pd.Series([40.0, 30.0, 40.0, 30.0]),  # a tie that includes the paper's
        "swiss_rolls": pd.Series([20.0, 20.0, 30.0, 5.0]),
    }
    rows = perplexity_rows(published, best)
    assert [r["status"] for r in rows] == ["match", "deviates"]
    assert (rows[0]["reproduced"], rows[1]["reproduced"], rows[1]["deviation"]) == (40, 20, -10)
    assert "over 4 draws" in rows[1]["note"] and "20: 2" in rows[1]["note"]
    assert [r["data"] for r in rows] == [data_label(n) for n in ("gaussians", "swiss_rolls")]


def test_best_perplexities_and_flatness():
    import pandas as pd

    table = pd.DataFrame(
        {
            "seed": [0, 0, 1, 1],
            "perplexity": [5, 40, 5, 40],
            "order_correlation": [0.9, 1.0, 1.0, 1.0],
            "knn_accuracy": [0.8, 0.7, 0.9, 0.6],
        }
    )
    assert best_perplexities(table).to_dict() == {0: 40.0, 1: 5.0}
    flat = flatness(table)
    assert flat.loc["order_correlation"].tolist() == pytest.approx([0.05, 0.05])
    assert flat.loc["knn_accuracy"].tolist() == pytest.approx([0.2, 0.1])


def test_tsne_sweep_draws_data_tsne_and_folds_per_seed():
    embeddings, table = tsne_sweep("gaussians", (5, 500), seeds=(0, 1), quick=True)
    assert sorted(embeddings) == [(0, 5), (1, 5)]  # perplexity 500 exceeds the sample
    X, y = load_synthetic("gaussians", quick=True, seed=1)
    import numpy as np

    from dimred.metrics import embedding as quality

    np.testing.assert_array_equal(embeddings[1, 5], embed("t-SNE", X, y, 1, 5))
    row = table.set_index("seed").loc[1]
    assert row["knn_input"] == quality.knn_accuracy(X, y, random_state=1)


def test_refolding_with_the_same_seed_reproduces_evaluate():
    import pandas as pd

    from dimred.datasets.synthetic import ordinal_gaussians

    X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    embeddings, table = evaluate(X, y, ("BVP", "LDA"), seed=3)
    pd.testing.assert_frame_equal(_fold_case(X, y, embeddings, table, 3), table)
    assert not _fold_case(X, y, embeddings, table, 4).equals(table)


def test_every_draw_has_its_seed():
    from compendium.reporting import MIN_DRAWS

    full, quick = params(seed=7), params(quick=True)
    assert full.n_draws >= MIN_DRAWS and full.draw_seeds[0] == 7
    assert len(set(full.draw_seeds)) == full.n_draws and 2 <= quick.n_draws < MIN_DRAWS


def test_data_labels():
    from compendium.reporting import check_data_label

    for name in (*SYNTHETIC_DATASETS, *REAL_DATASETS):
        check_data_label(data_label(name))
    assert data_label("car") == "real (ORCA car)"
    assert data_label("gaussians").startswith("synthetic")


# ----------------------------------------------------------------------------- solvers
@pytest.mark.parametrize("name", REAL_DATASETS)
def test_solvers_agree_on_every_standardised_dataset_of_the_paper(mirrored_data, name):
    result = solver_agreement(*load_real(name), seeds=(0,))
    assert result["max_angle_deg"] < 0.01
    assert result["objective_riemannian"] == pytest.approx(result["objective_spectral"], rel=1e-8)


@pytest.mark.parametrize("name", SYNTHETIC_DATASETS)
def test_solvers_agree_on_the_synthetic_datasets(name):
    result = solver_agreement(*load_synthetic(name, seed=0), seeds=(0,))
    # the swiss rolls' centres are collinear up to noise: a small eigengap, a looser angle
    assert result["max_angle_deg"] < (0.5 if name == "swiss_rolls" else 0.01)
    assert result["objective_riemannian"] == pytest.approx(result["objective_spectral"], rel=1e-6)


def test_algorithm1_stalls_on_raw_bondrate(mirrored_data):
    """Features spread over 10^7: Algorithm 1 stops at MaxIter below the optimum."""
    result = solver_agreement(*load_real("bondrate", standardize=False), seeds=(0,))
    assert result["max_angle_deg"] > 45
    assert result["objective_riemannian"] < result["objective_spectral"]


def test_real_data_is_standardised(mirrored_data):
    import numpy as np

    X, y = load_real("newthyroid")
    np.testing.assert_allclose(X.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(0), 1)
    assert sorted(set(y)) == [1, 2, 3]


def test_unknown_synthetic_dataset():
    with pytest.raises(ValueError, match="unknown synthetic dataset"):
        load_synthetic("moons")


# ----------------------------------------------------------------------------- sensitivity
def test_swiss_roll_sensitivity_is_seeded_and_complete():
    configs = swiss_roll_configs()
    assert len(configs) == 42 and len({str(c) for c in configs}) == 42
    first = swiss_roll_sensitivity(configs[:1], seeds=(0,))
    again = swiss_roll_sensitivity(configs[:1], seeds=(0,))
    assert first.equals(again)
    assert set(SENSITIVITY_CLAIMS) <= set(first.columns)
    assert first[list(SENSITIVITY_CLAIMS)].dtypes.eq(bool).all()


def test_evaluate_reuses_precomputed_embeddings():
    import numpy as np

    from dimred.datasets.synthetic import ordinal_gaussians

    X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    given = np.column_stack([y, y]).astype(float)  # each class on one spot: no method's map
    embeddings, table = evaluate(X, y, ("BVP", "t-SNE"), precomputed={"t-SNE": given})
    assert list(embeddings) == ["BVP", "t-SNE"] and embeddings["t-SNE"] is given
    assert table.loc["t-SNE", "within_class_share"] == 0.0
    np.testing.assert_allclose(embeddings["BVP"], embed("BVP", X, y))


# ----------------------------------------------------------------------------- findings
def _solver_table():
    import pandas as pd

    cases = [
        ("gaussians", "as generated", 1e-6, 1.0),
        ("swiss_rolls", "as generated", 0.08, 1.0),
        ("car", "standardised", 2e-4, 1.0),
        ("car", "raw", 3e-4, 1.1),
        ("bondrate", "standardised", 9e-4, 1.0),
        ("bondrate", "raw", 89.9, 2.3e7),
    ]
    index = pd.MultiIndex.from_tuples([c[:2] for c in cases], names=["dataset", "features"])
    return pd.DataFrame(
        {
            "feature_sd_ratio": [c[3] for c in cases],
            "algorithm1_starts": 3,
            "max_angle_deg": [c[2] for c in cases],
            "objective_spectral": 10.0,
            "objective_riemannian": [10.0] * 5 + [9.0],
        },
        index=index,
    )


def test_solver_findings():
    closed = findings.closed_form(_solver_table())
    assert (closed["value"], closed["holds"], closed["spread"]) == (9e-4, True, "deterministic")
    assert "0.0009° on the Gaussians" in closed["statement"]
    assert "0.08° on the near-degenerate swiss rolls" in closed["statement"]
    raw = findings.raw_features(_solver_table())
    assert raw["value"] == 89.9
    assert (
        "On raw bondrate (feature standard deviations spanning a factor 2.3e+07)"
        in (raw["statement"])
    )
    assert "89.9° away" in raw["statement"] and "1.0e-01 of its value" in raw["statement"]


def test_over_draws_finding_groups_the_claims():
    import pandas as pd

    claims = load_table("bvp", "claims")
    keys = ["real_lda_collapses/pasture", "real_lda_collapses/car", "real_lsda_newthyroid"]
    table = pd.DataFrame({keys[0]: [True, True], keys[1]: [True, True], keys[2]: [True, False]})
    row = findings.over_draws(table, claims, "k", "T", "draws of the folds", "real (ORCA)")
    assert row["value"] == 2.5 and (row["low"], row["high"], row["n_draws"]) == (2, 3, 2)
    assert "On every draw: LDA compresses the classes on pasture and car." in row["statement"]
    assert "On some: LSDA separates the classes on newthyroid (1 of 2)." in row["statement"]
    assert row["note"].startswith("quick run: 2 draws")


def test_lsda_separation_finding():
    import pandas as pd

    claims = load_table("bvp", "claims")
    claimed = claims[claims["decided_by"].eq("not_separated") & claims["method"].eq("LSDA")]
    index = pd.MultiIndex.from_product(
        [[0, 1], claimed["dataset"], ["LSDA"]], names=["fold_seed", "dataset", "method"]
    )
    at_chance = index.get_level_values("dataset").isin(["contact-lenses", "bondrate"])
    knn = pd.DataFrame(
        {
            "knn_accuracy": [0.6 if c else 0.9 for c in at_chance],
            "knn_input": [0.6 if c else 0.9 for c in at_chance],
            "majority_rate": 0.58,
            "separates": ~at_chance,
        },
        index=index,
    )
    row = findings.lsda_separation(knn, claims, 0.05)
    assert row["holds"] and row["value"] == 2
    assert "holds on contact-lenses and bondrate on every one of 2 draws" in row["statement"]
    assert "On pasture, squash-stored and car LSDA separates" in row["statement"]
    assert "and trivially" in row["statement"]
    # the input space beating chance on one draw makes the claim non-trivial, and says so
    knn.loc[(1, "bondrate", "LSDA"), "knn_input"] = 0.75
    row = findings.lsda_separation(knn, claims, 0.05)
    assert not row["holds"] and "trivially" not in row["statement"]
    assert "the input space does on some draws (1 of 2 on bondrate)" in (row["statement"])


def test_sensitivity_finding():
    import pandas as pd

    table = pd.DataFrame(
        {
            "seed": [0, 0, 1, 1],
            **{claim: [True, True, True, False] for claim in SENSITIVITY_CLAIMS},
        }
    )
    row = findings.swiss_roll_sensitivity(table, SENSITIVITY_CLAIMS, 2, 2)
    assert (row["value"], row["low"], row["high"]) == (0.75, 0.5, 1.0)
    assert row["note"] and "2 generator settings × 2 seeds (4 draws)" in row["statement"]
    assert '"PCA fails" in 75%' in row["statement"]
