"""Table XIII's autoencoder on a GPU: the tables and findings of ``scripts/autoencoder_gpu.py``.

The compendium's runs have no GPU, so the notebook trains the autoencoder for the CPU's 50
epochs (:meth:`.data.Params.ae_schedule`). The script runs on a machine with one what needs it:
the paper's 200 epochs at AwA2's size (the AwA2-shaped synthetic set, timed alone), and Table XIII
on the stand-in at 200 and at 50 epochs for several autoencoder seeds, each code scored by the
notebook's SVC cells (:func:`.pipelines.transductive_accuracy`). This module turns what came back
into ``table13_gpu`` (accuracies), ``autoencoder_gpu_cost`` (seconds per fit, the CPU's beside
them) and three findings; the script reads and writes the files.
"""

import numpy as np
import pandas as pd

from compendium.reporting import finding_row, format_spread

from .pipelines import transductive_accuracy

__all__ = [
    "AWA2_LIKE",
    "KERNELS",
    "STANDIN",
    "accuracy_table",
    "cost_table",
    "gpu_findings",
    "rescored_difference",
]

#: Table XIII's SVC kernels.
KERNELS = ("linear", "rbf")
STANDIN = "stand-in (Fashion-MNIST)"
AWA2_LIKE = "synthetic (AwA2-shaped set)"


def rescored_difference(codes, split, scores, schedules):
    """Largest difference between the GPU machine's accuracies and the same codes scored here.

    Parameters
    ----------
    codes : dict of str to ndarray
        ``"d<code size>"``: seed 0's codes at the longer schedule, every point.
    split : object
        ``train``, ``test`` (row indices) and ``y`` of the run (:class:`.pipelines.Split`).
    scores : DataFrame
        The GPU machine's ``n_components, svc_kernel, epochs, seed, test_percent,
        train_percent``.
    schedules : tuple of int
        Epochs, longest first.

    Returns
    -------
    float
        In accuracy points, over test and training accuracies of every code and kernel.
    """
    theirs = scores[(scores["seed"] == 0) & (scores["epochs"] == schedules[0])]
    theirs = theirs.set_index(["n_components", "svc_kernel"])
    largest = 0.0
    for name, Z in codes.items():
        for kernel in KERNELS:
            test, train = transductive_accuracy(np.asarray(Z, dtype=np.float64), split, kernel)
            row = theirs.loc[(int(name[1:]), kernel)]
            largest = max(
                largest, abs(test - row["test_percent"]), abs(train - row["train_percent"])
            )
    return largest


def accuracy_table(scores, notebook, schedules):
    """Per kernel and code size: the published cell, the notebook's CPU run (50 epochs, seed 0),
    and the GPU's mean and sd over the seeds at each schedule, with their paired difference.

    Parameters
    ----------
    scores : DataFrame
        The GPU machine's ``n_components, svc_kernel, epochs, seed, test_percent``.
    notebook : DataFrame
        The notebook's ``table13`` (``published_percent``, ``ours_percent``).
    schedules : tuple of int
        Epochs, longest first (the paper's, then the CPU's).

    Returns
    -------
    DataFrame
        One row per kernel and code size; ``gain_<long>_over_<short>`` is the mean over
        the seeds of each seed's difference between the two schedules.
    """
    long, short = schedules
    cells = scores.pivot_table(
        index=["svc_kernel", "n_components", "seed"], columns="epochs", values="test_percent"
    )
    cells["gain"] = cells[long] - cells[short]
    by_cell = cells.groupby(level=["svc_kernel", "n_components"])
    table = pd.DataFrame(
        {
            f"gpu_{long}_percent": by_cell[long].mean(),
            f"gpu_{long}_sd": by_cell[long].std(ddof=1),
            f"gpu_{short}_percent": by_cell[short].mean(),
            f"gpu_{short}_sd": by_cell[short].std(ddof=1),
            f"gain_{long}_over_{short}": by_cell["gain"].mean(),
            f"gain_{long}_over_{short}_sd": by_cell["gain"].std(ddof=1),
            "n_seeds": by_cell[long].count(),
        }
    ).reset_index()
    seed0 = cells.xs(0, level="seed")[short].rename(f"gpu_{short}_seed0_percent").reset_index()
    published = notebook[["svc_kernel", "n_components", "published_percent", "ours_percent"]]
    published = published.rename(columns={"ours_percent": f"cpu_{short}_seed0_percent"})
    table = published.merge(table, on=["svc_kernel", "n_components"]).merge(
        seed0, on=["svc_kernel", "n_components"]
    )
    return table.round(3)


