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


def test_report_writes_named_or_custom_indexes_and_shows_nothing_without_ipython(tmp_path):
    import matplotlib.pyplot as plt

    from dimred.compendium.reporting import Artefacts, Report

    report = Report(tmp_path, display=False)
    evenly_spaced = pd.DataFrame({"a": [1, 2]}, index=pd.Index([3, 5], name="K"))
    default = pd.DataFrame({"a": [1, 2]})
    fig, _ = plt.subplots()
    row = reproduction_row("t", "x", 1, 1, "match", source="table:key")
    report.show(Artefacts({"k": evenly_spaced, "d": default}, {"f": fig}, [row], ["a note"]))
    assert pd.read_csv(tmp_path / "k.csv").columns.tolist() == ["K", "a"]
    assert pd.read_csv(tmp_path / "d.csv").columns.tolist() == ["a"]
    assert (tmp_path / "f.png").exists() and (tmp_path / "f.pdf").exists()
    assert not plt.fignum_exists(fig.number)
    frame = report.write()
    assert frame["source"].tolist() == ["table:key"]
