"""The threshold decision rule of ORML (Eqs. 8-9).

Shared by ORML, ORML/M and the 1-D baselines the ORML paper compares with
(Liu, Liu & Chan, "Ordinal Regression via Manifold Learning", AAAI 2011).
"""

import numpy as np

__all__ = ["TIE_RTOL", "rank_sign", "rank_thresholds", "threshold_predict"]

#: A projection within this fraction of the largest threshold magnitude of a
#: threshold counts as on it (:func:`threshold_predict`).
TIE_RTOL = 1e-10


def rank_sign(z, codes):
    """``-1.0`` when the projection ``z`` decreases with the rank codes (a negative
    covariance), else ``1.0``: the orientation that makes it increase with the rank."""
    return -1.0 if z @ (codes - codes.mean()) < 0 else 1.0


def rank_thresholds(z, codes):
    """The boundaries ``b_r`` of Eq. (9) (and (13)) from a 1-D projection.

    ``b_r`` (``r < k``) is the size-weighted mean of the projected means of
    ranks ``r`` and ``r + 1``, i.e. the mean projection of the two ranks'
    samples; ``b_k`` is the largest training projection.

    Parameters
    ----------
    z : ndarray of shape (n_samples,)
        Projected training data ``w^T x_i``.
    codes : ndarray of shape (n_samples,)
        Rank index ``0 .. k-1`` of each sample.

    Returns
    -------
    ndarray of shape (k,)
    """
    n_ranks = codes.max() + 1
    sums = np.bincount(codes, weights=z, minlength=n_ranks)
    counts = np.bincount(codes, minlength=n_ranks)
    pairs = (sums[:-1] + sums[1:]) / (counts[:-1] + counts[1:])
    return np.append(pairs, z.max())


def threshold_predict(z, thresholds):
    """Rank index by Eq. (8): the first ``r`` with ``w^T x - b_r < 0``.

    Eq. (8) leaves the rank undefined when ``w^T x >= b_k`` (a projection
    beyond every training point); such points get the top rank, the only
    choice that keeps the rule monotone in ``w^T x``.

    Ties: a projection within :data:`TIE_RTOL` times ``max_r |b_r|`` of ``b_r``
    counts as on it (``w^T x - b_r = 0``, not below), so that a test point that
    lies on a threshold in exact arithmetic (on contact-lenses, a projection 0 and
    ``b_2`` = -3e-16 under one BLAS kernel, -2e-16 under another) gets the same rank
    under any kernel.

    Parameters
    ----------
    z : ndarray of shape (n_samples,)
    thresholds : ndarray of shape (k,)
        ``b_1 .. b_k`` from :func:`rank_thresholds`.

    Returns
    -------
    ndarray of shape (n_samples,) of int
        Rank indices ``0 .. k-1``.
    """
    tolerance = TIE_RTOL * np.abs(thresholds).max(initial=0.0)
    below = np.asarray(z)[:, None] - thresholds[None, :] < -tolerance
    return np.where(below.any(axis=1), below.argmax(axis=1), thresholds.size - 1)
