"""Table XIII's autoencoder on a GPU at the paper's schedule, and that schedule's time at
AwA2's size (a measurement script for a machine with a CUDA GPU: not a test, not a CI step).

The notebook trains the autoencoder where it runs: on a CPU for ``ae_epochs`` (50), on a
GPU for the paper's 200 (:meth:`~papers.awa2_dr_survey.data.Params.ae_schedule`),
and records which in ``table13_metrics``. The compendium's runs have had no GPU. This
script runs what needs one, on a machine that has one, in three steps:

``prepare``
    here: writes the full run's training data (the stand-in's 5,000 images, float32,
    which is what the network sees) and its train/test split to a folder that travels.
``train``
    on the GPU machine (torch with CUDA, the compendium's code on ``PYTHONPATH``):

    1. the paper's 200 epochs on the AwA2-shaped synthetic set at AwA2's size (37,322 x
       2,048, :func:`~dimred.datasets.awa2_like`), the paper's network, timed alone;
    2. Table XIII on the stand-in: every code size at 200 and at 50 epochs, autoencoder
       seeds 0, 1, 2 (one process per seed, sharing the GPU; the split is the run's),
       each code scored by the notebook's SVC cells
       (:func:`~papers.awa2_dr_survey.pipelines.transductive_accuracy`).

    Seed 0's codes at 200 epochs come back too, so ``report`` can score them again here.
``report``
    here: checks that the codes scored with this machine's pinned scikit-learn give the
    GPU machine's accuracies, and writes ``figures/awa2_dr_survey/table13_gpu.{csv,md}``
    (accuracy per code size, kernel and schedule: mean and sd over the seeds, the
    published value and the notebook's CPU run beside it; ``table13_gpu_seeds``: each
    seed's) and ``figures/awa2_dr_survey/autoencoder_gpu_cost.{csv,md}`` (seconds per fit,
    the CPU's beside them; ``autoencoder_gpu_fits``: each fit's), with the findings
    ``ae_gpu_*`` (:mod:`papers.awa2_dr_survey.gpu`).

    python scripts/autoencoder_gpu.py prepare .gpu
    python scripts/autoencoder_gpu.py train .gpu OUT [--budget SECONDS] [--awa2-only D ...]
    python scripts/autoencoder_gpu.py report OUT [.gpu]

``train`` writes each result as soon as it has it, and skips the last AwA2-size fit when
``--budget`` would be exceeded, so a run cut short still returns what it finished.
"""

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures" / "awa2_dr_survey"
#: Autoencoder seeds of the stand-in's Table XIII (the split stays the run's).
SEEDS = (0, 1, 2)
#: The paper's schedule and the CPU's (``Params.ae_gpu_epochs``, ``Params.ae_epochs``).
SCHEDULES = (200, 50)
#: Code sizes timed at AwA2's size, the second only if the budget allows.
AWA2_DIMS = (2, 512)
#: What ``train`` runs: on the GPU, or a smoke test of the script on a CPU (``--smoke``).
#: (``awa2_n``, ``dims``: ``None`` for AwA2's size and all of Table XIII's code sizes).
FULL = SimpleNamespace(device="cuda", schedules=SCHEDULES, awa2_n=None, dims=None)
SMOKE = SimpleNamespace(device="cpu", schedules=(2, 1), awa2_n=300, dims=(2,))


# ------------------------------------------------------------------------------ prepare
def prepare(folder):
    """The full run's stand-in data, as float32, with its split and Table XIII's sizes."""
    from compendium.published import load_published
    from papers import awa2_dr_survey as protocol

    p = protocol.params(False)
    data = protocol.load_data(p)
    run, split = data["run"], data["split"]
    folder.mkdir(parents=True, exist_ok=True)
    dims = sorted(
        int(d) for d in load_published(protocol.PAPER)["table13"]["n_components"].unique()
    )
    np.savez(
        folder / "standin.npz",
        X=run.X.astype(np.float32),  # what the network sees (batches are cast to float32)
        y=run.y,
        train=split.train,
        test=split.test,
        dims=np.array(dims),
        hidden=np.array(p.ae_hidden),
    )
    print(f"wrote {folder / 'standin.npz'}: {run.X.shape}, dims {dims}")


# -------------------------------------------------------------------------------- train
def _standin(folder):
    """The prepared stand-in (:func:`prepare`): its arrays and the run's split."""
    data = np.load(folder / "standin.npz")
    return data, SimpleNamespace(train=data["train"], test=data["test"], y=data["y"])


