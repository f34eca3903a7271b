"""Figures of the Best-View Projection paper: Fig. 1 (view sphere), Figs. 2-3
(two 3-D views and seven methods), Figs. 4-9 (BVP, LDA, LSDA on real data).

Classes are coloured along an ordinal colour map; class centres are black
circles carrying the class label, as in the paper.
"""

from string import ascii_lowercase

import matplotlib.pyplot as plt
import numpy as np

from dimred.projection import BestViewProjection
from dimred.utils.labels import class_centres

__all__ = ["figure_methods", "figure_real", "figure_view_sphere", "scatter_classes"]

CMAP = "viridis"


def _colours(y):
    classes, codes = np.unique(y, return_inverse=True)
    return plt.get_cmap(CMAP)(codes / max(classes.size - 1, 1))


def scatter_classes(ax, Z, y, title=""):
    """Points coloured by class, centres circled and numbered (2-D or 3-D ``ax``)."""
    classes, centres = class_centres(Z, y)
    coords = Z.T
    size = float(np.clip(3000 / len(y), 6, 24))  # small datasets get larger markers
    ax.scatter(*coords, c=_colours(y), s=size, alpha=0.6, linewidths=0)
    ax.plot(*centres.T, color="black", lw=1)
    ax.scatter(*centres.T, s=90, facecolors="white", edgecolors="black", zorder=3)
    for label, centre in zip(classes, centres, strict=True):
        ax.text(*centre, str(label), ha="center", va="center", fontsize=6, zorder=4)
    ax.set_title(title)
    if Z.shape[1] == 2:
        ax.set_aspect("equal", adjustable="datalim")
    ax.set_xticks([])
    ax.set_yticks([])


def _axes_3d(fig, position, X, y, view, title):
    ax = fig.add_subplot(*position, projection="3d")
    scatter_classes(ax, X, y, title)
    ax.set_zticks([])
    ax.view_init(*view)
    return ax


def figure_methods(X, y, embeddings, views=((20, -60), (60, 30)), suptitle=""):
    """Figs. 2 and 3: two views of the 3-D data, then one panel per method.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 3)
    y : ndarray of shape (n_samples,)
    embeddings : dict of str to ndarray of shape (n_samples, 2)
        In panel order.
    views : two (elevation, azimuth) pairs
    suptitle : str
    """
    fig = plt.figure(figsize=(10, 7.5))
    letters = iter(ascii_lowercase)
    for i, view in enumerate(views, start=1):
        _axes_3d(fig, (3, 3, i), X, y, view, f"({next(letters)}) data, view {i}")
    for i, (name, Z) in enumerate(embeddings.items(), start=len(views) + 1):
        scatter_classes(fig.add_subplot(3, 3, i), Z, y, f"({next(letters)}) {name}")
    fig.suptitle(suptitle)
    fig.tight_layout()
    return fig


def figure_real(embeddings, y, name):
    """Figs. 4-9: the embeddings of one real dataset side by side."""
    fig, axes = plt.subplots(1, len(embeddings), figsize=(3.2 * len(embeddings), 3.2))
    for ax, letter, (method, Z) in zip(axes, ascii_lowercase, embeddings.items(), strict=False):
        scatter_classes(ax, Z, y, f"({letter}) {method}")
    fig.suptitle(name)
    fig.tight_layout()
    return fig


def _sphere_objective(differences, resolution):
    """``F(v) = ||A v||^2`` (Eq. (2)) on a latitude-longitude grid of the unit sphere."""
    theta, phi = np.meshgrid(
        np.linspace(0, np.pi, resolution), np.linspace(0, 2 * np.pi, 2 * resolution)
    )
    v = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)])
    return v, np.sum(np.einsum("kd,dij->kij", differences, v) ** 2, axis=0)


def figure_view_sphere(X, y, resolution=60):
    """Fig. 1: the data, the view sphere coloured by F(v), the best view.

    The optimum viewpoint (the minimiser of F, normal to the kept plane) is
    marked on the sphere with its antipode.
    """
    model = BestViewProjection(2).fit(X, y)
    differences = np.diff(model.centres_, axis=0)
    v, objective = _sphere_objective(differences, resolution)
    normal = np.cross(*model.components_)
    fig = plt.figure(figsize=(10, 3.4))
    _axes_3d(fig, (1, 3, 1), X, y, (20, -60), "(a) data")
    ax = fig.add_subplot(1, 3, 2, projection="3d")
    shade = plt.get_cmap("magma")(objective / objective.max())
    ax.plot_surface(*v, facecolors=shade, rstride=1, cstride=1, linewidth=0, shade=False)
    ax.scatter(*np.column_stack([normal, -normal]) * 1.05, color="cyan", s=40, depthshade=False)
    ax.set_title("(b) view sphere, F(v) (dark: small)")
    ax.set_box_aspect((1, 1, 1))
    ax.set_axis_off()
    scatter_classes(fig.add_subplot(1, 3, 3), model.transform(X), y, "(c) best view (BVP)")
    fig.tight_layout()
    return fig
