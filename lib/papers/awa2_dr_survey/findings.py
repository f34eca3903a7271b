"""What the findings page says about our own runs, as ``findings.csv`` rows built from the
measurements (:func:`~compendium.reporting.finding_row`).

Each function takes what one step measured and returns its findings; the sentences
are built from the values, and a verdict is the claim predicate of :mod:`.claims`
(its ``decided_by`` is the finding's predicate). The full run's tables come from one
seed (the notebook's full run is not repeated over seeds); those findings say so in
their note, and where a random draw matters most (the label leak) a sweep over seeds
measures the spread (:mod:`.leak`).
"""

import numpy as np

from compendium.reporting import finding_row, listed

from .cells import lookup
from .claims import evaluate

__all__ = [
    "autoencoder_findings",
    "claim_findings",
    "leak_finding",
    "lle_findings",
    "mds_findings",
    "predicate",
]

#: Note of a finding measured once, on the run's seed.
ONE_RUN = "one seed: the notebook's full run is not repeated over seeds"


def predicate(claim, published, a, m):
    """``(predicate text, holds)`` of a claim of :mod:`.claims` on accuracies ``a`` and
    measurements ``m``; ``("", None)`` when what it needs is missing."""
    holds = evaluate(claim, a, m)[1]
    if holds is None:
        return "", None
    return f"claim {claim}: {published['claims'].loc[claim, 'decided_by']}", holds


def leak_finding(inputs, run, n_test):
    """Table VIII's inputs on the run's data: the leak of LDA fitted on all labels.

    ``inputs``: ``ours_percent`` indexed by ``(input, reading, n_components)``.
    """
    got = inputs.xs(2, level="n_components")
    transductive, inductive = "transductive (authors)", "inductive (openTSNE transform)"
    leaky, clean = got[("LDA", transductive)], got[("LDA (training labels)", transductive)]
    raw = got[("raw", transductive)]
    n, n_features = run.X.shape
    statement = (
        "The authors' `LDA-tSNE.py` fits LDA on all images with their labels before t-SNE "
        f"and the split. On {run.phrase} ({n:,} points, n/p = {n / n_features:.2f}) the same "
        f"leak gives {leaky:.2f} %; LDA fitted on the training labels only gives {clean:.2f} % "
        "(t-SNE still embedding all points), and a fully inductive map (openTSNE fitted on "
        "the training part, test points placed by `transform`) "
        f"{got[('LDA (training labels)', inductive)]:.2f} %. Raw t-SNE gives {raw:.2f} %: "
        f"{leaky - clean:.1f} of the {leaky - raw:.1f} points LDA adds are the leak."
    )
    return finding_row(
        "leak_on_run_data",
        "The label leak",
        statement,
        f"test accuracy (%, {n_test:,} test points) of 2-D t-SNE after LDA on all labels "
        "minus after LDA on the training labels",
        leaky - clean,
        data=run.data_label,
        note=f"{ONE_RUN}; leak_at_standin_ratio measures the spread over seeds at this n/p",
    )


def lle_findings(tables, metrics, published, run):
    """Table X on the run's data, with and without standardised codes, and Fig. 13's axes."""
    ours, standardised = tables["table10"]["ours_percent"], tables["table10_standardised"]
    standardised = standardised["ours_standardised_percent"]
    paper = published["table10"]["accuracy_percent"]
    text, holds = predicate(
        "lle_linear_fails", published, lookup({"table10": tables["table10"]})[1], {}
    )
    seen = {True: "appears", False: "does not appear", None: "is not decided (cells missing)"}
    seen = seen[holds]
    statement = (
        f"Table X's collapse of LLE with a linear SVC ({paper.min():.1f}–{paper.max():.1f} % "
        f"in the paper) {seen} on {run.phrase}: {ours.min():.0f}–{ours.max():.0f} % on the "
        f"unscaled codes, {standardised.min():.0f}–{standardised.max():.0f} % standardised."
    )
    if holds is False:
        statement += (
            " So neither the paper's explanation (points on a few axes) nor ours (a heavily "
            "regularised SVC on coordinates of size 1/√n) is confirmed."
        )
    lines = [metrics[f"lle2_K{K}_on_line_fraction"] for K in (4, 16, 64)]
    axes = (
        f"At K = 4, {lines[0]:.0%} of the points of the 2-D map lie on at most five lines "
        f"through its centre ({lines[1]:.0%} at K = 16, {lines[2]:.0%} at K = 64)."
    )
    cells = f"min-max over the {len(ours)} cells of Table X, one run"
    return [
        finding_row(
            "lle_linear_svc",
            "LLE with a linear SVC",
            statement,
            "largest test accuracy (%) of Table X's cells, unscaled codes",
            ours.max(),
            data=run.data_label,
            predicate=text,
            holds=holds,
            low=ours.min(),
            spread=cells,
            note=ONE_RUN,
        ),
        finding_row(
            "lle_axes",
            "LLE's lines",
            axes,
            "share of the points of the 2-D LLE map (K = 4) within 2 % of its range of one "
            "of at most five lines through its centre",
            lines[0],
            data=run.data_label,
            note=ONE_RUN,
        ),
    ]


