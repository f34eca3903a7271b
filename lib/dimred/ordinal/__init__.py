"""Ordinal regression: ORML, ORML/M and the 1-D projection baselines ranked by the
threshold rule of Eqs. (8)-(9) of the ORML paper, with the exact dual QP solver, any
projection followed by that rule or by 1-NN (:class:`ProjectionRanker`), and the trivial
rankers every method must beat."""

from .baselines import ConstantRank
from .orml import ORML, MultilinearORML, MultilinearRankProjection, RankProjection
from .ranking import ProjectionRanker

__all__ = [
    "ConstantRank",
    "ORML",
    "MultilinearORML",
    "MultilinearRankProjection",
    "ProjectionRanker",
    "RankProjection",
]
