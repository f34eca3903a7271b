"""The README: short, its example runs as written, its status table and links are current.

The README is for a newcomer (CONTRIBUTING.md): what this is, the two commands, the results
at a glance, how to read, rerun and use, the data, how to cite. Everything longer lives in
the book's guide (``docs/*.md``), where the generated findings, cost and run-history blocks
now are (``tests/integration/test_notebooks.py``, ``test_run_history.py``).
"""

import contextlib
import io
import re
import warnings

from compendium import pages, paths
from compendium.pages import README_BEGIN, README_END, readme_block

README = paths.ROOT / "README.md"
#: The README's length, at most (CONTRIBUTING.md: "about 150 lines").
MAX_LINES = 150
#: A printed line of the README's example: one model's cross-validated MAE.
PRINTED = re.compile(r"^[\w ,]+: MAE \d+\.\d\d ranks over 5 folds$")


def test_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; the book holds the rest"


def test_readme_example_runs_as_written():
    """The first ```python block of the README, executed as it stands, prints one MAE per
    model."""
    code = re.search(r"^```python\n(.*?)^```$", README.read_text(), re.M | re.S).group(1)
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        exec(compile(code, "README.md", "exec"), {"__name__": "__main__"})
    printed = out.getvalue().splitlines()
    assert len(printed) == 3 and all(PRINTED.match(line) for line in printed), printed


def test_readme_status_table_is_the_committed_figures():
    block = readme_block(README.read_text(), README_BEGIN, README_END)
    assert block == pages.render_status(paths.FIGURES_DIR), (
        "README's status table and figures/*/reproduction.csv differ: make figures"
    )


def test_readme_links_resolve_and_the_long_blocks_moved_to_the_book():
    text = README.read_text()
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not re.match(r"https?://", link)]
    assert any(link.startswith("docs/") for link in local)
    for link in local:
        assert (paths.ROOT / link).is_file(), f"README links {link}, which does not exist"
    for marker in ("<!-- findings:", "<!-- cost:", "<!-- attribution:", "<!-- run-history:"):
        assert marker not in text, f"{marker} belongs to the book's pages (docs/)"
    for page in ("findings.md", "running.md", "determinism.md", "data.md", "using.md"):
        assert f"(docs/{page})" in text, f"the README does not point to docs/{page}"


def test_readme_scaling_sentence_is_the_committed_model():
    """The README's cluster paragraph states what the scaling model predicts from the
    committed ledgers (``python -m compendium.scaling`` refreshes it)."""
    import pandas as pd

    from compendium import scaling

    awa2 = scaling.awa2_full_size(
        pd.read_csv(paths.FIGURES_DIR / "awa2_dr_survey" / "cost_protocol.csv")
    )
    expected = scaling.summary_sentence(scaling.scaling_table(paths.FIGURES_DIR), awa2)
    assert readme_block(README.read_text(), scaling.BEGIN, scaling.END) == expected
