"""Steps of Tables I-VI: the SVC on all features, selection by variance, PCA and kernel
PCA, LDA and factor analysis, each fitted on the training part (inductive)."""

import pandas as pd
from scipy.spatial import procrustes

from compendium.reporting import Artefacts
from dimred.utils.parallel import run_tasks

from . import plots
from .cells import cell_rows, cell_table
from .common import all_tables, metrics_table, score_slices, silhouette, stack, timed, title
from .pipelines import (
    KERNELS,
    factor_analysis,
    kernel_pca,
    lda,
    svc_accuracy,
    variance_order,
)

__all__ = ["table1_svc_c", "table4_kernel_pca", "table5_lda", "table6_fa", "tables2_3_variance"]


def table1_svc_c(data, published, p):
    """Table I: linear SVC on all features, C = 0.125 ... 8."""
    s, table, run = data["split"], published["table1"], data["run"]
    X_train, X_test, y_train, y_test = s.parts
    tasks = [(X_train, y_train, X_test, y_test, "linear", c) for c in table["C"]]
    results = run_tasks(svc_accuracy, tasks, "Table I", p.n_jobs)
    values = dict(zip(table.index, results, strict=True))
    frame = cell_table(table, values, ["C"], run, len(s.test))
    rows = cell_rows("table1", frame, run, lambda r: f"linear SVC, C = {r['C']:g}")
    return Artefacts(tables={"table1": frame}, rows=rows, data=run.data_label)


def tables2_3_variance(data, published, p):
    """Tables II and III: the ``k`` features of largest and of least training variance."""
    s, run = data["split"], data["run"]
    X_train, X_test, y_train, y_test = s.parts
    order = variance_order(X_train)
    chosen = {"table2": order, "table3": order[::-1]}
    tables, rows = {}, []
    for name, ranked in chosen.items():
        table = published[name]
        ks = table["k"][table["k"] <= X_train.shape[1]]
        tasks = [(X_train[:, ranked[:k]], y_train, X_test[:, ranked[:k]], y_test) for k in ks]
        values = dict(zip(ks.index, run_tasks(svc_accuracy, tasks, name, p.n_jobs), strict=True))
        tables[name] = cell_table(table, values, ["selection", "k"], run, len(s.test))
        rows += cell_rows(name, tables[name], run, lambda r: f"{r['selection']}, k = {r['k']}")
    return Artefacts(tables=tables, rows=rows, data=run.data_label)


def table4_kernel_pca(data, published, p):
    """Table IV and Figs. 4, 5: PCA and kernel PCA (linear, rbf, poly, sigmoid, cosine).

    One fit per kernel at the largest ``d`` of the grid, sliced for every ``d``.
    """
    s, table, run = data["split"], published["table4"], data["run"]
    X_train, X_test, _, _ = s.parts
    largest = table.groupby("kernel")["n_components"].max()
    tasks = [(X_train, X_test, k, int(largest[k])) for k in KERNELS]
    fits = dict(
        zip(KERNELS, run_tasks(kernel_pca, tasks, "kernel PCA fits", p.n_jobs), strict=True)
    )
    values = {}
    for kernel, (Z_train, Z_test) in fits.items():
        part = table[table["kernel"] == kernel]
        cells = [(key, int(d), "linear") for key, d in part["n_components"].items()]
        values |= score_slices(Z_train, Z_test, s, cells, f"Table IV {kernel}", p)
    frame = cell_table(table, values, ["kernel", "n_components"], run, len(s.test))
    rows = cell_rows(
        "table4", frame, run, lambda r: f"{r['kernel']} kernel PCA, d = {r['n_components']}"
    )
    Z2 = stack(fits["linear"], s)[:, :2]
    metrics = {"pca2_silhouette": silhouette(Z2, run.y, p)}
    return Artefacts(
        tables={"table4": frame, "table4_metrics": metrics_table(metrics)},
        figures={
            "fig4_kernel_pca": plots.accuracy_curves(
                frame, "kernel", title(data, "Fig. 4: kernel PCA")
            ),
            "fig5_pca_2d": plots.scatter_panels(
                {"PCA": Z2}, run.y, title(data, "Fig. 5: PCA, 2-D")
            ),
        },
        rows=rows,
        data=run.data_label,
    )


