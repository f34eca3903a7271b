"""The AwA2 dimensionality-reduction survey (Feng, Li & Xu, SJTU CS245 2020): protocol
(:mod:`.protocol`), data (:mod:`.data`), pipelines (:mod:`.pipelines`), cells beside the
paper's (:mod:`.cells`), the label leak (:mod:`.leak`), the cost at AwA2's size
(:mod:`.costs`), the SVC fits of the protocol (:mod:`.workload`), claims (:mod:`.claims`,
their predicates in :mod:`.predicates`), numbers of the text (:mod:`.text`), our own
findings (:mod:`.findings`) and figures (:mod:`.plots`).

The notebook ``notebooks/awa2_dr_survey.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`data_notice` (AwA2 or the stand-in, said first), then every
step of :mod:`.protocol` from :func:`table1_svc_c` to :func:`claims_and_text`.
"""

from .data import data_notice
from .protocol import (
    PAPER,
    Params,
    claims_and_text,
    cost,
    leak_by_ratio,
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
    "data_notice",
    "leak_by_ratio",
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
