# cmtlab — build, test and benchmark the book.  GNU make.
#
#   make book        execute all notebooks (full profile, cached) and build _build/html
#   make test        unit tests + nbval + strict quick build + browser tests
#   make notebooks   re-execute every notebook in place (full profile) to refresh stored outputs
#   make bench       run the benchmarks
#   make clean       remove build output (keeps .venv);  make distclean also removes .venv
#
# Environment: CMTLAB_DATA_MIRROR (directory with the public datasets, for offline machines) is
# passed through untouched to notebook execution and tests.  CMTLAB_PROFILE is set per target.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
# Steps of `make test` must run in order (the browser tests need the quick build).
.NOTPARALLEL:

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp
# The compiled delay line of cmtlab.testbed (see the testbed target).
DELAYLINE := lib/cmtlab/testbed/bin/delayline

# Everything runs from the venv; notebooks run on the venv's `python3` kernel (see $(STAMP)).
export PATH         := $(CURDIR)/$(BIN):$(PATH)
export JUPYTER_PATH := $(CURDIR)/$(VENV)/share/jupyter
export PYTHONNOUSERSITE := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# On-disk cache of simulation sweeps (cmtlab.sweep), keyed by scenario and code version: a re-built
# book does not re-simulate.  `make clean` removes it with the rest of _build.
export CMTLAB_CACHE_DIR ?= $(CURDIR)/_build/sweep-cache
# Progress bars are for people at a terminal or notebook; keep them out of rendered pages (cmtlab.progress).
NOBARS := CMTLAB_PROGRESS=0

NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))

# Jupyter Book writes HTML to <path-output>/_build/html and keeps its execution cache in
# <path-output>/_build/.jupyter_cache, so the two builds below never share cached outputs.
JB_FLAGS   := -W -n --keep-going --builder html
BOOK_OUT   := .
BOOK_HTML  := _build/html
QUICK_OUT  := _build/quick
QUICK_HTML := $(QUICK_OUT)/_build/html

# `time` (bash keyword) in front of each step prints how long it took.
export TIMEFORMAT := ::: step took %0Rs
NB_TIMEOUT ?= 1200
PYTEST_ARGS ?=

.PHONY: help venv compiled testbed testbed-record papers-sim papers-sim-if-compiler papers-sim-data book book-quick test test-unit test-nbval test-browser notebooks bench clean distclean

help: ## list the targets
	@echo "cmtlab — make targets:"
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'
	@echo "HTML: $(BOOK_HTML)/ (make book), $(QUICK_HTML)/ (make test)"

# ---------------------------------------------------------------- environment
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt lib/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -r requirements.txt -e ./lib
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (cmtlab)"
	touch $@

venv: $(STAMP) ## create .venv and install requirements.txt + lib/ (editable)

# ---------------------------------------------------------------- compiled simulator modules
# Compiled copies (Cython + the C compiler) of the simulator modules that have a .pxd file beside
# their .py source, in _build/compiled (never committed).  The library loads a copy only while it
# matches its sources (an edited module runs as Python until the next build), so this runs before
# every target that simulates; up to date it takes a fraction of a second.  Without a C compiler
# it says so and everything runs as pure Python (same results, slower).  See cmtlab.compiled.
compiled: $(STAMP) ## compile the simulator's typed modules (pure Python without a C compiler)
	$(BIN)/python -c 'import sys; from cmtlab.compiled import main; sys.exit(main(["build", "--if-compiler"]))'

# ---------------------------------------------------------------- book
book: $(STAMP) compiled $(DELAYLINE) ## execute notebooks (CMTLAB_PROFILE=full, cached) and build the HTML into _build/html
	time $(NOBARS) CMTLAB_PROFILE=full $(BIN)/jupyter-book build . --path-output $(BOOK_OUT) $(JB_FLAGS)
	@echo "Book: $(CURDIR)/$(BOOK_HTML)/index.html"

book-quick: $(STAMP) compiled $(DELAYLINE) ## strict build with CMTLAB_PROFILE=quick into _build/quick (own cache)
	mkdir -p $(QUICK_OUT)
	time $(NOBARS) CMTLAB_PROFILE=quick $(BIN)/jupyter-book build . --path-output $(QUICK_OUT) $(JB_FLAGS)

# ---------------------------------------------------------------- tests
test: lint test-unit test-nbval book-quick test-browser ## all checks (lint, unit, nbval, quick book build, browser)
	@echo "make test: all steps passed"

# ---------------------------------------------------------------- testbed (cmtlab.testbed)
# The TUN delay line of the Linux MPTCP testbed: compiled C, never committed (the library also
# builds it on demand when it is missing or older than its source).
# $(CC) if given (environment or command line), else the first of cc, gcc, clang found.
ifeq ($(origin CC),default)
TESTBED_CC := $(or $(shell command -v cc),$(shell command -v gcc),$(shell command -v clang),cc)
else
TESTBED_CC := $(CC)
endif
$(DELAYLINE): lib/cmtlab/testbed/delayline.c
	mkdir -p $(@D)
	$(TESTBED_CC) -O2 -Wall -Wextra -o $@.tmp$$$$ $< && mv -f $@.tmp$$$$ $@  # atomic: a running delay line keeps its file

