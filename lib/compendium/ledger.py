"""The cost ledger of a run: wall time, CPU time and peak memory of every step,
written to ``figures/<paper>/cost.csv`` with the machine that measured them.

A notebook's steps are the calls of :meth:`~compendium.reporting.Report.show`:
a step runs from the end of the previous one (the first from the start of the kernel,
imports and data loading included) to the moment its artefacts are written, and is
named after them. What is measured, for the kernel process and the local worker
processes it started (joblib's):

* ``wall_s``: seconds of the step;
* ``cpu_s``: CPU seconds (user and system) of the kernel and its workers, those that
  ended during the step included (``psutil``); a ``cpu_s / wall_s`` near the number of
  cores means the step kept them busy. Work sent to a dask cluster is not counted;
* ``peak_mib``: the sum of each process's own peak resident size during the step
  (``VmHWM``, reset at the start of every step: Linux's ``/proc/<pid>/clear_refs``),
  an upper bound of their simultaneous peak. Where the peak cannot be reset
  (``peak_reset`` False) it is the process's peak since its start.

* ``sweep_s``: seconds of the step spent in sweeps of :func:`dimred.utils.parallel.run_tasks`
  (from sending their first task to their last result); the rest of the step ran in
  the kernel alone.

The machine (cores, CPU, memory, BLAS and its core type, Python) and the run's local
workers (``n_jobs``, the most any of its sweeps ran on) are recorded in every row, so
that a ledger read elsewhere says where it came from. The tasks of every sweep are
recorded too (:meth:`CostLedger.task_frame`, ``tasks.csv``): for each, in the order it
was sent, its seconds and the worker that ran it; :mod:`compendium.scaling` replays
them on other numbers of workers.
"""

import json
import os
import platform
import time
from pathlib import Path

import pandas as pd
import psutil
from threadpoolctl import threadpool_info

from dimred.utils.parallel import record_sweeps

from .cost import _reset_peak, high_water_mark

__all__ = ["LEDGER_TABLES", "CostLedger", "machine", "run_parameters", "summarise"]

#: The ledger's tables in a paper's folder (``cost.csv``, ``tasks.csv``): measurements of
#: the run, not results, left out wherever tables are compared.
LEDGER_TABLES = ("cost", "tasks")
#: Columns of ``cost.csv`` (then ``machine``, ``cores``, ``n_jobs`` and ``data``).
COLUMNS = ("step", "wall_s", "cpu_s", "peak_mib", "processes", "peak_reset", "sweep_s")
#: Columns of ``tasks.csv`` (then ``data``): one row per task of a sweep, in sending order.
TASK_COLUMNS = ("step", "sweep", "sweep_index", "workers", "sweep_wall_s", "position")
TASK_COLUMNS += ("task", "seconds", "worker")
MIB = 2.0**20


