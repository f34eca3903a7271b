"""ORML paper (Liu, Liu & Chan, "Ordinal Regression via Manifold Learning", AAAI 2011):
protocol (:mod:`.protocol`) and figures (:mod:`.plots`).

The notebook ``notebooks/orml.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`data_artefacts`, :func:`c_invariance_artefacts`,
:func:`singular_scatter_artefacts`, :func:`umist_subjects_artefacts`,
:func:`umist_fig3_artefacts`, :func:`umist_splits_artefacts`, :func:`movielens_artefacts`,
:func:`row_order_artefacts`, :func:`usps_artefacts`, :func:`claim_artefacts` and
:func:`finding_artefacts`.
"""

from .protocol import (
    PAPER,
    Params,
    c_invariance_artefacts,
    claim_artefacts,
    data_artefacts,
    finding_artefacts,
    load_data,
    movielens_artefacts,
    params,
    row_order_artefacts,
    singular_scatter_artefacts,
    umist_fig3_artefacts,
    umist_splits_artefacts,
    umist_subjects_artefacts,
    usps_artefacts,
)

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
