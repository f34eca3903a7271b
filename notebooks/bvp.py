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
# # Best-View Projection for ordinal classification — reproduction
#
# M. Zine-El-Abidine, H. Dutagaci, D. Rousseau. *Dimensionality Reduction for Ordinal Classification*. [https://dblp.org/search?q=Dimensionality+Reduction+for+Ordinal+Classification+Zine-El-Abidine](https://dblp.org/search?q=Dimensionality+Reduction+for+Ordinal+Classification+Zine-El-Abidine)
#
# BVP translates the data to the mean of the class centres and repeatedly removes the viewpoint `v`
# that minimises `F(v) = Σ_k [vᵀ(c_{k+1} − c_k)]²` on the unit sphere (Eq. 2), until two dimensions remain.
# The paper finds each viewpoint with Riemannian gradient descent (Algorithm 1) and compares BVP, by eye,
# with PCA, MDS, t-SNE, LDA, KDA and LSDA on two synthetic 3-D datasets (Figs. 2–3) and with LDA and LSDA
# on six ORCA datasets (Table I, Figs. 4–9).
#
# This notebook
#
# 1. reproduces **Table I** from the data;
# 2. shows what Algorithm 1 converges to (a closed form) and checks both solvers on every dataset;
# 3. redraws **Figs. 1–9** with `dimred` (`BestViewProjection`, `KernelDiscriminantAnalysis`,
#    `LocalitySensitiveDiscriminantAnalysis`, scikit-learn's PCA, MDS, t-SNE and LDA);
# 4. turns the paper's three visual criteria into measurements, judges every method × dataset, and decides
#    each of its claims (`metrics.csv`, `reproduction.csv`);
# 5. redraws what is random (the synthetic data, t-SNE, MDS, the folds of the 5-NN accuracy) ten times and
#    reports how the verdicts move;
# 6. measures how the Fig. 3 claims depend on the unreported parameters of the swiss-roll generator.
#
# Each code cell calls one step of the paper's protocol, `papers.bvp`; `Report.show` writes
# its tables (CSV + Markdown) and figures (PNG + PDF) to `output_dir` and shows them here, with the
# findings the step measured (in bold). Every table says which data it came from (`data`: the synthetic
# Gaussians and swiss rolls, or a real ORCA dataset). `reproduction.csv` (the paper's numbers and claims
# beside ours) and `findings.csv` (what we found, with its spread over the draws) are written at the end;
# `make bench` adds the speed of the spectral solver to `findings.csv`.
#
# **Choices the paper leaves open** (documented in `papers.bvp`):
#
# * *Criteria.* (1) **separates**: cross-validated 5-NN accuracy in 2-D ≥ the input space's − 0.10 *and*
#   ≥ the majority-class rate + 0.05 (the second condition was added after an independent review: without it a
#   view "separates" at chance level wherever the input space is at chance, as on contact-lenses and bondrate);
#   (2) **ordered**: Spearman ρ between class rank and the projected centres (read along their best 1-D
#   direction) ≥ 0.9 *and* adjacent centres nearer than non-adjacent ones in ≥ 90 % of comparisons;
#   (3) **informative**: the within-class share of the variance in 2-D ≥ half its share in the input space.
#   The thresholds were fixed before the first run; the majority-rate margin is the only addition since, and no
#   threshold was moved to change a verdict. With three classes in 2-D,
#   ρ is always 1 (three points can always be ordered along some direction), so there the
#   adjacent-centre test decides.
# * *Scaling.* Real features are standardised; the paper says nothing. Unscaled, one feature dominates
#   every projection but LDA's, and Algorithm 1 does not converge (section 2).
# * *Synthetic data.* The generators (`dimred.synthetic`) are built to have the properties the text states;
#   their parameters are in their docstrings.
# * *Baselines.* MDS: metric SMACOF started from classical MDS; t-SNE: PCA initialisation, perplexity swept;
#   KDA: Gaussian kernel (γ = 1/(Q·var X)), regularisation 0.1 (the paper's); LSDA: k = 5, α = 0.1
#   (Cai et al.'s defaults), solved in the span of the data with a 10⁻⁸·trace ridge, without self-loops in
#   the within-class graph as in the LSDA paper (Cai's code adds them; the docstring of
#   `LocalitySensitiveDiscriminantAnalysis` says what that changes).

# %% tags=["parameters"]
# Parameters (papermill overrides these); `bvp.params(quick)` decides everything else.
quick = False
output_dir = "../figures/bvp"
seed = 0
n_jobs = None  # workers; None: every core this process may use

