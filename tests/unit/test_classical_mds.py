"""Classical MDS through its identity with PCA: the dense reference from distances,
PCA's scores, Gower's out-of-sample formula, the SVD and covariance solvers (their
agreement and the covariance's accuracy loss), and scikit-learn's estimator checks."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist, squareform
from scipy.stats import ortho_group
from sklearn.decomposition import PCA
from sklearn.utils.estimator_checks import parametrize_with_checks

from dimred.manifold import ClassicalMDS
from dimred.manifold.classical_mds import classical_mds_from_distances, gower_out_of_sample
from dimred.utils.linalg import stable_signs


def data(seed=0, n=60, d=6):
    """Anisotropic Gaussian data, well-separated eigenvalues (no sign or order ties)."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * np.geomspace(5.0, 0.5, d) + rng.normal(size=d)


def spectrum_data(seed, condition, n=400, d=8):
    """Data whose centred matrix has the singular values ``100 * geomspace(1, 1 / condition,
    d)`` (returned too), random singular vectors and a random mean."""
    rng = np.random.default_rng(seed)
    left = rng.normal(size=(n, d))
    left, _ = np.linalg.qr(left - left.mean(axis=0))  # orthonormal, orthogonal to 1
    singular = 100 * np.geomspace(1.0, 1.0 / condition, d)
    right = ortho_group.rvs(d, random_state=seed)
    return (left * singular) @ right.T + 10 * rng.normal(size=d), singular


@pytest.mark.parametrize("solver", ["svd", "covariance"])
@pytest.mark.parametrize("k", [1, 2, 4])
def test_agrees_with_the_dense_reference_from_distances(k, solver):
    X = data()
    reference, eigenvalues = classical_mds_from_distances(squareform(pdist(X)), k)
    model = ClassicalMDS(n_components=k, solver=solver)
    embedding = model.fit_transform(X)
    # The reference orients its columns by their largest coordinate; do the same here.
    np.testing.assert_allclose(stable_signs(embedding), reference, rtol=0, atol=1e-8)
    np.testing.assert_allclose(model.eigenvalues_, eigenvalues, rtol=1e-10)
    # The embedding reproduces B = X_c X_c^T in its leading eigendirections.
    centred = X - X.mean(axis=0)
    np.testing.assert_allclose(embedding.T @ embedding, np.diag(eigenvalues), atol=1e-8)
    np.testing.assert_allclose(centred @ centred.T @ embedding, embedding * eigenvalues, atol=1e-7)


@pytest.mark.parametrize("solver", ["svd", "covariance"])
def test_equals_pca_scores_with_the_same_signs(solver):
    X = data(1, 80, 7)
    model = ClassicalMDS(n_components=3, solver=solver)
    embedding = model.fit_transform(X)
    pca = PCA(n_components=3, svd_solver="full").fit(X)
    np.testing.assert_allclose(embedding, pca.transform(X), atol=1e-10)
    np.testing.assert_allclose(model.components_, pca.components_, atol=1e-12)
    np.testing.assert_allclose(model.eigenvalues_, (80 - 1) * pca.explained_variance_, rtol=1e-10)
    rows = np.argmax(np.abs(model.components_), axis=1)
    assert np.all(model.components_[np.arange(3), rows] > 0)  # largest loading positive


def test_auto_picks_the_covariance_for_at_least_twice_as_many_samples_as_features():
    assert ClassicalMDS().fit(data(0, 12, 6)).solver_ == "covariance"
    assert ClassicalMDS().fit(data(0, 11, 6)).solver_ == "svd"
    assert ClassicalMDS(solver="svd").fit(data(0, 60, 6)).solver_ == "svd"
    assert ClassicalMDS(solver="covariance").fit(data(0, 4, 6)).solver_ == "covariance"


