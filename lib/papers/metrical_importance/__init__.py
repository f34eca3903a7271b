"""Metrical-importance paper (Denisiuk, "Dimensionality reduction in product of metric
spaces"): its protocol, one module per table or figure group, and their helpers.

* :mod:`.data` -- the datasets in the paper's feature numbering, the parameters and the
  five importances of every seed (Section 4);
* :mod:`.orders` -- the discard orders of Tables 1-3 and the importances of Figs. 2, 4,
  6, with Heart's numbering;
* :mod:`.curves` -- the F1 discard curves of Figs. 3, 5, 7 (computed by :mod:`.discard`);
* :mod:`.claims` -- the verbal claims of Section 4;
* :mod:`.scaling` -- Remark 2's Hamming scaling against the exact normalisation;
* :mod:`.findings` (our own findings), :mod:`.plots` (figures), :mod:`.forest` and
  :mod:`.forest_compiled` (the discard curves' forest).

The notebook ``notebooks/metrical_importance.ipynb`` calls, in order:
:func:`params`, :func:`load_data` / :func:`load_numberings`,
:func:`pca_order_readings`, :func:`heart_numbering`, :func:`importances_by_seed`,
:func:`importance_artefacts`, :func:`heart_numbering_check`,
:func:`discard_curves_by_dataset`, :func:`curve_artefacts`, :func:`scaling_comparison`
and :func:`claim_artefacts`. ``make bench`` (``benchmarks/bench_metrical.py``) adds
the speed of the closed form to ``findings.csv``.
"""

from .claims import claim_artefacts
from .curves import curve_artefacts, discard_curves_by_dataset
from .data import PAPER, Params, importances_by_seed, load_data, load_numberings, params
from .orders import (
    heart_numbering,
    heart_numbering_check,
    importance_artefacts,
    pca_order_readings,
)
from .scaling import scaling_comparison

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
