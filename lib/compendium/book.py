"""The compendium as a book: a static HTML site of the executed notebooks (``make book``).

:func:`build` executes nothing. It writes the book's sources into a staging folder
(:func:`stage`) from what ``make figures`` commits under ``figures/``, and runs Sphinx on
them with MyST-NB and the book theme (configuration: ``docs/conf.py``), warnings as errors
and every cross-reference checked:

* ``index.md``, the landing page: the papers with their full references
  (:mod:`compendium.papers`), the status counts, a link to each paper's findings, and the
  guide;
* the guide (:data:`GUIDE`): the pages kept in ``docs/`` (``docs/<page>.md``), staged as
  they are: using the methods, reading the compendium, running it and what a run costs,
  the data, determinism and bad input, and what we found (the findings, which
  ``make figures`` refreshes there from ``findings.csv``);
* ``papers/<paper>.ipynb``, one chapter per paper: its executed notebook
  (``figures/<paper>/<paper>.ipynb``) opened by a summary of what deviates and followed by
  its reproduction table (:mod:`compendium.chapters`);
* ``summary.md``, the compendium-wide summary (``figures/REPRODUCTION.md``);
* ``api.rst``, the API reference: every public module of :mod:`dimred` (the papers'
  protocols, in ``papers``, are the chapters) with its docstring and the
  objects it defines, each on a page of its own (``api/<name>.rst``) from its numpydoc
  docstring (:mod:`compendium.api_reference`);
* ``contributing.md``, the contributing guide.

:func:`check_site` then checks every internal link and image reference of the site, and
that no page loads anything from the network. How Sphinx reads the docstrings and
resolves the references is :mod:`compendium.sphinx_ext`'s.

Command line::

    python -m compendium.book [--figures DIR] [--out DIR]
"""

import argparse
import functools
import re
import shutil
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pandas as pd

from . import paths
from .api_reference import write_api
from .chapters import after_title, status_table, summary_cell, table_cell
from .pages import read_findings, status_summary
from .papers import load_papers
from .reporting import STATUSES

__all__ = [
    "BOOK_DIR",
    "CONF_DIR",
    "GUIDE",
    "build",
    "check_site",
    "landing_page",
    "main",
    "stage",
]

#: Where ``make book`` writes the site.
BOOK_DIR = paths.ROOT / "build" / "book"
#: The book's Sphinx configuration, templates and static files, and the guide's pages.
CONF_DIR = paths.ROOT / "docs"
#: The guide: ``docs/<page>.md`` and its title, in the sidebar's order.
GUIDE = {
    "using": "Using the methods",
    "reading": "Reading the compendium",
    "running": "Running it, and what a run costs",
    "data": "Data",
    "determinism": "Same numbers on any machine",
    "findings": "What we found",
}


# ------------------------------------------------------------------------------- staging
def stage(figures_dir, staging, docs=None):
    """Write the book's sources into ``staging`` (emptied first).

    Parameters
    ----------
    figures_dir : str or Path
        A ``figures/`` folder: ``<paper>/<paper>.ipynb`` (the executed notebook),
        ``<paper>/reproduction.csv``, optionally ``<paper>/findings.csv``, and
        ``REPRODUCTION.md``.
    staging : str or Path
        Folder of the generated sources.
    docs : str or Path, optional
        The folder of the guide's pages (:data:`GUIDE`); default :data:`CONF_DIR`.

    Returns
    -------
    Path
        ``staging``.

    Raises
    ------
    FileNotFoundError
        A paper's executed notebook or reproduction table, or ``REPRODUCTION.md``, is
        missing: ``make figures`` writes them; or a page of the guide is.
    """
    figures_dir, staging = Path(figures_dir), Path(staging)
    docs = Path(docs or CONF_DIR)
    papers = load_papers()
    _require(
        [figures_dir / "REPRODUCTION.md"]
        + [
            figures_dir / key / name
            for key in papers
            for name in (f"{key}.ipynb", "reproduction.csv")
        ]
        + [docs / f"{page}.md" for page in GUIDE]
    )
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "papers").mkdir(parents=True)
    for key, paper in papers.items():
        notebook = nbformat.read(figures_dir / key / f"{key}.ipynb", as_version=4)
        report = pd.read_csv(figures_dir / key / "reproduction.csv")
        notebook.cells.insert(after_title(notebook), summary_cell(report))
        notebook.cells.append(table_cell(paper, report))
        nbformat.write(notebook, staging / "papers" / f"{key}.ipynb")
    (staging / "index.md").write_text(landing_page(figures_dir, papers))
    for page in GUIDE:  # a page's ../figures/ images are the staged figures/
        text = (docs / f"{page}.md").read_text(encoding="utf-8")
        for image in set(re.findall(r"\]\(\.\./figures/([^)]+\.png)\)", text)):
            (staging / "figures" / image).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(figures_dir / image, staging / "figures" / image)
        text = text.replace("](../figures/", "](figures/")
        (staging / f"{page}.md").write_text(text, encoding="utf-8")
    shutil.copyfile(figures_dir / "REPRODUCTION.md", staging / "summary.md")
    shutil.copyfile(paths.ROOT / "CONTRIBUTING.md", staging / "contributing.md")
    write_api(staging)
    return staging


def _require(files):
    """Raise ``FileNotFoundError`` naming every one of ``files`` that does not exist."""
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise FileNotFoundError(
            "the book is built from what `make figures` writes and the guide's pages in "
            "docs/; missing: " + ", ".join(missing)
        )


