"""The cost step: each method's time and memory at AwA2's size, and the SVC fits the
protocol would make there.

``benchmarks/bench_awa2.py`` (``make bench``) measures time and peak memory of each
method in a fresh process on 2 cores on the AwA2-shaped synthetic set and fits
``cost ~ n^b`` (2-D embeddings, 2,048 features); :func:`cost` predicts each method at
37,322 points from it. ``benchmarks/bench_fa.py`` measures FA at AwA2's training size
itself. For the methods timed in this run instead: LLE's dense eigenproblem scales as
``n^3`` in time and needs two ``n x n`` float64 matrices; the autoencoder as samples x
epochs x weights.
"""

import math

import numpy as np
import pandas as pd

from compendium import paths
from compendium.cost import fit_exponent
from compendium.reporting import Artefacts, finding_row
from dimred.datasets import AWA2_SHAPE

from . import plots
from .claims import AE_DIMS
from .common import measurements, metrics_table
from .data import SYNTHETIC_LABEL
from .findings import predicate
from .protocol_cost import LABEL as PROTOCOL_LABEL
from .protocol_cost import (
    SVC_LINEAR,
    bench_sizes,
    n_train_of,
    predict_at,
    protocol_cost,
    svc_fits,
)
from .text import EXPONENT_TOLERANCE

__all__ = ["AWA2_CLASSES", "cost"]

AWA2_N, AWA2_FEATURES = AWA2_SHAPE
#: Classes of AwA2.
AWA2_CLASSES = 50
#: Which data the count of SVC fits came from: none, the paper's grids at AwA2's shape.
FITS_LABEL = "published (the paper's grids at AwA2's shape)"
#: Features from which an SVC fit counts as large.
LARGE = 1000
#: Note of a finding read from ``make bench``.
BENCH = "one timing per size (make bench on 2 cores, AwA2-shaped synthetic set, seed 0)"
#: Note of a finding scaled from this run's timings.
SCALED = "one timing of this run's fit, scaled to AwA2's size"


def _weights(n_features, hidden, d):
    """Weights of the autoencoder ``n_features - hidden - d`` and its mirror."""
    sizes = [n_features, *hidden, d]
    return 2 * sum(a * b for a, b in zip(sizes, sizes[1:], strict=False))


def _ae_seconds_at_awa2(m, p, d):
    """Time of the paper's schedule (200 epochs) at 37,322 x 2,048, from this run's fit.

    Time is taken as proportional to samples x epochs x weights.
    """
    work = m["ae_points"] * m["ae_epochs"] * _weights(m["ae_features"], p.ae_hidden, d)
    paper = AWA2_N * 200 * _weights(AWA2_FEATURES, (1024, 512, 512), d)
    return m[f"ae_d{d}_seconds"] * paper / work


#: The metrics of :func:`_cost_metrics` that come from ``make bench`` alone.
SYNTHETIC_METRICS = (
    "tsne_speedup_at_awa2",
    "tsne_exact_predicted_s",
    "tsne_exact_predicted_MiB",
    "smacof_predicted_s",
    "smacof_predicted_MiB",
    "pca16_s",
    "pca_svc_all_features_s",
    "fa16_predicted_s",
    "tsne_exact_exponent",
    "tsne_bh_exponent",
    "tsne_exact_expected_exponent",
    "tsne_bh_expected_exponent",
)


def _expected_exponent(sizes, complexity):
    """The time exponent ``complexity(n)`` has, fitted over ``sizes`` as ``make bench`` fits."""
    return fit_exponent(sizes, complexity(sizes)).exponent


