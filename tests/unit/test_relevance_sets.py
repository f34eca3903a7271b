"""The toy sets of the relevance-learning paper: seeded, shaped, and with the properties
its Sect. 4 states (checked on the defaults, and on large samples for population claims)."""

import numpy as np
import pytest
from scipy.stats import f_oneway, spearmanr
from sklearn.decomposition import PCA
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from dimred.datasets.synthetic import relevance_set1, relevance_set2, relevance_set3


def nn_accuracy(X, y):
    """5-fold cross-validated 1-NN accuracy (chance: 1/3)."""
    return cross_val_score(KNeighborsClassifier(1), X, y, cv=5).mean()


@pytest.mark.parametrize(
    ("make", "shape"),
    [(relevance_set1, (60, 3)), (relevance_set2, (450, 3)), (relevance_set3, (150, 10))],
)
def test_generators_are_seeded_and_shaped(make, shape):
    X, y = make(random_state=3)
    X2, y2 = make(random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert X.shape == shape
    np.testing.assert_array_equal(np.bincount(y), [0] + [shape[0] // 3] * 3)
    assert not np.array_equal(X, make(random_state=4)[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_set1_clusters_live_in_dimensions_1_and_2(seed):
    X, y = relevance_set1(random_state=seed)
    assert nn_accuracy(X[:, :2], y) > 0.95
    assert nn_accuracy(X[:, [2]], y) < 0.6


def test_set1_third_dimension_carries_no_cluster_information():
    X, y = relevance_set1(n_per_cluster=3000, random_state=0)
    groups = [X[y == c] for c in (1, 2, 3)]
    assert f_oneway(*(g[:, 2] for g in groups)).pvalue > 0.01  # same mean along dim 3
    assert f_oneway(*(g[:, 0] for g in groups)).pvalue < 1e-100
    # isotropic clusters: unit variance along every dimension
    np.testing.assert_allclose([g.var(axis=0) for g in groups], 1.0, atol=0.1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_set2_third_dimension_has_least_variance_but_separates_the_clusters(seed):
    X, y = relevance_set2(random_state=seed)
    variance = X.var(axis=0)
    assert variance.argmin() == 2 and variance[2] < 0.4 * variance[:2].min()
    pca = PCA(2).fit(X)
    assert np.all(np.abs(pca.components_[:, 2]) < 0.1)  # PCA ignores dimension 3
    assert nn_accuracy(X[:, [2]], y) == 1.0
    assert nn_accuracy(X[:, :2], y) < 0.5
    assert nn_accuracy(pca.transform(X), y) < 0.5


def test_set2_clusters_are_stacked_along_dimension_3():
    X, y = relevance_set2(n_per_cluster=5000, random_state=0)
    centres = np.array([X[y == c].mean(axis=0) for c in (1, 2, 3)])
    np.testing.assert_allclose(centres, [[0, 0, -2.0], [0, 0, 0], [0, 0, 2.0]], atol=0.1)


def test_set3_copies_get_noisier_with_the_index():
    X, y = relevance_set3(n_per_class=3000, random_state=0)
    # 1-based dimension j copies dim 1 (column 0) when odd, dim 2 (column 1) when even
    correlation = [np.corrcoef(X[:, j - 1], X[:, (j + 1) % 2])[0, 1] for j in range(3, 11)]
    assert np.all(np.diff(correlation) < 0)
    assert correlation[0] > 0.95 and correlation[-1] < 0.6
    other = [abs(np.corrcoef(X[:, j - 1], X[:, j % 2])[0, 1]) for j in range(3, 11)]
    assert max(other) < 0.1  # a copy of dim 1 is not one of dim 2 (the two are uncorrelated)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_set3_classes_live_in_dimensions_1_and_2(seed):
    X, y = relevance_set3(random_state=seed)
    assert nn_accuracy(X[:, :2], y) > 0.95
    accuracy = [nn_accuracy(X[:, [j]], y) for j in range(10)]
    assert spearmanr(range(2, 10), accuracy[2:]).statistic < -0.7  # noisier copies, less use
