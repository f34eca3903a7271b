"""dimred.utils.parallel: joblib sweeps keep the order of their tasks."""

import operator

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
