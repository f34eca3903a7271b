"""The whole protocol's cost at AwA2's size: the SVC fits it makes, every operation of
every step, its count, its predicted time and memory, and their totals (the autoencoder
apart).

:func:`svc_fits` lists the fits as the steps make them, without running them: every
table cell is one :func:`~.pipelines.svc_accuracy` (fit, then a prediction of the test
and of the training part), read from the transcribed grids and :class:`~.data.Params`
(which table, how many features the SVC sees, on how many training points, and its
kernel). A test checks the list against the fits a run actually makes.

Each operation is predicted from what measured it:

* ``make bench`` (AwA2-shaped synthetic set, 2,048 features, fitted ``cost ~ n^b``):
  the SVC cell, kernel PCA (dense), PCA, t-SNE (Barnes-Hut, exact), openTSNE and
  SMACOF, each at the number of points the protocol gives it;
* ``benchmarks/bench_fa.py`` (``make bench``): FA, every dimension of Table VI fitted
  at AwA2's training size (22,393 x 2,048 on the synthetic set) as the protocol fits
  it (:class:`~dimred.decomposition.GramFactorAnalysis`);
* this run's own timings: LLE (its subsample has the same size on AwA2; the run's time
  is used as it is), and the cost of a t-SNE of 3 or more dimensions relative to the
  2-D one of the same method and input (the bench times 2-D maps; a Barnes-Hut map in
  3-D builds an octree instead of a quadtree and takes several times as long).

Model of the SVC fits (:func:`svc_fits`): one cell at ``n_train`` training
points and ``f`` features takes ``S (n_train / N)^b f / 2,048``, with ``S`` and ``b``
the bench's cell at AwA2's size (``N`` training points) and exponent: libsvm's kernel
evaluations cost ``f`` each. It is a lower bound for inputs of a few dimensions, where
overlapping classes need more iterations.

LDA is taken at PCA's cost (one SVD of the same training part), the variance ranking
at none (one pass over the data). Operations that run in parallel (``n_jobs`` joblib
workers: kernel PCA, the SVC cells, FA, SMACOF, exact t-SNE) count their memory once per
worker; their time is summed, as the bench measured each alone on every core (exact
t-SNE uses one core: its sum bounds its time from above).
"""

import math

import numpy as np
import pandas as pd

from compendium.reporting import finding_row
from dimred.datasets import AWA2_SHAPE

from .data import TEST_SIZE
from .embedding_steps import INPUTS, TSNE_DIMS
from .leak import ratio_sizes
from .pipelines import KERNELS

__all__ = [
    "SVC_LINEAR",
    "TARGET_GIB",
    "TARGET_HOURS",
    "bench_sizes",
    "n_train_of",
    "predict_at",
    "protocol_cost",
    "svc_fits",
]

AWA2_N, AWA2_FEATURES = AWA2_SHAPE
#: Targets of a run of the protocol at AwA2's size on 2 cores (issue 20).
TARGET_HOURS, TARGET_GIB = 2.0, 20.0
#: Label of the table: its rows come from the bench (synthetic) and this run.
LABEL = "mixed (make bench on the AwA2-shaped set; this run's timings scaled)"
#: The bench's label of the paper's classifier (one cell: fit, predict test and training part).
SVC_LINEAR = "SVC(kernel='linear', C=1)"


def n_train_of(n):
    """Training points of a stratified 60/40 split of ``n`` points."""
    return n - math.ceil(TEST_SIZE * n)


def bench_sizes(sizes):
    """The ``n`` of ``make bench``'s ``sizes`` column (``"2,000/5,000"``)."""
    return [float(n.replace(",", "")) for n in str(sizes).split("/")]


def predict_at(exponents, method, n, scale=1.0):
    """Seconds and MiB of one fit of ``method`` at ``n`` points, from ``make bench``'s
    largest measurement and fitted exponents (``cost ~ n^b``); ``scale`` multiplies the
    time (e.g. several starts)."""
    row = exponents.loc[method]
    factor = n / bench_sizes(row["sizes"])[-1]
    seconds = scale * row["largest_n_s"] * factor ** row["time_exponent"]
    return seconds, row["largest_n_MiB"] * factor ** row["memory_exponent"]


def _kernel_pca_components(kernel, largest, n_train, n_features):
    """Components :func:`~.pipelines.kernel_pca` returns (the sigmoid kernel's count of
    positive eigenvalues depends on the data: taken as all)."""
    if kernel in ("linear", "cosine"):
        return min(largest, n_train, n_features)
    return min(largest, n_train)


