"""Geometry metrics of 2-D embeddings on configurations whose answer is known."""

import itertools

import numpy as np
import pytest

from papers.awa2_dr_survey.geometry import (
    angle_radius_knn,
    axis_lines,
    centroid_separation_ratio,
    circular_variance_by_class,
    pairwise_distance_correlation,
    polar_coordinates,
)

LINE_ANGLES = np.array([0.3, 1.2, 2.5])


def on_lines(angles, n=600, noise=1e-3, seed=0):
    """Points on lines through the origin, centrally symmetric (median at the origin)."""
    rng = np.random.default_rng(seed)
    a = np.asarray(angles)[rng.integers(0, len(angles), n // 2)]
    t = rng.uniform(-1, 1, n // 2)
    half = np.column_stack([t * np.cos(a), t * np.sin(a)])
    return np.vstack([half, -half]) + noise * rng.normal(size=(n, 2))


def rays(n_classes=8, per_class=100, seed=0):
    """Class k on the ray at angle 2 pi k / n_classes, radius uniform in [1, 3]."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    a = 2 * np.pi * y / n_classes + 0.02 * rng.normal(size=y.size)
    r = rng.uniform(1, 3, y.size)
    return np.column_stack([r * np.cos(a), r * np.sin(a)]), y


def rings(n_classes=4, per_class=200, seed=0):
    """Class k on the circle of radius k + 1, angle uniform."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    a = rng.uniform(-np.pi, np.pi, y.size)
    r = 1 + y + 0.05 * rng.normal(size=y.size)
    return np.column_stack([r * np.cos(a), r * np.sin(a)]), y


def axial_gap(a, b):
    """Distance between two line directions (angles modulo pi)."""
    return np.abs(np.mod(np.subtract(a, b) + np.pi / 2, np.pi) - np.pi / 2)


# --- polar coordinates ---------------------------------------------------------------


def test_polar_coordinates_known_values_and_range():
    Y = np.array([[5.0, 2.0], [6.0, 2.0], [5.0, 3.0], [4.0, 2.0], [5.0, 1.0]])  # median (5, 2)
    angle, radius = polar_coordinates(Y)
    np.testing.assert_allclose(angle, [0, 0, np.pi / 2, np.pi, -np.pi / 2])
    np.testing.assert_allclose(radius, [0, 1, 1, 1, 1])
    # atan2(-0.0, -1) is -pi; the half-open range (-pi, pi] maps it to pi
    angle, _ = polar_coordinates(np.array([[-1.0, -0.0], [0.0, 0.0], [1.0, 0.0]]))
    assert angle[0] == np.pi


def test_polar_coordinates_reconstruct_and_translation():
    Y = np.random.default_rng(0).normal(size=(101, 2))
    angle, radius = polar_coordinates(Y)
    assert np.all((angle > -np.pi) & (angle <= np.pi))
    rebuilt = np.median(Y, axis=0) + radius[:, None] * np.column_stack(
        [np.cos(angle), np.sin(angle)]
    )
    np.testing.assert_allclose(rebuilt, Y, atol=1e-12)
    shifted_angle, shifted_radius = polar_coordinates(Y + [100.0, -40.0])
    np.testing.assert_allclose(shifted_angle, angle, atol=1e-9)
    np.testing.assert_allclose(shifted_radius, radius, atol=1e-9)


@pytest.mark.parametrize(
    "Y", [np.zeros((5, 3)), np.zeros(5), np.zeros((0, 2)), np.array([[0.0, np.nan]])]
)
def test_polar_coordinates_rejects_bad_input(Y):
    with pytest.raises(ValueError, match="polar_coordinates"):
        polar_coordinates(Y)


# --- axis lines ----------------------------------------------------------------------


def test_axis_lines_recovers_three_lines():
    Y = on_lines(LINE_ANGLES)
    width = np.pi / 180
    found = axis_lines(Y, max_lines=3)
    assert found.angles.shape == (3,)
    assert np.all((found.angles >= 0) & (found.angles < np.pi))
    gaps = axial_gap(found.angles[:, None], LINE_ANGLES[None])
    assert np.all(gaps.min(axis=0) <= width)  # every true line found within one bin
    assert found.on_line_fraction > 0.99
    assert axis_lines(Y).on_line_fraction > 0.99  # the default max_lines=5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_axis_lines_gaussian_blob_is_not_on_lines(seed):
    Y = np.random.default_rng(seed).normal(size=(1000, 2))
    assert axis_lines(Y).on_line_fraction < 0.6


def test_axis_lines_thickness_grows_with_noise():
    thickness = [axis_lines(on_lines(LINE_ANGLES, noise=s)).thickness for s in (1e-3, 5e-3, 2e-2)]
    assert thickness[0] < thickness[1] < thickness[2]


def test_axis_lines_fraction_and_thickness_brute_force():
    """Perpendicular distances recomputed as |cross(direction, point - centre)|."""
    Y = on_lines(LINE_ANGLES, noise=2e-2, seed=3)
    tol = 0.02
    found = axis_lines(Y, tol=tol)
    centre = np.median(Y, axis=0)
    dist = [
        min(
            abs(np.cos(a) * (p[1] - centre[1]) - np.sin(a) * (p[0] - centre[0]))
            for a in found.angles
        )
        for p in Y
    ]
    span = max(Y[:, 0].max() - Y[:, 0].min(), Y[:, 1].max() - Y[:, 1].min())
    rms = np.sqrt(np.mean(np.sum((Y - centre) ** 2, axis=1)))
    assert found.on_line_fraction == pytest.approx(np.mean(np.array(dist) <= tol * span))
    assert found.thickness == pytest.approx(np.median(dist) / rms)


def test_axis_lines_peak_order_ties_and_wrap_around():
    n_bins = 180
    width = np.pi / n_bins

    def points(bin_index, count):  # centrally symmetric: the median stays at the origin
        a = (bin_index + 0.5) * width
        t = np.arange(1, count // 2 + 1, dtype=float)
        half = np.column_stack([t * np.cos(a), t * np.sin(a)])
        return np.vstack([half, -half])

    Y = np.vstack([points(90, 20), points(30, 20), points(120, 40)])
    found = axis_lines(Y, n_bins=n_bins)  # highest first, the tie to the lower bin
    np.testing.assert_allclose(found.angles, (np.array([120, 30, 90]) + 0.5) * width)
    assert axis_lines(Y, max_lines=1, n_bins=n_bins).angles.size == 1
    # bins 179 and 0 are neighbours: one line near angle 0 whose points straddle the cut
    near_zero = np.vstack([points(0, 20), points(179, 20), points(60, 10)])
    found = axis_lines(near_zero, n_bins=n_bins)
    assert found.angles.size == 2
    assert np.min(axial_gap(found.angles, 0.0)) <= width
    # a lower bin 0 beside a higher bin 179 is no peak
    found = axis_lines(np.vstack([points(0, 10), points(179, 20)]), n_bins=n_bins)
    np.testing.assert_allclose(found.angles, [(179 + 0.5) * width])


def test_axis_lines_invariant_to_scale_and_shift():
    Y = on_lines(LINE_ANGLES, noise=1e-2)
    base, moved = axis_lines(Y), axis_lines(3.0 * Y + [10.0, -5.0])
    np.testing.assert_allclose(moved.angles, base.angles)
    assert moved.on_line_fraction == pytest.approx(base.on_line_fraction)
    assert moved.thickness == pytest.approx(base.thickness)


@pytest.mark.parametrize(
    "kwargs", [{"max_lines": 0}, {"n_bins": 2}, {"tol": -0.1}, {"tol": np.nan}, {"max_lines": 2.5}]
)
def test_axis_lines_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError, match="axis_lines"):
        axis_lines(on_lines(LINE_ANGLES), **kwargs)


def test_axis_lines_rejects_constant_embedding():
    with pytest.raises(ValueError, match="all points of Y are equal"):
        axis_lines(np.ones((10, 2)))


# --- angle versus radius -------------------------------------------------------------


def test_angle_radius_knn_rays_and_rings():
    Y, y = rays()
    scores = angle_radius_knn(Y, y)
    assert set(scores) == {"both", "angle", "radius"}
    assert scores["angle"] > 0.95 and abs(scores["angle"] - scores["both"]) < 0.05
    assert scores["radius"] < 0.3  # chance: 1/8
    Y, y = rings()
    scores = angle_radius_knn(Y, y)
    assert scores["radius"] > 0.95 and abs(scores["radius"] - scores["both"]) < 0.05
    assert scores["angle"] < 0.4  # chance: 1/4


def test_angle_radius_knn_angle_is_circular():
    """Class 0 straddles the cut at +-pi: as a raw angle it would be two far-apart groups."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2, 3], 60)
    a = np.array([np.pi, -np.pi / 2, 0.0, np.pi / 2])[y] + 0.2 * rng.uniform(-1, 1, y.size)
    r = rng.uniform(1, 2, y.size)
    Y = np.column_stack([r * np.cos(a), r * np.sin(a)])
    assert angle_radius_knn(Y, y)["angle"] == 1.0


def test_angle_radius_knn_deterministic_and_validated():
    Y, y = rays(per_class=30)
    assert angle_radius_knn(Y, y, random_state=3) == angle_radius_knn(Y, y, random_state=3)
    with pytest.raises(ValueError, match="angle_radius_knn"):
        angle_radius_knn(Y, y[:-1])


def test_circular_variance_rays_random_and_brute_force():
    Y, y = rays()
    assert circular_variance_by_class(Y, y) < 0.01
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(4), 500)
    a = rng.uniform(-np.pi, np.pi, y.size)
    Y = np.column_stack([np.cos(a), np.sin(a)]) * rng.uniform(1, 2, y.size)[:, None]
    assert circular_variance_by_class(Y, y) > 0.9
    # brute force on unstructured data, labels as strings
    Y, labels = rng.normal(size=(60, 2)), rng.choice(["a", "b", "c"], 60)
    centre = np.median(Y, axis=0)
    per_class = []
    for label in ["a", "b", "c"]:
        d = Y[labels == label] - centre
        per_class.append(1 - abs(np.mean(np.exp(1j * np.arctan2(d[:, 1], d[:, 0])))))
    assert circular_variance_by_class(Y, labels) == pytest.approx(np.median(per_class))
    # a quarter turn about the median shifts all angles equally
    quarter = np.column_stack([-Y[:, 1], Y[:, 0]])
    assert circular_variance_by_class(quarter, labels) == pytest.approx(np.median(per_class))
    with pytest.raises(ValueError, match="circular_variance_by_class"):
        circular_variance_by_class(Y, labels[:, None])


# --- cluster separation --------------------------------------------------------------


def test_centroid_separation_ratio_brute_force():
    rng = np.random.default_rng(0)
    Y, y = rng.normal(size=(50, 3)), rng.integers(0, 4, 50)
    centroids = {k: Y[y == k].mean(axis=0) for k in range(4)}
    between = np.mean(
        [
            np.linalg.norm(centroids[a] - centroids[b])
            for a, b in itertools.combinations(range(4), 2)
        ]
    )
    within = np.mean([np.linalg.norm(Y[i] - centroids[y[i]]) for i in range(50)])
    assert centroid_separation_ratio(Y, y) == pytest.approx(between / within)


def test_centroid_separation_ratio_invariances_and_tightness():
    rng = np.random.default_rng(1)
    Y, y = rng.normal(size=(80, 2)), rng.integers(0, 3, 80)
    base = centroid_separation_ratio(Y, y)
    assert centroid_separation_ratio(7.3 * Y + [4.0, -2.0], y) == pytest.approx(base)
    centroids = np.array([Y[y == k].mean(axis=0) for k in range(3)])[y]
    tighter = centroids + 0.5 * (Y - centroids)  # same centroids, half the spread
    assert centroid_separation_ratio(tighter, y) == pytest.approx(2 * base)
    collapsed = np.array([[0.0, 0.0], [3.0, 4.0], [-1.0, 2.0]])[y]  # every point on its centroid
    assert centroid_separation_ratio(collapsed, y) == np.inf
    assert np.isnan(centroid_separation_ratio(np.ones((80, 2)), y))


def test_centroid_separation_ratio_rejects_bad_input():
    with pytest.raises(ValueError, match="at least 2 classes"):
        centroid_separation_ratio(np.ones((4, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="centroid_separation_ratio"):
        centroid_separation_ratio(np.ones((4, 2)), [0, 1, 0])


# --- distance preservation -----------------------------------------------------------


def test_pairwise_distance_correlation_orthogonal_and_random():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    Q, _ = np.linalg.qr(rng.normal(size=(6, 6)))
    assert pairwise_distance_correlation(X, X @ Q) == pytest.approx(1.0, abs=1e-12)
    assert pairwise_distance_correlation(X, 2.5 * X @ Q + 1.0) == pytest.approx(1.0, abs=1e-12)
    assert abs(pairwise_distance_correlation(X, rng.normal(size=(200, 2)))) < 0.1


def test_pairwise_distance_correlation_brute_force():
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(30, 4)), rng.normal(size=(30, 2))
    pairs = list(itertools.combinations(range(30), 2))
    dx = [np.linalg.norm(X[i] - X[j]) for i, j in pairs]
    dy = [np.linalg.norm(Y[i] - Y[j]) for i, j in pairs]
    expected = np.corrcoef(dx, dy)[0, 1]
    assert pairwise_distance_correlation(X, Y) == pytest.approx(expected)


def test_pairwise_distance_correlation_subsample_uses_same_rows():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 5))
    Q, _ = np.linalg.qr(rng.normal(size=(5, 5)))
    # different rows in X and Y would give a correlation near 0
    assert pairwise_distance_correlation(X, X @ Q, n_samples=50) == pytest.approx(1.0, abs=1e-12)
    Y = X[:, :2] + rng.normal(size=(400, 2))
    first = pairwise_distance_correlation(X, Y, n_samples=50, random_state=5)
    assert first == pairwise_distance_correlation(X, Y, n_samples=50, random_state=5)
    assert first != pairwise_distance_correlation(X, Y, n_samples=50, random_state=6)


def test_pairwise_distance_correlation_rejects_bad_input():
    X = np.random.default_rng(0).normal(size=(10, 3))
    with pytest.raises(ValueError, match="rows"):
        pairwise_distance_correlation(X, X[:-1])
    with pytest.raises(ValueError, match="n_samples"):
        pairwise_distance_correlation(X, X, n_samples=2)
    with pytest.raises(ValueError, match="all equal"):
        pairwise_distance_correlation(X, np.zeros((10, 2)))
