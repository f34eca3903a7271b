"""Classical MDS through its identity with PCA: the dense reference from distances,
PCA's scores, Gower's out-of-sample formula, and scikit-learn's estimator checks."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.decomposition import PCA
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred.manifold import ClassicalMDS
from dimred.manifold.classical_mds import classical_mds_from_distances, gower_out_of_sample
from dimred.utils.linalg import stable_signs


def data(seed=0, n=60, d=6):
    """Anisotropic Gaussian data, well-separated eigenvalues (no sign or order ties)."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * np.geomspace(5.0, 0.5, d) + rng.normal(size=d)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_agrees_with_the_dense_reference_from_distances(k):
    X = data()
    reference, eigenvalues = classical_mds_from_distances(squareform(pdist(X)), k)
    model = ClassicalMDS(n_components=k)
    embedding = model.fit_transform(X)
    # The reference orients its columns by their largest coordinate; do the same here.
    np.testing.assert_allclose(stable_signs(embedding), reference, rtol=0, atol=1e-8)
    np.testing.assert_allclose(model.eigenvalues_, eigenvalues, rtol=1e-10)
    # The embedding reproduces B = X_c X_c^T in its leading eigendirections.
    centred = X - X.mean(axis=0)
    np.testing.assert_allclose(embedding.T @ embedding, np.diag(eigenvalues), atol=1e-8)
    np.testing.assert_allclose(centred @ centred.T @ embedding, embedding * eigenvalues, atol=1e-7)


def test_equals_pca_scores_with_the_same_signs():
    X = data(1, 80, 7)
    model = ClassicalMDS(n_components=3)
    embedding = model.fit_transform(X)
    pca = PCA(n_components=3, svd_solver="full").fit(X)
    np.testing.assert_allclose(embedding, pca.transform(X), atol=1e-10)
    np.testing.assert_allclose(model.components_, pca.components_, atol=1e-12)
    np.testing.assert_allclose(model.eigenvalues_, (80 - 1) * pca.explained_variance_, rtol=1e-10)
    rows = np.argmax(np.abs(model.components_), axis=1)
    assert np.all(model.components_[np.arange(3), rows] > 0)  # largest loading positive


def test_transform_of_the_training_data_is_the_training_embedding():
    X = data(2)
    model = ClassicalMDS(n_components=3)
    embedding = model.fit_transform(X)
    np.testing.assert_array_equal(model.transform(X), embedding)
    np.testing.assert_array_equal(model.embedding_, embedding)
    np.testing.assert_array_equal(ClassicalMDS(n_components=3).fit(X).transform(X), embedding)


def test_gowers_formula_on_held_out_points_equals_the_projection():
    X = data(3, 90, 5)
    train, held_out = X[:70], X[70:]
    model = ClassicalMDS(n_components=3).fit(train)
    gower = gower_out_of_sample(
        cdist(held_out, train), squareform(pdist(train)), model.embedding_, model.eigenvalues_
    )
    np.testing.assert_allclose(gower, model.transform(held_out), atol=1e-10)
    # ... and with the dense reference's embedding, only distances are needed.
    reference, eigenvalues = classical_mds_from_distances(squareform(pdist(train)), 3)
    gower = gower_out_of_sample(
        cdist(held_out, train), squareform(pdist(train)), reference, eigenvalues
    )
    signs = np.sign(np.sum(reference * model.embedding_, axis=0))  # the column flips
    np.testing.assert_allclose(gower, model.transform(held_out) * signs, atol=1e-8)


def test_float32_is_preserved_and_close_to_float64():
    X = data(4)
    embedding = ClassicalMDS(n_components=2).fit_transform(X.astype(np.float32))
    assert embedding.dtype == np.float32
    np.testing.assert_allclose(embedding, ClassicalMDS().fit_transform(X), atol=1e-3)


def test_rank_deficient_data_give_the_rank_with_a_warning():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(20, 2)) @ rng.normal(size=(2, 6))  # rank 2
    with pytest.warns(UserWarning, match="n_components_ = 2"):
        model = ClassicalMDS(n_components=4).fit(X)
    assert model.n_components_ == 2 and model.transform(X).shape == (20, 2)
    assert list(model.get_feature_names_out()) == ["classicalmds0", "classicalmds1"]


def test_invalid_input_raises():
    X = data()
    for n_components in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_components"):
            ClassicalMDS(n_components=n_components).fit(X)
    with pytest.raises(ValueError, match="identical"):
        ClassicalMDS().fit(np.ones((5, 3)))
    D = squareform(pdist(X[:5]))
    for bad, match in [
        (D[:4], "square"),
        (D + np.triu(np.ones_like(D), 1), "symmetric"),
        (D + np.eye(5), "zero diagonal"),
        (-D, "non-negative"),
    ]:
        with pytest.raises(ValueError, match=match):
            classical_mds_from_distances(bad, 2)
    for k in (0, 6, 2.0):
        with pytest.raises(ValueError, match="n_components"):
            classical_mds_from_distances(D, k)


def test_non_euclidean_distances_warn():
    D = np.array([[0, 1, 1, 3], [1, 0, 1, 1], [1, 1, 0, 1], [3, 1, 1, 0]], dtype=float)
    with pytest.warns(UserWarning, match="not Euclidean"):
        embedding, eigenvalues = classical_mds_from_distances(D, 4)
    assert eigenvalues[-1] < 0 and np.all(embedding[:, -1] == 0)


@pytest.mark.filterwarnings("ignore:.*n_components_ =:UserWarning")
@parametrize_with_checks([ClassicalMDS(), ClassicalMDS(n_components=1)], xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)
