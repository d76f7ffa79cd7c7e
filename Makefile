# svctui — two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# the suite runs on 4 pytest-xdist workers: on 2 cores that is 400 s where 2 workers took 510 s, since many tests
# wait on the demo server, a rate limit or a terminal; PYTEST_ARGS comes last, so PYTEST_ARGS="-n 0" runs it in one
# process
PYTEST_WORKERS ?= 4

.PHONY: venv demo test lint fmt bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/svctui --demo

test: $(STAMP)
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict

fmt: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) -m bench

screenshots: $(STAMP)
	$(PY) -m svctui.tui.screenshots screenshots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
