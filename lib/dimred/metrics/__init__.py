"""Quality metrics of embeddings: class separation, order, within-class spread,
neighbourhood preservation (:mod:`.embedding`), the co-ranking quality and R_NX
(:mod:`.coranking`), the
scores of ordinal predictions (:mod:`.ordinal`) and the comparison of methods over
datasets: ranks, Friedman, Nemenyi (:mod:`.comparison`)."""

from .comparison import average_ranks, friedman_test, nemenyi_cd, nemenyi_groups
from .coranking import coranking_matrix, coranking_quality, rnx_auc, rnx_curve
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
from .ordinal import neg_rank_mae, ordinal_scores

__all__ = [
    "adjacent_centres_nearer",
    "average_ranks",
    "continuity",
    "coranking_matrix",
    "coranking_quality",
    "friedman_test",
    "knn_accuracy",
    "nemenyi_cd",
    "nemenyi_groups",
    "neighbourhood_scores",
    "order_correlation",
    "neg_rank_mae",
    "ordinal_scores",
    "projected_centres",
    "rnx_auc",
    "rnx_curve",
    "trustworthiness",
    "within_class_share",
]
