"""The AwA2 dimensionality-reduction survey (Feng, Li & Xu, SJTU CS245 2020): protocol
(:mod:`.protocol`), data (:mod:`.data`), pipelines (:mod:`.pipelines`), cells beside the
paper's (:mod:`.cells`), claims (:mod:`.claims`), numbers of the text (:mod:`.text`) and
figures (:mod:`.plots`).

The notebook ``notebooks/awa2_dr_survey.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, then every step of :mod:`.protocol` from :func:`table1_svc_c` to
:func:`claims_and_text`.
"""

from .protocol import (
    PAPER,
    Params,
    claims_and_text,
    cost,
    load_data,
    params,
    table1_svc_c,
    table4_kernel_pca,
    table5_lda,
    table6_fa,
    table8_tsne_preprocessing,
    table12_mds,
    table13_autoencoder,
    table14_summary,
    tables2_3_variance,
    tables7_9_tsne,
    tables10_11_lle,
)

__all__ = [
    "PAPER",
    "Params",
    "claims_and_text",
    "cost",
    "load_data",
    "params",
    "table1_svc_c",
    "table4_kernel_pca",
    "table5_lda",
    "table6_fa",
    "table8_tsne_preprocessing",
    "table12_mds",
    "table13_autoencoder",
    "table14_summary",
    "tables2_3_variance",
    "tables7_9_tsne",
    "tables10_11_lle",
]
