"""How each number of the survey's running text is checked (``text_numbers.csv``).

:data:`TEXT` maps every key to one of

``("setting", value)``
    a setting or grid of the protocol, restated by the run that uses it: status
    ``setting`` (an input, not a result) when ours is the same (numbers compared
    as numbers), ``deviates`` when the run departs from it (the note says so).
    ``value`` is the setting itself, or ``f(p, run)`` reading it from the run's
    :class:`~.data.Params`, data and pipelines; grids are the transcribed
    tables' (the steps iterate over them);
``("data", f)``
    a property ``f(p, run)`` of the AwA2 data (its size, its classes, the
    autoencoder's input layer): checked on AwA2 (``match`` or ``deviates``),
    ``not_reproducible`` on the stand-in;
``("claim", claim_id)`` / ``("cell", "<table>:<key>")``
    a result: it takes the status of the claim or table cell it states;
``("exponent", (metric, expected))``
    a complexity: ``match`` when the time exponent ``metric`` fitted by ``make bench``
    is within :data:`EXPONENT_TOLERANCE` of ``expected``, the exponent the stated
    complexity has over the sizes measured (fitted the same way);
``("context", reason)``
    history, hardware or documentation, which no computation reproduces (``reason``
    may be ``f(p, run)``, e.g. the device this run trained on).
"""

import numpy as np

from dimred.neural import Autoencoder

from . import pipelines
from .data import TEST_SIZE

__all__ = ["EXPONENT_TOLERANCE", "TEXT"]

#: Largest difference between a fitted time exponent and the exponent of the stated
#: complexity over the same sizes, one rule for every complexity of the text: over
#: the bench's 2.5-fold range of sizes (2,000 to 5,000 points) 0.1 is a 10 % difference
#: in growth, where O(N log N) and O(N^2) differ by 0.88.
EXPONENT_TOLERANCE = 0.1


def _classes(p, run):
    return np.unique(run.y).size


def _layers(p, run, reverse=False):
    sizes = [str(run.X.shape[1]), *map(str, p.ae_hidden), "d"]
    return ";".join(sizes[::-1] if reverse else sizes)


_AE = Autoencoder()