# %%
from compendium.plotting import use_style
from compendium.published import load_published
from compendium.reporting import Report
from papers import bvp

use_style()
p = bvp.params(quick, seed=seed, n_jobs=n_jobs)
published = load_published(bvp.PAPER)
synthetic = bvp.load_synthetic_data(p)
real, raw = bvp.load_real_data(), bvp.load_real_data(standardize=False)
report = Report(output_dir)
p

# %% [markdown]
# ## 1. Table I: the real datasets
#
# ORCA holdout split 0; the full dataset is train ∪ test. Every cell must match exactly.

# %%
report.show(bvp.table1_artefacts(real, published));

# %% [markdown]
# ## 2. What Algorithm 1 converges to
#
# `F(v) = ‖A v‖²`, with `A` the `(K−1) × Q` matrix of adjacent centre differences (Eq. 6), is a Rayleigh
# quotient on the sphere, so its minimiser is the eigenvector of `AᵀA` with the smallest eigenvalue.
# Projecting onto `v⊥` leaves the other eigenvectors unchanged; removing `Q − 2` viewpoints one after the
# other therefore keeps the plane of the two **leading right singular vectors of `A`** — the plane that
# maximises the sum of squared distances between adjacent projected centres (Eq. 1).
# `BestViewProjection(solver="spectral")` computes it with one SVD; `solver="riemannian"` runs
# Algorithm 1 (Barzilai–Borwein steps, γ₀ = 0.05, MaxIter = 100, ε = 1e-5) for every removed dimension.
# When `rank(A) = K − 1 < 2` the optimum is not unique; the spectral solver then completes the plane with
# the leading principal axis of the data inside `null(A)`.
#
# Both solvers on every dataset of the paper (three seeds of Algorithm 1 each), on standardised and on raw
# features:

# %%
report.show(bvp.solver_artefacts(synthetic, real, raw));

# %% [markdown]
# **Reading the table** (findings `spectral_closed_form` and `raw_features` above). On the synthetic data
# and on every standardised real dataset the two solvers give the same plane and the same objective. The
# swiss rolls leave the largest angle: their centres are collinear up to sampling noise, so that the second
# and third singular values of `A` nearly coincide and Algorithm 1's stopping rule (ε = 1e-5 between
# iterates) leaves a small residual rotation. On the **raw** real data, where the features' spreads differ
# by the factors in `feature_sd_ratio`, Algorithm 1 misses the optimum on some datasets: the closed form is
# exact where the iteration is not. `make bench` measures the speed of both solvers on 300 dimensions and
# 12 classes (finding `spectral_speed`).

# %% [markdown]
# ## 3. Fig. 1: the view sphere
#
# The Gaussian data of Fig. 2, the sphere of viewpoints coloured by `F(v)` (dark: the adjacent centres
# overlap when seen from there), the optimum viewpoint (cyan, with its antipode) and the resulting view.

# %%
report.show(bvp.view_sphere_artefacts(synthetic));

# %% [markdown]
# ## 4. t-SNE perplexity sweep
#
# The paper reports perplexity 40 (Fig. 2) and 30 (Fig. 3) as the best after a thorough sweep, without
# saying what "best" meant. Here: the highest order correlation, then the highest 5-NN accuracy. The
# answer depends on the draw of the data (t-SNE itself, initialised by PCA, hardly depends on its seed), so
# the sweep is run on `n_draws` draws of each synthetic dataset (ten in the full run, two in the quick run;
# draw `k` generates the data, seeds t-SNE and draws the 5-NN folds with seed `seed + k`; the first draw is
# the data of the figures). `tsne_best_perplexity` gives the best perplexity of each draw, and
# `tsne_perplexity_flatness` how much the metrics move across perplexities (on one draw) against across
# draws (at one perplexity). The reproduction row reports the most frequent best.

# %%
sweeps = bvp.tsne_sweeps(p)
report.show(bvp.sweep_artefacts(sweeps, published));

# %% [markdown]
# ## 5. Figs. 2 and 3: seven methods on the synthetic data
#
# *Gaussians* (`ordinal_gaussians`): five classes of 100 points whose centres lie along the axis of least
# within-class variance, so that the first principal axes of the whole cloud miss the order.
# *Swiss rolls* (`ordinal_swiss_rolls`): four partial rolls of 200 points offset by `(0, 3, 3)`; each
# centre lies nearer to instances of an adjacent class than to its own, the classes are better separated
# in 3-D than the Gaussians, and the first principal axis is not the offset direction — the three
# properties the text states. t-SNE uses the paper's perplexities (40 and 30), so that the claims are
# judged on the configuration the paper judged (the sweep's embeddings of seed `seed`, not rerun); the
# sweep above shows how t-SNE's verdicts move with it.

