"""The papers the compendium reproduces, and how every page cites them.

``data/papers.toml`` holds each paper's full reference: authors, title, venue, year and a
DOI or canonical URL. :func:`load_papers` reads it; :meth:`Paper.reference` renders one
reference in Markdown, the one form the notebooks' introductions, the README's "How to
cite" list (:func:`render_references`), the landing notebook
``docs/papers.ipynb`` (:func:`landing_notebook`, which Binder opens) and the book all use,
so that no page cites a paper by a path of the workspace it was written in.

Command line: ``python -m compendium.papers`` rewrites, from the registry, the
README's list between ``<!-- papers:begin -->`` and ``<!-- papers:end -->`` and
``docs/papers.ipynb``.
"""

import argparse
import tomllib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import nbformat

from . import paths
from .pages import _refresh_block

__all__ = [
    "LANDING",
    "README_MARKERS",
    "REGISTRY",
    "Paper",
    "landing_notebook",
    "load_papers",
    "main",
    "render_references",
]

#: Where the references are kept.
REGISTRY = paths.DATA_DIR / "papers.toml"
#: The landing notebook: every paper one click away (Binder opens it; so can ``make lab``).
LANDING = paths.ROOT / "docs" / "papers.ipynb"
#: The README's markers around the list of references.
README_MARKERS = ("<!-- papers:begin -->", "<!-- papers:end -->")


@dataclass(frozen=True)
class Paper:
    """One paper of the compendium and its full reference.

    Attributes
    ----------
    key : str
        Its folder name under ``figures/``, ``notebooks/`` and ``data/published/``.
    short : str
        A few words naming it in lists.
    title : str
    authors : tuple of str
    venue, year : str
        Empty when not established.
    doi, url : str
        The DOI (without resolver) and the canonical URL; at least one is set.
    checked : str
        How the reference was established, and what is still to confirm.
    """

    key: str
    short: str
    title: str
    authors: tuple
    venue: str
    year: str
    doi: str
    url: str
    checked: str

    def __post_init__(self):
        if not (self.doi or self.url):
            raise ValueError(f"paper {self.key!r}: its reference needs a DOI or a URL.")
        scheme = urllib.parse.urlparse(self.url).scheme
        if self.url and scheme != "https":
            raise ValueError(f"paper {self.key!r}: URL {self.url!r} is not an https URL.")

    @property
    def link(self):
        """The DOI's resolver URL, else the canonical URL."""
        return f"https://doi.org/{self.doi}" if self.doi else self.url

    def reference(self):
        """The full reference in Markdown: authors, *title*, venue, year, link."""
        where = ", ".join(part for part in (self.venue, self.year) if part)
        parts = (", ".join(self.authors), f"*{self.title}*", where)
        text = ". ".join(part for part in parts if part)
        label = f"doi:{self.doi}" if self.doi else self.url
        return f"{text}. [{label}]({self.link})"


def load_papers(registry=None):
    """Every paper of ``data/papers.toml``, in file order.

    Parameters
    ----------
    registry : str or Path, optional
        Default :data:`REGISTRY`.

    Returns
    -------
    dict of str to Paper
    """
    entries = tomllib.loads(Path(registry or REGISTRY).read_text())["papers"]
    return {
        key: Paper(key=key, **{**entry, "authors": tuple(entry["authors"])})
        for key, entry in entries.items()
    }


def render_references(papers=None):
    """The README's list of references (Markdown), one bullet per paper."""
    papers = papers or load_papers()
    return "\n".join(f"- **{paper.short}.** {paper.reference()}" for paper in papers.values())


def landing_notebook(papers=None):
    """The landing notebook (markdown only): each paper's reference and links to its
    executed notebook, its source notebook and its reproduction table.

    Returns
    -------
    nbformat.NotebookNode
        With fixed cell ids, so that writing it again changes nothing.
    """
    papers = papers or load_papers()
    intro = (
        "# dimred-compendium: the papers\n\n"
        "Five papers on dimensionality reduction, each reproduced by a notebook run end to end "
        "on the real data, every number and claim of the paper beside ours. For each paper, "
        "open the **executed notebook** to read the reproduction with its figures and tables "
        "as `make figures` ran it, without running anything; open the **source notebook** to "
        "run it yourself (`quick = True` in its parameters cell runs it in a minute or two)."
    )
    cells = [nbformat.v4.new_markdown_cell(intro, id="papers")]
    cells += [
        nbformat.v4.new_markdown_cell(_landing_text(paper), id=f"paper-{key}")
        for key, paper in papers.items()
    ]
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    return nbformat.v4.new_notebook(cells=cells, metadata=metadata)


def _landing_text(paper):
    """One paper's cell of the landing notebook (links relative to ``docs/``)."""
    key = paper.key
    return (
        f"## {paper.short}\n\n{paper.reference()}\n\n"
        f"[Executed notebook](../figures/{key}/{key}.ipynb) · "
        f"[source notebook](../notebooks/{key}.ipynb) · "
        f"[reproduction table](../figures/{key}/reproduction.md)"
    )


def main(argv=None):
    """``python -m compendium.papers``: refresh the README's list of references and
    the landing notebook."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--readme", type=Path, default=paths.ROOT / "README.md")
    parser.add_argument("--landing", type=Path, default=LANDING)
    args = parser.parse_args(argv)
    _refresh_block(args.readme, *README_MARKERS, render_references())
    nbformat.write(landing_notebook(), args.landing)
    print(args.readme, args.landing)


if __name__ == "__main__":
    main()
