"""The book (``make book``): built once per session, checked like a site, read in a browser.

The book is built from the committed executed notebooks (``figures/<paper>/<paper>.ipynb``)
when every paper has one, else from this session's quick runs, published the same way. The
build treats every Sphinx warning as an error and checks every internal link and image
(:func:`compendium.book.build` raises otherwise). Headless Chromium (Debian's
``chromium`` and ``chromium-driver``, driven by selenium) then opens the landing page and
every chapter: every image must have loaded, the reproduction table must be there and work,
and the browser's console must show no error. Without Chromium the browser test skips;
under CI (``CI`` set) it fails instead.
"""

import functools
import http.server
import re
import shutil
import threading

import nbformat
import pandas as pd
import pytest
from test_book_references import PENDING, WORKSPACE_TEXT, pending

import dimred
from compendium import api_reference, book, notebooks, pages, papers, paths, publishing
from dimred.datasets import ci_enabled
from papers import PAPERS

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
#: The flags of every headless Chromium the tests start: no network beyond 127.0.0.1.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def committed_figures():
    """``figures/`` when every paper's executed notebook is committed there, else ``None``."""
    complete = all((paths.FIGURES_DIR / p / f"{p}.ipynb").is_file() for p in PAPERS)
    return paths.FIGURES_DIR if complete else None


def quick_figures(quick_run, root):
    """A figures folder of this session's quick runs, each executed notebook published."""
    for paper in PAPERS:
        figures, executed = quick_run(paper)
        shutil.copytree(figures, root / paper)
        nbformat.write(executed, root / paper / "executed.ipynb")
        source = notebooks.notebook_path(paper)
        publishing.publish(root / paper / "executed.ipynb", root / paper / f"{paper}.ipynb", source)
    pages.assemble(root)  # not the compendium's figures/: no README or page refreshed
    return root


@pytest.fixture(scope="session")
def figures(request, tmp_path_factory):
    """Where the book is built from: the committed runs, or this session's quick runs."""
    committed = committed_figures()
    if committed is not None:
        return committed
    quick_run = request.getfixturevalue("quick_run")
    return quick_figures(quick_run, tmp_path_factory.mktemp("book-figures"))


@pytest.fixture(scope="session")
def site(figures, tmp_path_factory):
    """The book, built once per session (Sphinx warnings are errors; links checked)."""
    return book.build(figures, tmp_path_factory.mktemp("book") / "html")


def chapter(site, paper):
    return site / "papers" / f"{paper}.html"


@pytest.mark.notebook
def test_book_has_a_landing_page_a_chapter_per_paper_and_an_api_reference(site, figures):
    landing = (site / "index.html").read_text(encoding="utf-8")
    for key, paper in papers.load_papers().items():
        assert chapter(site, key).is_file()
        assert f'href="papers/{key}.html"' in landing
        assert paper.link in landing
    for page in ("summary", "api", "contributing", *book.GUIDE):
        assert (site / f"{page}.html").is_file()
    for page in book.GUIDE:
        assert f'href="{page}.html"' in landing
    api = (site / "api.html").read_text(encoding="utf-8")
    assert all(f"dimred.{name}" in api for name in dimred.__all__)


def test_landing_page_lists_the_guide_and_links_each_papers_findings():
    """The landing page links every page of the guide, and each paper's findings to its
    section of ``docs/findings.md`` (by the anchor MyST gives its heading)."""
    registry = papers.load_papers()
    landing = book.landing_page(paths.FIGURES_DIR, registry)
    for page, title in book.GUIDE.items():
        assert f"[{title}]({page}.md)" in landing
        assert (book.CONF_DIR / f"{page}.md").is_file() or page == "using", page
    headings = re.findall(r"^## (.+)$", (book.CONF_DIR / "findings.md").read_text(), re.M)
    anchors = {book._anchor(heading) for heading in headings}
    for key, paper in registry.items():
        if (paths.FIGURES_DIR / key / "findings.csv").is_file():
            link = f"(findings.md#{book._anchor(paper.short)})"
            assert link in landing and book._anchor(paper.short) in anchors, key
    assert book._anchor("AwA2 survey") == "awa2-survey"
    assert book._anchor("Best-View Projection") == "best-view-projection"


def test_compiled_functions_are_listed_as_functions():
    """A function compiled by numba is on the API page as a function, with its summary."""
    from papers.metrical_importance import forest_compiled

    assert api_reference.defined_names(forest_compiled) == ["grow_forest", "rank_values"]
    item = api_reference._api_item(forest_compiled, "grow_forest")
    assert item.startswith(
        "- :py:func:`~papers.metrical_importance.forest_compiled.grow_forest`: Sum over trees"
    )


@pytest.mark.notebook
@pytest.mark.parametrize("paper", PAPERS)
def test_chapter_ends_with_its_reproduction_table(site, figures, paper):
    page = chapter(site, paper).read_text(encoding="utf-8")
    report = pd.read_csv(figures / paper / "reproduction.csv")
    rows = re.findall(r'<tr id="row-(\d+)" data-status="(\w+)">', page)
    assert rows == [(str(n), s) for n, s in enumerate(report["status"], start=1)]
    statuses = [status for _, status in rows]
    for status in set(statuses):
        assert f'class="col-status status status-{status}"' in page
    assert page.index("At a glance") < page.index("Reproduction table")


@pytest.mark.notebook
@pytest.mark.parametrize("paper", [pending(paper) for paper in PAPERS])
def test_chapter_cites_no_workspace_path(site, paper):
    assert not WORKSPACE_TEXT.search(chapter(site, paper).read_text(encoding="utf-8"))


