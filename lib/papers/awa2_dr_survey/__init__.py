"""Protocol of "Project 1 Report: Dimensionality Reduction" (Feng, Li & Xu, SJTU CS245
2020; the full reference is in ``data/papers.toml``): nine families of reductions of the
AwA2 ResNet-101 features, each followed by an SVC.

The notebook ``notebooks/awa2_dr_survey.ipynb`` calls, in order: :func:`params`,
:func:`load_data` (:mod:`.data`), :func:`data_notice` (AwA2 or the stand-in, said
first), then every step below from :func:`table1_svc_c` to :func:`claims_and_text`.

Steps (each returns :class:`~compendium.reporting.Artefacts`):

* :func:`table1_svc_c` -- the SVC on all features over C (Table I);
* :func:`tables2_3_variance` -- selection by largest and least variance (Tables II, III);
* :func:`table4_kernel_pca` -- PCA and kernel PCA, five kernels (Table IV, Figs. 4, 5);
* :func:`table5_lda` -- LDA (Table V, Figs. 6, 7);
* :func:`table6_fa` -- factor analysis (Table VI, Figs. 8, 9);
* :func:`tables7_9_tsne` -- Barnes-Hut vs exact t-SNE and its dimension (Tables VII, IX);
* :func:`table8_tsne_preprocessing` -- t-SNE of raw, PCA-64 and LDA input, with and
  without the test labels in the LDA (Table VIII, Figs. 10, 12);
* :func:`leak_by_ratio` -- the size of that label leak against the ratio of samples
  to features (:mod:`.leak`);
* :func:`tables10_11_lle` -- LLE, linear and RBF SVC (Tables X, XI, Fig. 13);
* :func:`table12_mds` -- SMACOF and classical MDS (Table XII, Fig. 14);
* :func:`table13_autoencoder` -- the autoencoder (Table XIII, Figs. 11, 15);
* :func:`table14_summary` -- the best configurations (Table XIV);
* :func:`cost` -- the cost of each method at AwA2's size (``make bench``);
* :func:`claims_and_text` -- every verbal claim and every number of the text.

The steps live in :mod:`.linear_steps` (I-VI), :mod:`.embedding_steps` (VII-XIII),
:mod:`.leak`, :mod:`.costs` and :mod:`.summary` (XIV, claims); :func:`table6_fa`,
:func:`table14_summary`, :func:`cost` and :func:`claims_and_text` also take the earlier
steps' artefacts. Without the AwA2 features every step runs on the
Fashion-MNIST stand-in (:mod:`.data`), labelled as such. Open choices:
:mod:`.pipelines` (split, SVC, transductive methods), :class:`Params` (sizes).

Beside the steps: the cells beside the paper's (:mod:`.cells`), the SVC fits and the
whole protocol's cost at AwA2's size (:mod:`.protocol_cost`), the claims (:mod:`.claims`,
their predicates in :mod:`.predicates`), the numbers of the text (:mod:`.text`), our own
findings (:mod:`.findings`), the figures (:mod:`.plots`) and the autoencoder's GPU run
(:mod:`.gpu`).
"""

from .costs import cost
from .data import PAPER, Params, data_notice, load_data, params
from .embedding_steps import (
    table8_tsne_preprocessing,
    table12_mds,
    table13_autoencoder,
    tables7_9_tsne,
    tables10_11_lle,
)
from .leak import leak_by_ratio
from .linear_steps import (
    table1_svc_c,
    table4_kernel_pca,
    table5_lda,
    table6_fa,
    tables2_3_variance,
)
from .summary import claims_and_text, table14_summary

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
