"""JupyterLab leaves tracked files alone, and ``make`` reruns a paper only when its code changed.

``compendium.lab`` saves a source notebook as committed and never saves over a
published one, which it serves as it is on disk; ``make lab`` starts no kernel when a
notebook opens. ``compendium.cells`` stamps a notebook's code, and the Makefile's
rule for a paper depends on that stamp: checked here with the real Makefile in a scratch
copy of the tree, where a stand-in interpreter records each notebook run instead of doing it;
``make`` says when a paper is up to date, and ``FORCE=1`` runs it anyway.
"""

import asyncio
import copy
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import pytest
from scratch_make import make_runs, make_says, scratch_copy
from test_book import browser  # noqa: F401  (the fixture: headless Chromium)

from compendium import cells, lab, paths
from papers import PAPERS

SOURCE = paths.ROOT / "notebooks" / "bvp.ipynb"


def read(path):
    """A notebook as JupyterLab holds it (sources as strings)."""
    return nbformat.read(path, as_version=4)


def as_jupyterlab_saves(notebook):
    """``notebook`` as JupyterLab sends it after a run: kernel metadata, outputs, counts,
    cell metadata of its own."""
    notebook = copy.deepcopy(notebook)
    notebook["metadata"]["kernelspec"]["display_name"] = "Python 3 (ipykernel)"
    notebook["metadata"]["language_info"] = {"name": "python", "version": "3.11.7"}
    notebook["metadata"]["widgets"] = {"state": {}}
    for number, cell in enumerate(notebook["cells"]):
        cell["metadata"].update(collapsed=False, tags=cell["metadata"].get("tags", []))
        if cell["cell_type"] == "code":
            cell["execution_count"] = number
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
    return notebook


def first_code_cell(notebook):
    return next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")


# --------------------------------------------------------------------------- code stamps
def test_code_digest_ignores_all_but_the_code(tmp_path):
    original = read(SOURCE)
    saved = as_jupyterlab_saves(original)
    saved["cells"][0]["source"] = "# Another title\n"  # prose: no input of the run
    path = tmp_path / "saved.ipynb"
    path.write_text(json.dumps(saved))
    assert cells.code_digest(path) == cells.code_digest(SOURCE)
    for change in ("source", "tags"):
        edited = copy.deepcopy(original)
        cell = first_code_cell(edited)
        if change == "source":
            cell["source"] = "quick = True\n"
        else:
            cell["metadata"]["tags"] = []
        path.write_text(json.dumps(edited))
        assert cells.code_digest(path) != cells.code_digest(SOURCE), change


def test_stamp_is_rewritten_only_when_the_code_changes(tmp_path):
    notebook, stamp = tmp_path / "paper.ipynb", tmp_path / "stamps" / "paper.code"
    shutil.copyfile(SOURCE, notebook)
    assert cells.write_stamp(notebook, stamp)
    assert stamp.stat().st_mtime == 0, "a first stamp claims no change"
    assert not cells.write_stamp(notebook, stamp)
    edited = read(notebook)
    first_code_cell(edited)["source"] = "quick = True\n"
    notebook.write_text(json.dumps(edited))
    assert cells.write_stamp(notebook, stamp)
    assert stamp.stat().st_mtime > 0
    assert stamp.read_text() == cells.code_digest(notebook) + "\n"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_reruns_a_paper_only_when_its_code_changed(tmp_path):
    root = scratch_copy(tmp_path)
    notebook = root / "notebooks" / "bvp.ipynb"

    def make():
        return make_runs(root, "bvp")

    assert make() == ["bvp"]  # first build
    assert make() == []
    saved = as_jupyterlab_saves(read(notebook))
    saved["cells"][0]["source"] += "\nA sentence more.\n"
    notebook.write_text(json.dumps(saved))
    assert make() == [], "metadata, outputs and prose rerun nothing"
    first_code_cell(saved)["source"] += "\nseed = 1\n"
    notebook.write_text(json.dumps(saved))
    assert make() == ["bvp"], "a code change reruns the paper"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_says_a_paper_is_up_to_date_and_force_runs_it_anyway(tmp_path):
    root = scratch_copy(tmp_path)
    assert make_says(root, "bvp") == (["bvp"], [])  # the runner says what it does
    up_to_date = "bvp: up to date (figures/bvp; make bvp FORCE=1 runs it again)"
    assert make_says(root, "bvp") == ([], [up_to_date])
    assert make_says(root, "bvp", "FORCE=1") == (["bvp"], [])
    assert make_says(root, "QUICK=1", "bvp") == (["bvp"], [])
    assert make_says(root, "QUICK=1", "bvp")[1] == [
        "bvp: up to date (build/quick/figures/bvp; make bvp QUICK=1 FORCE=1 runs it again)"
    ]
    ran, said = make_says(root, "figures")
    assert [run for run in ran if run in PAPERS] == sorted(set(PAPERS) - {"bvp"})
    assert said == [up_to_date]
    ran, said = make_says(root, "figures")
    assert not set(ran) & set(PAPERS) and said == [
        f"{paper}: up to date (figures/{paper}; make {paper} FORCE=1 runs it again)"
        for paper in PAPERS
    ]
    ran, said = make_says(root, "figures", "FORCE=1")
    assert [run for run in ran if run in PAPERS] == sorted(PAPERS) and said == []


