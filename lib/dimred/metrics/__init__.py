"""Quality metrics of embeddings: class separation, order, within-class spread,
neighbourhood preservation."""

from .embedding import (
    adjacent_centres_nearer,
    continuity,
    knn_accuracy,
    neighbourhood_scores,
    order_correlation,
    projected_centres,
    within_class_share,
)

__all__ = [
    "adjacent_centres_nearer",
    "continuity",
    "knn_accuracy",
    "neighbourhood_scores",
    "order_correlation",
    "projected_centres",
    "within_class_share",
]
