# Two commands for a learner: `make lab` and `make test`; `make check` is the contributor's quick loop.
# Everything else is for maintainers.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
COURSE_STAMP := $(VENV)/.course-installed
TEST_STAMP   := $(VENV)/.test-installed
# Two pytest workers, each running torch's default threads, oversubscribe the cores; passive OpenMP
# waiting keeps them fast there and changes no numerics. Alone on the machine, it would slow them.
PARALLEL := OMP_WAIT_POLICY=PASSIVE
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider
# In the course's own runs every figure a lesson shows is checked (helpers/plots.py: text under 12 CSS px
# as shown, wider than the site's column, look-alike series, a legend over data); each problem is
# reported in the cell's output, where nbval and tests/test_saved_figures.py see it.
CHECK_FIGURES := COURSE_CHECK_FIGURE_TEXT=1

# On Linux, PyPI's torch wheel is the CUDA build (about 2.6 GB of downloads with its NVIDIA libraries);
# PyTorch's own CPU index serves the CPU build (about 190 MB). Elsewhere PyPI's wheel is already the CPU
# one. Where that index cannot be reached, pip falls back to the indexes it is configured with.
TORCH_PIN   := $(shell grep -m1 '^torch==' requirements.txt)
# pip compiles every installed .py file to bytecode by default (torch alone: about 50 s on 2 cores);
# Python compiles only what is imported, once, on first import.
PIP_OPTS    := --quiet --no-compile
# ... and keeps it, unless PYTHONDONTWRITEBYTECODE is set (some containers set it): then every kernel and
# test process compiles torch's modules again, about 4 s each (import torch, matplotlib and helpers: 7.0 s
# uncached, 2.9 s cached, measured here). The course's own commands let Python keep its bytecode.
unexport PYTHONDONTWRITEBYTECODE
TORCH_INDEX ?= $(if $(filter Linux,$(shell uname -s)),https://download.pytorch.org/whl/cpu,)

.PHONY: bundle bundle-check release readme-screenshot setup setup-test lab test check test-unit test-notebooks test-portable notebooks notebook lint bench clean \
	setup-colab test-colab test-browser bench-sliders site

# What a learner needs: the course's pins and the helpers package, nothing for testing.
$(COURSE_STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(if $(TORCH_INDEX),$(PY) -m pip install $(PIP_OPTS) --no-deps --retries 0 --timeout 15 "$(TORCH_PIN)" \
		--index-url $(TORCH_INDEX) || echo "the CPU index did not answer: torch comes from the default index")
	$(PY) -m pip install $(PIP_OPTS) -r requirements.txt
	$(PY) -m pip install $(PIP_OPTS) --no-deps -e .
	touch $(COURSE_STAMP)

# What the tests add: the harness, nbval, the browser driver, the oracles, the linters.
$(TEST_STAMP): $(COURSE_STAMP) requirements-test.txt
	$(PY) -m pip install $(PIP_OPTS) -r requirements-test.txt
	touch $(TEST_STAMP)

setup: $(COURSE_STAMP)

setup-test: $(TEST_STAMP)

# A second, Colab-like environment: Colab's ipywidgets 7.7 / IPython 7.34 / ipykernel 6, no ipympl.
COLAB_VENV  := .venv-colab
COLAB_PY    := $(COLAB_VENV)/bin/python
COLAB_STAMP := $(COLAB_VENV)/.installed

$(COLAB_STAMP): requirements-colab.txt pyproject.toml
	test -x $(COLAB_PY) || $(PYTHON) -m venv $(COLAB_VENV)
	$(if $(TORCH_INDEX),$(COLAB_PY) -m pip install $(PIP_OPTS) --no-deps --retries 0 --timeout 15 "$(TORCH_PIN)" \
		--index-url $(TORCH_INDEX) || echo "the CPU index did not answer: torch comes from the default index")
	$(COLAB_PY) -m pip install $(PIP_OPTS) -r requirements-colab.txt
	$(COLAB_PY) -m pip install $(PIP_OPTS) --no-deps -e .
	touch $(COLAB_STAMP)

setup-colab: $(COLAB_STAMP)

# Jupyter refuses to run as root unless told to (containers, some cloud machines).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: setup
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

# Every test, target by target, then a table of where the time went (tools/time_targets.py).
# Every lesson runs under nbval twice (each run hands its two workers the lessons longest first, by
# the run times stored in the notebooks, so that the last to start is a short one): with the main environment's libraries and the portable kernels
# (test-portable, exercises solved), and with Colab's libraries, this machine's kernels and one thread
# (test-colab, as committed). Between them they cover each of the four: this machine's kernels, the
# portable ones, one thread and Colab's versions; test-notebooks, the same run as the regeneration's
# (main environment, this machine's kernels, default threads), is there for maintainers.
TEST_TARGETS := lint test-unit test-portable test-colab test-browser
test: setup-test setup-colab
	@$(PY) tools/time_targets.py $(TEST_TARGETS)

# The edit-test loop, a few minutes: lint, the unit tests of what changed (uncommitted files, or the
# last commit's), one lesson under nbval with its exercises solved (tools/check_changes.py says which).
check: setup-test
	$(PY) -m ruff check .
	$(PY) tools/setup_cell.py --check-release
	$(PY) tools/check_changes.py

lint: setup-test bundle-check
	$(PY) -m ruff check .
	$(VENV)/bin/actionlint .github/workflows/*.yml
	$(PY) tools/setup_cell.py --check-release

# The browser-drawn explorers: js/src/ bundled with what they use of d3 (pinned in js/package-lock.json)
# by esbuild into helpers/explorers/browser/bundle/, which the package ships. bundle-check (in make lint)
# rebuilds them in memory and fails if a shipped bundle does not match its sources.
JS_STAMP := js/node_modules/.package-lock.json

$(JS_STAMP): js/package.json js/package-lock.json
	@command -v npm > /dev/null || { echo "the explorers' bundles need npm (Node.js);" \
		"on Debian/Ubuntu: sudo apt-get install npm"; exit 1; }
	npm ci --prefix js --ignore-scripts --no-audit --no-fund
	touch $@

bundle: $(JS_STAMP)
	node js/build.mjs

bundle-check: $(JS_STAMP)
	node js/build.mjs --check

test-unit: setup-test
	$(PARALLEL) $(PY) -m pytest tests -q -n 2 --ignore=tests/browser

test-notebooks: setup-test
	$(CHECK_FIGURES) $(PARALLEL) $(PY) -m pytest $(NBVAL) -n 2 --dist loadscope notebooks

# What nbval compares must be equal on every CPU and thread count. The notebooks are regenerated
# with this machine's best kernels and torch's default threads; check them with PyTorch's portable
# kernels (what an older or non-x86 CPU computes) here, and with one thread in test-colab.
# This run takes copies of the lessons with every exercise solved (tools/solved_notebooks.py): each
# check must say "passed" inside its lesson, and every other output must still be the committed one.
SOLVED := _build/solved
test-portable: setup-test
	rm -rf $(SOLVED)
	$(PY) tools/solved_notebooks.py --out $(SOLVED) notebooks/[0-9][0-9]_*.ipynb
	$(CHECK_FIGURES) ATEN_CPU_CAPABILITY=default $(PARALLEL) $(PY) -m pytest $(NBVAL) -n 2 --dist loadscope \
		$$($(PY) tools/lesson_times.py --longest-run-first $(SOLVED)/*.ipynb)

# Every notebook under nbval, and the control and explorer tests, with Colab's library versions. The
# notebooks run with one torch thread: the same torch as the main environment, so this one run also
# shows that no compared number depends on the thread count (the library versions change figures and widgets, not torch's arithmetic).
test-colab: setup-colab
	$(COLAB_PY) -m pytest tests/live tests/explorers -q -n 2
	$(CHECK_FIGURES) OMP_NUM_THREADS=1 $(COLAB_PY) -m pytest $(NBVAL) -n 2 --dist loadscope \
		$$($(COLAB_PY) tools/lesson_times.py --longest-run-first notebooks/[0-9][0-9]_*.ipynb)

# JupyterLab driven by headless Chromium: run each lesson's explorers, move a slider, see the figure change.
# Two workers, each with its own JupyterLab and Chromium (tests/browser/conftest.py): one lesson's
# kernel computes while the other's page loads and renders.
BROWSER_ARTIFACTS := test-artifacts/browser
NO_BROWSER := !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

test-browser: setup-test site
	@echo "browser test: screenshots in $(BROWSER_ARTIFACTS)/"
	BROWSER_ARTIFACTS=$(BROWSER_ARTIFACTS) $(PY) -m pytest tests/browser -v -rs -n 2 -p no:cacheprovider
	@if [ -x "$${CHROMIUM:-/usr/bin/chromium}" ]; then \
		echo "browser test: before/after screenshots saved in $(BROWSER_ARTIFACTS)/"; \
	else \
		echo; echo "$(NO_BROWSER)"; echo "!!! THE BROWSER TEST DID NOT RUN: no chromium at $${CHROMIUM:-/usr/bin/chromium}."; \
		echo "!!! Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium,"; \
		echo "!!! then run: make test-browser"; echo "$(NO_BROWSER)"; \
	fi

# The course's web site in _build/site, from the committed notebooks (nothing is executed): Sphinx
# with MyST-NB in an environment of its own (requirements-site.txt), MathJax from npm
# (site/package-lock.json), copied into the site so that no page loads anything from another server.
# Any Sphinx warning (a broken link between lessons, a remote image) fails the build. Every build reads
# every page afresh (-E): site/conf.py's transforms change pages whose sources did not change.
SITE_VENV  := .venv-site
SITE_STAMP := $(SITE_VENV)/.installed
SITE_OUT   := _build/site
MATHJAX    := site/node_modules/mathjax/es5/tex-chtml.js

$(SITE_STAMP): requirements-site.txt
	test -x $(SITE_VENV)/bin/python || $(PYTHON) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SITE_VENV)/bin/python -m pip install $(PIP_OPTS) -r requirements-site.txt
	touch $(SITE_STAMP)

$(MATHJAX): site/package.json site/package-lock.json
	@command -v npm > /dev/null || { echo "make site needs npm (Node.js) to fetch MathJax;" \
		"on Debian/Ubuntu: sudo apt-get install npm"; exit 1; }
	npm ci --prefix site --ignore-scripts --no-audit --no-fund
	touch $(MATHJAX)

$(SITE_OUT)/index.html: $(SITE_STAMP) $(MATHJAX) README.md $(wildcard notebooks/[0-9][0-9]_*.ipynb) \
		$(wildcard site/*.py site/_static/* site/_templates/*)
	rm -rf $(SITE_OUT)
	$(SITE_VENV)/bin/sphinx-build -b html -E -q -W --keep-going -c site -d _build/doctrees . $(SITE_OUT)

site: $(SITE_OUT)/index.html
	@echo "site: $(SITE_OUT)/index.html, $$(du -sh $(SITE_OUT) | cut -f1)"

# Re-execute every notebook in place, storing outputs and widget state.
notebooks: setup-test
	$(PY) tools/run_notebooks.py notebooks/*.ipynb

# A release in one step (tools/release.py): the next minor version (or VERSION=X.Y.Z), every setup cell
# restamped to install its tag, one commit, the tag. Needed whenever helpers/ or pyproject.toml changed:
# make lint fails until the tag of the current version exists and the package is as it left them.
release: setup-test
	$(PY) tools/release.py $(VERSION)

# The README's picture of lesson 04's explorer, taken again (tests/browser/test_readme_screenshot.py
# fails in make test-browser when the committed picture is stale)
readme-screenshot: setup-test
	UPDATE_README_SCREENSHOT=1 $(PY) -m pytest tests/browser/test_readme_screenshot.py -v -p no:cacheprovider

# One notebook: make notebook NB=notebooks/00_order_blindness.ipynb
notebook: setup-test
	$(PY) tools/run_notebooks.py $(NB)

bench: setup-test bench-sliders
	$(PY) benchmarks/rope_speed.py
	$(PY) benchmarks/train_speed.py

bench-sliders: setup-test
	$(PY) benchmarks/browser_slider_latency.py

clean:
	rm -rf $(VENV) $(COLAB_VENV) $(SITE_VENV) _build site/node_modules
