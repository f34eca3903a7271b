"""Table XIII's autoencoder on a GPU: tables and findings (``awa2_dr_survey.gpu``)."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from papers.awa2_dr_survey import gpu
from papers.awa2_dr_survey.pipelines import transductive_accuracy

SCHEDULES = (200, 50)
SEEDS = (0, 1, 2)
ENVIRONMENT = {"device": "NVIDIA H200", "torch": "2.11.0+cu130"}


def _scores(accuracy):
    """``table13.csv`` of the GPU machine from ``accuracy(d, epochs, seed)`` (test percent)."""
    rows = [
        {"n_components": d, "svc_kernel": "linear", "epochs": e, "seed": s,
         "test_percent": accuracy(d, e, s), "train_percent": 0.0}
        for d in (2, 4) for e in SCHEDULES for s in SEEDS
    ]  # fmt: skip
    return pd.DataFrame(rows)


NOTEBOOK = pd.DataFrame(
    {"svc_kernel": ["linear", "linear"], "n_components": [2, 4],
     "published_percent": [70.3, 85.3], "ours_percent": [63.0, 75.0]}
)  # fmt: skip


def _gains():
    """Code size 2 gains 1, 2, 3 points over the seeds; code size 4 gains 0.1, -0.1, 0."""
    gain = {2: (1.0, 2.0, 3.0), 4: (0.1, -0.1, 0.0)}
    return _scores(lambda d, e, s: 60.0 + s + (gain[d][s] if e == 200 else 0.0))


def test_accuracy_table_pairs_the_schedules_by_seed():
    table = gpu.accuracy_table(_gains(), NOTEBOOK, SCHEDULES).set_index("n_components")
    assert table.loc[2, "gain_200_over_50"] == pytest.approx(2.0)
    assert table.loc[2, "gain_200_over_50_sd"] == pytest.approx(1.0)
    assert table.loc[4, "gain_200_over_50"] == pytest.approx(0.0)
    assert table.loc[2, "gpu_50_percent"] == pytest.approx(61.0)  # 60, 61, 62
    assert table.loc[2, "gpu_50_sd"] == pytest.approx(1.0)
    assert table.loc[2, "gpu_50_seed0_percent"] == pytest.approx(60.0)
    assert table.loc[4, "cpu_50_seed0_percent"] == 75.0
    assert table.loc[4, "published_percent"] == 85.3
    assert (table["n_seeds"] == 3).all()


def _costs():
    rows = [
        {"set": "AwA2-shaped synthetic", "n_samples": 37322, "n_features": 2048,
         "n_components": 2, "epochs": 200, "seed": 0, "seconds": 172.0, "alone": True},
    ] + [
        {"set": "stand-in", "n_samples": 5000, "n_features": 784, "n_components": d,
         "epochs": e, "seed": s, "seconds": e / 8 + d / 100, "alone": False}
        for e in SCHEDULES for d in (2, 4) for s in SEEDS
    ]  # fmt: skip
    return pd.DataFrame(rows)


PREDICTED = pd.Series({"autoencoder d = 2, 200 epochs": 2909.1, "PCA": 5.0})
CPU = pd.Series({"ae_epochs": 50.0, "ae_d2_seconds": 50.0, "ae_d4_seconds": 54.0})


def test_cost_table_puts_the_cpu_beside_the_gpu_where_it_ran_the_same_fit():
    table = gpu.cost_table(_costs(), ENVIRONMENT, PREDICTED, CPU, len(SEEDS))
    awa2, long, short = (table.iloc[i] for i in range(3))
    assert (awa2["gpu_s_median"], awa2["cpu_s_median"], awa2["gpu_timed"]) == (
        172.0,
        2909.1,
        "alone",
    )
    assert np.isnan(long["cpu_s_median"]) and long["cpu_basis"] == ""  # no CPU fit of 200 epochs
    assert short["cpu_s_median"] == 52.0 and short["fits"] == 6
    assert short["gpu_s_min"] == pytest.approx(50 / 8 + 0.02)
    assert short["gpu_timed"] == "3 seeds' processes sharing the GPU"
    assert short["code_sizes"] == "2/4" and set(table["device"]) == {"NVIDIA H200"}


def test_findings_count_the_cells_beyond_their_standard_error():
    table = gpu.accuracy_table(_gains(), NOTEBOOK, SCHEDULES)
    costs = gpu.cost_table(_costs(), ENVIRONMENT, PREDICTED, CPU, len(SEEDS))
    schedule, device, time = gpu.gpu_findings(table, costs, ENVIRONMENT, 0.0, SCHEDULES, SEEDS)
    # Code size 2: gain 2 with standard error 1 / sqrt(3); code size 4: gain 0.
    assert "1 of the 2 cells move" in schedule["statement"]
    assert (schedule["low"], schedule["high"]) == pytest.approx((0.0, 2.0))
    # The GPU's seed 0 at 50 epochs (60) against the CPU's (63 and 75).
    assert (device["low"], device["high"]) == pytest.approx((-15.0, -3.0))
    assert "in 0 of the 2 cells" in device["statement"]
    assert time["value"] == 172.0 and "48 min predicted" in time["statement"]


def test_rescored_difference_is_zero_for_the_same_scores_and_sees_a_change():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20)
    codes = {"d2": rng.normal(size=(60, 2)) + y[:, None], "d4": rng.normal(size=(60, 4))}
    split = SimpleNamespace(train=np.arange(0, 60, 2), test=np.arange(1, 60, 2), y=y)
    rows = [
        {"n_components": int(name[1:]), "svc_kernel": kernel, "epochs": 200, "seed": 0,
         "test_percent": test, "train_percent": train}
        for name, Z in codes.items() for kernel in gpu.KERNELS
        for test, train in [transductive_accuracy(Z, split, kernel)]
    ]  # fmt: skip
    scores = pd.DataFrame(rows)
    assert gpu.rescored_difference(codes, split, scores, SCHEDULES) == 0.0
    scores.loc[3, "train_percent"] += 2.5
    assert gpu.rescored_difference(codes, split, scores, SCHEDULES) == pytest.approx(2.5)
