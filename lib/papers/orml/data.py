"""The data and settings of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan,
AAAI 2011): UMIST (Fig. 3), USPS (Table 2) and MovieLens-100k (Table 1), and the
parameters of a run.

:class:`Params` holds every setting of one run (users, training sizes,
repetitions, search grids, UMIST splits), :func:`params` the full (paper) and the
quick set; :func:`load_data` loads the three datasets and :func:`data_artefacts`
sets them beside the paper's (the 11,000-image USPS is not obtainable).
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from compendium.reporting import Artefacts, reproduction_row
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.utils.parallel import available_cores, resolve_n_jobs

from .findings import MOVIELENS, UMIST, USPS
from .methods import C_GRID, CV_FOLDS

__all__ = [
    "PAPER",
    "USPS_REPETITIONS",
    "USPS_SIZES",
    "Params",
    "data_artefacts",
    "load_data",
    "params",
]

#: Folder of the paper under ``data/published`` and ``figures``.
PAPER = "orml"

#: USPS training images per digit, and repetitions.
USPS_SIZES = (10, 20, 50, 100)
USPS_REPETITIONS = 20


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set: 3 users, 2 repetitions per USPS size, small grids.
    seed : int
        Seeds the users, the splits, the folds and ORML/M's start.
    n_jobs : int
        Local workers of the sweeps (default: every available core).
    n_users : int
        MovieLens users (Table 1: 10).
    usps_sizes : tuple of int
        USPS training images per digit (Table 2).
    repetitions : int
        USPS repetitions per size (Table 2: 20).
    c_grid : tuple of float
        Values of ``C`` searched for ORML and ORML/M.
    cv_folds : int
        Folds of the cross-validated searches (the paper's 10).
    singular_neighbours : tuple of int
        ``K`` of the singular-scatter study on UMIST.
    umist_splits : int
        Random training splits of the UMIST task (seeds ``seed .. seed + n - 1``) over
        which Fig. 3's claims and the pseudo-inverse's failure are measured.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    n_users: int = 10
    usps_sizes: tuple = USPS_SIZES
    repetitions: int = USPS_REPETITIONS
    c_grid: tuple = C_GRID
    cv_folds: int = CV_FOLDS
    singular_neighbours: tuple = (2, 3, 5, 7, 10)
    umist_splits: int = 10

    @property
    def search(self):
        """Keyword arguments of :func:`~.methods.tune`."""
        return {"c_grid": self.c_grid, "cv_folds": self.cv_folds}


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full (paper) or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        return Params(True, seed, n_jobs, 3, USPS_SIZES, 2, (1e-2, 1.0, 1e2), 3, (3, 5), 2)
    return Params(False, seed, n_jobs)


def load_data():
    """UMIST, USPS and MovieLens: ``{"umist": Bunch, "usps": Bunch, "movielens": Bunch}``."""
    return {
        "umist": datasets.load_umist(),
        "usps": datasets.load_usps(),
        "movielens": datasets.load_movielens(),
    }


def data_artefacts(data):
    """The data used beside the paper's, and the row of the substituted USPS version."""
    umist, usps, movielens = data["umist"], data["usps"], data["movielens"]
    per_digit = ", ".join(map(str, np.bincount(usps.target)))
    table = pd.DataFrame(
        {
            "paper": [
                "UMIST 112×92 → 56×46, 3 subjects",
                "USPS 11,000 (1,100 per digit)",
                "MovieLens 100k",
            ],
            "ours": [
                f"UMIST {umist.image_shape[0]}×{umist.image_shape[1]}, {len(umist.target)} images",
                f"USPS {len(usps.target):,} ({per_digit} per digit)",
                f"MovieLens {len(movielens.ratings):,} ratings, {movielens.genres.shape[1]} genres",
            ],
        },
        index=pd.Index(["UMIST", "USPS", "MovieLens"], name="dataset"),
    ).assign(data=[UMIST, USPS, MOVIELENS])
    row = reproduction_row(
        "text", "USPS images", 11000, len(usps.target), "not_reproducible", None,
        "the 11,000-image version is not obtainable; the 9,298-image version substitutes",
        data=USPS,
    )  # fmt: skip
    return Artefacts(tables={"data": table}, rows=[row])
