"""Benchmark: cost of the AwA2 survey's methods by size, ours against the straightforward choice.

Run with ``python benchmarks/bench_awa2.py`` (``--quick`` for a smoke run at small
sizes, ``--output`` to write elsewhere, ``--sizes``/``--n-features``/``--only`` for a
custom subset; with ``--only`` the other pairs' rows and exponents already written are
kept). The data are **synthetic**: :func:`dimred.datasets.awa2_like`, a
seeded stand-in of AwA2's shape (float32, 50 unequal classes, ReLU-like sparse
features), drawn at each size ``n``; its accuracies and spectra say nothing about
the real ResNet-101 features, only the costs are meant to transfer. Each method runs
alone in a fresh child process (:func:`compendium.cost.measure`): wall time of the
call and its peak resident memory beyond the interpreter, the imports and the input
data (the result included), with a time budget per cell (``--timeout``). The pairs,
ours against the baseline:

* classical MDS, :class:`~dimred.manifold.ClassicalMDS` with ``solver="covariance"``
  against ``solver="svd"``: largest embedding difference relative to the largest
  coordinate, and of the two eigenvalues;
* classical MDS through its identity with PCA (:class:`~dimred.manifold.ClassicalMDS`,
  default ``solver="auto"``) against what the authors ran, scikit-learn's metric
  SMACOF :class:`~sklearn.manifold.MDS` (1.9 API: ``metric_mds=True, n_init=1,
  init="random", max_iter=300, normalized_stress=False``, default ``eps=1e-6``):
  Procrustes disparity of the 2-D embeddings (they minimise different criteria,
  strain and stress, so it is not expected to vanish), the leave-one-out 1-NN
  accuracy of the labels in each, and SMACOF's iterations;
* :class:`~sklearn.svm.LinearSVC` (liblinear, one-vs-rest) against
  ``SVC(kernel="linear", C=1)`` (libsvm, one-vs-one; what the authors ran), both
  on the unscaled features as they did: test accuracy of each on a stratified
  60/40 split (seed 0; classes of one sample, at the smallest sizes, all in the
  training part). Each call is one cell of the protocol: the fit, then a prediction
  of the test and of the training part (the baseline *is* the protocol's
  :func:`~papers.awa2_dr_survey.pipelines.svc_accuracy`; the authors'
  ``test.py`` printed both accuracies too);
* ``KernelPCA(kernel="rbf", gamma=1/n_features)`` with ``eigen_solver="randomized"``,
  and ``Nystroem(n_components=1000)`` followed by ``PCA`` (exact:
  ``svd_solver="covariance_eigh"``, so that only Nystroem approximates; the default
  ``"auto"`` would pick the randomized SVD), against
  ``eigen_solver="dense"``, each for ``k = 32`` components (the survey's
  recommended KPCA dimension): largest relative difference of the top-``k``
  eigenvalues of the centred kernel (PCA's ``singular_values_ ** 2`` for
  Nystroem) and the largest and median principal angles between the
  ``k``-dimensional embeddings (:func:`scipy.linalg.subspace_angles`; the largest
  reflects the gap after the ``k``-th eigenvalue more than the method). Nystroem takes
  ``min(1000, n)`` landmarks;
* t-SNE (scikit-learn, ``init="pca", learning_rate=200, max_iter=1000``, the
  authors' settings as far as 1.9 allows) ``method="barnes_hut"`` against
  ``"exact"``, only at the small sizes (``n <= TSNE_MAX_N``): 1-NN accuracy and
  final KL divergence of each;
* openTSNE's FFT-accelerated t-SNE (perplexity 30, PCA initialisation, every core)
  against scikit-learn's Barnes-Hut, at every size: the same two columns.

Sizes: ``n`` in 2,000 / 5,000 / 10,000 / 37,322 (AwA2's size) with 2,048 features, a
time budget of 600 s per cell (1,200 s for the protocol's SVC cell, which the
notebook's cost step needs measured at AwA2's size); ``--quick``: 300 / 600 / 1,200
with 256 features and 60 s. A cell is skipped (and says why in ``status``) when the
same method timed out at a smaller ``n``, or when the power law through its two
largest measured sizes predicts more than the budget in time, or more than
``--memory-fraction`` of the physical memory: e.g. SMACOF and the kernel methods
need several ``n x n`` float64 matrices, about 11 GB each at 37,322 points. Timeouts
are recorded as such; a speed ratio against a baseline that timed out is a lower
bound.

Writes ``figures/awa2_dr_survey/benchmark_cost.{csv,md}``, one row per pair and
size (times in s, peak memories in MiB, speed ratio ``baseline_s / ours_s``,
agreement columns, and ``data``: which data, the synthetic set), and
``benchmark_cost_exponents.{csv,md}``, per method the exponents ``b`` of
``time ~ n^b`` and ``memory ~ n^b`` fitted by :func:`~compendium.cost.fit_exponent`
over the sizes it completed; prints both.
With ``--quick`` they go under ``build/quick/figures/`` (as ``make QUICK=1``), so
that ``figures/`` keeps the full run; ``--output`` changes the path.

Each cell is measured once: at the quick sizes timings below about 0.1 s and
memories below a few MiB are noisy, and so are their exponents.

Threads: by default the libraries use one thread per core. On a machine whose cores
are busy with other work, OpenBLAS and OpenMP threads waiting for each other can take
hundreds of times longer (a 200 x 64 SVD: 0.4 s with 2 threads against 0.6 ms with 1
while another process held a core); ``--threads 1`` then gives meaningful, if
single-core, timings. The ``threads`` column says which.
"""

