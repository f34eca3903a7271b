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
# Interpreter the .venv is made from: the exact environment is Python 3.11 (the library
# itself, pyproject.toml, needs 3.11 or newer).
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

# Local workers of each paper's sweeps: N_JOBS=n when given; else every core this process
# may use (the notebooks' default), shared among make's job slots: with make -jK, K papers
# run at once, each with cores/K workers (at least 1); a bare make -j gives each one worker.
# Results do not depend on it, so it is not a parameter that reruns a paper.
CORES := $(shell nproc 2>/dev/null || echo 1)
JOB_SLOTS = $(if $(filter -j,$(MAKEFLAGS)),$(CORES),$(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))))
PAPER_JOBS = $(or $(N_JOBS),$(if $(JOB_SLOTS),$(shell echo $$(( $(CORES) / $(JOB_SLOTS) > 1 ? $(CORES) / $(JOB_SLOTS) : 1 )))))

# Every paper of the compendium: notebooks/<paper>.ipynb, data/published/<paper>/,
# figures/<paper>/ and lib/papers/<paper>/ (CONTRIBUTING.md: adding a paper). The one list
# of papers is data/papers.toml: its [papers.<paper>] tables, in build order.
PAPERS := $(shell sed -n 's/^\[papers\.\([a-z0-9_]*\)\]$$/\1/p' data/papers.toml)
# The compendium's own packages (lib/papers, lib/compendium) run from the checkout: the
# library dimred is installed, lib/ is put on the path of every command and kernel.
export PYTHONPATH := $(abspath lib)$(if $(PYTHONPATH),:$(PYTHONPATH))
# Stamps live in the git-ignored build/: a fresh clone rebuilds, a rerun only what changed.
STAMPS := $(OUT)/build/stamps

.PHONY: help figures $(PAPERS) data test test-fast bench book lab lint sync clean env scaling-check FORCE

help: ## List the targets
	@grep -hE '^[a-zA-Z0-9_ -]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{printf "  \033[36m%-22s\033[0m %s\n", $$1, $$2}'
	@echo "  One paper: make <paper>, for <paper> in: $(PAPERS)"
	@echo "  Options: QUICK=1 (quick parameter set into build/quick), N_RF_RUNS=n, N_JOBS=n (workers per paper;"
	@echo "    default every core, shared among make -jK's papers), FORCE=1 (run a paper even when it is up"
	@echo "    to date: make bvp FORCE=1, make figures FORCE=1),"
	@echo "    LAB_ARGS=... (more options of jupyter lab: make lab LAB_ARGS=\"--no-browser --port 8890 --ip 0.0.0.0\"),"
	@echo "    LAB_STARTS_KERNEL=True (make lab: opening a notebook starts its kernel, JupyterLab's default),"
	@echo "    DASK_SCHEDULER=tcp://host:8786 (the sweeps on a dask cluster, same tables)"
	@echo "  Data: DIMRED_DATA_MIRROR=folder (default ../shared/data), DIMRED_DATA_CACHE=folder"
	@echo "    (default data/raw); python -m dimred.datasets list|add DATASET PATH (files you have);"
	@echo "    DIMRED_TRACEBACK=1 prints a failed notebook's traceback"

# The exact environment: the pins of every package pyproject.toml names (core and extras),
# which `make env` installs from; environment.yml (Binder) lists the same pins.
CONSTRAINTS := requirements/constraints.txt
# torch's CPU build comes from this extra index (pip's CPU wheels, the only index asked for
# torch besides pip's own); PyPI's Linux wheel of torch is a CUDA build of several GB.
# TORCH_INDEX= (empty): torch from pip's configured indexes only (a local CPU wheel, a
# mirror). When the index does not answer within 10 s (no internet but a PyPI mirror, as on
# the project's CI machines, whose pip finds a local CPU wheel), make env says so and uses
# pip's configured indexes as with TORCH_INDEX= .
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

