"""The canonical order of the rows: a function of the values only."""

import numpy as np

from dimred.utils.rows import canonical_order


def test_canonical_order_is_the_same_for_every_permutation():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(60, 4)).astype(float)
    y = rng.integers(0, 2, size=60)
    order = canonical_order(X, y)
    rows = np.column_stack([y, X])[order]
    for _ in range(5):
        perm = rng.permutation(60)
        moved = canonical_order(X[perm], y[perm])
        np.testing.assert_array_equal(np.column_stack([y, X])[perm][moved], rows)
    # sorted by the label first, then lexicographically by the features
    assert np.all(np.diff(rows[:, 0]) >= 0)
    same_label = rows[rows[:, 0] == 0, 1:]
    assert [tuple(r) for r in same_label] == sorted(tuple(r) for r in same_label)


def test_canonical_order_ignores_rounding_noise():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(40, 3)).astype(float) * 0.1
    noisy = X + rng.normal(scale=1e-15, size=X.shape)
    np.testing.assert_array_equal(X[canonical_order(noisy)], X[canonical_order(X)])
