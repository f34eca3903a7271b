"""Data and settings of the Best-View Projection paper (Zine-El-Abidine, Dutagaci,
Rousseau): the real datasets of Table I, the synthetic data of Figs. 2 and 3, and the
parameters of a run.

The real datasets are read from the ORCA holdout-0 files (train ∪ test) and
standardised by default (:func:`load_real`); the synthetic data of Fig. 2
(ordinal Gaussians) and Fig. 3 (ordinal partial swiss rolls) have their own
generator seed (:func:`load_synthetic`). :class:`Params` holds every setting of
one run, the seeds of its draws included (:attr:`Params.draw_seeds`).

Every table and row names its data (:func:`data_label`); what the compendium
states about its own measurements is returned as findings (:mod:`.findings`).
This is the lowest module of the paper: every other one builds on it.
"""

from dataclasses import dataclass, field

import numpy as np
from sklearn.preprocessing import StandardScaler

from compendium.reporting import MIN_DRAWS
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.datasets.synthetic import ordinal_gaussians, ordinal_swiss_rolls
from dimred.utils.parallel import available_cores, resolve_n_jobs

__all__ = [
    "PAPER",
    "REAL_DATASETS",
    "REAL_FIGURES",
    "SYNTHETIC_DATASETS",
    "Params",
    "data_label",
    "load_real",
    "load_real_data",
    "load_synthetic",
    "load_synthetic_data",
    "params",
]

#: Folder of the paper under ``data/published`` and ``figures``.
PAPER = "bvp"

#: The real datasets of Table I, in its row order.
REAL_DATASETS = ("contact-lenses", "pasture", "squash-stored", "newthyroid", "car", "bondrate")


#: The paper's figure of each real dataset (Fig. 5's caption is missing from
#: the text; pasture is the one dataset of Table I left for it).
REAL_FIGURES = {
    "contact-lenses": "fig4",
    "pasture": "fig5",
    "squash-stored": "fig6",
    "newthyroid": "fig7",
    "bondrate": "fig8",
    "car": "fig9",
}

#: The synthetic datasets and their figures.
SYNTHETIC_FIGURES = {"gaussians": "fig2", "swiss_rolls": "fig3"}
SYNTHETIC_DATASETS = tuple(SYNTHETIC_FIGURES)

#: Which data each synthetic dataset is (:func:`data_label`).
SYNTHETIC_DATA = {
    "gaussians": "synthetic (ordinal Gaussians, 5 classes in 3-D)",
    "swiss_rolls": "synthetic (ordinal partial swiss rolls, 4 classes in 3-D)",
}


def data_label(name):
    """Which data a dataset of the paper is: synthetic, or real (an ORCA dataset)."""
    return SYNTHETIC_DATA.get(name, f"real (ORCA {name})")


def _with_data(table, level="dataset"):
    """``table`` with a last column ``data`` naming the data of each row (:func:`data_label`)."""
    names = table.index.get_level_values(level) if level in table.index.names else table[level]
    return table.assign(data=[data_label(name) for name in names])


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set: a fifth of the synthetic points, a small
        t-SNE sweep, two draws, two swiss-roll generator settings and one seed.
    seed : int
        Seeds the synthetic data, t-SNE, MDS and the 5-NN folds of the run
        the figures show; draw ``k`` uses ``seed + k``.
    n_jobs : int
        Local workers of the sweeps (default: every available core).
    perplexities : tuple of float
        t-SNE perplexities swept (the paper's 40 and 30 included).
    n_draws : int
        Draws every random finding is measured over: draws of the synthetic
        data (with t-SNE, MDS and the 5-NN folds) for the perplexity sweep and
        the synthetic claims, draws of the 5-NN folds on the real data.
    sensitivity_seeds : tuple of int
        Seeds of each swiss-roll generator setting.
    sensitivity_stride : int
        Every ``stride``-th setting of :func:`~.sensitivity.swiss_roll_configs` is run.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    perplexities: tuple = (5, 10, 20, 30, 40, 50)
    n_draws: int = MIN_DRAWS
    sensitivity_seeds: tuple = (0, 1, 2)
    sensitivity_stride: int = 1

    @property
    def draw_seeds(self):
        """The seeds of the draws (the first is :attr:`seed`, the run the figures show)."""
        return tuple(self.seed + k for k in range(self.n_draws))


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full (paper) or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        return Params(
            True,
            seed,
            n_jobs,
            perplexities=(30, 40),
            n_draws=2,
            sensitivity_seeds=(0,),
            sensitivity_stride=21,
        )
    return Params(False, seed, n_jobs)


def load_real(name, standardize=True):
    """A real dataset of Table I: features (train ∪ test) and labels 1..K.

    The paper does not say how the features were scaled. They are
    standardised by default: unscaled, one feature dominates every projection
    but LDA's (bondrate's features differ in spread by a factor 10^7, pasture's
    by 10^3) and Algorithm 1 does not converge within MaxIter on them (see
    :func:`~.solvers.solver_agreement`).
    """
    bunch = datasets.load_orca(name)
    X = np.asarray(bunch.data, dtype=float)
    return (StandardScaler().fit_transform(X) if standardize else X), np.asarray(bunch.target)


def load_real_data(standardize=True):
    """Every real dataset of Table I: ``{name: (X, y)}`` (see :func:`load_real`)."""
    return {name: load_real(name, standardize) for name in REAL_DATASETS}


def load_synthetic_data(p):
    """Both synthetic datasets at the size of ``p``: ``{name: (X, y)}``."""
    return {name: load_synthetic(name, p.quick, p.seed) for name in SYNTHETIC_DATASETS}


def load_synthetic(name, quick=False, seed=0):
    """The data of Fig. 2 (``"gaussians"``) or Fig. 3 (``"swiss_rolls"``).

    The paper's sizes (100 and 200 points per class); a fifth of them when
    ``quick``.
    """
    if name == "gaussians":
        return ordinal_gaussians(20 if quick else 100, random_state=seed)
    if name == "swiss_rolls":
        return ordinal_swiss_rolls(40 if quick else 200, random_state=seed)
    raise ValueError(f"unknown synthetic dataset {name!r}; expected one of {SYNTHETIC_DATASETS}.")
