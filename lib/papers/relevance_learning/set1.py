"""Figs. 1 and 2 of "Relevance Learning for Dimensionality Reduction" (Schulz, Gisbrecht &
Hammer, ESANN 2014): set1, its t-SNE map and the relevance profiles that explain it.

* :func:`figure1_set1` -- set1 and its t-SNE map (Fig. 1, left);
* :func:`figure2_profiles` -- ``lambda_NeRV``, ``lambda_forward``, ``lambda_backward``
  against ``k`` on set1 with their baselines (Fig. 2);
* :func:`figure2_draws` -- the text's claims on Fig. 2 decided over many draws of set1,
  and ``lambda_NeRV`` under both readings of the paper's widths.
"""

import numpy as np
import pandas as pd
from sklearn.metrics import silhouette_score

from compendium.reporting import Artefacts, finding_row, format_spread

from . import plots
from .data import (
    GENERATED,
    SET1,
    ZERO_SHARE,
    _claim_row,
    _cluster_size,
    _nearest_accuracy,
    _set1_map,
    _stated_row,
)
from .toy import SCHEMES, relevance_profiles, set1_draws

__all__ = ["figure1_set1", "figure2_draws", "figure2_profiles"]

#: Distance to a baseline (``Q_k`` units) within which a relevance "sits on" it.
BASELINE_TOL = 0.05
#: Drop of ``Q_k`` (at the smallest ``k``) without dimension 3 that marks it as locally relevant.
LOCAL_DROP = 0.1


def figure1_set1(data, published, p):
    """Fig. 1 (left): set1 in 3-D and its t-SNE map; are the clusters well separated?"""
    X, y = data["set1"]
    Y = _set1_map(data, p)
    accuracy = _nearest_accuracy(Y, y)
    table = pd.DataFrame(
        {
            "points": [X.shape[0]],
            "dimensions": [X.shape[1]],
            "clusters": [np.unique(y).size],
            "tsne_perplexity": [p.toy_perplexity],
            "loo_1nn_accuracy_in_map": [round(accuracy, 3)],
            "silhouette_in_map": [round(float(silhouette_score(Y, y)), 3)],
        }
    )
    rows = [
        _stated_row(published, "set1_clusters", np.unique(y).size, note=GENERATED),
        _stated_row(published, "set1_points_per_cluster", _cluster_size(y), note=GENERATED),
        _stated_row(published, "set1_dimensions", X.shape[1], note=GENERATED),
        _claim_row(published, "set1_tsne_separates", accuracy >= 0.95, f"accuracy {accuracy:.3f}"),
    ]
    return Artefacts(
        tables={"fig1_set1_map": table},
        figures={"fig1_set1": plots.figure_set1(X, y, Y)},
        rows=rows,
        data=SET1,
    )


def figure2_profiles(data, published, p):
    """Fig. 2: the three relevance profiles of set1's t-SNE map against ``k`` (one draw,
    seed ``p.seed``); :func:`figure2_draws` decides the text's claims over many draws."""
    X, y = data["set1"]
    Y = _set1_map(data, p)
    ks = np.asarray(p.set1_ks)
    profiles, baselines = relevance_profiles(X, Y, ks, p.gamma, p.delta)
    return Artefacts(
        tables={"fig2_relevance_profiles": _profile_table(ks, profiles, baselines)},
        figures={"fig2_relevance_profiles": plots.figure_profiles(ks, profiles, baselines)},
        data=SET1,
    )


def _profile_table(ks, profiles, baselines):
    frame = {"k": ks}
    for scheme in SCHEMES:
        for feature in range(profiles[scheme].shape[1]):
            frame[f"{scheme}_dim{feature + 1}"] = profiles[scheme][:, feature].round(4)
        frame[f"{scheme}_baseline"] = np.round(baselines[scheme], 4)
    return pd.DataFrame(frame).set_index("k")


def figure2_draws(data, published, p):
    """Fig. 2's claims over ``p.set1_draws`` draws of set1, both readings of the widths.

    Every draw (seed ``p.seed + r``) has its own set1 and t-SNE map. Each claim of
    the text is decided on each draw by the metric of ``claims.csv``
    (:func:`_set1_verdicts`); its status is that of the majority of draws. The
    per-draw measurements behind the findings are in ``fig2_draws``.
    """
    ks = np.asarray(p.set1_ks)
    seeds = [p.seed + r for r in range(p.set1_draws)]
    draws = set1_draws(seeds, ks, p.toy_perplexity, p.gamma, p.delta, p.bandwidths, p.n_jobs, True)
    verdicts = [_set1_verdicts(ks, d["profiles"], d["baselines"], d["cluster"]) for d in draws]
    measured = pd.DataFrame([_set1_measures(ks, d, p.bandwidths) for d in draws], index=seeds)
    measured.index.name = "seed"
    rows = [_majority_row(published, claim, [v[claim] for v in verdicts]) for claim in verdicts[0]]
    return Artefacts(
        tables={"fig2_draws": measured},
        figures={"fig2_draws": plots.figure_zero_share(ks, draws, p.bandwidths, ZERO_SHARE)},
        rows=rows,
        findings=_set1_findings(measured, draws[0]["cluster"], p),
        data=SET1,
    )


