"""The settings and the data of a run: :class:`Params` (:func:`params`), and AwA2 when it
can be obtained, otherwise the labelled stand-in (:func:`load_data`).

The survey's data are the AwA2 ResNet-101 features (37,322 x 2,048, 50 classes;
:func:`~dimred.datasets.load_awa2`), an optional dataset: no copy is mirrored and
its site cannot be reached from every machine. :func:`load_run_data` tries it
(cache, mirror, canonical URL); when it is not obtainable the run goes on with
**Fashion-MNIST** (:func:`~dimred.datasets.load_fashion_mnist`), real images of
the same kind of task (many samples, hundreds of features, several classes),
scaled to ``[0, 1]`` and subsampled per class. Every table, figure and row of such
a run says so, and no stand-in number is reported as a reproduction.

Why Fashion-MNIST pixels rather than deep features: genuine CNN features of these
images need pretrained weights and about 15 minutes of CPU inference per run of
the data step; the pixels are the obtainable real data of the right shape
(70,000 x 784, 10 classes). What the stand-in cannot show: LDA has at most 9
components (AwA2: 49), and no grid cell above 784 features exists for PCA, FA and
variance selection (such cells are left empty).
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import train_test_split

from compendium.reporting import Artefacts
from compendium.run_settings import validates_run_settings
from dimred import datasets
from dimred.datasets import AWA2_SHAPE
from dimred.datasets.registry import DataError
from dimred.neural.autoencoder import resolve_device
from dimred.utils.parallel import available_cores, resolve_n_jobs

from .pipelines import Split

__all__ = [
    "AWA2_LABEL",
    "PAPER",
    "Params",
    "STANDIN_CLASSES",
    "STANDIN_FEATURES",
    "STANDIN_LABEL",
    "SYNTHETIC_LABEL",
    "RunData",
    "data_notice",
    "leak_ratios",
    "load_data",
    "load_run_data",
    "params",
    "stratified_subsample",
]

#: The survey's test fraction (Sec. III-A: 60/40 split).
TEST_SIZE = 0.4
#: Which data (:func:`~compendium.reporting.check_data_label`) a run on AwA2 and
#: a run on the stand-in came from.
AWA2_LABEL, STANDIN_LABEL = "real (AwA2 ResNet-101)", "stand-in (Fashion-MNIST)"
#: Which data ``make bench``'s cost measurements came from (:func:`~dimred.datasets.awa2_like`).
SYNTHETIC_LABEL = "synthetic (AwA2-shaped set)"
#: Classes and features (28 x 28 pixels) of the Fashion-MNIST stand-in.
STANDIN_CLASSES, STANDIN_FEATURES = 10, 28 * 28


@dataclass(frozen=True)
class RunData:
    """Features, labels and provenance of one run.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int
    name : str
        ``"AwA2"`` or ``"Fashion-MNIST (stand-in)"``: the label of every artefact.
    is_awa2 : bool
    reason : str
        Why AwA2 is not used (empty when it is).
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    is_awa2: bool
    reason: str = ""

    @property
    def label(self):
        """Short tag for titles and columns: ``AwA2`` or ``STAND-IN Fashion-MNIST``."""
        return "AwA2" if self.is_awa2 else "STAND-IN Fashion-MNIST"

    @property
    def phrase(self):
        """The data in a sentence: ``the AwA2 features`` or ``the Fashion-MNIST stand-in``."""
        return "the AwA2 features" if self.is_awa2 else "the Fashion-MNIST stand-in"

    @property
    def data_label(self):
        """Which data, for the ``data`` column of every table: :data:`AWA2_LABEL` or
        :data:`STANDIN_LABEL`."""
        return AWA2_LABEL if self.is_awa2 else STANDIN_LABEL


def stratified_subsample(y, n, seed):
    """Sorted indices of a stratified random subsample of ``n`` of ``len(y)`` labels.

    ``n = None`` or ``n >= len(y)`` gives every index.
    """
    every = np.arange(len(y))
    if n is None or n >= len(y):
        return every
    kept, _ = train_test_split(every, train_size=n, stratify=y, random_state=seed)
    return np.sort(kept)


