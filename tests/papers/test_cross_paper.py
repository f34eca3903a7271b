"""The cross-paper benchmark's building blocks: partitions, league, maps, agreement."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata, spearmanr
from sklearn.utils import Bunch

from papers.cross_paper import agreement, league, maps, partitions
from papers.metrical_importance.data import PaperData
from papers.orml.methods import TRIVIAL_METHODS


def _ordinal(n_per_class=30, n_classes=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, n_classes + 1), n_per_class)
    X = np.column_stack([y + 0.4 * rng.normal(size=y.size), rng.normal(size=(y.size, 2))])
    return X, y


# ------------------------------------------------------------------------ partitions
def test_drawn_partitions_are_stratified_seeded_and_row_order_free():
    X, y = _ordinal(n_per_class=40)
    parts = partitions.drawn_partitions(X, y, 5, seed=3)
    for X_train, y_train, X_test, y_test in parts:
        assert len(y_test) == len(y) // 4 and len(y_train) + len(y_test) == len(y)
        assert (np.bincount(y_test)[1:] == 10).all()  # 25 % of every class
        rows = {tuple(r) for r in np.column_stack([X_train, y_train])}
        assert rows.isdisjoint({tuple(r) for r in np.column_stack([X_test, y_test])})
    assert len({tuple(p[3]) for p in parts}) > 1 or len({p[2].tobytes() for p in parts}) > 1
    shuffled = np.random.default_rng(1).permutation(len(y))
    again = partitions.drawn_partitions(X[shuffled], y[shuffled], 5, seed=3)
    for a, b in zip(parts, again, strict=True):
        for left, right in zip(a, b, strict=True):
            np.testing.assert_array_equal(left, right)


def test_drawn_partitions_keep_the_given_first_partition():
    X, y = _ordinal()
    test = np.arange(0, len(y), 4)
    train = np.setdiff1d(np.arange(len(y)), test)
    X_train, y_train, X_test, y_test = partitions.drawn_partitions(X, y, 2, 0, (train, test))[0]
    key = lambda A, b: sorted(map(tuple, np.column_stack([A, b])))  # noqa: E731
    assert key(X_test, y_test) == key(X[test], y[test])
    assert key(X_train, y_train) == key(X[train], y[train])


# ---------------------------------------------------------------------------- league
@pytest.mark.parametrize("method", league.METHODS)
def test_every_league_method_ranks_an_easy_ordinal_set(method):
    X, y = _ordinal(seed=1)
    model = league.make_ranker(method, 4, seed=0).fit(X, y)
    predicted = model.predict(X)
    assert set(predicted) <= set(y)
    if method == "median rank":
        assert (predicted == 2).all()  # the lower median of 1..4 with equal counts
    elif method != "chance":
        assert np.mean(np.abs(predicted - y)) < 0.5, method


def test_projections_keep_at_most_n_classes_minus_one_components():
    X, y = _ordinal(n_classes=2)
    model = league.make_ranker("LDA (1-NN)", 2).fit(X, y)
    assert model.embedding_.shape[1] == 1


def test_score_partition_scores_the_median_rank_by_hand():
    X, y = _ordinal()
    part = partitions.drawn_partitions(X, y, 1, 0)[0]
    p = Bunch(seed=0, methods=TRIVIAL_METHODS, c_grid=(1.0,))
    rows = league.score_partition("toy", 0, part, np.arange(1, 5), p)
    median = next(r for r in rows if r["method"] == "median rank")
    y_test = part[3]
    assert median["mae"] == pytest.approx(np.mean(np.abs(y_test - 2)))
    assert median["mze"] == pytest.approx(np.mean(y_test != 2)) and median["tau_b"] == 0.0


def _scores():
    rng = np.random.default_rng(0)
    rows = []
    for d in ("a", "b", "c"):
        for part in range(6):
            for method, level in (("median rank", 1.0), ("good", 0.5), ("bad", 1.5)):
                noise = rng.normal(scale=0.05) if method != "median rank" else 0.0
                mae = level + noise + (0.6 if d == "c" and method == "good" else 0.0)
                rows.append(
                    {
                        "dataset": d,
                        "partition": part,
                        "method": method,
                        "mae": mae,
                        "mze": mae / 2,
                        "tau_b": 1 - mae,
                    }
                )
    return pd.DataFrame(rows)


def test_beats_median_follows_from_the_partitions():
    scores = _scores()
    table = league.beats_median(scores)
    for dataset, row in table.iterrows():
        own = scores[scores["dataset"] == dataset].pivot(
            index="partition", columns="method", values="mae"
        )
        gain = own["median rank"] - own[row["best"]]
        assert row["gain_mean"] == pytest.approx(gain.mean())
        assert row["gain_sd"] == pytest.approx(gain.std(ddof=1))
        assert row["beyond_spread"] == (gain.mean() > gain.std(ddof=1))
    assert table.loc["a", "best"] == "good" and table.loc["a", "beyond_spread"]
    assert not table.loc["c", "beyond_spread"]  # "good" is 0.1 worse than the median there


def test_friedman_table_ranks_by_hand():
    summary = league.league_summary(_scores())
    ranks, test, cd, _ = league.friedman_table(summary, "mae")
    wide = summary.pivot(index="dataset", columns="method", values="mae_mean")
    expected = pd.Series(rankdata(wide.to_numpy(), axis=1).mean(axis=0), wide.columns)
    pd.testing.assert_series_equal(
        ranks["mean_rank"].sort_index(), expected.sort_index(), check_names=False
    )
    tau_ranks, *_ = league.friedman_table(summary, "tau_b")
    assert tau_ranks.index[0] == ranks.index[0]  # tau = 1 - MAE here: the same order
    assert cd > 0 and test.n_datasets == 3


# ------------------------------------------------------------------------------ maps
def test_score_map_of_a_perfect_map_and_of_a_random_one():
    X = np.random.default_rng(0).normal(size=(80, 2))
    rnx, scores = maps.score_map(X, X * 3.0)
    assert np.allclose(rnx, 1.0) and scores["rnx_auc"] == pytest.approx(1.0)
    assert scores["trustworthiness"] == pytest.approx(1.0)
    assert scores["continuity"] == pytest.approx(1.0)
    _, random = maps.score_map(X, np.random.default_rng(1).normal(size=(80, 2)))
    assert abs(random["rnx_auc"]) < 0.1 and random["trustworthiness"] < 0.7


def test_fixed_data_draw_only_t_sne_again_and_t_sne_follows_its_seed():
    X, y = _ordinal(n_per_class=15)
    first = maps._bvp_embed("t-SNE", X, y, seed=0)
    np.testing.assert_array_equal(first, maps._bvp_embed("t-SNE", X, y, seed=0))
    assert not np.allclose(first, maps._bvp_embed("t-SNE", X, y, seed=7))
    # every other map of fixed data is a function of the data alone
    for method in ("PCA", "MDS", "LSDA"):
        np.testing.assert_array_equal(
            maps._bvp_embed(method, X, y, seed=0), maps._bvp_embed(method, X, y, seed=7)
        )
    assert maps.methods_of("car") == maps.bvp.METHODS
    assert maps.methods_of("car", draw=3, fixed=True) == maps.STOCHASTIC == ("t-SNE",)
    assert maps.methods_of("usps", draw=3) == maps.USPS_METHODS


# ------------------------------------------------------------------------- agreement
def test_encode_sums_the_indicator_columns_of_a_feature():
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": pd.Categorical(["x", "y", "x", "z"])})
    data = PaperData("toy", frame, np.array([0, 1, 0, 1]), np.array([False, True]))
    X, owner = agreement.encode(data)
    assert X.shape == (4, 4) and list(owner) == [0, 1, 1, 1]
    np.testing.assert_allclose(X[:, 0], (frame["a"] - 2.5) / frame["a"].std(ddof=0))
    assert (X[:, 1:].sum(axis=1) == 1).all()


def test_correlations_are_spearman_on_the_finite_importances():
    importance = pd.DataFrame({c: [1.0, 2.0, 3.0, np.nan] for c in agreement.IMPORTANCES})
    importance["rf"] = [3.0, 2.0, 1.0, 0.0]
    rows = agreement.correlations({"m": np.array([0.1, 0.5, 0.9, 5.0])}, importance, {"k": 1})
    by = {r["importance"]: r["spearman"] for r in rows}
    assert by["metrical"] == pytest.approx(1.0)  # the nan feature left out
    assert by["rf"] == pytest.approx(spearmanr([0.1, 0.5, 0.9, 5.0], [3, 2, 1, 0]).statistic)


def test_correlations_rank_values_equal_up_to_rounding_as_ties():
    """Car's symmetric features have metrical importances equal in exact arithmetic;
    rounding noise must not rank them (plain ``spearmanr`` does)."""
    exact = np.array([2.0, 2.0, 3.0, 1.0, 1.0])
    noisy = exact * (1 + np.array([1e-15, -1e-15, 0.0, -1e-15, 1e-15]))
    relevance = np.array([0.5, 0.1, 0.9, 0.2, 0.3])
    frames = [pd.DataFrame({c: v for c in agreement.IMPORTANCES}) for v in (exact, noisy)]
    rhos = [agreement.correlations({"m": relevance}, frame, {})[0]["spearman"] for frame in frames]
    assert rhos[0] == rhos[1] == pytest.approx(spearmanr(relevance, exact).statistic)
    assert spearmanr(relevance, noisy).statistic != pytest.approx(rhos[0])


def test_new_maps_reuse_deterministic_maps():
    given = {("s", 0, "PCA"): 1, ("s", 0, "t-SNE"): 2, ("o", 0, "PCA"): 4}
    assert agreement._new_maps("s", 1, given, True) == {}
    assert agreement._new_maps("s", 0, given, True) == {"PCA": 1, "t-SNE": 2}
    assert agreement._new_maps("heart", 2, None, True) == ("t-SNE",)
    assert agreement._new_maps("heart", 0, None, True) == agreement.MIXED_MAPS
    assert agreement._new_maps("bank", 2, None, False) == agreement.MIXED_MAPS


def test_canonical_rows_do_not_depend_on_the_file_order():
    X, y = _ordinal()
    X[5] = X[6]  # a duplicated pattern with another label still sorts one way
    perm = np.random.default_rng(2).permutation(len(y))
    for a, b in zip(
        partitions.canonical(X, y), partitions.canonical(X[perm], y[perm]), strict=True
    ):
        np.testing.assert_array_equal(a, b)


def test_mixed_draw_does_not_depend_on_the_file_order():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"a": rng.normal(size=60), "b": pd.Categorical(rng.choice(["x", "y"], 60))}
    )
    y = np.repeat([0, 1], 30)
    data = PaperData("toy", frame, y, np.array([False, True]))
    perm = rng.permutation(60)
    shuffled = PaperData("toy", frame.iloc[perm], y[perm], data.categorical)
    a, b = agreement.mixed_draw(data, 3, rows=20), agreement.mixed_draw(shuffled, 3, rows=20)
    key = lambda d: sorted(zip(d.X["a"].round(12), d.y, strict=True))  # noqa: E731
    assert key(a) == key(b) and len(a.y) == 20 and np.bincount(a.y).tolist() == [10, 10]