def cost_table(costs, environment, predicted, cpu_50, n_seeds):
    """Seconds per fit on the GPU, with the CPU's beside them: the notebook's fits (stand-in, at
    the notebook's schedule only) and the prediction at AwA2's size.

    Parameters
    ----------
    costs : DataFrame
        The GPU machine's ``set, n_samples, n_features, n_components, epochs, seed, seconds,
        alone`` per fit.
    environment : dict
        ``device`` and ``torch`` of the GPU machine.
    predicted : Series
        ``cost_predicted``'s ``predicted_s`` by method (``"autoencoder d = 2, 200 epochs"``).
    cpu_50 : Series
        ``table13_metrics``' values by metric (``ae_epochs``, ``ae_d<d>_seconds``).
    n_seeds : int
        Processes that shared the GPU in the fits not timed alone.

    Returns
    -------
    DataFrame
        One row per set, schedule and timing (alone or shared).
    """
    rows = []
    for (name, epochs, alone), group in costs.groupby(["set", "epochs", "alone"], sort=False):
        if name == "stand-in":
            same = epochs == cpu_50["ae_epochs"]
            cpu = [cpu_50[f"ae_d{d}_seconds"] for d in group["n_components"]] if same else []
            basis = "the notebook's CPU fits (2 cores), seed 0" if cpu else ""
        else:
            names = [f"autoencoder d = {d}, {epochs} epochs" for d in group["n_components"]]
            cpu = predicted.reindex(names).dropna().tolist()
            basis = "predicted for 2 CPU cores (cost_predicted)"
        gpu_s = group["seconds"].to_numpy()
        rows.append(
            {
                "set": name,
                "n_samples": group["n_samples"].iloc[0],
                "n_features": group["n_features"].iloc[0],
                "epochs": epochs,
                "code_sizes": "/".join(map(str, sorted(group["n_components"].unique()))),
                "fits": len(group),
                "gpu_s_median": np.median(gpu_s),
                "gpu_s_min": gpu_s.min(),
                "gpu_s_max": gpu_s.max(),
                "gpu_timed": "alone" if alone else f"{n_seeds} seeds' processes sharing the GPU",
                "cpu_s_median": np.median(cpu) if cpu else np.nan,
                "cpu_basis": basis,
                "device": environment["device"],
                "torch": environment["torch"],
                "data": STANDIN if name == "stand-in" else AWA2_LIKE,
            }
        )
    return pd.DataFrame(rows).round(2)


def _points(values):
    """``"0.45 points (-1.20–2.10 points over 18 cells)"``."""
    return format_spread(values, unit=" points", what="cells")


def gpu_findings(table, costs, environment, difference, schedules, seeds):
    """Findings: the GPU's schedule against the CPU's, the device's own effect, and the time of
    the paper's schedule at AwA2's size.

    Parameters
    ----------
    table : DataFrame
        :func:`accuracy_table`.
    costs : DataFrame
        :func:`cost_table`.
    environment : dict
        ``device`` and ``torch`` of the GPU machine.
    difference : float
        :func:`rescored_difference`.
    schedules : tuple of int
        Epochs, longest first.
    seeds : sequence of int
        The autoencoder's seeds.

    Returns
    -------
    list of dict
        :func:`~compendium.reporting.finding_row` rows.
    """
    long, short = schedules
    gain, spread = table[f"gain_{long}_over_{short}"], table[f"gain_{long}_over_{short}_sd"]
    beyond = int((gain.abs() > 2 * spread / np.sqrt(table["n_seeds"])).sum())
    device_effect = table[f"gpu_{short}_seed0_percent"] - table[f"cpu_{short}_seed0_percent"]
    within = int((device_effect.abs() < 2 * table[f"gpu_{short}_sd"]).sum())
    awa2 = costs[costs["set"] != "stand-in"].iloc[0]
    gpu = environment["device"]
    note = (
        f"{gpu}, torch {environment['torch']}; the stand-in's split is the notebook's, the "
        f"seeds {'/'.join(map(str, seeds))} are the autoencoder's; seed 0's codes at "
        f"{long} epochs scored again with the pinned scikit-learn: largest difference "
        f"{difference:g} points"
    )
    return [
        finding_row(
            "ae_gpu_schedule",
            "The paper's 200 epochs against the CPU's 50",
            f"On a GPU ({gpu}), training for the paper's {long} epochs instead of {short} "
            f"changes Table XIII's stand-in accuracies by {_points(gain)}. A cell's change "
            f"is its mean over {len(seeds)} autoencoder seeds, paired by seed; {beyond} of "
            f"the {len(table)} cells move by more than twice its standard error.",
            f"test accuracy at {long} minus at {short} epochs (points), per cell, mean over seeds",
            gain,
            data=STANDIN,
            spread=f"min-max over the {len(table)} cells",
            note=note,
        ),
        finding_row(
            "ae_gpu_device",
            "The same schedule on the GPU and on the CPU",
            f"At the same {short} epochs and seed 0, the GPU's Table XIII differs from the "
            f"notebook's CPU run by {_points(device_effect)}; in {within} of the "
            f"{len(table)} cells by less than twice the sd of the GPU's {len(seeds)} seeds "
            "there: another device trains like another seed.",
            f"test accuracy on the GPU minus on the CPU (points), {short} epochs, seed 0, per cell",
            device_effect,
            data=STANDIN,
            spread=f"min-max over the {len(table)} cells",
            note=note,
        ),
        finding_row(
            "ae_gpu_awa2_time",
            "The paper's schedule at AwA2's size on a GPU",
            f"The paper's {long} epochs on {awa2['n_samples']:,} x {awa2['n_features']:,} "
            f"(the AwA2-shaped set) took {awa2['gpu_s_median'] / 60:.1f} min per fit on {gpu} "
            f"(code sizes timed: {awa2['code_sizes']}), against "
            f"{awa2['cpu_s_median'] / 60:.0f} min predicted for the same fit on 2 CPU cores.",
            f"wall time (s) of one {long}-epoch fit at AwA2's size on the GPU, timed alone",
            costs.loc[costs["set"] != "stand-in", "gpu_s_median"].to_numpy(),
            data=AWA2_LIKE,
            low=awa2["gpu_s_min"],
            high=awa2["gpu_s_max"],
            spread=f"min-max over the code sizes {awa2['code_sizes']}",
            note=note,
        ),
    ]