def _set1_verdicts(ks, profiles, baselines, cluster):
    """The text's claims on Fig. 2 for one draw: ``{claim: (holds, measurement)}``."""
    nerv, forward, backward = (profiles[s] for s in SCHEMES)
    share3 = nerv[:, 2] / nerv.max(axis=1)
    last = (
        (np.argmin(nerv, axis=1) == 2)
        & (np.argmin(forward, axis=1) == 2)
        & (np.argmax(backward, axis=1) == 2)
    )
    large, small, local = ks >= cluster, ks < cluster, ks < cluster / 2
    marks = (forward[:, 2] < forward[:, :2].min(axis=1)) & (
        backward[:, 2] > backward[:, :2].max(axis=1)
    )
    off_forward = np.abs(forward[:, 2] - baselines["forward"])
    off_backward = np.abs(backward[:, 2] - baselines["backward"])
    flat = (off_forward <= BASELINE_TOL) & (off_backward <= BASELINE_TOL)
    mean_share = share3[large].mean()
    mean_forward, mean_backward = off_forward[large].mean(), off_backward[large].mean()
    return {
        "set1_ranking_identical": (
            bool(last[large].all()),
            f"dimension 3 last for all schemes at {last[large].sum()}/{large.sum()} k >= {cluster}",
        ),
        "set1_nerv_dim3_irrelevant": (
            bool((share3[ks > cluster] <= ZERO_SHARE).all() and (share3[small] > ZERO_SHARE).any()),
            f"largest share of dimension 3 above k = {cluster}: {share3[ks > cluster].max():.3f}",
        ),
        "set1_nerv_local": (
            bool((share3[local] > ZERO_SHARE).all()),
            f"smallest share of dimension 3 for k < {cluster / 2:g}: {share3[local].min():.3f}",
        ),
        "set1_baselines": (
            bool(mean_share <= ZERO_SHARE and max(mean_forward, mean_backward) <= BASELINE_TOL),
            f"mean over k >= {cluster}: lambda_NeRV share {mean_share:.3f}, forward off the "
            f"diagonal by {mean_forward:.3f}, backward off Q_k(X, Y) by {mean_backward:.3f} "
            "(dimension 3)",
        ),
        "set1_fb_mark_dim3": (
            bool(marks[large].all()),
            f"dimension 3 marked by both at {marks[large].sum()}/{large.sum()} k >= {cluster}",
        ),
        "set1_fb_not_local": (
            bool(flat[local].all() and (share3[local] > ZERO_SHARE).all()),
            f"k < {cluster / 2:g}: forward off the diagonal by up to "
            f"{off_forward[local].max():.3f}, backward off Q_k by up to "
            f"{off_backward[local].max():.3f}",
        ),
    }


def _majority_row(published, claim, verdicts):
    """A claim decided on every draw: ``match`` when it holds on most of them."""
    held = sum(holds for holds, _ in verdicts)
    return _claim_row(
        published,
        claim,
        held > len(verdicts) / 2,
        f"holds on {held} of {len(verdicts)} draws of set1",
        note=f"first draw: {verdicts[0][1]}; status: the majority of draws",
    )


def _first_k_from(ks, condition):
    """The smallest ``k`` from which ``condition`` holds for every larger ``k`` (nan if never)."""
    failing = np.flatnonzero(~condition)
    start = 0 if failing.size == 0 else failing[-1] + 1
    return float(ks[start]) if start < ks.size else np.nan


def _set1_measures(ks, draw, bandwidths):
    """The measurements of one draw behind the Fig. 2 findings."""
    profiles, baselines, cluster = draw["profiles"], draw["baselines"], draw["cluster"]
    forward, backward = profiles["forward"], profiles["backward"]
    large = ks >= cluster
    last = (
        (np.argmin(profiles["nerv"], axis=1) == 2)
        & (np.argmin(forward, axis=1) == 2)
        & (np.argmax(backward, axis=1) == 2)
    )
    measures = {}
    for bandwidth in bandwidths:
        nerv = draw["nerv_by_bandwidth"][bandwidth]
        zero = nerv[:, 2] / nerv.max(axis=1) <= ZERO_SHARE
        measures[f"nerv_zero_from_k_{bandwidth}"] = _first_k_from(ks, zero)
    below = backward[:, 1] > backward[:, 2]  # removing dim 2 keeps more of Q_k than dim 3
    above = forward[:, 2] > forward[:, 1]
    return measures | {
        "q_smallest_k": baselines["backward"][0],
        "q_smallest_k_without_dim3": backward[0, 2],
        "backward_dim2_below_dim3_from_k": _first_k_from(ks, below),
        "backward_dim2_below_dim3_at_large_k": int(below[large].sum()),
        "forward_dim3_above_dim2_at_k": int(above.sum()),
        "forward_dim3_above_dim2_first_k": float(ks[above][0]) if above.any() else np.nan,
        "forward_dim3_above_dim2_last_k": float(ks[above][-1]) if above.any() else np.nan,
        "ranking_identical_at_large_k": int(last[large].sum()),
        "large_ks": int(large.sum()),
    }