# ------------------------------------------------------------------------------- JupyterLab
@pytest.fixture
def lab_tree(tmp_path):
    """A root with a source notebook, its .py twin and a published notebook."""
    (tmp_path / "notebooks").mkdir()
    for suffix in (".ipynb", ".py"):
        shutil.copyfile(SOURCE.with_suffix(suffix), tmp_path / "notebooks" / f"bvp{suffix}")
    (tmp_path / "figures" / "bvp").mkdir(parents=True)
    shutil.copyfile(SOURCE, tmp_path / "figures" / "bvp" / "bvp.ipynb")
    return tmp_path


def save(root, path, notebook):
    manager = lab.CompendiumContentsManager(root_dir=str(root))
    model = {"type": "notebook", "format": "json", "content": notebook}
    return asyncio.run(manager.save(model, path))


@pytest.mark.parametrize("opened", ["bvp.ipynb", "bvp.py"])
def test_saving_a_run_source_notebook_leaves_its_files_unchanged(lab_tree, opened):
    saved = as_jupyterlab_saves(read(SOURCE))
    save(lab_tree, f"notebooks/{opened}", saved)
    for suffix in (".ipynb", ".py"):
        written = (lab_tree / "notebooks" / f"bvp{suffix}").read_bytes()
        assert written == SOURCE.with_suffix(suffix).read_bytes(), suffix


def test_an_edited_cell_is_saved_in_both_twins(lab_tree):
    saved = as_jupyterlab_saves(read(SOURCE))
    first_code_cell(saved)["source"] += "\nseed = 1"
    save(lab_tree, "notebooks/bvp.ipynb", saved)
    notebook = lab_tree / "notebooks" / "bvp.ipynb"
    assert "seed = 1" in first_code_cell(read(notebook))["source"]
    assert "seed = 1" in notebook.with_suffix(".py").read_text()
    assert cells.code_digest(notebook) != cells.code_digest(SOURCE)


def test_a_published_notebook_is_served_as_it_is_on_disk(lab_tree):
    """Nothing the contents manager serves differs from the file (but the cells' trust, which
    JupyterLab reads and never saves), so opening it changes nothing: a published notebook is
    marked unsaved only when a kernel starts and rewrites its kernel metadata."""
    published = lab_tree / "figures" / "bvp" / "bvp.ipynb"
    shutil.copyfile(paths.FIGURES_DIR / "bvp" / "bvp.ipynb", published)
    manager = lab.CompendiumContentsManager(root_dir=str(lab_tree))
    model = asyncio.run(manager.get("figures/bvp/bvp.ipynb"))
    served = nbformat.from_dict(model["content"])
    for cell in served.cells:
        cell.metadata.pop("trusted", None)
    assert model["writable"] is False and model.get("message") is None
    assert served == read(published)


