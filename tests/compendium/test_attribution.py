"""Attribution of profiler samples to the code that spent them (scripts/profile_costs.py)."""

import pandas as pd
import pytest

from compendium.attribution import (
    attribute,
    attributed_minutes,
    group_of,
    kernel,
    owner,
    read_raw,
    render_attribution,
)
from compendium.pages import cost_attribution

PROCESS = 'process 12:"python scripts/profile_costs.py --run orml"'
STEP = "table2_usps (papers/relevance_learning/protocol.py:833)"
NERV = "_block_terms (dimred/relevance/nerv.py:530)"
EXP = "0x7f00 (numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so)"
GEMM = "dgemm_kernel_SKYLAKEX (numpy.libs/libopenblas64_p-r0-5007b62f.3.23.dev.so)"
FOREST = "forest_proba (dimred/utils/forest.py:120)"
BUILDER = "DepthFirstTreeBuilder_build (sklearn/tree/_tree.cpython-311-x86_64-linux-gnu.so)"
TSNE = "_kl_divergence_bh (sklearn/manifold/_t_sne.py:300)"


@pytest.mark.parametrize(
    "stack, expected",
    [
        # NumPy and BLAS called from the compendium are the compendium's time
        ([PROCESS, STEP, NERV, EXP], "dimred"),
        ([PROCESS, STEP, NERV, GEMM, "0x7f01 (libc.so.6)"], "dimred"),
        # a library's compiled code called from the compendium is the library's
        ([PROCESS, STEP, FOREST, BUILDER], "scikit-learn"),
        ([PROCESS, STEP, TSNE, EXP], "scikit-learn"),
        # the innermost owner decides: the compendium called back from a library
        ([PROCESS, TSNE, NERV, EXP], "dimred"),
        # a BLAS pool thread: nothing but BLAS and the C library
        ([PROCESS, "blas_thread_server (libopenblas.so)", "0x7f (libc.so.6)"], "BLAS threads"),
        ([PROCESS, "gc_collect_main (libpython3.11.so.1.0)"], "runtime"),
        ([PROCESS, STEP, "KDLOR.fit (skordinal/classifiers/_kdlor.py:253)", EXP], "skordinal"),
        ([PROCESS, "_find_and_load (<frozen importlib._bootstrap>:1176)"], "imports"),
        ([PROCESS, "run (concurrent/futures/thread.py:58)"], "other Python"),
        (
            [PROCESS, NERV, "wait (threading.py:320)", "lock_PyThread_acquire_lock (libpython)"],
            "waiting",
        ),
    ],
)
def test_owner(stack, expected):
    assert owner(stack) == expected


def test_folder_patterns_match_path_components_only():
    """``dimred/`` is the package folder, not a folder whose name ends with it."""
    assert owner([PROCESS, "f (mydimred/x.py:1)"]) == "other Python"
    assert owner([PROCESS, "f (/site-packages/dimred/x.py:1)"]) == "dimred"


def test_attribute_counts_and_leaves_waiting_out(tmp_path):
    raw = tmp_path / "raw.txt"
    lines = [
        ";".join([PROCESS, STEP, NERV, EXP]) + " 30",
        ";".join([PROCESS, STEP, FOREST, BUILDER]) + " 50",
        ";".join([PROCESS, STEP, NERV, GEMM]) + " 12",
        ";".join([PROCESS, "wait (threading.py:320)", "PyThread_acquire_lock_timed (x)"]) + " 99",
    ]
    raw.write_text("\n".join(lines) + "\n")
    stacks = read_raw(raw)
    assert [count for _, count in stacks] == [30, 50, 12, 99]
    counts = attribute(stacks)
    assert counts.to_dict() == {
        ("scikit-learn", "other compiled"): 50.0,
        ("dimred", "NumPy loops"): 30.0,
        ("dimred", "BLAS"): 12.0,
    }
    assert list(counts.index.names) == ["owner", "kernel"]


@pytest.mark.parametrize(
    "frame, expected",
    [
        (GEMM, "BLAS"),
        ("exp (libm.so.6)", "libm (exp, log)"),
        (EXP, "NumPy loops"),
        ("einsum (numpy/core/einsumfunc.py:1400)", "Python"),
        (BUILDER, "other compiled"),
        (NERV, "Python"),
        ("_find_and_load (<frozen importlib._bootstrap>:1176)", "Python"),
    ],
)
def test_kernel_is_what_the_innermost_frame_runs(frame, expected):
    assert kernel([PROCESS, STEP, frame]) == expected


def test_groups():
    assert group_of("dimred") == "compendium (dimred)"
    assert {group_of(name) for name in ("scikit-learn", "shap", "torch", "xgboost")} == {
        "libraries"
    }
    assert group_of("joblib") == group_of("BLAS threads") == "orchestration and unattributed"


def _shares():
    return pd.DataFrame(
        {
            "paper": ["a", "a", "a"],
            "step": ["fit", "fit", "plot"],
            "owner": ["dimred", "scikit-learn", "matplotlib"],
            "kernel": ["BLAS", "other compiled", "Python"],
            "group": ["compendium (dimred)", "libraries", "orchestration and unattributed"],
            "share": [0.75, 0.25, 1.0],
        }
    )


def test_minutes_add_up_to_the_ledgers():
    ledgers = {
        "a": pd.DataFrame({"step": ["setup", "fit", "plot"], "wall_s": [30.0, 600.0, 60.0]}),
        "b": pd.DataFrame({"step": ["only"], "wall_s": [120.0]}),
    }
    minutes = attributed_minutes(_shares(), ledgers)
    assert minutes["minutes"].sum() == pytest.approx(13.5)
    fit = minutes[minutes["step"] == "fit"].set_index("owner")["minutes"]
    assert fit.to_dict() == pytest.approx({"dimred": 7.5, "scikit-learn": 2.5})
    unsampled = minutes[minutes["group"] == "not sampled"]
    assert sorted(unsampled["step"]) == ["only", "setup"]
    assert unsampled["minutes"].sum() == pytest.approx(2.5)


def test_render_says_what_the_target_needs():
    ledgers = {"a": pd.DataFrame({"step": ["fit", "plot"], "wall_s": [600.0, 60.0]})}
    minutes = attributed_minutes(_shares(), ledgers)
    text = render_attribution(minutes, target_minutes=5)
    assert "sum to 11.0 min, 6.0 min over the target of 5 min" in text
    assert "7.5 min of them is the compendium's own code" in text
    assert "it calls: BLAS 7.5)" in text
    assert "the target needs 80% of the compendium's own time taken off" in text
    assert "2.5 min the libraries'" in text
    assert "By owner (min): dimred 7.5, scikit-learn 2.5, matplotlib 1.0." in text
    assert "within the target of 20 min" in render_attribution(minutes, target_minutes=20)


def test_report_section_only_with_shares(tmp_path):
    (tmp_path / "a").mkdir()
    pd.DataFrame({"step": ["fit", "plot"], "wall_s": [600.0, 60.0]}).to_csv(
        tmp_path / "a" / "cost.csv", index=False
    )
    assert cost_attribution(tmp_path) is None
    _shares().to_csv(tmp_path / "cost_attribution.csv", index=False)
    text = cost_attribution(tmp_path)
    assert "sum to 11.0 min, within the target of 100 min" in text
    assert "| all papers |" in text