def mds_findings(frame, metrics, published, run):
    """Table XII on the run's data: classical MDS against PCA, SMACOF against both."""
    identity, exact = predicate("mds_pca_math_relation", published, {}, metrics)
    near, close = predicate("mds_fig14_similar_pca", published, {}, metrics)
    iterations = sorted({int(metrics[f"smacof_d{d}_iterations"]) for d in frame["n_components"]})
    ran = " to ".join(map(str, iterations[:: max(len(iterations) - 1, 1)]))
    smacof, classical = frame["ours_percent"], frame["classical_mds_rbf_percent"]
    mds, pca = metrics["mds16_distance_correlation"], metrics["pca16_distance_correlation"]
    statement = (
        f"The authors ran scikit-learn's SMACOF instead. On {metrics['smacof_points']:,.0f} "
        f"points of {run.phrase} it lands {'close to' if close else 'away from'} PCA (Procrustes "
        f"disparity {metrics['mds_smacof_pca_procrustes_2d']:.2f}) and keeps the distances "
        f"{'better' if mds > pca else 'no better'} (correlation {mds:.3f} against PCA's "
        f"{pca:.3f} at d = 16), with an RBF SVC at {smacof.min():.0f}–{smacof.max():.0f} % "
        f"against {classical.min():.0f}–{classical.max():.0f} % for classical MDS on all "
        f"points. It runs {ran} iterations (0.22's `eps = 1e-3`, read as modern scikit-learn "
        'reads it, would stop it after a few). The paper\'s "MDS is close to PCA" compared '
        "SMACOF with an RBF SVC against PCA with a linear one."
    )
    disparity = metrics["mds_classical_pca_procrustes_2d"]
    return [
        finding_row(
            "mds_classical_is_pca",
            "Classical MDS is PCA",
            f"Classical MDS, which the paper derives, equals PCA: the Procrustes disparity of "
            f"their 2-D maps of {run.phrase} is {disparity:.1e}.",
            "Procrustes disparity of the 2-D classical MDS and PCA maps",
            disparity,
            data=run.data_label,
            predicate=identity,
            holds=exact,
        ),
        finding_row(
            "mds_smacof",
            "SMACOF",
            statement,
            "Procrustes disparity of the 2-D SMACOF and PCA maps",
            metrics["mds_smacof_pca_procrustes_2d"],
            data=run.data_label,
            predicate=near,
            holds=close,
            note=ONE_RUN,
        ),
    ]


def autoencoder_findings(frame, loss, published, p, solver, run):
    """Table XIII and Fig. 11 on the run's data: convergence and the best code size."""
    window = min(10, len(loss) - 1)
    change = (loss.iloc[-1] - loss.iloc[-1 - window]).abs() / loss.iloc[-1 - window]
    m = {f"ae_d{d}_last10_change": c for d, c in change.items()} if window == 10 else {}
    converged_text, converged = predicate("ae_converged", published, {}, m)
    ours = lookup({"table13": frame})[1]
    best_text, best_holds = predicate("ae_optimal_128_256", published, ours, {})
    best = {
        k: int(part.loc[part["ours_percent"].idxmax(), "n_components"])
        for k, part in frame.groupby("svc_kernel")
    }
    paper = {
        k: int(part.loc[part["accuracy_percent"].idxmax(), "n_components"])
        for k, part in published["table13"].groupby("svc_kernel")
    }
    return [
        finding_row(
            "ae_convergence",
            "The autoencoder's training",
            f"The autoencoder follows the authors' code (`solver='{solver}'`; the text says SGD) "
            f"with {_schedule(*p.ae_schedule())}. Its training loss still changes "
            f"by {change.min():.1%}–{change.max():.1%} over the last {window} epochs.",
            f"relative change of the epoch-mean training MSE over the last {window} epochs, "
            "largest over the code sizes",
            change.max(),
            data=run.data_label,
            predicate=converged_text,
            holds=converged,
            low=change.min(),
            spread=f"min-max over the {len(change)} code sizes, one run",
            note=ONE_RUN,
        ),
        finding_row(
            "ae_best_code_size",
            "The autoencoder's best code size",
            f"On {run.phrase} the accuracy is highest at d = {best['linear']} with a linear "
            f"SVC and d = {best['rbf']} with an RBF SVC; the paper's at d = {paper['linear']} "
            f"and {paper['rbf']}.",
            "code size of the most accurate Table XIII cell, RBF SVC",
            best["rbf"],
            data=run.data_label,
            predicate=best_text,
            holds=best_holds,
            note=ONE_RUN,
        ),
    ]


