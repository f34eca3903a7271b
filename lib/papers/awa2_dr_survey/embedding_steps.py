"""Steps of Tables VII-XIII: t-SNE, LLE, MDS and the autoencoder, fitted on all points
(transductive, as the authors), with the inductive readings beside them.

Fits whose wall time decides a claim and that use both cores (Barnes-Hut t-SNE's
OpenMP threads, BLAS) run one at a time (``n_jobs=1``): two of them sharing two cores
would time each other. Exact t-SNE's gradient is a loop of small matrix-vector
products: the same embedding, bit for bit, with one BLAS thread or two
(``tests/papers/test_awa2_protocol.py``), and about as fast with two. Its fits run two at a
time, one per core, before the Barnes-Hut ones.
"""

import math

import numpy as np
import pandas as pd
from scipy.spatial import procrustes
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from tqdm.auto import tqdm

from compendium.reporting import Artefacts
from dimred.manifold import ClassicalMDS
from dimred.neural import Autoencoder
from dimred.utils.parallel import run_tasks

from . import plots
from .cells import cell_rows, cell_table
from .common import (
    metrics_table,
    pca_scores,
    score_slices,
    score_transductive,
    silhouette,
    stack,
    subsample,
    timed,
    title,
    trustworthiness_of,
)
from .findings import autoencoder_findings, leak_finding, lle_findings, mds_findings
from .geometry import (
    angle_radius_knn,
    axis_lines,
    centroid_separation_ratio,
    circular_variance_by_class,
    pairwise_distance_correlation,
)
from .pipelines import (
    kernel_pca,
    lle,
    opentsne_inductive,
    smacof_mds,
    svc_accuracy,
    transductive_accuracy,
    tsne,
)

__all__ = [
    "INPUTS",
    "TSNE_DIMS",
    "table8_tsne_preprocessing",
    "table12_mds",
    "table13_autoencoder",
    "tables7_9_tsne",
    "tables10_11_lle",
]

#: libsvm iterations of the linear SVC on standardised LLE codes (a diagnostic beside
#: Table X): some of those problems take libsvm longer than the whole protocol; a fit
#: stopped there may fall short of its optimum.
LLE_MAX_ITER = 20_000

#: t-SNE inputs of Table VIII and the leak-free variant: name -> how (:func:`preprocessed`).
INPUTS = {"raw": "raw", "PCA": "PCA", "LDA": "LDA", "LDA (training labels)": "LDA-train"}
#: Dimensions of the raw-input t-SNE maps of Tables VII and IX, by method.
TSNE_DIMS = {"barnes_hut": (2, 3), "exact": (2, 3, 4, 8, 16)}


# ------------------------------------------------------------------------------- t-SNE
def preprocessed(X, y, s, how):
    """The input of t-SNE (Table VIII).

    ``"raw"``; ``"PCA"``: 64 principal components of all points (the authors'
    ``PCA-tSNE.py``); ``"LDA"``: LDA fitted on **all** points with their labels, test
    labels included (the authors' ``LDA-tSNE.py``); ``"LDA-train"``: LDA fitted on
    the training labels only, test points projected.
    """
    if how == "raw":
        return X
    if how == "PCA":
        return pca_scores(X, 64)
    fit = slice(None) if how == "LDA" else s.train
    return LinearDiscriminantAnalysis(solver="svd").fit(X[fit], y[fit]).transform(X)


def tsne_of(X, y, s, how, d, method, p):
    """t-SNE (:func:`~.pipelines.tsne`) of the ``how`` input of all points."""
    return tsne(preprocessed(X, y, s, how), d, method, p.seed, p.tsne_max_iter)


