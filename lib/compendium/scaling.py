"""What more cores or a dask cluster buy: a run's measured tasks replayed on ``W`` workers.

A run's ledger (:mod:`.ledger`) holds, for every step, its wall time, its CPU time and
the seconds it spent in sweeps (``cost.csv``), and for every task of every sweep its
seconds and its place in the sending order (``tasks.csv``). From them the model predicts
the wall time of the same run on ``W`` workers:

* **A sweep** replays its tasks, in the order they were sent, onto ``W`` workers by list
  scheduling (each task goes to the worker that frees first, the lowest-numbered on a
  tie), as joblib and dask hand out tasks of a known order; its time is that makespan
  plus the sweep's own overhead in the run (its measured wall time less the replay on the
  run's own workers: starting the workers, sending arguments and results), taken as the
  same at any ``W``. A sweep the protocol ran with fewer workers than the run's (the
  AwA2 fits timed one at a time, so that no other task shares their cores) keeps its
  number of workers.
* **The rest of a step** runs in the kernel alone, one part after another. Where a step
  ran no sweep, its CPU over wall time ``q`` (its BLAS threads) says how many cores it
  used: on ``P < q`` cores it takes ``wall * q / P``, on more cores what it took. A step's
  kernel part beside sweeps is taken as one thread.
* **A paper** is the sum of its steps; **the compendium** (``make figures``) the papers'
  sum, one after another, each on every core. The **floor** is what no number of workers
  shortens: every kernel part plus, for each sweep, its largest task and its overhead.
* **A dask cluster of W workers** (one thread each) is the same replay with ``W``
  workers; the kernel parts stay on the local machine. Sending data to remote workers
  costs more than to local ones; only the overhead measured locally is counted.

The task seconds are those measured in the run, so the model assumes a task takes as
long on a machine with more workers (no memory-bandwidth contention, the same CPU).
:func:`check` sets the prediction beside runs measured at another number of cores.

At AwA2's size no run is measured: :func:`awa2_full_size` replays the protocol's predicted
operations (``figures/awa2_dr_survey/cost_protocol.csv``): each row is ``count`` equal
tasks, a sweep where the protocol runs it in its workers (``workers`` > 1), else in the
kernel in sequence.

``python -m compendium.scaling`` (a step of ``make figures``) writes
``figures/scaling.csv`` (one row per paper, or the whole compendium, and number of
workers), ``figures/scaling_awa2.csv``, ``figures/scaling_check.csv`` (predictions
against measured runs) and the figure ``figures/scaling.png``; for the repository's own
``figures/`` it refreshes the block between :data:`BEGIN` and :data:`END` of the book's
``docs/running.md``.
"""

import argparse
import heapq
from pathlib import Path

import numpy as np
import pandas as pd

from . import paths
from .pages import RUNNING_PAGE, _pages, _refresh_block
from .plotting import savefig
from .reporting import COST_DATA, write_table

__all__ = [
    "WORKERS",
    "awa2_full_size",
    "check",
    "list_schedule",
    "predict",
    "render",
    "scaling_table",
    "summary_sentence",
    "write",
]

#: Numbers of workers (cores, or dask workers) the table predicts.
WORKERS = (1, 2, 4, 8, 16, 32, 64)
#: Markers of the generated block of ``docs/running.md``.
BEGIN, END = "<!-- scaling:begin -->", "<!-- scaling:end -->"


def list_schedule(seconds, workers):
    """The makespan of tasks of ``seconds``, in this order, on ``workers`` workers: each
    task starts on the worker that frees first (the lowest-numbered on a tie).

    Parameters
    ----------
    seconds : sequence of float
        Each task's duration, in sending order.
    workers : int

    Returns
    -------
    float

    Examples
    --------
    >>> list_schedule([3, 1, 1, 1], 2)
    3.0
    """
    free = [(0.0, worker) for worker in range(max(1, int(workers)))]
    end = 0.0
    for duration in seconds:
        start, worker = heapq.heappop(free)
        finish = start + float(duration)
        end = max(end, finish)
        heapq.heappush(free, (finish, worker))
    return end


