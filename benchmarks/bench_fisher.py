"""Benchmark: Fisher t-SNE's fast Fisher distances against the exact reference.

Run with ``python benchmarks/bench_fisher.py`` (``--usps`` for 200 real USPS digits
per class instead of the seeded synthetic set, ``--quick`` for a smoke run). The data
are USPS-sized: 256 features, 10 classes, a 1-NN error near USPS' 5 %. In the same
process, on ``n_exact`` points where the reference is feasible:

- :func:`dimred.manifold.fisher_distances` (every path point's Parzen scores in input
  coordinates, ``O(N^3 T d)``) against :func:`dimred.manifold.fisher_neighbors` with
  every pair a candidate: speed ratio and largest difference relative to the median
  distance (rounding only);
- :func:`~dimred.manifold.fisher_neighbors` with its default candidates (twice the
  ``3 * perplexity + 1`` nearest Euclidean neighbours, of the own class and of any
  class): speed ratio and the recall of the exact Fisher neighbours;
- ``T = 10`` against ``T = 40`` path points: how far the default quadrature is from
  convergence;
- the 1-NN error of Fisher t-SNE embeddings, sparse (``barnes_hut``) against dense
  (exact t-SNE on the reference distances: ``FisherTSNE(method="exact")``, the
  construction of the paper's ref. [5]);

and on ``n_large`` points (the paper's 2,000 USPS digits) the time of the fast
distances and of the whole Fisher t-SNE against plain t-SNE, with their 1-NN errors,
and the fast distances' path sums compiled (:mod:`dimred.manifold.fisher_compiled`, the
default) against NumPy's passes (``_block_lengths``): the same neighbours, the lengths
to rounding (the largest relative difference is reported).
The exact reference is also timed on smaller sets; its fitted growth exponent
predicts what the dense construction would cost on ``n_large`` points.
Written to ``figures/relevance_learning/benchmark_fisher.{csv,md}`` (``--output``),
with the findings on it (``findings.csv`` beside, produced by ``make bench``; ``docs/findings.md``
quotes them).
"""

import argparse
import time
from functools import partial
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
from sklearn.manifold import TSNE

from compendium import paths
from compendium.cost import fit_exponent
from compendium.reporting import finding_row, format_spread, write_findings, write_table
from dimred.datasets import load_usps
from dimred.manifold import (
    FisherTSNE,
    fisher_distances,
    fisher_neighbors,
    fisher_paths,
    parzen_width,
)
from dimred.utils.graphs import knn_distances

PERPLEXITY = 30.0
#: Timings of the fast distances (the spread of the speed ratio).
REPEATS = 3


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def synthetic(n, n_features=256, n_classes=10, seed=0):
    """Seeded USPS-like data: class means, a shared 12-d latent structure, noise."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    basis = rng.normal(size=(12, n_features)) / np.sqrt(12)
    means = 0.5 * rng.normal(size=(n_classes, n_features))
    noise = 0.3 * rng.normal(size=(n, n_features))
    return means[y] + rng.normal(size=(n, 12)) @ basis + noise, y


def usps(n, seed=0):
    """``n / 10`` random USPS digits per class (the paper: 200 per class)."""
    bunch, rng = load_usps(), np.random.default_rng(seed)
    rows = [
        rng.choice(np.flatnonzero(bunch.target == c), n // 10, replace=False) for c in range(10)
    ]
    rows = np.sort(np.concatenate(rows))
    return bunch.data[rows], bunch.target[rows]


def one_nn_error(E, y):
    _, nearest = knn_distances(E, 1)
    return float(np.mean(y[nearest[:, 0]] != y))


def neighbour_recall(graph, exact, k):
    """Fraction of the graph's first ``k`` neighbours within the exact ``k``-th distance."""
    others = exact + np.diag(np.full(exact.shape[0], np.inf))
    kth = np.sort(others, axis=1)[:, k - 1]
    chosen = graph.indices.reshape(exact.shape[0], -1)[:, 1 : k + 1]  # after the point itself
    return float(np.mean(np.take_along_axis(others, chosen, axis=1) <= kth[:, None] * (1 + 1e-9)))


def relative_difference(graph, exact):
    coo = graph.tocoo()
    return float(np.abs(coo.data - exact[coo.row, coo.col]).max() / np.median(exact[exact > 0]))


