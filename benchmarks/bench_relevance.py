"""Benchmark: NeRV relevance learning on candidate pairs against every pair, and the
co-ranking quality for all k from one ranking against one neighbour search per k.

Run with ``python benchmarks/bench_relevance.py`` (``--quick`` for a smoke run at
small sizes, ``--output`` to write elsewhere). In the same process:

* :class:`~dimred.relevance.NeRVRelevance` with ``neighbors="auto"`` (each point's
  ``5 k`` nearest in ``Y`` and in ``X_lambda`` and its probable pairs, see
  :mod:`dimred.relevance.nerv`) against ``neighbors="all"`` (the exact reference)
  on USPS-like synthetic data (10 classes in 256 dimensions, ``Y`` a
  noisy 2-D class layout), each fitted to convergence: time, Rprop evaluations,
  and how far the relevances differ (largest difference relative to the largest
  relevance; Spearman correlation);
* :func:`~dimred.metrics.coranking.coranking_quality` for ``k = 1 .. K`` against
  ``K`` separate neighbour searches (one per ``k``), same values;
* the cross-paper benchmark's scores of the maps of one draw (``R_NX(k)`` for
  ``k = 1 .. N - 2``, trustworthiness and continuity at ``k = 10``; the USPS draws'
  size, 1,000 points in 256 dimensions, and the AwA2 survey's 8 maps): the data ranked
  once (:class:`~dimred.metrics.coranking.ReferenceRanking`) against, for each map,
  the neighbour lists up to ``N - 2`` and the full rankings of both spaces, as
  :func:`~papers.cross_paper.maps.score_map` did before; the same floats;
* with every pair (Table 2's fits), one block's squared distances taken off the
  Gram block and its pair weights put back with their column sums (three slices
  around the diagonal and ``np.add.reduce`` over the rows) against a boolean mask of
  the block and ``np.bincount``, as the objective did them before; bitwise the same
  values;
* with every pair (Table 2's paper reading: 2,000 points, ``k = 160``, 256 features),
  one evaluation of the objective with ``log q`` and ``q`` kept from the first
  evaluation (they depend on ``Y`` only) against recomputing them
  (``cache_floats=0``); bitwise the same value and gradient;
* the same evaluation with the arithmetic on the pairs taken
  :data:`~dimred.relevance.objective.CHUNK` floats' worth of rows at a time against whole
  blocks at once (``CHUNK`` as large as a block); bitwise the same value and gradient.

Writes ``figures/relevance_learning/benchmark.{csv,md}`` and the findings on
it (``findings.csv`` beside, produced by ``make bench``; ``docs/findings.md`` quotes them), and
prints the table.
"""

