"""The metrical-importance protocol: Tables 1-3 and the helpers behind the report."""

import numpy as np
import pandas as pd
import pytest

from compendium.published import load_table
from compendium.reporting import MIN_DRAWS, check_data_label
from papers.metrical_importance import data as mi
from papers.metrical_importance import findings
from papers.metrical_importance.claims import _with_quote
from papers.metrical_importance.curves import setting_rows
from papers.metrical_importance.orders import (
    discard_orders,
    infer_numbering,
    kendall_tau,
    order_agreement,
)


@pytest.mark.parametrize(("name", "table"), [("australian", 1), ("bank", 2), ("heart", 3)])
def test_pca_rows_of_tables_reproduced_exactly(mirrored_data, name, table):
    data = mi.load(name)
    published = load_table(mi.PAPER, f"table{table}_discard_orders").loc["pca"].to_numpy()
    np.testing.assert_array_equal(mi.metrical(data).discard_order_ + 1, published)


def test_definition1_as_printed_does_not_reproduce_table1(mirrored_data):
    """The text's Eq. (5) reading gives the opposite order: the evidence for 'weight'."""
    data = mi.load("australian")
    published = load_table(mi.PAPER, "table1_discard_orders").loc["pca"].to_numpy()
    order = mi.metrical(data, importance="definition").discard_order_ + 1
    np.testing.assert_array_equal(order, published[::-1])


def test_heart_numbering_inferred_from_table3(mirrored_data):
    data = mi.load("heart", "continuous_first")
    published = load_table(mi.PAPER, "table3_discard_orders").loc["pca"]
    inferred = infer_numbering(mi.metrical(data).discard_order_ + 1, published, data.feature_names)
    assert inferred[:5] == data.feature_names[:5]  # numeric block unchanged
    assert tuple(inferred[5:]) == mi.HEART_PAPER_CATEGORICAL


def test_dataset_facts_of_section4(mirrored_data):
    facts = load_table(mi.PAPER, "datasets")
    for name in mi.DATASETS:
        rows = mi.dataset_rows(name, mi.load(name), facts.loc[name])
        assert [row["status"] for row in rows] == ["match"] * 4


def test_importances_by_seed_gives_each_dataset_its_own_seeds(mirrored_data):
    """All datasets' seeds run as one set of joblib tasks (largest dataset first); each
    table is still that of its dataset and seed, in the order of ``data`` and ``p.seeds``."""
    data = {name: mi.load(name) for name in ("heart", "australian")}
    p = mi.Params(seed=3, n_jobs=2, n_estimators=5, shap_rows=20, n_seeds=2)
    got = mi.importances_by_seed(data, p)
    assert list(got) == list(data)
    for name, d in data.items():
        for seed, table in zip(p.seeds, got[name], strict=True):
            pd.testing.assert_frame_equal(table, mi.importances(d, seed, 5, shap_rows=20))


def test_infer_numbering_and_kendall_tau():
    names = ["a", "b", "c"]
    assert infer_numbering([1, 2, 3], [3, 1, 2], names) == ["b", "c", "a"]
    assert kendall_tau([1, 2, 3, 4], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)


def test_discard_orders_sort_least_important_first():
    table = pd.DataFrame(
        {"pca": [10.0, 30.0, 60.0], "rf": [5.0, 90.0, 5.5]}, index=pd.RangeIndex(1, 4)
    )
    orders = discard_orders(table)
    assert orders.loc["pca"].tolist() == [1, 2, 3]
    assert orders.loc["rf"].tolist() == [1, 3, 2]


def test_every_claim_row_quotes_the_paper():
    claims = load_table(mi.PAPER, "claims")
    rows = [_with_quote({"item": f"{claim}: x", "note": ""}, claims) for claim in claims.index]
    assert all(row["note"].startswith("paper (Section 4") for row in rows)
    assert [row["source"] for row in rows] == [f"claims:{claim}" for claim in claims.index]
    with pytest.raises(KeyError):
        _with_quote({"item": "unknown_claim: x", "note": ""}, claims)


def test_order_agreement_statuses():
    published = pd.DataFrame(
        [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], index=["pca", "rf"], columns=range(1, 6)
    )
    ours = [
        pd.DataFrame([[1, 2, 3, 4, 5], [4, 5, 3, 2, 1]], index=["pca", "rf"]),
        pd.DataFrame([[1, 2, 3, 4, 5], [5, 4, 3, 1, 2]], index=["pca", "rf"]),
    ]
    agreement = order_agreement(published, ours)
    assert agreement.loc["pca", "status"] == "match"
    assert agreement.loc["rf", "status"] == "within_error"
    far = published.copy()
    far.loc["rf"] = [1, 2, 3, 4, 5]
    assert order_agreement(far, ours).loc["rf", "status"] == "deviates"


def test_order_agreement_counts_its_seeds():
    published = pd.DataFrame([[1, 2, 3]], index=["rf"], columns=range(1, 4))
    ours = [pd.DataFrame([[1, 2, 3]], index=["rf"]), pd.DataFrame([[2, 1, 3]], index=["rf"])]
    assert order_agreement(published, ours).loc["rf", "n_seeds"] == 2


