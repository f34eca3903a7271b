"""Average ranks, Friedman's test and the Nemenyi critical difference (Demšar 2006)."""

import numpy as np
import pytest
from scipy.stats import friedmanchisquare

from dimred.metrics.comparison import (
    FriedmanResult,
    average_ranks,
    friedman_test,
    nemenyi_cd,
    nemenyi_groups,
)

#: Demšar (2006), Table 5(a): q_0.05 of the Nemenyi test for k = 2 .. 10 methods.
Q_005 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]


@pytest.mark.parametrize(("k", "q"), list(enumerate(Q_005, start=2)))
def test_critical_difference_uses_demsars_table(k, q):
    n = 14
    assert nemenyi_cd(k, n) == pytest.approx(q * np.sqrt(k * (k + 1) / (6 * n)), abs=2e-3)


def test_demsars_worked_example():
    """Sect. 3.2.3: four methods on 14 datasets, average ranks 3.143, 2.000, 2.893, 1.964:
    chi2_F = 9.28, F_F = 3.69, CD = 1.25 at alpha = 0.05."""
    mean_ranks = np.array([3.143, 2.000, 2.893, 1.964])
    result = FriedmanResult(mean_ranks, 14)
    assert result.chi2 == pytest.approx(9.28, abs=0.01)
    assert result.f == pytest.approx(3.69, abs=0.01)
    assert nemenyi_cd(4, 14) == pytest.approx(1.25, abs=0.01)


def test_friedman_agrees_with_scipy_without_ties():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(12, 5)) + np.arange(5)
    result = friedman_test(scores)
    reference = friedmanchisquare(*scores.T)
    assert result.chi2 == pytest.approx(reference.statistic)
    assert result.chi2_pvalue == pytest.approx(reference.pvalue)


def test_ranks_share_ties_and_follow_the_direction():
    scores = np.array([[0.1, 0.2, 0.2], [0.3, 0.1, 0.2]])
    ranks, mean = average_ranks(scores)
    np.testing.assert_array_equal(ranks, [[1, 2.5, 2.5], [3, 1, 2]])
    _, mean_high = average_ranks(scores, higher_is_better=True)
    np.testing.assert_allclose(mean + mean_high, 4.0)
    with pytest.raises(ValueError, match="two"):
        average_ranks([[0.1, 0.2]])
    with pytest.raises(ValueError, match="finite"):
        average_ranks([[0.1, np.nan], [0.2, 0.3]])


def test_groups_are_the_maximal_runs_within_the_critical_difference():
    mean_ranks = [1.0, 1.5, 3.0, 3.2, 5.0]
    assert nemenyi_groups(mean_ranks, 1.0) == [(0, 1), (2, 3)]
    assert nemenyi_groups(mean_ranks, 2.1) == [(0, 1, 2), (1, 2, 3), (2, 3, 4)]  # 3.2 - 1.0 > 2.1
    assert nemenyi_groups(mean_ranks[::-1], 1.0) == [(4, 3), (2, 1)]
    assert nemenyi_groups(mean_ranks, 0.1) == []