import argparse
import math
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from openTSNE import TSNE as OpenTSNE
from scipy.linalg import subspace_angles
from scipy.spatial import procrustes
from sklearn.decomposition import PCA, KernelPCA
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem
from sklearn.manifold import MDS, TSNE
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestNeighbors
from sklearn.svm import LinearSVC

from compendium import paths
from compendium.cost import fit_exponent, measure
from compendium.reporting import write_table
from dimred.datasets import awa2_like
from dimred.manifold import ClassicalMDS
from papers.awa2_dr_survey.data import SYNTHETIC_LABEL
from papers.awa2_dr_survey.pipelines import svc_accuracy

FULL_SIZES = (2000, 5000, 10000, 37322)
QUICK_SIZES = (300, 600, 1200)
KPCA_COMPONENTS = 32
NYSTROEM_COMPONENTS = 1000
TSNE_MAX_N = {"full": 5000, "quick": 600}
#: Budget of one cell of the protocol's SVC: the cost step needs it measured at AwA2's size.
SVC_CELL_TIMEOUT = 1200.0
SEED = 0
MIB = 2**20
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
HEAD_COLUMNS = ("benchmark", "n", "d", "ours", "baseline", "ours_s", "baseline_s", "speed_ratio",
                "ours_MiB", "baseline_MiB")  # fmt: skip


# ------------------------------------------------- the measured calls (run in the child)
def classical_mds(X, solver):
    model = ClassicalMDS(n_components=2, solver=solver).fit(X)
    return model.embedding_, model.eigenvalues_


def smacof_mds(X):
    model = MDS(
        n_components=2,
        metric_mds=True,
        n_init=1,
        init="random",
        max_iter=300,
        normalized_stress=False,
        random_state=SEED,
    )
    return model.fit_transform(X), model.n_iter_


def linear_svc(X_train, X_test, y_train, y_test):
    """LinearSVC, fitted and predicting both parts as :func:`svc_cell` does."""
    model = LinearSVC(C=1.0, random_state=SEED)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(X_train, y_train)
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    model.predict(X_train)
    return float(np.mean(model.predict(X_test) == y_test)), converged


def svc_cell(X_train, X_test, y_train, y_test):
    """One cell of the protocol: ``svc_accuracy`` (linear ``SVC``, fit, predict both parts)."""
    test, _ = svc_accuracy(X_train, y_train, X_test, y_test)
    return test / 100.0, True


