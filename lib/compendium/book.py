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
  (``figures/<paper>/<paper>.ipynb``) followed by its reproduction table, an HTML table
  whose status column is coloured and which ``docs/_static/reproduction.js`` lets a reader
  sort and filter;
* ``summary.md``, the compendium-wide summary (``figures/REPRODUCTION.md``);
* ``api.rst``, the API reference: every public module of :mod:`dimred` (the papers'
  protocols, in ``papers``, are the chapters) with its docstring and the
  objects it defines, each on a page of its own (``api/<name>.rst``) from its numpydoc
  docstring (:func:`write_api`);
* ``contributing.md``, the contributing guide.

:func:`check_site` then checks every internal link and image reference of the site, and
that no page loads anything from the network. This module is also a Sphinx extension
(:func:`setup`, listed in ``docs/conf.py``): a reference resolves when it names an object
of :mod:`dimred` that can be imported (under a re-exported name too: it links where the
object is documented, or to its nearest documented class or module), and fails otherwise;
the trailing underscores of fitted attributes in numpydoc shapes such as
``(n_samples, n_components_)`` are escaped; math is shown as its TeX source (MathJax
would come from the network).

Command line::

    python -m compendium.book [--figures DIR] [--out DIR]
"""

import argparse
import dataclasses
import functools
import html
import importlib
import inspect
import pkgutil
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
from .papers import load_papers
from .reporting import STATUSES, read_findings, status_summary

__all__ = [
    "BOOK_DIR",
    "CONF_DIR",
    "GUIDE",
    "TABLE_COLUMNS",
    "build",
    "check_site",
    "defined_names",
    "landing_page",
    "main",
    "public_modules",
    "reproduction_table",
    "setup",
    "stage",
    "write_api",
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
        notebook.cells.append(_table_cell(paper, report))
        nbformat.write(notebook, staging / "papers" / f"{key}.ipynb")
    (staging / "index.md").write_text(landing_page(figures_dir, papers))
    for page in GUIDE:
        shutil.copyfile(docs / f"{page}.md", staging / f"{page}.md")
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
        "Each chapter is a paper's executed notebook, as `make figures` ran it, followed by its",
        "reproduction table; nothing here was executed to build the book.",
        "",
        "## The guide",
        "",
        *[f"- [{title}]({page}.md)" for page, title in GUIDE.items()],
        "",
        "## Status counts",
        "",
        summary.to_markdown(),
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


def _table_cell(paper, report):
    """The markdown cell that ends a chapter: the paper's reproduction table in HTML."""
    text = (
        "## Reproduction table\n\n"
        f"{paper.reference()}\n\n"
        f"Each of the {len(report)} rows of `reproduction.csv`: a number or claim of the paper "
        "beside ours, with its status. Type in the box to filter the rows, choose a status, "
        "or click a column's header to sort by it.\n\n"
        f"{reproduction_table(report)}\n"
    )
    return nbformat.v4.new_markdown_cell(text, id="reproduction-table")


#: The columns of a reproduction table in the book, in order: the status first.
TABLE_COLUMNS = ("status", "artifact", "item", "published", "reproduced", "deviation", "note")