def claim_findings(records, published, cells, run):
    """What deciding the claims showed: the paper against itself, and what the stand-in
    can and cannot decide.

    ``records``: the claims table; ``cells``: the reproduction rows of every table cell.
    """
    claims = published["claims"]
    paper_fails = records[records["paper_own_numbers"] == "fails"]
    contradictions = listed(f"`{claim}`" for claim in paper_fails.index)
    decided = records[records["paper_own_numbers"] != "undecided"]
    by_hand = claims.loc[decided.index, "paper_own_numbers"].str.split().str[0].str.rstrip(":")
    agree = by_hand == decided["paper_own_numbers"].map(
        {"holds": "supported", "fails": "contradicted"}
    )
    rows = [
        finding_row(
            "paper_contradicts_itself",
            "The paper contradicts itself",
            f"Every claim is decided by a stated predicate, on the paper's own tables and on "
            f"our run. The paper's own numbers contradict {len(paper_fails)} claims, which are "
            f"`deviates` whatever the data: {contradictions} (`claims.csv` gives each "
            "predicate and the paper's numbers that fail it).",
            "claims whose predicate fails on the paper's own tables",
            len(paper_fails),
            data="published",
        ),
        finding_row(
            "predicates_match_transcription",
            "Predicates and transcription agree",
            f"Where the paper's tables decide a claim ({len(decided)} claims), our predicates "
            f"reach the verdict noted by hand in the transcription in {agree.sum()} of them.",
            "claims decided on the paper's own tables",
            len(decided),
            data="published",
            predicate="each predicate's verdict on the paper's tables equals claims.csv's "
            "paper_own_numbers",
            holds=bool(agree.all()),
        ),
    ]
    return rows + [_run_data_finding(cells, run)]


def _run_data_finding(cells, run):
    """Which data the run had, and what that makes of the accuracy cells."""
    statuses = cells["status"].value_counts()
    n, n_features = run.X.shape
    shape = f"{n:,} images, {n_features} features, {np.unique(run.y).size} classes"
    if run.is_awa2:
        counts = ", ".join(f"{count} `{status}`" for status, count in statuses.items())
        statement = (
            f"The run used the AwA2 features ({shape}): of the {len(cells)} accuracy cells, "
            f"{counts}."
        )
    else:
        missing = cells["note"].str.contains("not defined on the stand-in", regex=False).sum()
        statement = (
            f"The AwA2 features cannot be obtained on this machine, so every step runs on a "
            f"stand-in, Fashion-MNIST ({shape}; real images, but pixels, not CNN features), "
            f"labelled as such: all {len(cells)} accuracy cells are `not_reproducible`, the "
            "stand-in's number in the note and in the tables' `ours_percent`, never in "
            f"`reproduced`; {missing} of them do not exist on it (above {n_features} dimensions, "
            f"or LDA beyond {np.unique(run.y).size - 1} components). With the AwA2 features in "
            "its cache the same notebook reproduces the paper."
        )
    return finding_row(
        "run_data",
        "AwA2 or the stand-in",
        statement,
        "accuracy cells of the paper that are not_reproducible",
        int(statuses.get("not_reproducible", 0)),
        data=run.data_label,
    )


def _schedule(device, epochs):
    """The autoencoder's epochs and device (:meth:`~.data.Params.ae_schedule`)."""
    if device.startswith("cuda"):
        return f"{epochs} epochs on a GPU"
    return f"{epochs} epochs instead of 200 on the CPU"
