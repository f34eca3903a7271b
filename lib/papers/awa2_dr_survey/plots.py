"""Figures of the AwA2 survey's reproduction (Figs. 4-15 and the cost table).

Every title carries the run's data label (``AwA2`` or ``STAND-IN Fashion-MNIST``);
curves put the paper's numbers (dashed) beside ours (solid).
"""

import matplotlib.pyplot as plt

__all__ = [
    "accuracy_curves",
    "cost_bars",
    "fa_vs_pca",
    "lda_curve",
    "leak_curve",
    "loss_curves",
    "scatter_panels",
]


def scatter_panels(maps, y, title):
    """2-D embeddings side by side, coloured by class."""
    fig, axes = plt.subplots(1, len(maps), figsize=(3.6 * len(maps), 3.6), squeeze=False)
    for ax, (name, Z) in zip(axes[0], maps.items(), strict=True):
        ax.scatter(Z[:, 0], Z[:, 1], c=y, s=3, cmap="tab20", alpha=0.7, linewidths=0)
        ax.set(title=name, xticks=[], yticks=[])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _curve(ax, d, values, label, published=False, **style):
    ax.plot(d, values, "--" if published else "-", marker="o", markersize=3, label=label, **style)


def accuracy_curves(frame, by, title):
    """Accuracy against the dimension, one line per ``by`` value (Fig. 4)."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for i, (name, part) in enumerate(frame.groupby(by, sort=False)):
        colour = f"C{i}"
        _curve(
            ax,
            part["n_components"],
            part["published_percent"],
            f"{name} (paper)",
            True,
            color=colour,
        )
        _curve(ax, part["n_components"], part["ours_percent"], f"{name} (ours)", color=colour)
    ax.set(xscale="log", xlabel="dimension d", ylabel="test accuracy (%)", title=title)
    ax.legend(fontsize=7, ncol=2)
    return fig


def lda_curve(curve, frame, title):
    """Fig. 6: LDA accuracy at every dimension (ours) and the paper's tabulated points."""
    fig, ax = plt.subplots(figsize=(6, 4))
    _curve(ax, curve.index, curve["ours_percent"], "ours")
    _curve(ax, frame["n_components"], frame["published_percent"], "paper (Table V)", True)
    ax.set(xlabel="dimension d", ylabel="test accuracy (%)", title=title)
    ax.legend()
    return fig


def fa_vs_pca(fa, table4, title):
    """Fig. 8: FA against PCA (Table IV, linear) over the dimension, ours and the paper's."""
    pca = table4[table4["kernel"] == "linear"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, (name, frame) in enumerate((("FA", fa), ("PCA", pca))):
        _curve(
            ax,
            frame["n_components"],
            frame["published_percent"],
            f"{name} (paper)",
            True,
            color=f"C{i}",
        )
        _curve(ax, frame["n_components"], frame["ours_percent"], f"{name} (ours)", color=f"C{i}")
    ax.set(xscale="log", xlabel="dimension d", ylabel="test accuracy (%)", title=title)
    ax.legend()
    return fig


def loss_curves(loss, title):
    """Fig. 11: epoch-mean training MSE of the autoencoder, one line per code size."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    for d in loss.columns:
        left.plot(loss.index, loss[d], label=f"d = {d}")
    left.set(yscale="log", xlabel="epoch", ylabel="training MSE", title="per epoch")
    left.legend(fontsize=7)
    right.plot(loss.columns, loss.iloc[-1].to_numpy(), marker="o")
    right.set(xscale="log", xlabel="code size d", ylabel="final training MSE", title="last epoch")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def cost_bars(frame, title):
    """Predicted wall time of each method at AwA2's size (log scale)."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    hours = frame["predicted_s"].to_numpy() / 3600.0
    ax.barh(frame.index, hours, color="C0")
    ax.axvline(1.0, color="k", linestyle=":", label="1 hour")
    ax.set(xscale="log", xlabel="predicted wall time (hours, 2 cores)", title=title)
    ax.legend()
    ax.invert_yaxis()
    fig.tight_layout()
    return fig


def leak_curve(draws, title):
    """The label leak (LDA on all labels minus on the training labels) against ``n / p``:
    every draw, and the median at each ratio."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(draws["n_over_p"], draws["leak_points"], s=12, alpha=0.6, label="one draw")
    median = draws.groupby("n_over_p")["leak_points"].median()
    ax.plot(median.index, median.to_numpy(), "k-", marker="o", label="median")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set(
        xscale="log",
        xlabel="samples / features (n / p)",
        ylabel="leak (accuracy points)",
        title=title,
    )
    ax.legend()
    return fig
