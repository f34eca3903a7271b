"""The full runs of ``make figures`` read from the git history
(:mod:`compendium.run_history`)."""

import json
import shutil
import subprocess

import pandas as pd
import pytest

from compendium import paths
from compendium import run_history as rh
from compendium.ledger import COLUMNS
from compendium.pages import DOCS_DIR, RUNNING_PAGE, readme_block
from compendium.reporting import COST_DATA

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
PAPERS = ("alpha", "beta")
MACHINE = "Test CPU; 2 cores; 8 GiB; BLAS none; Python 3.11"


def _ledger_text(walls, machine=MACHINE):
    rows = [
        dict(zip(COLUMNS, (f"step {i}", wall, 2 * wall, 100.0, 1, True, 0.0), strict=True))
        for i, wall in enumerate(walls)
    ]
    frame = pd.DataFrame(rows).assign(machine=machine, cores=2, data=COST_DATA)
    return frame.to_csv(index=False)


def _notebook_text(**parameters):
    metadata = {"papermill": {"parameters": {"quick": False, "output_dir": "x", **parameters}}}
    return json.dumps({"cells": [], "metadata": metadata})


class Repo:
    """A git repository holding ``figures/<paper>/`` ledgers and published notebooks."""

    def __init__(self, root):
        self.root = root
        self.git("init", "-q")
        self.git("config", "user.email", "t@example.org")
        self.git("config", "user.name", "test")

    def git(self, *args):
        result = subprocess.run(["git", *args], cwd=self.root, check=True, capture_output=True)
        return result.stdout.decode().strip()

    def write(self, paper, walls, machine=MACHINE, **parameters):
        folder = self.root / "figures" / paper
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "cost.csv").write_text(_ledger_text(walls, machine))
        (folder / f"{paper}.ipynb").write_text(_notebook_text(**parameters))

    def commit(self, message):
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("log", "-1", "--format=%h")


@pytest.fixture
def repo(tmp_path):
    return Repo(tmp_path)


@needs_git
def test_full_runs_are_the_commits_that_change_every_ledger(repo):
    repo.write("alpha", [60.0, 120.0])
    repo.write("beta", [30.0])
    first = repo.commit("full run")
    repo.write("alpha", [90.0])
    repo.commit("alpha alone: not a full run")
    repo.write("alpha", [10.0])
    repo.write("beta", [10.0], n_rf_runs=10)
    repo.commit("a full run with other parameters: left out")
    repo.write("alpha", [20.0])
    repo.write("beta", [20.0], machine="Other CPU; 2 cores")
    repo.commit("two machines: left out")
    repo.write("alpha", [600.0])
    repo.write("beta", [1200.0])
    last = repo.commit("full run")
    repo.write("alpha", [6.0])
    repo.write("beta", [12.0])
    history = rh.full_runs(repo.root, PAPERS)
    assert list(history["run"].drop_duplicates()) == [first, last, rh.WORKING_TREE]
    walls = history.set_index(["run", "paper"])["wall_min"]
    assert walls[first, "alpha"] == 3.0 and walls[first, "beta"] == 0.5
    assert walls[last, "alpha"] == 10.0 and walls[last, "beta"] == 20.0
    assert walls[rh.WORKING_TREE, "alpha"] == 0.1
    cpus = history.set_index(["run", "paper"])["cpu_min"]
    assert cpus[first, "alpha"] == 6.0
    assert set(history["machine"]) == {MACHINE}


@needs_git
def test_the_working_tree_is_a_run_only_when_every_ledger_changed(repo):
    repo.write("alpha", [60.0])
    repo.write("beta", [60.0])
    commit = repo.commit("full run")
    repo.write("alpha", [120.0])
    assert list(rh.full_runs(repo.root, PAPERS)["run"].drop_duplicates()) == [commit]


def test_write_history_without_a_repository_writes_nothing(tmp_path):
    figures = tmp_path / "figures"
    figures.mkdir()
    page = tmp_path / RUNNING_PAGE
    page.write_text(f"{rh.HISTORY_BEGIN}\nkept\n{rh.HISTORY_END}\n")
    assert rh.write_history(figures, page, root=tmp_path) is None
    assert not list(figures.iterdir())
    assert "kept" in page.read_text()


@needs_git
def test_write_history_refreshes_the_page_it_is_given_and_no_other(repo, monkeypatch):
    repo.write("alpha", [60.0])
    repo.write("beta", [60.0])
    repo.commit("full run")
    monkeypatch.setattr(rh.depends, "papers", lambda root: PAPERS)
    out = repo.root / "out"
    (out / "figures").mkdir(parents=True)
    page = out / RUNNING_PAGE
    page.write_text(f"# Costs\n{rh.HISTORY_BEGIN}\nstale\n{rh.HISTORY_END}\nkept\n")
    report = rh.write_history(out / "figures", page, root=repo.root)
    assert report == out / "figures" / "cost_history.md"
    text = page.read_text()
    assert "stale" not in text and "1 full run at" in text and text.endswith("kept\n")
    page.write_text(f"# Costs\n{rh.HISTORY_BEGIN}\nstale\n{rh.HISTORY_END}\n")
    rh.write_history(out / "figures", root=repo.root)  # not the compendium's figures/: no page
    assert "stale" in page.read_text()
    page.write_text("# Costs, no block\n")
    with pytest.raises(ValueError, match="no block"):
        rh.write_history(out / "figures", page, root=repo.root)


def _history(totals):
    rows = []
    for i, (alpha, beta) in enumerate(totals):
        for paper, wall in (("alpha", alpha), ("beta", beta)):
            rows.append(
                {"run": f"c{i}", "date": f"2026-01-0{i + 1}T10:00:00+00:00", "paper": paper,
                 "wall_min": wall, "cpu_min": 2 * wall, "cores": 2, "machine": MACHINE,
                 "data": COST_DATA}
            )  # fmt: skip
    return pd.DataFrame(rows, columns=list(rh.HISTORY_COLUMNS))


def test_render_history_sums_counts_and_compares_the_last_two():
    text = rh.render_history(_history([(60.0, 40.0), (50.0, 35.0), (52.0, 30.5)]), 90)
    table, _, sentence = text.partition("\n\n")
    lines = table.splitlines()
    assert [line.split("|")[1].strip() for line in lines[2:]] == ["c0", "c1", "c2"]
    assert [float(line.split("|")[5]) for line in lines[2:]] == [100.0, 85.0, 82.5]
    assert [float(line.split("|")[6]) for line in lines[2:]] == [200.0, 170.0, 165.0]
    assert "3 full runs" in sentence and "2 within the target of 90 min" in sentence
    assert "moved by -2.5 min (85.0 to 82.5)" in sentence
    assert "each paper by -4.5 to +2.0 min (largest: beta)" in sentence
    assert MACHINE in sentence


def test_render_history_of_one_run_or_none():
    assert "1 full run at" in rh.render_history(_history([(60.0, 40.0)]), 90)
    assert "No full run" in rh.render_history(_history([]), 90)


def test_committed_history_is_what_the_running_page_says():
    """The run history of ``docs/running.md`` is ``figures/cost_history.csv``, number for
    number."""
    history = rh.read_history(paths.FIGURES_DIR / "cost_history.csv")
    assert len(history) and (history["data"] == COST_DATA).all()
    block = readme_block((DOCS_DIR / RUNNING_PAGE).read_text(), rh.HISTORY_BEGIN, rh.HISTORY_END)
    assert block == rh.render_history(history), (
        "docs/running.md and cost_history.csv differ: make figures"
    )