def svc_fits(published, p, n_samples, n_features, n_classes):
    """Every SVC fit of one run on ``n_samples x n_features`` data with ``n_classes``.

    Parameters
    ----------
    published : dict of DataFrame
        The transcribed tables (the grids).
    p : Params
        Subsample sizes (``exact_n``, ``smacof_n``, ``lle_n``); ``n_samples`` is taken
        as the run's size.
    n_samples, n_features, n_classes : int

    Returns
    -------
    DataFrame
        One row per fit: ``table``, ``n_features`` (the SVC's input), ``n_train`` and
        ``kernel``.
    """
    n_train = n_train_of(n_samples)
    sub = {
        size: n_train_of(min(size or n_samples, n_samples))
        for size in (p.exact_n, p.smacof_n, p.lle_n)
    }
    fits = [("table1", n_features, n_train, "linear")] * len(published["table1"])
    for name in ("table2", "table3"):
        fits += [(name, k, n_train, "linear") for k in published[name]["k"] if k <= n_features]
    table4 = published["table4"]
    for kernel in KERNELS:
        dims = table4.loc[table4["kernel"] == kernel, "n_components"]
        kept = _kernel_pca_components(kernel, dims.max(), n_train, n_features)
        fits += [("table4", d, n_train, "linear") for d in dims if d <= kept]
    fits += [("table5", d, n_train, "linear") for d in range(1, min(n_classes - 1, n_features) + 1)]
    fits += [
        ("table6", d, n_train, "linear")
        for d in published["table6"]["n_components"]
        if d <= n_features
    ]
    for name in ("table7", "table9"):
        fits += [(name, d, sub[p.exact_n], "linear") for d in published[name]["n_components"]]
    fits += [("table8", d, n_train, "linear") for d in (2, 3) for _ in range(4)]
    fits += [("table8", 2, n_train, "linear")] * 2  # inductive openTSNE: raw and LDA-train
    fits += _lle_fits(published, sub[p.lle_n], n_features)
    fits += [("table12", d, sub[p.smacof_n], "rbf") for d in published["table12"]["n_components"]]
    classical = [*published["table12"]["n_components"], 128]
    fits += [("table12", d, n_train, "rbf") for d in classical if d <= min(n_train, n_features)]
    codes = published["table13"][["n_components", "svc_kernel"]].itertuples(index=False)
    fits += [("table13", d, n_train, kernel) for d, kernel in codes]
    return pd.DataFrame(fits, columns=["table", "n_features", "n_train", "kernel"])


def _lle_fits(published, n_train, n_features):
    """Tables X and XI, the standardised codes beside Table X, and the inductive fit."""
    largest = min(int(published["table10"]["n_components"].max()), n_features)
    fits = []
    for name, kernel in (("table10", "linear"), ("table11", "rbf"), ("table10", "linear")):
        dims = published[name]["n_components"]
        fits += [(name, d, n_train, kernel) for d in dims if d <= largest]
    return fits + [("table11", largest, n_train, "rbf")]


def _bench(exponents):
    """``method, n -> (seconds, MiB)`` of one fit, from ``make bench`` (:func:`predict_at`)."""
    return lambda method, n: predict_at(exponents, method, n)


def _svc_rows(fits, bench, exponent):
    """One row per table: its SVC fits under the model of the module's docstring."""
    cell_s, cell_mib = bench(SVC_LINEAR, AWA2_N)
    b = exponent
    full = n_train_of(AWA2_N)
    each = cell_s * (fits["n_train"] / full) ** b * fits["n_features"] / AWA2_FEATURES
    rows = []
    for table, seconds in each.groupby(fits["table"], sort=False):
        rows.append(
            (
                table,
                "SVC cells (fit, predict both parts)",
                len(seconds),
                seconds.sum(),
                cell_mib,
                True,
                "bench: SVC cell at AwA2's size, scaled (docstring)",
            )
        )
    return rows


