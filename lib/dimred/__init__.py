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
from .ordinal_datasets import load_movielens, load_umist, load_usps
from .orml import ORML, MultilinearORML, MultilinearRankProjection, RankProjection

__all__ = [
    "BestViewProjection",
    "KernelDiscriminantAnalysis",
    "LocalitySensitiveDiscriminantAnalysis",
    "MetricalImportance",
    "MultilinearORML",
    "MultilinearRankProjection",
    "ORML",
    "RankProjection",
    "discard_curves",
    "fetch",
    "forest_importances",
    "load_bank_marketing",
    "load_movielens",
    "load_orca",
    "load_statlog_australian",
    "load_statlog_heart",
    "load_umist",
    "load_usps",
]
__version__ = "0.1.0"
