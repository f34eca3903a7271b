"""Fig. 3 of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan, AAAI 2011):
ORML on three UMIST subjects, and the singular scatter of its graph.

The three-rank task (man with glasses, man without, woman without; 10 random
training images per rank, :func:`umist_task`) is projected by ORML
(:func:`umist_projection`): the rank intervals of the training projections, their
order, the pose variation within each rank and the test faces predicted in their
rank (Eq. 8). :func:`umist_rows` compares them with the transcribed Fig. 3, on
scale-free boundaries (:func:`relative_boundaries`) since the axis scales with the
unreported ``C`` and grey levels. :func:`singular_scatter_sweep` sets the
pseudo-inverse of the paper against the ridge remedy as the graph splits apart;
:func:`umist_splits_artefacts` repeats both over training splits
(:func:`~.draws.umist_splits`).
"""

import numpy as np
import pandas as pd
from scipy.sparse.csgraph import connected_components
from scipy.stats import spearmanr

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row
from dimred.ordinal import ORML
from dimred.utils.graphs import laplacian

from . import plots
from .draws import umist_splits
from .findings import UMIST
from .methods import N_NEIGHBORS, mean_absolute_error

__all__ = [
    "UMIST_CANDIDATES",
    "UMIST_GLASSES_CANDIDATES",
    "UMIST_SUBJECTS",
    "UMIST_TRAIN_PER_RANK",
    "ordered_disjoint",
    "pose_correlation",
    "rank_intervals",
    "relative_boundaries",
    "singular_scatter_artefacts",
    "singular_scatter_sweep",
    "umist_fig3_artefacts",
    "umist_projection",
    "umist_rows",
    "umist_splits_artefacts",
    "umist_subjects_artefacts",
    "umist_task",
]

#: UMIST subjects (the paper's ranks 1-3): the candidates with 26 images and glasses
#: (16, 17), the only subject with 38 images (1) and the only one with 20 (9).
UMIST_GLASSES_CANDIDATES = (16, 17)
UMIST_SUBJECTS = {"man with glasses": 16, "man without glasses": 1, "woman without glasses": 9}
UMIST_TRAIN_PER_RANK = 10
#: Thumbnails shown as the evidence for the subject choice: the five subjects with 26
#: images (two with glasses) and the only subjects with 38 and 20 images.
UMIST_CANDIDATES = {
    "subject 16 (26, glasses)": 16,
    "subject 17 (26, glasses)": 17,
    "subject 3 (26)": 3,
    "subject 5 (26)": 5,
    "subject 13 (26)": 13,
    "subject 1 (38)": 1,
    "subject 9 (20)": 9,
}


def umist_task(umist, glasses_subject=UMIST_SUBJECTS["man with glasses"], seed=0):
    """The three-rank UMIST task: 10 random training images per rank, the rest for testing.

    Returns
    -------
    train, test : ndarray of int
        Indices into ``umist.data``.
    ranks : ndarray of int
        Rank of every image of ``umist``: 1 (man with glasses), 2 (man without
        glasses), 3 (woman without glasses), 0 for the other subjects.
    """
    subjects = (
        glasses_subject,
        UMIST_SUBJECTS["man without glasses"],
        UMIST_SUBJECTS["woman without glasses"],
    )
    rng = np.random.default_rng([seed, glasses_subject])
    ranks = np.zeros(len(umist.target), dtype=int)
    train, test = [], []
    for rank, subject in enumerate(subjects, start=1):
        members = np.flatnonzero(umist.target == subject)
        ranks[members] = rank
        chosen = np.sort(rng.choice(members, UMIST_TRAIN_PER_RANK, replace=False))
        train.append(chosen)
        test.append(np.setdiff1d(members, chosen))
    return np.concatenate(train), np.concatenate(test), ranks


def rank_intervals(z, y):
    """``(min, max)`` of the projections of every rank, sorted by rank."""
    return pd.DataFrame(
        [(rank, z[y == rank].min(), z[y == rank].max()) for rank in np.unique(y)],
        columns=["rank", "low", "high"],
    )


def pose_correlation(z, y, index):
    """Smallest over ranks of ``|Spearman rho|`` between the projection and the pose.

    UMIST stores each subject's images as a pose sequence (profile to frontal),
    so the image index is the pose order; a projection that keeps "the pose
    variation of each person" (Fig. 3) is monotone in it within each rank.
    """
    return min(abs(spearmanr(z[y == rank], index[y == rank]).statistic) for rank in np.unique(y))


