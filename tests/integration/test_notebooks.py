"""The compendium's contract, checked for every paper, and each notebook's own findings.

Every paper listed in :data:`papers.PAPERS` is checked the same way:
its protocol exposes ``PAPER`` and ``params``; its notebook is parameterised,
committed without outputs, paired with its ``.py`` twin and thin; a quick run
writes ``reproduction.csv`` with the standard columns and statuses, a row for
every transcribed number and claim, and shows every figure it writes. Adding a
paper to ``PAPERS`` is all it takes to have it checked.
"""

import ast
import dataclasses
import importlib
import json
import re
import subprocess

import jupytext
import pandas as pd
import pytest

from compendium import paths
from compendium.pages import DOCS_DIR, FINDINGS_PAGE, findings_markers, readme_block
from compendium.papers import load_papers
from compendium.published import CLAIM_COLUMNS, load_published, source
from compendium.reporting import (
    COLUMNS,
    FINDING_COLUMNS,
    MIN_DRAWS,
    STATUSES,
    check_data_label,
    render_findings,
)
from papers import PAPERS

#: Nodes a notebook's code cell may not contain: analysis belongs in the protocol.
FORBIDDEN = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.For,
    ast.While,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.GeneratorExp,
)


def notebook_file(paper, suffix=".ipynb"):
    return paths.ROOT / "notebooks" / f"{paper}{suffix}"