@pytest.mark.parametrize("seed", range(3))
def test_solvers_agree_on_well_conditioned_data(seed):
    # Singular values from 100 down to 10 (condition 10, 100 for X_c^T X_c): both solvers
    # are accurate to rounding, so the leading components agree to 1e-12 relative.
    X, singular = spectrum_data(seed, condition=10)
    svd = ClassicalMDS(n_components=4, solver="svd").fit(X)
    covariance = ClassicalMDS(n_components=4, solver="covariance").fit(X)
    np.testing.assert_allclose(covariance.eigenvalues_, svd.eigenvalues_, rtol=1e-12)
    np.testing.assert_allclose(covariance.eigenvalues_, singular[:4] ** 2, rtol=1e-12)
    np.testing.assert_allclose(covariance.components_, svd.components_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(covariance.embedding_, svd.embedding_, rtol=0, atol=1e-12 * 100)
    np.testing.assert_allclose(covariance.mean_, svd.mean_, rtol=0, atol=0)


def test_covariance_loses_the_relative_accuracy_of_small_eigenvalues():
    # Condition s_1 / s_8 = 1e5. The SVD's relative error of s_i^2 is about
    # 2 eps s_1 / s_i (<= 4.4e-11 here), the covariance's about eps (s_1 / s_i)^2
    # (<= 2.2e-6): the trade-off documented in ClassicalMDS's Notes. The leading
    # components stay as accurate as the SVD's.
    errors = {"svd": [], "covariance": []}
    for seed in range(3):
        X, singular = spectrum_data(seed, condition=1e5)
        for solver, error in errors.items():
            model = ClassicalMDS(n_components=8, solver=solver).fit(X)
            error.append(np.abs(model.eigenvalues_ / singular**2 - 1))
            if solver == "covariance":
                svd = ClassicalMDS(n_components=2, solver="svd").fit(X)
                np.testing.assert_allclose(model.components_[:2], svd.components_, atol=1e-12)
    svd, covariance = np.max(errors["svd"], axis=0), np.max(errors["covariance"], axis=0)
    eps = np.finfo(float).eps
    condition = singular[0] / singular
    assert np.all(svd[:2] < 1e-14) and np.all(covariance[:2] < 1e-14)
    assert np.all(svd <= 10 * eps * condition)
    assert np.all(covariance <= 10 * eps * condition**2)
    assert covariance[-1] > 100 * svd[-1]  # measured: about 4e-7 against 1e-12


def test_covariance_drops_components_below_its_rank_threshold():
    # s_8 / s_1 = 1e-7 < sqrt(400 eps) = 3e-7: invisible in X_c^T X_c's rounding, so the
    # covariance solver returns 7 components (with a warning); the SVD keeps all 8.
    X, singular = spectrum_data(0, condition=1e7)
    assert ClassicalMDS(n_components=8, solver="svd").fit(X).n_components_ == 8
    with pytest.warns(UserWarning, match="n_components_ = 7"):
        model = ClassicalMDS(n_components=8, solver="covariance").fit(X)
    np.testing.assert_allclose(model.eigenvalues_, singular[:7] ** 2, rtol=1e-4)


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


@pytest.mark.parametrize("solver", ["svd", "covariance"])
def test_float32_is_preserved_and_close_to_float64(solver):
    X = data(4)
    model = ClassicalMDS(n_components=2, solver=solver).fit(X.astype(np.float32))
    assert model.embedding_.dtype == model.components_.dtype == np.float32
    assert model.eigenvalues_.dtype == np.float32
    np.testing.assert_allclose(model.embedding_, ClassicalMDS().fit_transform(X), atol=1e-3)


@pytest.mark.parametrize("solver", ["svd", "covariance"])
def test_rank_deficient_data_give_the_rank_with_a_warning(solver):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(20, 2)) @ rng.normal(size=(2, 6))  # rank 2
    with pytest.warns(UserWarning, match="n_components_ = 2"):
        model = ClassicalMDS(n_components=4, solver=solver).fit(X)
    assert model.n_components_ == 2 and model.transform(X).shape == (20, 2)
    assert list(model.get_feature_names_out()) == ["classicalmds0", "classicalmds1"]


def test_invalid_input_raises():
    X = data()
    for n_components in (0, -1, 1.5, "2"):  # a bool is an integer, as for PCA
        with pytest.raises(ValueError, match="n_components"):
            ClassicalMDS(n_components=n_components).fit(X)
    for solver in ("svd", "covariance"):
        with pytest.raises(ValueError, match="identical"):
            ClassicalMDS(solver=solver).fit(np.ones((5, 3)))
    for solver in ("eigh", None, "SVD"):
        with pytest.raises(ValueError, match="solver"):
            ClassicalMDS(solver=solver).fit(X)
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
@parametrize_with_checks(
    [
        ClassicalMDS(),
        ClassicalMDS(n_components=1),
        ClassicalMDS(solver="svd"),
        ClassicalMDS(solver="covariance"),
    ],
    xfail_strict=True,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
