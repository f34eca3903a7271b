"""What a user running ``make <paper>`` sees: ``make help``, the data check before a
notebook starts, and a notebook's failure in a few lines.

No network is used: the check's requests go to a closed port on 127.0.0.1 (a proxy
that refuses connections stands for no network).
"""

import os
import re
import shutil
import socket
import subprocess

import nbformat
import pytest
from papermill.exceptions import PapermillExecutionError

from compendium import notebooks, paths
from papers import PAPERS

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def restore_mirror_variable(monkeypatch):
    """Undo, after each test, the ``DIMRED_DATA_MIRROR`` an entry point sets when it adopts
    ``../shared/data`` (:func:`~dimred.datasets.locations.adopt_shared_mirror`)."""
    original = os.environ.get("DIMRED_DATA_MIRROR")
    monkeypatch.setenv("DIMRED_DATA_MIRROR", original or "")  # recorded: restored after
    if original is None:
        monkeypatch.delenv("DIMRED_DATA_MIRROR")


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_help_lists_every_target():
    result = subprocess.run(
        ["make", "-s", "help"], cwd=paths.ROOT, capture_output=True, text=True, check=True
    )
    text = ANSI.sub("", result.stdout)
    listed = {line.split()[0] for line in text.splitlines() if line}
    makefile = (paths.ROOT / "Makefile").read_text()
    documented = set(re.findall(r"^([a-zA-Z0-9_-]+):.*## ", makefile, re.M))
    assert {"figures", "test", "test-fast", "env", "book", "lab"} <= documented
    assert documented <= listed  # `make help` shows every documented target ...
    one_paper = next(line for line in text.splitlines() if "make <paper>" in line)
    assert one_paper.split(":")[-1].split() == list(PAPERS)  # ... and every paper's target


@pytest.fixture
def no_data(tmp_path, monkeypatch):
    """An empty cache, an empty mirror, and every request sent to a proxy that refuses."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}"
    (tmp_path / "mirror").mkdir()
    monkeypatch.setenv("DIMRED_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(tmp_path / "mirror"))
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, closed)
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def never(*args, **kwargs):
    raise AssertionError("the notebook was started")


def test_missing_data_stops_a_paper_before_it_starts(no_data, monkeypatch, capsys):
    monkeypatch.setattr(notebooks, "execute", never)
    status = notebooks.main(["bvp", str(no_data / "out"), "--quick"])
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert status == 2
    assert lines[0] == (
        "bvp: not started: 12 of the 12 data files it needs can be obtained from no source."
    )
    assert lines[1] == (
        f"  Looked in: the cache {no_data / 'cache'}; mirror {no_data / 'mirror'}; "
        "the canonical URLs."
    )
    assert lines[2:5] == ["  orca-ordinal: 12 files missing", "    cache: not found",
                          "    mirror: not found"]  # fmt: skip
    assert lines[5].startswith("    download from raw.githubusercontent.com: unreachable (")
    assert "Two ways to get them:" in lines and "Traceback" not in err


def test_optional_data_does_not_stop_a_paper(no_data):
    """AwA2 (optional, with a stand-in) is not required; Fashion-MNIST, the stand-in, is."""
    message = notebooks.missing_data("awa2_dr_survey")
    assert "fashion-mnist: 4 files missing" in message and "awa2-resnet101" not in message


def failing(*args, **kwargs):
    raise PapermillExecutionError(
        cell_index=3, exec_count=7, source="load()", ename="DataDownloadError",
        evalue="orca-ordinal/x: download from https://x failed", traceback=["TRACEBACK LINE"],
    )  # fmt: skip


def test_a_failed_notebook_is_told_in_three_lines(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(notebooks, "missing_data", lambda paper: None)
    monkeypatch.setattr(notebooks, "execute", failing)
    monkeypatch.delenv("DIMRED_TRACEBACK", raising=False)
    executed = tmp_path / "bvp.ipynb"
    status = notebooks.main(["bvp", str(tmp_path), "--executed", str(executed)])
    lines = capsys.readouterr().err.splitlines()
    assert status == 1 and lines[1:] == [
        "bvp: the notebook failed in cell 7: DataDownloadError: orca-ordinal/x: download from "
        "https://x failed",
        f"The executed notebook, with the full traceback: {executed}",
        "(--traceback or DIMRED_TRACEBACK=1 prints the traceback here.)",
    ]
    with pytest.raises(PapermillExecutionError):
        notebooks.main(["bvp", str(tmp_path), "--traceback"])
    monkeypatch.setenv("DIMRED_TRACEBACK", "1")
    with pytest.raises(PapermillExecutionError):
        notebooks.main(["bvp", str(tmp_path)])


def finished_run(paper, path):
    """A finished papermill run of ``notebooks/<paper>.ipynb`` (no outputs), written to ``path``."""
    notebook = nbformat.read(notebooks.notebook_path(paper), as_version=4)
    injected = nbformat.v4.new_code_cell(f'output_dir = "{paths.ROOT}/figures/{paper}"')
    injected.metadata["tags"] = ["injected-parameters"]
    at = next(
        i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", [])
    )
    notebook.cells.insert(at + 1, injected)
    notebook.metadata["papermill"] = {"end_time": "2026-01-01T00:00:00", "exception": None}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return notebook


def test_a_successful_run_is_published_beside_its_figures(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(notebooks, "missing_data", lambda paper: None)
    monkeypatch.setattr(
        notebooks, "execute", lambda paper, out, executed, *args: finished_run(paper, executed)
    )
    status = notebooks.main(
        ["bvp", str(tmp_path / "figures"), "--executed", str(tmp_path / "run.ipynb")]
    )
    published = tmp_path / "figures" / "bvp.ipynb"
    assert status == 0 and published.is_file()
    assert str(paths.ROOT) not in published.read_text()
    assert "bvp: done" in capsys.readouterr().err


def test_publish_command_publishes_finished_runs_and_names_the_rest(tmp_path, capsys):
    finished_run("bvp", tmp_path / "build" / "bvp.ipynb")
    unfinished = finished_run("orml", tmp_path / "build" / "orml.ipynb")
    unfinished.metadata["papermill"]["end_time"] = None
    nbformat.write(unfinished, tmp_path / "build" / "orml.ipynb")
    argv = ["publish", "bvp", "orml", "metrical_importance"]
    argv += ["--build", str(tmp_path / "build"), "--figures", str(tmp_path / "figures")]
    assert notebooks.main(argv) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == f"bvp: published {tmp_path / 'figures' / 'bvp' / 'bvp.ipynb'}"
    assert lines[1].startswith("orml: not published: ") and "did not finish" in lines[1]
    assert lines[2].startswith("metrical_importance: not published: ")
    assert (tmp_path / "figures" / "bvp" / "bvp.ipynb").is_file()
    assert not (tmp_path / "figures" / "orml").exists()