def kernel_pca(X, eigen_solver):
    model = KernelPCA(
        KPCA_COMPONENTS,
        kernel="rbf",
        gamma=1.0 / X.shape[1],
        eigen_solver=eigen_solver,
        random_state=SEED,
    )
    return model.fit_transform(X), model.eigenvalues_


def nystroem_pca(X):
    landmarks = min(NYSTROEM_COMPONENTS, X.shape[0])
    features = Nystroem(
        kernel="rbf", gamma=1.0 / X.shape[1], n_components=landmarks, random_state=SEED
    ).fit_transform(X)
    pca = PCA(KPCA_COMPONENTS, svd_solver="covariance_eigh")  # exact, O(n m^2 + m^3)
    return pca.fit_transform(features), pca.singular_values_**2


def tsne(X, method):
    model = TSNE(
        n_components=2,
        method=method,
        init="pca",
        learning_rate=200.0,
        max_iter=1000,
        random_state=SEED,
    )
    return model.fit_transform(X), float(model.kl_divergence_)


def opentsne(X):
    """openTSNE's FFT-accelerated t-SNE (Linderman et al. 2019) with the same perplexity."""
    model = OpenTSNE(2, perplexity=30, initialization="pca", random_state=SEED, n_jobs=-1)
    embedding = model.fit(X)
    return np.asarray(embedding), float(embedding.kl_divergence)


# ----------------------------------------------------------------- the agreement columns
def one_nn_accuracy(embedding, y):
    """Leave-one-out 1-NN accuracy of the labels in an embedding."""
    neighbours = NearestNeighbors(n_neighbors=1).fit(embedding).kneighbors(return_distance=False)
    return float(np.mean(y[neighbours[:, 0]] == y))


def same_embedding(ours, baseline, y):
    (embedding, eigenvalues), (reference, reference_eigenvalues) = ours, baseline
    scale = np.abs(reference).max()
    return {
        "max_difference": float(np.abs(embedding - reference).max() / scale),
        "eigenvalue_difference": float(
            np.max(np.abs(eigenvalues / reference_eigenvalues - 1), initial=0.0)
        ),
    }


def mds_agreement(ours, baseline, y):
    (embedding, _), (reference, iterations) = ours, baseline
    return {
        "procrustes_disparity": float(procrustes(reference, embedding)[2]),
        "ours_1nn": one_nn_accuracy(embedding, y),
        "baseline_1nn": one_nn_accuracy(reference, y),
        "baseline_iterations": int(iterations),
    }


def svm_agreement(ours, baseline, y):
    (accuracy, converged), (reference, _) = ours, baseline
    row = {"ours_accuracy": accuracy, "baseline_accuracy": reference}
    return row | ({} if converged else {"note": "LinearSVC: not converged (max_iter=1000)"})


def spectrum_agreement(ours, baseline, y):
    (embedding, eigenvalues), (reference, reference_eigenvalues) = ours, baseline
    angles = subspace_angles(embedding, reference)
    return {
        "eigenvalue_difference": float(
            np.max(np.abs(eigenvalues / reference_eigenvalues - 1), initial=0.0)
        ),
        "max_angle_deg": float(np.degrees(angles.max())),
        "median_angle_deg": float(np.degrees(np.median(angles))),
    }


def tsne_agreement(ours, baseline, y):
    (embedding, kl), (reference, reference_kl) = ours, baseline
    return {
        "ours_1nn": one_nn_accuracy(embedding, y),
        "baseline_1nn": one_nn_accuracy(reference, y),
        "ours_kl": kl,
        "baseline_kl": reference_kl,
    }


# ------------------------------------------------------------------ methods and pairs
@dataclass(frozen=True)
class Method:
    label: str
    call: Callable
    kwargs: tuple = ()
    split: bool = False  # takes the stratified 60/40 split instead of X
    timeout: float = 0.0  # seconds per cell at least, whatever --timeout says


