"""Figures of the ORML reproduction: UMIST subjects and projections, MAE curves."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.offsetbox import AnnotationBbox, OffsetImage

RANK_COLOURS = ("tab:blue", "tab:orange", "tab:green")


def figure_subjects(images, target, subjects, image_shape, per_subject=5):
    """Thumbnails of several subjects (rows), evenly spaced over each one's images.

    Parameters
    ----------
    images : ndarray of shape (n, d1 * d2)
    target : ndarray of shape (n,)
    subjects : dict
        Row label -> subject id.
    image_shape : tuple of int
    per_subject : int, default=5
    """
    fig, axes = plt.subplots(
        len(subjects), per_subject, figsize=(1.1 * per_subject, 1.2 * len(subjects))
    )
    for row, (label, subject) in zip(axes, subjects.items(), strict=True):
        members = np.flatnonzero(target == subject)
        picks = members[np.linspace(0, members.size - 1, per_subject).round().astype(int)]
        for ax, index in zip(row, picks, strict=True):
            ax.imshow(images[index].reshape(image_shape), cmap="gray", vmin=0, vmax=1)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
        row[0].set_ylabel(f"{label}\n({members.size} images)", fontsize=7)
    return fig


def _thumbnail(ax, image, image_shape, xy, offset):
    box = OffsetImage(image.reshape(image_shape), cmap="gray", zoom=0.9, norm=None)
    ax.add_artist(
        AnnotationBbox(box, xy, xybox=(xy[0], xy[1] + offset), arrowprops={"arrowstyle": "-"})
    )


def figure_projection(panels, images, image_shape, n_faces=2):
    """Fig. 3: 1-D projections of training and test faces, with thumbnails along the axis.

    Parameters
    ----------
    panels : list of (title, z, y, index)
        Projections ``z``, ranks ``y`` and image indices of each panel.
    images : ndarray of shape (n, d1 * d2)
    image_shape : tuple of int
    n_faces : int, default=2
        Thumbnails per rank: its lowest and highest projection (and evenly
        spaced ones between).
    """
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.2 * len(panels)))
    for ax, (title, z, y, index) in zip(np.atleast_1d(axes), panels, strict=True):
        for rank in np.unique(y):
            mask = y == rank
            ax.scatter(z[mask], np.zeros(mask.sum()), s=25, alpha=0.7,
                       color=RANK_COLOURS[rank - 1], label=f"rank {rank}")  # fmt: skip
            order = np.argsort(z[mask])
            picks = order[np.linspace(0, order.size - 1, n_faces).round().astype(int)]
            for k, pick in enumerate(picks):
                offset = 0.55 if (k + rank) % 2 else -0.55
                _thumbnail(ax, images[index[mask][pick]], image_shape, (z[mask][pick], 0), offset)
        ax.set_ylim(-1, 1)
        ax.set_yticks([])
        ax.set_title(title)
        ax.legend(loc="upper left", ncol=3)
    np.atleast_1d(axes)[-1].set_xlabel("projection $w^T x$")
    fig.tight_layout()
    return fig


def figure_mae_curves(published, ours, methods, floor="median rank"):
    """Published and reproduced USPS MAE against the training size, one panel per method.

    The MAE of always predicting the median rank (``floor``, from ``ours``) is drawn in
    every panel as the level a method must beat.
    """
    fig, axes = plt.subplots(2, int(np.ceil(len(methods) / 2)), figsize=(12, 5), sharey=True)
    baseline = ours[ours["method"] == floor].sort_values("per_class")
    for ax, method in zip(axes.ravel(), methods, strict=False):
        for frame, label, style in ((published, "paper", "o--"), (ours, "ours", "s-")):
            part = frame[frame["method"] == method].sort_values("per_class")
            ax.errorbar(part["per_class"], part["mean"], part["sd"], fmt=style, capsize=2,
                        label=label)  # fmt: skip
        ax.plot(baseline["per_class"], baseline["mean"], ":", color="grey", label=floor)
        ax.set_xscale("log")
        ax.set_title(method)
    for ax in axes.ravel()[len(methods) :]:
        ax.set_visible(False)
    axes[0, 0].legend()
    for ax in axes[:, 0]:
        ax.set_ylabel("MAE")
    for ax in axes[-1]:
        ax.set_xlabel("training images per digit")
    fig.tight_layout()
    return fig
