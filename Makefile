# Two commands for a learner: `make lab` and `make test`. Everything else is for maintainers.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

.PHONY: setup lab test test-unit test-notebooks notebooks notebook lint bench clean

$(STAMP): requirements.txt requirements-test.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-test.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

setup: $(STAMP)

# Jupyter refuses to run as root unless told to (containers, some cloud machines).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: setup
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

test: setup lint test-unit test-notebooks

lint: setup
	$(PY) -m ruff check .

test-unit: setup
	$(PY) -m pytest tests -q -n 2

test-notebooks: setup
	$(PY) -m pytest $(NBVAL) -n 2 --dist loadscope notebooks

# Re-execute every notebook in place, storing outputs and widget state.
notebooks: setup
	$(PY) tools/run_notebooks.py notebooks/*.ipynb

# One notebook: make notebook NB=notebooks/00_order_blindness.ipynb
notebook: setup
	$(PY) tools/run_notebooks.py $(NB)

bench: setup
	$(PY) benchmarks/rope_speed.py

clean:
	rm -rf $(VENV)
