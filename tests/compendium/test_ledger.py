"""The cost ledger: each step's wall time, CPU time (workers included) and peak memory."""

import json
import time

import numpy as np
import pandas as pd
import pytest
from joblib import Parallel, delayed

from compendium.ledger import CostLedger, machine, summarise
from compendium.pages import cost_summary, render_costs
from compendium.reporting import Artefacts, Report
from dimred.utils.parallel import run_tasks


def _busy(seconds):
    """Keep one core busy for ``seconds`` of CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return seconds


def _table(name):
    return Artefacts({name: pd.DataFrame({"x": [1]})}, data="synthetic")


def test_steps_measure_wall_cpu_and_memory(tmp_path):
    report = Report(tmp_path, display=False)
    report.show(Artefacts())
    time.sleep(0.4)  # wall without CPU
    report.show(_table("sleeping"))
    _busy(0.4)
    report.show(_table("busy"))
    block = np.ones(300 * 2**20 // 8)  # 300 MiB resident, freed within the step
    del block
    report.show(_table("allocating"))
    report.show(Artefacts())
    report.write()
    cost = pd.read_csv(tmp_path / "cost.csv").set_index("step")
    assert list(cost.index) == ["setup", "sleeping", "busy", "allocating", "step 5"]
    assert cost.loc["sleeping", "wall_s"] >= 0.4 and cost.loc["sleeping", "cpu_s"] < 0.2
    assert cost.loc["busy", "cpu_s"] >= 0.35
    if cost.loc["allocating", "peak_reset"]:  # Linux: each step's own peak
        assert cost.loc["allocating", "peak_mib"] >= cost.loc["busy", "peak_mib"] + 250
        assert cost.loc["step 5", "peak_mib"] < cost.loc["allocating", "peak_mib"] - 250
    assert set(cost["data"]) == {"mixed (every data set of the run)"}
    assert cost["cores"].iloc[0] >= 1 and "BLAS" in cost["machine"].iloc[0]


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def test_the_tasks_of_every_sweep_are_recorded_in_sending_order(tmp_path):
    """Each task's seconds (measured in the worker), its worker and its place in the
    sending order (costliest first), per step; the step's time in sweeps."""
    report = Report(tmp_path, display=False)
    report.show(Artefacts())
    sleeps = [0.05, 0.3, 0.1, 0.2]
    assert run_tasks(_sleep, [(s,) for s in sleeps], "sleeps", 2, False, costs=sleeps) == sleeps
    run_tasks(_sleep, [(0.01,)], "one", 1, False)
    report.show(_table("swept"))
    report.write()
    tasks = pd.read_csv(tmp_path / "tasks.csv")
    assert set(tasks["step"]) == {"swept"} and list(tasks["sweep"]) == ["sleeps"] * 4 + ["one"]
    first = tasks[tasks["sweep_index"] == 0]
    assert list(first["task"]) == [1, 3, 2, 0] and list(first["position"]) == [0, 1, 2, 3]
    np.testing.assert_allclose(first["seconds"], np.array(sleeps)[[1, 3, 2, 0]], atol=0.05)
    assert set(first["workers"]) == {2} and set(first["worker"]) == {0, 1}
    assert first["sweep_wall_s"].iloc[0] >= max(sleeps)  # the workers' start included
    cost = pd.read_csv(tmp_path / "cost.csv").set_index("step")
    assert cost.loc["setup", "sweep_s"] == 0 and set(cost["n_jobs"]) == {2}
    walls = tasks.groupby("sweep_index")["sweep_wall_s"].first()
    assert cost.loc["swept", "sweep_s"] == pytest.approx(walls.sum(), abs=0.01)
    assert cost.loc["swept", "sweep_s"] <= cost.loc["swept", "wall_s"]


def test_cpu_of_worker_processes_is_counted():
    ledger = CostLedger()
    ledger.close_step("before")
    done = Parallel(n_jobs=2, backend="loky")(delayed(_busy)(0.5) for _ in range(2))
    ledger.close_step("workers")
    assert sum(done) == 1.0
    row = ledger.rows[-1]
    assert row["cpu_s"] >= 0.9  # both workers' CPU, not only the kernel's waiting
    assert row["processes"] >= 3  # the kernel and its two loky workers at least


