"""dimred.utils.parallel: joblib sweeps keep the order of their tasks."""

import operator
import os

import numpy as np
import pytest

from dimred.utils.parallel import run_tasks


def test_run_tasks_returns_results_in_task_order_on_any_backend():
    tasks = [(i, 10 - i) for i in range(10)]
    expected = [i * (10 - i) for i in range(10)]
    assert run_tasks(operator.mul, tasks, "test", n_jobs=1, progress=False) == expected
    assert run_tasks(operator.mul, tasks, "test", n_jobs=2, progress=False) == expected


def test_run_tasks_sends_the_costliest_first_and_keeps_the_task_order():
    calls = []

    def record(i):
        calls.append(i)
        return -i

    costs = [1, 5, 2, 5, 0]
    tasks = [(i,) for i in range(5)]
    got = run_tasks(record, tasks, "test", n_jobs=1, progress=False, costs=costs)
    assert calls == [1, 3, 2, 0, 4]  # costliest first, equal costs in task order
    assert got == [0, -1, -2, -3, -4]
    both = run_tasks(operator.neg, tasks, "test", n_jobs=2, progress=False, costs=costs)
    assert both == got


@pytest.mark.parametrize(
    ("costs", "message"),
    [
        ([1, 2, 3], r"3 costs for 5 tasks; the last 2 tasks have no cost"),  # was IndexError
        ([1, 2, 3, 4, 5, 6, 7], r"7 costs for 5 tasks; the last 2 costs belong to no task"),
        ([1, 2, "big", 4, 5], r"the cost of task 2 is 'big'; costs must be finite numbers"),
        ([1, 2, None, 4, 5], r"the cost of task 2 is None; costs must be finite numbers"),
        ([1, np.nan, 3, 4, 5], r"the cost of task 1 is nan; costs must be finite numbers"),
    ],
)
def test_costs_must_be_one_finite_number_per_task(costs, message):
    # Before: IndexError (too few), a TypeError from inside the sort (not numbers),
    # and extra costs silently ignored.
    tasks = [(i,) for i in range(5)]
    with pytest.raises(ValueError, match=message):
        run_tasks(operator.neg, tasks, "test", n_jobs=1, progress=False, costs=costs)


def test_costs_may_be_any_sequence_of_numbers():
    tasks = [(i,) for i in range(4)]
    for costs in (np.array([3.0, 1.0, 2.0, 0.5]), (3, 1, 2, 0.5), iter([3, 1, 2, 0.5])):
        got = run_tasks(operator.neg, tasks, "test", n_jobs=1, progress=False, costs=costs)
        assert got == [0, -1, -2, -3]


def test_none_workers_are_every_available_core():
    from dimred.utils.parallel import available_cores, resolve_n_jobs

    assert available_cores() == len(os.sched_getaffinity(0)) >= 1
    assert resolve_n_jobs(None) == available_cores() and resolve_n_jobs(3) == 3
    for bad in (0, -1, 1.5, "2"):  # True is 1, as in scikit-learn
        with pytest.raises(ValueError, match="'n_jobs' parameter of resolve_n_jobs"):
            resolve_n_jobs(bad)


def test_a_sweep_log_records_only_while_it_is_open():
    import gc

    from dimred.utils import parallel

    log = parallel.record_sweeps()
    parallel.run_tasks(abs, [(-2,), (1,)], "abs", 1, progress=False, costs=[1, 2])
    (sweep,) = log.take()
    assert (sweep["sweep"], sweep["workers"]) == ("abs", 1) and log.take() == []
    assert [t["task"] for t in sweep["tasks"]] == [1, 0] and {
        t["worker"] for t in sweep["tasks"]
    } == {0}
    del log
    gc.collect()
    assert not parallel._LOGS
