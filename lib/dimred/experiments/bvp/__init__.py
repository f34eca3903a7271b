"""Best-View Projection paper (Zine-El-Abidine, Dutagaci, Rousseau, "Dimensionality
reduction for ordinal classification"): protocol (:mod:`.protocol`) and figures
(:mod:`.plots`).

The notebook ``notebooks/bvp.ipynb`` calls, in order: :func:`params`,
:func:`load_synthetic_data`, :func:`load_real_data`, :func:`table1_artefacts`,
:func:`solver_artefacts`, :func:`view_sphere_artefacts`, :func:`tsne_sweeps`,
:func:`sweep_artefacts`, :func:`evaluate_synthetic`, :func:`evaluate_real`,
:func:`method_figures`, :func:`metrics_artefacts`, :func:`claim_artefacts`,
:func:`synthetic_claims_over_seeds`, :func:`fold_draws` and
:func:`sensitivity_artefacts`. ``make bench`` (``benchmarks/bench_bvp.py``) adds the
speed of the spectral solver to ``findings.csv``.
"""

from .protocol import (
    PAPER,
    Params,
    claim_artefacts,
    evaluate_real,
    evaluate_synthetic,
    fold_draws,
    load_real_data,
    load_synthetic_data,
    method_figures,
    metrics_artefacts,
    params,
    sensitivity_artefacts,
    solver_artefacts,
    sweep_artefacts,
    synthetic_claims_over_seeds,
    table1_artefacts,
    tsne_sweeps,
    view_sphere_artefacts,
)

__all__ = [
    "PAPER",
    "Params",
    "claim_artefacts",
    "evaluate_real",
    "evaluate_synthetic",
    "fold_draws",
    "load_real_data",
    "load_synthetic_data",
    "method_figures",
    "metrics_artefacts",
    "params",
    "sensitivity_artefacts",
    "solver_artefacts",
    "sweep_artefacts",
    "synthetic_claims_over_seeds",
    "table1_artefacts",
    "tsne_sweeps",
    "view_sphere_artefacts",
]