def reproduction_table(report):
    """``report`` (a ``reproduction.csv``) as an HTML table, one line, status cells classed.

    The columns are :data:`TABLE_COLUMNS` first, then the others in the file's order.

    Parameters
    ----------
    report : DataFrame

    Returns
    -------
    str
        ``<div class="reproduction-wrapper"><table class="reproduction">...</table></div>``;
        each row carries ``data-status``, each cell the class ``col-<column>`` and each
        status cell ``status status-<status>`` too.
    """
    first = [column for column in TABLE_COLUMNS if column in report.columns]
    report = report[first + [column for column in report.columns if column not in first]]
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in report.columns)
    rows = []
    for row in report.astype(object).where(report.notna(), "").itertuples(index=False):
        cells = "".join(_td(*item) for item in zip(report.columns, row, strict=True))
        rows.append(f'<tr data-status="{html.escape(str(row.status))}">{cells}</tr>')
    return (
        '<div class="reproduction-wrapper"><table class="reproduction">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _td(column, value):
    """One cell, classed by its column (and a status cell by its status)."""
    classes = f"col-{column}" + (f" status status-{value}" if column == "status" else "")
    return f'<td class="{html.escape(classes)}">{_cell(value)}</td>'


def _cell(value):
    """A table cell's text, escaped, on one line."""
    return html.escape(str(value)).replace("\n", "<br>")


def write_api(staging):
    """Write the API reference: ``api.rst`` (per public module, its docstring and its
    objects, each with the first paragraph of its docstring) and ``api/<name>.rst``, one
    page per object (autodoc, numpydoc).

    Parameters
    ----------
    staging : Path
        The staged sources.
    """
    lines = [
        "API reference",
        "=============",
        "",
        "Every public module of :mod:`dimred` and the objects it defines, from their",
        "docstrings. The names of ``dimred.__all__`` are importable from :mod:`dimred` itself:",
        "",
    ]
    lines += [f"- :py:obj:`dimred.{name}`" for name in importlib.import_module("dimred").__all__]
    (staging / "api").mkdir()
    for module in public_modules():
        names = defined_names(module)
        lines += ["", module.__name__, "-" * len(module.__name__), ""]
        lines += [f".. automodule:: {module.__name__}", "   :no-members:", ""]
        lines += [_api_item(module, name) for name in names]
        for name in names:
            page = staging / "api" / f"{module.__name__}.{name}.rst"
            page.write_text(_object_page(module, name))
    (staging / "api.rst").write_text("\n".join(lines) + "\n")


def _api_item(module, name):
    """One object of the API page: a link and the first paragraph of its docstring."""
    obj = getattr(module, name)
    role = "py:class" if inspect.isclass(obj) else "py:func" if _is_code(obj) else "py:data"
    summary = (inspect.getdoc(obj) or "").split("\n\n")[0] if _is_code(obj) else ""
    link = f"- :{role}:`~{module.__name__}.{name}`"
    return f"{link}: {' '.join(summary.split())}" if summary else link


def _object_page(module, name):
    """The page of one object: its full name and its autodoc directive. It is reached from
    the API page's links, not from the sidebar (``:orphan:``), whose every page would list
    the hundreds of objects otherwise."""
    obj = getattr(module, name)
    title = f"{module.__name__}.{name}"
    if inspect.isclass(obj):
        directive = [f".. autoclass:: {name}", "   :members:"]
    elif _is_code(obj):
        directive = [f".. autofunction:: {name}"]
    else:
        directive = [f".. autodata:: {name}", "   :no-value:"]
    head = [":orphan:", "", title, "=" * len(title), ""]
    head += [f".. currentmodule:: {module.__name__}", ""]
    return "\n".join(head + directive) + "\n"


def public_modules():
    """Every public module of the library :mod:`dimred`, in import-name order (the papers'
    protocols are not in it: each is its chapter)."""
    import dimred

    found = [dimred]
    for info in pkgutil.walk_packages(dimred.__path__, "dimred."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue
        found.append(importlib.import_module(info.name))
    return sorted(found, key=lambda module: module.__name__)


def defined_names(module):
    """The public names ``module`` defines itself: of its ``__all__`` (or, without one, of
    its public classes and functions) the classes and functions whose ``__module__`` is
    ``module``, and the data, in a module that is not a package (a package re-exports)."""
    listed = getattr(module, "__all__", None)
    if listed is None:
        listed = [name for name, obj in vars(module).items() if _is_code(obj)]
    names = []
    for name in listed:
        obj = getattr(module, name)
        if name.startswith("_"):
            continue
        if _is_code(obj) and obj.__module__ == module.__name__:
            names.append(name)
        elif not _is_code(obj) and not inspect.ismodule(obj) and not hasattr(module, "__path__"):
            names.append(name)
    return names


def _is_code(obj):
    """Whether ``obj`` is a class or a function (it has a module of its own); a function
    compiled by numba counts as the Python function it compiles (``py_func``)."""
    compiled_from = getattr(obj, "py_func", None)
    return inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isfunction(compiled_from)


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


# ------------------------------------------------------------------- Sphinx extension
def setup(app):
    """Sphinx extension: resolve references by Python object, leave out the members other
    packages add to :mod:`dimred`'s classes, escape what reStructuredText would misread, and
    show math as its TeX source (``html_math_renderer = "tex"``: MathJax would be loaded
    from the network)."""
    app.connect("missing-reference", _resolve_by_object)
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("autodoc-process-docstring", _escape_docstring, priority=400)
    app.add_html_math_renderer("tex", (_inline_tex, None), (_block_tex, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def _inline_tex(translator, node):
    """Inline math as its TeX source, in ``<code class="math">``."""
    from docutils import nodes

    translator.body.append(translator.starttag(node, "code", "", CLASS="math"))
    translator.body.append(translator.encode(node.astext()) + "</code>")
    raise nodes.SkipNode


def _block_tex(translator, node):
    """Displayed math as its TeX source, in ``<pre class="math">``."""
    from docutils import nodes

    translator.body.append(translator.starttag(node, "pre", "", CLASS="math"))
    translator.body.append(translator.encode(node.astext()) + "</pre>\n")
    raise nodes.SkipNode


#: A literal span of a docstring line: left as written.
_LITERAL = re.compile(r"(``.+?``)")
#: A shape in a numpydoc type: ``shape (n_samples, n_components_)``.
_SHAPE = re.compile(r"shape \(([^)]*)\)")
#: An identifier's trailing underscore, which reStructuredText reads as a link.
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,)]|$)")
#: ``|word|`` in prose (a set's size), which reStructuredText reads as a substitution.
_BARS = re.compile(r"(?<![|`\\])\|(\w+)\|(?![|`_])")


def _escape_docstring(app, what, name, obj, options, lines):
    """Escape, outside literals and before numpydoc reads the docstring, the trailing
    underscores of the names in shapes and the bars around a word."""
    for index, line in enumerate(lines):
        parts = _LITERAL.split(line)
        parts[::2] = [_escape_prose(part) for part in parts[::2]]
        lines[index] = "".join(parts)


def _escape_prose(text):
    """``text`` (no literal in it) with shapes and ``|word|`` escaped."""
    text = _SHAPE.sub(
        lambda match: "shape (" + _TRAILING_UNDERSCORE.sub(r"\\_", match.group(1)) + ")", text
    )
    return _BARS.sub(r"\\|\1\\|", text)


def _skip_foreign_member(app, what, name, obj, skip, options):
    """Skip a class member defined outside :mod:`dimred` (scikit-learn's metadata-routing
    setters); otherwise leave autodoc's decision."""
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and callable(obj) and not module.startswith("dimred"):
        return True
    return None


#: What :func:`_locate` returns for a name that cannot be imported.
_MISSING = object()


def _resolve_by_object(app, env, node, contnode):
    """A reference to a name under which an object of :mod:`dimred` can be imported: to
    where that object is documented, else to its nearest documented parent (class or
    module). A name that cannot be imported stays unresolved, and fails the build."""
    from sphinx.util.nodes import make_refnode

    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    context = [node.get("py:module"), node.get("py:class")]
    candidates = [target] + [
        ".".join(part for part in (*context[: i + 1], target) if part) for i in range(2)
    ]
    path = next((name for name in candidates if _locate(name) is not _MISSING), None)
    if path is None:
        return None
    domain = env.get_domain("py")
    entries = {**domain.objects, **domain.modules}
    found = _locate(path)
    last = path.rsplit(".", 1)[-1]
    same = [name for name in entries if name.rsplit(".", 1)[-1] == last]
    name = next((name for name in same if _locate(name) is found), None)
    while name is None and "." in path:
        path = path.rsplit(".", 1)[0]
        name = path if path in entries else None
    if name is None:
        return None
    entry = entries[name]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)


@functools.cache
def _locate(path):
    """The object importable as ``path`` under :mod:`dimred`, or :data:`_MISSING`."""
    parts = path.split(".")
    if parts[0] != "dimred":
        return _MISSING
    for end in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for attribute in parts[end:]:
            obj = _attribute(obj, attribute)
            if obj is _MISSING:
                break
        return obj
    return _MISSING


def _attribute(obj, name):
    """``obj.name``; for a dataclass, also a field without a class attribute (a default
    factory's); else :data:`_MISSING`."""
    if hasattr(obj, name):
        return getattr(obj, name)
    fields = {field.name: field for field in dataclasses.fields(obj)} if _dataclass(obj) else {}
    return fields.get(name, _MISSING)


def _dataclass(obj):
    """Whether ``obj`` is a dataclass (the class, not an instance)."""
    return inspect.isclass(obj) and dataclasses.is_dataclass(obj)


# ------------------------------------------------------------------------- command line
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
