"""Rprop with projection onto ``theta >= 0``, the optimiser of NeRV's relevances.

:func:`rprop` follows the signs of the gradient only (Riedmiller & Braun 1993), the
paper's optimiser; :func:`_minimise` runs it in chunks between which the candidate pairs
of :class:`~dimred.relevance.objective.NeRVObjective` are refreshed.
"""

import numpy as np
from tqdm import tqdm

__all__ = ["rprop"]

#: Rprop's factors and step bounds (Riedmiller & Braun 1993).
ETA_PLUS, ETA_MINUS = 1.2, 0.5
STEP_BOUNDS = (1e-6, 50.0)
#: Evaluations between two refreshes of the candidate pairs.
REFRESH_EVERY = 10


def rprop(fun, x0, max_iter=500, tol=1e-4, step=0.1, progress=False):
    """Minimise ``fun`` over ``x >= 0`` by Rprop with weight backtracking.

    Riedmiller & Braun (1993): every coordinate moves by its own step size against
    the sign of its partial derivative; the step grows by :data:`ETA_PLUS` while
    the sign persists and shrinks by :data:`ETA_MINUS` when it flips, in which case
    the previous move is taken back and the derivative treated as 0 at the next
    step. Steps stay within :data:`STEP_BOUNDS`; each move is projected onto
    ``x >= 0`` (the executed move is what a later backtracking reverts).

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (value, gradient)``.
    x0 : ndarray of shape (n,)
    max_iter : int, default=500
        Most evaluations of ``fun``.
    tol : float, default=1e-4
        Stop when no coordinate moved by more than ``tol * max(x)`` (or than the
        smallest step, ``STEP_BOUNDS[0]``, which no finer oscillation can go below).
    step : float or ndarray of shape (n,), default=0.1
        Initial step sizes.
    progress : bool, default=False
        Show a tqdm progress bar.

    Returns
    -------
    x : ndarray of shape (n,)
        The last point evaluated.
    values : ndarray
        ``fun`` at every evaluated point.
    step : ndarray of shape (n,)
        Final step sizes (to resume from).
    converged : bool
    """
    x = np.array(x0, dtype=float)
    step = np.broadcast_to(np.asarray(step, dtype=float), x.shape).copy()
    previous_gradient = np.zeros_like(x)
    previous_move = np.zeros_like(x)
    values = []
    converged = False
    for _ in tqdm(range(max_iter), desc="Rprop", disable=not progress):
        value, gradient = fun(x)
        values.append(value)
        resolution = max(tol * x.max(initial=0.0), STEP_BOUNDS[0])
        converged = len(values) > 1 and np.abs(previous_move).max() <= resolution
        if converged or len(values) == max_iter:
            break
        agree = np.sign(previous_gradient * gradient)
        step = np.where(agree > 0, step * ETA_PLUS, np.where(agree < 0, step * ETA_MINUS, step))
        step = np.clip(step, *STEP_BOUNDS)
        move = np.where(agree < 0, -previous_move, -np.sign(gradient) * step)
        moved = np.maximum(x + move, 0.0)
        previous_move, x = moved - x, moved
        previous_gradient = np.where(agree < 0, 0.0, gradient)
    return x, np.asarray(values), step, converged


def _minimise(objective, theta, max_iter, tol, step, progress):
    """:func:`rprop` in chunks of :data:`REFRESH_EVERY` evaluations, the candidate pairs
    refreshed after each, until a chunk converges and its refresh adds no pair.

    Returns ``theta``, the objective at every evaluation and whether it converged.
    """
    values = []
    with tqdm(total=max_iter, desc="Rprop", disable=not progress) as bar:
        while len(values) < max_iter:
            chunk = min(REFRESH_EVERY, max_iter - len(values))
            theta, new, step, converged = rprop(objective, theta, chunk, tol, step)
            values.extend(new)
            bar.update(new.size)
            if not objective.refresh(theta) and converged:
                return theta, np.asarray(values), True
    return theta, np.asarray(values), False
