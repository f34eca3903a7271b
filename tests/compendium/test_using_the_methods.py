"""The examples of the book's page "Using the methods" (``docs/using.md``) run as written
and print what the page shows under each of them."""

import contextlib
import io
import re
import warnings

from compendium import paths

PAGE = paths.ROOT / "docs" / "using.md"
#: A ```python block, then the ```text block of what it prints.
EXAMPLE = re.compile(r"```python\n(.*?)```\n\n```text\n(.*?)```", re.DOTALL)


def _examples():
    """``(heading, code, printed)`` of every example, in the page's order."""
    text = PAGE.read_text()
    found = []
    for match in EXAMPLE.finditer(text):
        heading = re.findall(r"^## (.+)$", text[: match.start()], re.MULTILINE)[-1]
        found.append((heading, match.group(1), match.group(2)))
    return found


def test_the_page_has_an_example_per_family_each_with_its_output():
    headings = [heading for heading, _, _ in _examples()]
    assert len(headings) == 5 and len(set(headings)) == 5
    assert PAGE.read_text().count("```python") == len(headings)


def test_every_example_prints_what_the_page_shows():
    """The examples share one namespace, as a reader running them one after the other."""
    namespace = {}
    for heading, code, printed in _examples():
        out = io.StringIO()
        with warnings.catch_warnings(), contextlib.redirect_stdout(out):
            warnings.simplefilter("ignore")
            exec(compile(code, f"docs/using.md: {heading}", "exec"), namespace)
        assert out.getvalue() == printed, heading
