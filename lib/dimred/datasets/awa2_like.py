"""A seeded synthetic stand-in of AwA2's shape, for scale and cost measurements.

:func:`awa2_like` draws a 37,322 x 2,048 float32 matrix with 50 classes of unequal
sizes, roughly like the ResNet-101 features of Animals with Attributes 2
(:func:`~dimred.datasets.load_awa2`). It is **not** AwA2: its accuracies, spectra
and embeddings say nothing about the real features. It exists so that the time and
memory of the survey's methods can be measured at the real size (and at smaller
sizes, for the growth exponents) without downloading the data.
"""

import numbers

import numpy as np
from scipy.special import ndtri
from sklearn.utils import check_random_state

__all__ = ["AWA2_LIKE_BLOCK_BYTES", "awa2_like", "awa2_like_class_sizes"]

#: Bytes of one float32 block of rows (the unit in which :func:`awa2_like` generates
#: the matrix): the temporaries beyond the output stay within four such blocks.
AWA2_LIKE_BLOCK_BYTES = 4 * 2**20


def awa2_like_class_sizes(n_samples, n_classes, imbalance=16.0, random_state=None):
    """Unequal class sizes summing to ``n_samples``, largest about ``imbalance`` x smallest.

    Class weights are evenly spaced from 1 to ``imbalance`` and assigned to the
    classes in a seeded random order; every class gets one sample, and the other
    ``n_samples - n_classes`` are shared in proportion to the weights (largest
    remainders, ties to the lower label). AwA2's classes hold about 100 to 1,600
    images (a ratio of about 16) and 746 on average; with the defaults of
    :func:`awa2_like` (37,322 samples, 50 classes) these sizes run from about 88
    to 1,405, same ratio and same mean.

    Parameters
    ----------
    n_samples : int
        At least ``n_classes``.
    n_classes : int
    imbalance : float, default=16.0
        At least 1 (1 gives equal sizes, up to one sample).
    random_state : int, RandomState or None

    Returns
    -------
    ndarray of int of shape (n_classes,)
        Size of classes 1..n_classes.
    """
    _check_count(n_samples, "n_samples")
    _check_count(n_classes, "n_classes")
    if n_classes > n_samples:
        raise ValueError(
            f"awa2_like: n_classes={n_classes} exceeds n_samples={n_samples}; every "
            "class needs a sample."
        )
    if not (isinstance(imbalance, numbers.Real) and 1 <= imbalance < np.inf):
        raise ValueError(f"awa2_like: imbalance={imbalance!r} must be a finite number >= 1.")
    rng = check_random_state(random_state)
    weights = 1 + (imbalance - 1) * np.linspace(0.0, 1.0, n_classes)
    weights = weights[rng.permutation(n_classes)]
    share = (n_samples - n_classes) * weights / weights.sum()
    sizes = np.floor(share).astype(np.int64)
    remainder = n_samples - n_classes - sizes.sum()
    sizes[np.argsort(-(share - sizes), kind="stable")[:remainder]] += 1
    return sizes + 1