def landing_page(figures_dir, papers):
    """The landing page (MyST Markdown): the guide, the papers, their references, status
    counts and a link to their findings, and the book's table of contents."""
    summary = status_summary(figures_dir)
    findings = read_findings(figures_dir)
    lines = [
        "# dimred-compendium",
        "",
        "Five papers on dimensionality reduction, each reproduced by a notebook run end to end",
        "on the real data: every number and claim of the paper beside ours, with a status.",
        "Each chapter is a paper's executed notebook, as `make figures` ran it, opened by a",
        "summary of what deviates and followed by its reproduction table; nothing here was",
        "executed to build the book.",
        "",
        "## The guide",
        "",
        *[f"- [{title}]({page}.md)" for page, title in GUIDE.items()],
        "",
        "## Status counts",
        "",
        status_table(summary, papers),
        "",
        "`setting` rows restate settings the paper states (inputs, not results); `total`",
        "leaves them out. The [summary](summary.md) lists every deviating row.",
        "",
        "## The papers",
    ]
    for key, paper in papers.items():
        lines += ["", f"### [{paper.short}](papers/{key}.ipynb)", "", paper.reference(), ""]
        lines += [_counts(summary.loc[key]) if key in summary.index else "No reproduction yet."]
        if key in findings:
            lines += ["", f"[What we found](findings.md#{_anchor(paper.short)})"]
    chapters = [f"papers/{key}" for key in papers]
    lines += ["", _toctree("Guide", list(GUIDE)), ""]
    lines += [_toctree("Papers", chapters), ""]
    lines += [_toctree("Compendium", ["summary", "api", "contributing"])]
    return "\n".join(lines) + "\n"


def _anchor(heading):
    """The anchor MyST gives a heading (``myst_heading_anchors``): ``AwA2 survey`` is
    ``awa2-survey``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _counts(row):
    """One paper's status counts as a sentence."""
    counts = ", ".join(f"{int(row[status])} {status}" for status in STATUSES[:-1])
    total, settings = int(row["total"]), int(row["setting"])
    return f"Of {total} published numbers and claims: {counts}; and {settings} settings."


def _toctree(caption, entries):
    """A hidden MyST ``toctree`` (the sidebar) with ``entries``."""
    return "\n".join(["```{toctree}", f":caption: {caption}", ":hidden:", "", *entries, "```"])


# ------------------------------------------------------------------------------ building
def build(figures_dir=None, out=None, staging=None, docs=None):
    """Stage the sources, build the HTML site with Sphinx, check its links.

    Parameters
    ----------
    figures_dir : str or Path, optional
        Default ``figures/``.
    out : str or Path, optional
        Default :data:`BOOK_DIR`.
    staging : str or Path, optional
        Default ``<out>-src``.
    docs : str or Path, optional
        The guide's pages (:func:`stage`); default :data:`CONF_DIR`.

    Returns
    -------
    Path
        The site's folder (open ``index.html``).

    Raises
    ------
    RuntimeError
        Sphinx failed (a warning counts as an error) or the site has broken links.
    """
    out = Path(out or BOOK_DIR)
    staging = stage(
        figures_dir or paths.FIGURES_DIR, staging or out.with_name(out.name + "-src"), docs
    )
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(CONF_DIR), "-W"]
    command += ["--keep-going", "-n", "-q", "-E", str(staging), str(out)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"sphinx-build failed:\n{result.stderr}{result.stdout}")
    problems = check_site(out)
    if problems:
        raise RuntimeError("the book has broken links:\n" + "\n".join(problems))
    return out


class _Links(HTMLParser):
    """The ids, links and loaded resources of one HTML page."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.resources = set(), [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.ids.update(attrs[key] for key in ("id", "name") if attrs.get(key))
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("img", "script", "source") and attrs.get("src"):
            self.resources.append(attrs["src"])
        if tag == "link" and attrs.get("href") and "stylesheet" in (attrs.get("rel") or ""):
            self.resources.append(attrs["href"])


@functools.cache
def _parse(page):
    """The ids, links and resources of the HTML page ``page`` (read once)."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def check_site(site):
    """Every internal link, image and script of the HTML pages under ``site`` that does not
    resolve, and every resource a page would load from the network.

    A link resolves when its file exists and, with a ``#fragment``, the page has that id.

    Returns
    -------
    list of str
        One line per problem, ``page: what``; empty when the site is whole.
    """
    site = Path(site).resolve()
    _parse.cache_clear()
    problems = []
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] == "_static":
            continue  # the themes' template macros, not pages
        parsed = _parse(page)
        where = page.relative_to(site)
        for url in parsed.resources:
            if urlsplit(url).scheme in ("http", "https") or url.startswith("//"):
                problems.append(f"{where}: loads {url} from the network")
        for url in parsed.links + parsed.resources:
            problem = _broken(page, url)
            if problem:
                problems.append(f"{where}: {problem}")
    return problems


def _broken(page, url):
    """Why the internal ``url`` of ``page`` does not resolve, or ``None``."""
    parts = urlsplit(url)
    if parts.scheme or url.startswith("//"):
        return None
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return f"{url}: no such file"
    fragment = unquote(parts.fragment)
    if fragment and target.suffix == ".html" and fragment not in _parse(target).ids:
        return f"{url}: no #{fragment} in {target.name}"
    return None


def main(argv=None):
    """``python -m compendium.book``: build the book and check its links."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--figures", type=Path, default=paths.FIGURES_DIR)
    parser.add_argument("--out", type=Path, default=BOOK_DIR)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        site = build(args.figures, args.out)
    except (FileNotFoundError, RuntimeError) as error:
        print(error, file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
    print(f"{site / 'index.html'} ({seconds:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
