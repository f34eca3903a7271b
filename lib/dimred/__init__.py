"""dimred: dimensionality-reduction methods of the compendium.

Public estimators, functions and loaders are importable from here directly; the
subpackages hold them by role:

- :mod:`dimred.projection`: supervised linear and kernel projections (BVP, LSDA, KDA);
- :mod:`dimred.ordinal`: ordinal regression (ORML, ORML/M, ranked projection baselines);
- :mod:`dimred.importance`: feature importance (metrical, random forest);
- :mod:`dimred.manifold`: nonlinear embeddings (Fisher t-SNE, classical MDS);
- :mod:`dimred.decomposition`: factor analysis as scikit-learn fits it, its SVD from
  ``X^T X``;
- :mod:`dimred.neural`: an autoencoder (PyTorch; not imported here,
  so that ``import dimred`` does not load torch: ``from dimred.neural import Autoencoder``);
- :mod:`dimred.relevance`: relevance of the features for a given embedding (forward,
  backward, NeRV);
- :mod:`dimred.metrics`: quality of embeddings;
- :mod:`dimred.datasets`: registry, verified fetching, loaders, synthetic sets;
- :mod:`dimred.utils`: shared primitives (labels, graphs, eigenproblems).

The library knows no paper: each paper's protocol lives beside it in the compendium's
``papers`` package and the build tooling in ``compendium``, neither imported from here.
"""

from .datasets import (
    fetch,
    load_awa2,
    load_bank_marketing,
    load_fashion_mnist,
    load_movielens,
    load_orca,
    load_statlog_australian,
    load_statlog_heart,
    load_umist,
    load_usps,
)
from .decomposition import GramFactorAnalysis
from .importance import MetricalImportance, forest_importances
from .manifold import ClassicalMDS, FisherTSNE
from .metrics import coranking_quality
from .ordinal import (
    ORML,
    ConstantRank,
    MultilinearORML,
    MultilinearRankProjection,
    ProjectionRanker,
    RankProjection,
)
from .projection import (
    BestViewProjection,
    KernelDiscriminantAnalysis,
    LocalitySensitiveDiscriminantAnalysis,
)
from .relevance import NeRVRelevance, backward_relevance, forward_relevance

__all__ = [
    "BestViewProjection",
    "ClassicalMDS",
    "ConstantRank",
    "FisherTSNE",
    "GramFactorAnalysis",
    "KernelDiscriminantAnalysis",
    "LocalitySensitiveDiscriminantAnalysis",
    "MetricalImportance",
    "MultilinearORML",
    "NeRVRelevance",
    "MultilinearRankProjection",
    "ORML",
    "ProjectionRanker",
    "RankProjection",
    "backward_relevance",
    "coranking_quality",
    "fetch",
    "forest_importances",
    "forward_relevance",
    "load_awa2",
    "load_bank_marketing",
    "load_fashion_mnist",
    "load_movielens",
    "load_orca",
    "load_statlog_australian",
    "load_statlog_heart",
    "load_umist",
    "load_usps",
]
__version__ = "0.1.0"
