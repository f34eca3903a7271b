"""The BVP paper's Table I, from the mirrored ORCA files."""

from dimred.experiments import bvp


def test_table1_reproduced_exactly(mirrored_data):
    published = bvp.load_published("table1_datasets")
    reproduced = bvp.table1()
    assert list(reproduced.index) == list(published.index)
    rows = bvp.table1_rows(published, reproduced)
    assert len(rows) == 6 * 4
    assert {row["status"] for row in rows} == {"match"}


def test_table1_rows_flag_a_wrong_cell(mirrored_data):
    published = bvp.load_published("table1_datasets")
    wrong = published.copy()
    wrong.loc["car", "I"] = 1727
    statuses = {r["item"]: r["status"] for r in bvp.table1_rows(wrong, bvp.table1())}
    assert statuses["car: I"] == "deviates" and statuses["car: Q"] == "match"
