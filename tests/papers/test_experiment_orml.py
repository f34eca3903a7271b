"""The ORML protocol's helpers: the trivial-baseline floor and the per-repetition seeds."""

import numpy as np
import pandas as pd
import pytest

from compendium.published import load_table
from papers.orml.methods import floor_comparison, repetition_seed
from papers.orml.usps import balanced_median_mae, paper_floor


@pytest.mark.parametrize(("n_ranks", "expected"), [(10, 2.5), (3, 2 / 3), (5, 1.2)])
def test_balanced_median_mae_is_the_mean_distance_to_the_lower_median(n_ranks, expected):
    target = np.repeat(np.arange(n_ranks), 7)
    assert balanced_median_mae(target) == pytest.approx(expected)
    brute = min(np.abs(target - c).mean() for c in range(n_ranks))
    assert balanced_median_mae(target) == pytest.approx(brute)


def test_no_method_of_the_papers_table_beats_the_median_at_ten_per_digit():
    floor = paper_floor(load_table("orml", "table2_usps"), 2.5)
    assert floor.loc[10, "paper's methods below it"] == "none"
    assert floor.loc[20, "paper's methods below it"] == "KDLOR, ORML, ORML/M"


def test_floor_comparison_lists_the_methods_below_the_median_rank():
    table = pd.DataFrame(
        {
            "method": ["ORML", "LDA", "median rank", "chance"] * 2,
            "per_class": [10] * 4 + [20] * 4,
            "mean": [2.0, 3.0, 2.5, 3.4, 2.6, 2.4, 2.5, 3.4],
        }
    )
    result = floor_comparison(table, ["per_class"])
    assert result == {(10,): (2.5, ["ORML"]), (20,): (2.5, ["LDA"])}


def test_each_repetition_has_its_own_seed():
    seeds = {repetition_seed(0, 10, r) for r in range(20)}
    assert len(seeds) == 20
    assert repetition_seed(0, 10, 3) == repetition_seed(0, 10, 3)
    assert repetition_seed(1, 10, 3) != repetition_seed(0, 10, 3)
