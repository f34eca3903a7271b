"""The settings every paper's notebook takes (``quick``, ``seed``, ``n_jobs``) and their
validation.

Each paper's ``params`` is decorated with :func:`validates_run_settings`, so a notebook
parameter of the wrong type or out of range is refused by name before anything runs
(``quick="yes"`` would otherwise read as the quick set, ``seed=1.5`` fail deep inside
the first random draw).
"""

from numbers import Integral

from sklearn.utils._param_validation import Interval, validate_params

__all__ = ["RUN_SETTINGS", "validates_run_settings"]

#: The constraints (scikit-learn's parameter validation) of the settings every paper
#: takes: a seed in ``0 .. 2**31 - 1`` (repetition ``r`` seeds with ``seed + r``, which
#: stays below NumPy's bound ``2**32 - 1``), the workers ``None`` (every available core)
#: or a positive count.
RUN_SETTINGS = {
    "quick": ["boolean"],
    "seed": [Interval(Integral, 0, 2**31 - 1, closed="both")],
    "n_jobs": [Interval(Integral, 1, None, closed="left"), None],
}


def validates_run_settings(**more):
    """Decorator: validate a paper's ``params`` against :data:`RUN_SETTINGS` and ``more``
    (its own settings' constraints).

    Examples
    --------
    >>> from compendium.run_settings import validates_run_settings
    >>> @validates_run_settings()
    ... def params(quick=False, *, seed=0, n_jobs=None):
    ...     return quick, seed
    >>> params(True, seed=3)
    (True, 3)
    >>> try:
    ...     params("yes")
    ... except ValueError as error:
    ...     print(str(error).split(" must")[0])
    The 'quick' parameter of params
    """
    return validate_params(RUN_SETTINGS | more, prefer_skip_nested_validation=True)
