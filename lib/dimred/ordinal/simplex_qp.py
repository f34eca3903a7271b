"""Exact solver of the small dual QP shared by ORML and KDLOR.

ORML's dual, Eq. (7) of Liu, Liu & Chan (AAAI 2011), and KDLOR's (Sun et al.
2010) are the same problem

.. math:: \\min_\\alpha \\alpha^T H \\alpha \\quad
          \\text{s.t.} \\quad \\alpha \\ge 0,\\ \\textstyle\\sum_r \\alpha_r = C,

with ``H`` positive semi-definite of size ``k - 1`` (``k`` ranks). Because the
objective is homogeneous of degree two, ``alpha(C) = C alpha(1)``: the problem
is solved on the unit simplex and scaled.
"""

from itertools import combinations

import numpy as np

__all__ = ["kkt_residual", "simplex_qp"]


def _support_solutions(H, supports):
    """Solve the KKT systems of several supports of one size at once.

    For each support ``S`` (a row of ``supports``), ``alpha`` is free on ``S`` and zero
    elsewhere: ``2 H_SS a - mu 1 = 0`` and ``1^T a = 1``. The systems are stacked, so
    that NumPy's condition numbers and LAPACK's solves run once per size; each system
    is solved by the same LAPACK routine as alone, so every solution is the same bit for
    bit. Yields ``(alpha, mu)`` in the order of ``supports``, skipping the systems whose
    condition number exceeds ``1e12`` (singular).
    """
    supports = np.asarray(supports)
    count, size = supports.shape
    systems = np.zeros((count, size + 1, size + 1))
    systems[:, :size, :size] = 2.0 * H[supports[:, :, None], supports[:, None, :]]
    systems[:, :size, size] = -1.0
    systems[:, size, :size] = 1.0
    rhs = np.zeros(size + 1)
    rhs[size] = 1.0
    regular = ~(np.linalg.cond(systems) > 1e12)
    solutions = np.linalg.solve(systems[regular], rhs)
    for support, solution in zip(supports[regular], solutions, strict=True):
        alpha = np.zeros(H.shape[0])
        alpha[support] = solution[:size]
        yield alpha, solution[size]


def kkt_residual(H, alpha, total=1.0):
    """Largest violation of the KKT conditions of the simplex QP at ``alpha``.

    With ``g = 2 H alpha`` and ``mu`` the multiplier of the equality, the
    conditions are primal feasibility (``alpha >= 0``, ``sum alpha = total``),
    stationarity on the support (``g_r = mu`` where ``alpha_r > 0``) and dual
    feasibility off it (``g_r >= mu``). ``mu`` is estimated as ``min g`` over
    the support. Residuals are relative to ``total`` and to ``max |H| total``.

    Parameters
    ----------
    H : ndarray of shape (m, m)
    alpha : ndarray of shape (m,)
    total : float, default=1.0

    Returns
    -------
    float
    """
    alpha = np.asarray(alpha, dtype=float)
    scale = max(np.abs(H).max(), np.finfo(float).tiny) * total
    gradient = 2.0 * H @ alpha / scale
    support = alpha > 1e-9 * total
    mu = gradient[support].min() if support.any() else 0.0
    return max(
        max(0.0, -alpha.min()) / total,
        abs(alpha.sum() - total) / total,
        np.abs(gradient[support] - mu).max(initial=0.0),
        max(0.0, (mu - gradient[~support]).max(initial=0.0)),
    )


def simplex_qp(H, total=1.0, tol=1e-9, *, together=True):
    """Exactly minimise ``alpha^T H alpha`` over ``alpha >= 0``, ``sum(alpha) = total``.

    The solver enumerates supports: for a support ``S`` it solves the KKT
    equations ``2 H_SS alpha_S = mu 1``, ``1^T alpha_S = 1`` and accepts the
    first solution that is feasible (``alpha_S >= 0``) and dual feasible
    (``(2 H alpha)_r >= mu`` off ``S``). These conditions are sufficient for a
    convex problem, so the result is a global minimiser. The full support is
    tried first (the common case of every margin constraint active), then
    supports by increasing size. For a positive semi-definite ``H`` a minimiser
    with the smallest support always has a non-singular KKT system (moving
    along a null direction would shrink the support), so the search cannot
    miss the optimum. The cost is at most ``2^m`` solves of size ``m + 1``
    (511 for the 10 ranks of USPS), exact where an iterative solver is not; the
    supports of one size are solved together (:func:`_support_solutions`).

    Parameters
    ----------
    H : array-like of shape (m, m)
        Symmetric positive semi-definite.
    total : float, default=1.0
        ``C``; the solution scales linearly with it.
    tol : float, default=1e-9
        Tolerance of the feasibility checks, relative to the scale of ``H``.
    together : bool, default=True
        Solve the supports of one size together; ``False`` solves one system at a
        time, the same solution bit for bit (``tests/unit/test_simplex_qp.py``; the
        baseline of ``make bench``).

    Returns
    -------
    ndarray of shape (m,)

    Raises
    ------
    ValueError
        If ``H`` is not square, ``total <= 0``, ``H`` has an eigenvalue below
        ``-tol`` times its largest entry (not positive semi-definite), or no
        support satisfies the KKT conditions numerically.
    """
    H = np.asarray(H, dtype=float)
    if H.ndim != 2 or H.shape[0] != H.shape[1] or H.shape[0] == 0:
        raise ValueError(f"H must be a non-empty square matrix; got shape {H.shape}.")
    if not total > 0:
        raise ValueError(f"total={total!r} must be positive.")
    m = H.shape[0]
    H = (H + H.T) / 2
    H = H / max(np.abs(H).max(), np.finfo(float).tiny)
    # An indefinite H has KKT points that are not minimisers (for H = -I the
    # uniform alpha, the maximiser), and the search below returns the first
    # KKT point it meets: reject it rather than return a wrong answer.
    smallest = np.linalg.eigvalsh(H)[0]
    if smallest < -tol:
        raise ValueError(
            f"H must be positive semi-definite; its smallest eigenvalue is {smallest:.3g} "
            "times its largest entry."
        )
    groups = [[tuple(range(m))]] + [list(combinations(range(m), size)) for size in range(1, m)]
    if not together:
        groups = [[support] for supports in groups for support in supports]
    for supports in groups:
        for alpha, mu in _support_solutions(H, supports):
            if alpha.min() < -tol:
                continue
            if (2.0 * H @ alpha - mu).min() < -tol:
                continue
            alpha = np.clip(alpha, 0.0, None)
            return total * alpha / alpha.sum()
    raise ValueError("no support satisfies the KKT conditions: is H positive semi-definite?")
