"""Figures of the cross-paper benchmark: critical-difference diagrams, ``R_NX(k)``
curves and the relevance-importance agreement."""

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["figure_agreement", "figure_cd", "figure_rnx"]


def figure_cd(mean_ranks, cd, groups, title):
    """Demšar's critical-difference diagram.

    Parameters
    ----------
    mean_ranks : Series
        Average rank of each method (index: method).
    cd : float
        The Nemenyi critical difference.
    groups : list of tuple of str
        Methods not significantly different: one bar each.
    title : str
    """
    ranks = mean_ranks.sort_values(kind="stable")
    k, half = len(ranks), (len(ranks) + 1) // 2
    fig, ax = plt.subplots(figsize=(9, 0.25 * half + 2.0))
    fig.subplots_adjust(left=0.2, right=0.8, top=0.78, bottom=0.04)
    ax.set(xlim=(k + 0.5, 0.5), ylim=(-0.5 * half - 0.3, 1.2), yticks=[])
    ax.set_title(title, fontsize=9, pad=22)
    ax.grid(False)
    ax.xaxis.set_ticks_position("top")
    ax.set_xticks(range(1, k + 1))
    for side in ("left", "right", "bottom"):
        ax.spines[side].set_visible(False)
    for i, (method, rank) in enumerate(ranks.items()):
        best_half = i < half  # the better methods go to the right-hand edge (rank 1)
        level = -0.5 * ((i if best_half else k - 1 - i) + 1)
        end = 0.5 if best_half else k + 0.5
        ax.plot([rank, rank, end], [0, level, level], color="0.3", lw=0.8)
        ax.text(
            end,
            level,
            f"  {method} ({rank:.2f})  ",
            ha="left" if best_half else "right",
            va="center",
            fontsize=8,
            clip_on=False,
        )
    for j, group in enumerate(groups):
        low, high = ranks[list(group)].min(), ranks[list(group)].max()
        ax.plot([low - 0.05, high + 0.05], [-0.15 - 0.12 * j] * 2, color="k", lw=2.5)
    ax.plot([1, 1 + cd], [0.8, 0.8], color="k", lw=1.5)
    ax.text(1 + cd / 2, 0.9, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=8)
    return fig


def figure_rnx(curves, aucs, title):
    """``R_NX(k)`` of every map of one dataset on a log ``k`` axis (mean over draws).

    Parameters
    ----------
    curves : dict of str to ndarray of shape (n_draws, K)
    aucs : Series
        Mean AUC per method (the legend).
    title : str
    """
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for method, rnx in curves.items():
        k = np.arange(1, rnx.shape[1] + 1)
        ax.plot(k, rnx.mean(axis=0), lw=1.2, label=f"{method} ({aucs[method]:.3f})")
    ax.set(xscale="log", xlabel="k", ylabel="$R_{NX}(k)$", title=title, ylim=(None, 1))
    ax.legend(fontsize=7, title="map (AUC)", title_fontsize=7, loc="best")
    return fig


def figure_agreement(table, title):
    """Mean Spearman correlation of relevance and importance: datasets x maps, one panel
    per importance.

    Parameters
    ----------
    table : DataFrame
        Columns ``dataset``, ``map``, ``importance``, ``spearman_mean``.
    """
    kinds = list(dict.fromkeys(table["importance"]))
    fig, axes = plt.subplots(1, len(kinds), figsize=(3.2 * len(kinds), 4.2), sharey=True)
    for ax, kind in zip(np.atleast_1d(axes), kinds, strict=True):
        wide = table[table["importance"] == kind].pivot(
            index="dataset", columns="map", values="spearman_mean"
        )
        image = ax.imshow(wide.to_numpy(), cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
        ax.set_xticks(range(wide.shape[1]), wide.columns, rotation=60, fontsize=7)
        ax.set_yticks(range(wide.shape[0]), wide.index, fontsize=7)
        ax.set_title(kind, fontsize=9)
    fig.colorbar(image, ax=axes, shrink=0.8, label="Spearman's rho")
    fig.suptitle(title, fontsize=10)
    return fig
