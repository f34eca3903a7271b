"""What the book adds to a chapter and to the landing page, from a reproduction table."""

import re

import pandas as pd

from compendium import chapters
from compendium.pages import status_summary
from compendium.papers import load_papers
from compendium.reporting import reproduction_row, write_reproduction


def report():
    """Six deviating rows in two published tables, two rows without a reason's detail."""
    rows = [reproduction_row("table2", f"MAE {k}", 1.0, 1.5, "deviates", source=f"table2_usps:{k}",
                             data="real") for k in range(4)]  # fmt: skip
    rows += [reproduction_row("claims", "c", "holds", "fails", "deviates", data="real")] * 2
    rows += [reproduction_row("t", "x", 1, 1, "match", data="real")]
    note = "data not obtainable (here: a; b): error {}"
    rows += [reproduction_row("t", f"y{k}", 1, None, "not_reproducible", data="real",
                              note=note.format(k)) for k in range(3)]  # fmt: skip
    rows += [reproduction_row("t", "s", 0.8, 0.8, "setting", data="real")]
    return pd.DataFrame(rows)


def test_a_chapter_opens_with_its_counts_what_deviates_and_why_not_reproduced():
    text = chapters.summary_cell(report()).source
    assert text.startswith("## At a glance")
    assert "Of 10 published numbers and claims: 1 match, 0 within_error, 6 deviates, " in text
    assert "3 not_reproducible; and 1 settings restated" in text
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert bullets[0].startswith("- **Table 2 USPS** (4): ") and bullets[0].endswith("and 1 more")
    assert re.findall(r'href="#row-(\d+)"', bullets[0]) == ["1", "2", "3"]
    assert bullets[1].startswith("- **claims** (2): ")
    assert bullets[2] == "- data not obtainable (here: a; b) (3)", (
        "the reason, not each row's detail"
    )


def test_every_summary_link_has_its_row_in_the_reproduction_table():
    frame = report()
    table = chapters.reproduction_table(frame)
    ids = set(re.findall(r'<tr id="(row-\d+)"', table))
    links = set(re.findall(r'href="#(row-\d+)"', chapters.summary_cell(frame).source))
    assert links <= ids and len(ids) == len(frame)


def test_the_landing_table_links_each_paper_and_colours_its_counts(tmp_path):
    write_reproduction(report().to_dict("records"), tmp_path / "bvp")
    papers = load_papers()
    html = chapters.status_table(status_summary(tmp_path), papers)
    assert f'<a href="papers/bvp.html">{papers["bvp"].short}</a>' in html
    assert '<td class="status-deviates">6</td>' in html and "<td>0</td>" in html
    assert html.count("<tr>") == 2, "a header and the one paper with a table"