def table5_lda(data, published, p):
    """Table V and Figs. 6, 7: LDA at every dimension up to ``n_classes - 1``."""
    s, table, run = data["split"], published["table5"], data["run"]
    X_train, X_test, y_train, _ = s.parts
    Z_train, Z_test = lda(X_train, y_train, X_test)
    dims = range(1, Z_train.shape[1] + 1)
    curve = score_slices(Z_train, Z_test, s, [(d, d, "linear") for d in dims], "Fig. 6", p)
    values = {key: curve[d] for key, d in table["n_components"].items() if d in curve}
    frame = cell_table(table, values, ["n_components"], run, len(s.test))
    rows = cell_rows("table5", frame, run, lambda r: f"LDA, d = {r['n_components']}")
    fig6 = pd.DataFrame(curve, index=["ours_percent", "ours_train_percent"]).T
    fig6 = fig6.rename_axis("n_components").assign(dataset=run.name)
    Z2 = stack((Z_train, Z_test), s)[:, :2]
    metrics = {"lda2_silhouette": silhouette(Z2, run.y, p)}
    return Artefacts(
        tables={
            "table5": frame,
            "fig6_lda_curve": fig6,
            "table5_metrics": metrics_table(metrics),
        },
        figures={
            "fig6_lda": plots.lda_curve(fig6, frame, title(data, "Fig. 6: LDA")),
            "fig7_lda_2d": plots.scatter_panels(
                {"LDA": Z2}, run.y, title(data, "Fig. 7: LDA, 2-D")
            ),
        },
        rows=rows,
        data=run.data_label,
    )


def _fa_cell(X_train, X_test, y_train, y_test, d, seed):
    """Accuracies of a linear SVC on ``d`` factors, and the FA fit's wall time."""
    (Z_train, Z_test), seconds = timed(factor_analysis, X_train, X_test, d, seed)
    return svc_accuracy(Z_train, y_train, Z_test, y_test), seconds


def table6_fa(data, published, p, results):
    """Table VI and Figs. 8, 9: factor analysis, one fit per dimension (not nested).

    ``results``: the earlier steps' artefacts; Fig. 8 puts our PCA (Table IV) beside
    our FA.
    """
    s, table, run = data["split"], published["table6"], data["run"]
    X_train, X_test, y_train, y_test = s.parts
    dims = table["n_components"][table["n_components"] <= X_train.shape[1]]
    tasks = [(X_train, X_test, y_train, y_test, int(d), p.seed) for d in dims]
    fits = dict(zip(dims.index, run_tasks(_fa_cell, tasks, "Table VI", p.n_jobs), strict=True))
    values = {key: accuracy for key, (accuracy, _) in fits.items()}
    frame = cell_table(table, values, ["n_components"], run, len(s.test))
    rows = cell_rows("table6", frame, run, lambda r: f"FA, d = {r['n_components']}")
    fa2 = stack(factor_analysis(X_train, X_test, 2, p.seed), s)
    pca2 = stack(kernel_pca(X_train, X_test, "linear", 2), s)
    metrics = {"fa_pca_procrustes_2d": float(procrustes(pca2, fa2)[2])}
    metrics |= {f"fa_d{dims[k]}_seconds": seconds for k, (_, seconds) in fits.items()}
    metrics |= {"fa_training_points": len(s.train), "fa_features": X_train.shape[1]}
    return Artefacts(
        tables={"table6": frame, "table6_metrics": metrics_table(metrics)},
        figures={
            "fig8_fa_vs_pca": plots.fa_vs_pca(
                frame, all_tables(results)["table4"], title(data, "Fig. 8: FA")
            ),
            "fig9_fa_2d": plots.scatter_panels(
                {"FA": fa2, "PCA": pca2}, run.y, title(data, "Fig. 9: FA, 2-D")
            ),
        },
        rows=rows,
        data=run.data_label,
    )
