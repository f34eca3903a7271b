"""dimred.utils.parallel: joblib sweeps keep the order of their tasks."""

import operator

from dimred.utils.parallel import run_tasks


def test_run_tasks_returns_results_in_task_order_on_any_backend():
    tasks = [(i, 10 - i) for i in range(10)]
    expected = [i * (10 - i) for i in range(10)]
    assert run_tasks(operator.mul, tasks, "test", n_jobs=1, progress=False) == expected
    assert run_tasks(operator.mul, tasks, "test", n_jobs=2, progress=False) == expected
