"""Reproduction rows, tables and the assembled report."""

import os

import pandas as pd
import pytest

from compendium import paths, reporting
from compendium.reporting import (
    COST_BEGIN,
    COST_END,
    FINDINGS_PAGE,
    README_BEGIN,
    README_END,
    RUNNING_PAGE,
    Artefacts,
    Report,
    assemble,
    deviation_headline,
    finding_row,
    findings_markers,
    format_spread,
    render_findings,
    reproduction_row,
    status_summary,
    write_benchmark,
    write_findings,
    write_reproduction,
    write_table,
)


def test_row_validates_status_and_computes_deviation():
    row = reproduction_row("table1", "x", 2.0, 2.5, "deviates")
    assert row["deviation"] == pytest.approx(0.5)
    assert reproduction_row("t", "x", "a b", "a b", "match")["deviation"] is None
    with pytest.raises(ValueError, match="status"):
        reproduction_row("t", "x", 1, 1, "ok")


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
    monkeypatch.setattr(reporting, "readme_path", lambda readme=None: readme_trap)
    monkeypatch.setattr(reporting, "DOCS_DIR", tmp_path / "no-such-docs")
    assemble(tmp_path / "figures")  # not the compendium's figures/: no page is refreshed
    assert (readme.read_text(), (docs / FINDINGS_PAGE).read_text()) == before
    assert reporting._pages(paths.FIGURES_DIR) == (readme_trap, tmp_path / "no-such-docs")
    assert reporting._pages(tmp_path / "figures") == (None, None)
    assert reporting._pages(paths.FIGURES_DIR, os.devnull, docs) == (None, docs)


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


def test_write_table_writes_csv_and_markdown_and_says_which_data(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.0]}, index=["x", "y"])
    write_table(frame, tmp_path / "sub" / "t", data="real (toy)")
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "sub" / "t.csv", index_col=0),
        frame.assign(data="real (toy)"),
        check_dtype=False,
    )
    assert "| x " in (tmp_path / "sub" / "t.md").read_text()
    with pytest.raises(ValueError, match="which data"):
        write_table(frame, tmp_path / "u")
    for bad in ("measured", "real(toy)", "", None):
        with pytest.raises(ValueError, match="data label"):
            write_table(frame.assign(data=bad), tmp_path / "u")
    write_table(frame.assign(data=["stand-in (x)", "published"]), tmp_path / "v")


def test_benchmark_names_its_data_once_or_row_by_row(tmp_path):
    report = pd.DataFrame({"ratio": [2.0, 3.0]})
    speed = finding_row("speed", "Speed", "fast", "ratio", [2.0, 3.0], data="synthetic")
    write_benchmark(report, tmp_path / "one", [speed], "synthetic (toy)", "bench_x.py")
    assert pd.read_csv(tmp_path / "one.csv")["data"].tolist() == ["synthetic (toy)"] * 2
    rows = report.assign(data=["real (a)", "real (b)"])
    write_benchmark(rows, tmp_path / "each", [speed], None, "bench_x.py")
    assert pd.read_csv(tmp_path / "each.csv")["data"].tolist() == ["real (a)", "real (b)"]
    assert pd.read_csv(tmp_path / "findings.csv")["produced_by"].tolist() == [
        "make bench (bench_x.py)"
    ]
    with pytest.raises(ValueError, match="which data"):
        write_benchmark(report, tmp_path / "none", [speed], None, "bench_x.py")


def test_findings_keep_their_spread_and_other_producers(tmp_path):
    draws = [21, 25, 26, 30, 42, 22, 24, 25, 28, 23]
    row = finding_row(
        "zero_k", "Zero", f"k = {format_spread(draws, 0)}", "first k", draws, data="synthetic",
        predicate="median <= 22", holds=False,
    )  # fmt: skip
    assert (row["value"], row["low"], row["high"], row["n_draws"]) == (25.0, 21.0, 42.0, 10)
    assert row["spread"] == "min-max over 10 draws"
    assert row["statement"] == "k = 25 (21–42 over 10 draws)"
    with pytest.raises(ValueError, match="verdict"):
        finding_row("x", "X", "s", "m", 1.0, data="real", predicate="p")
    bench = finding_row("speed", "Speed", "fast", "ratio", [3.0, 3.2, 3.1], data="synthetic")
    write_findings([bench], tmp_path, "make bench")
    frame = write_findings([row], tmp_path, "notebook")
    assert frame["finding"].tolist() == ["zero_k", "speed"]
    assert frame["produced_by"].tolist() == ["notebook", "make bench"]
    again = write_findings([row], tmp_path, "notebook")  # a rerun replaces its own rows only
    assert again["finding"].tolist() == ["zero_k", "speed"]
    # two benchmark scripts writing to one folder keep each other's rows
    other = finding_row("other", "Other", "slow", "ratio", [1.0, 1.1, 1.2], data="synthetic")
    both = write_findings([other], tmp_path, "make bench (bench_b.py)")
    assert both["finding"].tolist() == ["zero_k", "speed", "other"]
    assert (
        write_findings([bench], tmp_path, "make bench")["finding"].tolist()
        == both["finding"].tolist()
    )
    with pytest.raises(ValueError, match="stated twice"):
        write_findings([row, row], tmp_path, "notebook")
    first = render_findings(again).splitlines()[0]
    assert first == "- **Zero.** k = 25 (21–42 over 10 draws) (`zero_k`)"


def test_report_writes_named_or_custom_indexes_and_shows_nothing_without_ipython(tmp_path):
    import matplotlib.pyplot as plt

    report = Report(tmp_path, display=False)
    evenly_spaced = pd.DataFrame({"a": [1, 2]}, index=pd.Index([3, 5], name="K"))
    default = pd.DataFrame({"a": [1, 2]})
    fig, _ = plt.subplots()
    row = reproduction_row("t", "x", 1, 1, "match", source="table:key")
    finding = finding_row("f", "F", "s", "m", 1.0, data="real (toy)")
    labels = {"k": "real (toy)", "d": "synthetic", "rows": "real (toy)"}
    artefacts = Artefacts(
        {"k": evenly_spaced, "d": default}, {"f": fig}, [row], ["a note"], [finding], labels
    )
    report.show(artefacts)
    assert pd.read_csv(tmp_path / "k.csv").columns.tolist() == ["K", "a", "data"]
    assert pd.read_csv(tmp_path / "d.csv")["data"].tolist() == ["synthetic"] * 2
    assert (tmp_path / "f.png").exists() and (tmp_path / "f.pdf").exists()
    assert not plt.fignum_exists(fig.number)
    frame = report.write()
    assert frame["source"].tolist() == ["table:key"] and frame["data"].tolist() == ["real (toy)"]
    assert pd.read_csv(tmp_path / "findings.csv")["finding"].tolist() == ["f"]
    with pytest.raises(ValueError, match="which data"):
        Report(tmp_path, display=False).show(Artefacts({"t": default}))