def _per_class(y, per_class, seed):
    n = None if per_class is None else per_class * np.unique(y).size
    return stratified_subsample(y, n, seed)


def load_run_data(awa2_per_class, standin_per_class, seed, loader=None):
    """AwA2 if obtainable, else the Fashion-MNIST stand-in (module docstring).

    Parameters
    ----------
    awa2_per_class, standin_per_class : int or None
        Images kept per class (``None``: all) of each dataset, drawn at random
        (seeded) when fewer.
    seed : int
    loader : callable, optional
        ``loader(return_X_y=True)`` returns AwA2 as ``(X, y)`` or raises
        :class:`~dimred.datasets.registry.DataError` (no source gave the files, or a copy
        failed verification: its message names the file and every source tried);
        default :func:`~dimred.datasets.load_awa2`.

    Returns
    -------
    RunData

    Warns
    -----
    UserWarning
        When the run falls back on the stand-in, with the reason (it reaches the
        terminal of ``make``, and the notebook shows :func:`data_notice` at its top).
    """
    loader = loader or datasets.load_awa2
    try:
        X, y = loader(return_X_y=True)
    except DataError as error:
        reason = f"AwA2 features not obtainable here: {str(error).splitlines()[0]}"
    else:
        keep = _per_class(y, awa2_per_class, seed)
        return RunData(X[keep].astype(np.float64), y[keep], "AwA2", True)
    warnings.warn(
        f"{reason}. The run uses the labelled Fashion-MNIST stand-in: no number of it is a "
        "reproduction of the paper (python -m dimred.datasets add awa2-resnet101 PATH adds "
        "your copy of AwA2-features.zip).",
        UserWarning,
        stacklevel=2,
    )
    fashion = datasets.load_fashion_mnist()
    keep = _per_class(fashion.target, standin_per_class, seed)
    X = fashion.data[keep].astype(np.float64) / 255.0
    return RunData(
        X, fashion.target[keep].astype(np.int64), "Fashion-MNIST (stand-in)", False, reason
    )


def data_notice(run):
    """The notebook's first words on its data: AwA2, or the stand-in and why.

    Parameters
    ----------
    run : RunData

    Returns
    -------
    Artefacts
        One note (Markdown) and nothing else.
    """
    if run.is_awa2:
        text = (
            f"**Data: AwA2** ResNet-101 features, {run.X.shape[0]:,} images x {run.X.shape[1]:,}."
        )
    else:
        text = (
            f"**Data: STAND-IN, not AwA2.** {run.reason}. This run uses {run.X.shape[0]:,} "
            f"Fashion-MNIST images x {run.X.shape[1]} pixels: every accuracy below is the "
            "stand-in's, shown beside the paper's and never as a reproduction "
            "(`not_reproducible`). To run on AwA2, add the official `AwA2-features.zip`: "
            "`python -m dimred.datasets add awa2-resnet101 PATH`."
        )
    return Artefacts(notes=[text])


#: Folder of the paper under ``data/published``, ``figures`` and ``notebooks``.
PAPER = "awa2_dr_survey"
#: Stand-in images per class of the full and of the quick run.
FULL_STANDIN_PER_CLASS, QUICK_STANDIN_PER_CLASS = 500, 40
#: Points of each draw of the full run's leak sweep.
LEAK_N = 2000


