"""The sweeps on a dask cluster give the tables of the local run, byte for byte.

A ``LocalCluster`` with two worker processes stands in for a real cluster (the same
scheduler, workers and transfers as ``make figures DASK_SCHEDULER=tcp://host:8786``).
Two papers' quick sweeps run through it, as their notebooks run them: BVP's t-SNE sweeps
over perplexities and draws, and the relevance paper's Fig. 2 draws of set1; and the
metrical paper's random-forest runs (its discard curves, on a small mixed frame). Their
tables are written by :class:`~compendium.reporting.Report` and compared, byte
for byte, with those of the same steps run in local joblib workers.
"""

import numpy as np
import pandas as pd
import pytest

from compendium.ledger import LEDGER_TABLES
from compendium.published import load_published
from compendium.reporting import Artefacts, Report
from dimred.utils.parallel import SCHEDULER_VARIABLE, run_tasks, scheduler_client, use_scheduler
from papers import bvp
from papers import relevance_learning as relevance
from papers.metrical_importance.discard import discard_curves, with_reverses

#: A LocalCluster of two workers: the dask tier (`-m dask`).
pytestmark = pytest.mark.dask

distributed = pytest.importorskip("distributed")


def _bvp_sweeps():
    p = bvp.params(quick=True)
    return bvp.sweep_artefacts(bvp.tsne_sweeps(p), load_published(bvp.PAPER))


def _relevance_draws():
    p = relevance.params(quick=True)
    return relevance.figure2_draws(None, load_published(relevance.PAPER), p)


def _metrical_forest_runs():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(200) < 0.3, "rare", "common")
    X = pd.DataFrame(
        {
            "signal": (y == "rare") + rng.normal(size=200),
            "level": pd.Categorical(rng.choice(["u", "v", "w"], 200)),
            "noise": rng.normal(size=200),
        }
    )
    orders = with_reverses({"good": [2, 1, 0]})
    categorical = np.array([False, True, False])
    curves = discard_curves(
        X, y, orders, categorical, classifiers=["random_forest"], n_rf_runs=4, progress=False
    )
    return Artefacts(tables={"forest_runs": curves.runs}, data="synthetic (mixed frame)")


STEPS = {
    "bvp": _bvp_sweeps,
    "metrical_importance": _metrical_forest_runs,
    "relevance_learning": _relevance_draws,
}


def _tables(step, folder):
    """Run ``step``, write its artefacts through a Report, return every CSV's bytes."""
    report = Report(folder, display=False)
    report.show(step())
    report.write()
    return {
        csv.name: csv.read_bytes()
        for csv in sorted(folder.glob("*.csv"))
        if csv.stem not in LEDGER_TABLES
    }


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as connected:
        yield connected
    use_scheduler(None)


@pytest.mark.parametrize("paper", sorted(STEPS))
def test_cluster_tables_equal_local_tables(paper, client, tmp_path):
    use_scheduler(None)
    local = _tables(STEPS[paper], tmp_path / "local")
    use_scheduler(client)
    try:
        with distributed.get_task_stream(client) as stream:
            remote = _tables(STEPS[paper], tmp_path / "cluster")
    finally:
        use_scheduler(None)
    workers = {task["worker"] for task in stream.data}
    assert len(workers) == 2, "both cluster workers ran tasks"
    assert local.keys() == remote.keys() and len(local) >= 2
    for name, content in local.items():
        assert remote[name] == content, f"{paper}: {name} differs between local and cluster"


def test_scheduler_from_the_environment(client, monkeypatch):
    """``DASK_SCHEDULER`` (what ``make figures DASK_SCHEDULER=...`` sets for the kernels)
    sends the tasks to that scheduler without any call in the notebook."""
    use_scheduler(None)
    monkeypatch.setenv(SCHEDULER_VARIABLE, client.scheduler.address)
    try:
        with distributed.get_task_stream(client) as stream:
            assert run_tasks(pow, [(2, k) for k in range(6)], "powers", 1, False)[-1] == 32
        assert len(stream.data) >= 1
    finally:
        monkeypatch.delenv(SCHEDULER_VARIABLE)
        use_scheduler(None)


def test_scheduler_address_and_back_to_local(client):
    """An address connects a client of our own (closed on the way back to local)."""
    connected = use_scheduler(client.scheduler.address)
    try:
        assert scheduler_client() is connected and connected is not client
        assert run_tasks(pow, [(2, 3), (3, 2)], "powers", n_jobs=1, progress=False) == [8, 9]
    finally:
        assert use_scheduler(None) is None
    assert connected.status == "closed" and scheduler_client() is None
    assert run_tasks(pow, [(2, 5)], "powers", n_jobs=1, progress=False) == [32]