def _ledgers(folder, parameters):
    """Two papers' ledgers and published notebooks (their papermill parameters)."""
    text, cores = machine()
    for paper, walls in {"a": [60.0, 120.0], "b": [30.0]}.items():
        frame = pd.DataFrame(
            {"step": [f"s{i}" for i in range(len(walls))], "wall_s": walls}
        ).assign(cpu_s=lambda f: 2 * f["wall_s"], peak_mib=[512.0] * len(walls))
        (folder / paper).mkdir(exist_ok=True)
        frame.assign(machine=text, cores=cores).to_csv(folder / paper / "cost.csv")
        given = {"quick": False, "output_dir": f"../figures/{paper}", **parameters.get(paper, {})}
        notebook = {"metadata": {"papermill": {"parameters": given}}, "cells": []}
        (folder / paper / f"{paper}.ipynb").write_text(json.dumps(notebook))
    return text


def test_totals_follow_the_rows(tmp_path):
    text = _ledgers(tmp_path, {})
    summary = cost_summary(tmp_path)
    assert summary.loc["a", "wall_s"] == 180.0 and summary.loc["b", "cpu_s"] == 60.0
    totals = summarise(pd.read_csv(tmp_path / "a" / "cost.csv"))
    assert totals["steps"] == 2 and totals["longest_step"] == "s1"
    assert totals["longest_step_s"] == 120.0
    rendered = render_costs(summary, ["a", "b"])
    total = rendered.split("| all papers")[1].split("|")
    assert float(total[1]) == 3.5 and float(total[2]) == 7.0  # minutes, summed
    assert "| s1 (2.0) " in rendered.split("| b ")[0]  # a's longest step, in minutes
    assert text in rendered
    assert "at the papers' settings took 4 min of wall time, within the target of 100" in rendered
    bound = 7.0 / cores_of(summary)  # CPU minutes over the cores
    assert f"Its CPU time, 7.0 min on {cores_of(summary)} cores" in rendered
    assert f"from below at {bound:.1f} min" in rendered and "not ruled out" in rendered
    assert "taken off" in render_costs(summary, ["a", "b"], target_minutes=bound - 0.1)


def test_the_total_is_the_rounded_sum_not_the_sum_of_rounded_rows(tmp_path):
    """Each row rounds 0.07 min up to 0.1; the total, 0.14 min, reads 0.1 (not 0.2), as
    the attribution's sum and the verdict's CPU minutes do."""
    _ledgers(tmp_path, {})
    summary = cost_summary(tmp_path)
    summary[["wall_s", "cpu_s"]] = 4.2
    rendered = render_costs(summary, ["a", "b"])
    rows = {line.split("|")[1].strip(): line.split("|") for line in rendered.splitlines()[2:4]}
    assert float(rows["a"][2]) == float(rows["b"][2]) == 0.1
    total = rendered.split("| all papers")[1].split("|")
    assert float(total[1]) == float(total[2]) == 0.1
    assert "Its CPU time, 0.1 min" in rendered


def cores_of(summary):
    return int(summary["cores"].iloc[0])


def test_an_incomplete_or_changed_run_decides_no_target(tmp_path):
    _ledgers(tmp_path, {"b": {"n_rf_runs": 10}})
    summary = cost_summary(tmp_path)
    assert summary.loc["b", "parameters"] == "n_rf_runs=10" and summary.loc["a", "parameters"] == ""
    rendered = render_costs(summary, ["a", "b", "c"])
    assert "no ledger for c" in rendered and "b (n_rf_runs=10)" in rendered
    assert "not decided by them" in rendered and "within the target" not in rendered


def test_ledgers_of_several_machines_decide_no_target(tmp_path):
    """A paper rerun on a slower or faster machine: the sum is no full run on either."""
    _ledgers(tmp_path, {})
    cost = pd.read_csv(tmp_path / "b" / "cost.csv", index_col=0)
    cost.assign(machine="another CPU; 2 cores").to_csv(tmp_path / "b" / "cost.csv")
    rendered = render_costs(cost_summary(tmp_path), ["a", "b"])
    assert "measured on 2 machines, not one" in rendered and "not decided by them" in rendered
    assert "within the target" not in rendered and "b: another CPU; 2 cores" in rendered


def test_no_ledger_says_so(tmp_path):
    assert "No run" in render_costs(cost_summary(tmp_path))
