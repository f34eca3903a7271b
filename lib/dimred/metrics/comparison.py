"""Comparing several methods over several datasets: average ranks, the Friedman test and
the Nemenyi critical difference (Demšar 2006).

Demšar, J. (2006), "Statistical comparisons of classifiers over multiple data sets",
JMLR 7, 1-30. With ``k`` methods scored on ``N`` datasets, each dataset ranks the
methods (1 = best, ties sharing the mean of their ranks) and ``R_j`` is method ``j``'s
average rank. Under the null hypothesis that all methods are equivalent, Friedman's
statistic (Sect. 3.2.2)

.. math:: \\chi^2_F = \\frac{12 N}{k (k + 1)} \\Big[ \\sum_j R_j^2 - \\frac{k (k + 1)^2}{4} \\Big]

is ``chi^2`` with ``k - 1`` degrees of freedom, and Iman and Davenport's
``F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F)`` is ``F`` with ``k - 1`` and
``(k - 1)(N - 1)`` degrees of freedom (the less conservative one, which Demšar
recommends). When it is rejected, two methods differ significantly (Nemenyi) when
their average ranks differ by at least the critical difference

.. math:: CD = q_\\alpha \\sqrt{\\frac{k (k + 1)}{6 N}},

``q_alpha`` the studentized range statistic of ``k`` groups and infinite degrees of
freedom divided by ``sqrt(2)`` (Demšar's Table 5a).
"""

from numbers import Integral, Real

import numpy as np
from scipy.stats import chi2, f, rankdata, studentized_range
from sklearn.utils._param_validation import Interval, validate_params

__all__ = ["FriedmanResult", "average_ranks", "friedman_test", "nemenyi_cd", "nemenyi_groups"]


