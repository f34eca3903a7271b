"""JupyterLab leaves tracked files alone, and ``make`` reruns a paper only when its code changed.

``compendium.lab`` saves a source notebook as committed and never saves over a
published one; ``compendium.cells`` stamps a notebook's code, and the Makefile's
rule for a paper depends on that stamp: checked here with the real Makefile in a scratch
copy of the tree, where a stand-in interpreter records each notebook run instead of doing it.
"""

import asyncio
import copy
import json
import shutil

import nbformat
import pytest
from scratch_make import make_runs, scratch_copy

from compendium import cells, lab, paths

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


def test_published_notebooks_are_read_only(lab_tree):
    from tornado.web import HTTPError

    manager = lab.CompendiumContentsManager(root_dir=str(lab_tree))
    model = asyncio.run(manager.get("figures/bvp/bvp.ipynb", content=False))
    assert model["writable"] is False
    with pytest.raises(HTTPError) as raised:
        save(lab_tree, "figures/bvp/bvp.ipynb", read(SOURCE))
    assert raised.value.status_code == 403
    assert (lab_tree / "figures" / "bvp" / "bvp.ipynb").read_bytes() == SOURCE.read_bytes()


def test_make_lab_serves_the_repository_root_with_the_compendium_manager():
    makefile = (paths.ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert "--ServerApp.root_dir=." in recipe
    assert "--ServerApp.contents_manager_class=compendium.lab.CompendiumContentsManager" in recipe
