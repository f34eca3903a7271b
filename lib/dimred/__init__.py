"""dimred: dimensionality-reduction methods of the compendium.

Public estimators and functions are importable from here directly.
"""

from .bvp import BestViewProjection
from .datasets import (
    fetch,
    load_bank_marketing,
    load_orca,
    load_statlog_australian,
    load_statlog_heart,
)
from .discard import discard_curves
from .discriminant import KernelDiscriminantAnalysis, LocalitySensitiveDiscriminantAnalysis
from .forest_importance import forest_importances
from .metrical import MetricalImportance

__all__ = [
    "BestViewProjection",
    "KernelDiscriminantAnalysis",
    "LocalitySensitiveDiscriminantAnalysis",
    "MetricalImportance",
    "discard_curves",
    "fetch",
    "forest_importances",
    "load_bank_marketing",
    "load_orca",
    "load_statlog_australian",
    "load_statlog_heart",
]
__version__ = "0.1.0"
