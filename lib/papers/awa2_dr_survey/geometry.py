"""Numbers for the shapes the AwA2 survey reads off its 2-D figures.

The survey (``awa2_dr_survey``) describes its embeddings by eye: LLE "places
most data points on a very small number of axises", thicker with more
neighbours; the autoencoder's 2-D code is radial, its angle carrying the class;
t-SNE on LDA-preprocessed input gives clusters that are "farther" apart and
"tighter". Each function here turns one such judgement into a number:

- :func:`axis_lines`: the lines through the centre on which the points lie,
  the share of points on them and how thick they are;
- :func:`angle_radius_knn` and :func:`circular_variance_by_class`: whether the
  class is carried by the angle or by the radius of a 2-D embedding;
- :func:`centroid_separation_ratio`: distance between class centroids relative
  to the spread around them;
- :func:`pairwise_distance_correlation`: how well the embedding keeps the input's
  pairwise distances.

Polar coordinates are taken about the coordinate-wise median
(:func:`polar_coordinates`), which a few far-out points do not move.
"""

import numbers
from typing import NamedTuple

import numpy as np
from scipy.signal import find_peaks
from scipy.spatial.distance import pdist
from sklearn.utils import check_random_state

from dimred.metrics.embedding import knn_accuracy
from dimred.utils.labels import class_centres

__all__ = [
    "AxisLines",
    "angle_radius_knn",
    "axis_lines",
    "centroid_separation_ratio",
    "circular_variance_by_class",
    "pairwise_distance_correlation",
    "polar_coordinates",
]


class AxisLines(NamedTuple):
    """Result of :func:`axis_lines`."""

    #: Directions of the detected lines in [0, pi), highest histogram peak first.
    angles: np.ndarray
    #: Fraction of the points within ``tol`` times the embedding's range of a line.
    on_line_fraction: float
    #: Median distance of the points to their nearest line over the RMS radius.
    thickness: float


def _check_points(Y, name, n_features=None):
    """``Y`` as a finite float array of shape (n, d), ``d == n_features`` if given."""
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2 or Y.shape[0] == 0 or (n_features is not None and Y.shape[1] != n_features):
        shape = f"(n_samples, {n_features})" if n_features else "(n_samples, n_features)"
        raise ValueError(f"{name}: expected a non-empty array of shape {shape}; got {Y.shape}.")
    if not np.all(np.isfinite(Y)):
        raise ValueError(f"{name}: the array contains NaN or infinite values.")
    return Y


def _check_labels(y, n, name):
    """Class index of each of the ``n`` samples (classes in sorted order)."""
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"{name}: expected {n} labels in a 1-D array; got shape {y.shape}.")
    return np.unique(y, return_inverse=True)[1]


def _check_int(value, name, what, low):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < low:
        raise ValueError(f"{name}: {what} must be an integer >= {low}; got {value!r}.")


def polar_coordinates(Y):
    """Angle and radius of each point of a 2-D embedding about its median.

    The centre is the coordinate-wise median of ``Y``. A point at the centre
    gets angle 0.

    Parameters
    ----------
    Y : array-like of shape (n_samples, 2)
        The embedding.

    Returns
    -------
    angle : ndarray of shape (n_samples,)
        ``atan2`` of the centred coordinates, in (-pi, pi].
    radius : ndarray of shape (n_samples,)
        Euclidean distance to the centre.

    Raises
    ------
    ValueError
        ``Y`` not a finite array of shape (n_samples, 2) with ``n_samples >= 1``.
    """
    Y = _check_points(Y, "polar_coordinates", n_features=2)
    dx, dy = (Y - np.median(Y, axis=0)).T
    angle = np.arctan2(dy, dx)
    return np.where(angle == -np.pi, np.pi, angle), np.hypot(dx, dy)


