"""Benchmark: ORML's sparse graph construction against the dense n x n one, the
exact simplex QP against a general-purpose solver (SLSQP), the QP's KKT systems of
one support size solved together against one at a time, and Table 2's USPS sweep with
the largest training sizes sent first against in their order.

Run with ``make bench``. The graph of Eqs. (2)-(3) is built on USPS-sized data
(256 features, 10 ranks) by :func:`dimred.utils.graphs.knn_neighbourhoods` +
:func:`~dimred.utils.graphs.heat_kernel_graph` (per-rank tree queries, O(n k) memory) and
by :func:`~dimred.utils.graphs.dense_ordinal_graph` (all pairwise enlarged distances,
O(n^2) memory), in the same process; the report gives the speed ratio, the
memory each needs for the result and the largest difference between the two
graphs. The QP's problems are USPS-sized (10 ranks: 9 multipliers), rank-deficient as
with a singular scatter, and shifted by a constant (``G^T G + c``, ``c`` up to 20) so that
the search goes past the full support. The USPS sweep (every method, default settings,
two workers) runs :func:`dimred.utils.parallel.run_tasks` with and without ``costs``,
interleaved. Written to ``build/bench/orml.md``.
"""

import time
from functools import partial

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from compendium import paths
from compendium.reporting import write_table
from dimred import datasets
from dimred.ordinal.simplex_qp import simplex_qp
from dimred.utils.graphs import dense_ordinal_graph, heat_kernel_graph, knn_neighbourhoods
from dimred.utils.parallel import run_tasks
from papers.orml.data import USPS_SIZES
from papers.orml.methods import TENSOR_METHODS, TRIVIAL_METHODS, VECTOR_METHODS
from papers.orml.usps import _usps_task


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def sparse_graph(X, codes, k):
    return heat_kernel_graph(knn_neighbourhoods(X, k, codes))


def graph_rows(sizes=(1000, 2000, 4000), n_features=256, n_ranks=10, k=10, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        codes = rng.integers(0, n_ranks, n)
        X = rng.normal(size=(n, n_features)) + codes[:, None] * 0.1
        sparse_s, (graph, _) = timed(sparse_graph, X, codes, k)
        dense_s, dense = timed(dense_ordinal_graph, X, codes, k)
        rows.append({
            "benchmark": "ORML graph: sparse k-NN vs dense n x n",
            "n": n,
            "ours_s": round(sparse_s, 3),
            "baseline_s": round(dense_s, 3),
            "speed_ratio": round(dense_s / sparse_s, 1),
            "ours_MB": round((graph.data.nbytes + graph.indices.nbytes) / 2**20, 3),
            "baseline_MB": round(dense.nbytes / 2**20, 1),
            "max_difference": float(np.abs(graph.toarray() - dense).max()),
        })  # fmt: skip
    return rows


def qp_problems(size, repeats, seed, shifted=False):
    """USPS-sized simplex QPs ``G^T G``, ``G`` with ``size - 2`` rows (rank-deficient, as
    with a singular scatter); ``shifted``: plus a constant up to 20, so that the search
    goes past the full support."""
    rng = np.random.default_rng(seed)
    factors = [rng.normal(size=(size - 2, size)) for _ in range(repeats)]
    return [G.T @ G + (rng.uniform(0, 20) if shifted else 0.0) for G in factors]


def qp_row(size=9, repeats=50, seed=0):
    problems = qp_problems(size, repeats, seed)
    exact_s, exact = timed(lambda: [simplex_qp(H) for H in problems])

    def slsqp(H):
        start = np.full(size, 1.0 / size)
        return minimize(lambda a: a @ H @ a, start, jac=lambda a: 2 * H @ a, method="SLSQP",
                        bounds=[(0, None)] * size,
                        constraints={"type": "eq", "fun": lambda a: a.sum() - 1},
                        options={"ftol": 1e-12, "maxiter": 500}).x  # fmt: skip

    general_s, general = timed(lambda: [slsqp(H) for H in problems])
    gaps = [a @ H @ a - b @ H @ b for H, a, b in zip(problems, exact, general, strict=True)]
    return {
        "benchmark": f"simplex QP ({size} multipliers): exact vs SLSQP",
        "n": repeats,
        "ours_s": round(exact_s, 3),
        "baseline_s": round(general_s, 3),
        "speed_ratio": round(general_s / exact_s, 2),
        "max_difference": float(max(gaps)),
    }


def together_row(size=9, repeats=50, seed=0):
    """The simplex QP with the KKT systems of one support size solved together against
    one at a time (``together=False``), on problems whose solution is not at the full
    support."""
    problems = qp_problems(size, repeats, seed, shifted=True)
    baseline_s, expected = timed(lambda: [simplex_qp(H, together=False) for H in problems])
    ours_s, result = timed(lambda: [simplex_qp(H) for H in problems])
    same = all(a.tobytes() == b.tobytes() for a, b in zip(result, expected, strict=True))
    return {
        "benchmark": f"simplex QP ({size} multipliers): supports of a size together vs one "
        "at a time",
        "n": repeats,
        "ours_s": round(ours_s, 3),
        "baseline_s": round(baseline_s, 3),
        "speed_ratio": round(baseline_s / ours_s, 2),
        "max_difference": 0.0 if same else float("nan"),
    }


def order_row(repetitions=5, rounds=2, seed=0):
    """Table 2's USPS fits (every method, default settings, ``repetitions`` per size) on
    two workers, the largest training sizes first (``costs``) against in task order;
    the median over ``rounds`` interleaved timings of each."""
    usps = datasets.load_usps()
    methods = VECTOR_METHODS + TENSOR_METHODS + TRIVIAL_METHODS
    keys = [(n, p, r) for p in USPS_SIZES for r in range(repetitions) for n in methods]
    jobs = [(usps.data, usps.target, usps.image_shape, n, p, r, None, seed) for n, p, r in keys]
    costs = [p for _, p, _ in keys]
    sweep = partial(run_tasks, _usps_task, jobs, "USPS", 2, progress=False)
    times, results = {"ours": [], "baseline": []}, {}
    for _ in range(rounds):
        for kind, order in (("baseline", None), ("ours", costs)):
            seconds, results[kind] = timed(partial(sweep, costs=order))
            times[kind].append(seconds)
    ours_s, baseline_s = (float(np.median(times[kind])) for kind in ("ours", "baseline"))
    return {
        "benchmark": f"USPS sweep ({len(keys)} fits, 2 workers): largest training sizes "
        "first vs in task order",
        "n": len(keys),
        "ours_s": round(ours_s, 2),
        "baseline_s": round(baseline_s, 2),
        "speed_ratio": round(baseline_s / ours_s, 2),
        "max_difference": 0.0 if results["ours"] == results["baseline"] else float("nan"),
    }


def main():
    report = pd.DataFrame([*graph_rows(), qp_row(), together_row(), order_row()])
    write_table(report, paths.ROOT / "build" / "bench" / "orml", index=False, data="synthetic")
    print(report.to_markdown(index=False))


if __name__ == "__main__":
    main()