def exact_rows(X, y):
    n = y.size
    k = min(n - 1, int(3 * PERPLEXITY + 1))
    sigma = parzen_width(X, y)
    exact_s, exact = timed(fisher_distances, X, y, sigma)
    repeats = [
        timed(fisher_neighbors, X, y, n - 1, sigma=sigma, n_candidates=n - 1)
        for _ in range(REPEATS)
    ]
    every_s, every = sorted(repeats, key=lambda r: r[0])[len(repeats) // 2]  # the median
    ratios = [exact_s / seconds for seconds, _ in repeats]
    sparse_s, sparse = timed(fisher_neighbors, X, y, k, sigma=sigma)
    finer = fisher_neighbors(X, y, n - 1, sigma=sigma, n_candidates=n - 1, n_steps=40)
    dense = TSNE(metric="precomputed", method="exact", init="random", random_state=0)
    dense_fit_s, dense_fit = timed(dense.fit_transform, exact.copy())  # = FisherTSNE's "exact"
    sparse_fit_s, sparse_fit = timed(FisherTSNE(sigma=sigma, random_state=0).fit_transform, X, y)
    return [
        {"benchmark": "Fisher distances, all pairs: fast vs exact reference", "n": n,
         "ours_s": every_s, "baseline_s": exact_s, "speed_ratio": exact_s / every_s,
         "speed_ratios": " ".join(f"{r:.1f}" for r in ratios),
         "max_rel_difference": relative_difference(every, exact),
         "recall": neighbour_recall(every, exact, k)},
        {"benchmark": f"Fisher {k}-NN graph, default candidates vs exact reference", "n": n,
         "ours_s": sparse_s, "baseline_s": exact_s, "speed_ratio": exact_s / sparse_s,
         "max_rel_difference": relative_difference(sparse, exact),
         "recall": neighbour_recall(sparse, exact, k)},
        {"benchmark": "T = 10 vs T = 40 path points (all pairs)", "n": n,
         "max_rel_difference": relative_difference(every, finer.toarray())},
        {"benchmark": "Fisher t-SNE 1-NN error: barnes_hut (ours) vs exact (baseline)", "n": n,
         "ours_s": sparse_fit_s, "baseline_s": exact_s + dense_fit_s,
         "speed_ratio": (exact_s + dense_fit_s) / sparse_fit_s,
         "ours_1nn_error": one_nn_error(sparse_fit, y),
         "baseline_1nn_error": one_nn_error(dense_fit, y)},
    ]  # fmt: skip


def engine_rows(X, y):
    """The Fisher neighbour graph with the path sums of :mod:`dimred.manifold.fisher_compiled`
    (the default) against NumPy's passes (``_block_lengths`` on blocks of
    ``_PATH_BLOCK`` floats), ``REPEATS`` timings each, interleaved."""
    n = y.size
    k = min(n - 1, int(3 * PERPLEXITY + 1))
    sigma = parzen_width(X, y)
    engines = {
        "compiled": fisher_paths._path_lengths,
        "numpy": partial(fisher_paths._path_lengths, compiled=False),
    }
    times, graphs = {engine: [] for engine in engines}, {}
    for _ in range(REPEATS):
        for engine, path_lengths in engines.items():
            with mock.patch.object(fisher_paths, "_path_lengths", path_lengths):
                seconds, graphs[engine] = timed(fisher_neighbors, X, y, k, sigma=sigma)
            times[engine].append(seconds)
    ours, baseline = (np.median(times[engine]) for engine in times)
    ratios = [b / o for o, b in zip(*times.values(), strict=True)]
    ours_graph, numpy_graph = graphs["compiled"], graphs["numpy"]
    same = all(
        np.array_equal(getattr(ours_graph, part), getattr(numpy_graph, part))
        for part in ("indices", "indptr")
    )
    positive = numpy_graph.data > 0
    difference = np.max(
        np.abs(ours_graph.data - numpy_graph.data)[positive] / numpy_graph.data[positive],
        initial=0.0,
    )
    return [
        {"benchmark": f"Fisher {k}-NN graph: compiled path sums vs NumPy's", "n": n,
         "ours_s": ours, "baseline_s": baseline, "speed_ratio": baseline / ours,
         "speed_ratios": " ".join(f"{r:.2f}" for r in ratios),
         "max_rel_difference": float(difference) if same else np.nan},
    ]  # fmt: skip


def dense_growth(load, sizes, n_large):
    """The exact reference's time on ``sizes`` points and its power law, predicted at
    ``n_large``: one row per size and one for the prediction."""
    seconds = []
    for n in sizes:
        X, y = load(n)
        seconds.append(timed(fisher_distances, X, y, parzen_width(X, y))[0])
    law = fit_exponent(sizes, seconds)
    rows = [
        {"benchmark": "Fisher distances, exact reference (dense)", "n": n, "baseline_s": t}
        for n, t in zip(sizes, seconds, strict=True)
    ]
    predicted = law.prefactor * n_large**law.exponent
    rows.append(
        {"benchmark": f"exact reference predicted (exponent {law.exponent:.2f})",
         "n": n_large, "baseline_s": predicted, "exponent": law.exponent}
    )  # fmt: skip
    return rows


def large_rows(X, y, n_jobs):
    n = y.size
    k = min(n - 1, int(3 * PERPLEXITY + 1))
    sigma_s, sigma = timed(parzen_width, X, y)
    graph_s, _ = timed(fisher_neighbors, X, y, k, sigma=sigma, n_jobs=n_jobs)
    fisher_s, fisher = timed(FisherTSNE(random_state=0, n_jobs=n_jobs).fit_transform, X, y)
    plain_s, plain = timed(TSNE(init="random", random_state=0, n_jobs=n_jobs).fit_transform, X)
    return [
        {"benchmark": f"Parzen width + Fisher {k}-NN graph (fast)", "n": n,
         "ours_s": sigma_s + graph_s},
        {"benchmark": "Fisher t-SNE (ours) vs t-SNE (baseline), time and 1-NN error", "n": n,
         "ours_s": fisher_s, "baseline_s": plain_s, "speed_ratio": plain_s / fisher_s,
         "ours_1nn_error": one_nn_error(fisher, y), "baseline_1nn_error": one_nn_error(plain, y)},
    ]  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--usps", action="store_true", help="real USPS digits (needs the data)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 60 and 300 points")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument(
        "--output", default=paths.FIGURES_DIR / "relevance_learning" / "benchmark_fisher"
    )
    args = parser.parse_args(argv)
    n_exact, n_large = (60, 300) if args.quick else (300, 2000)
    growth = (30, 45, 60) if args.quick else (100, 150, 200, 300)
    load = usps if args.usps else synthetic
    rows = [*exact_rows(*load(n_exact)), *large_rows(*load(n_large), args.n_jobs)]
    rows += engine_rows(*load(n_large))
    rows += dense_growth(load, growth, n_large)
    report = pd.DataFrame(rows).round({"ours_s": 3, "baseline_s": 3, "speed_ratio": 1})
    label = "real (USPS, 9,298 images)" if args.usps else "synthetic (USPS-like)"
    write_table(report, args.output, index=False, data=label)
    write_findings(
        findings(report, label), Path(args.output).parent, f"make bench ({Path(__file__).name})"
    )
    print(report.to_markdown(index=False))