import argparse
import re
import time
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from compendium import paths
from compendium.reporting import finding_row, write_findings, write_table
from dimred.metrics.coranking import (
    CoRanking,
    ReferenceRanking,
    coranking_quality,
    quality_from_neighbours,
    rescaled_quality,
    rnx_auc,
)
from dimred.relevance import NeRVRelevance
from dimred.relevance import objective as nerv_objective
from dimred.relevance.objective import BLOCK, NeRVObjective
from dimred.relevance.pairs import _OffDiagonal, _scatter_without_diagonal, _without_diagonal
from dimred.utils.graphs import knn_distances
from dimred.utils.ranks import neighbour_ranks


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def usps_like(n_per_class, n_features=256, n_classes=10, seed=0):
    """Sparse class means plus correlated noise in ``n_features`` dimensions; ``Y`` places
    the classes on a circle (radius 5) with unit Gaussian scatter, as a supervised map would."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), n_per_class)
    means = rng.normal(size=(n_classes, n_features)) * (rng.random(n_features) < 0.3)
    mixing = rng.normal(size=(n_features, n_features)) / np.sqrt(n_features)
    X = means[y] + 0.8 * rng.normal(size=(y.size, n_features)) @ mixing
    angle = 2 * np.pi * y / n_classes
    Y = np.column_stack([5 * np.cos(angle), 5 * np.sin(angle)]) + rng.normal(size=(y.size, 2))
    return X, Y


def nerv_row(n, k, exact=True):
    X, Y = usps_like(n // 10)
    ours_s, ours = timed(NeRVRelevance(n_neighbors=k).fit, X, Y)
    row = {
        "benchmark": f"NeRV relevances (k={k}, 256 features): candidate vs all pairs",
        "n": n,
        "ours_s": round(ours_s, 2),
        "ours_evaluations": ours.n_iter_,
        "pairs_share": round(ours.n_pairs_ / (n * (n - 1)), 3),
    }
    if exact:
        baseline_s, baseline = timed(NeRVRelevance(n_neighbors=k, neighbors="all").fit, X, Y)
        difference = np.abs(ours.relevances_ - baseline.relevances_).max()
        row |= {
            "baseline_s": round(baseline_s, 2),
            "baseline_evaluations": baseline.n_iter_,
            "speed_ratio": round(baseline_s / ours_s, 1),
            "max_difference": round(difference / baseline.relevances_.max(), 4),
            "spearman": round(spearmanr(ours.relevances_, baseline.relevances_).statistic, 4),
        }
    return row


def coranking_row(n, max_k, seed=0):
    rng = np.random.default_rng(seed)
    X, Y = rng.normal(size=(n, 20)), rng.normal(size=(n, 2))
    ours_s, ours = timed(coranking_quality, X, Y, max_k)

    def per_k():
        ks = range(1, max_k + 1)
        return [_overlap(knn_distances(X, k)[1], knn_distances(Y, k)[1]) for k in ks]

    baseline_s, baseline = timed(per_k)
    return {
        "benchmark": f"Q_k for k = 1..{max_k}: one ranking vs a neighbour search per k",
        "n": n,
        "ours_s": round(ours_s, 3),
        "baseline_s": round(baseline_s, 3),
        "speed_ratio": round(baseline_s / ours_s, 1),
        "max_difference": float(np.abs(ours - baseline).max()),
    }


def map_scores_row(n, n_maps=8, k=10, seed=0):
    """The scores of ``n_maps`` maps of one data set: the data ranked once for all, or
    searched and ranked anew for each map (the former implementation)."""
    X, Y = usps_like(n // 10, seed=seed)
    rng = np.random.default_rng(seed)
    maps = [Y @ rng.normal(size=(2, 2)) + rng.normal(size=Y.shape) for _ in range(n_maps)]

    def shared():
        reference = ReferenceRanking(X)
        scores = []
        for Y in maps:
            coranking = reference.compare(Y)
            scores.append((*coranking.rnx_curve(), *coranking.trustworthiness_continuity(k)))
        return scores

    baseline_s, expected = timed(lambda: [_separate_scores(X, Y, k) for Y in maps])
    ours_s, result = timed(shared)
    difference = max(
        np.abs(np.asarray(a) - np.asarray(b)).max()
        for got, wanted in zip(result, expected, strict=True)
        for a, b in zip(got, wanted, strict=True)
    )
    name = f"R_NX (all k) and T, C (k={k}) of {n_maps} maps: data ranked once vs per map"
    return _per_repeat(name, n, ours_s, baseline_s, n_maps, difference)


def _separate_scores(X, Y, k):
    """``R_NX``, its AUC, trustworthiness and continuity as the cross-paper benchmark
    scored a map before: neighbour lists up to ``N - 2`` in each space, then the full
    rank matrices of both."""
    n = len(X)
    lists = knn_distances(X, n - 2)[1], knn_distances(Y, n - 2)[1]
    rnx = rescaled_quality(quality_from_neighbours(*lists), n)
    coranking = CoRanking(neighbour_ranks(X), neighbour_ranks(Y))
    return rnx, rnx_auc(rnx), *coranking.trustworthiness_continuity(k)


def block_row(n, repeats=10, seed=0):
    """Every pair of one block of rows of ``n`` points, what the objective does with
    them besides the arithmetic on the pairs: the squared distances taken from the
    Gram block (without each row's own column), and the pair weights put back into the
    block for the product ``W X`` with the column sums of ``W``. As
    :class:`~dimred.relevance.objective.NeRVObjective` does it (three slices around the
    diagonal, ``np.add.reduce`` over the rows) against a boolean mask of the block
    (gather, zero-fill and scatter) and ``np.bincount`` over the pairs' columns."""
    rng = np.random.default_rng(seed)
    index = np.arange(min(n, max(1, BLOCK // n)))
    squares, gram = rng.normal(size=n), rng.normal(size=(index.size, n))
    pairs = _OffDiagonal(index, n)
    weights = rng.normal(size=pairs.size)

    def ours():
        d2 = _without_diagonal(squares[index, None] + squares - 2 * gram, index[0])
        W = _scatter_without_diagonal(weights, np.empty_like(gram), index[0])
        return d2, W, np.add.reduce(W, axis=0)

    def mask():
        keep = np.ones((index.size, n), dtype=bool)
        keep[np.arange(index.size), index] = False
        d2 = (squares[index, None] + squares - 2 * gram).ravel()[keep.ravel()]
        W = np.zeros_like(gram)
        W.ravel()[keep.ravel()] = weights
        return d2, W, np.bincount(pairs.cols, weights, minlength=n)

    baseline_s, expected = timed(lambda: [mask() for _ in range(repeats)])
    ours_s, result = timed(lambda: [ours() for _ in range(repeats)])
    difference = max(np.abs(a - b).max() for a, b in zip(result[0], expected[0], strict=True))
    name = f"NeRV all pairs, one block ({index.size} rows x {n - 1} pairs)"
    return _per_repeat(f"{name}: slices vs a mask", n, ours_s, baseline_s, repeats, difference)


def evaluation_row(n, k, repeats=3):
    """One evaluation of the objective with every pair, ``log q`` and ``q`` kept from
    the first evaluation against recomputed at each (``cache_floats=0``)."""
    X, Y = usps_like(n // 10)
    theta = np.ones(X.shape[1])
    kept, recomputed = NeRVObjective(X, Y, k), NeRVObjective(X, Y, k, cache_floats=0)
    kept(theta)  # the first evaluation computes what is kept
    ours_s, baseline_s, difference = _timed_evaluations(kept, recomputed, theta, repeats)
    name = f"NeRV all pairs (k={k}, 256 features), one evaluation: log q and q kept"
    return _per_repeat(f"{name} vs recomputed", n, ours_s, baseline_s, repeats, difference)


def chunk_row(n, k, repeats=3):
    """One evaluation of the objective with every pair, the arithmetic on the pairs in
    chunks of :data:`~dimred.relevance.objective.CHUNK` floats against whole blocks."""
    X, Y = usps_like(n // 10)
    theta = np.ones(X.shape[1])
    objective = NeRVObjective(X, Y, k)
    objective(theta)  # the first evaluation computes log q and q

    def whole_blocks(theta):
        with mock.patch.object(nerv_objective, "CHUNK", BLOCK):
            return objective(theta)

    ours_s, baseline_s, difference = _timed_evaluations(objective, whole_blocks, theta, repeats)
    name = f"NeRV all pairs (k={k}, 256 features), one evaluation: chunks of rows"
    return _per_repeat(f"{name} vs whole blocks", n, ours_s, baseline_s, repeats, difference)


def _timed_evaluations(ours, baseline, theta, repeats):
    """Seconds of ``repeats`` evaluations at ``theta`` by ``ours`` and by ``baseline``
    (timed first), and the largest difference of their last values and gradients."""

    def repeated(evaluate):
        return [evaluate(theta) for _ in range(repeats)][-1]

    baseline_s, (expected, expected_gradient) = timed(repeated, baseline)
    ours_s, (value, gradient) = timed(repeated, ours)
    difference = max(abs(value - expected), np.abs(gradient - expected_gradient).max())
    return ours_s, baseline_s, difference


def _per_repeat(benchmark, n, ours_s, baseline_s, repeats, difference):
    """A row of times per repeat, their ratio and the largest difference of the results."""
    return {
        "benchmark": benchmark,
        "n": n,
        "ours_s": round(ours_s / repeats, 4),
        "baseline_s": round(baseline_s / repeats, 4),
        "speed_ratio": round(baseline_s / ours_s, 1),
        "max_difference": float(difference),
    }


def _overlap(neighbours_x, neighbours_y):
    """``Q_k`` from the k-NN sets, by sorted-row intersection."""
    n, k = neighbours_x.shape
    both = np.sort(neighbours_x, axis=1)[:, :, None] == np.sort(neighbours_y, axis=1)[:, None, :]
    return both.sum() / (n * k)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument(
        "--output", default=paths.FIGURES_DIR / "relevance_learning" / "benchmark",
        help="output path without suffix",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.quick:
        rows = [
            nerv_row(300, 10),
            coranking_row(300, 30),
            map_scores_row(300),
            block_row(300),
            evaluation_row(300, 24),
            chunk_row(300, 24),
        ]
    else:
        rows = [
            nerv_row(1000, 20),
            nerv_row(2000, 20, exact=False),
            coranking_row(1000, 100),
            map_scores_row(1000),
            block_row(2000),
            evaluation_row(2000, 160),
            chunk_row(2000, 160),
            chunk_row(1000, 80),
        ]
    report = pd.DataFrame(rows)
    label = "synthetic (USPS-like)"
    write_table(report, args.output, index=False, data=label)
    write_findings(
        findings(report, label), Path(args.output).parent, f"make bench ({Path(__file__).name})"
    )
    print(report.to_markdown(index=False))


def findings(report, label):
    """The findings' statements on the speed of NeRV and Q_k, from this benchmark's rows."""
    nerv = report[report["benchmark"].str.startswith("NeRV relevances")]
    exact, largest = nerv.dropna(subset=["baseline_s"]).iloc[0], nerv.iloc[-1]
    ranks = report[report["benchmark"].str.startswith("Q_k")].iloc[0]
    k = re.search(r"k=(\d+)", largest["benchmark"]).group(1)
    return [
        finding_row(
            "nerv_candidate_pairs",
            "λ_NeRV on candidate pairs",
            f"A λ_NeRV fit with k = {k} "
            f"on {int(largest['n'])} USPS-sized points takes "
            f"{largest['ours_s']:.0f} s on candidate pairs; at {int(exact['n'])} points a fit "
            f"on them takes {exact['ours_s']:.1f} s against {exact['baseline_s']:.1f} s on every "
            f"pair ({exact['speed_ratio']:.1f}× the speed), with relevances within "
            f"{100 * exact['max_difference']:.1f} % of the largest (Spearman "
            f"{exact['spearman']:.3f}; `make bench`).",
            "wall time (s) of NeRVRelevance.fit with candidate pairs",
            largest["ours_s"],
            data=label,
            spread="one timing",
            note="one fit per setting (each to convergence); timings depend on the machine",
        ),
        finding_row(
            "coranking_all_k",
            "Q_k for every k from one ranking",
            f"The co-ranking quality for k = 1..{ranks['benchmark'].split('..')[1].split(':')[0]} "
            f"from one neighbour ranking equals one search per k (largest difference "
            f"{ranks['max_difference']:.0g}) and is {ranks['speed_ratio']:.0f}× faster "
            f"at {int(ranks['n'])} points.",
            "time of one neighbour search per k / time of coranking_quality",
            ranks["speed_ratio"],
            data=label,
            spread="one timing",
            note="one timing of each; timings depend on the machine",
        ),
        chunk_finding(report, label),
    ]


def chunk_finding(report, label):
    """The finding ``nerv_chunk_speed``: chunks of rows against whole blocks, per size."""
    return _evaluation_finding(
        report, label, ("nerv_chunk_speed", "NeRV's arithmetic in chunks of rows"),
        "chunks of rows vs",
        f"taken {nerv_objective.CHUNK:,} floats' worth of rows at a time than on whole blocks of "
        f"{BLOCK:,}, both by NumPy",
        "time on whole blocks / time in chunks, per evaluation, per size",
    )  # fmt: skip


def _evaluation_finding(report, label, finding, name, how, measure):
    """A finding on the rows whose benchmark names ``name``: one evaluation of the
    objective faster ``how``, the ratio per size and the largest difference."""
    rows = report[report["benchmark"].str.contains(name)]
    parts = "; ".join(f"{r.speed_ratio:.1f}× at {r.n:,} points" for r in rows.itertuples())
    return finding_row(
        *finding,
        f"One evaluation of the NeRV objective with every pair (Table 2's fits) is faster "
        f"with the arithmetic on the pairs {how}: {parts} (`make bench`, one process), "
        f"largest difference {rows['max_difference'].max():.0g} (`benchmark.md`).",
        measure,
        rows["speed_ratio"].to_numpy(),
        data=label,
        spread="one timing of 3 evaluations per size",
        note="timings depend on the machine, its cache and its load",
    )


if __name__ == "__main__":
    main()
