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
# # PAPER_TITLE — reproduction
#
# Authors. *Title*. Venue, year. DOI or canonical URL (as in `data/papers.toml`).
#
# What the paper does, what this notebook reproduces, and every choice the paper leaves open.
# Each code cell calls one step of `papers.PAPER_NAME`; `Report.show` writes its tables
# and figures to `output_dir` and shows them here.

# %% tags=["parameters"]
# Parameters (papermill overrides these); `protocol.params(quick)` decides everything else.
quick = False
output_dir = "../figures/PAPER_NAME"
seed = 0
n_jobs = None  # workers; None: every core this process may use

# %%
from compendium.plotting import use_style
from compendium.published import load_published
from compendium.reporting import Report
from papers import PAPER_NAME as protocol

use_style()
p = protocol.params(quick, seed=seed, n_jobs=n_jobs)
published = load_published(protocol.PAPER)
data = protocol.load_data(p)
report = Report(output_dir)
p

# %% [markdown]
# ## 1. The first step
#
# The paper's claim, the choices it leaves open, what we found.

# %%
report.show(protocol.example_artefacts(data, published, p));

# %% [markdown]
# ## 2. Reproduction table

# %%
report.write();
