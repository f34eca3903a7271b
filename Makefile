# dimred-compendium. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Python: the active environment (venv, conda, Binder) when there is one, otherwise a local
# .venv bootstrapped from pyproject.toml, so a fresh clone needs no other step.
ifneq ($(VIRTUAL_ENV)$(CONDA_PREFIX),)
PYTHON ?= python
ENV_STAMP :=
else
PYTHON ?= .venv/bin/python
ENV_STAMP := .venv/.installed
endif
# Interpreter the .venv is made from: pyproject.toml requires Python 3.11.
BOOT_PYTHON ?= $(shell command -v python3.11 || command -v python3)

# Raw data: a local mirror is tried before the network (hashes are checked either way).
ifneq ($(wildcard ../shared/data),)
DIMRED_DATA_MIRROR ?= $(abspath ../shared/data)
endif
export DIMRED_DATA_MIRROR
# DASK_SCHEDULER=tcp://host:8786: every notebook's sweeps run on that dask cluster.
export DASK_SCHEDULER

# QUICK=1: the notebooks' quick parameter set, written to build/quick/ (figures/ untouched).
ifeq ($(QUICK),1)
OUT := build/quick
PM_PARAMS := --quick
else
OUT := .
PM_PARAMS :=
endif
# Per-paper parameters: the random-forest runs per curve point (metrical importance).
PM_PARAMS_metrical_importance := $(if $(N_RF_RUNS),-p n_rf_runs $(N_RF_RUNS))

# Every paper of the compendium: notebooks/<paper>.ipynb, data/published/<paper>/,
# figures/<paper>/ and lib/dimred/experiments/<paper>/ (CONTRIBUTING.md: adding a paper).
PAPERS := metrical_importance bvp orml relevance_learning awa2_dr_survey cross_paper
# Stamps live in the git-ignored build/: a fresh clone rebuilds, a rerun only what changed.
STAMPS := $(OUT)/build/stamps
DONE := $(foreach p,$(PAPERS),$(STAMPS)/$(p).done)

.PHONY: help figures $(PAPERS) data test bench book lab lint sync clean env FORCE

help: ## List the targets
	@grep -hE '^[a-zA-Z0-9_ -]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{printf "  \033[36m%-22s\033[0m %s\n", $$1, $$2}'
	@echo "  Options: QUICK=1 (quick parameter set into build/quick), N_RF_RUNS=n,"
	@echo "    DASK_SCHEDULER=tcp://host:8786 (the sweeps on a dask cluster, same tables)"
	@echo "  Data: DIMRED_DATA_MIRROR=folder (default ../shared/data), DIMRED_DATA_CACHE=folder"
	@echo "    (default data/raw); python -m dimred.datasets list|add DATASET PATH (files you have);"
	@echo "    DIMRED_TRACEBACK=1 prints a failed notebook's traceback"

env: $(ENV_STAMP) ## Create .venv from pyproject.toml (skipped inside an active environment)