def _sweeps(tasks):
    """Per step, its sweeps: ``[(seconds in sending order, measured workers, wall)]``."""
    sweeps = {}
    for (step, _), sweep in tasks.groupby(["step", "sweep_index"], sort=False):
        ordered = sweep.sort_values("position")
        workers, wall = int(ordered["workers"].iloc[0]), float(ordered["sweep_wall_s"].iloc[0])
        sweeps.setdefault(step, []).append((ordered["seconds"].to_numpy(float), workers, wall))
    return sweeps


def predict(cost, tasks, workers):
    """The predicted wall time of one paper's run on ``workers`` workers, and its floor.

    Parameters
    ----------
    cost : DataFrame
        The run's ``cost.csv`` (``step``, ``wall_s``, ``cpu_s``, ``sweep_s``, ``cores``).
    tasks : DataFrame
        The run's ``tasks.csv``.
    workers : int

    Returns
    -------
    (float, float)
        Predicted seconds, and the floor (seconds no number of workers goes below).
    """
    sweeps, cores = _sweeps(tasks), int(cost["cores"].max())
    own = int(cost["n_jobs"].max())
    total = floor = 0.0
    for row in cost.itertuples():
        kernel = float(row.wall_s) - float(row.sweep_s)
        floor += kernel
        if row.step not in sweeps and row.wall_s > 0:
            used = min(max(row.cpu_s / row.wall_s, 1.0), cores)
            kernel *= used / min(used, workers)
        total += kernel
        for seconds, measured, wall in sweeps.get(row.step, []):
            overhead = max(wall - list_schedule(seconds, measured), 0.0)
            total += list_schedule(seconds, workers if measured >= own else measured) + overhead
            floor += float(seconds.max(initial=0.0)) + overhead
    return total, floor


def _ledgers(figures_dir):
    """``{paper: (cost, tasks)}`` for every paper whose ledger has its tasks (a run
    without a sweep has no workers to scale)."""
    found = {}
    for paper in paths.paper_keys():
        folder = Path(figures_dir) / paper
        if (folder / "tasks.csv").exists() and (folder / "cost.csv").exists():
            cost = pd.read_csv(folder / "cost.csv")
            if cost["n_jobs"].notna().any():
                tasks = pd.read_csv(folder / "tasks.csv", keep_default_na=False)
                found[paper] = (cost, tasks)
    return found


def scaling_table(figures_dir, workers=WORKERS):
    """Predicted minutes of every paper, and of the whole compendium, on ``workers``.

    Returns
    -------
    DataFrame
        ``paper``, ``workers``, ``predicted_min``, ``floor_min``, ``measured_min`` (the
        run itself, at its own number of workers), ``measured_workers``, ``machine``.
    """
    rows = []
    for paper, (cost, tasks) in _ledgers(figures_dir).items():
        own = int(cost["n_jobs"].iloc[0])
        for w in workers:
            predicted, floor = predict(cost, tasks, w)
            measured = cost["wall_s"].sum() / 60 if w == own else np.nan
            rows.append(
                {"paper": paper, "workers": w, "predicted_min": predicted / 60}
                | {"floor_min": floor / 60, "measured_min": measured, "measured_workers": own}
                | {"machine": cost["machine"].iloc[0]}
            )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    whole = table.groupby("workers", as_index=False)[["predicted_min", "floor_min"]].sum()
    measured = table.groupby("workers")["measured_min"].sum(min_count=len(set(table["paper"])))
    whole = whole.assign(paper="compendium", measured_min=whole["workers"].map(measured))
    whole = whole.assign(measured_workers=table["measured_workers"].max())
    whole = whole.assign(machine=table["machine"].iloc[0])
    return pd.concat([table, whole], ignore_index=True).round(2)


