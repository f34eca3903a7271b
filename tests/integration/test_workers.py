"""Every core by default, shared among the papers ``make -jK`` runs at once, and tables
that do not depend on the number of workers."""

import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest
from scratch_make import scratch_copy

from compendium.ledger import LEDGER_TABLES

CORES = len(os.sched_getaffinity(0))


def _runs(root, *arguments, seconds=0):
    """``make -s arguments`` in the scratch copy: ``{paper: (start, end, arguments)}``."""
    log = root / "runs.log.args"
    log.unlink(missing_ok=True)
    env = {**os.environ, "VIRTUAL_ENV": str(root), "RUNS": str(root / "runs.log")}
    env["RUN_SECONDS"] = str(seconds)
    command = ["make", "-s", f"PYTHON={root / 'python'}", "FORCE=1", *arguments]
    subprocess.run(command, cwd=root, env=env, check=True, capture_output=True, text=True)
    starts, ends = {}, {}
    for line in log.read_text().splitlines():
        kind, stamp, *rest = line.split()
        if kind == "start":
            starts[rest[2]] = (float(stamp), rest)
        else:
            ends[rest[0]] = float(stamp)
    return {paper: (start, ends[paper], args) for paper, (start, args) in starts.items()}


def _n_jobs(arguments):
    """The ``-p n_jobs N`` the runner was given (None: the notebook's default)."""
    pairs = [arguments[i + 1 : i + 3] for i, a in enumerate(arguments) if a == "-p"]
    return next((int(value) for name, value in pairs if name == "n_jobs"), None)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_shares_the_cores_among_the_papers_it_runs_at_once(tmp_path):
    root = scratch_copy(tmp_path)
    alone = _runs(root, "QUICK=1", "bvp", "orml")
    assert {p: _n_jobs(a) for p, (_, _, a) in alone.items()} == {"bvp": None, "orml": None}
    both = _runs(root, "-j2", "QUICK=1", "bvp", "orml", seconds=1)
    assert {p: _n_jobs(a) for p, (_, _, a) in both.items()} == dict.fromkeys(
        ("bvp", "orml"), max(1, CORES // 2)
    )
    (start_a, end_a, _), (start_b, end_b, _) = both.values()
    assert max(start_a, start_b) < min(end_a, end_b), "make -j2 ran the two papers at once"
    unlimited = _runs(root, "-j", "QUICK=1", "bvp", "orml")
    assert {_n_jobs(a) for _, _, a in unlimited.values()} == {1}
    given = _runs(root, "-j2", "N_JOBS=3", "QUICK=1", "bvp")
    assert _n_jobs(given["bvp"][2]) == 3


@pytest.mark.notebook
@pytest.mark.parametrize("paper", ["bvp", "orml"])
def test_tables_are_the_same_for_any_number_of_workers(paper, quick_run):
    """The quick sweeps with one worker and with two give the same tables, byte for
    byte (the ledger, a measurement of the run, aside)."""
    one, _ = quick_run(paper, n_jobs=1)
    two, _ = quick_run(paper, n_jobs=2)
    tables = sorted(p.name for p in two.glob("*.csv") if p.stem not in LEDGER_TABLES)
    assert tables == sorted(p.name for p in one.glob("*.csv") if p.stem not in LEDGER_TABLES)
    assert len(tables) > 3
    for name in tables:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    for folder, n_jobs in ((one, 1), (two, 2)):
        assert set(pd.read_csv(folder / "cost.csv")["n_jobs"]) == {n_jobs}
        tasks = pd.read_csv(folder / "tasks.csv")
        assert len(tasks) and set(tasks["workers"]) == {n_jobs}


def test_the_default_is_every_core_the_process_may_use():
    """Under ``taskset`` the notebooks' default follows the affinity mask."""
    code = "from papers import orml; print(orml.params(True).n_jobs)"
    if shutil.which("taskset") is None:
        pytest.skip("needs taskset")
    done = subprocess.run(
        ["taskset", "-c", "0", sys.executable, "-c", code], capture_output=True, text=True
    )
    assert done.stdout.strip() == "1", done.stderr
