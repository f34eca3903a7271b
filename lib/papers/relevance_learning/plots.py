"""Figures of the relevance-learning reproduction: set1, the relevance profiles (Fig. 2),
the NeRV choices, the Table 1 maps and sensitivity, and the USPS results (Table 2)."""

import matplotlib.pyplot as plt
import numpy as np

__all__ = [
    "figure_errors",
    "figure_map",
    "figure_maps",
    "figure_nerv_choices",
    "figure_profiles",
    "figure_sensitivity",
    "figure_set1",
    "figure_usps_relevances",
    "figure_zero_share",
]

#: Titles of the three schemes.
SCHEME_TITLES = {
    "nerv": r"$\lambda_{NeRV}$",
    "forward": r"$\lambda_{forward}$",
    "backward": r"$\lambda_{backward}$",
}
#: Labels of the baselines of Fig. 2.
BASELINE_LABELS = {"nerv": "baseline 0", "forward": "diagonal k/(N-1)", "backward": "Q_k(X, Y)"}


def _scatter(ax, Z, y, title):
    ax.scatter(Z[:, 0], Z[:, 1], c=y, s=8, cmap="viridis")
    ax.set_title(title)
    ax.set_xticks([])
    ax.set_yticks([])


def figure_set1(X, y, Y):
    """Fig. 1 (left): set1 in its three dimensions, and its t-SNE map."""
    fig = plt.figure(figsize=(8, 3.5))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    ax.scatter(*X.T, c=y, s=10, cmap="viridis")
    ax.set(xlabel="dim 1", ylabel="dim 2", zlabel="dim 3", title="set1")
    _scatter(fig.add_subplot(1, 2, 2), Y, y, "t-SNE map of set1")
    return fig


def figure_profiles(ks, profiles, baselines):
    """Fig. 2: each scheme's relevance of every dimension against ``k``, with its baseline."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    for ax, (scheme, values) in zip(axes, profiles.items(), strict=True):
        for feature in range(values.shape[1]):
            ax.plot(ks, values[:, feature], marker=".", label=f"dim {feature + 1}")
        ax.plot(ks, baselines[scheme], "k--", lw=1, label=BASELINE_LABELS[scheme])
        ax.set(title=SCHEME_TITLES[scheme], xlabel="k")
    axes[0].legend()
    return fig


def figure_zero_share(ks, draws, bandwidths, zero_share):
    """``lambda_3 / max(lambda)`` of set1 against ``k``, one line per draw, per reading of
    the widths, with the threshold below which a relevance counts as 0."""
    fig, axes = plt.subplots(1, len(bandwidths), figsize=(4 * len(bandwidths), 3), sharey=True)
    for ax, bandwidth in zip(np.atleast_1d(axes), bandwidths, strict=True):
        for draw in draws:
            nerv = draw["nerv_by_bandwidth"][bandwidth]
            ax.plot(ks, nerv[:, 2] / nerv.max(axis=1), color="C0", alpha=0.5, lw=1)
        ax.axhline(zero_share, color="k", ls="--", lw=1, label=f"{zero_share:.0%} (counts as 0)")
        ax.axvline(draws[0]["cluster"], color="grey", ls=":", lw=1, label="cluster size")
        ax.set(title=f"widths: {bandwidth.replace('_', ' ')}", xlabel="k")
    np.atleast_1d(axes)[0].set_ylabel(r"$\lambda_3 / \max_l \lambda_l$ (each draw)")
    np.atleast_1d(axes)[0].legend()
    return fig


def figure_nerv_choices(ks, results):
    """``lambda_NeRV`` against ``k`` for each (widths, cost) choice."""
    fig, axes = plt.subplots(1, len(results), figsize=(3.2 * len(results), 3), sharex=True)
    for ax, ((widths, cost), values) in zip(axes, results.items(), strict=True):
        for feature in range(values.shape[1]):
            ax.plot(ks, values[:, feature], marker=".", label=f"dim {feature + 1}")
        ax.set(title=f"widths={widths}, cost={cost}", xlabel="k")
    axes[0].set_ylabel(r"$\lambda^2$")
    axes[0].legend()
    return fig


def figure_maps(maps, sets):
    """The Table 1 maps of set2 and set3, coloured by cluster."""
    fig, axes = plt.subplots(1, len(maps), figsize=(2.6 * len(maps), 2.6))
    for ax, ((name, method), Y) in zip(axes, maps.items(), strict=True):
        _scatter(ax, Y, sets[name][1], f"{method}({name})")
    return fig


def figure_sensitivity(agreement):
    """Which Table 1 cells agree with the paper (dark) under each generator setting."""
    fig, ax = plt.subplots(
        figsize=(1.2 + 0.45 * agreement.shape[1], 0.2 * agreement.shape[0] + 1.5)
    )
    ax.imshow(agreement.to_numpy(dtype=float), cmap="Greens", vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(range(agreement.shape[0]), agreement.index, fontsize=6)
    ax.set_xticks(range(agreement.shape[1]), agreement.columns, rotation=60, ha="right", fontsize=6)
    ax.grid(False)
    ax.set_title("Table 1 cells agreeing with the paper")
    return fig


def figure_errors(summary, published):
    """1-NN errors on USPS: the paper, our paper reading and the leak-free reading."""
    usps = published[published["data"] == "USPS"]
    labels = [
        f"{s} {n}".strip()
        for s, n in zip(usps["space"], usps["neighbourhood"].fillna(""), strict=True)
    ]
    keys = [
        (s, n if isinstance(n, str) else "")
        for s, n in zip(usps["space"], usps["neighbourhood"], strict=True)
    ]
    x = np.arange(len(keys))
    fig, ax = plt.subplots(figsize=(8, 3.2))
    ax.bar(x - 0.27, usps["error_percent"], 0.27, label="paper", color="0.6")
    for offset, reading in ((0.0, "paper"), (0.27, "leak_free")):
        rows = summary.loc[reading].loc[keys]
        ax.bar(
            x + offset,
            rows["mean"],
            0.27,
            yerr=rows["sd"].fillna(0),
            label=f"ours, {reading} reading",
        )
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylabel("1-NN error (%)")
    ax.legend()
    return fig


def figure_usps_relevances(relevances, image_shape):
    """``lambda_NeRV`` of every pixel as an image, per reading and neighbourhood."""
    fig, axes = plt.subplots(1, len(relevances), figsize=(2.4 * len(relevances), 2.6))
    for ax, ((reading, neighbourhood), values) in zip(
        np.atleast_1d(axes), relevances.items(), strict=True
    ):
        image = ax.imshow(values.reshape(image_shape), cmap="magma")
        ax.set_title(f"{reading}, {neighbourhood} k", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.grid(False)
        fig.colorbar(image, ax=ax, fraction=0.046)
    return fig


def figure_map(Y, y, title):
    """One 2-D map coloured by class, with a legend of the classes."""
    fig, ax = plt.subplots(figsize=(4, 3.6))
    for label in np.unique(y):
        ax.scatter(*Y[y == label].T, s=4, label=str(label))
    ax.set_title(title)
    ax.legend(markerscale=3, ncol=2, fontsize=6)
    return fig
