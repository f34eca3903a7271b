# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # A cross-paper benchmark — the compendium's methods on common ground
#
# Datasets, hold-out partitions and KDLOR's protocol after P. A. Gutiérrez, M. Pérez-Ortiz, J. Sánchez-Monedero, F. Fernández-Navarro, C. Hervás-Martínez. *Ordinal regression methods: survey and experimental study*. IEEE Transactions on Knowledge and Data Engineering, 2016. [https://dblp.org/search?q=Ordinal+regression+methods+survey+and+experimental+study](https://dblp.org/search?q=Ordinal+regression+methods+survey+and+experimental+study)
#
# Each paper of the compendium compares its method on its own data with its own protocol, and none includes the
# trivial baselines that, on MovieLens and USPS, beat most of the published methods. This entry puts them side by
# side:
#
# 1. **an ordinal league table**: ORML, KDLOR, BVP, LDA, KDA, LSDA (each projection followed once by ORML's
#    threshold rule, Eqs. (8)–(9), and once by a 1-NN rule), LPP, NPE, IsoProjection, the median rank and chance,
#    on ten ORCA datasets with ORCA's own 30 hold-outs, car (ORCA's partition 0 and 29 stratified 75/25
#    partitions drawn here, seeded), USPS with the digits as ranks (50 training images per digit, a new draw per
#    partition) and the ORML paper's ten MovieLens users; MAE, MZE and Kendall's τ_b, mean ± sd over
#    partitions; average ranks, Friedman's test and the Nemenyi critical difference (α = 0.05);
# 2. **every 2-D map scored the same way**: the BVP paper's seven maps on its data, t-SNE and Fisher t-SNE on
#    USPS and the AwA2 survey's methods on its data, by the co-ranking curve `R_NX(k)` and its area under a
#    log-`k` axis (Lee & Verleysen), with trustworthiness and continuity;
# 3. **relevance against importance**: NeRV's `λ²` of each map's features against the metrical importance and
#    the forest importances of the same features (Spearman's ρ).
#
# **Protocol and choices** (code: `papers.cross_paper`, one module per item):
#
# * Features are standardised on each training part. Hyper-parameters are chosen by 5-fold cross-validated MAE
#   inside the training part only: ORML's `C` and KDLOR's Gaussian width (the ORML paper's grids; ORCA's full
#   KDLOR grid of 245 settings does not fit the 30-minute budget). Every other method keeps its own paper's
#   settings.
# * The projections keep two components (`n_classes − 1` when fewer); the threshold rule reads the first, the
#   1-NN rule all of them, with ties in distance all voting and a tied vote going to the lower rank.
# * The ORCA review (Gutiérrez et al., IEEE TKDE 2016) publishes KDLOR's per-dataset results, but its tables could
#   not be read from here: nothing published is set beside our numbers, and the reproduction table says so.
# * The ORML paper's two claims of superiority are decided again on the league's datasets.
# * A method "beats the median rank beyond the partition-to-partition spread" when its mean gain in MAE exceeds
#   the standard deviation of that gain over partitions.
#
# Each code cell calls one step; `Report.show` writes its tables and figures to `output_dir` and shows them here.
# A dask cluster takes the repeated work when `DASK_SCHEDULER` is set (see the README).

# %% tags=["parameters"]
# Parameters (papermill overrides these); `protocol.params(quick)` decides everything else.
quick = False
output_dir = "../figures/cross_paper"
seed = 0
n_jobs = None  # workers; None: every core this process may use

# %%
from compendium.plotting import use_style
from compendium.published import load_published
from compendium.reporting import Report
from papers import cross_paper as protocol

use_style()
p = protocol.params(quick, seed=seed, n_jobs=n_jobs)
published = load_published(protocol.PAPER)
data = protocol.load_data(p)
report = Report(output_dir)
p