def machine():
    """``(description, cores)`` of this machine: CPU, cores, memory, BLAS, Python."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    blas_text = ", ".join(
        sorted(
            f"{i.get('internal_api')} {i.get('version')} ({i.get('architecture') or '-'}, "
            f"{i.get('num_threads')} threads)"
            for i in blas
        )
    )
    memory = psutil.virtual_memory().total / 2**30
    text = (
        f"{_cpu_model()}; {cores} cores; {memory:.0f} GiB; BLAS {blas_text or 'unknown'}; "
        f"Python {platform.python_version()}"
    )
    return text, cores


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class CostLedger:
    """Wall, CPU and peak memory of the steps of a run (see the module's docstring).

    The first step starts at the creation of the current process (the kernel), so
    that the imports and the loading of the data are counted in it.

    Attributes
    ----------
    rows : list of dict
        One per closed step, in order.
    task_rows : list of dict
        One per task of the sweeps of the closed steps (:data:`TASK_COLUMNS`).
    """

    def __init__(self):
        self._process = psutil.Process()
        self._wall = self._process.create_time()
        self._cpu = 0.0
        self._reset = None  # None: the first step's peak runs from the process's start
        self._sweeps = record_sweeps()
        self.rows = []
        self.task_rows = []

    def close_step(self, name):
        """End the current step, record it under ``name``, and start the next one."""
        now, cpu = time.time(), self._cpu_seconds()
        pids = self._pids()
        peaks = [high_water_mark(pid) for pid in pids]
        sweeps = self._sweeps.take()
        self._add_tasks(name, sweeps)
        self.rows.append(
            {
                "step": name,
                "wall_s": round(now - self._wall, 2),
                "cpu_s": round(cpu - self._cpu, 2),
                "peak_mib": round(sum(p for p in peaks if p) / MIB, 1),
                "processes": len(pids),
                "peak_reset": bool(self._reset),
                "sweep_s": round(sum(sweep["wall_s"] for sweep in sweeps), 2),
            }
        )
        self._reset = all([_reset_peak(pid) for pid in pids])
        self._wall, self._cpu = time.time(), self._cpu_seconds()

    def _add_tasks(self, step, sweeps):
        """Keep the tasks of the ``sweeps`` of ``step`` (numbered within the step)."""
        for index, sweep in enumerate(sweeps):
            head = {"step": step, "sweep": sweep["sweep"], "sweep_index": index}
            head |= {"workers": sweep["workers"], "sweep_wall_s": round(sweep["wall_s"], 3)}
            for position, task in enumerate(sweep["tasks"]):
                seconds = round(task["seconds"], 4)
                self.task_rows.append(
                    head
                    | {"position": position, "task": task["task"], "seconds": seconds}
                    | {"worker": task["worker"]}
                )

    def frame(self):
        """The ledger as a table: :data:`COLUMNS`, then ``machine``, ``cores`` and
        ``n_jobs``: the most workers any of the run's sweeps ran on (none: blank)."""
        text, cores = machine()
        frame = pd.DataFrame(self.rows, columns=list(COLUMNS))
        n_jobs = max((row["workers"] for row in self.task_rows), default=None)
        return frame.assign(machine=text, cores=cores, n_jobs=n_jobs)

    def task_frame(self):
        """Every task of the run's sweeps: :data:`TASK_COLUMNS`, one row per task."""
        return pd.DataFrame(self.task_rows, columns=list(TASK_COLUMNS))

    def _pids(self):
        """The kernel's pid and those of its live descendants (the workers)."""
        return [self._process.pid] + [c.pid for c in self._children()]

    def _children(self):
        try:
            return self._process.children(recursive=True)
        except psutil.Error:
            return []

    def _cpu_seconds(self):
        """CPU seconds of this process, its ended children and its live descendants."""
        own = self._process.cpu_times()
        total = own.user + own.system + own.children_user + own.children_system
        for child in self._children():
            try:
                times = child.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system
        return total


def run_parameters(notebook):
    """The parameters a published notebook ran with beyond ``quick``, ``output_dir`` and
    ``n_jobs`` (its papermill metadata), as ``"name=value"`` text; empty for the defaults.
    ``n_jobs`` changes no result; the ledger records it."""
    metadata = json.loads(Path(notebook).read_text(encoding="utf-8"))["metadata"]
    given = metadata.get("papermill", {}).get("parameters", {})
    quick = ["quick=True"] if given.get("quick") else []
    others = [
        f"{k}={v}" for k, v in sorted(given.items()) if k not in ("quick", "output_dir", "n_jobs")
    ]
    return ", ".join(quick + others)


def summarise(frame):
    """One paper's totals from its ``cost.csv``: wall and CPU time summed over the steps,
    the largest step's peak memory, the longest step and the machine.

    Returns
    -------
    dict
        ``wall_s``, ``cpu_s``, ``peak_mib``, ``steps``, ``longest_step`` (its name),
        ``longest_step_s`` (its wall time), ``machine``, ``cores`` (its CPU cores).
    """
    longest = frame.loc[frame["wall_s"].idxmax()] if len(frame) else {"step": "", "wall_s": 0.0}
    return {
        "wall_s": float(frame["wall_s"].sum()),
        "cpu_s": float(frame["cpu_s"].sum()),
        "peak_mib": float(frame["peak_mib"].max()),
        "steps": len(frame),
        "longest_step": longest["step"],
        "longest_step_s": float(longest["wall_s"]),
        "machine": frame["machine"].iloc[0] if len(frame) else "",
        "cores": int(frame["cores"].max()) if len(frame) else 0,
    }