# %%
evaluations = bvp.evaluate_synthetic(synthetic, sweeps, published, p)
report.show(bvp.method_figures(synthetic, evaluations));

# %% [markdown]
# ## 6. Figs. 4–9: BVP, LDA and LSDA on the real datasets

# %%
evaluations |= bvp.evaluate_real(real, p)
report.show(bvp.method_figures(real, evaluations));

# %% [markdown]
# ## 7. Every method × dataset, measured
#
# `metrics.csv`: the metrics of `dimred.quality` (5-NN accuracy, order correlation, adjacent centres
# nearer, within-class share, trustworthiness and continuity at k = 5), the input-space references and the
# three verdicts.

# %%
report.show(bvp.metrics_artefacts(evaluations));

# %% [markdown]
# ## 8. The paper's claims, decided
#
# Each claim (`data/published/bvp/claims.csv`, quoted) names a method, a dataset and a predicate on the
# verdicts. `match`: the claim holds on our measurements; `deviates`: it does not.

# %%
report.show(bvp.claim_artefacts(evaluations, published, p));

# %% [markdown]
# **Reading the verdicts** (finding `claims_held`; the measurements behind each verdict are in
# `claim_verdicts` and `metrics`; the quick run uses fewer points and can differ):
#
# * **Gaussians (Fig. 2).** The data are built so that the first principal axes miss the order: the
#   paper's PCA and MDS fail there, its supervised methods do not. t-SNE at perplexity 40 can keep the
#   order up to one swap of adjacent classes, which the a-priori threshold (ρ ≥ 0.9) counts as ordered.
#   "BVP performs very similarly to LDA and LSDA" needs BVP's three verdicts to equal both methods': a
#   view that compresses each class differs from one that keeps it.
# * **Swiss rolls (Fig. 3).** With a constant offset the centres are collinear, `rank(A) = 1`, and BVP's
#   second axis is decided by the data's spread inside `null(A)` and by sampling noise in the centres (the
#   paper's Algorithm 1 picks it from its random start); whether PCA fails and whether BVP clears the
#   separation bar then depends on the draw. Sections 9 and 10 show how these verdicts move with the seed
#   and with the generator parameters the paper does not give.
# * **Real data (Figs. 4–9).** LDA's within-class share and BVP's order depend on no draw. "LSDA did not
#   retain class separability in 2 dimensions" can hold trivially: where neither LSDA's view nor the input
#   space classifies better than always guessing the largest class, no view separates anything (finding
#   `lsda_separation`, section 9). Before the review added the majority-rate margin to the separation
#   verdict, LSDA "separated" on every dataset, at chance level where the input space itself is at chance.

# %% [markdown]
# ## 9. The verdicts over ten draws
#
# The verdicts above are one draw: seed `seed` made the synthetic data and seeded t-SNE, MDS and the folds
# of the 5-NN accuracy. Here every synthetic claim is decided again on `n_draws` seeds (each drawing the
# data, t-SNE at the paper's perplexity, MDS and the folds; the first is the run above), and every
# real-data claim on `n_draws` draws of the 5-NN folds (the only random part of the real-data verdicts).

# %%
report.show(bvp.synthetic_claims_over_seeds(published, p));

# %%
report.show(bvp.fold_draws(real, evaluations, published, p));

# %% [markdown]
# ## 10. How the Fig. 3 claims depend on the swiss-roll generator
#
# The paper gives no parameters for its swiss rolls. Here the claims decided by the fast linear methods
# (PCA fails, LDA loses separation, BVP and LSDA succeed) are evaluated on 42 generator settings
# (`bvp.swiss_roll_configs()`) and three seeds (one setting in 21 and one seed in the quick run).

# %%
report.show(bvp.sensitivity_artefacts(p));

# %% [markdown]
# **Reading the table** (finding `swiss_roll_sensitivity`). The claims move with the roll's height and the
# offset direction: with collinear centres, BVP's second axis and LDA's second discriminant are left to the
# data's spread and to noise rather than to the labels. The paper's Fig. 3 is one draw from this family;
# its claims describe that draw, not partial swiss rolls in general.

# %%
report.write();
