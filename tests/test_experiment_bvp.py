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


def test_embeddings_are_oriented_and_measured():

    from dimred.synthetic import ordinal_gaussians

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
