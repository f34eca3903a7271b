"""Loaders of the tabular datasets with mixed features (metrical-importance paper):
Statlog Australian, Statlog Heart, Bank Marketing."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from .fetching import fetch
from .registry import Dataset, Registry, load_registry

__all__ = ["load_bank_marketing", "load_statlog_australian", "load_statlog_heart"]


def _as_category(column: pd.Series) -> pd.Series:
    """Categorical dtype with the sorted observed levels (integral floats -> int)."""
    if pd.api.types.is_float_dtype(column) and np.all(np.mod(column.dropna(), 1) == 0):
        column = column.astype(np.int64)
    levels = sorted(column.dropna().unique())
    return column.astype(pd.CategoricalDtype(levels))


def _tabular_bunch(
    frame: pd.DataFrame,
    target: np.ndarray,
    categorical: Sequence[str],
    dataset: Dataset,
    description: str,
) -> Bunch:
    """Assemble the Bunch of a tabular loader (dtypes, mask, minority class)."""
    mask = np.array([name in categorical for name in frame.columns])
    frame = frame.apply(
        lambda col: _as_category(col) if col.name in categorical else col.astype(np.float64)
    )
    target_names, counts = np.unique(target, return_counts=True)
    return Bunch(
        frame=frame,
        target=target,
        target_names=target_names,
        feature_names=list(frame.columns),
        categorical=mask,
        minority_class=target_names[np.argmin(counts)].item(),
        description=description,
        citation=dataset.citation,
        license=dataset.license,
    )


def _read_whitespace(path: Path) -> pd.DataFrame:
    """Read a headerless whitespace-separated table."""
    return pd.read_csv(path, sep=r"\s+", header=None)


AUSTRALIAN_CATEGORICAL = ("A1", "A4", "A5", "A6", "A8", "A9", "A11", "A12")


def load_statlog_australian(*, registry: Registry | None = None) -> Bunch:
    """Statlog Australian Credit Approval (690 records, 14 attributes, classes 0/1).

    Attributes are named ``A1`` .. ``A14`` as in ``australian.doc``. Continuous:
    A2, A3, A7, A10, A13, A14 (float64); categorical: A1, A4, A5, A6, A8, A9,
    A11, A12 (integer codes as ``category`` dtype with the observed levels).

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        ``frame``, ``target`` (0/1), ``target_names``, ``feature_names``,
        ``categorical``, ``minority_class``, ``description``, ``citation``, ``license``.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> import numpy as np  # doctest: +SKIP
    >>> from dimred.datasets import load_statlog_australian  # doctest: +SKIP
    >>> australian = load_statlog_australian()  # doctest: +SKIP
    >>> australian.frame.shape, int(australian.categorical.sum())  # doctest: +SKIP
    ((690, 14), 8)
    >>> np.bincount(australian.target).tolist()  # doctest: +SKIP
    [383, 307]
    """
    registry = registry or load_registry()
    raw = _read_whitespace(fetch("statlog-australian", "australian.dat", registry))
    frame = raw.iloc[:, :14].set_axis([f"A{i}" for i in range(1, 15)], axis=1)
    description = (
        "Statlog Australian Credit Approval (UCI; Quinlan 1987): 690 records, "
        "6 continuous + 8 categorical attributes, classes 0: 383, 1: 307."
    )
    return _tabular_bunch(
        frame,
        raw.iloc[:, 14].to_numpy(),
        AUSTRALIAN_CATEGORICAL,
        registry["statlog-australian"],
        description,
    )


HEART_FEATURES = (
    "age",
    "sex",
    "chest_pain",
    "resting_bp",
    "cholesterol",
    "fasting_blood_sugar",
    "resting_ecg",
    "max_heart_rate",
    "exercise_angina",
    "oldpeak",
    "slope",
    "major_vessels",
    "thal",
)
HEART_CONTINUOUS = ("age", "resting_bp", "cholesterol", "max_heart_rate", "oldpeak")


def load_statlog_heart(*, registry: Registry | None = None) -> Bunch:
    """Statlog Heart (270 records, 13 attributes, class 1 = absence, 2 = presence).

    Feature names are short forms of the ``heart.doc`` attributes. Continuous
    (float64): age, resting_bp, cholesterol, max_heart_rate, oldpeak (doc
    attributes 1, 4, 5, 8, 10). The other 8 are categorical, including
    ``major_vessels`` (doc attribute 12, number of major vessels 0-3): the doc
    calls it "real", but the paper reports 5 continuous and 8 nominal
    attributes, which holds only if this integer count is treated as nominal.

    Parameters
    ----------
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        Same fields as :func:`load_statlog_australian`; ``target`` is 1/2.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred import MetricalImportance  # doctest: +SKIP
    >>> from dimred.datasets import load_statlog_heart  # doctest: +SKIP
    >>> heart = load_statlog_heart()  # doctest: +SKIP
    >>> heart.frame.shape, int(heart.categorical.sum())  # doctest: +SKIP
    ((270, 13), 8)
    >>> selector = MetricalImportance().fit(heart.frame, heart.target)  # doctest: +SKIP
    >>> int(selector.categorical_.sum())  # doctest: +SKIP
    8
    """
    registry = registry or load_registry()
    raw = _read_whitespace(fetch("statlog-heart", "heart.dat", registry))
    frame = raw.iloc[:, :13].set_axis(list(HEART_FEATURES), axis=1)
    categorical = [name for name in HEART_FEATURES if name not in HEART_CONTINUOUS]
    description = (
        "Statlog Heart (UCI): 270 records, 5 continuous + 8 nominal attributes "
        "(major_vessels counted as nominal), classes 1 (absence): 150, 2 (presence): 120."
    )
    target = raw.iloc[:, 13].to_numpy().astype(np.int64)
    return _tabular_bunch(frame, target, categorical, registry["statlog-heart"], description)


BANK_CATEGORICAL = (
    "job",
    "marital",
    "education",
    "default",
    "housing",
    "loan",
    "contact",
    "month",
    "poutcome",
)


def load_bank_marketing(full: bool = False, *, registry: Registry | None = None) -> Bunch:
    """UCI Bank Marketing (Moro et al. 2014), target ``y`` in {"no", "yes"}.

    Parameters
    ----------
    full : bool
        ``False``: ``bank.csv``, the 10 % sample of 4521 records (the paper's
        data); ``True``: ``bank-full.csv``, 45211 records.
    registry : Registry, optional
        Default: :func:`load_registry`.

    Returns
    -------
    sklearn.utils.Bunch
        Same fields as :func:`load_statlog_australian`. 7 numeric features
        (age, balance, day, duration, campaign, pdays, previous; float64) and 9
        categorical ones (job, marital, education, default, housing, loan,
        contact, month, poutcome), where ``"unknown"`` is an ordinary level.

    Examples
    --------
    Not run by the doctests: needs the data set, which it downloads on first use.

    >>> from dimred.datasets import load_bank_marketing  # doctest: +SKIP
    >>> bank = load_bank_marketing()  # doctest: +SKIP
    >>> bank.frame.shape, bank.target_names.tolist()  # doctest: +SKIP
    ((4521, 16), ['no', 'yes'])
    """
    registry = registry or load_registry()
    name = "bank-full.csv" if full else "bank.csv"
    frame = pd.read_csv(fetch("bank-marketing", name, registry), sep=";")
    target = frame.pop("y").to_numpy(dtype=str)
    counts = "no: 39922, yes: 5289" if full else "no: 4000, yes: 521"
    size = "45211 records (full)" if full else "4521 records (10% sample)"
    description = (
        f"Bank Marketing (UCI; Moro et al. 2014), {name}: {size}, "
        f"7 continuous + 9 nominal attributes, target y ({counts})."
    )
    return _tabular_bunch(frame, target, BANK_CATEGORICAL, registry["bank-marketing"], description)
