"""The reproduction report and the pages it refreshes (README status table, findings and
cost blocks)."""

import os

import pandas as pd
import pytest

from compendium import pages, paths
from compendium.pages import (
    COST_BEGIN,
    COST_END,
    FINDINGS_PAGE,
    README_BEGIN,
    README_END,
    RUNNING_PAGE,
    assemble,
    deviation_headline,
    findings_markers,
    status_summary,
)
from compendium.reporting import finding_row, reproduction_row, write_findings, write_reproduction


def _figures_and_pages(tmp_path):
    """Two papers' reproduction rows (one with a finding), a README with the status block
    and the book's pages with the findings and cost blocks, all stale."""
    statuses = {"p1": ["match", "deviates", "setting", "setting"], "p2": ["within_error"]}
    for paper, listed in statuses.items():
        rows = [reproduction_row("t", f"i{k}", 1, 1, s, data="real") for k, s in enumerate(listed)]
        write_reproduction(rows, tmp_path / "figures" / paper)
    finding = finding_row("f1", "A title", "It is 3.", "m", [3.0], data="synthetic")
    write_findings([finding], tmp_path / "figures" / "p1", "notebook")
    begin, end = findings_markers("p1")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{README_BEGIN}\nold\n{README_END}\noutro\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / FINDINGS_PAGE).write_text(f"# Found\n{begin}\nstale\n{end}\noutro\n")
    (docs / RUNNING_PAGE).write_text(f"# Costs\n{COST_BEGIN}\nstale\n{COST_END}\n")
    return readme, docs


def test_assemble_writes_report_and_refreshes_readme_and_pages(tmp_path):
    readme, docs = _figures_and_pages(tmp_path)
    report = assemble(tmp_path / "figures", readme, docs)
    text = report.read_text()
    assert "## p1" in text and "deviates" in text and "It is 3." in text
    new = readme.read_text()
    assert "old" not in new and new.endswith("outro\n")
    assert "| p1 " in new and "[p1.ipynb](figures/p1/p1.ipynb)" in new and "`make p1`" in new
    assert "A title" not in new, "the findings are on their page, not in the README"
    found = (docs / FINDINGS_PAGE).read_text()
    assert "stale" not in found and "- **A title.** It is 3. (`f1`)" in found
    assert found.endswith("outro\n")
    assert "No run has written a `cost.csv` yet." in (docs / RUNNING_PAGE).read_text()
    assert (tmp_path / "figures" / "p1" / "reproduction.md").exists()
    # settings are counted apart: not results, not in the total
    summary = status_summary(tmp_path / "figures")
    assert summary.loc["p1", ["match", "deviates", "total", "setting"]].tolist() == [1, 1, 2, 2]
    assert list(summary.columns)[-2:] == ["total", "setting"]


def test_a_page_without_its_block_is_an_error_and_dev_null_is_nothing(tmp_path):
    readme, docs = _figures_and_pages(tmp_path)
    (docs / FINDINGS_PAGE).write_text("# Found\nno markers\n")
    with pytest.raises(ValueError, match="no block"):
        assemble(tmp_path / "figures", readme, docs)
    (docs / FINDINGS_PAGE).unlink()
    with pytest.raises(FileNotFoundError):
        assemble(tmp_path / "figures", readme, docs)
    before = readme.read_text()
    assemble(tmp_path / "figures", os.devnull, os.devnull)  # what quick mode passes
    assert readme.read_text() == before


def test_a_report_of_other_figures_refreshes_no_page_by_default(tmp_path, monkeypatch):
    readme, docs = _figures_and_pages(tmp_path)
    before = readme.read_text(), (docs / FINDINGS_PAGE).read_text()
    readme_trap = tmp_path / "no-such-readme.md"  # refreshing it would fail: not there
    monkeypatch.setattr(pages, "readme_path", lambda readme=None: readme_trap)
    monkeypatch.setattr(pages, "DOCS_DIR", tmp_path / "no-such-docs")
    assemble(tmp_path / "figures")  # not the compendium's figures/: no page is refreshed
    assert (readme.read_text(), (docs / FINDINGS_PAGE).read_text()) == before
    assert pages._pages(paths.FIGURES_DIR) == (readme_trap, tmp_path / "no-such-docs")
    assert pages._pages(tmp_path / "figures") == (None, None)
    assert pages._pages(paths.FIGURES_DIR, os.devnull, docs) == (None, docs)


def test_the_status_table_names_what_deviates_with_counts():
    report = pd.DataFrame(
        {
            "artifact": ["table2", "table2", "fig3", "fig3", "text", "table1"],
            "source": ["table2_usps:a", "table2_usps:b", "claims:x", "umist_fig3:2", "", "t:1"],
            "status": ["deviates"] * 5 + ["match"],
        }
    )
    assert deviation_headline(report) == "Table 2 USPS (2), claims (1), UMIST Fig. 3 (1), text (1)"
    assert deviation_headline(report, groups=2) == "Table 2 USPS (2), claims (1) and 2 more"
    assert deviation_headline(report.assign(status="match")) == "none"