METHODS = {
    "cmds_covariance": Method("ClassicalMDS(solver='covariance')", classical_mds,
                              (("solver", "covariance"),)),
    "cmds_svd": Method("ClassicalMDS(solver='svd')", classical_mds, (("solver", "svd"),)),
    "smacof": Method("MDS (SMACOF, metric, n_init=1)", smacof_mds),
    "linearsvc": Method("LinearSVC(C=1)", linear_svc, split=True),
    "svc_linear": Method("SVC(kernel='linear', C=1)", svc_cell, split=True,
                         timeout=SVC_CELL_TIMEOUT),
    "kpca_randomized": Method("KernelPCA(rbf, randomized)", kernel_pca,
                              (("eigen_solver", "randomized"),)),
    "kpca_dense": Method("KernelPCA(rbf, dense)", kernel_pca, (("eigen_solver", "dense"),)),
    "nystroem_pca": Method("Nystroem(1000) + PCA", nystroem_pca),
    "tsne_bh": Method("TSNE(barnes_hut)", tsne, (("method", "barnes_hut"),)),
    "tsne_exact": Method("TSNE(exact)", tsne, (("method", "exact"),)),
    "tsne_fft": Method("openTSNE (FFT)", opentsne),
}  # fmt: skip


@dataclass(frozen=True)
class Pair:
    key: str
    title: str
    ours: str  # a key of METHODS, or "cmds_auto" (the solver ClassicalMDS() picks)
    baseline: str
    agreement: Callable
    small_only: bool = False  # only at n <= TSNE_MAX_N


PAIRS = (
    Pair("cmds_solver", "classical MDS: covariance vs SVD solver", "cmds_covariance",
         "cmds_svd", same_embedding),
    Pair("mds", "classical MDS (PCA identity) vs SMACOF metric MDS", "cmds_auto", "smacof",
         mds_agreement),
    Pair("svm", "linear SVM: LinearSVC vs SVC(kernel='linear')", "linearsvc", "svc_linear",
         svm_agreement),
    Pair("kpca_randomized", "KernelPCA rbf (k=32): randomized vs dense", "kpca_randomized",
         "kpca_dense", spectrum_agreement),
    Pair("nystroem", "KernelPCA rbf (k=32): Nystroem(1000)+PCA vs dense", "nystroem_pca",
         "kpca_dense", spectrum_agreement),
    Pair("tsne", "t-SNE: Barnes-Hut vs exact", "tsne_bh", "tsne_exact", tsne_agreement,
         small_only=True),
    Pair("tsne_fft", "t-SNE: openTSNE FFT vs scikit-learn Barnes-Hut", "tsne_fft", "tsne_bh",
         tsne_agreement),
)  # fmt: skip


# ------------------------------------------------------------------------ the runner
@dataclass
class Cell:
    """One method at one size: measured (``seconds``, ``mib``, ``result``) or not (``status``)."""

    seconds: float = math.nan
    mib: float = math.nan
    result: object = None
    status: str = "ok"

    @property
    def done(self):
        return self.status == "ok"