def _awa2_inputs(out, folder, plan, names):
    """``out`` with the headers of the files ``names`` (kept where they exist), the
    AwA2-shaped set and the network's hidden layers."""
    from dimred.datasets import AWA2_SHAPE, awa2_like

    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        if not (out / name).exists():
            (out / name).write_text(",".join(COLUMNS[name]) + "\n")
    hidden = tuple(int(h) for h in _standin(folder)[0]["hidden"])
    X, _ = awa2_like(plan.awa2_n or AWA2_SHAPE[0], AWA2_SHAPE[1], random_state=0)
    return X, hidden


def _fit(X, d, hidden, epochs, seed, device):
    """A trained :class:`~dimred.neural.Autoencoder` and its seconds (GPU work finished)."""
    import torch

    from dimred.neural import Autoencoder

    model = Autoencoder(
        d, hidden_layer_sizes=hidden, max_epochs=epochs, random_state=seed, device=device
    )
    start = time.perf_counter()
    model.fit(X)  # ends by moving the network to the CPU, which waits for the GPU
    if device == "cuda":
        torch.cuda.synchronize()
    return model, time.perf_counter() - start


#: Columns of the files ``train`` writes (headers first; the seeds' processes append rows).
COLUMNS = {
    "cost.csv": [
        "set",
        "n_samples",
        "n_features",
        "n_components",
        "epochs",
        "seed",
        "seconds",
        "final_mse",
        "alone",
    ],
    "table13.csv": [
        "n_components",
        "svc_kernel",
        "epochs",
        "seed",
        "test_percent",
        "train_percent",
    ],
    "loss_curves.csv": ["seed", "epochs", "n_components", "epoch", "mse"],
}


def _append(path, rows):
    """Append rows (dicts with :data:`COLUMNS`' keys) to a CSV at once, so that a run cut
    short keeps them and the seeds' processes can share the file."""
    frame = pd.DataFrame(rows, columns=COLUMNS[path.name])
    with open(path, "a") as file:
        file.write(frame.to_csv(index=False, header=False))


def _awa2_size(out, X, hidden, d, plan):
    """The paper's schedule at AwA2's size for code size ``d``, timed alone."""
    model, seconds = _fit(X, d, hidden, plan.schedules[0], 0, plan.device)
    row = {
        "set": "AwA2-shaped synthetic",
        "n_samples": X.shape[0],
        "n_features": X.shape[1],
        "n_components": d,
        "epochs": plan.schedules[0],
        "seed": 0,
        "seconds": seconds,
        "final_mse": model.loss_curve_[-1],
        "alone": True,
    }
    _append(out / "cost.csv", [row])
    print(row, flush=True)