def test_published_notebooks_are_read_only(lab_tree):
    from tornado.web import HTTPError

    manager = lab.CompendiumContentsManager(root_dir=str(lab_tree))
    model = asyncio.run(manager.get("figures/bvp/bvp.ipynb", content=False))
    assert model["writable"] is False
    with pytest.raises(HTTPError) as raised:
        save(lab_tree, "figures/bvp/bvp.ipynb", read(SOURCE))
    assert raised.value.status_code == 403
    assert (lab_tree / "figures" / "bvp" / "bvp.ipynb").read_bytes() == SOURCE.read_bytes()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_lab_serves_the_repository_root_with_the_compendium_manager():
    """The root, the compendium's manager, no kernel started on opening, then LAB_ARGS."""
    from jupyterlab.labapp import LabApp

    extra = "--no-browser --port 8890 --ip 0.0.0.0"
    printed = subprocess.run(
        ["make", "-n", "--no-print-directory", "lab", "PYTHON=python", f"LAB_ARGS={extra}"],
        cwd=paths.ROOT,
        env={**os.environ, "VIRTUAL_ENV": str(paths.ROOT / ".venv")},  # no .venv recipe
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    command = printed.replace("\\\n", " ").split()
    assert command[:4] == ["python", "-m", "jupyter", "lab"]
    assert command[4:] == [
        "--ServerApp.root_dir=.",
        "--ServerApp.contents_manager_class=compendium.lab.CompendiumContentsManager",
        "--LabApp.notebook_starts_kernel=False",
        *extra.split(),
    ]
    assert "notebook_starts_kernel" in LabApp.class_trait_names()  # JupyterLab's page option


@pytest.fixture
def make_lab(tmp_path):
    """``make lab`` in a scratch copy of the tree with a published notebook (Jupyter's
    settings and state in ``tmp_path``): a function of ``LAB_STARTS_KERNEL`` that starts it
    and returns its URL (token ``check``)."""
    root = scratch_copy(tmp_path / "root")
    published = root / "figures" / "bvp" / "bvp.ipynb"
    published.parent.mkdir(parents=True)
    shutil.copyfile(paths.FIGURES_DIR / "bvp" / "bvp.ipynb", published)
    folders = ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR")
    state = {name: str(tmp_path / name) for name in (*folders, "JUPYTERLAB_WORKSPACES_DIR")}
    started = []

    def start(starts_kernel):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        extra = f"--no-browser --port {port} --IdentityProvider.token=check"
        extra += " --allow-root" if os.geteuid() == 0 else ""
        command = ["make", "-s", "lab", f"PYTHON={sys.executable}", f"LAB_ARGS={extra}"]
        command.append(f"LAB_STARTS_KERNEL={starts_kernel}")
        env = {**os.environ, **state, "VIRTUAL_ENV": str(root)}
        started.append(
            subprocess.Popen(
                command,
                cwd=root,
                env=env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        url = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status?token=check", timeout=2)
                return url
            except OSError:
                time.sleep(0.5)
        raise AssertionError("make lab did not answer within a minute")

    yield start
    for server in started:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def opened(driver, url, path, settle=8):
    """Open ``path`` in JupyterLab at ``url``; once its cells show and ``settle`` seconds
    more (a kernel starting on opening has answered by then), whether its tab is marked
    unsaved and the kernels of the server's sessions."""
    driver.get(f"{url}/lab/tree/{path}?token=check&reset")
    for _ in range(120):
        if driver.execute_script("return document.querySelectorAll('.jp-Cell').length"):
            break
        time.sleep(0.5)
    time.sleep(settle)
    dirty = driver.execute_script(
        "return Array.from(document.querySelectorAll('.lm-DockPanel .lm-TabBar-tab'))"
        ".some(tab => tab.classList.contains('jp-mod-dirty'))"
    )
    with urllib.request.urlopen(f"{url}/api/sessions?token=check", timeout=5) as answer:
        kernels = [session["kernel"]["name"] for session in json.load(answer)]
    return dirty, kernels


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
@pytest.mark.parametrize("starts_kernel", ["False", "True"])
def test_make_lab_opens_a_published_notebook_clean(make_lab, browser, starts_kernel):  # noqa: F811
    """``make lab`` opens a published notebook without a kernel, and clean; with JupyterLab's
    default (a kernel starts on opening) the kernel's metadata marks it unsaved."""
    url = make_lab(starts_kernel)
    dirty, kernels = opened(browser, url, "figures/bvp/bvp.ipynb")
    if starts_kernel == "False":
        assert (dirty, kernels) == (False, [])
    else:
        assert (dirty, kernels) == (True, ["python3"])