class Runner:
    """Measures each method once per size, with the skip rules of the module's docstring."""

    def __init__(self, timeout, memory_budget):
        self.timeout = timeout
        self.memory_budget = memory_budget
        self.cells = {}  # (method key, n) -> Cell

    def budget(self, key):
        """Seconds one cell of method ``key`` may take."""
        return max(self.timeout, METHODS[key].timeout)

    def run(self, key, n, inputs):
        if (key, n) in self.cells:
            return self.cells[key, n]
        cell = self._skip(key, n) or self._measure(key, inputs)
        self.cells[key, n] = cell
        print(f"  n={n:>6} {METHODS[key].label:<36} {cell.seconds:9.3f} s "
              f"{cell.mib:9.1f} MiB  {cell.status}", flush=True)  # fmt: skip
        return cell

    def _measure(self, key, inputs):
        method = METHODS[key]
        args = inputs["split"] if method.split else (inputs["X"],)
        try:
            measurement = measure(
                method.call, *args, return_result=True, timeout=self.budget(key),
                **dict(method.kwargs),
            )  # fmt: skip
        except (ChildProcessError, MemoryError) as error:  # e.g. killed for lack of memory
            return Cell(status=f"failed: {type(error).__name__}")
        if measurement.timed_out:
            return Cell(status=f"timed out (> {self.budget(key):g} s)")
        return Cell(measurement.wall_time, measurement.peak_memory / MIB, measurement.result, "ok")

    def _skip(self, key, n):
        previous = sorted((m, cell) for (k, m), cell in self.cells.items() if k == key and m < n)
        for m, cell in previous:
            if cell.status.startswith(("timed out", "failed")):
                return Cell(status=f"skipped ({cell.status.split(' (')[0]} at n={m})")
        done = [(m, cell) for m, cell in previous if cell.done]
        if len(done) < 2:
            return None
        (m1, c1), (m2, c2) = done[-2:]
        for value1, value2, budget, unit, scale in (
            (c1.seconds, c2.seconds, self.budget(key), "s", 1.0),
            (c1.mib, c2.mib, self.memory_budget / MIB, "GiB", 1 / 1024),
        ):
            if value1 > 0 and value2 > 0:
                slope = math.log(value2 / value1) / math.log(m2 / m1)
                predicted = value2 * (n / m2) ** max(slope, 0.0)
                if predicted > budget:
                    return Cell(
                        status=f"skipped (predicted {predicted * scale:,.0f} {unit} > "
                        f"budget {budget * scale:,.0f} {unit})"
                    )
        return None


def ours_key(pair, n, n_features):
    if pair.ours != "cmds_auto":
        return pair.ours
    return "cmds_covariance" if n >= 2 * n_features else "cmds_svd"


def pair_row(pair, n, n_features, runner, inputs, y):
    key = ours_key(pair, n, n_features)
    ours = runner.run(key, n, inputs)
    baseline = runner.run(pair.baseline, n, inputs)
    row = {
        "benchmark": pair.title,
        "n": n,
        "d": n_features,
        "ours": METHODS[key].label,
        "baseline": METHODS[pair.baseline].label,
        "ours_s": ours.seconds,
        "baseline_s": baseline.seconds,
        "speed_ratio": baseline.seconds / ours.seconds,
        "ours_MiB": ours.mib,
        "baseline_MiB": baseline.mib,
    }
    status = []
    if ours.done and baseline.done:
        extra = pair.agreement(ours.result, baseline.result, y)
        if "note" in extra:
            status.append(extra.pop("note"))
        row |= extra
    if not ours.done:
        status.append(f"ours {ours.status}")
    if not baseline.done:
        status.append(f"baseline {baseline.status}")
        if ours.done and baseline.status.startswith("timed out"):
            row["speed_ratio"] = runner.budget(pair.baseline) / ours.seconds
            status.append("speed_ratio is a lower bound")
    row["status"] = "; ".join(status) or "ok"
    return row


def exponent_rows(runner):
    rows = []
    for key, method in METHODS.items():
        done = sorted((n, cell) for (k, n), cell in runner.cells.items() if k == key and cell.done)
        if not done:
            continue
        sizes = np.array([n for n, _ in done], dtype=float)
        row = {"method": method.label, "sizes": "/".join(f"{n:,}" for n, _ in done)}
        for name, values in (
            ("time", [cell.seconds for _, cell in done]),
            ("memory", [cell.mib for _, cell in done]),
        ):
            values = np.array(values)
            ok = len(done) >= 2 and np.all(values > 0)
            row[f"{name}_exponent"] = fit_exponent(sizes, values).exponent if ok else math.nan
        row["largest_n_s"] = done[-1][1].seconds
        row["largest_n_MiB"] = done[-1][1].mib
        rows.append(row)
    return rows


def stratified_split(X, y):
    """Stratified 60/40 split (seed 0); classes of a single sample (at ``n`` below about
    600, 50 classes with a size ratio of 16) go to the training part."""
    labels, counts = np.unique(y, return_counts=True)
    single = np.isin(y, labels[counts < 2])
    train, test = train_test_split(
        np.flatnonzero(~single), test_size=0.4, stratify=y[~single], random_state=SEED
    )
    train = np.sort(np.concatenate([train, np.flatnonzero(single)]))
    return X[train], X[test], y[train], y[test]