@pytest.mark.notebook
def test_other_pages_cite_no_workspace_path(site):
    chapters = {chapter(site, paper) for paper in PENDING}
    for page in site.rglob("*.html"):
        if page not in chapters:
            assert not WORKSPACE_TEXT.search(page.read_text(encoding="utf-8")), page.name


def test_a_broken_link_or_a_remote_resource_is_reported(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="sub/page.html#here">ok</a><a href="#top" id="top">top</a>'
        '<a href="sub/page.html#nowhere">x</a><img src="_images/missing.png">'
        '<script src="https://cdn.example.org/x.js"></script><a href="https://example.org">y</a>'
    )
    (tmp_path / "sub" / "page.html").write_text('<p id="here"><a href="../index.html">up</a></p>')
    assert book.check_site(tmp_path) == [
        "index.html: loads https://cdn.example.org/x.js from the network",
        "index.html: sub/page.html#nowhere: no #nowhere in page.html",
        "index.html: _images/missing.png: no such file",
    ]


# --------------------------------------------------------------------------------- browser
@pytest.fixture(scope="session")
def served(site):
    """The book served over HTTP on 127.0.0.1: its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by selenium (Debian's packages; nothing is downloaded)."""
    if not (CHROMIUM and CHROMEDRIVER):
        message = (
            "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        )
        if ci_enabled():
            pytest.fail(f"CI is set: the browser test must run: {message}", pytrace=False)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--window-size=1280,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield driver
    driver.quit()


#: Every image of the page with whether it loaded: lazy images are made eager first.
IMAGES = """
const done = arguments[arguments.length - 1];
const images = Array.from(document.images);
images.forEach((image) => { image.loading = "eager"; });
Promise.all(images.map((image) => image.decode().catch(() => null))).then(() =>
  done(images.map((image) => [image.currentSrc || image.src, image.naturalWidth])));
"""


#: The number of rows of the page's reproduction table.
ROWS = "return document.querySelectorAll('table.reproduction tbody tr').length"


def open_page(driver, url):
    """Load ``url``; return its images as ``(src, natural width)`` and its console errors."""
    driver.get(url)
    images = driver.execute_async_script(IMAGES)
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return images, errors


@pytest.mark.notebook
def test_pages_load_every_image_without_console_errors(browser, served):
    pages = ["index.html"] + [f"papers/{paper}.html" for paper in PAPERS]
    for page in pages:
        images, errors = open_page(browser, f"{served}/{page}")
        assert not errors, f"{page}: console errors {errors}"
        assert all(width > 0 for _, width in images), f"{page}: not loaded {images}"
        if page.startswith("papers/"):
            assert images, f"{page}: a chapter shows its figures"
            rows = browser.execute_script(ROWS)
            assert rows > 0, f"{page}: no reproduction table"


@pytest.mark.notebook
def test_reproduction_table_filters_and_sorts(browser, served, figures):
    paper = PAPERS[0]
    report = pd.read_csv(figures / paper / "reproduction.csv")
    status = report["status"].value_counts().index[-1]
    browser.get(f"{served}/papers/{paper}.html")
    shown = browser.execute_script(
        """
        const select = document.querySelector(".reproduction-controls select");
        select.value = arguments[0];
        select.dispatchEvent(new Event("change"));
        const rows = Array.from(document.querySelectorAll("table.reproduction tbody tr"));
        return rows.filter((row) => !row.hidden).map((row) => row.dataset.status);
        """,
        status,
    )
    assert shown == [status] * int((report["status"] == status).sum())
    items = browser.execute_script(
        """
        const headers = Array.from(document.querySelectorAll("table.reproduction thead th"));
        const column = headers.findIndex((header) => header.textContent === "item");
        headers[column].click();
        return Array.from(document.querySelectorAll("table.reproduction tbody tr"))
          .map((row) => row.cells[column].textContent);
        """
    )
    assert items == sorted(report["item"].astype(str), key=str.lower)
    deviations = browser.execute_script(
        """
        const headers = Array.from(document.querySelectorAll("table.reproduction thead th"));
        const column = headers.findIndex((header) => header.textContent === "deviation");
        const values = () => Array.from(document.querySelectorAll("table.reproduction tbody tr"))
          .map((row) => row.cells[column].textContent.trim());
        headers[column].click();
        const ascending = values();
        headers[column].click();
        return [ascending, values()];
        """
    )
    numbers = sorted(float(v) for v in report["deviation"].dropna())
    blanks = [""] * int(report["deviation"].isna().sum())
    for shown, order in zip(deviations, (numbers, numbers[::-1]), strict=True):
        assert [float(v) for v in shown[: len(numbers)]] == order
        assert shown[len(numbers) :] == blanks, "blank cells come last either way"
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


@pytest.mark.notebook
@pytest.mark.parametrize(
    ("page", "selector"),
    [("index.html", "table.status-counts")]
    + [(f"papers/{paper}.html", "table.reproduction") for paper in PAPERS],
)
def test_the_tables_fit_their_column_at_1280_px(browser, served, page, selector):
    """The landing page's status counts and each chapter's reproduction table are no wider
    than the page's column in a 1280-px window: no cell is clipped."""
    browser.get(f"{served}/{page}")
    table, column = browser.execute_script(
        """
        const table = document.querySelector(arguments[0]);
        const column = table.closest("article") || table.parentElement;
        return [table.getBoundingClientRect().width, column.getBoundingClientRect().width];
        """,
        selector,
    )
    assert table <= column + 1, f"{page}: {selector} is {table:.0f} px in a {column:.0f}-px column"
