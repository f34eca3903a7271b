"""Parameters, data and shared rows of "Relevance Learning for Dimensionality Reduction"
(Schulz, Gisbrecht & Hammer, ESANN 2014; the full reference is in ``data/papers.toml``).

The run's settings (:class:`Params`, :func:`params`), the synthetic sets set1, set2 and
set3 and USPS (:func:`load_data`), the data labels of the tables, and the helpers the
steps of the paper's figures and tables share: the t-SNE map of set1, the rows of a
claim and of a number the paper states, the leave-one-out 1-NN accuracy. The steps:
Figs. 1 and 2 in :mod:`.set1`, the NeRV fit's open choices and local optima in
:mod:`.nerv_fits`, Table 1 in :mod:`.table1`, Table 2 in :mod:`.table2`.

The choices the paper leaves open are documented in :mod:`.toy` (maps, ``k``),
:mod:`.usps` (1-NN protocol) and in :class:`Params`.
"""

from dataclasses import dataclass, field

import numpy as np

from compendium.published import source
from compendium.reporting import reproduction_row
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.datasets.synthetic import relevance_set1, relevance_set2, relevance_set3
from dimred.utils.parallel import available_cores, resolve_n_jobs

from .toy import tsne_map
from .usps import loo_error

__all__ = ["PAPER", "Params", "load_data", "params"]

