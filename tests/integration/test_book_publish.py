"""Publishing executed notebooks: ``figures/<paper>/<paper>.ipynb`` is small and portable.

:func:`compendium.publishing.publish` is checked on a synthetic run (every kind of
output it changes), on each paper's quick run, and on the committed executed notebooks:
those are skipped until ``make figures`` (or ``python -m compendium.notebooks
publish``) has written them.
"""

import base64
import io
import re

import nbformat
import pytest
from PIL import Image

from compendium import notebooks, paths, publishing
from papers import PAPERS

#: The largest executed notebook committed under figures/, in bytes: below the 2 MiB the
#: house rules allow a tracked file.
MAX_PUBLISHED_BYTES = 2 * 1024**2
#: What no published notebook may contain: a path of the machine it ran on.
MACHINE_PATH = re.compile(
    r"(?<![\w.])(/work/|/tmp/|/home/|/root/|/Users/|/private/var/|[A-Za-z]:\\)"
    + "|"
    + re.escape(str(paths.ROOT))
)


def png(width, height, noise=False):
    """A base64 PNG of ``width`` x ``height`` pixels: plain, or noise (which does not compress)."""
    if noise:
        image = Image.effect_noise((width, height), 60).convert("RGBA")
    else:
        image = Image.new("RGBA", (width, height), "white")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def png_size(data):
    return Image.open(io.BytesIO(base64.b64decode(data))).size


def executed_run(tmp_path):
    """A finished papermill run with every kind of output ``publish`` changes."""
    out = tmp_path / "work" / "figures" / "toy"
    parameters = nbformat.v4.new_code_cell("quick = False\noutput_dir = 'x'")
    parameters.metadata = {"tags": ["parameters"], "papermill": {"duration": 0.1}}
    injected = nbformat.v4.new_code_cell(f'# Parameters\noutput_dir = "{paths.ROOT}/figures/toy"\n')
    injected.metadata = {"tags": ["injected-parameters"], "execution": {"a": "2026-01-01"}}
    step = nbformat.v4.new_code_cell("report.show(step())")
    step.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="\rbar:   0%|   | 0/2"),
        nbformat.v4.new_output("stream", name="stderr", text="\rbar:  50%|#  | 1/2"),
        nbformat.v4.new_output("stream", name="stderr", text="\rbar: 100%|## | 2/2\n"),
        nbformat.v4.new_output("stream", name="stdout", text=f"wrote {out}/table.csv\n"),
        nbformat.v4.new_output(
            "display_data",
            data={
                "application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                "text/plain": "0%",
            },
        ),
        nbformat.v4.new_output("display_data", data={"image/png": png(2400, 600)}),
        nbformat.v4.new_output("display_data", data={"image/png": png(1000, 1000, noise=True)}),
        nbformat.v4.new_output("display_data", data={"image/png": png(150, 100, noise=True)}),
        nbformat.v4.new_output("display_data", data={"text/html": f"<p>{paths.ROOT}/x</p>"}),
    ]
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# Toy"), parameters, injected, step],
        metadata={
            "jupytext": {"formats": "ipynb,py:percent"},
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "papermill": {
                "input_path": f"{paths.ROOT}/notebooks/toy.ipynb",
                "output_path": str(tmp_path / "toy.ipynb"),
                "parameters": {"quick": False, "output_dir": str(out)},
                "start_time": "2026-01-01T00:00:00",
                "end_time": "2026-01-01T00:01:00",
                "duration": 60.0,
                "exception": None,
            },
        },
    )
    path = tmp_path / "executed.ipynb"
    nbformat.write(notebook, path)
    return path


