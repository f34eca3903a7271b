"""The SVC fits the protocol makes on data of a given shape, without running it.

Every table cell is one :func:`~.pipelines.svc_accuracy` (fit, then a prediction of the
test and of the training part). :func:`svc_fits` lists them as the steps make them,
from the transcribed grids and :class:`~.protocol.Params`: which table, how many
features the SVC sees, on how many training points, and its kernel. The cost step
reads it at AwA2's size (37,322 x 2,048, 50 classes); a test checks it against the fits
a run actually makes.
"""

import math

import pandas as pd

from .data import TEST_SIZE
from .pipelines import KERNELS

__all__ = ["bench_sizes", "n_train_of", "predict_at", "svc_fits"]


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
