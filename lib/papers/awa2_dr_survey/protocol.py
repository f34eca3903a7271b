"""Protocol of "Project 1 Report: Dimensionality Reduction" (Feng, Li & Xu, SJTU CS245
2020; the full reference is in ``data/papers.toml``): nine families of reductions of the
AwA2 ResNet-101 features, each followed by an SVC.

Steps (each returns :class:`~compendium.reporting.Artefacts`):

* :func:`table1_svc_c` -- the SVC on all features over C (Table I);
* :func:`tables2_3_variance` -- selection by largest and least variance (Tables II, III);
* :func:`table4_kernel_pca` -- PCA and kernel PCA, five kernels (Table IV, Figs. 4, 5);
* :func:`table5_lda` -- LDA (Table V, Figs. 6, 7);
* :func:`table6_fa` -- factor analysis (Table VI, Figs. 8, 9);
* :func:`tables7_9_tsne` -- Barnes-Hut vs exact t-SNE and its dimension (Tables VII, IX);
* :func:`table8_tsne_preprocessing` -- t-SNE of raw, PCA-64 and LDA input, with and
  without the test labels in the LDA (Table VIII, Figs. 10, 12);
* :func:`leak_by_ratio` -- the size of that label leak against the ratio of samples
  to features (:mod:`.leak`);
* :func:`tables10_11_lle` -- LLE, linear and RBF SVC (Tables X, XI, Fig. 13);
* :func:`table12_mds` -- SMACOF and classical MDS (Table XII, Fig. 14);
* :func:`table13_autoencoder` -- the autoencoder (Table XIII, Figs. 11, 15);
* :func:`table14_summary` -- the best configurations (Table XIV);
* :func:`cost` -- the cost of each method at AwA2's size (``make bench``);
* :func:`claims_and_text` -- every verbal claim and every number of the text.

The steps live in :mod:`.linear_steps` (I-VI), :mod:`.embedding_steps` (VII-XIII),
:mod:`.leak`, :mod:`.costs` and :mod:`.summary` (XIV, claims); :func:`table6_fa`,
:func:`table14_summary`, :func:`cost` and :func:`claims_and_text` also take the earlier
steps' artefacts. Without the AwA2 features every step runs on the
Fashion-MNIST stand-in (:mod:`.data`), labelled as such. Open choices:
:mod:`.pipelines` (split, SVC, transductive methods), :class:`Params` (sizes).
"""

from dataclasses import dataclass

from dimred.datasets import AWA2_SHAPE
from dimred.neural.autoencoder import resolve_device

from .costs import cost
from .data import STANDIN_CLASSES, STANDIN_FEATURES, TEST_SIZE, load_run_data
from .embedding_steps import (
    table8_tsne_preprocessing,
    table12_mds,
    table13_autoencoder,
    tables7_9_tsne,
    tables10_11_lle,
)
from .leak import leak_by_ratio
from .linear_steps import (
    table1_svc_c,
    table4_kernel_pca,
    table5_lda,
    table6_fa,
    tables2_3_variance,
)
from .pipelines import Split
from .summary import claims_and_text, table14_summary

__all__ = [
    "PAPER",
    "Params",
    "load_data",
    "params",
    "table1_svc_c",
    "tables2_3_variance",
    "table4_kernel_pca",
    "table5_lda",
    "table6_fa",
    "tables7_9_tsne",
    "table8_tsne_preprocessing",
    "leak_by_ratio",
    "tables10_11_lle",
    "table12_mds",
    "table13_autoencoder",
    "table14_summary",
    "cost",
    "claims_and_text",
]

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
    n_jobs : int or None
        joblib workers of the sweeps (SVC fits, kernel PCA, FA, t-SNE runs).
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
    n_jobs: int | None = 2
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


def params(quick=False, *, seed=0, n_jobs=2):
    """The full or quick parameter set."""
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
