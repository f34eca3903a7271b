"""Quality metrics of embeddings: class separation, order, within-class spread,
neighbourhood preservation (:mod:`.embedding`), the co-ranking quality
(:mod:`.coranking`) and the geometry of 2-D embeddings: axis lines, angle versus
radius, cluster separation, distance preservation (:mod:`.embedding_geometry`)."""

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
from .embedding_geometry import (
    angle_radius_knn,
    axis_lines,
    centroid_separation_ratio,
    circular_variance_by_class,
    pairwise_distance_correlation,
    polar_coordinates,
)

__all__ = [
    "adjacent_centres_nearer",
    "angle_radius_knn",
    "axis_lines",
    "centroid_separation_ratio",
    "circular_variance_by_class",
    "continuity",
    "coranking_matrix",
    "coranking_quality",
    "knn_accuracy",
    "neighbourhood_scores",
    "order_correlation",
    "pairwise_distance_correlation",
    "polar_coordinates",
    "projected_centres",
    "trustworthiness",
    "within_class_share",
]
