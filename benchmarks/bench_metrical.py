"""Benchmark: closed-form z_i (Eq. (1), O(M n)) against the pairwise double sum (O(M^2 n)).

Run with ``make bench``. Both are timed in the same process on Bank Marketing's
``bank-full.csv`` (45,211 rows, 7 numeric + 9 categorical features): the closed form
:data:`REPEATS` times, the pairwise sum (about two minutes on two cores) once. The
report gives the speed ratio and the largest difference of the two results, written
to ``figures/metrical_importance/benchmark.{csv,md}`` (timings of the machine it ran
on), and the finding ``closed_form_speed`` to ``findings.csv`` beside the notebook's.

``python benchmarks/bench_metrical.py [ROWS [FOLDER]]`` times the first ``ROWS`` rows
only and writes to ``FOLDER`` instead (a quick check).
"""

import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

from dimred import load_bank_marketing
from dimred.compendium import paths
from dimred.compendium.reporting import finding_row, format_spread, write_findings, write_table
from dimred.importance.metrical import (
    encode_mixed,
    within_class_sq_distances,
    within_class_sq_distances_pairwise,
)

#: Timings of the closed form (milliseconds each: repeats are cheap).
REPEATS = 10


def timings(function, repeat):
    """Wall times (s) of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return np.array(times), result


def speed_finding(closed_s, pairwise_s, rows, max_difference, data):
    """The finding ``closed_form_speed``: the speed ratio over the closed form's repeats."""
    ratios = pairwise_s / closed_s
    statement = (
        "Eq. (1) in closed form costs O(M·n) instead of O(M²·n). On `bank-full.csv` "
        f"({rows:,} rows), `make bench` runs both in one process on {os.cpu_count()} cores: "
        f"the closed form takes {format_spread(1000 * closed_s, 1, ' ms', 'repeats')}, the "
        f"pairwise sum {pairwise_s:.3g} s, a ratio of "
        f"{format_spread(ratios, 0, what='repeats')}; the two results differ by at most "
        f"{max_difference:.1e} (`benchmark.md`)."
    )
    return finding_row(
        "closed_form_speed",
        "Speed",
        statement,
        "pairwise-sum time / closed-form time of Eq. (1) on bank-full.csv, per closed-form "
        "repeat (benchmark)",
        ratios,
        data=data,
        spread=f"min-max over {ratios.size} repeats of the closed form",
        note=f"the pairwise sum ({pairwise_s:.3g} s) is timed once, the closed form "
        f"{closed_s.size} times: the spread is that of the closed form's repeats only",
    )


def main(rows=None, folder=None):
    folder = Path(folder or paths.FIGURES_DIR / "metrical_importance")
    bank = load_bank_marketing(full=True)
    frame, target = bank.frame, bank.target
    data = "real (UCI Bank Marketing, bank-full.csv)"
    if rows:
        frame, target = frame.iloc[:rows], target[:rows]
        data = f"real (UCI Bank Marketing, first {rows} rows of bank-full.csv)"
    y = LabelEncoder().fit_transform(target)
    values, scale = encode_mixed(frame.to_numpy(dtype=object), bank.categorical)
    args = (values, scale, bank.categorical, y)
    closed_s, closed = timings(lambda: within_class_sq_distances(*args), REPEATS)
    (pairwise_s,), pairwise = timings(lambda: within_class_sq_distances_pairwise(*args), 1)
    max_difference = float(np.nanmax(np.abs(closed - pairwise)))
    report = pd.DataFrame(
        [
            {
                "benchmark": "metrical z_i: closed form vs pairwise (Eq. 1)",
                "rows": len(y),
                "features": values.shape[1],
                "cores": os.cpu_count(),
                "pairwise_s": round(pairwise_s, 3),
                "closed_form_s": round(float(np.median(closed_s)), 5),
                "closed_form_min_s": round(float(closed_s.min()), 5),
                "closed_form_max_s": round(float(closed_s.max()), 5),
                "closed_form_repeats": closed_s.size,
                "speed_ratio": round(float(np.median(pairwise_s / closed_s)), 1),
                "max_abs_difference": max_difference,
                "same_constant_features": bool(
                    np.array_equal(np.isnan(closed), np.isnan(pairwise))
                ),
            }
        ]
    )
    write_table(report, folder / "benchmark", index=False, data=data)
    finding = speed_finding(closed_s, pairwise_s, len(y), max_difference, data)
    write_findings([finding], folder, f"make bench ({Path(__file__).name})")
    print(report.to_markdown(index=False))
    print(finding["statement"])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None, *sys.argv[2:3])
