"""Reproduction rows, tables and the assembled report."""

import pandas as pd
import pytest

from dimred.compendium.reporting import (
    README_BEGIN,
    README_END,
    assemble,
    reproduction_row,
    write_reproduction,
    write_table,
)


def test_row_validates_status_and_computes_deviation():
    row = reproduction_row("table1", "x", 2.0, 2.5, "deviates")
    assert row["deviation"] == pytest.approx(0.5)
    assert reproduction_row("t", "x", "a b", "a b", "match")["deviation"] is None
    with pytest.raises(ValueError, match="status"):
        reproduction_row("t", "x", 1, 1, "ok")


def test_assemble_writes_report_and_refreshes_readme(tmp_path):
    for paper, statuses in {"p1": ["match", "deviates"], "p2": ["within_error"]}.items():
        rows = [reproduction_row("t", f"i{k}", 1, 1, s) for k, s in enumerate(statuses)]
        write_reproduction(rows, tmp_path / "figures" / paper)
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{README_BEGIN}\nold\n{README_END}\noutro\n")
    report = assemble(tmp_path / "figures", readme)
    text = report.read_text()
    assert "## p1" in text and "deviates" in text
    new = readme.read_text()
    assert "old" not in new and "| p1 " in new and new.endswith("outro\n")
    assert (tmp_path / "figures" / "p1" / "reproduction.md").exists()


def test_write_table_writes_csv_and_markdown(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.0]}, index=["x", "y"])
    write_table(frame, tmp_path / "sub" / "t")
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "sub" / "t.csv", index_col=0), frame, check_dtype=False
    )
    assert "| x " in (tmp_path / "sub" / "t.md").read_text()