def axis_lines(Y, max_lines=5, tol=0.02, n_bins=180):
    """Lines through the centre on which a 2-D embedding's points lie (LLE's "axes").

    The angles of the points (:func:`polar_coordinates`; points at the centre
    left out) are taken modulo pi -- a line through the centre covers both
    directions -- and counted in ``n_bins`` equal bins on [0, pi). The peaks of
    this circular histogram are its local maxima with wrap-around (a run of
    equal bins higher than both its neighbours is one peak, at its middle bin,
    rounded down, as :func:`scipy.signal.find_peaks` places it). The
    ``max_lines`` highest peaks, ties to the lower bin index, are the lines; a
    line's direction is its bin's centre.

    Parameters
    ----------
    Y : array-like of shape (n_samples, 2)
        The embedding; not all points equal.
    max_lines : int, default=5
        Most lines to detect.
    tol : float, default=0.02
        A point is on a line when its perpendicular distance to it is at most
        ``tol`` times the embedding's range ``max_j (max_i Y_ij - min_i Y_ij)``.
    n_bins : int, default=180
        Bins of the angle histogram (at least 3); a bin is ``pi / n_bins`` wide.

    Returns
    -------
    AxisLines
        ``angles`` : ndarray of shape (n_lines,), ``n_lines <= max_lines``, the
        line directions in [0, pi), highest peak first (empty when the
        histogram is flat); ``on_line_fraction`` : float, the fraction of points
        on their nearest line; ``thickness`` : float, the median distance of the
        points to their nearest line divided by the RMS radius about the centre
        (``inf`` when no line is found).

    Raises
    ------
    ValueError
        Invalid ``Y`` (see :func:`polar_coordinates`) or all its points equal,
        ``max_lines < 1``, ``n_bins < 3`` or ``tol`` negative or not finite.

    Notes
    -----
    Peaks are not suppressed near a chosen one: a thick or noisy line can give
    several neighbouring peaks and take several of the ``max_lines``. A line
    that misses the median centre by ``d`` has its points' angles shifted by
    about ``d / radius``, in opposite directions on the two sides of the centre.
    """
    _check_int(max_lines, "axis_lines", "max_lines", 1)
    _check_int(n_bins, "axis_lines", "n_bins", 3)
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"axis_lines: tol must be a finite number >= 0; got {tol!r}.")
    theta, radius = polar_coordinates(Y)
    if not radius.any():
        raise ValueError("axis_lines: all points of Y are equal; they lie on no line.")
    width = np.pi / n_bins
    bins = np.floor(np.mod(theta[radius > 0], np.pi) / width).astype(int) % n_bins
    counts = np.bincount(bins, minlength=n_bins)
    peaks, _ = find_peaks(np.tile(counts, 3))  # the middle copy sees both neighbours
    peaks = peaks[(peaks >= n_bins) & (peaks < 2 * n_bins)] - n_bins
    chosen = peaks[np.lexsort((peaks, -counts[peaks]))][:max_lines]
    angles = (chosen + 0.5) * width
    with np.errstate(invalid="ignore"):  # 0 * inf: a point at the centre, no line found
        dist = radius * np.abs(np.sin(theta[:, None] - angles)).min(axis=1, initial=np.inf)
    dist[radius == 0] = 0.0
    span = np.ptp(np.asarray(Y, dtype=float), axis=0).max()
    rms = np.sqrt(np.mean(radius**2))
    return AxisLines(angles, float(np.mean(dist <= tol * span)), float(np.median(dist) / rms))


def angle_radius_knn(Y, y, n_neighbors=5, n_splits=5, random_state=0):
    """Does the angle or the radius of a 2-D embedding carry the class?

    Cross-validated k-NN accuracy (:func:`dimred.metrics.knn_accuracy`:
    stratified folds shuffled with ``random_state``, mean over the folds,
    neighbour ties to the lowest index) on three feature sets built from
    :func:`polar_coordinates`.

    Parameters
    ----------
    Y : array-like of shape (n_samples, 2)
        The embedding.
    y : array-like of shape (n_samples,)
        Class labels.
    n_neighbors : int, default=5
    n_splits : int, default=5
    random_state : int, RandomState instance or None, default=0
        Seeds the shuffling of the folds.

    Returns
    -------
    dict
        ``"both"``: accuracy on the two coordinates; ``"angle"``: on the angle
        alone, as ``(cos theta, sin theta)`` so that it is circular;
        ``"radius"``: on the radius alone (one feature). Floats.

    Raises
    ------
    ValueError
        Invalid ``Y`` (see :func:`polar_coordinates`) or labels not of length ``n_samples``.
    """
    theta, radius = polar_coordinates(Y)
    _check_labels(y, theta.size, "angle_radius_knn")
    features = {
        "both": np.asarray(Y, dtype=float),
        "angle": np.column_stack([np.cos(theta), np.sin(theta)]),
        "radius": radius[:, None],
    }
    return {
        key: knn_accuracy(Z, y, n_neighbors, n_splits, random_state) for key, Z in features.items()
    }


