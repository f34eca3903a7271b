"""Every page cites each paper by its full reference (``data/papers.toml``), never by a path.

The notebooks' introductions, the README's "How to cite" list and the landing
notebook ``docs/papers.ipynb`` are checked here; the book's pages in ``test_book.py``.
"""

import re

import nbformat
import pytest

from compendium import papers, paths
from papers import PAPERS

#: The papers' texts in the workspace the compendium was written in: never a citation.
WORKSPACE_TEXT = re.compile(
    r"shared/papers/(bvp_ordinal_projection|relevance_learning|orml_manifold_ordinal_regression"
    r"|awa2_dr_survey|metrical_importance)\.txt"
)
#: Notebooks whose introduction another contributor is rewriting: expected to fail until then.
PENDING = {}


def pending(paper):
    """``paper`` as a parameter, marked as an expected failure while it is :data:`PENDING`."""
    if paper in PENDING:
        return pytest.param(paper, marks=pytest.mark.xfail(reason=PENDING[paper], strict=True))
    return paper


def test_registry_holds_every_paper_with_a_link():
    registry = papers.load_papers()
    assert list(registry) == list(PAPERS)
    for paper in registry.values():
        assert paper.title and paper.authors and paper.checked
        assert paper.link.startswith("https://")
        assert paper.reference().endswith(f"]({paper.link})")


def test_a_reference_needs_a_doi_or_an_https_url():
    fields = dict(key="x", short="X", title="T", authors=("A. B.",), venue="", year="")
    with pytest.raises(ValueError, match="DOI or a URL"):
        papers.Paper(**fields, doi="", url="", checked="")
    with pytest.raises(ValueError, match="https"):
        papers.Paper(**fields, doi="", url="http://example.org", checked="")
    paper = papers.Paper(**fields, doi="10.1000/182", url="", checked="")
    assert paper.reference() == "A. B.. *T*. [doi:10.1000/182](https://doi.org/10.1000/182)"


def test_readme_lists_every_reference():
    readme = (paths.ROOT / "README.md").read_text()
    begin, end = papers.README_MARKERS
    block = readme.split(begin, 1)[1].split(end, 1)[0].strip("\n")
    assert block == papers.render_references(), "python -m compendium.papers"


def test_landing_notebook_is_current_and_links_every_paper():
    committed = nbformat.read(papers.LANDING, as_version=4)
    assert committed == papers.landing_notebook(), "python -m compendium.papers"
    text = "\n".join(cell.source for cell in committed.cells)
    for paper in PAPERS:
        for target in (f"../notebooks/{paper}.ipynb", f"../figures/{paper}/reproduction.md"):
            assert f"]({target})" in text
            assert (papers.LANDING.parent / target).resolve().is_file(), target


@pytest.mark.parametrize("paper", [pending(paper) for paper in PAPERS])
def test_notebook_introduction_cites_the_full_reference(paper):
    reference = papers.load_papers()[paper].reference()
    for suffix in (".ipynb", ".py"):
        path = paths.ROOT / "notebooks" / f"{paper}{suffix}"
        text = path.read_text(encoding="utf-8")
        assert not WORKSPACE_TEXT.search(text), f"{path.name} cites a workspace path"
    introduction = nbformat.read(path.with_suffix(".ipynb"), as_version=4).cells[0]
    assert introduction.cell_type == "markdown" and reference in introduction.source


def test_readme_and_landing_cite_no_workspace_path():
    for path in (paths.ROOT / "README.md", papers.LANDING):
        assert not WORKSPACE_TEXT.search(path.read_text(encoding="utf-8")), path.name
