"""Plotting style and figure output shared by every notebook."""

from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["STYLE", "savefig", "use_style"]

#: rcParams of every figure of the compendium.
STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 7,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
    "svg.hashsalt": "dimred",
}


def use_style():
    """Apply :data:`STYLE` to matplotlib."""
    mpl.rcParams.update(STYLE)


def savefig(fig, stem, close=True):
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf`` without time stamps.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    stem : str or Path
        Output path without suffix; parent folders are created.
    close : bool, default=True
        Close the figure once saved (keep it open to show it inline).

    Returns
    -------
    list of Path
        The two files written.
    """
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".pdf")]
    fig.savefig(paths[0], metadata={"Software": None})
    fig.savefig(paths[1], metadata={"CreationDate": None, "Producer": None, "Creator": None})
    if close:
        plt.close(fig)
    return paths
