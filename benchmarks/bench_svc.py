"""Benchmark: a linear SVC's predictions by libsvm (``SVC.predict``, the paper's) against
:func:`papers.awa2_dr_survey.svc.ovo_predict` (one matrix product, libsvm's vote).

Run with ``make bench``. One ``SVC(kernel="linear", C=1)`` is fitted on a stratified
60 % of :data:`N_SAMPLES` rows of the AwA2-shaped synthetic set (2,048 features, 50
classes; :func:`dimred.datasets.awa2_like`), then both predict the other 40 % in the
same process, :data:`REPEATS` times, interleaved. The report gives the speed ratio of
every repeat and the number of rows whose predictions differ (it must be 0), written to
``figures/awa2_dr_survey/benchmark_svc.{csv,md}`` (timings of the machine it ran on),
and the finding ``svc_prediction_speed`` to ``findings.csv`` beside the notebook's.

``python benchmarks/bench_svc.py [FOLDER]`` writes to ``FOLDER`` instead.
"""

import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from compendium import paths
from compendium.reporting import finding_row, format_spread, write_benchmark
from dimred.datasets import awa2_like
from papers.awa2_dr_survey.svc import ovo_predict

#: Rows of the synthetic set (AwA2 has 37,322; the fit takes about 40 s at 7,000).
N_SAMPLES = 7000
REPEATS = 3
DATA = "synthetic (awa2_like: AwA2's shape, 2,048 features, 50 classes)"


def fitted(seed=0):
    """The SVC of the survey fitted on 60 % of the synthetic rows, and the other 40 %."""
    X, y = awa2_like(N_SAMPLES, random_state=seed, dtype=np.float64)
    train, test = train_test_split(np.arange(len(y)), test_size=0.4, stratify=y, random_state=0)
    return SVC(kernel="linear", C=1.0).fit(X[train], y[train]), X[test]


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def repeats(model, X_test, repeat=REPEATS):
    """Both predictions ``repeat`` times, interleaved: one row per repeat."""
    rows = []
    for k in range(repeat):
        libsvm_s, reference = timed(model.predict, X_test)
        fast_s, fast = timed(ovo_predict, model, X_test)
        rows.append(
            {
                "benchmark": "linear SVC prediction: libsvm vs one matrix product",
                "repeat": k,
                "test_rows": len(X_test),
                "features": X_test.shape[1],
                "support_vectors": model.support_vectors_.shape[0],
                "cores": os.cpu_count(),
                "libsvm_s": round(libsvm_s, 2),
                "matrix_product_s": round(fast_s, 3),
                "speed_ratio": round(libsvm_s / fast_s, 1),
                "rows_differing": int(np.sum(fast != reference)),
            }
        )
    return pd.DataFrame(rows)


def speed_finding(report):
    """The finding ``svc_prediction_speed``: the speed ratio over the repeats."""
    first = report.iloc[0]
    statement = (
        f"`make bench` ({first['test_rows']:,} test rows x {first['features']:,} features, "
        f"{first['support_vectors']:,} support vectors, {first['cores']} cores) predicts with "
        f"a linear SVC faster through one matrix product and libsvm's vote than through "
        f"libsvm by a factor of {format_spread(report['speed_ratio'], 1, what='repeats')}: "
        f"{report['libsvm_s'].median():.1f} s against {report['matrix_product_s'].median():.2f} s "
        f"(medians), with {int(report['rows_differing'].sum())} differing predictions over "
        f"the repeats (`benchmark_svc.md`)."
    )
    return finding_row(
        "svc_prediction_speed",
        "Speed of the SVC's predictions",
        statement,
        "libsvm prediction time / matrix-product prediction time, per repeat (benchmark)",
        report["speed_ratio"],
        data=DATA,
        predicate="no prediction differs",
        holds=bool(report["rows_differing"].sum() == 0),
        note=f"{len(report)} repeats on one fitted SVC",
    )


def main(folder=None):
    folder = Path(folder or paths.FIGURES_DIR / "awa2_dr_survey")
    report = repeats(*fitted())
    write_benchmark(report, folder / "benchmark_svc", [speed_finding(report)], DATA, __file__)


if __name__ == "__main__":
    main(*sys.argv[1:2])
