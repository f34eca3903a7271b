"""Metrical-importance paper (Denisiuk, "Dimensionality reduction in product of metric
spaces"): protocol (:mod:`.protocol`), discard curves (:mod:`.discard`) and figures
(:mod:`.plots`).

The notebook ``notebooks/metrical_importance.ipynb`` calls, in order:
:func:`params`, :func:`load_data` / :func:`load_numberings`,
:func:`pca_order_readings`, :func:`heart_numbering`, :func:`importances_by_seed`,
:func:`importance_artefacts`, :func:`heart_numbering_check`,
:func:`discard_curves_by_dataset`, :func:`curve_artefacts`, :func:`scaling_comparison`
and :func:`claim_artefacts`. ``make bench`` (``benchmarks/bench_metrical.py``) adds
the speed of the closed form to ``findings.csv``.
"""

from .protocol import (
    PAPER,
    Params,
    claim_artefacts,
    curve_artefacts,
    discard_curves_by_dataset,
    heart_numbering,
    heart_numbering_check,
    importance_artefacts,
    importances_by_seed,
    load_data,
    load_numberings,
    params,
    pca_order_readings,
    scaling_comparison,
)

__all__ = [
    "PAPER",
    "Params",
    "claim_artefacts",
    "curve_artefacts",
    "discard_curves_by_dataset",
    "heart_numbering",
    "heart_numbering_check",
    "importance_artefacts",
    "importances_by_seed",
    "load_data",
    "load_numberings",
    "params",
    "pca_order_readings",
    "scaling_comparison",
]
