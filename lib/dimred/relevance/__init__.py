"""Relevance of the input features for a given projection (Schulz, Gisbrecht & Hammer,
"Relevance Learning for Dimensionality Reduction", ESANN 2014).

- :func:`forward_relevance`, :func:`backward_relevance`: one feature-selection step
  on the co-ranking quality ``Q_k`` (qualitative rankings);
- :class:`NeRVRelevance`: relevances ``lambda_l^2`` of a diagonal metric learned by
  minimising the smooth NeRV quality plus ``delta sum_l lambda_l^2`` (quantitative,
  and a feature transformation ``X_lambda``).
"""

from .nerv import NeRVRelevance
from .selection import backward_relevance, forward_relevance

__all__ = ["NeRVRelevance", "backward_relevance", "forward_relevance"]