env: $(ENV_STAMP) ## Create .venv: the library (editable) with every extra at the pins of requirements/constraints.txt, torch's CPU build (TORCH_INDEX=url overrides); skipped inside an active environment

# The venv's dimred-compendium.pth puts lib/ on the path, so that papers and compendium
# import from .venv/bin/python outside make too (only dimred is installed).
.venv/.installed: pyproject.toml $(CONSTRAINTS)
	@$(BOOT_PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || \
		{ echo "Python 3.11 is required to create .venv (found $(BOOT_PYTHON))"; exit 1; }
	$(BOOT_PYTHON) -m venv .venv
	.venv/bin/python -m pip install --quiet --upgrade pip
	@index='$(TORCH_INDEX)'; \
	if [ -n "$$index" ] && ! .venv/bin/python -c 'import sys, urllib.request; \
			urllib.request.urlopen(sys.argv[1], timeout=10)' "$$index/torch/" 2> /dev/null; then \
		echo "make env: $$index does not answer; torch from pip's configured indexes"; index=; fi; \
	echo ".venv/bin/python -m pip install --quiet -c $(CONSTRAINTS)$${index:+ --extra-index-url $$index} torch"; \
	.venv/bin/python -m pip install --quiet -c $(CONSTRAINTS) $${index:+--extra-index-url "$$index"} torch
	.venv/bin/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[compendium,autoencoder,book,test]'
	echo '$(abspath lib)' > "$$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/dimred-compendium.pth"
	.venv/bin/python -m ipykernel install --sys-prefix --name python3 > /dev/null
	touch $@

data: $(ENV_STAMP) ## Fetch and verify every raw dataset (mirror first, then canonical URLs)
	$(PYTHON) -m dimred.datasets fetch

figures: $(PAPERS) ## Rebuild every figure and table and each executed notebook, then figures/REPRODUCTION.md and the run history (FORCE=1: every paper runs again)
	$(PYTHON) -m compendium.notebooks publish --build $(OUT)/build --figures $(OUT)/figures
	$(PYTHON) -m compendium.pages --figures $(OUT)/figures $(if $(filter 1,$(QUICK)),--readme /dev/null)
	$(if $(filter 1,$(QUICK)),,$(PYTHON) -m compendium.run_history --figures $(OUT)/figures)
	$(if $(filter 1,$(QUICK)),,$(PYTHON) -m compendium.scaling --figures $(OUT)/figures --measured $(ONE_CORE))

# The scaling model (lib/compendium/scaling.py) checked against runs on one core: the
# papers of ONE_CORE_PAPERS again, pinned to core 0 (taskset) with one worker, their
# ledgers kept in figures/one_core/<paper>/; then the model's tables again.
ONE_CORE := figures/one_core
ONE_CORE_PAPERS ?= bvp orml
scaling-check: $(ENV_STAMP) ## Run ONE_CORE_PAPERS (bvp orml) on one core and check the scaling model against them (about 12 min)
	taskset -c 0 $(MAKE) $(ONE_CORE_PAPERS) OUT=build/one_core FORCE=1 N_JOBS=1
	for paper in $(ONE_CORE_PAPERS); do mkdir -p $(ONE_CORE)/$$paper && \
		cp build/one_core/figures/$$paper/{cost,tasks}.{csv,md} $(ONE_CORE)/$$paper/; done
	$(PYTHON) -m compendium.scaling --figures figures --measured $(ONE_CORE)

# `make <paper>`: one paper only (every [papers.<paper>] of data/papers.toml). A run leaves
# the marker <paper>.ran beside its stamp; without one, make ran nothing for the paper and
# says that it is up to date (and how to run it anyway).
$(PAPERS): %: $(STAMPS)/%.done
	@if [ -e $(STAMPS)/$*.ran ]; then rm $(STAMPS)/$*.ran; else \
		echo "$*: up to date ($(patsubst ./%,%,$(OUT)/figures/$*); make $*$(if $(filter 1,$(QUICK)), QUICK=1) FORCE=1 runs it again)"; fi

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
	@$(PYTHON) lib/compendium/cells.py notebooks/$*.ipynb $@

# The files of lib/ a paper's run depends on, found by a static import analysis of its
# notebook and the runner (lib/compendium/depends.py: the modules whose names it
# uses, not every module of lib/), with their sha256; rewritten only when one of them
# changes, so editing a module reruns only the papers that use it. One run of depends.py
# refreshes every paper's stamp (each module parsed once); the empty recipe of %.lib makes
# make read each stamp's date again after that run.
.PRECIOUS: $(STAMPS)/%.lib
$(STAMPS)/%.lib: $(STAMPS)/lib-refreshed ;
$(STAMPS)/lib-refreshed: FORCE | $(ENV_STAMP)
	@$(PYTHON) -m compendium.depends --stamps $(STAMPS)

# A paper reruns when its notebook's code, the lib/ files it uses, its published numbers,
# the data registry, pyproject.toml, the pinned versions or its parameters changed, and
# always with FORCE=1. Each notebook fetches (and verifies) the data it reads; the runner
# prints a line per step (name, seconds) and a closing line (the statuses of its results,
# where its outputs are); a run that succeeds is published to figures/<paper>/<paper>.ipynb
# (outputs kept, no machine paths).
.SECONDEXPANSION:
$(STAMPS)/%.done: $(STAMPS)/%.code $(STAMPS)/%.lib pyproject.toml $(CONSTRAINTS) data/registry.toml \
		$$(wildcard data/published/$$*/*) $(STAMPS)/%.params $(if $(filter 1,$(FORCE)),FORCE) \
		| $(ENV_STAMP)
	$(PYTHON) -m compendium.notebooks $* $(OUT)/figures/$* \
		--executed $(OUT)/build/$*.ipynb $(PM_PARAMS) $(PM_PARAMS_$*) \
		$(if $(PAPER_JOBS),-p n_jobs $(PAPER_JOBS))
	@touch $@ $(STAMPS)/$*.ran

test: $(ENV_STAMP) ## Run the whole test suite (what CI runs: unit tests + every notebook in quick mode)
	$(PYTHON) -m pytest

# The fast tier: no notebook run, no browser, no make, no dask, nothing marked slow.
FAST := not (notebook or browser or make or dask or slow)
test-fast: $(ENV_STAMP) ## The fast tier: the library's unit tests, the papers' steps and the tooling (under 2 min on 2 cores)
	$(PYTHON) -m pytest tests/unit tests/papers tests/compendium -m "$(FAST)"

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
# dirties no tracked file where no cell changed. Opening a notebook starts no kernel (its
# first run does, after asking which): a kernel that starts rewrites the notebook's kernel
# metadata (the kernel's display name, the Python version), which marks a published notebook
# unsaved; LAB_STARTS_KERNEL=True is JupyterLab's default. LAB_ARGS: more options of
# jupyter lab, e.g. LAB_ARGS="--no-browser --port 8890 --ip 0.0.0.0" on a remote or headless
# machine (then open the URL with the token it prints).
LAB_STARTS_KERNEL ?= False
lab: $(ENV_STAMP) ## JupyterLab at the repository root (LAB_ARGS: more options); opening starts no kernel, saving leaves tracked files alone
	$(PYTHON) -m jupyter lab --ServerApp.root_dir=. \
		--ServerApp.contents_manager_class=compendium.lab.CompendiumContentsManager \
		--LabApp.notebook_starts_kernel=$(LAB_STARTS_KERNEL) $(LAB_ARGS)

book: $(ENV_STAMP) ## The book: static HTML site of the executed notebooks in build/book/ (runs nothing)
	$(PYTHON) -m compendium.book --figures $(OUT)/figures --out $(OUT)/build/book

clean: ## Remove executed notebooks and quick outputs (build/)
	rm -rf build