testbed: $(DELAYLINE) ## build the TUN delay line of cmtlab.testbed (C)

# The Linux chapter's full-profile kernel runs, recorded with their provenance (cmtlab.testbed.recorded): the
# book's full profile reads them and re-runs a live subset. Root, about 12 minutes of real time.
testbed-record: $(STAMP) $(DELAYLINE) ## re-run the Linux chapter's kernel runs (full profile, root, ~12 min) into data/testbed/
	time $(NOBARS) $(BIN)/python -m cmtlab.testbed.record

# ---------------------------------------------------------------- the papers' simulator (cmtlab.papers_sim)
# ns-3.7 + the Chihani-Collange MPTCP model, built without waf from the sha256-pinned archives in
# $(CMTLAB_PEER_MIRROR) (default ../shared/peer-simulators; downloaded from their public origins when
# absent) with the patches of lib/cmtlab/papers_sim/patches/, into _build/papers-sim/ (incremental),
# with ns-3.7's Wi-Fi for the Wi-Fi driver (cmtlab.papers_sim.wifi; `python -m cmtlab.papers_sim build
# --no-wifi` leaves it out).  papers-sim-data re-runs the recorded point-to-point sets and the Wi-Fi
# plans (data/papers-sim/wifi/*.plan.json) under nice, in parallel over the usable cores, with progress.
papers-sim: $(STAMP) ## build the papers' own simulator (ns-3.7 + Chihani-Collange MPTCP) into _build/papers-sim
	time $(BIN)/python -m cmtlab.papers_sim build

# make test: build it when a C++ compiler exists (CI=true: a missing compiler is an error).
papers-sim-if-compiler: $(STAMP)
	time $(BIN)/python -m cmtlab.papers_sim build --if-compiler

papers-sim-data: papers-sim ## re-run the papers' simulator and rewrite its recorded results (data/papers-sim/, data/papers-sim/wifi/)
	time $(NOBARS) nice -n 19 $(BIN)/python -m cmtlab.papers record-papers-sim
	time $(NOBARS) nice -n 19 $(BIN)/python -m cmtlab.papers_sim record-wifi

lint: $(STAMP) ## ruff (ruff.toml: undefined names, unused imports/variables, syntax) over lib, tests, benchmarks, notebooks
	time $(BIN)/ruff check lib tests benchmarks notebooks

test-unit: $(STAMP) compiled $(DELAYLINE) papers-sim-if-compiler ## unit tests of the library
	time CMTLAB_EXPECT_COMPILED=1 $(BIN)/python -m pytest --import-mode=importlib tests --ignore=tests/browser $(PYTEST_ARGS)

test-nbval: $(STAMP) compiled $(DELAYLINE) ## run every notebook (quick profile) and compare the cells tagged nbval-check-output
	time $(NOBARS) CMTLAB_PROFILE=quick $(BIN)/python -m pytest --nbval-lax --nbval-current-env \
	  --nbval-cell-timeout=$(NB_TIMEOUT) \
	  --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider $(PYTEST_ARGS) notebooks/

test-browser: $(STAMP) ## headless-Chromium checks of every chapter of the quick build
	time CMTLAB_BOOK_HTML=$(CURDIR)/$(QUICK_HTML) $(BIN)/python -m pytest tests/browser $(PYTEST_ARGS)

# ---------------------------------------------------------------- notebooks, benchmarks
notebooks: $(STAMP) compiled $(DELAYLINE) ## re-execute every notebook in place (CMTLAB_PROFILE=full) so it stores its outputs
	time $(NOBARS) CMTLAB_PROFILE=full $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	  --ExecutePreprocessor.kernel_name=python3 \
	  --ExecutePreprocessor.timeout=$(NB_TIMEOUT) \
	  --ExecutePreprocessor.record_timing=False \
	  $(NOTEBOOKS)

bench: $(STAMP) compiled papers-sim-if-compiler ## run the benchmarks: Song Fig. 7 model, cmtlab.sim speed, cmtlab.sim vs ns-3 and vs the papers' simulator, one 30-seed Alheid point (same run), compiled vs pure Python
	time $(BIN)/python benchmarks/bench_song.py
	time $(BIN)/python benchmarks/bench_sim.py
	time $(BIN)/python benchmarks/bench_sim_vs_ns3.py
	time $(BIN)/python benchmarks/bench_compiled.py

# ---------------------------------------------------------------- cleanup
clean: ## remove build output and caches (keeps .venv)
	rm -rf _build .pytest_cache
	find . -path ./.venv -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -path ./.venv -prune -o -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +

distclean: clean ## also remove .venv
	rm -rf $(VENV)