def tables7_9_tsne(data, published, p):
    """Tables VII and IX: Barnes-Hut vs exact t-SNE, and exact t-SNE's dimension.

    All on the same ``p.exact_n`` points (exact t-SNE's dense affinities are the
    paper's "computational limitation"), with LDA->Barnes-Hut at d=2 timed on them
    too; each embedding is split and scored with a linear SVC, as the authors did. The
    exact fits are timed two at a time, each in a worker of its own (one core), the
    Barnes-Hut fits one at a time in the kernel (module docstring).
    """
    run = data["run"]
    X, y, s = subsample(data, p.exact_n, p)
    jobs = [("raw", "barnes_hut", d) for d in TSNE_DIMS["barnes_hut"]]
    jobs += [("raw", "exact", d) for d in TSNE_DIMS["exact"]] + [("LDA", "barnes_hut", 2)]
    exact = [job for job in jobs if job[1] == "exact"]
    alone = [job for job in jobs if job[1] == "barnes_hut"]
    done = {}
    dimensions = [d for *_, d in exact]  # the costs: the slowest fits first
    for group, n_jobs, costs in ((exact, p.n_jobs, dimensions), (alone, 1, None)):
        tasks = [(tsne_of, X, y, s, how, d, method, p) for how, method, d in group]
        label = f"t-SNE {group[0][1]} (Tables VII, IX)"
        done |= zip(group, run_tasks(timed, tasks, label, n_jobs, costs=costs), strict=True)
    fits = {job: done[job] for job in jobs}
    tables, rows = {}, []
    for name in ("table7", "table9"):
        table = published[name]
        values = {
            key: transductive_accuracy(fits[("raw", r["tsne_method"], r["n_components"])][0], s)
            for key, r in table.iterrows()
        }
        tables[name] = cell_table(table, values, ["tsne_method", "n_components"], run, len(s.test))
        rows += cell_rows(
            name,
            tables[name],
            run,
            lambda r: f"t-SNE {r['tsne_method']}, d = {r['n_components']} ({len(y)} points)",
        )
    seconds = {f"tsne_{m}_d{d}_seconds": t for (how, m, d), (_, t) in fits.items() if how == "raw"}
    seconds["tsne_lda_bh_d2_seconds"] = fits[("LDA", "barnes_hut", 2)][1]
    tables["tables7_9_metrics"] = metrics_table(seconds | {"tsne_exact_points": len(y)})
    return Artefacts(tables=tables, rows=rows, data=run.data_label)


def table8_tsne_preprocessing(data, published, p):
    """Table VIII, Figs. 10, 12: Barnes-Hut t-SNE of raw, PCA-64 and LDA input.

    The paper's reading (the authors' ``LDA-tSNE.py``): LDA fitted on **all**
    points with their labels, test labels included, then t-SNE of all points,
    then the split. Beside it (``table8_inputs``): LDA fitted on the training labels
    only (t-SNE still of all points), and fully inductive maps (openTSNE fitted on
    the training part, test points placed by ``transform``).
    """
    run, s = data["run"], data["split"]
    X, y = run.X, run.y
    jobs = [(name, d) for name in INPUTS for d in (2, 3)]
    tasks = [(tsne_of, X, y, s, INPUTS[name], d, "barnes_hut", p) for name, d in jobs]
    fits = dict(zip(jobs, run_tasks(timed, tasks, "t-SNE inputs (Table VIII)", 1), strict=True))
    scores = {job: transductive_accuracy(Z, s) for job, (Z, _) in fits.items()}
    table = published["table8"]
    values = {key: scores[(r["preprocessing"], r["n_components"])] for key, r in table.iterrows()}
    columns = ["preprocessing", "preprocess_dim", "n_components"]
    frame = cell_table(table, values, columns, run, len(s.test))
    rows = cell_rows(
        "table8",
        frame,
        run,
        lambda r: f"t-SNE of {r['preprocessing']} input, d = {r['n_components']}",
    )
    maps = {name: fits[(name, 2)][0] for name in INPUTS}
    pca2 = stack(kernel_pca(X[s.train], X[s.test], "linear", 2), s)
    metrics = {f"tsne2_{name}_silhouette": silhouette(Z, y, p) for name, Z in maps.items()}
    metrics |= {
        f"tsne2_{n}_centroid_ratio": centroid_separation_ratio(Z, y) for n, Z in maps.items()
    }
    metrics |= trustworthiness_of({"tsne2_raw": maps["raw"], "pca2": pca2}, X, p)
    metrics |= {f"tsne_{name}_d{d}_seconds": t for (name, d), (_, t) in fits.items()}
    inputs = _inputs_table(fits, scores, run, s, p)
    return Artefacts(
        tables={
            "table8": frame,
            "table8_inputs": inputs,
            "table8_metrics": metrics_table(metrics),
        },
        figures={
            "fig10_tsne_inputs": plots.scatter_panels(
                maps, y, title(data, "Fig. 10: t-SNE of raw, PCA-64 and LDA input")
            ),
            "fig12_tsne_vs_pca": plots.scatter_panels(
                {"t-SNE": maps["raw"], "PCA": pca2}, y, title(data, "Fig. 12: t-SNE and PCA")
            ),
        },
        rows=rows,
        findings=[leak_finding(inputs["ours_percent"], run, len(s.test))],
        data=run.data_label,
    )


