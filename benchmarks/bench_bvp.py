"""Benchmark: Best-View Projection, Algorithm 1 (Riemannian gradient descent, one
viewpoint per removed dimension) against the spectral closed form (one SVD).

Run with ``make bench``. A problem with 300 dimensions and 12 ordinal classes is
reduced to 2 dimensions by both solvers in the same process; the report gives the
speed ratio, the objective G (Eq. (1)) each reaches and the largest principal angle
between the two subspaces. Written to ``build/bench/bvp.md``.
"""

import time

import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles

from dimred import BestViewProjection
from dimred.compendium import paths
from dimred.compendium.reporting import write_table


def problem(n_features=300, n_classes=12, per_class=40, seed=0):
    """Ordinal Gaussian classes whose centres drift along a random walk."""
    rng = np.random.default_rng(seed)
    centres = np.cumsum(rng.normal(size=(n_classes, n_features)), axis=0)
    y = np.repeat(np.arange(1, n_classes + 1), per_class)
    return centres[y - 1] + rng.normal(scale=2.0, size=(y.size, n_features)), y


def timed(estimator, X, y):
    start = time.perf_counter()
    fitted = estimator.fit(X, y)
    return time.perf_counter() - start, fitted


def main():
    X, y = problem()
    faithful_s, faithful = timed(BestViewProjection(2, solver="riemannian", random_state=0), X, y)
    spectral_s, spectral = timed(BestViewProjection(2, solver="spectral"), X, y)
    report = pd.DataFrame(
        [
            {
                "benchmark": "BVP: Algorithm 1 vs spectral closed form",
                "features": X.shape[1],
                "classes": len(np.unique(y)),
                "algorithm1_s": round(faithful_s, 3),
                "spectral_s": round(spectral_s, 5),
                "speed_ratio": round(faithful_s / spectral_s, 1),
                "objective_algorithm1": faithful.objective_,
                "objective_spectral": spectral.objective_,
                "algorithm1_iterations": faithful.n_iter_,
                "max_principal_angle": float(
                    np.max(subspace_angles(faithful.components_.T, spectral.components_.T))
                ),
            }
        ]
    )
    write_table(report, paths.ROOT / "build" / "bench" / "bvp", index=False)
    print(report.to_markdown(index=False))


if __name__ == "__main__":
    main()