def _set1_findings(measured, cluster, p):
    """What the findings page says about Fig. 2, from the per-draw measurements."""
    n = len(measured)
    default, other = (measured[f"nerv_zero_from_k_{b}"] for b in p.bandwidths)
    at_cluster = bool(default.median() <= cluster + 2)
    drop = measured["q_smallest_k"] - measured["q_smallest_k_without_dim3"]
    marked = int((drop > LOCAL_DROP).sum())
    local = marked > n / 2  # a verdict over draws is the majority's, as for the claims
    below = measured["backward_dim2_below_dim3_from_k"]
    above = measured["forward_dim3_above_dim2_at_k"] > 0
    identical = measured["ranking_identical_at_large_k"]
    n_large = int(measured["large_ks"].iloc[0])
    always = bool((identical == n_large).sum() > n / 2)
    k_small = int(p.set1_ks[0])
    return [
        finding_row(
            "fig2_nerv_zero_k",
            "λ_NeRV of the irrelevant dimension reaches 0 "
            f"{'at' if at_cluster else 'beyond'} the cluster size, depending on the draw and "
            "on the reading of the widths",
            f"λ_NeRV of set1's dimension 3 stays at 0 (at most {ZERO_SHARE:.0%} of the largest "
            f"relevance) from k = {format_spread(default.dropna(), 0)} on, with widths set by "
            f"a perplexity of k (NeRV's convention, our default); with σ_i the distance to the "
            f"k-th neighbour it does so from k = {format_spread(other.dropna(), 0)}. The paper "
            f'says "as soon as the neighborhood exceeds the cluster size" ({cluster}).',
            f"first k of the grid from which lambda_3 / max(lambda) <= {ZERO_SHARE} for every "
            "larger k, widths by perplexity k",
            default.dropna(),
            data=SET1,
            predicate=f"median over draws <= {cluster + 2} (the first grid k above {cluster})",
            holds=at_cluster,
            note=f"{int(default.isna().sum())} of {n} draws never reach 0; the k-th-neighbour "
            "reading is in fig2_draws",
        ),
        finding_row(
            "fig2_backward_local",
            f"λ_backward {'does' if local else 'does not'} show the local relevance of dimension 3",
            f"At k = {k_small}, removing dimension 3 lowers Q_{k_small} by "
            f"{format_spread(drop, 2)} (from {format_spread(measured['q_smallest_k'], 2)}), "
            f"by more than {LOCAL_DROP} in {marked} of {n} draws, "
            + (
                "so λ_backward marks dimension 3 as locally relevant, against the paper's "
                '"these relevance schemes do not indicate the local importance".'
                if local
                else "as the paper says: λ_backward hardly marks it locally."
            ),
            f"Q_{k_small}(X, Y) - Q_{k_small}(X without dimension 3, Y)",
            drop,
            data=SET1,
            predicate=f"the drop exceeds {LOCAL_DROP} in most draws",
            holds=local,
        ),
        finding_row(
            "fig2_backward_dim2",
            "The ranking is "
            f"{'identical for all schemes' if always else 'not identical for all schemes'} "
            "beyond the cluster size",
            f"Dimension 3 is last for all three schemes at {format_spread(identical, 0)} of the "
            f"{n_large} k >= {cluster} (at all of them in {int((identical == n_large).sum())} of "
            f'{n} draws; the paper: "identical for all techniques"). In a triangle of '
            "clusters dimensions 1 and 2 are not interchangeable: in "
            f"{int(below.notna().sum())} of {n} draws λ_backward ranks dimension 2 below "
            "dimension 3 (removing dimension 2 leaves a higher Q_k) for every k from "
            f"{format_spread(below.dropna(), 0)} on, and λ_forward ranks dimension 3 above "
            f"dimension 2 at some k in {int(above.sum())} of {n} draws.",
            f"k >= {cluster} at which dimension 3 is last for all three schemes, per draw",
            identical,
            data=SET1,
            predicate=f"dimension 3 last at every k >= {cluster} in most draws",
            holds=always,
        ),
    ]