def _inductive_cell(X, y, s, how, p):
    """Linear-SVC accuracy of openTSNE fitted on the training part, test points mapped."""
    Z = preprocessed(X, y, s, how)
    Z_train, Z_test = opentsne_inductive(Z[s.train], Z[s.test], p.seed)
    return svc_accuracy(Z_train, y[s.train], Z_test, y[s.test])


def _inputs_table(fits, scores, run, s, p):
    """Every t-SNE input and reading: transductive (as the authors) and inductive (openTSNE)."""
    records = [
        (name, "transductive (authors)", d, scores[(name, d)][0], fits[(name, d)][1])
        for name, d in fits
    ]
    inductive = {"raw": "raw", "LDA (training labels)": "LDA-train"}
    tasks = [(_inductive_cell, run.X, run.y, s, how, p) for how in inductive.values()]
    results = run_tasks(timed, tasks, "openTSNE (inductive)", 1)
    records += [
        (name, "inductive (openTSNE transform)", 2, accuracy[0], seconds)
        for name, (accuracy, seconds) in zip(inductive, results, strict=True)
    ]
    columns = ["input", "reading", "n_components", "ours_percent", "seconds"]
    frame = pd.DataFrame(records, columns=columns).round({"ours_percent": 2, "seconds": 1})
    return frame.set_index(columns[:3]).assign(dataset=run.name)


# --------------------------------------------------------------------------------- LLE
def tables10_11_lle(data, published, p):
    """Tables X, XI and Fig. 13: LLE of ``p.lle_n`` points, linear and RBF SVC.

    One fit per ``K`` at the largest ``d`` (128), sliced. Beside the paper's
    unscaled codes, ``table10_standardised`` scores standardised codes (the codes
    are eigenvectors of unit norm, coordinates of size ``1/sqrt(n)``, which a linear
    SVC with C = 1 regularises heavily), with libsvm bounded to
    :data:`LLE_MAX_ITER` iterations; and an inductive fit (training points only,
    test points mapped by ``transform``) at the best cell.

    At small ``K`` the neighbour graph can split into components, and LLE's
    smallest eigenvalues are then (near-)degenerate: the codes inside such an
    eigenspace are defined only up to a rotation, which rounding (e.g. the BLAS
    kernel) decides. The RBF SVC on all ``d`` columns is invariant to it; a slice
    that cuts through the eigenspace, and the standardised codes, are not.
    """
    run = data["run"]
    X, y, s = subsample(data, p.lle_n, p)
    largest = min(int(published["table10"]["n_components"].max()), X.shape[1])
    Ks = sorted(published["table10"]["n_neighbors"].unique())
    tasks = [(lle, X, K, largest, p.seed) for K in Ks]
    fits = dict(zip(Ks, run_tasks(timed, tasks, "LLE fits", 1), strict=True))
    tables, rows = {}, []
    for name, kernel in (("table10", "linear"), ("table11", "rbf")):
        values = _lle_scores(fits, published[name], s, kernel, lambda Z: Z, -1, p)
        columns = ["n_neighbors", "n_components"]
        tables[name] = cell_table(published[name], values, columns, run, len(s.test))
        rows += cell_rows(
            name,
            tables[name],
            run,
            lambda r, kernel=kernel: (
                f"LLE K = {r['n_neighbors']}, d = {r['n_components']} ({len(y)} points), "
                f"{kernel} SVC"
            ),
        )
    standardised = _lle_scores(
        fits, published["table10"], s, "linear", StandardScaler().fit_transform, LLE_MAX_ITER, p
    )
    tables["table10_standardised"] = tables["table10"][["n_neighbors", "n_components"]].assign(
        ours_unscaled_percent=tables["table10"]["ours_percent"],
        ours_standardised_percent=pd.Series({k: round(v[0], 2) for k, v in standardised.items()}),
        dataset=run.name,
    )
    metrics = {f"lle_K{K}_seconds": t for K, (_, t) in fits.items()} | {"lle_points": len(y)}
    metrics |= _lle_inductive(X, y, s, max(Ks), largest, p)
    metrics |= _lle_geometry(fits, fits[max(Ks)][0], X, y, s, p)
    maps = {f"K = {K}": model.embedding_[:, :2] for K, (model, _) in fits.items()}
    return Artefacts(
        tables=tables | {"table10_11_metrics": metrics_table(metrics)},
        figures={"fig13_lle_2d": plots.scatter_panels(maps, y, title(data, "Fig. 13: LLE, 2-D"))},
        rows=rows,
        findings=lle_findings(tables, metrics, published, run),
        data=run.data_label,
    )