def significant(frame, digits):
    """``frame`` with its floats rounded to ``digits`` significant digits (NaN kept)."""
    return frame.map(lambda v: float(f"{v:.{digits}g}") if isinstance(v, float) else v)


def merged(frame, stem, key):
    """``frame`` with the rows of ``<stem>.csv`` whose ``key`` it does not measure, so that
    ``--only`` remeasures some pairs and keeps the others' rows (new rows last)."""
    path = Path(stem + ".csv")
    if not path.exists():
        return frame
    kept = pd.read_csv(path).drop(columns="data")
    return pd.concat([kept[~kept[key].isin(frame[key])], frame], ignore_index=True)


def physical_memory():
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument(
        "--output",
        help="output path without suffix (the exponents go to <output>_exponents); default "
        "figures/awa2_dr_survey/benchmark_cost, build/quick/figures/... with --quick",
    )  # fmt: skip
    parser.add_argument("--sizes", type=int, nargs="+", help="sample sizes n")
    parser.add_argument("--n-features", type=int, help="features d")
    parser.add_argument("--timeout", type=float, help="seconds per cell")
    parser.add_argument(
        "--memory-fraction", type=float, default=0.5,
        help="skip cells predicted to need more than this share of the physical memory",
    )  # fmt: skip
    parser.add_argument("--only", nargs="+", choices=[pair.key for pair in PAIRS])
    parser.add_argument(
        "--threads", type=int,
        help="BLAS/OpenMP threads of the measured calls (default: the libraries' own, one "
        "per core)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.threads:
        # Read by the fork server when it starts (at the first measurement) and so by
        # every child; the agreement computations in this process are not timed.
        for variable in THREAD_VARIABLES:
            os.environ[variable] = str(args.threads)
    threads = args.threads or os.cpu_count()
    mode = "quick" if args.quick else "full"
    sizes = sorted(args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES))
    n_features = args.n_features or (256 if args.quick else 2048)
    timeout = args.timeout or (60.0 if args.quick else 600.0)
    pairs = [pair for pair in PAIRS if args.only is None or pair.key in args.only]
    runner = Runner(timeout, args.memory_fraction * physical_memory())
    print(
        f"awa2_like (synthetic) data, d={n_features}, n in {sizes}; {os.cpu_count()} cores, "
        f"{threads} threads; "
        f"{timeout:g} s per cell; memory budget {runner.memory_budget / 2**30:.1f} GiB"
    )
    rows = []
    for n in sizes:
        X, y = awa2_like(n_samples=n, n_features=n_features, random_state=SEED)
        inputs = {"X": X, "split": stratified_split(X, y)}
        for pair in pairs:
            if pair.small_only and n > TSNE_MAX_N[mode]:
                continue
            rows.append(pair_row(pair, n, n_features, runner, inputs, y) | {"threads": threads})
    report = pd.DataFrame(rows)
    head = [column for column in HEAD_COLUMNS if column in report]
    tail = ["threads", "status"]
    report = report[head + [c for c in report if c not in head + tail] + tail]
    exponents = pd.DataFrame(exponent_rows(runner))
    figures = paths.ROOT / "build" / "quick" / "figures" if args.quick else paths.FIGURES_DIR
    output = str(args.output or figures / "awa2_dr_survey" / "benchmark_cost")
    report, exponents = significant(report, 4), significant(exponents, 3)
    if args.only:  # the other pairs' rows and exponents stay as they were measured
        report = merged(report, output, "benchmark")
        exponents = merged(exponents, output + "_exponents", "method")
    write_table(report, output, index=False, data=SYNTHETIC_LABEL)
    write_table(exponents, output + "_exponents", index=False, data=SYNTHETIC_LABEL)
    print(report.to_markdown(index=False))
    print()
    print(exponents.to_markdown(index=False))


if __name__ == "__main__":
    main()