def ordered_disjoint(intervals):
    """True when each rank's interval lies entirely to the right of the previous one."""
    return bool(np.all(intervals["low"].to_numpy()[1:] > intervals["high"].to_numpy()[:-1]))


def relative_boundaries(intervals):
    """Scale-free boundaries: midpoints between consecutive intervals, as a share of the span.

    Needed because ``w`` (and so the axis of Fig. 3) scales with ``C`` and with the grey
    levels, which the paper does not give.
    """
    low, high = intervals["low"].to_numpy(), intervals["high"].to_numpy()
    span = high[-1] - low[0]
    return ((low[1:] + high[:-1]) / 2 - low[0]) / span


def umist_rows(intervals, train_counts, published):
    """Reproduction rows of Fig. 3: rank sizes, resolution, the six interval ends and the
    two scale-free boundaries (tolerance 0.05 of the span, the precision of the text).

    ``published`` is the transcribed ``umist_fig3`` table (indexed by rank).
    """
    published = published.reset_index()
    rows = [
        reproduction_row("fig3", f"images in rank {r.rank}", int(r.images),
                         int(train_counts[r.rank]), "setting" if r.images == train_counts[r.rank]
                         else "deviates", None,
                         "images of the chosen subject, who was chosen by this count",
                         source=source("umist_fig3", r.rank))
        for r in published.itertuples()
    ]  # fmt: skip
    rows.append(
        reproduction_row("fig3", "image resolution", "56x46", "32x32", "not_reproducible", None,
                         "only a 32x32 copy of UMIST is obtainable (registry note)")
    )  # fmt: skip
    for paper, ours in zip(published.itertuples(), intervals.itertuples(), strict=True):
        for end in ("low", "high"):
            rows.append(
                reproduction_row("fig3", f"rank {paper.rank} interval {end}",
                                 getattr(paper, end), round(getattr(ours, end), 4),
                                 "not_reproducible", None,
                                 "the axis scales with C and the grey levels (both unreported)",
                                 source=source("umist_fig3", paper.rank))
            )  # fmt: skip
    paper_rel = relative_boundaries(published)
    ours_rel = relative_boundaries(intervals)
    for r, (p, o) in enumerate(zip(paper_rel, ours_rel, strict=True), start=1):
        status = "within_error" if abs(o - p) <= 0.05 else "deviates"
        rows.append(
            reproduction_row("fig3", f"boundary rank {r}|{r + 1} as share of the span",
                             round(p, 3), round(o, 3), status, round(o - p, 3),
                             "scale-free position; within_error if |difference| <= 0.05",
                             source=source("umist_fig3", r))
        )  # fmt: skip
    return rows


def singular_scatter_sweep(X_train, y_train, X_test, y_test, neighbours, ridge=1e-8):
    """The pseudo-inverse (paper) against the ridge remedy as the graph splits apart.

    For each ``K`` the graph's connected components ``c``, the ranks of
    ``S = X L X^T`` and of the centred data, and for both solvers the manifold
    cost ``w^T S w / |w|^2``, the smallest margin ``min_r w^T(m_{r+1} - m_r) / |w|``
    and the test MAE. The pseudo-inverse is sound exactly when
    ``rank S = rank X`` (no direction of the data's span has zero manifold cost).

    Returns
    -------
    DataFrame
    """
    rows = []
    for k in neighbours:
        row = {"K": k}
        for label, model in (("pinv", ORML(n_neighbors=k)), ("ridge", ORML(k, ridge=ridge))):
            model.fit(X_train, y_train)
            centred = X_train - model.mean_
            scatter = centred.T @ (laplacian(model.graph_) @ centred)
            w = model.coef_
            row.update({
                "components": connected_components(model.graph_)[0],
                "rank S": int(np.linalg.matrix_rank(scatter, hermitian=True)),
                "rank X": int(np.linalg.matrix_rank(centred)),
                f"cost {label}": float(w @ scatter @ w / (w @ w)),
                f"margin {label}": model.fit_info_["margin"] / np.linalg.norm(w),
                f"test MAE {label}": mean_absolute_error(y_test, model.predict(X_test)),
            })  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows).set_index("K")