# ----------------------------------------------------------------------------- data, settings
def test_full_run_measures_the_forests_over_enough_seeds():
    assert mi.params().n_seeds >= MIN_DRAWS and len(mi.params().seeds) == mi.params().n_seeds
    assert 2 <= mi.params(quick=True).n_seeds < MIN_DRAWS


def test_every_row_and_table_says_which_data():
    for label in [*mi.DATA.values(), mi.ALL_DATA]:
        check_data_label(label)
    table = pd.DataFrame({"x": [1, 2]}, index=pd.Index(["bank", "heart"], name="dataset"))
    assert mi._with_data(table)["data"].tolist() == [mi.DATA["bank"], mi.DATA["heart"]]
    rows = setting_rows(50)
    assert {row["status"] for row in rows} == {"setting"}
    assert {row["data"] for row in rows} == {mi.ALL_DATA}
    runs = next(row for row in rows if "runs" in row["item"])
    assert (runs["published"], runs["reproduced"]) == (100, 50)


# ----------------------------------------------------------------------------- findings
def test_text_vs_tables_and_numbering_findings():
    index = pd.MultiIndex.from_product(
        [["australian", "bank", "heart"], ["continuous_first", "paper"]],
        names=["dataset", "numbering"],
    )
    readings = pd.DataFrame(
        {
            "definition": [0, 0, 0, 0, 1, 1],
            "weight": [14, 14, 16, 16, 8, 13],
            "n_features": [14, 14, 16, 16, 13, 13],
        },
        index=index,
    )
    text = findings.text_vs_tables(readings, mi.ALL_DATA)
    assert (text["value"], text["holds"], text["spread"]) == (43, True, "deterministic")
    assert "43 of their 43 positions" in text["statement"]
    numbering = findings.feature_numbering(readings, mi.ALL_DATA)
    assert numbering["value"] == 8 and numbering["holds"]
    assert "only 8 of 13 of Heart's" in numbering["statement"]


def test_heart_numbering_check_finding():
    index = pd.MultiIndex.from_product([[0, 1], ["rf", "sd"]], names=["seed", "order"])
    table = pd.DataFrame(
        {"continuous_first": [0.4, 0.5, 0.5, 0.6], "paper": [0.9, 0.9, 1.0, 0.8]}, index=index
    )
    row = findings.heart_numbering_check(table, mi.DATA["heart"])
    assert row["value"] == pytest.approx(np.median([0.45, 0.35]))
    assert (row["low"], row["high"], row["n_draws"]) == (pytest.approx(0.35), 0.45, 2)
    assert row["holds"] and row["note"].startswith("quick run: 2 forest seeds")
    assert "0.50 (0.45–0.55 over 2 seeds) under the stated" in row["statement"]


def test_forest_rows_finding():
    index = pd.MultiIndex.from_product(
        [["australian", "bank"], ["pca", "rf", "sd"]], names=["dataset", "order"]
    )
    agreement = pd.DataFrame(
        {
            "n_seeds": 10,
            "tau_published": [1, 0.9, 0.95, 1, 0.7, 0.8],
            "status": ["match", "within_error", "deviates", "match", "deviates", "deviates"],
        },
        index=index,
    )
    row = findings.forest_rows(agreement, mi.ALL_DATA)
    assert row["n_draws"] == 4 and (row["low"], row["high"]) == (0.7, 0.95)
    assert "In 1 of the 4 rows (Australian `rf`)" in row["statement"]
    assert "other 3 it agrees less well (τ 0.70–0.95)" in row["statement"]
    assert "Bank's rows differ most" in row["statement"]
    assert "quick run" not in row["note"]


def test_remark2_findings():
    tops = pd.DataFrame(
        {
            "dataset": ["bank", "bank"],
            "scaling": ["hamming", "empirical"],
            "feature": ["default", "duration"],
            "levels": [2, np.nan],
            "largest_level_share": [0.98, np.nan],
            "n_features": [16, 16],
        }
    )
    agreement = pd.DataFrame(
        {
            "dataset": "bank",
            "scaling": ["hamming"] * 2 + ["empirical"] * 2,
            "seed": [0, 1, 0, 1],
            "forest": "rf",
            "tau": [-0.1, 0.0, 0.4, 0.5],
            "forest_rank_of_top": [16, 14, 1, 2],
            "same_top": [False, False, True, False],
        }
    )
    flaw = findings.remark2_flaw(tops, agreement, mi.ALL_DATA)
    assert flaw["holds"] and flaw["value"] == pytest.approx(np.median([1, 14 / 16]))
    assert "Bank's `default` (2 levels, 98% in one)" in flaw["statement"]
    assert "15 (14–16) of 16" in flaw["statement"]
    empirical = findings.empirical_scaling(tops, agreement, mi.ALL_DATA)
    assert not empirical["holds"]  # seed 1: neither scaling has the forest's top feature
    assert empirical["value"] == 50 and "Bank's `duration`" in empirical["statement"]
    assert "agree better" in empirical["statement"]