def _embedding_rows(published, p, bench, m, fa):
    """Kernel PCA, PCA, LDA, FA, t-SNE, LLE and MDS at the sizes the protocol uses."""
    n_train, dense = n_train_of(AWA2_N), "KernelPCA(rbf, dense)"
    pca = bench("ClassicalMDS(solver='covariance')", AWA2_N)
    kpca = bench(dense, n_train)
    exact_n, smacof_n = min(p.exact_n, AWA2_N), min(p.smacof_n, AWA2_N)
    rows = [
        (
            "table4",
            "kernel PCA, dense (rbf, poly, sigmoid, cosine)",
            4,
            4 * kpca[0],
            kpca[1],
            True,
            f"bench: {dense} at {n_train:,} training points",
        ),
        (
            "table4",
            "sigmoid kernel: count of positive eigenvalues",
            1,
            kpca[0],
            kpca[1],
            False,
            f"bench: {dense} (one more dense eigendecomposition)",
        ),
        ("table4", "PCA (the linear kernel)", 1, pca[0], pca[1], False, "bench: PCA"),
        ("table5", "LDA", 1, pca[0], pca[1], False, "taken as PCA's (one SVD)"),
        ("table2/3", "variance ranking", 1, 0.0, 0.0, False, "one pass over the data"),
        _fa_row(published, fa),
    ]
    exact = bench("TSNE(exact)", exact_n)
    small_bh = bench("TSNE(barnes_hut)", exact_n)
    exact_runs = [_relative(m, "tsne_exact", d) for d in TSNE_DIMS["exact"]]
    small_runs = [_relative(m, "tsne_barnes_hut", d) for d in TSNE_DIMS["barnes_hut"]]
    small_runs.append(1.0)  # and one 2-D map of the LDA input
    scaled = "x this run's time of each dimension / the 2-D one (docstring)"
    rows += [
        (
            "table7/9",
            "t-SNE exact",
            len(exact_runs),
            sum(exact_runs) * exact[0],
            exact[1],
            True,
            f"bench at {exact_n:,} points (2-D) {scaled}",
        ),
        (
            "table7/9",
            "t-SNE Barnes-Hut",
            len(small_runs),
            sum(small_runs) * small_bh[0],
            small_bh[1],
            False,
            f"bench at {exact_n:,} points (2-D) {scaled}",
        ),
    ]
    bh = bench("TSNE(barnes_hut)", AWA2_N)
    fft = bench("openTSNE (FFT)", n_train)
    runs = [_relative(m, f"tsne_{name}", d) for name in INPUTS for d in (2, 3)]
    rows += [
        (
            "table8",
            "t-SNE Barnes-Hut of all points",
            len(runs),
            sum(runs) * bh[0],
            bh[1],
            False,
            f"bench at {AWA2_N:,} points (2-D) {scaled}",
        ),
        (
            "table8",
            "openTSNE on the training part (inductive)",
            2,
            2 * fft[0],
            fft[1],
            False,
            f"bench at {n_train:,} points",
        ),
    ]
    rows.append(_leak_row(p, bench))
    lle = [m[f"lle_K{k}_seconds"] for k in sorted(published["table10"]["n_neighbors"].unique())]
    lle_n = m["lle_points"]
    rows.append(
        (
            "table10/11",
            "LLE (one fit per K)",
            len(lle),
            float(sum(lle)),
            2 * lle_n**2 * 8 / 2**20,
            False,
            f"this run's fits at {lle_n:,.0f} points",
        )
    )
    smacof = bench("MDS (SMACOF, metric, n_init=1)", smacof_n)
    dims = len(published["table12"])
    rows += [
        (
            "table12",
            "SMACOF-MDS, 4 starts",
            dims,
            dims * 4 * smacof[0],
            smacof[1],
            True,
            f"bench at {smacof_n:,} points",
        ),
        ("table12", "classical MDS (= PCA)", 1, pca[0], pca[1], False, "bench: PCA"),
    ]
    return rows


def _fa_row(published, fa):
    """FA: the bench's fits of Table VI's dimensions at AwA2's training size, summed."""
    fits = fa.loc[published["table6"]["n_components"]]
    n_train, n_features = fits["n_train"].iloc[0], fits["features"].iloc[0]
    return (
        "table6",
        "FA",
        len(fits),
        float(fits["gram_s"].sum()),
        float(fits["gram_MiB"].max()),
        True,  # Table VI's fits run in the joblib workers
        f"bench: GramFactorAnalysis at {n_train:,} x {n_features:,}, each dimension",
    )


def _relative(m, prefix, d):
    """This run's time of ``<prefix>_d<d>_seconds`` over its 2-D one."""
    return m[f"{prefix}_d{d}_seconds"] / m[f"{prefix}_d2_seconds"]