def umist_projection(umist, glasses_subject, seed=0):
    """Fig. 3 for one choice of the man with glasses: ORML on the three-rank UMIST task.

    Returns
    -------
    intervals : DataFrame
        :func:`rank_intervals` of the training projections.
    summary : dict
        ``train_ordered``, ``pose_rho``, ``test_accuracy``, ``test_mae``.
    panels : list
        ``(title, z, ranks, indices)`` for training and test data, as
        :func:`~papers.orml.plots.figure_projection` takes them.
    """
    train, test, ranks = umist_task(umist, glasses_subject=glasses_subject, seed=seed)
    model = ORML(n_neighbors=N_NEIGHBORS).fit(umist.data[train], ranks[train])
    z_train = model.transform(umist.data[train])[:, 0]
    z_test = model.transform(umist.data[test])[:, 0]
    predicted = model.predict(umist.data[test])
    intervals = rank_intervals(z_train, ranks[train])
    summary = {
        "train_ordered": ordered_disjoint(intervals),
        "pose_rho": pose_correlation(z_train, ranks[train], train),
        "test_accuracy": float(np.mean(predicted == ranks[test])),
        "test_mae": mean_absolute_error(ranks[test], predicted),
    }
    panels = [
        ("training data", z_train, ranks[train], train),
        ("test data", z_test, ranks[test], test),
    ]
    return intervals, summary, panels


def singular_scatter_artefacts(data, p):
    """:func:`singular_scatter_sweep` on the UMIST task for ``p.singular_neighbours``."""
    table = _umist_sweep(data["umist"], p.seed, p.singular_neighbours)
    return Artefacts(tables={"singular_scatter": table}, data=UMIST)


def _umist_sweep(umist, seed, neighbours):
    """:func:`singular_scatter_sweep` on the UMIST training split of ``seed``."""
    train, test, ranks = umist_task(umist, seed=seed)
    return singular_scatter_sweep(
        umist.data[train], ranks[train], umist.data[test], ranks[test], neighbours
    )


def umist_splits_artefacts(data, p):
    """Fig. 3's summary and the singular-scatter comparison over ``p.umist_splits`` splits.

    One training split (10 random images per rank) is one draw; this repeats Fig. 3
    and the pseudo-inverse against the ridge at the smallest ``K`` that splits the
    graph (5) and the paper's 10 on each split (:func:`~.draws.umist_splits`).
    """
    umist = data["umist"]
    subject = UMIST_SUBJECTS["man with glasses"]
    table = umist_splits(
        umist,
        [p.seed + r for r in range(p.umist_splits)],
        lambda bunch, seed: umist_projection(bunch, subject, seed),
        lambda seed, neighbours: _umist_sweep(umist, seed, neighbours),
        (5, N_NEIGHBORS),
    )
    return Artefacts(tables={"umist_splits": table}, data=UMIST)


def umist_subjects_artefacts(data):
    """Thumbnails of the UMIST candidates for the paper's three subjects."""
    umist = data["umist"]
    fig = plots.figure_subjects(umist.data, umist.target, UMIST_CANDIDATES, umist.image_shape)
    return Artefacts(figures={"umist_subjects": fig}, data=UMIST)


def umist_fig3_artefacts(data, published, p):
    """Fig. 3 for both candidates of the man with glasses, the intervals and their rows.

    Returns
    -------
    Artefacts
        Figure ``fig3_umist_projection`` (the chosen subject); tables
        ``fig3_intervals`` (the paper's beside each candidate's) and
        ``fig3_summary`` (:func:`umist_projection`'s summary per candidate);
        the rows of :func:`umist_rows` for the chosen subject.
    """
    umist = data["umist"]
    chosen = UMIST_SUBJECTS["man with glasses"]
    transcribed = published["umist_fig3"]
    intervals = transcribed.reset_index().rename(columns={"low": "paper low", "high": "paper high"})
    summaries, figures = {}, {}
    for subject in UMIST_GLASSES_CANDIDATES:
        ours, summaries[subject], panels = umist_projection(umist, subject, p.seed)
        intervals[f"low (subject {subject})"] = ours["low"].to_numpy()
        intervals[f"high (subject {subject})"] = ours["high"].to_numpy()
        if subject == chosen:
            rows = umist_rows(ours, _rank_counts(umist, p.seed), transcribed)
            figures["fig3_umist_projection"] = plots.figure_projection(
                panels, umist.data, umist.image_shape
            )
    summary = pd.DataFrame(summaries).T.rename_axis("glasses subject")
    return Artefacts(
        tables={"fig3_intervals": intervals, "fig3_summary": summary},
        figures=figures,
        rows=rows,
        data=UMIST,
    )


def _rank_counts(umist, seed):
    """Images of each rank of the UMIST task."""
    _, _, ranks = umist_task(umist, seed=seed)
    return {rank: int(np.sum(ranks == rank)) for rank in (1, 2, 3)}
