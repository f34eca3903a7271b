"""Reproduction rows, tables and the assembled report."""

import pandas as pd
import pytest

from compendium.reporting import (
    README_BEGIN,
    README_END,
    Artefacts,
    Report,
    assemble,
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


def test_assemble_writes_report_and_refreshes_readme(tmp_path):
    statuses = {"p1": ["match", "deviates", "setting", "setting"], "p2": ["within_error"]}
    for paper, listed in statuses.items():
        rows = [reproduction_row("t", f"i{k}", 1, 1, s, data="real") for k, s in enumerate(listed)]
        write_reproduction(rows, tmp_path / "figures" / paper)
    finding = finding_row("f1", "A title", "It is 3.", "m", [3.0], data="synthetic")
    write_findings([finding], tmp_path / "figures" / "p1", "notebook")
    begin, end = findings_markers("p1")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{README_BEGIN}\nold\n{README_END}\n{begin}\nstale\n{end}\noutro\n")
    report = assemble(tmp_path / "figures", readme)
    text = report.read_text()
    assert "## p1" in text and "deviates" in text and "It is 3." in text
    new = readme.read_text()
    assert "old" not in new and "stale" not in new and "| p1 " in new and new.endswith("outro\n")
    assert "- **A title.** It is 3. (`f1`)" in new
    assert (tmp_path / "figures" / "p1" / "reproduction.md").exists()
    # settings are counted apart: not results, not in the total
    summary = status_summary(tmp_path / "figures")
    assert summary.loc["p1", ["match", "deviates", "total", "setting"]].tolist() == [1, 1, 2, 2]
    assert list(summary.columns)[-2:] == ["total", "setting"]


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
