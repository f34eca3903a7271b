"""The survey's verbal claims as predicates (``decided_by`` of ``claims.csv``).

Each predicate takes ``a`` (``"<table>:<key>" -> accuracy`` in percent) and ``m``
(this run's measurements: figure metrics, wall times, predicted costs) and returns
``(holds, evidence)``; ``holds`` is ``None`` when what it needs is missing (a cell
the stand-in does not have, a measurement not made). The same predicate is
evaluated twice where it reads only accuracies: on the paper's own numbers
(:data:`~papers.awa2_dr_survey.cells.lookup`) and on ours.

Scopes (:data:`SCOPES`) say what a claim is about and hence what can decide it:

``data``
    AwA2's accuracies or embeddings: decided by a run on AwA2; on the stand-in
    ``not_reproducible`` -- unless the paper's own numbers already contradict it
    (``deviates``: the paper's tables are evidence too).
``shape``
    cost at AwA2's size: decided by ``make bench`` on the AwA2-shaped synthetic
    set (``figures/awa2_dr_survey/benchmark_cost*.csv``), extrapolated with the
    fitted exponent where a size was not measured.
``independent``
    software behaviour or mathematics: decided on any data.

A claim that orders two times, or a time and a limit, is decided only where they differ
by more than :data:`TIME_SPREAD` (:func:`_faster`): the same prediction made from
another machine's run moves by up to about a fifth, and a verdict that flips with the
machine is not one.
"""

import operator

from .predicates import (
    AE_DIMS,
    DIMS,
    SCOPES,
    TIME_SPREAD,
    _ae_converged,
    _ae_high_dim,
    _ae_loss_accuracy,
    _ae_loss_min,
    _ae_optimal,
    _ae_similar,
    _all,
    _best_kernel_everywhere,
    _compare,
    _cosine32_choice,
    _cosine_poly_close,
    _fa,
    _fa_overfit,
    _faster,
    _lda30,
    _lda_partial,
    _lda_slower,
    _lda_tsne_best,
    _lda_tsne_table,
    _lda_tsne_vis,
    _lle_best,
    _lle_linear_fails,
    _lle_local,
    _lle_monotone,
    _lle_rbf_increase,
    _metric_test,
    _monotone_saturating,
    _pca,
    _predicted,
    _preprocess_faster,
    _ratio,
    _rbf_gap_grows,
    _redundant,
    _silhouette_pair,
    _table14,
    _threshold,
    _tsne_exact_slow_worse,
    _tsne_higher_worse,
    _tsne_lda_boost,
)

__all__ = ["AE_DIMS", "CLAIMS", "SCOPES", "TIME_SPREAD", "evaluate"]


