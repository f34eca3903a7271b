"""Nonlinear embeddings: Fisher t-SNE (:mod:`.fisher_tsne`) on the Fisher metric of a
Parzen classifier (:mod:`.fisher_metric`; its path distances :mod:`.fisher_paths`, their sums
compiled in :mod:`.fisher_compiled`, NumPy's to rounding) and classical MDS
(:mod:`.classical_mds`)."""

from .classical_mds import ClassicalMDS
from .fisher_metric import (
    fisher_information,
    log_posterior_gradient,
    parzen_posterior,
    parzen_width,
)
from .fisher_paths import (
    fisher_distances,
    fisher_neighbors,
    fisher_path_lengths,
    path_fractions,
)
from .fisher_tsne import FisherTSNE

__all__ = [
    "ClassicalMDS",
    "FisherTSNE",
    "fisher_distances",
    "fisher_information",
    "fisher_neighbors",
    "fisher_path_lengths",
    "log_posterior_gradient",
    "parzen_posterior",
    "parzen_width",
    "path_fractions",
]
