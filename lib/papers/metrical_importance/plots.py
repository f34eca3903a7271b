"""Figures of the metrical-importance reproduction: importances (Figs. 2, 4, 6) and
F1 discard curves (Figs. 3, 5, 7)."""

from .discard import CLASSIFIERS, reverse_name

__all__ = ["ORDER_COLOURS", "plot_curves", "plot_importances"]

#: Colours of the paper's figures; reverse orders are dashed.
ORDER_COLOURS = {"pca": "red", "rf": "blue", "sd": "cyan", "gini": "magenta", "shapley": "green"}


def plot_importances(importance_table, title):
    """Grouped bars of the five importances per feature (Figs. 2, 4, 6)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3))
    names = list(importance_table.columns)
    width = 0.8 / len(names)
    features = importance_table.index.to_numpy()
    for k, name in enumerate(names):
        ax.bar(
            features + (k - (len(names) - 1) / 2) * width,
            importance_table[name],
            width,
            label=name,
            color=ORDER_COLOURS[name],
        )
    ax.set(xlabel="feature (paper numbering)", ylabel="importance (%)", title=title)
    ax.set_xticks(features)
    ax.legend(ncol=5)
    return fig


def plot_curves(scores, title):
    """F1 discard curves, one panel per classifier (Figs. 3, 5, 7).

    ``scores`` is :attr:`.discard.DiscardCurves.scores`.
    """
    import matplotlib.pyplot as plt

    classifiers = [c for c in CLASSIFIERS if c in set(scores["classifier"])]
    fig, axes = plt.subplots(
        1, len(classifiers), figsize=(4 * len(classifiers), 3.2), sharey=True, squeeze=False
    )
    for ax, classifier in zip(axes[0], classifiers, strict=True):
        panel = scores[scores["classifier"] == classifier]
        for name in [n for n in ORDER_COLOURS if n in set(panel["order"])]:
            for order, style in ((name, "-"), (reverse_name(name), "--")):
                line = panel[panel["order"] == order].sort_values("n_discarded")
                ax.plot(
                    line["n_discarded"],
                    line["f1"],
                    style,
                    color=ORDER_COLOURS[name],
                    label=order,
                    lw=1.2,
                )
        ax.set(title=classifier.replace("_", " "), xlabel="features discarded")
    axes[0, 0].set_ylabel("F1 (minority class)")
    axes[0, -1].legend(ncol=2, fontsize=6)
    fig.suptitle(title)
    return fig
