"""Linear latent-variable models: factor analysis as scikit-learn fits it, its
randomized SVD taken in feature space (:mod:`.factor_analysis`)."""

from .factor_analysis import GramFactorAnalysis, randomized_gram_svd

__all__ = ["GramFactorAnalysis", "randomized_gram_svd"]