def code_cells(paper):
    cells = json.loads(notebook_file(paper).read_text())["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


def assert_reproduction_contract(report, paper):
    """Standard columns and statuses; a row for every transcribed row and claim."""
    assert tuple(report.columns) == COLUMNS
    assert set(report["status"]) <= set(STATUSES)
    assert report[["artifact", "item", "status"]].notna().all().all()
    published = load_published(paper)
    expected = {source(name, key) for name, table in published.items() for key in table.index}
    sources = set(report["source"].dropna())
    assert expected - sources == set(), "transcribed rows without a reproduction row"
    assert sources - expected == set(), "rows naming a source that is not transcribed"


# ------------------------------------------------------------------------------- contract
@pytest.mark.parametrize("paper", PAPERS)
def test_protocol_exposes_paper_and_params(paper):
    module = importlib.import_module(f"papers.{paper}")
    assert module.PAPER == paper
    full, quick = module.params(), module.params(quick=True)
    assert dataclasses.is_dataclass(full) and type(full) is type(quick)
    assert (full.quick, quick.quick) == (False, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        full.quick = True
    assert importlib.import_module(f"papers.{paper}.plots")


@pytest.mark.parametrize("paper", PAPERS)
def test_transcriptions_follow_the_schema(paper):
    published = load_published(paper)
    claims = published["claims"]
    assert (claims.index.name, *claims.columns[:3]) == CLAIM_COLUMNS
    assert all(table.index.is_unique for table in published.values())


@pytest.mark.make
def test_makefile_builds_every_paper():
    """make's PAPERS is the list of data/papers.toml, each paper a target of its own."""
    printed = subprocess.run(
        ["make", "-s", "--eval", "print-papers: ; @echo $(PAPERS)", "print-papers"],
        cwd=paths.ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed.split() == list(PAPERS) == list(paths.paper_keys())
    dry = subprocess.run(
        ["make", "-n", "bvp"], cwd=paths.ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "-m compendium.notebooks bvp ./figures/bvp" in dry  # `make bvp` runs that paper


@pytest.mark.parametrize("paper", PAPERS)
def test_notebook_is_parameterised_without_outputs_and_paired(paper):
    code = code_cells(paper)
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    parameters = [c for c in code if "parameters" in c["metadata"].get("tags", [])]
    assert len(parameters) == 1
    source_text = "".join(parameters[0]["source"])
    assert "quick = False" in source_text and "output_dir =" in source_text
    paired = jupytext.read(notebook_file(paper, ".py"))
    committed = json.loads(notebook_file(paper).read_text())["cells"]
    assert [(c.cell_type, c.source) for c in paired.cells] == [
        (c["cell_type"], "".join(c["source"])) for c in committed
    ], "notebook and .py twin differ: run `make sync`"


@pytest.mark.parametrize("paper", PAPERS)
def test_notebook_cells_only_call_the_protocol(paper):
    for cell in code_cells(paper):
        text = "".join(cell["source"])
        tree = ast.parse(text)
        found = [type(n).__name__ for n in ast.walk(tree) if isinstance(n, FORBIDDEN)]
        assert not found, f"{paper}: a notebook cell holds {found}:\n{text}"
        assert "reproduction_row" not in text
    markdown = [c for c in json.loads(notebook_file(paper).read_text())["cells"]]
    assert not any("](../figures" in "".join(c["source"]) for c in markdown)


@pytest.mark.notebook
@pytest.mark.parametrize("paper", PAPERS)
def test_quick_run_meets_the_contract(paper, quick_run):
    figures, notebook = quick_run(paper)
    assert_reproduction_contract(pd.read_csv(figures / "reproduction.csv"), paper)
    images = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/png" in output.get("data", {})
    ]
    written = sorted(figures.glob("*.png"))
    assert written and len(images) == len(written), "every figure written is shown inline"
    for png in written:
        assert png.with_suffix(".pdf").exists()
    for csv in figures.glob("*.csv"):
        assert csv.with_suffix(".md").exists()
    assert_tables_say_which_data(figures)
    findings = pd.read_csv(figures / "findings.csv", keep_default_na=False)
    assert_findings_schema(findings, enough_draws=False)  # quick runs draw less


@pytest.mark.parametrize("paper", PAPERS)
def test_committed_reproduction_meets_the_contract(paper):
    report = pd.read_csv(paths.FIGURES_DIR / paper / "reproduction.csv")
    assert_reproduction_contract(report, paper)


def assert_tables_say_which_data(folder):
    """Every CSV names the data it came from (real, stand-in, synthetic, published)."""
    for csv in sorted(folder.glob("*.csv")):
        labels = pd.read_csv(csv).get("data")
        assert labels is not None, f"{csv.name} does not say which data it came from"
        for label in labels.unique():
            check_data_label(label)


def assert_findings_schema(findings, enough_draws=True):
    """Unique keys, a data label, a spread; a random finding over enough draws or a note
    saying why fewer (``enough_draws``); a verdict only with its predicate."""
    assert tuple(findings.columns) == FINDING_COLUMNS
    assert findings["finding"].is_unique and len(findings)
    for row in findings.itertuples():
        check_data_label(row.data)
        assert row.statement and row.metric and row.spread, row.finding
        assert row.low <= row.value <= row.high, row.finding
        if enough_draws and row.spread != "deterministic":
            assert row.n_draws >= MIN_DRAWS or row.note, f"{row.finding}: too few draws, no note"
        assert (row.predicate == "") == (str(row.holds) == ""), row.finding


@pytest.mark.parametrize("paper", PAPERS)
def test_committed_tables_say_which_data(paper):
    assert_tables_say_which_data(paths.FIGURES_DIR / paper)


@pytest.mark.parametrize("paper", PAPERS)
def test_committed_findings_are_what_the_findings_page_says(paper):
    """The list of a paper's findings in ``docs/findings.md`` is findings.csv, number for
    number."""
    findings = pd.read_csv(paths.FIGURES_DIR / paper / "findings.csv", keep_default_na=False)
    assert_findings_schema(findings)
    page = (DOCS_DIR / FINDINGS_PAGE).read_text()
    block = readme_block(page, *findings_markers(paper))
    assert block is not None, f"docs/findings.md has no findings block for {paper}"
    assert block == render_findings(findings), "docs/findings.md and findings.csv differ"


def test_findings_page_sections_state_nothing_else():
    """The findings page has one section per paper, named by its short title, and outside
    the generated blocks they state no number."""
    page = (DOCS_DIR / FINDINGS_PAGE).read_text()
    sections = re.findall(r"^## ([^\n]*)\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    shorts = [paper.short for paper in load_papers().values()]
    assert [title for title, _ in sections] == shorts
    for paper, (_, section) in zip(PAPERS, sections, strict=True):
        block = rf"<!-- findings:{paper}:begin -->.*?<!-- findings:{paper}:end -->"
        assert len(re.findall(block, section, flags=re.S)) == 1, paper
        outside = re.sub(block, "", section, flags=re.S)
        assert not re.search(r"\d", outside), outside
