"""Fig. 1 and Algorithm 1 of the Best-View Projection paper: the view sphere, and what
Algorithm 1 converges to.

:func:`solver_agreement` compares Algorithm 1 (Riemannian descent from random
starts) with the spectral solver of :mod:`dimred.projection.bvp` on one dataset:
the largest principal angle between their subspaces and the objectives
(Eq. (1)) reached. :func:`solver_artefacts` runs it on the synthetic data and on
the standardised and raw real data; :func:`view_sphere_artefacts` draws Fig. 1.
"""

import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles
from tqdm import tqdm

from compendium.reporting import Artefacts

from . import findings, plots
from .data import _with_data

__all__ = ["solver_agreement", "solver_artefacts", "view_sphere_artefacts"]


def solver_agreement(X, y, n_components=2, seeds=(0, 1, 2)):
    """Algorithm 1 against the spectral solver on one dataset.

    Returns
    -------
    dict
        The ratio of the largest to the smallest (non-zero) feature standard
        deviation, the number of random starts of Algorithm 1 (``seeds``), the
        largest principal angle (degrees) between the two subspaces over them,
        the objectives (Eq. (1)) reached, and Algorithm 1's mean iterations.
    """
    from dimred.projection import BestViewProjection

    spectral = BestViewProjection(n_components).fit(X, y)
    runs = [
        BestViewProjection(n_components, solver="riemannian", random_state=s).fit(X, y)
        for s in seeds
    ]
    angles = [
        np.degrees(subspace_angles(spectral.components_.T, r.components_.T)).max() for r in runs
    ]
    spread = np.std(X, axis=0)
    spread = spread[spread > 0]
    return {
        "feature_sd_ratio": float(spread.max() / spread.min()),
        "algorithm1_starts": len(runs),
        "max_angle_deg": float(max(angles)),
        "objective_spectral": spectral.objective_,
        "objective_riemannian": float(min(r.objective_ for r in runs)),
        "iterations_riemannian": float(np.mean([r.n_iter_ for r in runs])),
    }


def solver_artefacts(synthetic, real, raw):
    """Algorithm 1 against the spectral solver on every dataset (:func:`solver_agreement`).

    Parameters
    ----------
    synthetic, real, raw : dict of str to (X, y)
        The synthetic data, the standardised and the raw real data.

    Returns
    -------
    Artefacts
        Table ``solver_agreement``; findings ``spectral_closed_form`` and
        ``raw_features`` (deterministic: fixed random starts of Algorithm 1).
    """
    cases = {(name, "as generated"): data for name, data in synthetic.items()}
    for name in real:
        cases[name, "standardised"] = real[name]
        cases[name, "raw"] = raw[name]
    agreement = {case: solver_agreement(*data) for case, data in tqdm(cases.items(), "solvers")}
    table = pd.DataFrame(agreement).T.rename_axis(["dataset", "features"])
    return Artefacts(
        tables={"solver_agreement": _with_data(table)},
        findings=[findings.closed_form(table), findings.raw_features(table)],
    )


def view_sphere_artefacts(synthetic):
    """Fig. 1: the Gaussian data, its view sphere coloured by F(v) and the best view."""
    return Artefacts(
        figures={"fig1_view_sphere": plots.figure_view_sphere(*synthetic["gaussians"])}
    )