.venv/.installed: pyproject.toml
	@$(BOOT_PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || \
		{ echo "Python 3.11 is required to create .venv (found $(BOOT_PYTHON))"; exit 1; }
	$(BOOT_PYTHON) -m venv .venv
	.venv/bin/python -m pip install --quiet --upgrade pip
	.venv/bin/python -m pip install --quiet -e '.[test]'
	.venv/bin/python -m ipykernel install --sys-prefix --name python3 > /dev/null
	touch $@

data: $(ENV_STAMP) ## Fetch and verify every raw dataset (mirror first, then canonical URLs)
	$(PYTHON) -m dimred.datasets fetch

figures: $(DONE) ## Rebuild every figure and table and each executed notebook, then figures/REPRODUCTION.md and the run history
	$(PYTHON) -m dimred.compendium.notebooks publish --build $(OUT)/build --figures $(OUT)/figures
	$(PYTHON) -m dimred.compendium.reporting --figures $(OUT)/figures $(if $(filter 1,$(QUICK)),--readme /dev/null)
	$(if $(filter 1,$(QUICK)),,$(PYTHON) -m dimred.compendium.run_history --figures $(OUT)/figures)

metrical_importance: $(STAMPS)/metrical_importance.done ## Metrical importance paper only
bvp: $(STAMPS)/bvp.done ## Best-View Projection paper only
orml: $(STAMPS)/orml.done ## Ordinal regression via manifold learning paper only
relevance_learning: $(STAMPS)/relevance_learning.done ## Relevance learning for DR paper only
awa2_dr_survey: $(STAMPS)/awa2_dr_survey.done ## AwA2 dimensionality-reduction survey only
cross_paper: $(STAMPS)/cross_paper.done ## Cross-paper benchmark: ordinal league table, maps scored by R_NX, relevance against importance

# The parameters a paper was last built with; rewritten only when they change.
.PRECIOUS: $(STAMPS)/%.params
$(STAMPS)/%.params: FORCE
	@mkdir -p $(@D)
	@echo '$(PM_PARAMS) $(PM_PARAMS_$*)' | cmp -s - $@ || echo '$(PM_PARAMS) $(PM_PARAMS_$*)' > $@

# The code of a paper's notebook (its code cells' sources and tags), rewritten only when it
# changes: opening, running or saving the notebook in JupyterLab, or editing its prose,
# reruns nothing (`make figures` republishes the executed notebook with the new prose).
.PRECIOUS: $(STAMPS)/%.code
$(STAMPS)/%.code: FORCE | $(ENV_STAMP)
	@$(PYTHON) lib/dimred/compendium/cells.py notebooks/$*.ipynb $@

# The files of lib/ a paper's run depends on, found by a static import analysis of its
# notebook and the runner (lib/dimred/compendium/depends.py: the modules whose names it
# uses, not every module of lib/), with their sha256; rewritten only when one of them
# changes, so editing a module reruns only the papers that use it. One run of depends.py
# refreshes every paper's stamp (each module parsed once); the empty recipe of %.lib makes
# make read each stamp's date again after that run.
.PRECIOUS: $(STAMPS)/%.lib
$(STAMPS)/%.lib: $(STAMPS)/lib-refreshed ;
$(STAMPS)/lib-refreshed: FORCE | $(ENV_STAMP)
	@$(PYTHON) lib/dimred/compendium/depends.py --stamps $(STAMPS)

# A paper reruns when its notebook's code, the lib/ files it uses, its published numbers, the
# data registry, pyproject.toml or its parameters changed. Each notebook fetches (and
# verifies) the data it reads; a run that succeeds is published to
# figures/<paper>/<paper>.ipynb (outputs kept, no machine paths).
.SECONDEXPANSION:
$(STAMPS)/%.done: $(STAMPS)/%.code $(STAMPS)/%.lib pyproject.toml data/registry.toml \
		$$(wildcard data/published/$$*/*) $(STAMPS)/%.params | $(ENV_STAMP)
	$(PYTHON) -m dimred.compendium.notebooks $* $(OUT)/figures/$* \
		--executed $(OUT)/build/$*.ipynb $(PM_PARAMS) $(PM_PARAMS_$*)
	touch $@

test: $(ENV_STAMP) ## Run the test suite (unit tests + every notebook in quick mode)
	$(PYTHON) -m pytest

bench: $(ENV_STAMP) ## Benchmarks: speed ratios against the papers' algorithms
	$(PYTHON) benchmarks/bench_metrical.py
	$(PYTHON) benchmarks/bench_bvp.py
	$(PYTHON) benchmarks/bench_orml.py
	$(PYTHON) benchmarks/bench_fisher.py
	$(PYTHON) benchmarks/bench_relevance.py
	$(PYTHON) benchmarks/bench_svc.py
	$(PYTHON) benchmarks/bench_fa.py
	$(PYTHON) benchmarks/bench_awa2.py

lint: $(ENV_STAMP) ## ruff check of lib, tests, benchmarks, scripts, templates and the notebooks' .py twins
	$(PYTHON) -m ruff check lib tests benchmarks notebooks scripts templates

sync: $(ENV_STAMP) ## Re-pair each notebook with its .py twin (after editing either one)
	$(PYTHON) -m jupytext --sync notebooks/*.py

# JupyterLab at the repository root (notebooks/, figures/, build/ and docs/papers.ipynb side
# by side). Its contents manager saves a source notebook as committed (no outputs, no kernel
# metadata) and never saves over a published one: opening, running or saving a notebook
# dirties no tracked file where no cell changed.
lab: $(ENV_STAMP) ## JupyterLab at the repository root; saving a notebook leaves tracked files alone
	$(PYTHON) -m jupyter lab --ServerApp.root_dir=. \
		--ServerApp.contents_manager_class=dimred.compendium.lab.CompendiumContentsManager

book: $(ENV_STAMP) ## The book: static HTML site of the executed notebooks in build/book/ (runs nothing)
	$(PYTHON) -m dimred.compendium.book --figures $(OUT)/figures --out $(OUT)/build/book

clean: ## Remove executed notebooks and quick outputs (build/)
	rm -rf build
