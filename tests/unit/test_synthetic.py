"""Synthetic ordinal datasets: seeded, shaped, and with the properties they are built for."""

import numpy as np
import pytest
from sklearn.decomposition import PCA

from dimred.datasets.synthetic import ordinal_gaussians, ordinal_swiss_rolls
from dimred.metrics.embedding import knn_accuracy, order_correlation


def test_generators_are_seeded_and_shaped():
    for make, size in ((ordinal_gaussians, 500), (ordinal_swiss_rolls, 800)):
        X, y = make(random_state=3)
        X2, y2 = make(random_state=3)
        np.testing.assert_array_equal(X, X2)
        assert X.shape == (size, 3) and set(y) == set(range(1, y.max() + 1))


def test_gaussian_order_is_hidden_from_the_first_principal_axes():
    X, y = ordinal_gaussians(random_state=0)
    centres = np.array([X[y == k].mean(0) for k in range(1, 6)])
    direction = centres[-1] - centres[0]
    direction /= np.linalg.norm(direction)
    pca = PCA(3).fit(X)
    assert abs(pca.components_[2] @ direction) > 0.9  # ordinality on the last axis
    assert order_correlation(X, y) == pytest.approx(1.0)  # yet perfectly ordered in 3-D


def test_swiss_roll_centres_are_ordered_along_the_offset():
    X, y = ordinal_swiss_rolls(n_per_class=4000, random_state=1)
    centres = np.array([X[y == k].mean(0) for k in range(1, 5)])
    steps = np.diff(centres, axis=0)
    np.testing.assert_allclose(steps, np.tile([0.0, 3.0, 3.0], (3, 1)), atol=0.4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_swiss_rolls_have_the_properties_the_paper_states(seed):
    X, y = ordinal_swiss_rolls(random_state=seed)
    centres = np.array([X[y == k].mean(0) for k in range(1, 5)])
    for k, centre in enumerate(centres, start=1):
        distance = np.linalg.norm(X - centre, axis=1)
        nearest_own = distance[y == k].min()
        nearest_adjacent = distance[np.abs(y - k) == 1].min()
        assert nearest_adjacent < nearest_own  # "centers closer to adjacent classes"
    gaussians = ordinal_gaussians(random_state=seed)
    assert knn_accuracy(X, y) > knn_accuracy(*gaussians) + 0.2  # better separated in 3-D
    direction = (centres[-1] - centres[0]) / np.linalg.norm(centres[-1] - centres[0])
    assert abs(PCA(1).fit(X).components_[0] @ direction) < 0.9  # not the principal axis
