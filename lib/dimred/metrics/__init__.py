"""Quality metrics of embeddings: class separation, order, within-class spread,
neighbourhood preservation (:mod:`.embedding`) and the co-ranking quality
(:mod:`.coranking`)."""

from .coranking import coranking_matrix, coranking_quality
from .embedding import (
    adjacent_centres_nearer,
    continuity,
    knn_accuracy,
    neighbourhood_scores,
    order_correlation,
    projected_centres,
    trustworthiness,
    within_class_share,
)

__all__ = [
    "adjacent_centres_nearer",
    "continuity",
    "coranking_matrix",
    "coranking_quality",
    "knn_accuracy",
    "neighbourhood_scores",
    "order_correlation",
    "projected_centres",
    "trustworthiness",
    "within_class_share",
]