def cost(data, published, p, results):
    """The cost tables of ``make bench``, predictions at 37,322 points, the SVC fits and
    the whole protocol's cost at AwA2's size (:mod:`.protocol_cost`).

    The SVC fits are those of this run's parameters on all of AwA2
    (:func:`~.protocol_cost.svc_fits`); one fit on all features costs what ``make bench``
    measured for one cell of the paper's classifier (fit, then both predictions).
    """
    run = data["run"]
    folder = paths.FIGURES_DIR / "awa2_dr_survey"
    bench = pd.read_csv(folder / "benchmark_cost.csv").set_index("benchmark")
    exponents = pd.read_csv(folder / "benchmark_cost_exponents.csv", index_col=0)
    fa = pd.read_csv(folder / "benchmark_fa.csv", index_col="n_components")
    m = measurements(results)
    synthetic = {
        "t-SNE exact": predict_at(exponents, "TSNE(exact)", AWA2_N),
        "t-SNE Barnes-Hut": predict_at(exponents, "TSNE(barnes_hut)", AWA2_N),
        "SMACOF-MDS, 4 starts": predict_at(exponents, "MDS (SMACOF, metric, n_init=1)", AWA2_N, 4),
        "classical MDS (= PCA)": predict_at(exponents, "ClassicalMDS(solver='covariance')", AWA2_N),
        "SVC linear, all features (one cell)": predict_at(exponents, SVC_LINEAR, AWA2_N),
        "kernel PCA, dense (one kernel, training part)": predict_at(
            exponents, "KernelPCA(rbf, dense)", n_train_of(AWA2_N)
        ),
        "FA, d = 16": tuple(fa.loc[16, ["gram_s", "gram_MiB"]]),  # measured at that size
    }
    scaled = {
        "LLE d = 128, K = 64 (dense)": (
            m["lle_K64_seconds"] * (AWA2_N / m["lle_points"]) ** 3,
            2 * AWA2_N**2 * 8 / 2**20,
        ),
    }
    scaled |= {
        f"autoencoder d = {d}, 200 epochs": (_ae_seconds_at_awa2(m, p, d), math.nan)
        for d in AE_DIMS
    }
    predicted = pd.DataFrame(synthetic | scaled, index=["predicted_s", "predicted_MiB"]).T
    predicted = predicted.rename_axis("method").round(1)
    predicted["data"] = [SYNTHETIC_LABEL] * len(synthetic) + [run.data_label] * len(scaled)
    metrics = _cost_metrics(predicted, exponents)
    fits = svc_fits(published, p, AWA2_N, AWA2_FEATURES, AWA2_CLASSES)
    findings = _prediction_findings(predicted, metrics, m, p, run)
    findings += _exponent_findings(metrics, exponents, published)
    findings += _opentsne_findings(bench, exponents)
    measured = bench_sizes(exponents.loc[SVC_LINEAR, "sizes"])[-1] == AWA2_N
    cell = predicted.loc["SVC linear, all features (one cell)", "predicted_s"]
    findings.append(_svc_finding(fits, cell, measured))
    whole, finding = protocol_cost(published, p, exponents, m, fits, fa)
    findings.append(finding)
    return Artefacts(
        tables={
            "cost_measured": bench,
            "cost_exponents": exponents,
            "cost_predicted": predicted,
            "cost_metrics": _metrics_table(metrics, run),
            "cost_svc_fits": _fits_table(fits),
            "cost_protocol": whole,
        },
        figures={
            "cost_exponents": plots.cost_bars(
                predicted, "Predicted cost at 37,322 x 2,048 on 2 cores"
            )
        },
        findings=findings,
        data={
            "cost_measured": SYNTHETIC_LABEL,
            "cost_exponents": SYNTHETIC_LABEL,
            "cost_svc_fits": FITS_LABEL,
            "cost_protocol": PROTOCOL_LABEL,
        },
    )


def _cost_metrics(predicted, exponents):
    """The predictions the cost and limitation claims read, and the complexities' exponents."""
    s, mib = predicted["predicted_s"], predicted["predicted_MiB"]
    exact, barnes_hut = "TSNE(exact)", "TSNE(barnes_hut)"
    return {
        "tsne_speedup_at_awa2": s["t-SNE exact"] / s["t-SNE Barnes-Hut"],
        "tsne_exact_predicted_s": s["t-SNE exact"],
        "tsne_exact_predicted_MiB": mib["t-SNE exact"],
        "lle_predicted_s": s["LLE d = 128, K = 64 (dense)"],
        "lle_predicted_MiB": mib["LLE d = 128, K = 64 (dense)"],
        "smacof_predicted_s": s["SMACOF-MDS, 4 starts"],
        "smacof_predicted_MiB": mib["SMACOF-MDS, 4 starts"],
        "pca16_s": s["classical MDS (= PCA)"],
        "pca_svc_all_features_s": s["classical MDS (= PCA)"]
        + s["SVC linear, all features (one cell)"],
        "fa16_predicted_s": s["FA, d = 16"],
        "ae16_predicted_s": s["autoencoder d = 16, 200 epochs"],
        "ae128_predicted_s": s["autoencoder d = 128, 200 epochs"],
        "tsne_exact_exponent": exponents.loc[exact, "time_exponent"],
        "tsne_bh_exponent": exponents.loc[barnes_hut, "time_exponent"],
        "tsne_exact_expected_exponent": _expected_exponent(
            np.array(bench_sizes(exponents.loc[exact, "sizes"])), np.square
        ),
        "tsne_bh_expected_exponent": _expected_exponent(
            np.array(bench_sizes(exponents.loc[barnes_hut, "sizes"])), lambda n: n * np.log(n)
        ),
    }


