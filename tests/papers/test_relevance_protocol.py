"""The relevance-learning protocol's own pieces: Table 1 rankings, the 1-NN readings of
Table 2, and the semi-supervised Fisher metric that makes the leak-free reading possible."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from compendium.published import load_published
from dimred.datasets.synthetic import relevance_set2, relevance_set3
from dimred.manifold import FisherTSNE
from dimred.manifold.fisher_paths import fisher_distances, fisher_neighbors
from papers.relevance_learning import set1
from papers.relevance_learning.data import PAPER, Params
from papers.relevance_learning.rankings import (
    agrees,
    format_ranking,
    parse_ranking,
    ranking_of,
)
from papers.relevance_learning.toy import neighbourhoods, table1_cells, tsne_map
from papers.relevance_learning.usps import (
    draw_indices,
    loo_error,
    reading_errors,
    split_error,
    usps_draws,
)


# ----------------------------------------------------------------------------- rankings
@pytest.mark.parametrize(
    "text, groups",
    [
        ("(1, 2) >> 3", [{1, 2}, {3}]),
        ("3 > 2 >> 1", [{3}, {2}, {1}]),
        ("2 > (1, 3, 4)", [{2}, {1, 3, 4}]),
        ("1 >> 2 >> 9", [{1}, {2}, {9}]),
    ],
)
def test_parse_ranking_reads_the_papers_notation(text, groups):
    assert parse_ranking(text) == [frozenset(g) for g in groups]


@pytest.mark.parametrize("text", ["1 > 1", "(1) > 2", "a > 2", "1 >", "(1, 2 > 3"])
def test_parse_ranking_rejects_malformed_text(text):
    with pytest.raises(ValueError):
        parse_ranking(text)


def test_every_transcribed_ranking_parses():
    for text in load_published(PAPER)["table1"]["ranking"]:
        assert parse_ranking(text)


def test_ranking_direction_depends_on_the_scheme():
    relevance = [0.2, 0.9, 0.5]
    assert ranking_of(relevance, "nerv").tolist() == [2, 3, 1]
    assert ranking_of(relevance, "forward").tolist() == [2, 3, 1]
    assert ranking_of(relevance, "backward").tolist() == [1, 3, 2]  # low quality left = relevant
    assert ranking_of([1.0, 1.0, 0.0], "nerv").tolist() == [1, 2, 3]  # ties by index


def test_agreement_ignores_order_inside_groups_only():
    groups = parse_ranking("(1, 2) >> 3")
    assert agrees(groups, np.array([2, 1, 3]))
    assert agrees(groups, np.array([1, 2, 3, 4]))  # features after the groups are not compared
    assert not agrees(groups, np.array([1, 3, 2]))
    assert not agrees(parse_ranking("1 > 2"), np.array([2, 1]))
    assert format_ranking(np.array([2, 1, 3]), groups) == "(1, 2) > 3"
    assert format_ranking(np.array([1, 3, 2]), groups) == "1 > 3 > 2"


def test_table1_cells_cover_every_transcribed_cell():
    sets = {"set2": relevance_set2(n_per_cluster=15, random_state=0),
            "set3": relevance_set3(n_per_class=15, random_state=0)}  # fmt: skip
    rng = np.random.default_rng(0)
    maps = {(name, m): rng.normal(size=(sets[name][0].shape[0], 2))
            for name, methods in (("set2", ("PCA", "t-SNE")), ("set3", ("PCA", "t-SNE", "F-t-SNE")))
            for m in methods}  # fmt: skip
    ks = {name: neighbourhoods(15, {"medium": 0.8, "large": 1.2}) for name in sets}
    cells = table1_cells(sets, maps, ks, 0.5, 1.0)
    transcribed = load_published(PAPER)["table1"]
    assert set(cells.index) == set(transcribed.index)
    assert (cells["k"] == cells["neighbourhood"].map({"medium": 12, "large": 18})).all()


# ----------------------------------------------------------------------------- 1-NN readings
def test_loo_and_split_errors_match_scikit_learn():
    rng = np.random.default_rng(1)
    Z, y = rng.normal(size=(80, 3)), rng.integers(0, 3, 80)
    brute = np.linalg.norm(Z[:, None] - Z[None], axis=2)
    np.fill_diagonal(brute, np.inf)
    assert loo_error(Z, y) == pytest.approx(100 * np.mean(y[brute.argmin(axis=1)] != y))
    train = np.arange(80) % 2 == 0
    knn = KNeighborsClassifier(1).fit(Z[train], y[train])
    assert split_error(Z, y, train) == pytest.approx(
        100 * np.mean(knn.predict(Z[~train]) != y[~train])
    )


def test_draws_are_stratified_seeded_and_distinct():
    target = np.repeat(np.arange(4), 50)
    first = draw_indices(target, 10, seed=0)
    assert np.bincount(target[first]).tolist() == [10] * 4
    np.testing.assert_array_equal(first, draw_indices(target, 10, seed=0))
    assert not np.array_equal(first, draw_indices(target, 10, seed=1))


def test_usps_draw_tasks_reassemble_into_the_tables_rows():
    """Each draw is three tasks (two readings and t-SNE(X)); the table puts them back in order."""
    rng = np.random.default_rng(3)
    y = np.repeat(np.arange(3), 30)
    X = rng.normal(size=(90, 6)) + 2.0 * np.eye(6)[y]
    p = Params(usps_per_class=12, usps_draws=2, usps_nerv=(("max_iter", 20),), n_jobs=1)
    errors, extras = usps_draws(X, y, p, progress=False)
    assert list(errors) == ["draw_0", "draw_1"]
    spaces = ["X", "t-SNE(X)", "F-t-SNE(X)"] + ["X_lambda", "t-SNE(X_lambda)"] * 2
    assert errors.index.get_level_values("space").tolist() == spaces * 2
    assert errors.index.get_level_values("reading").tolist() == ["paper"] * 7 + ["leak_free"] * 7
    index = draw_indices(y, 12, p.seed + 1)
    tsne = tsne_map(X[index], p.usps_perplexity, p.seed + 1)
    assert errors.loc[("paper", "t-SNE(X)", ""), "draw_1"] == loo_error(tsne, y[index])
    alone, relevances, fits, fisher_map = reading_errors(X, y, 1, "leak_free", p)
    for (space, neighbourhood), error in alone.items():
        assert errors.loc[("leak_free", space, neighbourhood), "draw_1"] == error
    large = extras[1]["relevances"]["leak_free", "large"]
    np.testing.assert_array_equal(large, relevances["large"])
    assert extras[1]["fits"]["reading"].tolist() == ["paper"] * 2 + ["leak_free"] * 2
    np.testing.assert_array_equal(extras[1]["y"], y[index])


# ----------------------------------------------------------------------------- no label leak
@pytest.fixture(scope="module")
def partly_labelled():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1, 2], 12)
    X = rng.normal(size=(36, 4)) + 2.5 * np.eye(4)[y]
    labelled = np.arange(36) % 3 != 0
    return X, y, labelled


def test_unlabelled_labels_cannot_reach_the_metric(partly_labelled):
    X, y, labelled = partly_labelled
    scrambled = y.copy()
    scrambled[~labelled] = (y[~labelled] + 1) % 3
    for function in (
        fisher_distances,
        lambda X, y, **kw: fisher_neighbors(X, y, 6, **kw).toarray(),
    ):
        np.testing.assert_array_equal(
            function(X, y, labelled=labelled), function(X, scrambled, labelled=labelled)
        )
    assert not np.array_equal(fisher_distances(X, y), fisher_distances(X, scrambled))


def test_semi_supervised_fast_graph_equals_the_dense_reference(partly_labelled):
    X, y, labelled = partly_labelled
    dense = fisher_distances(X, y, labelled=labelled)
    graph = fisher_neighbors(X, y, 8, labelled=labelled, n_candidates=X.shape[0] - 1)
    for i in range(X.shape[0]):
        row = graph[i].toarray().ravel()
        chosen = graph[i].indices[1:]
        np.testing.assert_allclose(row[chosen], dense[i, chosen], rtol=1e-10)
        assert row[chosen].max() <= np.sort(np.delete(dense[i], i))[7] * (1 + 1e-10)


def test_all_labelled_is_the_supervised_metric(partly_labelled):
    X, y, _ = partly_labelled
    everyone = np.ones(y.size, dtype=bool)
    np.testing.assert_array_equal(fisher_distances(X, y), fisher_distances(X, y, labelled=everyone))


@pytest.mark.parametrize("mask", [np.ones(5, dtype=bool), np.arange(36) % 2, "all"])
def test_fisher_tsne_rejects_bad_masks(partly_labelled, mask):
    X, y, _ = partly_labelled
    with pytest.raises(ValueError, match="labelled"):
        FisherTSNE(perplexity=5).fit(X, y, labelled=mask)


def test_fisher_tsne_needs_two_labelled_classes(partly_labelled):
    X, y, _ = partly_labelled
    with pytest.raises(ValueError):
        FisherTSNE(perplexity=5).fit(X, y, labelled=y == 0)


def test_first_k_from_is_where_a_condition_starts_to_hold_for_good():
    ks = np.array([2, 4, 6, 8, 10])
    first = set1._first_k_from
    assert first(ks, np.array([True, False, True, True, True])) == 6
    assert first(ks, np.ones(5, bool)) == 2
    assert np.isnan(first(ks, np.array([True, True, True, True, False])))


def test_set1_verdicts_decide_each_claim_on_one_draw():
    """A profile built to satisfy (or violate) each claim of Fig. 2's text."""
    ks = np.arange(2, 42, 2)
    cluster = 20
    small = ks < cluster
    nerv = np.column_stack([np.ones(ks.size), np.ones(ks.size), np.where(small, 0.5, 0.0)])
    diagonal = ks / 59
    forward = np.column_stack([diagonal + 0.4, diagonal + 0.4, diagonal])
    quality = 0.8 * np.ones(ks.size)
    backward = np.column_stack([quality - 0.3, quality - 0.3, quality])
    profiles = {"nerv": nerv, "forward": forward, "backward": backward}
    baselines = {"nerv": np.zeros(ks.size), "forward": diagonal, "backward": quality}
    verdicts = set1._set1_verdicts(ks, profiles, baselines, cluster)
    assert {c: v[0] for c, v in verdicts.items()} == {
        "set1_ranking_identical": True,
        "set1_nerv_dim3_irrelevant": True,
        "set1_nerv_local": True,
        "set1_baselines": True,
        "set1_fb_mark_dim3": True,
        "set1_fb_not_local": True,
    }
    profiles["nerv"] = nerv * [1, 1, 0] + [0, 0, 0.5]  # dimension 3 relevant everywhere
    verdicts = set1._set1_verdicts(ks, profiles, baselines, cluster)
    assert not verdicts["set1_nerv_dim3_irrelevant"][0] and not verdicts["set1_baselines"][0]


def test_a_claim_over_draws_takes_the_majority():
    published = load_published("relevance_learning")
    rows = [
        set1._majority_row(published, "set1_nerv_local", [(True, "a")] * k + [(False, "b")] * 2)
        for k in (1, 3)
    ]
    assert [r["status"] for r in rows] == ["deviates", "match"]
    assert rows[1]["reproduced"] == "holds on 3 of 5 draws of set1"