def findings(report, label):
    """The findings' statements on the Fisher metric's speed, from this benchmark's rows."""
    by_name = report.set_index("benchmark")
    fast = by_name.loc["Fisher distances, all pairs: fast vs exact reference"]
    tsne = report[report["benchmark"].str.startswith("Fisher t-SNE (ours) vs t-SNE")].iloc[0]
    predicted = report[report["benchmark"].str.startswith("exact reference predicted")].iloc[0]
    ratios = [float(r) for r in fast["speed_ratios"].split()]
    return [
        finding_row(
            "fisher_fast_distances",
            "Fisher distances: exact and faster",
            f"The fast Fisher distances agree with the dense reference to "
            f"{fast['max_rel_difference']:.0e} of the median distance and are "
            f"{format_spread(ratios, 0, unit='×', what='timings')} faster at {int(fast['n'])} "
            "points (`make bench`).",
            "exact reference time / fast time, all pairs",
            ratios,
            data=label,
            spread=f"min-max over {REPEATS} timings of the fast path (one of the reference)",
            note="timings depend on the machine and its load",
        ),
        engine_finding(report, label),
        finding_row(
            "fisher_tsne_time",
            "Fisher t-SNE at the paper's size",
            f"Fisher t-SNE on {int(tsne['n'])} USPS-sized points takes {tsne['ours_s']:.0f} s on "
            f"this machine; the dense construction, timed on "
            f"{int(report['n'][report['benchmark'].str.endswith('(dense)')].min())} to "
            f"{n_exact_max(report)} points, grows as n^{predicted['exponent']:.2f} and would "
            f"take about {predicted['baseline_s'] / 60:.0f} minutes at {int(predicted['n'])}.",
            "wall time of FisherTSNE.fit_transform (s)",
            tsne["ours_s"],
            data=label,
            spread="one timing",
            note="one run each: the dense reference alone takes minutes; timings depend on the "
            "machine and its load",
        ),
    ]


def engine_finding(report, label):
    """The finding ``fisher_compiled_speed``: the compiled path sums against NumPy's."""
    row = report[report["benchmark"].str.contains("compiled path sums")].iloc[0]
    ratios = [float(r) for r in row["speed_ratios"].split()]
    difference = row["max_rel_difference"]
    same = (
        f"the same neighbours, the lengths within {difference:.0e} (relative)"
        if np.isfinite(difference)
        else "WITH OTHER NEIGHBOURS"
    )
    return finding_row(
        "fisher_compiled_speed",
        "Fisher path sums compiled",
        f"The Fisher neighbour graph of {int(row['n']):,} USPS-sized points is "
        f"{format_spread(ratios, 2, unit='×', what='timings')} faster with the path sums "
        "compiled (`dimred.manifold.fisher_compiled`) than in NumPy's passes, "
        f"{same} "
        "(`make bench`, `benchmark_fisher.md`).",
        "time with NumPy's passes / time with the compiled ones, per timing",
        ratios,
        data=label,
        spread=f"min-max over {REPEATS} interleaved timings of each",
        note="timings depend on the machine, its cache and its load",
    )


def n_exact_max(report):
    """The largest size at which the dense reference was timed."""
    return int(report["n"][report["benchmark"].str.endswith("(dense)")].max())


if __name__ == "__main__":
    main()