#: Folder of the paper under ``data/published``, ``figures`` and ``notebooks``.
PAPER = "relevance_learning"
#: A relevance counts as "zero" (irrelevant) at most this fraction of the largest one.
ZERO_SHARE = 0.05
#: The readings of "the standard deviation chosen such that the actual number of neighbors
#: is k" (:class:`~dimred.relevance.NeRVRelevance` ``bandwidth``); the first is ours.
BANDWIDTHS = ("perplexity", "kth_neighbor")
#: Data labels of the tables (:mod:`compendium.reporting`).
SET1, TOY, USPS = "synthetic (set1)", "synthetic (set2, set3)", "real (USPS, 9,298 images)"
ADRENAL = "real (Adrenal, never published)"
#: Generator settings of the sensitivity study beside the seeds:
#: ``(name, set2 kwargs, set3 kwargs, seed offset, t-SNE perplexity)``.
VARIANTS = (
    ("t-SNE perplexity 30", (), (), 0, 30.0),
    ("t-SNE perplexity 5", (), (), 0, 5.0),
    ("set2 50 per cluster, spacing 1.5", (("n_per_cluster", 50), ("spacing", 1.5)), (), 0, 10.0),
    ("set2 spacing 3.0, set3 noise 0.25", (("spacing", 3.0),), (("noise", 0.25),), 0, 10.0),
    ("set2 thickness 0.5, set3 noise 1.0", (("thickness", 0.5),), (("noise", 1.0),), 0, 10.0),
    ("set3 150 per class", (), (("n_per_class", 150),), 0, 10.0),
)


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set (tests, ``make figures QUICK=1``).
    seed : int
        Seeds the synthetic sets, every map and the USPS draws (draw ``r``: ``seed + r``).
    n_jobs : int
        Local workers (sensitivity variants, USPS draws; default: every available core).
    gamma, delta : float
        The paper's NeRV weight and penalty (0.5 and 1).
    set1_ks : tuple of int
        ``k`` of Fig. 2 (set1 has 60 points).
    set1_draws : int
        Draws of set1 (seeds ``seed + r``) over which :func:`figure2_draws` decides
        the claims on Fig. 2.
    bandwidths : tuple of str
        Readings of the widths compared on set1 (:data:`BANDWIDTHS`).
    set2_per_cluster : int
        Points per cluster of set2 (:func:`~dimred.datasets.synthetic.relevance_set2`).
    cluster_factors : tuple of (str, float)
        The paper's medium and large neighbourhoods, multiples of the cluster size.
    toy_perplexity : float
        t-SNE's and F-t-SNE's perplexity on the synthetic sets (:mod:`.toy`).
    seed_variants : int
        Further seeds of the chosen generators in :func:`table1_sensitivity`
        (``seed + 1 ..``), beside the run's own.
    variants : tuple
        Other generator settings of :func:`table1_sensitivity` (:data:`VARIANTS`).
    n_starts : int
        Random starting points of :func:`local_optima`.
    usps_per_class, usps_draws : int
        USPS images per digit (the paper: 200) and random draws of them.
    usps_perplexity : float
        t-SNE's and F-t-SNE's perplexity on USPS (scikit-learn's default, 30).
    usps_nerv : tuple of (str, object)
        Further :class:`~dimred.relevance.NeRVRelevance` options on USPS: every pair
        (exact; with ``k`` of 160 or 240 of 2,000 points the candidate pairs are
        nearly all pairs anyway).
    test_size : float
        Test fraction of the leak-free reading.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    gamma: float = 0.5
    delta: float = 1.0
    set1_ks: tuple = tuple(range(2, 58, 2))
    set1_draws: int = 10
    bandwidths: tuple = BANDWIDTHS
    set2_per_cluster: int = 150
    cluster_factors: tuple = (("medium", 0.8), ("large", 1.2))
    toy_perplexity: float = 10.0
    seed_variants: int = 9
    variants: tuple = VARIANTS
    n_starts: int = 5
    usps_per_class: int = 200
    usps_draws: int = 10
    usps_perplexity: float = 30.0
    usps_nerv: tuple = (("neighbors", "all"),)
    test_size: float = 0.5


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full (paper) or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        return Params(
            True,
            seed,
            n_jobs,
            set1_ks=(4, 8, 16, 24, 36),
            set1_draws=2,
            set2_per_cluster=50,
            seed_variants=1,
            variants=VARIANTS[2:3],
            n_starts=2,
            usps_per_class=20,
            usps_draws=1,
            usps_perplexity=15.0,
        )
    return Params(False, seed, n_jobs)


def load_data(p):
    """set1, set2, set3 (seeded by ``p.seed``) and the 9,298-image USPS."""
    return {
        "set1": relevance_set1(random_state=p.seed),
        "set2": relevance_set2(p.set2_per_cluster, random_state=p.seed),
        "set3": relevance_set3(random_state=p.seed),
        "usps": datasets.load_usps(),
    }


def _cluster_size(y):
    return int(np.bincount(y).max())


def _set1_map(data, p):
    """The t-SNE map of set1 that Fig. 2 explains."""
    X, y = data["set1"]
    return tsne_map(X, p.toy_perplexity, p.seed)


def _claim_row(published, claim, holds, reproduced, note=""):
    """The row of one claim: ``match`` when it holds by its ``decided_by`` metric."""
    claims = published["claims"]
    return reproduction_row(
        claims.loc[claim, "artifact"],
        f"{claim}: {claims.loc[claim, 'decided_by']}",
        "holds",
        reproduced,
        "match" if holds else "deviates",
        note=note,
        source=source("claims", claim),
    )


def _stated_row(published, key, ours, note="", kind="setting"):
    """The row of a number the paper states, restated or measured by the run.

    ``kind="setting"``: a setting the run restates (an input, not a result):
    ``setting`` when we use the same, ``deviates`` when we do not. ``kind="data"``: a
    number the paper states about its data, measured on ours (``match`` or ``deviates``).
    """
    value = float(published["settings"].loc[key, "value"])
    same = {"setting": "setting", "data": "match"}[kind]
    return reproduction_row(
        "text",
        f"{kind} {key}",
        value,
        ours,
        same if np.isclose(ours, value) else "deviates",
        note=note,
        source=source("settings", key),
    )


#: Note of the sizes of our generated sets: parameters of our generators, set to the paper's.
GENERATED = "a parameter of our generator, set to the paper's value"


def _nearest_accuracy(Z, y):
    """Leave-one-out 1-NN accuracy of ``y`` in ``Z``."""
    return 1.0 - loo_error(Z, y) / 100.0
