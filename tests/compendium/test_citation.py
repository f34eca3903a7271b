"""How to cite: ``CITATION.cff`` (the compendium and its references) and ``LICENSE``.

The references of ``CITATION.cff`` are the papers of ``data/papers.toml``, the one list of
papers, in its order; its version and licence are ``pyproject.toml``'s.
"""

import re
import tomllib

import pytest

from compendium import papers, paths

CITATION = paths.ROOT / "CITATION.cff"
PYPROJECT = tomllib.loads((paths.ROOT / "pyproject.toml").read_text())["project"]


@pytest.fixture(scope="module")
def citation():
    yaml = pytest.importorskip("yaml", reason="PyYAML parses CITATION.cff (jupytext needs it)")
    return yaml.safe_load(CITATION.read_text(encoding="utf-8"))


def _initials(given):
    """``"Yang"`` as ``data/papers.toml`` prints it, ``"Y."``; initials stay as they are."""
    return " ".join(name if name.endswith(".") else f"{name[0]}." for name in given.split())


def test_citation_is_the_compendiums_version_and_licence(citation):
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == PYPROJECT["version"]
    assert citation["license"] == PYPROJECT["license"] == "BSD-3-Clause"
    assert citation["authors"] == [{"name": "the dimred-compendium authors"}]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", citation["date-released"])
    assert citation["title"] and citation["message"]


def test_citation_references_are_the_papers(citation):
    registry = list(papers.load_papers().values())
    references = citation["references"]
    assert [ref["title"] for ref in references] == [paper.title for paper in registry]
    for ref, paper in zip(references, registry, strict=True):
        assert ref["type"] in ("article", "conference-paper", "report"), ref["title"]
        authors = [f"{_initials(a['given-names'])} {a['family-names']}" for a in ref["authors"]]
        assert authors == list(paper.authors), ref["title"]
        assert str(ref.get("year", "")) == paper.year, ref["title"]
        assert ref["url"] == paper.link, ref["title"]


def test_licence_is_bsd_3_clause():
    text = (paths.ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License\n")
    assert "Copyright (c) 2026, the dimred-compendium authors" in text
