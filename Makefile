# Two commands for a learner: `make lab` and `make test`. Everything else is for maintainers.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Two pytest workers, each running torch's default threads, oversubscribe the cores; passive OpenMP
# waiting keeps them fast there and changes no numerics. Alone on the machine, it would slow them.
PARALLEL := OMP_WAIT_POLICY=PASSIVE
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

.PHONY: setup lab test test-unit test-notebooks notebooks notebook lint bench clean \
	setup-colab test-colab test-browser bench-sliders

$(STAMP): requirements.txt requirements-test.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-test.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

setup: $(STAMP)

# A second, Colab-like environment: Colab's ipywidgets 7.7 / IPython 7.34 / ipykernel 6, no ipympl.
COLAB_VENV  := .venv-colab
COLAB_PY    := $(COLAB_VENV)/bin/python
COLAB_STAMP := $(COLAB_VENV)/.installed

$(COLAB_STAMP): requirements-colab.txt pyproject.toml
	test -x $(COLAB_PY) || $(PYTHON) -m venv $(COLAB_VENV)
	$(COLAB_PY) -m pip install --quiet -r requirements-colab.txt
	$(COLAB_PY) -m pip install --quiet --no-deps -e .
	touch $(COLAB_STAMP)

setup-colab: $(COLAB_STAMP)

# Jupyter refuses to run as root unless told to (containers, some cloud machines).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: setup
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

test: setup lint test-unit test-notebooks test-colab test-browser

lint: setup
	$(PY) -m ruff check .
	$(VENV)/bin/actionlint .github/workflows/*.yml

test-unit: setup
	$(PARALLEL) $(PY) -m pytest tests -q -n 2 --ignore=tests/browser

test-notebooks: setup
	$(PARALLEL) $(PY) -m pytest $(NBVAL) -n 2 --dist loadscope notebooks

# Every notebook under nbval, and the widget and explorer tests (Matplotlib 3.10's own text
# cache among them), with Colab's library versions.
test-colab: setup-colab
	$(COLAB_PY) -m pytest tests/live tests/explorers -q
	$(PARALLEL) $(COLAB_PY) -m pytest $(NBVAL) -n 2 --dist loadscope notebooks

# JupyterLab driven by headless Chromium: run each lesson, move a slider, see the figure change.
BROWSER_ARTIFACTS := test-artifacts/browser
NO_BROWSER := !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

test-browser: setup
	@echo "browser test: screenshots in $(BROWSER_ARTIFACTS)/"
	BROWSER_ARTIFACTS=$(BROWSER_ARTIFACTS) $(PY) -m pytest tests/browser -v -s -rs -p no:cacheprovider
	@if [ -x "$${CHROMIUM:-/usr/bin/chromium}" ]; then \
		echo "browser test: before/after screenshots saved in $(BROWSER_ARTIFACTS)/"; \
	else \
		echo; echo "$(NO_BROWSER)"; echo "!!! THE BROWSER TEST DID NOT RUN: no chromium at $${CHROMIUM:-/usr/bin/chromium}."; \
		echo "!!! Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium,"; \
		echo "!!! then run: make test-browser"; echo "$(NO_BROWSER)"; \
	fi

# Re-execute every notebook in place, storing outputs and widget state.
notebooks: setup
	$(PY) tools/run_notebooks.py notebooks/*.ipynb

# One notebook: make notebook NB=notebooks/00_order_blindness.ipynb
notebook: setup
	$(PY) tools/run_notebooks.py $(NB)

bench: setup bench-sliders
	$(PY) benchmarks/rope_speed.py
	$(PY) benchmarks/train_speed.py

bench-sliders: setup
	$(PY) benchmarks/slider_latency.py

clean:
	rm -rf $(VENV) $(COLAB_VENV)
