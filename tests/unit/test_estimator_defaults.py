"""scikit-learn's estimator checks on every estimator as constructed by default.

The default hyper-parameters (``n_components=2``, ``n_neighbors=10``) exceed what
the checks' small data sets supply (2 features, 2 classes, 10 samples); the
estimators then use what the data allow, with a warning (``n_components_``,
``n_neighbors_``), instead of failing.
"""

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.preprocessing import StandardScaler
from sklearn.utils import shuffle
from sklearn.utils.estimator_checks import parametrize_with_checks
from test_orml import expected_failed_checks as ordinal_exemptions

from dimred import (
    ORML,
    BestViewProjection,
    KernelDiscriminantAnalysis,
    LocalitySensitiveDiscriminantAnalysis,
    MultilinearORML,
    MultilinearRankProjection,
    RankProjection,
)

ORDINAL = (ORML, MultilinearORML, RankProjection, MultilinearRankProjection)
DEFAULTS = [
    BestViewProjection(),
    LocalitySensitiveDiscriminantAnalysis(),
    KernelDiscriminantAnalysis(),
    *(make() for make in ORDINAL),
]


def expected_failed_checks(estimator):
    """Only the ordinal classifiers' two documented exemptions (see tests/unit/test_orml.py)."""
    return ordinal_exemptions(estimator) if isinstance(estimator, ORDINAL) else {}


@pytest.mark.filterwarnings("ignore:.*(n_neighbors|n_components)_ =:UserWarning")
@parametrize_with_checks(DEFAULTS, expected_failed_checks=expected_failed_checks, xfail_strict=True)
def test_default_estimators_pass_sklearn_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("make", ORDINAL)
def test_default_ordinal_estimators_separate_binary_blobs(make):
    # The binary half of check_classifiers_train, which the exemption also skips.
    X, y = make_blobs(n_samples=300, random_state=0)
    X, y = shuffle(X, y, random_state=7)
    X = StandardScaler().fit_transform(X)
    X, y = X[y != 2], y[y != 2]
    assert (make().fit(X, y).predict(X) == y).mean() > 0.83


def test_defaults_on_tiny_data_use_what_the_data_supply():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(8, 2)), np.repeat([0, 1], 4)
    with pytest.warns(UserWarning, match="n_components_ = 1"):
        assert KernelDiscriminantAnalysis().fit(X, y).transform(X).shape == (8, 1)
    assert BestViewProjection().fit(X, y).transform(X).shape == (8, 2)  # a rotation
    for make in ORDINAL:
        with pytest.warns(UserWarning, match="n_neighbors_ = 7"):
            assert make().fit(X, y).n_neighbors_ == 7