def _metrics_table(metrics, run):
    """:func:`~.common.metrics_table` of the cost metrics, each labelled with its data."""
    frame = metrics_table(metrics)
    frame["data"] = [
        SYNTHETIC_LABEL if name in SYNTHETIC_METRICS else run.data_label for name in frame.index
    ]
    return frame


def _fits_table(fits):
    """The SVC fits per table: how many, how many large, and their sizes."""
    by_table = fits.groupby("table", sort=False)
    return pd.DataFrame(
        {
            "svc_fits": by_table.size(),
            f"fits_on_{LARGE}_features_or_more": by_table["n_features"].agg(
                lambda f: int((f >= LARGE).sum())
            ),
            "largest_n_features": by_table["n_features"].max(),
            "n_train": by_table["n_train"].agg(lambda n: "/".join(map(str, sorted(set(n))))),
            "kernels": by_table["kernel"].agg(lambda k: "/".join(sorted(set(k)))),
        }
    )


def _hours(seconds):
    return seconds / 3600.0


def _prediction_findings(predicted, metrics, m, p, run):
    """Findings: each method's predicted time and memory at AwA2's size."""
    s, mib = predicted["predicted_s"], predicted["predicted_MiB"]
    ae = np.array([s[f"autoencoder d = {d}, 200 epochs"] for d in AE_DIMS]) / 60.0
    rows = [
        (
            "cost_tsne_exact",
            "Exact t-SNE at AwA2's size",
            "t-SNE exact",
            SYNTHETIC_LABEL,
            f"Exact t-SNE of all {AWA2_N:,} points would take about "
            f"{_hours(s['t-SNE exact']):.1f} h and {mib['t-SNE exact'] / 1024:.0f} GiB.",
            BENCH,
        ),
        (
            "cost_smacof",
            "SMACOF at AwA2's size",
            "SMACOF-MDS, 4 starts",
            SYNTHETIC_LABEL,
            f"SMACOF-MDS with 4 starts would take about {_hours(s['SMACOF-MDS, 4 starts']):.0f} h "
            f"and {mib['SMACOF-MDS, 4 starts'] / 1024:.0f} GiB.",
            BENCH,
        ),
        (
            "cost_lle",
            "Dense LLE at AwA2's size",
            "LLE d = 128, K = 64 (dense)",
            run.data_label,
            f"Dense LLE at d = 128 would take about "
            f"{_hours(s['LLE d = 128, K = 64 (dense)']):.1f} h (n³ from this run's "
            f"{m['lle_points']:,.0f}-point fit) and "
            f"{mib['LLE d = 128, K = 64 (dense)'] / 1024:.0f} GiB (two n × n matrices).",
            SCALED,
        ),
        (
            "cost_classical_mds",
            "Classical MDS at AwA2's size",
            "classical MDS (= PCA)",
            SYNTHETIC_LABEL,
            f"Classical MDS (= PCA) takes {s['classical MDS (= PCA)']:.1f} s.",
            BENCH,
        ),
    ]
    findings = [
        finding_row(
            key,
            title,
            statement,
            f"predicted wall time (s) at {AWA2_N:,} x {AWA2_FEATURES:,} on 2 cores",
            s[method],
            data=label,
            note=note,
        )
        for key, title, method, label, statement, note in rows
    ]
    findings.append(
        finding_row(
            "cost_autoencoder",
            "The autoencoder at AwA2's size",
            f"The autoencoder's 200 epochs would take {ae.min():.0f}–{ae.max():.0f} min per code "
            f"size, about {_hours(ae.sum() * 60):.0f} h for Table XIII's {len(ae)} (scaled from "
            f"this run's {m['ae_epochs']:.0f}-epoch fits on {m['ae_points']:,.0f} points, "
            f"on {'a GPU' if m['ae_gpu'] else 'the CPU'}).",
            "predicted wall time (min) of 200 epochs at 37,322 x 2,048 on 2 cores, median "
            "over the code sizes",
            np.median(ae),
            data=run.data_label,
            low=ae.min(),
            high=ae.max(),
            spread=f"min-max over the {len(ae)} code sizes",
            note=SCALED,
        )
    )
    return findings


