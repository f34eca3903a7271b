"""What a user running ``make <paper>`` sees: ``make help``, the data check before a
notebook starts, a line per step, the closing line, and a notebook's failure in a few lines.

No network is used: the check's requests go to a closed port on 127.0.0.1 (a proxy
that refuses connections stands for no network).
"""

import io
import os
import re
import shutil
import socket
import subprocess

import nbformat
import pandas as pd
import pytest
from papermill.exceptions import PapermillExecutionError

from compendium import notebooks, paths, step_lines
from compendium.publishing import tagged
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
    assert "make bvp FORCE=1, make figures FORCE=1" in text
    assert 'make lab LAB_ARGS="--no-browser --port 8890 --ip 0.0.0.0"' in text


# ------------------------------------------------------------------------- a line per step
def test_a_step_is_named_after_what_its_cell_calls():
    def name(source):
        return step_lines.step_name(source, {"bvp"})

    assert name("report.show(bvp.table1_artefacts(real, published));") == "table1"
    assert name("sweeps = bvp.tsne_sweeps(p)\nreport.show(bvp.sweep_artefacts(sweeps));") == (
        "tsne_sweeps, sweep"
    )
    assert name("p = bvp.params(quick)\nreport = Report(output_dir)\np") == "setup"
    assert name("reproduction = report.write()") == "report.write"
    assert name("p") is None and name("%matplotlib inline") is None


def run_steps(paper, failing=None):
    """The lines the step hooks of ``paper`` write when its code cells run, the cells whose
    source holds ``failing`` with an error."""
    stream = io.StringIO()
    notebook = notebooks.notebook_path(paper)
    hooks = step_lines.step_hooks(paper, notebook, step_lines.Terminal(stream))
    cells = nbformat.read(notebooks.notebook_path(paper), as_version=4).cells
    for index, cell in enumerate(cells):
        if cell.cell_type == "code":
            hooks["on_cell_execute"](cell=cell, cell_index=index)
            status = "error" if failing and failing in cell.source else "ok"
            reply = {"content": {"status": status}}
            hooks["on_cell_executed"](cell=cell, cell_index=index, execute_reply=reply)
    return stream.getvalue().splitlines()


@pytest.mark.parametrize("paper", PAPERS)
def test_each_step_of_a_notebook_ends_with_a_line_of_its_own(paper):
    lines = run_steps(paper)
    cells = nbformat.read(notebooks.notebook_path(paper), as_version=4).cells
    steps = [c for c in cells if c.cell_type == "code" and not tagged(c, "parameters")]
    assert len(lines) == len(steps), "a line per code cell but the parameters"
    names = [re.fullmatch(rf"{paper}: (.+) \.\.\. \d+\.\d s", line).group(1) for line in lines]
    assert names[0] == "setup"
    assert len(set(names)) == len(names), "each step has a name of its own"
    assert not any(name.startswith("cell ") for name in names), "named after what it calls"


def test_a_failed_step_says_so():
    lines = run_steps("bvp", failing="table1_artefacts")
    assert re.fullmatch(r"bvp: table1 \.\.\. failed after \d+\.\d s", lines[1])


def test_a_step_line_starts_a_line_of_its_own():
    stream = io.StringIO()
    terminal = step_lines.Terminal(stream)
    terminal.write("sweep:  50%|#####     | 1/2\r")
    terminal.line(step_lines.step_line("bvp", "tsne_sweeps, sweep", 245.4))
    terminal.write("fold draws: 100%|##########| 2/2\n")
    terminal.line(step_lines.step_line("bvp", "fold_draws", 12.34))
    assert stream.getvalue().splitlines()[1:] == [
        "bvp: tsne_sweeps, sweep ... 4 min 05 s",
        "fold draws: 100%|##########| 2/2",
        "bvp: fold_draws ... 12.3 s",
    ]


@pytest.mark.notebook
def test_papermill_calls_the_step_hooks(tmp_path, monkeypatch, capsys):
    """A two-step notebook run by :func:`notebooks.execute`: the lines come from the run."""
    cells = [nbformat.v4.new_code_cell('quick = False\noutput_dir = "."')]
    cells[0].metadata["tags"] = ["parameters"]
    cells += [nbformat.v4.new_code_cell(code) for code in ("import time\ntime.sleep(0.2)", "1/0")]
    source = tmp_path / "tiny.ipynb"
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": kernel}), source)
    monkeypatch.setattr(notebooks, "notebook_path", lambda paper: source)
    with pytest.raises(PapermillExecutionError) as failed:
        notebooks.execute("tiny", tmp_path / "out", tmp_path / "run.ipynb")
    lines = capsys.readouterr().err.splitlines()
    slept = re.fullmatch(r"tiny: time\.sleep \.\.\. (\d+\.\d) s", lines[0])
    assert slept and float(slept[1]) >= 0.2, lines[0]
    cell = failed.value.exec_count  # as the failure names it
    assert re.fullmatch(rf"tiny: cell {cell} \.\.\. failed after \d+\.\d s", lines[1])


# ---------------------------------------------------------------------------- closing line
def write_reproduction(folder, statuses):
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"status": statuses}).to_csv(folder / "reproduction.csv", index=False)


def test_the_closing_line_counts_the_statuses_and_names_the_outputs(tmp_path):
    out = tmp_path / "build" / "quick" / "figures" / "bvp"
    write_reproduction(out, ["match"] * 3 + ["deviates"] + ["setting"] * 2)
    assert step_lines.closing_lines("bvp", out, 245.4) == [
        f"bvp: done in 4 min 05 s: 3 match, 0 within_error, 1 deviates, 0 not_reproducible "
        f"(and 2 settings); outputs in {out}"
    ]
    quick = step_lines.closing_lines("bvp", out, 12.34, quick=True)
    assert quick[0].startswith("bvp: done in 12.3 s: 3 match, ")
    assert quick[1:] == [
        "bvp: quick parameter set: its numbers differ from those of the committed full run "
        "in figures/bvp"
    ]


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
    def run(paper, out, executed, *args):
        write_reproduction(out, ["match", "within_error"])
        return finished_run(paper, executed)

    monkeypatch.setattr(notebooks, "missing_data", lambda paper: None)
    monkeypatch.setattr(notebooks, "execute", run)
    out = tmp_path / "figures"
    status = notebooks.main(["bvp", str(out), "--executed", str(tmp_path / "run.ipynb"), "--quick"])
    published = out / "bvp.ipynb"
    assert status == 0 and published.is_file()
    assert str(paths.ROOT) not in published.read_text()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "bvp: executing notebooks/bvp.ipynb (quick parameter set)"
    assert re.fullmatch(
        rf"bvp: done in \d+\.\d s: 1 match, 1 within_error, .*; outputs in {re.escape(str(out))}",
        lines[1],
    )
    assert lines[2].startswith("bvp: quick parameter set: ")


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
