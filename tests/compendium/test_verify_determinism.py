"""scripts/verify_determinism.py --reference: the working tree's tables against a revision's."""

import importlib.util
import subprocess

import pandas as pd
import pytest

from compendium import paths

SCRIPT = paths.ROOT / "scripts" / "verify_determinism.py"


@pytest.fixture(scope="module")
def verify():
    spec = importlib.util.spec_from_file_location("verify_determinism", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(folder, machine, accuracy, seconds):
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"step": ["a"], "wall_s": [seconds], "machine": [machine]}).to_csv(
        folder / "cost.csv", index=False
    )
    table = pd.DataFrame({"d": [2, 4], "accuracy": accuracy, "method": ["pca", "lda"]})
    table.to_csv(folder / "table.csv", index=False)


def _git(root, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root, check=True, capture_output=True,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("accuracy", "differs"),
    [([51.0, 62.0], False), ([51.0004, 62.0], False), ([51.0, 62.01], True)],
)
def test_reference_compares_the_tables_not_the_ledger(verify, tmp_path, accuracy, differs):
    """A cell that moves at the reported precision is a difference; one below it, or the
    ledger's times and machine, are not."""
    _git(tmp_path, "init", "-q")
    _write(tmp_path / "figures" / "paper", "machine A", [51.0, 62.0], 10.0)
    _git(tmp_path, "add", "figures")
    _git(tmp_path, "commit", "-q", "-m", "committed run")
    _write(tmp_path / "figures" / "paper", "machine B", accuracy, 99.0)

    lines, found = verify.against_revision("HEAD", ["paper"], 3, root=tmp_path)

    assert found is differs
    text = "\n".join(lines)
    assert "- paper, at HEAD: machine A" in text
    assert "- paper, this run: machine B" in text
    assert ("| paper | 1 | table.csv |" in text) is differs  # the ledger is not a table
    assert "cost.csv" not in text.split("| --- |")[-1]
    if differs:
        assert "- paper/table.csv: accuracy: 1 cells, max |diff| 0.01" in text