def awa2_like(
    n_samples=37322,
    n_features=2048,
    n_classes=50,
    n_latent=64,
    class_sep=0.9,
    noise=1.0,
    sparsity=0.5,
    imbalance=16.0,
    random_state=None,
    dtype=np.float32,
):
    """Synthetic features of AwA2's shape that resemble average-pooled ReLU activations.

    Not AwA2 (see the module's docstring): a seeded set of the same shape, made
    for measuring the time and memory of the methods at scale. Like ResNet-101's
    average-pooled features it is non-negative, has many (near-)zero entries,
    features of unequal scales that are positively correlated, and classes of
    unequal sizes lying on a low-dimensional structure. The model, for sample
    ``i`` of class ``y_i``:

    1. latent ``z_i = m_{y_i} + e_i`` in ``R^n_latent``, class means
       ``m_k ~ N(0, class_sep^2 I)`` and within-class ``e_i ~ N(0, I)``;
    2. pre-activation ``a_i = W^T z_i + noise * eps_i``, ``eps_i ~ N(0, I)`` in
       ``R^n_features`` and ``W`` an ``n_latent x n_features`` matrix of absolute
       Gaussian entries, columns of unit norm (a non-negative map: all features
       share the overall activation level, as CNN channels do);
    3. ``x_ij = s_j * max(a_ij - t_j, 0) / sd`` with ``sd = sqrt(1 + class_sep^2
       + noise^2)`` the standard deviation of ``a_ij``, thresholds ``t_j`` set so
       that about a fraction ``sparsity`` of every feature is exactly 0, and
       feature scales ``s_j`` log-normal (median 1, log-sd 0.5).

    Class sizes come from :func:`awa2_like_class_sizes` (evenly spaced between 1
    and ``imbalance``, about 88 to 1,405 at the defaults against AwA2's 100 to
    1,600). Samples are sorted by class, as in AwA2's files; labels are 1..n_classes.

    Separability: ``class_sep`` is the spread of the class means in units of the
    within-class spread, in a latent space of ``n_latent`` dimensions, so the
    classes overlap: no classifier separates them perfectly, and the ReLU and
    the noise lose some of the latent information. The default was chosen so that
    a linear classifier does about as well as on AwA2's features (0.92 with a
    linear SVC, the survey's Table I): linear discriminant analysis (lsqr solver,
    shrinkage 1e-3) fitted on a stratified 60 % of the default set (seed 0)
    classifies 0.924 of the other 40 % (0.65 with ``class_sep=0.5``, 0.88 with
    0.75). Only the scale and this sanity check are meant to match AwA2; the
    separability matters for the cost of methods whose work depends on it
    (support vectors, neighbour searches).

    Cost: the matrix is generated in blocks of rows of
    :data:`AWA2_LIKE_BLOCK_BYTES` (float32), so that the memory beyond the output
    stays within about four such blocks (16 MiB) plus the labels; the full-size set
    (306 MB in float32) takes a few seconds. Values are computed in float32 and
    cast to ``dtype``, so a float64 set equals the float32 one upcast, except the
    latent product ``z W``: BLAS computes it in float64 and it is rounded to float32.
    A float32 product's rounding depended on how many rows BLAS multiplied at once
    under some kernels (OpenBLAS's Haswell ``sgemm`` on an AMD EPYC: 19 % of the
    entries of a small set changed with the block size), a float64 product's only
    by float64 rounding, which rounding to float32 removes but for values within
    about ``1e-16`` of a float32 rounding boundary. So the result does not depend on
    the block size.

    Parameters
    ----------
    n_samples : int, default=37322
    n_features : int, default=2048
    n_classes : int, default=50
        At most ``n_samples``.
    n_latent : int, default=64
        Dimension of the latent space of the class structure.
    class_sep : float, default=0.9
        Standard deviation of the class means in the latent space, in units of
        the within-class standard deviation.
    noise : float, default=1.0
        Standard deviation of the independent per-feature noise, in the same units.
    sparsity : float in (0, 1), default=0.5
        Expected fraction of exactly zero entries.
    imbalance : float, default=16.0
        Ratio of the largest to the smallest class weight (see
        :func:`awa2_like_class_sizes`).
    random_state : int, RandomState or None
    dtype : floating dtype, default=np.float32
        Of ``X`` (AwA2's features are float32).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Non-negative, C-contiguous.
    y : ndarray of int of shape (n_samples,)
        Labels 1..n_classes, sorted.

    Examples
    --------
    A small set of the same kind:

    >>> import numpy as np
    >>> from dimred.datasets import awa2_like
    >>> X, y = awa2_like(n_samples=200, n_features=32, n_classes=5, random_state=0)
    >>> X.shape, X.dtype
    ((200, 32), dtype('float32'))
    >>> bool(X.min() >= 0), np.unique(y).tolist()
    (True, [1, 2, 3, 4, 5])
    """
    _check_count(n_features, "n_features")
    _check_count(n_latent, "n_latent")
    for value, name in ((class_sep, "class_sep"), (noise, "noise")):
        if not (isinstance(value, numbers.Real) and 0 <= value < np.inf):
            raise ValueError(f"awa2_like: {name}={value!r} must be a finite number >= 0.")
    if not (isinstance(sparsity, numbers.Real) and 0 < sparsity < 1):
        raise ValueError(f"awa2_like: sparsity={sparsity!r} must lie in (0, 1).")
    try:
        dtype = np.dtype(dtype)
    except TypeError as error:
        raise ValueError(f"awa2_like: dtype={dtype!r} is not a NumPy dtype.") from error
    if not np.issubdtype(dtype, np.floating):
        raise ValueError(f"awa2_like: dtype={dtype} must be a floating dtype.")
    rng = check_random_state(random_state)
    sizes = awa2_like_class_sizes(n_samples, n_classes, imbalance, rng)
    y = np.repeat(np.arange(1, n_classes + 1), sizes)

    # The model's parameters (small), then two streams for the per-sample draws.
    means = class_sep * rng.standard_normal((n_classes, n_latent))
    W = np.abs(rng.standard_normal((n_latent, n_features)))
    W /= np.linalg.norm(W, axis=0)
    scales = np.exp(0.5 * rng.standard_normal(n_features))
    latent_rng, noise_rng = (np.random.default_rng(seed) for seed in rng.randint(2**31, size=2))
    sd = np.sqrt(1 + class_sep**2 + noise**2)
    centre = (sizes / n_samples) @ means @ W  # mean pre-activation of each feature
    thresholds = centre + ndtri(sparsity) * sd
    means, W = means.astype(np.float32), W.astype(np.float32).astype(np.float64)
    thresholds, gains = thresholds.astype(np.float32), (scales / sd).astype(np.float32)
    noise = np.float32(noise)

    X = np.empty((n_samples, n_features), dtype=dtype)
    block = max(1, AWA2_LIKE_BLOCK_BYTES // (4 * n_features))
    exact = np.empty((min(block, n_samples), n_features))  # z W in float64
    product = np.empty(exact.shape, dtype=np.float32)
    buffer = None if dtype == np.float32 else np.empty_like(product)
    for start in range(0, n_samples, block):
        stop = min(start + block, n_samples)
        rows = stop - start
        z = latent_rng.standard_normal((rows, n_latent), dtype=np.float32)
        z += means[y[start:stop] - 1]
        target = X[start:stop] if buffer is None else buffer[:rows]
        noise_rng.standard_normal(dtype=np.float32, out=target)
        target *= noise
        product[:rows] = np.matmul(z.astype(np.float64), W, out=exact[:rows])
        target += product[:rows]
        target -= thresholds
        np.maximum(target, 0, out=target)
        target *= gains
        if buffer is not None:
            X[start:stop] = target
    return X, y


def _check_count(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"awa2_like: {name}={value!r} must be a positive integer.")
