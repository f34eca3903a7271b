"""Tests of the AwA2 survey's autoencoder (dimred.neural.Autoencoder)."""

import numpy as np
import pytest
import torch
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks
from torch import nn

from dimred.neural import Autoencoder, learning_rate_schedule
from dimred.neural.autoencoder import resolve_device

SMALL = {"n_components": 2, "hidden_layer_sizes": (8, 4), "max_epochs": 3, "batch_size": 16}


@pytest.fixture(scope="module")
def plane():
    """500 points near a 2-D linear subspace of R^20 (noise s.d. 0.01)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 2)) @ rng.normal(size=(2, 20))
    return X + 0.01 * rng.normal(size=X.shape)


@pytest.fixture(scope="module")
def trained(plane):
    model = Autoencoder(hidden_layer_sizes=(32,), max_epochs=30, batch_size=16, random_state=0)
    return model.fit(plane)


#: scikit-learn's checks that an estimator computing in float32 cannot pass reliably.
FLOAT32_ORDER_CHECKS = {
    "check_methods_sample_order_invariance": (
        "compares transform of shuffled rows at rtol 1e-7, below float32's epsilon "
        "(1.19e-7), on an unseeded permutation: it failed for some permutations. The "
        "property is tested at float32 precision in "
        "test_transform_row_order_to_float32_precision, its bits in "
        "test_transform_bits_do_not_depend_on_row_order"
    ),
}


@parametrize_with_checks(
    [Autoencoder(**SMALL, random_state=0), Autoencoder(**SMALL, solver="sgd", random_state=0)],
    xfail_strict=True,
)
def test_sklearn_compatible(estimator, check):
    if check.func.__name__ in FLOAT32_ORDER_CHECKS:
        pytest.skip(FLOAT32_ORDER_CHECKS[check.func.__name__])
    check(estimator)


def _shuffled_codes(n_permutations=50):
    """Codes of 20 rows (batches of 16) and those of the same rows shuffled, per permutation."""
    X = 3 * np.random.default_rng(0).uniform(size=(20, 3))
    model = Autoencoder(**{**SMALL, "n_components": 1}, random_state=1).fit(X)
    codes = model.transform(X)
    rng = np.random.default_rng(1)
    for _ in range(n_permutations):
        order = rng.permutation(len(X))
        yield codes[order], model.transform(X[order])


def test_transform_row_order_to_float32_precision():
    """A row's code depends on its order only within float32's rounding: 2 ulps at most."""
    for expected, shuffled in _shuffled_codes():
        np.testing.assert_allclose(shuffled, expected, rtol=2 * np.finfo(np.float32).eps)


@pytest.mark.xfail(
    strict=False,  # the bits come from the CPU's kernel: another CPU may keep them
    reason="found, not fixed: the float32 batches of 16 rows give a row other last bits "
    "at another position in its batch (torch's CPU matrix product, on the Intel Xeon of "
    "the ledgers for every permutation tried); in float64 the same weights gave the same "
    "bits for every order tried. Evaluating in float64 changes the codes, so Table XIII "
    "and the cross-paper maps have to be rerun with it.",
)
def test_transform_bits_do_not_depend_on_row_order():
    for expected, shuffled in _shuffled_codes():
        np.testing.assert_array_equal(shuffled, expected)


def test_learning_rate_schedule_is_the_authors_logspace():
    np.testing.assert_array_equal(learning_rate_schedule(1e-3, 1e-4, 200), np.logspace(-3, -4, 200))
    np.testing.assert_array_equal(learning_rate_schedule(1e-3, 1e-4, 1), [1e-3])


@pytest.mark.parametrize("solver", ["adam", "sgd"])
def test_optimiser_uses_the_schedule(solver):
    X = np.random.default_rng(1).normal(size=(40, 5))
    model = Autoencoder(**{**SMALL, "max_epochs": 7}, solver=solver, random_state=0).fit(X)
    np.testing.assert_allclose(model.learning_rates_, np.logspace(-3, -4, 7), rtol=1e-12)
    assert model.n_epochs_ == len(model.loss_curve_) == 7


def test_paper_architecture():
    X = np.random.default_rng(2).normal(size=(4, 2048)).astype(np.float32)
    model = Autoencoder(n_components=16, max_epochs=1, random_state=0).fit(X)
    for module, sizes in [
        (model.encoder_, [2048, 1024, 512, 512, 16]),
        (model.decoder_, [16, 512, 512, 1024, 2048]),
    ]:
        assert [type(layer) for layer in module] == [nn.Linear, nn.ReLU] * 3 + [nn.Linear]
        linear = module[::2]
        assert [layer.in_features for layer in linear] + [linear[-1].out_features] == sizes


def test_same_seed_same_model_and_torch_state_untouched(plane):
    rng_state, threads = torch.get_rng_state(), torch.get_num_threads()
    first, second, other = (
        Autoencoder(**SMALL, random_state=seed).fit(plane) for seed in (0, 0, 1)
    )
    assert torch.equal(torch.get_rng_state(), rng_state) and torch.get_num_threads() == threads
    np.testing.assert_array_equal(first.transform(plane), second.transform(plane))
    assert first.loss_curve_ == second.loss_curve_
    assert not np.allclose(first.transform(plane), other.transform(plane))
    assert first.loss_curve_ != other.loss_curve_


def test_reconstructs_a_plane(plane, trained):
    variance = plane.var(axis=0).mean()
    mse = np.mean((plane - trained.inverse_transform(trained.transform(plane))) ** 2)
    assert mse < 0.1 * variance
    assert trained.score(plane) == pytest.approx(-mse)
    assert trained.loss_curve_[-1] < 0.1 * trained.loss_curve_[0]


def test_code_is_linear(plane, trained):
    # A ReLU on the code would make every code non-negative.
    codes = trained.transform(plane)
    assert codes.dtype == np.float64 and codes.shape == (500, 2)
    assert (codes < 0).mean(axis=0).min() > 0.1


def test_sgd_decreases_the_loss(plane):
    model = Autoencoder(
        hidden_layer_sizes=(32,),
        solver="sgd",
        learning_rate_init=5e-2,
        learning_rate_end=1e-2,
        max_epochs=10,
        batch_size=32,
        random_state=0,
    ).fit(plane)
    assert model.loss_curve_[-1] < 0.5 * model.loss_curve_[0]


@pytest.mark.parametrize(
    "params, match",
    [
        ({"n_components": 0}, "n_components"),
        ({"hidden_layer_sizes": (8, 0)}, "hidden_layer_sizes"),
        ({"hidden_layer_sizes": (8, 2.5)}, "hidden_layer_sizes"),
        ({"solver": "lbfgs"}, "solver"),
        ({"learning_rate_init": 0.0}, "learning_rate_init"),
        ({"learning_rate_end": -1e-4}, "learning_rate_end"),
        ({"max_epochs": 0}, "max_epochs"),
        ({"batch_size": 0}, "batch_size"),
    ],
)
def test_invalid_parameters_raise(params, match):
    with pytest.raises(ValueError, match=match):
        Autoencoder(**{**SMALL, **params}).fit(np.zeros((5, 3)))


def test_nan_and_unfitted_raise():
    X = np.ones((5, 3))
    with pytest.raises(NotFittedError):
        Autoencoder().transform(X)
    X[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Autoencoder(**SMALL).fit(X)


def test_device_auto_trains_where_torch_can(plane):
    """``"auto"`` takes CUDA only when torch sees it; the networks come back on the CPU."""
    model = Autoencoder(2, hidden_layer_sizes=(8,), max_epochs=2, random_state=0).fit(plane)
    assert model.device_ == ("cuda" if torch.cuda.is_available() else "cpu")
    assert all(w.device.type == "cpu" for w in model.encoder_.parameters())
    on_cpu = Autoencoder(2, hidden_layer_sizes=(8,), max_epochs=2, random_state=0, device="cpu")
    np.testing.assert_allclose(
        on_cpu.fit(plane).transform(plane), model.transform(plane), atol=1e-4
    )


@pytest.mark.parametrize("device", ["gpu", "cpu:0", 0])
def test_devices_refused(device):
    with pytest.raises(ValueError, match="device"):
        resolve_device(device)


def test_cuda_refused_without_a_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device("auto") == "cpu"
    with pytest.raises(ValueError, match="no CUDA GPU"):
        resolve_device("cuda")