def _lle_scores(fits, table, s, kernel, prepare, max_iter, p):
    """``{key: svc_accuracy}`` of each cell of Table X or XI on ``prepare(codes)``."""
    values = {}
    for K, (model, _) in fits.items():
        part = table[table["n_neighbors"] == K]
        cells = [(key, int(d), kernel) for key, d in part["n_components"].items()]
        Z = prepare(model.embedding_)
        values |= score_transductive(Z, s, cells, f"LLE {kernel} SVC, K = {K}", p, max_iter)
    return values


def _lle_inductive(X, y, s, K, d, p):
    """RBF-SVC accuracy of LLE fitted on the training points, test points mapped."""
    model = lle(X[s.train], K, d, p.seed)
    test = model.transform(X[s.test])
    accuracy = svc_accuracy(model.embedding_, y[s.train], test, y[s.test], "rbf")[0]
    return {"lle_inductive_rbf_percent": accuracy}


def _lle_geometry(fits, best, X, y, s, p):
    """Line structure of the 2-D codes (Fig. 13) and the locality of the best one."""
    out = {}
    for K, (model, _) in fits.items():
        lines = axis_lines(model.embedding_[:, :2])
        out[f"lle2_K{K}_on_line_fraction"] = lines.on_line_fraction
        out[f"lle2_K{K}_thickness"] = lines.thickness
    Z = best.embedding_
    knn = KNeighborsClassifier(5).fit(Z[s.train], y[s.train])
    out["lle_best_5nn_percent"] = 100.0 * knn.score(Z[s.test], y[s.test])
    return out | trustworthiness_of({"lle_best": Z}, X, p)


# --------------------------------------------------------------------------------- MDS
def table12_mds(data, published, p):
    """Table XII and Fig. 14: SMACOF-MDS (what the authors ran) and classical MDS.

    SMACOF embeds ``p.smacof_n`` points (all of them, transductively), scored with
    the RBF SVC of the table. Classical MDS (the paper's Sec. II-H) equals PCA; it
    embeds every point inductively (:class:`~dimred.manifold.ClassicalMDS`,
    Gower's out-of-sample formula) and is scored with the same RBF SVC, also at
    d = 128 (the "PCA then rbf SVC" the LLE claim compares with).
    """
    run, table = data["run"], published["table12"]
    X, y, s = subsample(data, p.smacof_n, p)
    dims = [int(d) for d in table["n_components"]]
    fits = dict(
        zip(
            dims,
            run_tasks(smacof_mds, [(X, d, p.seed) for d in dims], "SMACOF", p.n_jobs),
            strict=True,
        )
    )
    values = {
        key: transductive_accuracy(fits[d].embedding_, s, "rbf")
        for key, d in table["n_components"].items()
    }
    frame = cell_table(table, values, ["n_components"], run, len(s.test))
    rows = cell_rows(
        "table12",
        frame,
        run,
        lambda r: f"SMACOF-MDS, d = {r['n_components']} ({len(y)} points), rbf SVC",
    )
    classical = _classical_mds_scores(data, table, p)
    frame["classical_mds_rbf_percent"] = pd.Series(classical).round(2)
    smacof2, pca = fits[2].embedding_, pca_scores(X, max(dims))
    metrics = {
        "mds_smacof_pca_procrustes_2d": float(procrustes(pca[:, :2], smacof2)[2]),
        "mds_classical_pca_procrustes_2d": float(
            procrustes(pca[:, :2], ClassicalMDS(2).fit_transform(X))[2]
        ),
        "mds2_silhouette": silhouette(smacof2, y, p),
        "pca2_mds_points_silhouette": silhouette(pca[:, :2], y, p),
        "mds16_distance_correlation": pairwise_distance_correlation(
            X, fits[max(dims)].embedding_, p.metric_n, p.seed
        ),
        "pca16_distance_correlation": pairwise_distance_correlation(X, pca, p.metric_n, p.seed),
        "smacof_points": len(y),
        "pca128_rbf_percent": classical.get("d128", math.nan),
    }
    metrics |= {f"smacof_d{d}_iterations": model.n_iter_ for d, model in fits.items()}
    return Artefacts(
        tables={"table12": frame, "table12_metrics": metrics_table(metrics)},
        figures={
            "fig14_mds_vs_pca": plots.scatter_panels(
                {"SMACOF-MDS": smacof2, "PCA": pca[:, :2]},
                y,
                title(data, "Fig. 14: MDS and PCA, 2-D"),
            )
        },
        rows=rows,
        findings=mds_findings(frame, metrics, published, run),
        data=run.data_label,
    )