def leak_ratios(leak_n):
    """The ratios ``n / p`` of the leak sweep (:mod:`.leak`), by name.

    The quick run's stand-in and the full one's (images / pixels), every pixel of
    ``leak_n`` images, and AwA2's 37,322 / 2,048; a ratio met twice is swept once.
    """
    ratios = {
        "quick_run": QUICK_STANDIN_PER_CLASS * STANDIN_CLASSES / STANDIN_FEATURES,
        "all_pixels": leak_n / STANDIN_FEATURES,
        "standin": FULL_STANDIN_PER_CLASS * STANDIN_CLASSES / STANDIN_FEATURES,
        "awa2": AWA2_SHAPE[0] / AWA2_SHAPE[1],
    }
    unique = {round(ratio, 2): name for name, ratio in reversed(ratios.items())}
    return tuple((name, ratios[name]) for name in ratios if name in unique.values())


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
    seed : int
        Seeds the subsamples, the split, every reduction and the autoencoder.
    n_jobs : int
        Local workers of the sweeps (SVC fits, kernel PCA, FA, t-SNE runs; default:
        every available core).
    awa2_per_class, standin_per_class : int or None
        Images per class kept of AwA2 (``None``: all 37,322) and of the
        Fashion-MNIST stand-in (500: 5,000 images, about AwA2's images per class
        of a mid-sized class).
    exact_n : int
        Points of Tables VII and IX: exact t-SNE needs the dense ``n x n``
        affinities (11 GB and hours at 37,322; ``make bench``), the paper's
        "computational limitation"; Barnes-Hut is compared on the same points.
    smacof_n : int
        Points of SMACOF-MDS (Table XII): quadratic memory, 4 x 300 iterations.
    lle_n : int or None
        Points of LLE (Tables X, XI): dense ``n x n`` eigenproblem.
    tsne_max_iter : int
        t-SNE iterations (0.22's default: 1000).
    ae_epochs : int
        Autoencoder epochs on the CPU: 50 (the paper: 200 on a GPU; the full schedule
        at AwA2's size takes about 40 min per code size on 2 cores, section 11 of
        the notebook), with the same learning rates from 1e-3 to 1e-4.
    ae_gpu_epochs : int
        Autoencoder epochs on a GPU: the paper's 200.
    ae_device : str
        Where the autoencoder trains (:func:`~dimred.neural.autoencoder.resolve_device`:
        ``"auto"`` takes CUDA when there is one); :meth:`ae_schedule` says which
        device and epochs a run used.
    ae_hidden : tuple of int
        Autoencoder hidden layers (the paper: 1024, 512, 512).
    metric_n : int
        Points subsampled for silhouettes, trustworthiness and distance correlations.
    leak_n : int
        Points of each draw of the leak sweep (:mod:`.leak`; fewer where the run's
        features allow no lower ratio).
    leak_draws : int
        Draws (seeds ``seed``, ``seed + 1``, ...) at each ratio of the leak sweep.
    leak_ratios : tuple of (str, float)
        Ratios ``n / p`` of the leak sweep, by name (:func:`leak_ratios`).
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    awa2_per_class: int | None = None
    standin_per_class: int | None = FULL_STANDIN_PER_CLASS
    exact_n: int = 2000
    smacof_n: int = 1500
    lle_n: int | None = 5000
    tsne_max_iter: int = 1000
    ae_epochs: int = 50
    ae_gpu_epochs: int = 200
    ae_device: str = "auto"
    ae_hidden: tuple = (1024, 512, 512)
    metric_n: int = 5000
    leak_n: int = LEAK_N
    leak_draws: int = 10
    leak_ratios: tuple = leak_ratios(LEAK_N)

    def ae_schedule(self):
        """``(device, epochs)`` of the autoencoder on this machine: a GPU's schedule
        (``ae_gpu_epochs``) when one is used, else the CPU's (``ae_epochs``)."""
        device = resolve_device(self.ae_device)
        return device, self.ae_gpu_epochs if device.startswith("cuda") else self.ae_epochs


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        return Params(
            True,
            seed,
            n_jobs,
            awa2_per_class=8,
            standin_per_class=QUICK_STANDIN_PER_CLASS,
            exact_n=200,
            smacof_n=200,
            lle_n=None,
            tsne_max_iter=250,
            ae_epochs=3,
            ae_gpu_epochs=3,
            ae_hidden=(64, 32, 32),
            metric_n=400,
            leak_n=400,
            leak_draws=3,
            leak_ratios=leak_ratios(400),
        )
    return Params(False, seed, n_jobs)


def load_data(p):
    """AwA2 if obtainable, otherwise the stand-in (:mod:`.data`), and its split."""
    data = load_run_data(p.awa2_per_class, p.standin_per_class, p.seed)
    return {"run": data, "split": Split(data.X, data.y, TEST_SIZE, p.seed)}