# %% [markdown]
# ## 1. The ordinal league table
#
# One row per dataset, partition and method (`league_partitions`), then mean and standard deviation over
# partitions (`league_scores`), the average ranks with the critical-difference diagrams, and, per dataset, the
# best method against the median rank, partition by partition.

# %%
report.show(protocol.league_artefacts(data, published, p));
# %% [markdown]
# ## 2. Every map scored by `R_NX(k)`
#
# One curve per map (mean over draws), the AUC in the legend; the table gives the AUC, trustworthiness and
# continuity at `k = 10` with their spread over draws: for the synthetic sets, USPS and AwA2 each draw is new data
# and a new seed. On the real sets t-SNE is drawn at every seed and every other map, a function of the data
# alone, once.
#
# PCA, SMACOF MDS and t-SNE are one implementation for every dataset whose numbers do not depend on the BLAS
# kernel (`papers.stable_maps`):
#
# * **PCA.** The one-hot columns of car and contact-lenses (full factorial designs) make the leading covariance
#   eigenvalues repeat (six times on car), so every basis of that eigenspace is principal and LAPACK returns
#   one chosen by rounding. Here it is a rotation drawn from a fixed seed.
# * **SMACOF MDS** starts from that map with each point moved by 1e-3 of the map's spread, in a direction drawn
#   from a hash of the point's features. The PCA map stacks car's and contact-lenses' points on 27 and 3
#   locations, and from there SMACOF's BLAS products broke the ties differently under every OpenBLAS kernel
#   (`figures/DETERMINISM.md`); the jitter breaks them the same way everywhere. SMACOF ends in a local
#   optimum that depends on its start, so on these two tied designs the MDS scores below are those of the
#   optimum this start reaches, one of several.
# * **t-SNE: a seeded random start, as Fisher t-SNE's.** The two maps then differ only in their distances.
#   From any PCA start, car's 1,728 points sit on 27 locations, and Barnes–Hut t-SNE collapses: scikit-learn's
#   `TSNE(init="pca")` ends with a spread of 1e-13 and a negative KL divergence. An earlier run of this
#   benchmark scored that collapsed map (`tests/papers/test_stable_maps.py`).
# * **Scores.** Trustworthiness and continuity come from the same tie-ruled ranks as `R_NX`, so that the exactly
#   tied distances of these designs do not rank by rounding noise.

# %%
scored = protocol.maps_of(data, p)
report.show(protocol.map_artefacts(data, scored, p));
# %% [markdown]
# ## 3. Relevance against importance
#
# NeRV's relevance of the features for each map, against the importances of the metrical-importance paper and a
# random forest, as Spearman's ρ per dataset, map, importance and seed.
#
# NeRV calibrates each point's width so that it has `k = 10` effective neighbours. On car's tied design the
# width search used to fail: a first Newton step overshot to widths where only the 6 exactly tied nearest points
# count, the slope there is the rounding of their mean, and the steps crept until the iteration limit. Many of
# car's widths (how many depended on the BLAS kernel) ended at precisions set by rounding noise, and the
# relevances of car moved from kernel to kernel. The search now bisects when Newton stalls, and a row that
# has not converged after `NEWTON_ITER` Newton steps (Newton can also bounce between the ends of its bracket)
# only bisects (`dimred.relevance.pairs.calibrate_precisions`, both cases tested). Where a map stacks more than `k` points on
# one location (`stacked` in `agreement_fits`), no width can give `k` neighbours; the note below counts those
# fits.
#
# Rounding is kept out of both sides of the comparison. NeRV learns on each map rounded to a grid of 1e-6 of its
# largest coordinate: LSDA's map of car differs in its last bits under different BLAS kernels, and those bits
# changed NeRV's path. Spearman's ranks are taken on a grid of 1e-9 of the largest value: the symmetric features
# of car's and bondrate's designs have metrical importances equal in exact arithmetic, which rounding would
# otherwise rank.

# %%
report.show(protocol.agreement_artefacts(data, scored, p));
# %% [markdown]
# ## 4. Reproduction table

# %%
report.write();