def _classical_mds_scores(data, table, p):
    """RBF-SVC accuracy (percent) of classical MDS of every point at Table XII's d and 128."""
    s = data["split"]
    X_train, X_test, _, _ = s.parts
    model = ClassicalMDS(min(128, *X_train.shape)).fit(X_train)
    cells = [(key, int(d), "rbf") for key, d in table["n_components"].items()]
    scores = score_slices(
        model.transform(X_train), model.transform(X_test), s, cells + [("d128", 128, "rbf")],
        "classical MDS", p,
    )  # fmt: skip
    return {key: accuracy for key, (accuracy, _) in scores.items()}


# ------------------------------------------------------------------------- autoencoder
def table13_autoencoder(data, published, p):
    """Table XIII, Figs. 11, 15: the autoencoder of Sec. III-J, trained on all points.

    Adam (what the authors' code ran; the text says SGD), learning rate
    1e-3 -> 1e-4 over the epochs of ``p.ae_schedule()`` (the paper's 200 on a GPU,
    ``p.ae_epochs`` on the CPU), batch 128, mean squared error. Fits run one after
    another: torch uses the cores itself. The device and the epochs are recorded in
    ``table13_metrics`` (``ae_gpu``, ``ae_epochs``) and in every row.
    """
    run, s, table = data["run"], data["split"], published["table13"]
    device, epochs = p.ae_schedule()
    codes, curves, seconds = {}, {}, {}
    for d in tqdm(sorted(table["n_components"].unique()), "autoencoder"):
        model = Autoencoder(
            int(d),
            hidden_layer_sizes=p.ae_hidden,
            max_epochs=epochs,
            random_state=p.seed,
            device=device,
        )
        model, seconds[d] = timed(model.fit, run.X)
        codes[d], curves[d] = model.transform(run.X), model.loss_curve_
    values = {
        key: transductive_accuracy(codes[r["n_components"]], s, r["svc_kernel"])
        for key, r in tqdm(list(table.iterrows()), "Table XIII SVC")
    }
    frame = cell_table(table, values, ["svc_kernel", "n_components"], run, len(s.test))
    rows = cell_rows(
        "table13",
        frame,
        run,
        lambda r: (
            f"autoencoder d = {r['n_components']}, {r['svc_kernel']} SVC "
            f"({epochs} epochs on {device})"
        ),
    )
    loss = pd.DataFrame(curves).rename_axis("epoch")
    loss.index += 1
    metrics = _ae_metrics(codes[2], run.y, curves, p) | {
        f"ae_d{d}_seconds": t for d, t in seconds.items()
    }
    metrics |= {"ae_points": run.X.shape[0], "ae_features": run.X.shape[1]}
    metrics |= {"ae_epochs": epochs, "ae_gpu": float(device.startswith("cuda"))}
    return Artefacts(
        tables={
            "table13": frame,
            "fig11_ae_loss": loss,
            "table13_metrics": metrics_table(metrics),
        },
        figures={
            "fig11_ae_loss": plots.loss_curves(
                loss, title(data, "Fig. 11: autoencoder reconstruction loss")
            ),
            "fig15_ae_2d": plots.scatter_panels(
                {"autoencoder, d = 2": codes[2]}, run.y, title(data, "Fig. 15: autoencoder, 2-D")
            ),
        },
        rows=rows,
        findings=autoencoder_findings(frame, loss, published, p, model.solver, run),
        data=run.data_label,
    )


def _ae_metrics(code2, y, curves, p):
    """Fig. 15's rays (angle vs radius) and Fig. 11's losses, with their last-10-epoch change."""
    geometry = angle_radius_knn(code2, y, random_state=p.seed)
    out = {f"ae2_knn_{k}_percent": 100.0 * v for k, v in geometry.items()}
    out["ae2_circular_variance"] = circular_variance_by_class(code2, y)
    for d, curve in curves.items():
        out[f"ae_d{d}_final_mse"] = float(curve[-1])
        change = abs(curve[-1] - curve[-11]) / curve[-11] if len(curve) > 10 else np.nan
        out[f"ae_d{d}_last10_change"] = float(change)
    return out
