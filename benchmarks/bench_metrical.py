"""Benchmark: closed-form z_i (Eq. (1), O(M n)) against the pairwise double sum (O(M^2 n)).

Run with ``make bench``. Both are timed in the same process on Bank Marketing's
``bank-full.csv`` (45,211 rows, 7 numeric + 9 categorical features); the report gives
the speed ratio and the largest difference of the two results, written to
``figures/metrical_importance/benchmark.{csv,md}`` (timings of the machine it ran on).
"""

import sys
import time

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

from dimred import load_bank_marketing
from dimred.compendium import paths
from dimred.compendium.reporting import write_table
from dimred.importance.metrical import (
    encode_mixed,
    within_class_sq_distances,
    within_class_sq_distances_pairwise,
)


def best_time(function, repeat):
    """Smallest wall time of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(rows=None):
    bank = load_bank_marketing(full=True)
    frame, target = bank.frame, bank.target
    if rows:
        frame, target = frame.iloc[:rows], target[:rows]
    y = LabelEncoder().fit_transform(target)
    values, scale = encode_mixed(frame.to_numpy(dtype=object), bank.categorical)
    args = (values, scale, bank.categorical, y)
    closed_s, closed = best_time(lambda: within_class_sq_distances(*args), repeat=5)
    pairwise_s, pairwise = best_time(lambda: within_class_sq_distances_pairwise(*args), 1)
    report = pd.DataFrame(
        [
            {
                "benchmark": "metrical z_i: closed form vs pairwise (Eq. 1)",
                "rows": len(y),
                "features": values.shape[1],
                "pairwise_s": round(pairwise_s, 3),
                "closed_form_s": round(closed_s, 5),
                "speed_ratio": round(pairwise_s / closed_s, 1),
                "max_abs_difference": float(np.nanmax(np.abs(closed - pairwise))),
                "same_constant_features": bool(
                    np.array_equal(np.isnan(closed), np.isnan(pairwise))
                ),
            }
        ]
    )
    write_table(report, paths.FIGURES_DIR / "metrical_importance" / "benchmark", index=False)
    print(report.to_markdown(index=False))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
