"""The scaling model: list scheduling of the measured tasks, the kernel's parts in
sequence, the floor, and the AwA2 protocol's predicted operations."""

import itertools

import numpy as np
import pandas as pd
import pytest

from compendium import scaling


def _brute_makespan(seconds, workers):
    """The makespan of greedy list scheduling, by simulation in time steps of the tasks."""
    ends = [0.0] * workers
    for duration in seconds:
        worker = min(range(workers), key=lambda w: (ends[w], w))
        ends[worker] += duration
    return max(ends)


@pytest.mark.parametrize("workers", [1, 2, 3, 7])
def test_list_schedule_is_greedy_in_sending_order(workers):
    rng = np.random.default_rng(workers)
    for _ in range(20):
        seconds = rng.exponential(size=rng.integers(1, 30)).round(3)
        assert scaling.list_schedule(seconds, workers) == pytest.approx(
            _brute_makespan(seconds, workers)
        )
    assert scaling.list_schedule([5, 1, 1, 1, 1, 1], 2) == 5.0
    assert scaling.list_schedule([1, 1, 1, 1, 1, 5], 2) == 7.0  # the order matters
    assert scaling.list_schedule([], 4) == 0.0


def _ledger(sweep_seconds, kernel_s=10.0, cpu_of_kernel_step=20.0, workers=2, overhead=1.0):
    """A run of two steps: one in the kernel alone (2 cores busy), one with a sweep."""
    wall = scaling.list_schedule(sweep_seconds, workers) + overhead
    cost = pd.DataFrame(
        {
            "step": ["setup", "sweep"],
            "wall_s": [kernel_s, 3.0 + wall],
            "cpu_s": [cpu_of_kernel_step, 3.0 + sum(sweep_seconds)],
            "sweep_s": [0.0, wall],
            "cores": 2,
            "n_jobs": workers,
            "machine": "test",
        }
    )
    tasks = pd.DataFrame(
        {
            "step": "sweep",
            "sweep": "s",
            "sweep_index": 0,
            "workers": workers,
            "sweep_wall_s": wall,
            "position": range(len(sweep_seconds)),
            "task": range(len(sweep_seconds)),
            "seconds": sweep_seconds,
            "worker": [i % workers for i in range(len(sweep_seconds))],
        }
    )
    return cost, tasks


def test_the_run_is_predicted_at_its_own_workers_and_beyond():
    seconds = [4.0, 3.0, 2.0, 2.0, 1.0]
    cost, tasks = _ledger(seconds)
    assert scaling.predict(cost, tasks, 2)[0] == pytest.approx(cost["wall_s"].sum())
    # one core: the kernel step's two threads in sequence, every task in sequence
    one, floor = scaling.predict(cost, tasks, 1)
    assert one == pytest.approx(20.0 + 3.0 + sum(seconds) + 1.0)
    many, floor_many = scaling.predict(cost, tasks, 64)
    assert many == pytest.approx(10.0 + 3.0 + max(seconds) + 1.0) == floor == floor_many
    times = [scaling.predict(cost, tasks, w)[0] for w in scaling.WORKERS]
    assert all(a >= b for a, b in itertools.pairwise(times))


def test_the_table_sums_the_papers_and_marks_each_runs_own_measurement(tmp_path):
    for paper, seconds in (("bvp", [3.0, 1.0]), ("orml", [2.0, 2.0, 2.0])):
        cost, tasks = _ledger(seconds)
        (tmp_path / paper).mkdir()
        cost.to_csv(tmp_path / paper / "cost.csv", index=False)
        tasks.to_csv(tmp_path / paper / "tasks.csv", index=False)
    table = scaling.scaling_table(tmp_path)
    whole = table[table["paper"] == "compendium"].set_index("workers")
    parts = table[table["paper"] != "compendium"].groupby("workers")["predicted_min"].sum()
    np.testing.assert_allclose(whole["predicted_min"], parts, atol=0.01)
    assert whole["measured_min"].notna().sum() == 1 and whole["measured_min"].notna()[2]
    checked = scaling.check(tmp_path, tmp_path)
    assert (checked["deviation"].abs() < 1e-3).all()


def test_awa2_at_full_size_keeps_the_kernels_operations_in_sequence():
    protocol = pd.DataFrame(
        {
            "step": ["a", "b", "c", "total"],
            "operation": ["swept", "alone", "nothing", "sum"],
            "count": [4, 2, 0, 6],
            "predicted_s": [400.0, 600.0, 0.0, 1000.0],
            "workers": [2, 1, 2, np.nan],
        }
    )
    table = scaling.awa2_full_size(protocol, (1, 2, 4, 64)).set_index("workers")
    np.testing.assert_allclose(table["predicted_min"], np.array([1000, 800, 700, 700]) / 60, 0.01)
    assert (table["floor_min"] == round(700 / 60, 2)).all()
    assert set(table["largest_task"]) == {"swept"}


def test_write_refreshes_the_running_page_with_the_figure(tmp_path):
    figures = tmp_path / "figures"
    for paper, seconds in (("bvp", [3.0, 1.0]), ("orml", [2.0, 2.0, 2.0])):
        cost, tasks = _ledger(seconds)
        (figures / paper).mkdir(parents=True)
        cost.to_csv(figures / paper / "cost.csv", index=False)
        tasks.to_csv(figures / paper / "tasks.csv", index=False)
    pages = tmp_path / "docs"
    pages.mkdir()
    (pages / "running.md").write_text(f"before\n{scaling.BEGIN}\nold\n{scaling.END}\nafter\n")
    scaling.write(figures, figures, docs=pages)
    for name in ("scaling.csv", "scaling.png", "scaling_check.csv"):
        assert (figures / name).exists()
    running = (pages / "running.md").read_text()
    assert "old" not in running and "on 16 and" in running and running.endswith("after\n")
    assert "](../figures/scaling.png)" in running and "largest deviation 0.0%" in running


def test_a_sweep_run_with_fewer_workers_than_the_run_keeps_them():
    cost, tasks = _ledger([2.0, 2.0, 2.0], workers=1)
    cost["n_jobs"] = 2  # the run had two workers; this sweep asked for one
    assert scaling.predict(cost, tasks, 64)[0] == pytest.approx(cost["wall_s"].sum())
    cost["n_jobs"] = 1  # a run on one worker: the sweep goes wider with more
    assert scaling.predict(cost, tasks, 64)[0] == pytest.approx(10.0 + 3.0 + 2.0 + 1.0)