def check(figures_dir, measured_dir):
    """The model against runs measured at another number of cores: each paper of
    ``measured_dir`` (a ``figures`` folder of the same code run with other ``n_jobs``)
    predicted from ``figures_dir``'s ledger, and the reverse.

    Returns
    -------
    DataFrame
        ``paper``, ``from_workers``, ``workers``, ``predicted_min``, ``measured_min``,
        ``deviation`` (predicted over measured, minus 1).
    """
    here, there = _ledgers(figures_dir), _ledgers(measured_dir)
    rows = []
    for paper in sorted(set(here) & set(there)):
        for source, target in ((here[paper], there[paper]), (there[paper], here[paper])):
            target_workers = int(target[0]["n_jobs"].iloc[0])
            predicted = predict(*source, target_workers)[0] / 60
            measured = target[0]["wall_s"].sum() / 60
            rows.append(
                {"paper": paper, "from_workers": int(source[0]["n_jobs"].iloc[0])}
                | {"workers": target_workers, "predicted_min": predicted}
                | {"measured_min": measured, "deviation": predicted / measured - 1}
            )
    return pd.DataFrame(rows).round(3)


def awa2_full_size(cost_protocol, workers=WORKERS):
    """The AwA2 protocol at AwA2's size on ``workers`` workers, from its predicted
    operations (the module's docstring).

    Parameters
    ----------
    cost_protocol : DataFrame
        ``figures/awa2_dr_survey/cost_protocol.csv``.

    Returns
    -------
    DataFrame
        ``workers``, ``predicted_min``, ``floor_min``, ``largest_task`` (the operation
        of the largest single task of a sweep), ``largest_task_min``, ``kernel_min``
        (the operations run in the kernel, in sequence), ``largest_kernel`` (the
        largest of them) and ``largest_kernel_min``.
    """
    operations = cost_protocol[cost_protocol["step"] != "total"]
    operations = operations[(operations["count"] >= 1) & (operations["predicted_s"] > 0)]
    swept = operations["workers"] > 1
    tasks = [
        (row.predicted_s / row.count, row.operation)
        for row in operations[swept].itertuples()
        for _ in range(int(row.count))
    ]
    largest = max(tasks, default=(0.0, ""))
    alone = operations[~swept]
    kernel = float(alone["predicted_s"].sum())
    biggest = alone.loc[alone["predicted_s"].idxmax()] if len(alone) else None
    rows = []
    for w in workers:
        sweeps = list_schedule([t for t, _ in tasks], w)
        rows.append(
            {"workers": w, "predicted_min": (kernel + sweeps) / 60}
            | {"floor_min": (kernel + largest[0]) / 60, "largest_task": largest[1]}
            | {"largest_task_min": largest[0] / 60, "kernel_min": kernel / 60}
            | {"largest_kernel": "" if biggest is None else biggest["operation"]}
            | {"largest_kernel_min": 0.0 if biggest is None else biggest["predicted_s"] / 60}
        )
    return pd.DataFrame(rows).round(2)


