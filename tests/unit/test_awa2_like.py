"""The synthetic AwA2-shaped set: shape, seeding, ReLU-like values, class sizes,
separability, memory and the time at full size."""

import importlib
import time
import tracemalloc

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import train_test_split

from dimred.datasets import AWA2_SHAPE, awa2_like
from dimred.datasets.awa2_like import awa2_like_class_sizes

#: The module (the attribute ``dimred.datasets.awa2_like`` is the function).
MODULE = importlib.import_module("dimred.datasets.awa2_like")


def small(**kwargs):
    return awa2_like(**{"n_samples": 300, "n_features": 40, "n_classes": 7, **kwargs})


def test_shape_dtype_and_labels():
    X, y = small(random_state=0)
    assert X.shape == (300, 40) and X.dtype == np.float32 and X.flags.c_contiguous
    assert y.shape == (300,) and np.issubdtype(y.dtype, np.integer)
    assert np.array_equal(np.unique(y), np.arange(1, 8))
    assert np.all(np.diff(y) >= 0)  # sorted by class, as AwA2's files
    X64, _ = small(random_state=0, dtype=np.float64)
    assert X64.dtype == np.float64
    np.testing.assert_array_equal(X64, X.astype(np.float64))  # computed in float32


def test_seeded_and_reproducible():
    X1, y1 = small(random_state=3)
    X2, y2 = small(random_state=np.random.RandomState(3))
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = small(random_state=4)
    assert not np.array_equal(X1, X3)


def test_output_does_not_depend_on_the_block_size(monkeypatch):
    X, y = small(random_state=1)
    monkeypatch.setattr(MODULE, "AWA2_LIKE_BLOCK_BYTES", 4 * 40 * 7)  # 7 rows per block
    X7, y7 = small(random_state=1)
    np.testing.assert_array_equal(X, X7)
    np.testing.assert_array_equal(y, y7)
    X64, _ = small(random_state=1, dtype=np.float64)  # through the cast buffer
    np.testing.assert_array_equal(X64, X)


def test_non_negative_and_relu_like():
    X, _ = awa2_like(2000, 256, 10, random_state=0)
    assert np.all(X >= 0) and np.all(np.isfinite(X))
    assert abs((X == 0).mean() - 0.5) < 0.03  # sparsity=0.5
    positive = X[X > 0]
    assert np.mean(positive < 0.1 * positive.max()) > 0.5  # many small values, a long tail
    X, _ = awa2_like(2000, 256, 10, sparsity=0.2, random_state=0)
    assert abs((X == 0).mean() - 0.2) < 0.03


def test_features_are_positively_correlated_on_a_low_dimensional_structure():
    X, _ = awa2_like(1000, 128, 10, n_latent=16, noise=0.1, random_state=0)
    corr = np.corrcoef(X.T)
    assert np.median(corr[np.triu_indices(128, 1)]) > 0.3  # a shared activation level
    spectrum = np.linalg.svd(X - X.mean(axis=0), compute_uv=False) ** 2
    assert spectrum[:16].sum() / spectrum.sum() > 0.8  # 16 latent dimensions (+ ReLU, noise)


def test_class_sizes_are_unequal_like_awa2_and_sum_to_n_samples():
    sizes = awa2_like_class_sizes(*AWA2_SHAPE[:1], 50, random_state=0)
    assert sizes.sum() == AWA2_SHAPE[0] and sizes.size == 50
    assert 80 <= sizes.min() <= 100 and 1350 <= sizes.max() <= 1650  # AwA2: ~100 to ~1,600
    assert 14 <= sizes.max() / sizes.min() <= 17
    assert not np.all(np.diff(sizes) > 0)  # shuffled over the labels
    _, y = small(random_state=2)
    assert np.array_equal(np.bincount(y)[1:], awa2_like_class_sizes(300, 7, random_state=2))
    assert np.all(awa2_like_class_sizes(10, 10) == 1)
    equal = awa2_like_class_sizes(103, 10, imbalance=1.0, random_state=0)
    assert equal.sum() == 103 and set(equal) == {10, 11}


def test_a_linear_classifier_beats_chance_but_is_not_perfect():
    # The class means are spread by class_sep = 0.9 within-class standard deviations in a
    # 64-dimensional latent space: the classes overlap by construction, so no classifier
    # can be perfect, while a linear one is far above chance (0.1 for 10 classes). On
    # this small instance (1,200 training samples, 256 features) LDA classifies 0.86 to
    # 0.90 of the held-out samples (seeds 0-3), and 0.25 to 0.27 with class_sep=0.2.
    X, y = awa2_like(2000, 256, 10, random_state=0)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    model = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=1e-3).fit(X_train, y_train)
    accuracy = model.score(X_test, y_test)
    assert 0.4 < accuracy < 0.99, accuracy
    X, y = awa2_like(2000, 256, 10, class_sep=0.2, random_state=0)  # harder, still above chance
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    harder = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=1e-3).fit(X_train, y_train)
    assert 0.1 < harder.score(X_test, y_test) < accuracy


def test_memory_stays_near_the_output_size():
    shape = (8000, 1024)
    tracemalloc.start()
    try:
        X, _ = awa2_like(*shape, random_state=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert X.nbytes == 8000 * 1024 * 4
    assert peak < 1.5 * X.nbytes, peak / X.nbytes


def test_full_size_shape_dtype_and_time():
    start = time.perf_counter()
    X, y = awa2_like(random_state=0)
    elapsed = time.perf_counter() - start
    assert X.shape == AWA2_SHAPE == (37322, 2048) and X.dtype == np.float32
    assert y.shape == (37322,) and np.unique(y).size == 50
    assert elapsed < 15, elapsed


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"n_samples": 0}, "n_samples"),
        ({"n_samples": 5}, "n_classes=7 exceeds"),
        ({"n_features": 2.0}, "n_features"),
        ({"n_classes": True}, "n_classes"),
        ({"n_latent": -1}, "n_latent"),
        ({"class_sep": -0.1}, "class_sep"),
        ({"noise": np.inf}, "noise"),
        ({"sparsity": 0}, "sparsity"),
        ({"sparsity": 1.0}, "sparsity"),
        ({"imbalance": 0.5}, "imbalance"),
        ({"dtype": np.int32}, "floating"),
        ({"dtype": "no such type"}, "dtype"),
    ],
)
def test_invalid_parameters_raise(params, match):
    with pytest.raises(ValueError, match=match):
        small(**params)
