"""The template of a new paper is a working example of the contract."""

import ast
import importlib
import sys

import jupytext
import pytest

import papers
from compendium import paths
from compendium.new_paper import create
from compendium.published import CLAIM_COLUMNS, load_published, source
from compendium.reporting import COLUMNS, Artefacts, Report


@pytest.fixture
def toy_paper(tmp_path, monkeypatch):
    """``toy_paper`` created from the template in a scratch checkout, importable."""
    files = create("toy_paper", "A toy paper", root=tmp_path)
    monkeypatch.setattr(paths, "PUBLISHED_DIR", tmp_path / "data" / "published")
    monkeypatch.setattr(papers, "__path__", [*papers.__path__, str(files[0].parent.parent)])
    yield tmp_path, importlib.import_module("papers.toy_paper")
    for module in [m for m in sys.modules if m.startswith("papers.toy_paper")]:
        del sys.modules[module]


def test_template_follows_the_contract(toy_paper):
    root, module = toy_paper
    assert module.PAPER == "toy_paper"
    p, quick = module.params(), module.params(quick=True)
    assert (p.quick, quick.quick) == (False, True)
    published = load_published("toy_paper")
    assert (published["claims"].index.name, *published["claims"].columns[:3]) == CLAIM_COLUMNS
    result = module.example_artefacts(module.load_data(quick), published, quick)
    assert isinstance(result, Artefacts) and result.tables and result.figures
    expected = {source(name, key) for name, table in published.items() for key in table.index}
    assert {row["source"] for row in result.rows} == expected
    assert all(tuple(row) == COLUMNS for row in result.rows)
    report = Report(root / "figures" / "toy_paper", display=False)
    report.show(result)  # every table says which data it came from
    report.write()
    assert (root / "figures" / "toy_paper" / "findings.csv").exists()


def test_template_notebook_is_thin_and_paired(toy_paper):
    root, _ = toy_paper
    script = jupytext.read(root / "notebooks" / "toy_paper.py")
    paired = jupytext.read(root / "notebooks" / "toy_paper.ipynb")
    assert [c.source for c in script.cells] == [c.source for c in paired.cells]
    code = [c for c in script.cells if c.cell_type == "code"]
    assert sum("parameters" in c.metadata.get("tags", []) for c in code) == 1
    for cell in code:
        tree = ast.parse(cell.source)
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.For)]


def test_existing_paper_is_not_overwritten(tmp_path):
    create("toy_paper", "A toy paper", root=tmp_path)
    with pytest.raises(FileExistsError):
        create("toy_paper", "again", root=tmp_path)
    with pytest.raises(ValueError, match="identifier"):
        create("Toy-Paper", "bad name", root=tmp_path)
