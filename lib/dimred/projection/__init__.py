"""Linear and kernel projections supervised by (ordinal) class labels: Best-View
Projection and the discriminant baselines it is compared with (LSDA, KDA)."""

from ._base import LinearProjection, SupervisedProjection
from .bvp import BestViewProjection
from .discriminant import KernelDiscriminantAnalysis, LocalitySensitiveDiscriminantAnalysis

__all__ = [
    "BestViewProjection",
    "KernelDiscriminantAnalysis",
    "LinearProjection",
    "LocalitySensitiveDiscriminantAnalysis",
    "SupervisedProjection",
]