def _standin_seed(folder, out, plan, seed):
    """Every code size and schedule of one seed, scored (runs in its own process)."""
    import torch

    from papers.awa2_dr_survey.gpu import KERNELS
    from papers.awa2_dr_survey.pipelines import transductive_accuracy

    torch.set_num_threads(max(1, os.cpu_count() // len(SEEDS)))  # the seeds share the cores
    data, split = _standin(folder)
    X, hidden = data["X"], tuple(int(h) for h in data["hidden"])
    kept = {}
    for epochs in plan.schedules:
        for d in plan.dims or [int(d) for d in data["dims"]]:
            model, seconds = _fit(X, d, hidden, epochs, seed, plan.device)
            codes = model.transform(X)
            if seed == 0 and epochs == plan.schedules[0]:
                kept[f"d{d}"] = codes.astype(np.float32)
            key = {"n_components": d, "epochs": epochs, "seed": seed}
            _append(
                out / "loss_curves.csv",
                [key | {"epoch": e + 1, "mse": mse} for e, mse in enumerate(model.loss_curve_)],
            )
            _append(
                out / "cost.csv",
                [
                    key
                    | {
                        "set": "stand-in",
                        "n_samples": len(X),
                        "n_features": X.shape[1],
                        "seconds": seconds,
                        "final_mse": model.loss_curve_[-1],
                        "alone": False,
                    }
                ],
            )
            scores = [(kernel, *transductive_accuracy(codes, split, kernel)) for kernel in KERNELS]
            _append(
                out / "table13.csv",
                [
                    key | {"svc_kernel": kernel, "test_percent": test, "train_percent": train}
                    for kernel, test, train in scores
                ],
            )
            print(f"seed {seed}, {epochs} epochs, d = {d}: {seconds:.1f} s", flush=True)
    if kept:
        _save_codes(out, kept)


def _save_codes(out, codes, limit=15 * 2**20):
    """``codes_<i>.npz`` files of at most ``limit`` bytes each (what may come back from
    the GPU machine), filled in the order of the code sizes."""
    groups, size = [[]], 0
    for name, array in codes.items():
        if groups[-1] and size + array.nbytes > limit:
            groups.append([])
            size = 0
        groups[-1].append(name)
        size += array.nbytes
    for i, names in enumerate(groups):
        np.savez(out / f"codes_{i}.npz", **{name: codes[name] for name in names})


def train(folder, out, budget, plan):
    """Steps 1 and 2 of the module docstring; the second AwA2-size fit only within ``budget``."""
    import multiprocessing

    import sklearn
    import torch

    start = time.monotonic()
    for name in COLUMNS:  # a new run
        (out / name).unlink(missing_ok=True)
    X, hidden = _awa2_inputs(out, folder, plan, COLUMNS)
    environment = {
        "device": torch.cuda.get_device_name(0) if plan.device == "cuda" else "cpu",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    (out / "environment.json").write_text(json.dumps(environment, indent=1))
    print(environment, flush=True)
    first, *others = AWA2_DIMS
    _awa2_size(out, X, hidden, first, plan)
    elapsed = time.monotonic() - start
    context = multiprocessing.get_context("spawn")  # CUDA cannot be forked
    with ProcessPoolExecutor(len(SEEDS), mp_context=context) as pool:
        for job in [pool.submit(_standin_seed, folder, out, plan, seed) for seed in SEEDS]:
            job.result()
    for d in others:
        if time.monotonic() - start + elapsed > budget:  # another fit as long as the first
            print(f"budget reached: AwA2-size fit d = {d} skipped", flush=True)
            continue
        _awa2_size(out, X, hidden, d, plan)


def awa2_only(folder, out, dims, plan):
    """Only step 1, for the code sizes ``dims`` (rows appended to ``out/cost.csv``)."""
    X, hidden = _awa2_inputs(out, folder, plan, ["cost.csv"])
    for d in dims:
        _awa2_size(out, X, hidden, d, plan)


# ------------------------------------------------------------------------------- report
PRODUCER = "scripts/autoencoder_gpu.py"


def report(out, folder, written=FIGURES):
    """Score seed 0's codes here, compare, and write the tables and findings (module docstring)
    into ``written`` (the notebook's tables are read from :data:`FIGURES`)."""
    from compendium.reporting import write_findings, write_table
    from papers.awa2_dr_survey import gpu

    environment = json.loads((out / "environment.json").read_text())
    scores = pd.read_csv(out / "table13.csv")
    schedules = tuple(sorted(scores["epochs"].unique(), reverse=True))
    split = _standin(folder)[1]
    codes = {
        name: Z for path in sorted(out.glob("codes_*.npz")) for name, Z in np.load(path).items()
    }
    difference = gpu.rescored_difference(codes, split, scores, schedules)
    table = gpu.accuracy_table(scores, pd.read_csv(FIGURES / "table13.csv"), schedules)
    predicted = pd.read_csv(FIGURES / "cost_predicted.csv", index_col="method")["predicted_s"]
    cpu = pd.read_csv(FIGURES / "table13_metrics.csv", index_col="metric")["value"]
    fits = pd.read_csv(out / "cost.csv")
    costs = gpu.cost_table(fits, environment, predicted, cpu, len(SEEDS))
    write_table(scores, written / "table13_gpu_seeds", index=False, data=gpu.STANDIN)
    write_table(table, written / "table13_gpu", index=False, data=gpu.STANDIN)
    fits["data"] = np.where(fits["set"] == "stand-in", gpu.STANDIN, gpu.AWA2_LIKE)
    write_table(fits, written / "autoencoder_gpu_fits", index=False)
    write_table(costs, written / "autoencoder_gpu_cost", index=False)
    rows = gpu.gpu_findings(table, costs, environment, difference, schedules, SEEDS)
    write_findings(rows, written, PRODUCER)
    print(table.to_markdown(index=False), costs.to_markdown(index=False), sep="\n\n")
    for row in rows:
        print(row["statement"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["prepare", "train", "report"])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--budget", type=float, default=480.0)
    parser.add_argument("--smoke", action="store_true", help="a few epochs on the CPU")
    parser.add_argument("--figures", type=Path, default=FIGURES, help="where report writes")
    parser.add_argument(
        "--awa2-only", type=int, nargs="+", metavar="D", help="train: only AwA2-size fits of these"
    )
    args = parser.parse_args(argv)
    if args.step == "prepare":
        prepare(args.paths[0])
    elif args.step == "train":
        plan = SMOKE if args.smoke else FULL
        if args.awa2_only:
            awa2_only(args.paths[0], args.paths[1], args.awa2_only, plan)
        else:
            train(args.paths[0], args.paths[1], args.budget, plan)
    else:
        folder = args.paths[1] if len(args.paths) > 1 else ROOT / ".gpu"
        report(args.paths[0], folder, args.figures)


if __name__ == "__main__":
    sys.exit(main())
