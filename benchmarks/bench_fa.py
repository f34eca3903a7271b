"""Benchmark: the survey's factor analysis at AwA2's training size, its SVD from ``X^T X``
(:class:`dimred.decomposition.GramFactorAnalysis`) against scikit-learn's
:class:`~sklearn.decomposition.FactorAnalysis` (the authors').

Run with ``make bench``. The AwA2-shaped synthetic set (:func:`dimred.datasets.awa2_like`,
37,322 rows, 2,048 features, 50 classes) is split 60/40 as the protocol splits it
(stratified, seed 0); both fit its 22,393 training rows with the protocol's settings
(:func:`~papers.awa2_dr_survey.pipelines.factor_analysis`: ``tol=1e-2``,
``max_iter=1000``, ``random_state=0``). ``GramFactorAnalysis``, what the protocol runs, fits
every dimension of Table VI; scikit-learn fits :data:`BASELINE_DIMS` (its fits at the
larger dimensions take minutes each). Each fit runs alone in a fresh child process
(:func:`compendium.cost.measure`: wall time, and peak memory beyond its input); the
report gives both times, their ratio, both iteration counts and the largest difference of
the training factors relative to their largest magnitude, written to
``figures/awa2_dr_survey/benchmark_fa.{csv,md}`` (timings of the machine it ran on), and
the finding ``fa_gram_speed`` to ``findings.csv`` beside the notebook's. The notebook's
cost step reads the table: its FA row at AwA2's size is the sum of the Gram fits.

``python benchmarks/bench_fa.py [FOLDER]`` writes to ``FOLDER`` instead.
"""

import os
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.decomposition import FactorAnalysis
from sklearn.model_selection import train_test_split

from compendium import paths
from compendium.cost import measure
from compendium.published import load_table
from compendium.reporting import finding_row, format_spread, write_benchmark
from dimred.datasets import AWA2_SHAPE, awa2_like
from dimred.decomposition import GramFactorAnalysis

#: Dimensions at which scikit-learn's FA is fitted too (Table VI's smallest, its
#: middle ones and that of Table XIV's FA row).
BASELINE_DIMS = (2, 16, 128, 512)
SETTINGS = dict(tol=1e-2, max_iter=1000, random_state=0)
MIB = 2**20
DATA = "synthetic (awa2_like: AwA2's shape, 2,048 features, 50 classes)"


def training_part(seed=0):
    """The 22,393 training rows of the AwA2-shaped set, split as the protocol splits."""
    X, y = awa2_like(*AWA2_SHAPE, random_state=seed)
    train, _ = train_test_split(np.arange(len(y)), test_size=0.4, stratify=y, random_state=0)
    return X[np.sort(train)]


def fit(model_class, X, n_components):
    """The training factors of one fit, and its EM iterations (run in the child)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = model_class(n_components, **SETTINGS)
        return model.fit_transform(X), model.n_iter_


def measured(model_class, X, d):
    """Seconds, MiB, iterations and training factors of one fit in a fresh child."""
    m = measure(fit, model_class, X, d, return_result=True)
    factors, iterations = m.result
    return m.wall_time, m.peak_memory / MIB, iterations, factors


def report(X, dims):
    rows = []
    for d in dims:
        gram_s, gram_mib, gram_iter, ours = measured(GramFactorAnalysis, X, d)
        row = {
            "benchmark": "factor analysis: SVD from X^T X vs scikit-learn's",
            "n_train": X.shape[0],
            "features": X.shape[1],
            "n_components": d,
            "cores": os.cpu_count(),
            "gram_s": round(gram_s, 2),
            "gram_MiB": round(gram_mib),
            "gram_iterations": gram_iter,
        }
        if d in BASELINE_DIMS:
            sk_s, sk_mib, sk_iter, reference = measured(FactorAnalysis, X, d)
            row |= {
                "sklearn_s": round(sk_s, 2),
                "sklearn_MiB": round(sk_mib),
                "sklearn_iterations": sk_iter,
                "speed_ratio": round(sk_s / gram_s, 1),
                "max_difference": float(
                    f"{np.abs(ours - reference).max() / np.abs(reference).max():.2g}"
                ),
            }
        print(row, flush=True)
        rows.append(row)
    return pd.DataFrame(rows)


def speed_finding(frame):
    """The finding ``fa_gram_speed``: the speed ratio at the baseline's dimensions."""
    both = frame.dropna(subset=["speed_ratio"])
    first = frame.iloc[0]
    same = bool(
        (both["gram_iterations"] == both["sklearn_iterations"]).all()
        and (both["max_difference"] < 1e-6).all()
    )
    statement = (
        f"`make bench` ({first['n_train']:,} training rows x {first['features']:,} features, "
        f"{first['cores']} cores) fits the survey's factor analysis faster with its SVD "
        f"taken from X^T X than with scikit-learn's by a factor of "
        f"{format_spread(both['speed_ratio'], 1, what='dimensions')} "
        f"(d = {', '.join(map(str, both['n_components']))}), with the same iterations and "
        f"factors equal to {both['max_difference'].max():.0e} of their largest magnitude; "
        f"Table VI's {len(frame)} dimensions take {frame['gram_s'].sum():.0f} s in all "
        f"(`benchmark_fa.md`)."
    )
    return finding_row(
        "fa_gram_speed",
        "Speed of factor analysis at AwA2's training size",
        statement,
        "scikit-learn's fit time / GramFactorAnalysis's, per dimension (benchmark)",
        both["speed_ratio"],
        data=DATA,
        predicate="same iterations, factors within 1e-6 of their largest magnitude",
        holds=same,
        note=f"one fit per dimension and solver at {len(both)} dimensions",
    )


def main(folder=None):
    folder = Path(folder or paths.FIGURES_DIR / "awa2_dr_survey")
    dims = [int(d) for d in load_table("awa2_dr_survey", "table6")["n_components"]]
    frame = report(training_part(), dims)
    write_benchmark(frame, folder / "benchmark_fa", [speed_finding(frame)], DATA, __file__)


if __name__ == "__main__":
    main(*sys.argv[1:2])