def _leak_row(p, bench):
    """The leak sweep: two Barnes-Hut maps per draw and ratio, at the draw's size."""
    sizes = [ratio_sizes(r, p.leak_n, AWA2_FEATURES, 50)[0] for _, r in p.leak_ratios]
    per = [bench("TSNE(barnes_hut)", n) for n in sizes]
    runs = 2 * p.leak_draws
    seconds = runs * sum(s for s, _ in per)
    basis = f"bench at {'/'.join(map(str, sizes))} points"
    operation = "t-SNE Barnes-Hut of each draw (two LDA inputs)"
    return ("leak", operation, runs * len(sizes), seconds, max(m for _, m in per), True, basis)


def protocol_cost(published, p, exponents, m, fits, fa):
    """The table ``cost_protocol`` and the finding ``cost_protocol``.

    Parameters
    ----------
    published : dict of DataFrame
    p : Params
    exponents : DataFrame
        ``make bench``'s ``benchmark_cost_exponents`` indexed by method.
    m : dict
        This run's measurements (:func:`~.common.measurements`).
    fits : DataFrame
        :func:`svc_fits` at AwA2's size.
    fa : DataFrame
        ``make bench``'s ``benchmark_fa`` indexed by ``n_components``.

    Returns
    -------
    table : DataFrame
        One row per step and operation (``count``, ``predicted_s``, ``each_MiB``,
        ``workers`` holding it at once, ``basis``, ``peak_MiB``), then ``total``: the sum
        of the times and the largest peak.
    finding : dict
    """
    bench = _bench(exponents)
    exponent = exponents.loc[SVC_LINEAR, "time_exponent"]
    rows = _svc_rows(fits, bench, exponent) + _embedding_rows(published, p, bench, m, fa)
    columns = ["step", "operation", "count", "predicted_s", "each_MiB", "parallel", "basis"]
    table = pd.DataFrame(rows, columns=columns)
    table.insert(5, "workers", np.where(table.pop("parallel"), p.n_jobs or 1, 1))
    table["peak_MiB"] = table["each_MiB"] * table["workers"]
    table = table.round({"predicted_s": 1, "each_MiB": 0, "peak_MiB": 0})
    total = {
        "step": "total",
        "operation": "the protocol without the autoencoder",
        "count": int(table["count"].sum()),
        "predicted_s": round(table["predicted_s"].sum(), 1),
        "peak_MiB": table["peak_MiB"].max(),
        "basis": "sum of the rows' times; largest peak",
    }
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    return table, _finding(table)


def _finding(table):
    """Finding: the predicted total against the targets, and the largest parts."""
    rows, total = table.iloc[:-1], table.iloc[-1]
    hours, gib = total["predicted_s"] / 3600, total["peak_MiB"] / 1024
    is_svc = rows["operation"].str.startswith("SVC")
    svc, cells = rows.loc[is_svc, "predicted_s"].sum() / 3600, int(rows.loc[is_svc, "count"].sum())
    parts = rows.groupby("operation", sort=False)["predicted_s"].sum().nlargest(3) / 3600
    largest = ", ".join(f"{name} {h:.1f} h" for name, h in parts.items())
    peak = rows.loc[rows["peak_MiB"].idxmax(), "operation"]
    holds = bool(hours <= TARGET_HOURS and gib <= TARGET_GIB)
    statement = (
        f"At AwA2's size the protocol without the autoencoder is predicted to take "
        f"{hours:.1f} h on 2 cores (largest: {largest}; the {cells} SVC cells {svc:.1f} h, "
        f"a lower bound) and to peak at {gib:.1f} GiB ({peak}), "
        f"against targets of {TARGET_HOURS:.0f} h and {TARGET_GIB:.0f} GiB (`cost_protocol`)."
    )
    return finding_row(
        "cost_protocol",
        "The protocol at AwA2's size",
        statement,
        "predicted wall time (h) of the protocol (autoencoder excluded) at 37,322 x 2,048 "
        "on 2 cores, summed over its operations",
        hours,
        data=LABEL,
        predicate=f"time <= {TARGET_HOURS:g} h and peak memory <= {TARGET_GIB:g} GiB",
        holds=holds,
        note="a prediction from make bench's exponents and this run's timings (cost_protocol's "
        "basis column); not a run at AwA2's size",
    )
