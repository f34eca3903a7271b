"""ORML paper (Liu, Liu & Chan, "Ordinal Regression via Manifold Learning", AAAI 2011):
the protocol, split by table and figure, its draws (:mod:`.draws`), findings
(:mod:`.findings`) and figures (:mod:`.plots`).

* :mod:`.methods`: the methods of Tables 1-2, their searches, the MAE and table rows;
* :mod:`.data`: UMIST, USPS and MovieLens beside the paper's, the run's :class:`Params`;
* :mod:`.umist`: Fig. 3 on UMIST and the singular scatter of ORML's graph;
* :mod:`.movielens`: Table 1 on MovieLens, how ``C`` acts and the row-order check;
* :mod:`.usps`: Table 2 on USPS and the paper's methods against the median rank;
* :mod:`.claims`: the claims of the text and the findings on our runs.

The notebook ``notebooks/orml.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`data_artefacts`, :func:`c_invariance_artefacts`,
:func:`singular_scatter_artefacts`, :func:`umist_subjects_artefacts`,
:func:`umist_fig3_artefacts`, :func:`umist_splits_artefacts`, :func:`movielens_artefacts`,
:func:`row_order_artefacts`, :func:`usps_artefacts`, :func:`claim_artefacts` and
:func:`finding_artefacts`.
"""

from .claims import claim_artefacts, finding_artefacts
from .data import PAPER, Params, data_artefacts, load_data, params
from .movielens import c_invariance_artefacts, movielens_artefacts, row_order_artefacts
from .umist import (
    singular_scatter_artefacts,
    umist_fig3_artefacts,
    umist_splits_artefacts,
    umist_subjects_artefacts,
)
from .usps import usps_artefacts

__all__ = [
    "PAPER",
    "Params",
    "c_invariance_artefacts",
    "claim_artefacts",
    "data_artefacts",
    "finding_artefacts",
    "load_data",
    "movielens_artefacts",
    "params",
    "row_order_artefacts",
    "singular_scatter_artefacts",
    "umist_fig3_artefacts",
    "umist_splits_artefacts",
    "umist_subjects_artefacts",
    "usps_artefacts",
]
