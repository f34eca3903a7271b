"""Benchmark: Best-View Projection, Algorithm 1 (Riemannian gradient descent, one
viewpoint per removed dimension) against the spectral closed form (one SVD).

Run with ``make bench``. A problem with 300 dimensions and 12 ordinal classes is
reduced to 2 dimensions by both solvers in the same process, :data:`REPEATS` times
each (interleaved); the report gives the speed ratio of every repeat, the objective G
(Eq. (1)) each reaches and the largest principal angle between the two subspaces,
written to ``figures/bvp/benchmark.{csv,md}`` (timings of the machine it ran on), and
the finding ``spectral_speed`` to ``findings.csv`` beside the notebook's.

The swiss-roll sensitivity step measures every map by its trustworthiness and
continuity (``k = 5``): :func:`~dimred.metrics.embedding.neighbourhood_scores`, which
ranks only each point's ``k`` nearest (:func:`~dimred.utils.ranks.crossed_ranks`), is
timed against the full rankings of both spaces it replaced
(:class:`~dimred.metrics.coranking.CoRanking`) on the step's
data (the Fig. 3 swiss rolls, 800 points in 3-D, mapped by PCA, LDA and BVP), with the
largest difference of the scores (0: the same floats), to
``figures/bvp/benchmark_neighbourhood.{csv,md}``.

``python benchmarks/bench_bvp.py [FOLDER]`` writes to ``FOLDER`` instead.
"""

import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles

from compendium import paths
from compendium.reporting import finding_row, format_spread, write_benchmark, write_table
from dimred import BestViewProjection
from dimred.metrics.coranking import ReferenceRanking
from dimred.metrics.embedding import neighbourhood_scores
from papers.bvp.data import SYNTHETIC_DATA, load_synthetic
from papers.bvp.methods import embed

#: Timings of each solver (Algorithm 1 takes about ten seconds on two cores).
REPEATS = 5
#: Scorings of each map by each implementation of the neighbourhood scores.
SCORE_REPEATS = 10
#: The sensitivity step's neighbourhood and maps.
SCORE_NEIGHBOURS = 5
SCORED_METHODS = ("PCA", "LDA", "BVP")
DATA = "synthetic (ordinal Gaussian classes, 300 dimensions, 12 classes)"


def problem(n_features=300, n_classes=12, per_class=40, seed=0):
    """Ordinal Gaussian classes whose centres drift along a random walk."""
    rng = np.random.default_rng(seed)
    centres = np.cumsum(rng.normal(size=(n_classes, n_features)), axis=0)
    y = np.repeat(np.arange(1, n_classes + 1), per_class)
    return centres[y - 1] + rng.normal(scale=2.0, size=(y.size, n_features)), y


def timed(function, *args):
    """``(wall seconds, function(*args))``."""
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def repeats(X, y, repeat=REPEATS):
    """Both solvers ``repeat`` times, interleaved: one row per repeat."""
    BestViewProjection(2, solver="spectral").fit(X, y)  # warm-up: imports, BLAS threads
    rows = []
    for k in range(repeat):
        faithful_s, faithful = timed(
            BestViewProjection(2, solver="riemannian", random_state=0).fit, X, y
        )
        spectral_s, spectral = timed(BestViewProjection(2, solver="spectral").fit, X, y)
        rows.append(
            {
                "benchmark": "BVP: Algorithm 1 vs spectral closed form",
                "repeat": k,
                "features": X.shape[1],
                "classes": len(np.unique(y)),
                "cores": os.cpu_count(),
                "algorithm1_s": round(faithful_s, 3),
                "spectral_s": round(spectral_s, 5),
                "speed_ratio": round(faithful_s / spectral_s, 1),
                "objective_algorithm1": faithful.objective_,
                "objective_spectral": spectral.objective_,
                "algorithm1_iterations": faithful.n_iter_,
                "max_principal_angle_deg": float(
                    np.degrees(
                        np.max(subspace_angles(faithful.components_.T, spectral.components_.T))
                    )
                ),
            }
        )
    return pd.DataFrame(rows)


def speed_finding(report):
    """The finding ``spectral_speed``: the speed ratio over the repeats."""
    first = report.iloc[0]
    gap = abs(first["objective_algorithm1"] / first["objective_spectral"] - 1)
    statement = (
        f"`make bench` ({first['features']} dimensions, {first['classes']} classes, "
        f"{first['cores']} cores) measures the spectral solver faster than Algorithm 1 by a "
        f"factor of {format_spread(report['speed_ratio'], 0, what='repeats')} "
        f"({format_spread(report['algorithm1_s'], 1, ' s', 'repeats')} against "
        f"{format_spread(1000 * report['spectral_s'], 0, ' ms', 'repeats')}), for the same "
        f"plane (largest principal angle {report['max_principal_angle_deg'].max():.0e}°) and "
        f"objective (relative difference {gap:.0e}; `benchmark.md`)."
    )
    return finding_row(
        "spectral_speed",
        "Speed of the closed form",
        statement,
        "Algorithm 1 time / spectral solver time, per repeat (benchmark)",
        report["speed_ratio"],
        data=DATA,
        note=f"{len(report)} repeats: Algorithm 1 takes "
        f"{report['algorithm1_s'].median():.0f} s each",
    )


def full_rank_scores(X, Z, k):
    """Trustworthiness and continuity from the full rankings of both spaces
    (:class:`~dimred.metrics.coranking.CoRanking`), as ``neighbourhood_scores`` took them."""
    return ReferenceRanking(X).compare(Z).trustworthiness_continuity(k)


def neighbourhood_rows(repeat=SCORE_REPEATS, k=SCORE_NEIGHBOURS):
    """Both implementations on each map of the Fig. 3 swiss rolls, ``repeat`` times each
    (interleaved): one row per map."""
    X, y = load_synthetic("swiss_rolls")
    rows = []
    for method in SCORED_METHODS:
        Z = embed(method, X, y)
        ours_s = baseline_s = 0.0
        for _ in range(repeat):
            seconds, ours = timed(neighbourhood_scores, X, Z, k)
            ours_s += seconds
            seconds, baseline = timed(full_rank_scores, X, Z, k)
            baseline_s += seconds
        difference = max(abs(a - b) for a, b in zip(ours.values(), baseline, strict=True))
        rows.append(
            {
                "benchmark": f"trustworthiness + continuity (k={k}) of the {method} map: "
                "k nearest counted vs full rankings",
                "n": len(y),
                "features": X.shape[1],
                "ours_s": round(ours_s / repeat, 4),
                "baseline_s": round(baseline_s / repeat, 4),
                "speed_ratio": round(baseline_s / ours_s, 1),
                "max_difference": float(difference),
            }
        )
    return pd.DataFrame(rows)


def main(folder=None):
    folder = Path(folder or paths.FIGURES_DIR / "bvp")
    report = repeats(*problem())
    write_benchmark(report, folder / "benchmark", [speed_finding(report)], DATA, __file__)
    scores = neighbourhood_rows()
    label = SYNTHETIC_DATA["swiss_rolls"]
    write_table(scores, folder / "benchmark_neighbourhood", index=False, data=label)
    print(scores.to_markdown(index=False))


if __name__ == "__main__":
    main(*sys.argv[1:2])