def plot(table, awa2=None):
    """Predicted minutes against workers, per paper and for the whole compendium (and
    AwA2 at full size), log-log, with each run's own measurement."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for paper, rows in table.groupby("paper", sort=False):
        style = {"lw": 2.5, "color": "black"} if paper == "compendium" else {"lw": 1}
        line = ax.plot(rows["workers"], rows["predicted_min"], marker="o", ms=3, label=paper)
        line[0].set(**style)
        ax.plot(rows["workers"], rows["floor_min"], ls=":", color=line[0].get_color(), lw=0.8)
        ax.scatter(rows["workers"], rows["measured_min"], marker="x", color=line[0].get_color())
    if awa2 is not None:
        ax.plot(
            awa2["workers"], awa2["predicted_min"], ls="--", color="grey", label="AwA2, full size"
        )
    ax.set(xscale="log", yscale="log", xlabel="workers (cores, or dask workers)")
    ax.set(ylabel="wall time (min)", xticks=list(WORKERS), xticklabels=[str(w) for w in WORKERS])
    ax.set_title("Predicted wall time (dotted: the floor; ×: measured)", fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    return fig


def _minutes(value):
    return f"{value:.1f} min" if value < 90 else f"{value / 60:.1f} h"


def summary_sentence(table, awa2=None, workers=(16, 64)):
    """What ``workers`` cores (or dask workers) take for the whole compendium and for
    AwA2 at full size, and what no number of workers shortens."""
    whole = table[table["paper"] == "compendium"].set_index("workers")
    own = int(whole["measured_workers"].iloc[0])
    parts = [
        f"The whole compendium took {_minutes(whole.loc[own, 'measured_min'])} on {own} cores"
        if pd.notna(whole.loc[own, "measured_min"])
        else f"The whole compendium is predicted at {_minutes(whole.loc[own, 'predicted_min'])} "
        f"on {own} cores"
    ]
    parts.append(
        "; the scaling model (`compendium.scaling`: its measured tasks replayed on more "
        "workers) predicts "
        + " and ".join(f"{_minutes(whole.loc[w, 'predicted_min'])} on {w}" for w in workers)
        + f", against a floor of {_minutes(whole['floor_min'].min())} that no number of "
        "workers shortens (the steps in the kernel and each sweep's largest task)."
    )
    if awa2 is not None:
        at = awa2.set_index("workers")
        parts.append(
            f" The AwA2 protocol at AwA2's full size: {_minutes(at.loc[own, 'predicted_min'])} "
            f"on {own} cores, "
            + " and ".join(f"{_minutes(at.loc[w, 'predicted_min'])} on {w}" for w in workers)
            + f", most of it the {_minutes(at['kernel_min'].iloc[0])} its kernel runs in "
            f"sequence (the largest, {_minutes(at['largest_kernel_min'].iloc[0])}: "
            f"{at['largest_kernel'].iloc[0]}), which no cluster shortens."
        )
    return "".join(parts)


def render(table, awa2=None, checked=None):
    """The block of the book's page: the sentence, the figure and the tables."""
    wide = table.pivot(index="paper", columns="workers", values="predicted_min")
    wide = wide.loc[[*sorted(set(wide.index) - {"compendium"}), "compendium"]]
    wide.columns = [f"{w} workers (min)" for w in wide.columns]
    lines = [
        summary_sentence(table, awa2),
        "",
        "![Predicted wall time](../figures/scaling.png)",
        "",
    ]
    lines += [wide.round(1).to_markdown(), ""]
    if checked is not None and len(checked):
        worst = checked["deviation"].abs().max()
        lines += [
            "The model against runs measured at another number of cores (the same code; "
            f"`make scaling-check`): largest deviation {worst:.1%}.",
            "",
            checked.to_markdown(index=False),
            "",
        ]
    return "\n".join(lines).rstrip()


def write(figures_dir, measured_dir=None, docs=None, readme=None):
    """Write ``scaling.csv``, ``scaling_awa2.csv``, ``scaling_check.csv`` (with
    ``measured_dir``) and ``scaling.png`` into ``figures_dir``, refresh the block of the
    book's page (``docs``) and the README's sentence (:func:`summary_sentence`; both by
    default the compendium's, for its own ``figures/``); return the table."""
    figures_dir = Path(figures_dir)
    table = scaling_table(figures_dir)
    if table.empty:
        return table
    write_table(table, figures_dir / "scaling", False, COST_DATA)
    protocol = figures_dir / "awa2_dr_survey" / "cost_protocol.csv"
    awa2 = None
    if protocol.exists():  # the rows say which data their predictions came from
        operations = pd.read_csv(protocol)
        awa2 = awa2_full_size(operations)
        write_table(awa2, figures_dir / "scaling_awa2", False, operations["data"].iloc[0])
    checked = None
    if measured_dir is not None and Path(measured_dir).is_dir():
        checked = check(figures_dir, measured_dir)
        write_table(checked, figures_dir / "scaling_check", False, COST_DATA)
    savefig(plot(table, awa2), figures_dir / "scaling")
    readme, docs = _pages(figures_dir, readme, docs)
    if readme is not None:
        _refresh_block(readme, BEGIN, END, summary_sentence(table, awa2))
    if docs is not None:
        _refresh_block(docs / RUNNING_PAGE, BEGIN, END, render(table, awa2, checked))
    return table


def main(argv=None):
    """``python -m compendium.scaling [--figures DIR] [--measured DIR]``."""
    parser = argparse.ArgumentParser(prog="python -m compendium.scaling", description=__doc__)
    parser.add_argument("--figures", type=Path, default=paths.FIGURES_DIR)
    parser.add_argument(
        "--measured", type=Path, default=None, help="a figures folder run at another n_jobs"
    )
    args = parser.parse_args(argv)
    write(args.figures, args.measured)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
