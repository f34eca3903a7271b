"""Feature importance: the metrical importance for mixed data and the random-forest
importances it is compared with."""

from .forest import forest_importances
from .metrical import MetricalImportance

__all__ = ["MetricalImportance", "forest_importances"]
