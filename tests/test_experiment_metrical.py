"""The metrical-importance protocol: Tables 1-3 and the helpers behind the report."""

import numpy as np
import pandas as pd
import pytest

from dimred.compendium.published import load_table
from dimred.experiments.metrical_importance import protocol as mi


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
    inferred = mi.infer_numbering(
        mi.metrical(data).discard_order_ + 1, published, data.feature_names
    )
    assert inferred[:5] == data.feature_names[:5]  # numeric block unchanged
    assert tuple(inferred[5:]) == mi.HEART_PAPER_CATEGORICAL


def test_dataset_facts_of_section4(mirrored_data):
    facts = load_table(mi.PAPER, "datasets")
    for name in mi.DATASETS:
        rows = mi.dataset_rows(name, mi.load(name), facts.loc[name])
        assert [row["status"] for row in rows] == ["match"] * 4


def test_infer_numbering_and_kendall_tau():
    names = ["a", "b", "c"]
    assert mi.infer_numbering([1, 2, 3], [3, 1, 2], names) == ["b", "c", "a"]
    assert mi.kendall_tau([1, 2, 3, 4], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert mi.kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)


def test_discard_orders_sort_least_important_first():
    table = pd.DataFrame(
        {"pca": [10.0, 30.0, 60.0], "rf": [5.0, 90.0, 5.5]}, index=pd.RangeIndex(1, 4)
    )
    orders = mi.discard_orders(table)
    assert orders.loc["pca"].tolist() == [1, 2, 3]
    assert orders.loc["rf"].tolist() == [1, 3, 2]


def test_every_claim_row_quotes_the_paper():
    claims = load_table(mi.PAPER, "claims")
    rows = [mi._with_quote({"item": f"{claim}: x", "note": ""}, claims) for claim in claims.index]
    assert all(row["note"].startswith("paper (Section 4") for row in rows)
    assert [row["source"] for row in rows] == [f"claims:{claim}" for claim in claims.index]
    with pytest.raises(KeyError):
        mi._with_quote({"item": "unknown_claim: x", "note": ""}, claims)


def test_order_agreement_statuses():
    published = pd.DataFrame(
        [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], index=["pca", "rf"], columns=range(1, 6)
    )
    ours = [
        pd.DataFrame([[1, 2, 3, 4, 5], [4, 5, 3, 2, 1]], index=["pca", "rf"]),
        pd.DataFrame([[1, 2, 3, 4, 5], [5, 4, 3, 1, 2]], index=["pca", "rf"]),
    ]
    agreement = mi.order_agreement(published, ours)
    assert agreement.loc["pca", "status"] == "match"
    assert agreement.loc["rf", "status"] == "within_error"
    far = published.copy()
    far.loc["rf"] = [1, 2, 3, 4, 5]
    assert mi.order_agreement(far, ours).loc["rf", "status"] == "deviates"