def test_publish_keeps_outputs_at_screen_size_without_machine_paths(tmp_path):
    executed = executed_run(tmp_path)
    prefixes = {**publishing.machine_paths(), str(tmp_path / "work"): "$WORK"}
    published = publishing.publish(executed, tmp_path / "toy" / "toy.ipynb", prefixes=prefixes)
    text = (tmp_path / "toy" / "toy.ipynb").read_text()
    assert not MACHINE_PATH.search(text), "a path of the machine"
    _, parameters, injected, step = published.cells
    assert injected.source == '# Parameters\noutput_dir = "../figures/toy"\n'
    assert published.metadata.papermill == {
        "parameters": {"quick": False, "output_dir": "$WORK/figures/toy"},
        "duration": 60.0,
    }
    assert set(published.metadata) == {"kernelspec", "papermill"}, "no jupytext pairing"
    assert parameters.metadata == {"tags": ["parameters"]}
    stderr, stdout, wide, heavy, small, html = step.outputs  # the widget's stale bar is left out
    assert stderr.text == "bar: 100%|## | 2/2\n"
    assert stdout.text == "wrote $WORK/figures/toy/table.csv\n"
    assert png_size(wide.data["image/png"]) == (publishing.MAX_IMAGE_WIDTH, 300)
    width, height = png_size(heavy.data["image/png"])
    assert width == height < 1000
    assert len(base64.b64decode(heavy.data["image/png"])) < 1.5 * publishing.MAX_IMAGE_BYTES
    original = nbformat.read(executed, as_version=4).cells[3].outputs[7]
    assert small.data["image/png"] == original.data["image/png"], "small images are unchanged"
    assert html.data["text/html"] == "<p>../x</p>"


def test_publish_takes_the_prose_of_the_source_and_refuses_other_code(tmp_path):
    executed = executed_run(tmp_path)
    source = nbformat.read(executed, as_version=4)
    del source.cells[2]  # papermill's injected parameters
    source.cells[0].source = "# Toy, retitled\n\nA new sentence."
    for cell in source.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    nbformat.write(source, tmp_path / "source.ipynb")
    published = publishing.publish(executed, tmp_path / "out.ipynb", tmp_path / "source.ipynb")
    assert published.cells[0].source == "# Toy, retitled\n\nA new sentence."
    assert [cell.metadata.get("tags") for cell in published.cells[1:3]] == [
        ["parameters"],
        ["injected-parameters"],
    ]
    assert published.cells[3].outputs, "the outputs of the run are kept"
    source.cells[2].source = "report.show(another_step())"
    nbformat.write(source, tmp_path / "source.ipynb")
    with pytest.raises(ValueError, match="run it again"):
        publishing.publish(executed, tmp_path / "out.ipynb", tmp_path / "source.ipynb")


def test_an_unfinished_run_is_not_published(tmp_path):
    executed = executed_run(tmp_path)
    notebook = nbformat.read(executed, as_version=4)
    notebook.metadata.papermill["end_time"] = None
    nbformat.write(notebook, executed)
    with pytest.raises(ValueError, match="did not finish"):
        publishing.publish(executed, tmp_path / "out.ipynb")
    assert not (tmp_path / "out.ipynb").exists()


def assert_small_and_portable(path):
    """At most MAX_PUBLISHED_BYTES, every image at screen size, no machine path, no error."""
    assert path.stat().st_size <= MAX_PUBLISHED_BYTES, f"{path}: {path.stat().st_size} bytes"
    text = path.read_text(encoding="utf-8")
    found = MACHINE_PATH.search(text)
    assert found is None, f"{path}: machine path {text[found.start() - 60 : found.end() + 60]!r}"
    notebook = nbformat.read(path, as_version=4)
    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert all(output.output_type != "error" for output in outputs)
    for output in outputs:
        if "image/png" in output.get("data", {}):
            assert png_size(output.data["image/png"])[0] <= publishing.MAX_IMAGE_WIDTH


@pytest.mark.notebook
@pytest.mark.parametrize("paper", PAPERS)
def test_a_quick_run_publishes_small_and_portable(paper, quick_run, tmp_path):
    figures, executed = quick_run(paper)
    nbformat.write(executed, tmp_path / "executed.ipynb")
    destination = tmp_path / f"{paper}.ipynb"
    publishing.publish(tmp_path / "executed.ipynb", destination, notebooks.notebook_path(paper))
    assert_small_and_portable(destination)


@pytest.mark.parametrize("paper", PAPERS)
def test_committed_executed_notebook_is_small_portable_and_current(paper):
    path = paths.FIGURES_DIR / paper / f"{paper}.ipynb"
    if not path.exists():
        pytest.skip(f"{path} not published yet: make figures, or notebooks publish {paper}")
    assert_small_and_portable(path)
    ran = [
        cell.source
        for cell in nbformat.read(path, as_version=4).cells
        if cell.cell_type == "code" and "injected-parameters" not in cell.metadata.get("tags", [])
    ]
    source = nbformat.read(notebooks.notebook_path(paper), as_version=4)
    code = [cell.source for cell in source.cells if cell.cell_type == "code"]
    assert ran == code, f"{path} ran other code than notebooks/{paper}.ipynb: make {paper}"