TEXT = {
    "abstract_best_accuracy": ("cell", "table8:tsne_lda49_d2"),
    "abstract_best_dims": ("claim", "lda_tsne_best_overall"),
    "intro_n_approaches": ("context", "a classification of methods, not a measurement"),
    "pca_year": ("context", "history"),
    "kpca_n_kernels": ("setting", "4"),
    "lda_rank_sb": ("claim", "lda_max_49"),
    "n_images": ("data", lambda p, run: len(run.y)),
    "n_classes": ("data", _classes),
    "n_features": ("data", lambda p, run: run.X.shape[1]),
    "train_fraction": ("setting", lambda p, run: f"{100 * (1 - TEST_SIZE):g}"),
    "test_fraction": ("setting", lambda p, run: f"{100 * TEST_SIZE:g}"),
    "cv_folds": (
        "setting",
        "none: every table cell is one test-split accuracy, as in the authors' code",
    ),
    "svc_C": ("setting", lambda p, run: f"{pipelines.SVC_C:g}"),
    "svc_kernel": ("setting", "linear"),
    "selection_k_min": ("setting", "2"),
    "selection_k_max": ("setting", "2000"),
    "selection_fraction": ("claim", "selection_250_within_97_5"),
    "selection_k_250": ("setting", "250"),
    "selection_relative_accuracy": ("claim", "selection_250_within_97_5"),
    "doubling_from": ("setting", "1000"),
    "doubling_to": ("setting", "2000"),
    "doubling_gain": ("claim", "selection_doubling_small_gain"),
    "redundant_features": ("claim", "redundant_1000_features"),
    "kpca_gamma": ("setting", "1/n_features"),
    "kpca_degree": ("setting", lambda p, run: f"{pipelines.KPCA_DEGREE}"),
    "kpca_coef0": ("setting", lambda p, run: f"{pipelines.KPCA_COEF0:g}"),
    "kpca_n_jobs": ("context", "hardware setting; kernel PCA's n_jobs does not change its result"),
    "kpca_saturation_dim": ("claim", "kpca_monotone_saturating"),
    "kpca_recommended_dim": ("claim", "kpca_d32_cosine_choice"),
    "kpca_cosine_best_below": ("claim", "kpca_cosine_best_below16"),
    "pca_vis_dims": ("setting", "2"),
    "lda_range_low": ("setting", "1"),
    "lda_range_high_exclusive": ("data", _classes),
    "lda_saturation_dim": ("claim", "lda_grows_slower_after30"),
    "lda_recommended_dim": ("claim", "lda_d30_choice"),
    "lda_vis_dims": ("setting", "2"),
    "lda_vis_classes": ("data", _classes),
    "fa_similar_below": ("claim", "fa_pca_similar_below10"),
    "fa_better_from": ("claim", "fa_beats_pca_10_100"),
    "fa_better_to": ("claim", "fa_beats_pca_10_100"),
    "fa_worse_from": ("claim", "fa_worse_than_pca_above400"),
    "fa_vis_dims": ("setting", "2"),
    "tsne_bh_dims": ("claim", "tsne_bh_only_2_3"),
    "tsne_exact_complexity": ("exponent", ("tsne_exact_exponent", "tsne_exact_expected_exponent")),
    "tsne_bh_complexity": ("exponent", ("tsne_bh_exponent", "tsne_bh_expected_exponent")),
    "tsne_bh_speedup": ("claim", "tsne_bh_100x_faster"),
    "tsne_doc_suggested_dims": ("context", "quoted from scikit-learn's documentation"),
    "sklearn_doc_version": (
        "context",
        "scikit-learn 1.9.1 here, with 0.22's defaults passed explicitly",
    ),
    "tsne_pca_pre_dims": ("setting", "64"),
    "tsne_lda_pre_dims": ("data", lambda p, run: _classes(p, run) - 1),
    "tsne_n_preprocess_methods": ("setting", "3"),
    "tsne_lda_accuracy_text": ("claim", "lda_tsne_best_config"),
    "tsne_exact_dims_tested": ("setting", "2;3;4;8;16"),
    "tsne_recommended_dims": ("claim", "lda_tsne_good_dr_and_vis"),
    "lle_n_hyperparameters": ("setting", "2"),
    "lle_dims_tested": ("setting", "2;8;32;128"),
    "lle_neighbors_tested": ("setting", "4;16;64"),
    "lle_linear_accuracy_bound": ("claim", "lle_linear_fails"),
    "lle_best_dims": ("claim", "lle_best_128_64"),
    "lle_best_neighbors": ("claim", "lle_best_128_64"),
    "mds_dims_tested": ("setting", "2;4;8;16"),
    "ae_encoder_layers": ("data", _layers),
    "ae_decoder_layers": ("data", lambda p, run: _layers(p, run, reverse=True)),
    "ae_n_linear_layers": ("setting", lambda p, run: str(len(p.ae_hidden) + 1)),
    "ae_n_relu": ("setting", lambda p, run: str(len(p.ae_hidden))),
    "ae_dims_tested": ("setting", "2;4;8;16;32;64;128;256;512"),
    "ae_optimizer": ("setting", lambda p, run: _AE.solver),
    "ae_batch_size": ("setting", lambda p, run: str(_AE.batch_size)),
    "ae_lr_start": ("setting", lambda p, run: f"{_AE.learning_rate_init:g}"),
    "ae_lr_end": ("setting", lambda p, run: f"{_AE.learning_rate_end:g}"),
    "ae_epochs": ("setting", lambda p, run: str(p.ae_schedule()[1])),
    "ae_gpu": ("context", lambda p, run: _hardware(p.ae_schedule()[0])),
    "ae_optimal_dims": ("claim", "ae_optimal_128_256"),
    "ae_loss_min_dims": ("claim", "ae_fig11_loss_min_128_256"),
    "ae_loss_higher_dim": ("claim", "ae_high_dim_harder"),
    "summary_n_dims_lda_slow": ("claim", "lda_grows_slower_after30"),
    "summary_n_dims_pca_slow": ("claim", "kpca_monotone_saturating"),
}


def _hardware(device):
    """The context of the paper's GPU: where this run trained the autoencoder."""
    if device.startswith("cuda"):
        return f"hardware: this run trained the autoencoder on a GPU ({device})"
    return "hardware: this compendium trains on the CPU"
