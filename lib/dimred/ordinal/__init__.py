"""Ordinal regression: ORML, ORML/M and the 1-D projection baselines ranked by the
threshold rule of Eqs. (8)-(9) of the ORML paper, with the exact dual QP solver, and the
trivial rankers every method must beat."""

from .baselines import ConstantRank
from .orml import ORML, MultilinearORML, MultilinearRankProjection, RankProjection

__all__ = ["ConstantRank", "ORML", "MultilinearORML", "MultilinearRankProjection", "RankProjection"]
