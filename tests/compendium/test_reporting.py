"""Reproduction rows, tables, findings and the notebook's report."""

import pandas as pd
import pytest

from compendium.reporting import (
    Artefacts,
    Report,
    comparison_table,
    finding_row,
    format_spread,
    render_findings,
    reproduction_row,
    write_benchmark,
    write_findings,
    write_table,
)


def test_row_validates_status_and_computes_deviation():
    row = reproduction_row("table1", "x", 2.0, 2.5, "deviates")
    assert row["deviation"] == pytest.approx(0.5)
    assert reproduction_row("t", "x", "a b", "a b", "match")["deviation"] is None
    with pytest.raises(ValueError, match="status"):
        reproduction_row("t", "x", 1, 1, "ok")


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


def test_a_step_shows_the_paper_against_ours_without_index_or_nan():
    rows = [
        reproduction_row("t", "MAE a|b", "0.52 ± 0.03", "0.61 ± 0.04", "deviates", 0.09),
        reproduction_row("claims", "c", "holds", "fails", "deviates"),
    ]
    text = comparison_table(rows)
    lines = text.splitlines()
    assert lines[2].replace(" ", "") == "|item|published|reproduced|deviation|status|"
    assert "MAE a\\|b" in text, "a bar in a cell cannot end it"
    assert "nan" not in text.lower() and "None" not in text
    assert lines[-1].replace(" ", "") == "|c|holds|fails||deviates|"