@validate_params(
    {"scores": ["array-like"], "higher_is_better": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def average_ranks(scores, higher_is_better=False):
    """Rank the methods on every dataset and average the ranks.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_methods)
        One score per dataset and method (e.g. the mean MAE over partitions).
    higher_is_better : bool, default=False
        False for errors (MAE, MZE), True for accuracies or correlations.

    Returns
    -------
    ranks : ndarray of shape (n_datasets, n_methods)
        1 = best on that dataset; tied methods share the mean of their ranks.
    mean_ranks : ndarray of shape (n_methods,)

    Examples
    --------
    The MAE of three methods on six datasets: the first is best on all but the third.

    >>> from dimred.metrics import average_ranks
    >>> mae = [[0.30, 0.35, 0.50],
    ...        [0.20, 0.25, 0.40],
    ...        [0.45, 0.40, 0.60],
    ...        [0.10, 0.15, 0.30],
    ...        [0.33, 0.38, 0.52],
    ...        [0.21, 0.22, 0.41]]
    >>> ranks, mean_ranks = average_ranks(mae)
    >>> ranks[:3]
    array([[1., 2., 3.],
           [1., 2., 3.],
           [2., 1., 3.]])
    >>> mean_ranks.round(2)
    array([1.17, 1.83, 3.  ])

    Accuracies are ranked the other way; ties share their mean rank:

    >>> average_ranks([[0.9, 0.8], [0.7, 0.7]], higher_is_better=True)[0]
    array([[1. , 2. ],
           [1.5, 1.5]])
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or min(scores.shape) < 2 or not np.isfinite(scores).all():
        raise ValueError(
            "scores must be a finite (n_datasets, n_methods) array with at least two "
            f"datasets and two methods; got shape {scores.shape}."
        )
    ranks = rankdata(-scores if higher_is_better else scores, axis=1)
    return ranks, ranks.mean(axis=0)


class FriedmanResult:
    """Friedman's test of :func:`friedman_test`.

    Attributes
    ----------
    mean_ranks : ndarray of shape (n_methods,)
    chi2 : float
        Friedman's statistic ``chi^2_F``.
    chi2_pvalue : float
    f : float
        Iman and Davenport's ``F_F``.
    f_pvalue : float
    n_datasets, n_methods : int
    """

    def __init__(self, mean_ranks, n_datasets):
        k, n = len(mean_ranks), n_datasets
        self.mean_ranks, self.n_datasets, self.n_methods = mean_ranks, n, k
        self.chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
        self.chi2_pvalue = float(chi2.sf(self.chi2, k - 1))
        denominator = n * (k - 1) - self.chi2
        self.f = (n - 1) * self.chi2 / denominator if denominator > 0 else np.inf
        self.f_pvalue = float(f.sf(self.f, k - 1, (k - 1) * (n - 1)))

    def __repr__(self):
        return (
            f"FriedmanResult(chi2={self.chi2:.3f}, chi2_pvalue={self.chi2_pvalue:.3g}, "
            f"f={self.f:.3f}, f_pvalue={self.f_pvalue:.3g})"
        )


@validate_params(
    {"scores": ["array-like"], "higher_is_better": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def friedman_test(scores, higher_is_better=False):
    """Friedman's test that all methods perform alike (Demšar 2006, Sect. 3.2.2).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_methods)
    higher_is_better : bool, default=False

    Returns
    -------
    FriedmanResult

    Examples
    --------
    The scores of the example of :func:`average_ranks`: the methods do not perform
    alike.

    >>> from dimred.metrics import friedman_test
    >>> mae = [[0.30, 0.35, 0.50],
    ...        [0.20, 0.25, 0.40],
    ...        [0.45, 0.40, 0.60],
    ...        [0.10, 0.15, 0.30],
    ...        [0.33, 0.38, 0.52],
    ...        [0.21, 0.22, 0.41]]
    >>> friedman_test(mae)
    FriedmanResult(chi2=10.333, chi2_pvalue=0.0057, f=31.000, f_pvalue=5.17e-05)
    >>> friedman_test(mae).f_pvalue < 0.05
    True
    """
    ranks, mean_ranks = average_ranks(scores, higher_is_better)
    return FriedmanResult(mean_ranks, ranks.shape[0])


@validate_params(
    {
        "n_methods": [Interval(Integral, 2, None, closed="left")],
        "n_datasets": [Interval(Integral, 1, None, closed="left")],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def nemenyi_cd(n_methods, n_datasets, alpha=0.05):
    """The Nemenyi critical difference of average ranks (Demšar 2006, Sect. 3.2.2).

    Parameters
    ----------
    n_methods : int
        At least 2.
    n_datasets : int
        At least 1.
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    float
        ``q_alpha sqrt(k (k + 1) / (6 N))``.

    Examples
    --------
    Three methods on six datasets (Demšar's ``q_0.05 = 2.343`` for three methods):

    >>> from dimred.metrics import nemenyi_cd
    >>> round(nemenyi_cd(3, 6), 2)
    1.35
    >>> round(nemenyi_cd(3, 6, alpha=0.1), 2)
    1.18
    """
    q_alpha = studentized_range.ppf(1 - alpha, n_methods, np.inf) / np.sqrt(2)
    return float(q_alpha * np.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets)))


@validate_params(
    {"mean_ranks": ["array-like"], "cd": [Interval(Real, 0, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
def nemenyi_groups(mean_ranks, cd):
    """The maximal groups of methods whose average ranks lie within ``cd`` of each other
    (the bars of a critical-difference diagram).

    Parameters
    ----------
    mean_ranks : array-like of shape (n_methods,)
    cd : float
        The critical difference (:func:`nemenyi_cd`), non-negative.

    Returns
    -------
    list of tuple of int
        Method indices of each group of two or more, in increasing order of ranks; a
        group contained in another is left out.

    Examples
    --------
    The average ranks of the example of :func:`average_ranks`: methods 0 and 2 differ
    significantly, and method 1 from neither.

    >>> from dimred.metrics import nemenyi_cd, nemenyi_groups
    >>> nemenyi_groups([1.17, 1.83, 3.0], nemenyi_cd(3, 6))
    [(0, 1), (1, 2)]
    """
    order = np.argsort(mean_ranks, kind="stable")
    ranks = np.asarray(mean_ranks, dtype=float)[order]
    groups = []
    for start in range(len(ranks)):
        stop = start
        while stop + 1 < len(ranks) and ranks[stop + 1] - ranks[start] < cd:
            stop += 1
        if stop > start and not (groups and stop <= groups[-1][1]):
            groups.append((start, stop))
    return [tuple(int(i) for i in order[a : b + 1]) for a, b in groups]