def _exponent_findings(metrics, exponents, published):
    """Findings: Barnes-Hut's speed-up over exact t-SNE, and the fitted exponents."""
    speedup_text, speedup = predicate("tsne_bh_100x_faster", published, {}, metrics)
    fitted, expected = metrics["tsne_bh_exponent"], metrics["tsne_bh_expected_exponent"]
    close = abs(fitted - expected) <= EXPONENT_TOLERANCE
    sizes = exponents.loc["TSNE(barnes_hut)", "sizes"].split("/")
    over = ("Between " if len(sizes) == 2 else "Over ") + ", ".join(sizes[:-1])
    over += f" and {sizes[-1]}"
    return [
        finding_row(
            "cost_tsne_speedup",
            "Barnes-Hut against exact t-SNE",
            f"Barnes-Hut is predicted {metrics['tsne_speedup_at_awa2']:.0f}× faster than exact "
            f"t-SNE at {AWA2_N:,} points, where the paper says more than 100×.",
            "predicted wall time of exact over Barnes-Hut t-SNE at 37,322 points",
            metrics["tsne_speedup_at_awa2"],
            data=SYNTHETIC_LABEL,
            predicate=speedup_text,
            holds=speedup,
            note=BENCH,
        ),
        finding_row(
            "cost_tsne_exponents",
            "t-SNE's growth",
            f"{over} points Barnes-Hut's time grows as n^{fitted:.2f}, where "
            f"O(N log N) grows as n^{expected:.2f}; exact t-SNE's as "
            f"n^{metrics['tsne_exact_exponent']:.2f}, where O(N²) grows as "
            f"n^{metrics['tsne_exact_expected_exponent']:.2f}.",
            "time exponent of Barnes-Hut t-SNE fitted by make bench",
            fitted,
            data=SYNTHETIC_LABEL,
            predicate=f"|fitted - expected exponent| <= {EXPONENT_TOLERANCE} (expected: "
            "O(N log N) fitted over the same sizes)",
            holds=close,
            note=BENCH,
        ),
    ]


def _opentsne_findings(bench, exponents):
    """Finding: openTSNE (FFT) against scikit-learn's Barnes-Hut, where ``make bench`` ran
    that pair (none otherwise)."""
    pair = bench[bench["ours"] == "openTSNE (FFT)"].set_index("n")
    compared = pair.dropna(subset=["baseline_s", "ours_1nn"])
    if pair.empty or compared.empty or AWA2_N not in pair.index:
        return []
    largest, at = pair.loc[AWA2_N], compared.iloc[-1]
    barnes_hut = predict_at(exponents, "TSNE(barnes_hut)", AWA2_N)[0]
    statement = (
        f"openTSNE (FFT) embeds all {AWA2_N:,} points in {largest['ours_s']:.0f} s and "
        f"{largest['ours_MiB'] / 1024:.1f} GiB, where scikit-learn's Barnes-Hut is predicted "
        f"at {barnes_hut:.0f} s ({at['speed_ratio']:.1f}× slower already at "
        f"{compared.index[-1]:,} points, with 1-NN accuracy {at['ours_1nn']:.2f} against "
        f"{at['baseline_1nn']:.2f})."
    )
    return [
        finding_row(
            "cost_opentsne",
            "openTSNE at AwA2's size",
            statement,
            "wall time (s) of openTSNE (FFT) at 37,322 x 2,048 on 2 cores",
            largest["ours_s"],
            data=SYNTHETIC_LABEL,
            note=BENCH,
        )
    ]


def _svc_finding(fits, seconds, measured):
    """Finding: the SVC fits at AwA2's size, and what the large ones cost (``seconds`` for
    one cell on all features, ``measured`` at AwA2's size or extrapolated)."""
    large = fits[fits["n_features"] >= LARGE]
    counts = large["n_features"].value_counts().sort_index()
    by_size = ", ".join(f"{count} on {n:,}" for n, count in counts.items())
    table1 = int((fits["table"] == "table1").sum())
    takes = "takes" if measured else "is predicted to take"
    statement = (
        f"At AwA2's size the protocol makes {len(fits)} SVC fits: {len(large)} on {LARGE:,} "
        f"features or more ({by_size}), the other {len(fits) - len(large)} on at most "
        f"{fits.loc[fits['n_features'] < LARGE, 'n_features'].max()} dimensions. One cell on all "
        f"{AWA2_FEATURES:,} features, fitted and then predicting the test and the training part "
        f"as `svc_accuracy` does, {takes} {seconds:.0f} s on 2 cores, so Table I's {table1} cells "
        f"alone take {table1 * seconds / 60:.0f} min and the {len(large)} large fits up to "
        f"{_hours(len(large) * seconds):.1f} h."
    )
    return finding_row(
        "cost_svc",
        "The SVC fits at AwA2's size",
        statement,
        f"wall time (s) of one SVC cell (linear, C = 1, fit and both predictions) at {AWA2_N:,} x "
        f"{AWA2_FEATURES:,} on 2 cores",
        seconds,
        data=SYNTHETIC_LABEL,
        note=f"{BENCH}; the number of fits is derived from the grids and Params (cost_svc_fits)",
    )