def circular_variance_by_class(Y, y):
    """Median over the classes of the circular variance of their angles.

    The circular variance of a class is ``1 - |mean_i exp(i theta_i)|`` over
    its points, ``theta`` from :func:`polar_coordinates`: 0 when the class lies
    on one ray from the centre, near 1 when its angles are spread uniformly.

    Parameters
    ----------
    Y : array-like of shape (n_samples, 2)
        The embedding.
    y : array-like of shape (n_samples,)
        Class labels.

    Returns
    -------
    float
        In [0, 1].

    Raises
    ------
    ValueError
        Invalid ``Y`` (see :func:`polar_coordinates`) or labels not of length ``n_samples``.
    """
    theta, _ = polar_coordinates(Y)
    codes = _check_labels(y, theta.size, "circular_variance_by_class")
    counts = np.bincount(codes)
    resultant = np.abs(np.bincount(codes, np.cos(theta)) + 1j * np.bincount(codes, np.sin(theta)))
    return float(np.median(1.0 - resultant / counts))


def centroid_separation_ratio(Y, y):
    """Between-class over within-class distance: are the clusters far apart and tight?

    The mean Euclidean distance between two class centroids (over all pairs
    of classes) divided by the mean distance of a point to its own class
    centroid. Invariant to rotation, translation and scaling of ``Y``.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_features)
        The embedding (any dimension).
    y : array-like of shape (n_samples,)
        Class labels, at least 2 classes.

    Returns
    -------
    float
        ``inf`` when every point sits on its centroid and the centroids differ,
        ``nan`` when all points are equal.

    Raises
    ------
    ValueError
        ``Y`` not a finite non-empty 2-D array, labels not of length
        ``n_samples`` or fewer than 2 classes.
    """
    Y = _check_points(Y, "centroid_separation_ratio")
    codes = _check_labels(y, Y.shape[0], "centroid_separation_ratio")
    if codes.max() < 1:
        raise ValueError("centroid_separation_ratio needs at least 2 classes; got 1.")
    _, centres = class_centres(Y, codes)
    between = pdist(centres).mean()
    within = np.linalg.norm(Y - centres[codes], axis=1).mean()
    if within == 0:
        return float("inf") if between > 0 else float("nan")
    return float(between / within)


def pairwise_distance_correlation(X, Y, n_samples=5000, random_state=0):
    """Pearson correlation of the pairwise distances in ``X`` and in ``Y``.

    Not the "distance correlation" of statistics (Szekely et al.): the plain
    correlation between the condensed Euclidean distance matrices
    (:func:`scipy.spatial.distance.pdist`) of the same rows of ``X`` and ``Y``.
    1 for an isometry up to scale (a rotation or a uniform scaling).

    Parameters
    ----------
    X : array-like of shape (n_samples_total, n_features_in)
        The input.
    Y : array-like of shape (n_samples_total, n_features_out)
        Its embedding, row ``i`` the image of ``X``'s row ``i``.
    n_samples : int, default=5000
        Most rows used: with more rows, a random subset of this size (without
        replacement, the same rows of ``X`` and ``Y``), since the number of
        distances grows quadratically.
    random_state : int, RandomState instance or None, default=0
        Seeds the choice of the subset.

    Returns
    -------
    float
        In [-1, 1].

    Raises
    ------
    ValueError
        ``X`` or ``Y`` not finite non-empty 2-D arrays with the same number of
        rows, ``n_samples < 3``, or the distances in ``X`` or in ``Y`` all
        equal (the correlation is undefined).
    """
    name = "pairwise_distance_correlation"
    X, Y = _check_points(X, name), _check_points(Y, name)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"{name}: X and Y have {X.shape[0]} and {Y.shape[0]} rows.")
    _check_int(n_samples, name, "n_samples", 3)
    if X.shape[0] > n_samples:
        rows = np.sort(check_random_state(random_state).choice(X.shape[0], n_samples, False))
        X, Y = X[rows], Y[rows]
    dx, dy = pdist(X), pdist(Y)
    if dx.size == 0 or np.ptp(dx) == 0 or np.ptp(dy) == 0:
        raise ValueError(f"{name}: the pairwise distances of X or of Y are all equal.")
    return float(np.corrcoef(dx, dy)[0, 1])