#: claim id -> (scope, predicate).
CLAIMS = {
    "lda_tsne_best_overall": ("data", _lda_tsne_best),
    "lda_tsne_best_config": ("data", _lda_tsne_table),
    "lda_tsne_good_dr_and_vis": ("data", _lda_tsne_vis),
    "selection_250_within_97_5": (
        "data",
        _ratio("table2:var_top_k250", "table1:c_1", operator.ge, 0.975, "ratio"),
    ),
    "selection_doubling_small_gain": (
        "data",
        _compare(
            ["table2:var_top_k2000"],
            ["table2:var_top_k1000"],
            lambda x, y: x - y <= 1.0,
            "k=2000 vs 1000",
        ),
    ),
    "least_variance_comparable": (
        "data",
        _compare(
            ["table3:var_least_k1000"],
            ["table2:var_top_k1000"],
            lambda x, y: abs(x - y) <= 2.0,
            "least vs top 1000",
        ),
    ),
    "redundant_1000_features": ("data", _redundant),
    "kpca_cosine_best": ("data", _best_kernel_everywhere("cosine", DIMS)),
    "kpca_rbf_worst": ("data", _best_kernel_everywhere("rbf", DIMS, lowest=True)),
    "kpca_monotone_saturating": ("data", _monotone_saturating),
    "kpca_d32_cosine_choice": ("data", _cosine32_choice),
    "kpca_cosine_best_below16": ("data", _best_kernel_everywhere("cosine", (2, 4, 8))),
    "kpca_cosine_poly_close_above16": ("data", _cosine_poly_close),
    "kpca_rbf_gap_grows": ("data", _rbf_gap_grows),
    "pca_fig5_not_separated": ("data", _silhouette_pair("pca2_silhouette", "lda2_silhouette", 0.0)),
    "lda_grows_slower_after30": ("data", _lda_slower),
    "lda_d30_choice": ("data", _lda30),
    "lda_fig7_partial_separation": ("data", _lda_partial),
    "fa_pca_similar_below10": (
        "data",
        _compare(_fa((2, 4, 8)), _pca((2, 4, 8)), lambda x, y: abs(x - y) <= 1.0, "FA vs PCA"),
    ),
    "fa_beats_pca_10_100": (
        "data",
        _compare(_fa((16, 32, 64)), _pca((16, 32, 64)), operator.gt, "FA vs PCA"),
    ),
    "fa_worse_than_pca_above400": (
        "data",
        _compare(_fa((512, 1024, 2048)), _pca((512, 1024, 2048)), operator.lt, "FA vs PCA"),
    ),
    "fa_heteroscedastic_overfit": ("data", _fa_overfit),
    "fa_fig9_similar_pca": (
        "data",
        _threshold("fa_pca_procrustes_2d", operator.le, 0.1, "Procrustes disparity"),
    ),
    "tsne_bh_exact_similar": (
        "data",
        _compare(
            ["table7:tsne_bh_d2", "table7:tsne_bh_d3"],
            ["table7:tsne_exact_d2", "table7:tsne_exact_d3"],
            lambda x, y: abs(x - y) <= 1.5,
            "BH vs exact",
        ),
    ),
    "tsne_bh_100x_faster": (
        "shape",
        _metric_test(
            ["tsne_speedup_at_awa2"],
            lambda r: r > 100,
            "exact / Barnes-Hut time at 37,322 points (predicted) {0:.0f}x",
        ),
    ),
    "tsne_preprocess_faster": ("data", _preprocess_faster),
    "tsne_lda_boost": ("data", _tsne_lda_boost),
    "tsne_fig10_lda_tighter": (
        "data",
        _metric_test(
            ["tsne2_LDA_centroid_ratio", "tsne2_raw_centroid_ratio", "tsne2_PCA_centroid_ratio"],
            lambda x, y, z: x > max(y, z),
            "centroid ratio LDA {0:.2f}, raw {1:.2f}, PCA {2:.2f}",
        ),
    ),
    "tsne_higher_dim_worse": ("data", _tsne_higher_worse),
    "tsne_higher_dim_converge": (
        "data",
        lambda a, m: (
            None,
            "scikit-learn's TSNE reports only the final KL divergence, not its trace",
        ),
    ),
    "tsne_exact_slow_and_worse": ("data", _tsne_exact_slow_worse),
    "tsne_exact_limited": ("shape", _predicted("tsne_exact", 3600, "exact t-SNE")),
    "lle_linear_fails": ("data", _lle_linear_fails),
    "lle_linear_better_more_dims_neighbors": ("data", _lle_monotone("table10", strict=False)),
    "lle_rbf_dramatic_increase": ("data", _lle_rbf_increase),
    "lle_best_128_64": ("data", _lle_best),
    "lle_increases_dims_neighbors": ("data", _lle_monotone("table11", strict=True)),
    "lle_high_cost": (
        "shape",
        _metric_test(
            ["lle_predicted_s", "pca_svc_all_features_s", "ae128_predicted_s"],
            lambda x, y, z: _all(x >= 10 * y, _faster(z, x)),
            "LLE {0:.0f} s vs PCA + linear SVC {1:.0f} s (an upper bound: the SVC on all 2,048 "
            "features) and autoencoder {2:.0f} s, predicted at 37,322 points",
        ),
    ),
    "lle_limited": ("shape", _predicted("lle", 3600, "dense LLE (d = 128)")),
    "lle_fig13_few_axes": (
        "data",
        _metric_test(
            ["lle2_K4_on_line_fraction", "lle2_K16_on_line_fraction", "lle2_K64_on_line_fraction"],
            lambda *f: min(f) >= 0.8,
            "fractions on <= 5 lines: {0:.2f}, {1:.2f}, {2:.2f}",
        ),
    ),
    "lle_fig13_thicker_axes": (
        "data",
        _metric_test(
            ["lle2_K4_thickness", "lle2_K16_thickness", "lle2_K64_thickness"],
            lambda x, y, z: x < y < z,
            "thickness K = 4, 16, 64: {0:.3f}, {1:.3f}, {2:.3f}",
        ),
    ),
    "lle_small_k_lines": (
        "data",
        _metric_test(
            ["lle2_K4_on_line_fraction", "lle2_K16_on_line_fraction", "lle2_K64_on_line_fraction"],
            lambda x, y, z: x >= max(y, z),
            "fractions on lines K = 4, 16, 64: {0:.2f}, {1:.2f}, {2:.2f}",
        ),
    ),
    "lle_local_not_linear": ("data", _lle_local),
    "mds_close_to_pca": (
        "data",
        _compare(
            [f"table12:mds_d{d}" for d in (2, 4, 8, 16)],
            _pca((2, 4, 8, 16)),
            lambda x, y: abs(x - y) <= 3,
            "MDS vs PCA",
        ),
    ),
    "mds_inefficient": (
        "shape",
        _metric_test(
            ["smacof_predicted_s", "pca16_s", "fa16_predicted_s", "ae16_predicted_s"],
            lambda s, *others: s >= 10 * max(others),
            "SMACOF {0:.0f} s vs PCA {1:.1f} s, FA {2:.0f} s, autoencoder {3:.0f} s (predicted "
            "at 37,322 points)",
        ),
    ),
    "mds_limited": ("shape", _predicted("smacof", 3600, "SMACOF-MDS (4 starts)")),
    "mds_pca_math_relation": (
        "independent",
        _threshold("mds_classical_pca_procrustes_2d", operator.lt, 1e-6, "Procrustes disparity"),
    ),
    "mds_fig14_similar_pca": (
        "data",
        _threshold("mds_smacof_pca_procrustes_2d", operator.le, 0.1, "Procrustes disparity"),
    ),
    "mds_pca_classes_mixed": (
        "data",
        _metric_test(
            ["mds2_silhouette", "pca2_mds_points_silhouette"],
            lambda x, y: max(x, y) <= 0,
            "silhouettes MDS {0:.3f}, PCA {1:.3f}",
        ),
    ),
    "mds_good_for_distances": (
        "data",
        _metric_test(
            ["mds16_distance_correlation", "pca16_distance_correlation"],
            operator.gt,
            "distance correlation MDS {0:.4f}, PCA {1:.4f}",
        ),
    ),
    "ae_linear_rbf_similar": ("data", _ae_similar),
    "ae_optimal_128_256": ("data", _ae_optimal),
    "ae_high_dim_harder": ("data", _ae_high_dim),
    "ae_efficient": (
        "shape",
        _metric_test(
            ["ae128_predicted_s", "lle_predicted_s", "smacof_predicted_s"],
            lambda x, y, z: _faster(x, min(y, z)),
            "autoencoder {0:.0f} s (CPU) vs LLE {1:.0f} s, SMACOF {2:.0f} s (predicted at 37,322)",
        ),
    ),
    "ae_converged": ("data", _ae_converged),
    "ae_fig11_loss_min_128_256": ("data", _ae_loss_min),
    "ae_loss_reflects_accuracy": ("data", _ae_loss_accuracy),
    "ae_fig15_radial": (
        "data",
        _metric_test(
            ["ae2_knn_angle_percent", "ae2_knn_radius_percent", "ae2_knn_both_percent"],
            lambda t, r, b: t >= 0.8 * b and r < 0.5 * b,
            "5-NN angle {0:.1f} %, radius {1:.1f} %, both {2:.1f} %",
        ),
    ),
    "ae_fig15_rays_are_labels": (
        "data",
        _threshold("ae2_circular_variance", operator.lt, 0.2, "median circular variance"),
    ),
    "tsne_learns_clusters": (
        "data",
        _metric_test(
            ["tsne2_raw_silhouette", "pca2_silhouette"],
            lambda t, q: t > 0 and t - q >= 0.2,
            "silhouettes t-SNE {0:.3f}, PCA {1:.3f}",
        ),
    ),
    "tsne_fig12_lda_better_clustering": (
        "data",
        _metric_test(
            ["tsne2_LDA_silhouette", "tsne2_raw_silhouette"],
            operator.gt,
            "silhouettes LDA input {0:.3f}, raw {1:.3f}",
        ),
    ),
    "tsne_preserves_local": (
        "data",
        _metric_test(
            ["tsne2_raw_trustworthiness", "pca2_trustworthiness"],
            operator.gt,
            "trustworthiness t-SNE {0:.3f}, PCA {1:.3f}",
        ),
    ),
    "kpca_parallel_memory": (
        "shape",
        lambda a, m: (
            None,
            "KernelPCA's n_jobs only parallelises the kernel computation; not measured",
        ),
    ),
    "tsne_bh_only_2_3": (
        "independent",
        _metric_test(
            ["tsne_bh_d4_raises"], bool, "TSNE(method='barnes_hut', n_components=4).fit raises: {0}"
        ),
    ),
    "lda_max_49": (
        "independent",
        _metric_test(["lda_too_many_raises"], bool, "LDA(n_components=n_classes).fit raises: {0}"),
    ),
    "lda_svd_solver_advantage": (
        "data",
        _metric_test(["lda_svd_s", "lda_eigen_s"], _faster, "fit svd {0:.2f} s, eigen {1:.2f} s"),
    ),
    "table14_summary": ("data", _table14),
}


def evaluate(claim, a, m):
    """``(scope, holds, evidence)`` of one claim on accuracies ``a`` and measurements ``m``."""
    scope, predicate = CLAIMS[claim]
    holds, evidence = predicate(a, m)
    return scope, holds, evidence
