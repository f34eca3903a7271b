"""The BVP paper's protocol: Table I, verdicts and claims, solver agreement, sensitivity."""

import pytest

from dimred.compendium.published import load_table
from dimred.experiments.bvp import protocol as bvp


@pytest.fixture(scope="module")
def real(mirrored_data):
    return bvp.load_real_data()


def test_table1_reproduced_exactly(real):
    published = load_table("bvp", "table1_datasets")
    reproduced = bvp.table1(real)
    assert list(reproduced.index) == list(published.index)
    rows = bvp.table1_rows(published, reproduced)
    assert len(rows) == 6 * 4
    assert {row["status"] for row in rows} == {"match"}
    assert {row["source"] for row in rows} == {f"table1_datasets:{n}" for n in published.index}


def test_table1_rows_flag_a_wrong_cell(real):
    published = load_table("bvp", "table1_datasets")
    wrong = published.copy()
    wrong.loc["car", "I"] = 1727
    statuses = {r["item"]: r["status"] for r in bvp.table1_rows(wrong, bvp.table1(real))}
    assert statuses["car: I"] == "deviates" and statuses["car: Q"] == "match"


def test_embeddings_are_oriented_and_measured():

    from dimred.datasets.synthetic import ordinal_gaussians

    X, y = ordinal_gaussians(n_per_class=40, random_state=0)
    for method in ("BVP", "PCA", "LDA", "LSDA"):
        Z = bvp.embed(method, X, y)
        assert Z.shape == (len(y), 2)
        first, last = Z[y == 1].mean(0), Z[y == 5].mean(0)
        assert (last >= first).all()
        metrics = bvp.embedding_metrics(X, y, Z)
        assert set(metrics) == {
            "knn_accuracy",
            "order_correlation",
            "adjacent_nearer",
            "within_class_share",
            "trustworthiness",
            "continuity",
        }
    # the construction hides the order from PCA but not from BVP
    assert bvp.embedding_metrics(X, y, bvp.embed("BVP", X, y))["order_correlation"] > 0.999
    assert bvp.embedding_metrics(X, y, bvp.embed("PCA", X, y))["order_correlation"] < 0.9


def test_best_perplexity_prefers_order_then_separation():
    import pandas as pd

    table = pd.DataFrame(
        {
            "perplexity": [5, 30, 40],
            "order_correlation": [0.8, 1.0, 1.0],
            "knn_accuracy": [0.9, 0.6, 0.7],
        }
    )
    assert bvp.best_perplexity(table) == 40


# ----------------------------------------------------------------------------- verdicts
def judged(**columns):
    """A judged table of hypothetical methods on a known 3-D dataset."""
    import pandas as pd

    table = pd.DataFrame(columns, index=[f"m{i}" for i in range(len(columns["knn_accuracy"]))])
    return bvp.judge(table, *_three_blobs())


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
    judged_table = bvp.judge(table, X, y)
    assert judged_table["majority_rate"].iloc[0] == pytest.approx(15 / 24)
    assert judged_table["knn_input"].iloc[0] < 15 / 24 + bvp.SEPARATION_MARGIN
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
    rows = bvp.claim_rows(claims, {"toy": table})
    assert [r["status"] for r in rows] == ["match"] * 4 + ["deviates"]
    assert rows[0]["reproduced"].endswith("not separates, not ordered, informative")


def test_published_claims_name_known_methods_datasets_and_predicates():
    claims = load_table("bvp", "claims")
    assert set(claims["decided_by"]) <= set(bvp.PREDICATES) | {"similar_to_LDA_LSDA"}
    assert set(claims["method"]) <= set(bvp.METHODS)
    assert set(claims["dataset"]) <= set(bvp.REAL_DATASETS) | set(bvp.SYNTHETIC_DATASETS)
    real = claims[claims["dataset"].isin(bvp.REAL_DATASETS)]
    assert (real["artifact"] == real["dataset"].map(bvp.REAL_FIGURES)).all()


def test_perplexity_rows():
    published = load_table("bvp", "tsne_perplexity")
    rows = bvp.perplexity_rows(published, {"gaussians": 40.0, "swiss_rolls": 20.0})
    assert [r["status"] for r in rows] == ["match", "deviates"]
    assert rows[1]["deviation"] == -10.0


# ----------------------------------------------------------------------------- solvers
@pytest.mark.parametrize("name", bvp.REAL_DATASETS)
def test_solvers_agree_on_every_standardised_dataset_of_the_paper(mirrored_data, name):
    result = bvp.solver_agreement(*bvp.load_real(name), seeds=(0,))
    assert result["max_angle_deg"] < 0.01
    assert result["objective_riemannian"] == pytest.approx(result["objective_spectral"], rel=1e-8)


@pytest.mark.parametrize("name", bvp.SYNTHETIC_DATASETS)
def test_solvers_agree_on_the_synthetic_datasets(name):
    result = bvp.solver_agreement(*bvp.load_synthetic(name, seed=0), seeds=(0,))
    # the swiss rolls' centres are collinear up to noise: a small eigengap, a looser angle
    assert result["max_angle_deg"] < (0.5 if name == "swiss_rolls" else 0.01)
    assert result["objective_riemannian"] == pytest.approx(result["objective_spectral"], rel=1e-6)


def test_algorithm1_stalls_on_raw_bondrate(mirrored_data):
    """Features spread over 10^7: Algorithm 1 stops at MaxIter below the optimum."""
    result = bvp.solver_agreement(*bvp.load_real("bondrate", standardize=False), seeds=(0,))
    assert result["max_angle_deg"] > 45
    assert result["objective_riemannian"] < result["objective_spectral"]


def test_real_data_is_standardised(mirrored_data):
    import numpy as np

    X, y = bvp.load_real("newthyroid")
    np.testing.assert_allclose(X.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(0), 1)
    assert sorted(set(y)) == [1, 2, 3]


def test_unknown_synthetic_dataset():
    with pytest.raises(ValueError, match="unknown synthetic dataset"):
        bvp.load_synthetic("moons")


# ----------------------------------------------------------------------------- sensitivity
def test_swiss_roll_sensitivity_is_seeded_and_complete():
    configs = bvp.swiss_roll_configs()
    assert len(configs) == 42 and len({str(c) for c in configs}) == 42
    first = bvp.swiss_roll_sensitivity(configs[:1], seeds=(0,))
    again = bvp.swiss_roll_sensitivity(configs[:1], seeds=(0,))
    assert first.equals(again)
    assert set(bvp.SENSITIVITY_CLAIMS) <= set(first.columns)
    assert first[list(bvp.SENSITIVITY_CLAIMS)].dtypes.eq(bool).all()


def test_evaluate_reuses_precomputed_embeddings():
    import numpy as np

    from dimred.datasets.synthetic import ordinal_gaussians

    X, y = ordinal_gaussians(n_per_class=20, random_state=0)
    given = X[:, :2] * 0.0  # every point on one spot: no method would produce this
    embeddings, table = bvp.evaluate(X, y, ("BVP", "t-SNE"), precomputed={"t-SNE": given})
    assert list(embeddings) == ["BVP", "t-SNE"] and embeddings["t-SNE"] is given
    assert table.loc["t-SNE", "within_class_share"] == 0.0
    np.testing.assert_allclose(embeddings["BVP"], bvp.embed("BVP", X, y))
