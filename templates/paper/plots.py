"""Figures of the paper PAPER_TITLE."""

import matplotlib.pyplot as plt

__all__ = ["figure_scores"]


def figure_scores(Z, y):
    """Example: a 2-D embedding coloured by class."""
    fig, ax = plt.subplots(figsize=(4, 3.5))
    ax.scatter(*Z.T, c=y, s=8, cmap="viridis")
    ax.set(xlabel="component 1", ylabel="component 2")
    return fig
