# svctui — two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# the suite runs on 4 pytest-xdist workers: on 2 cores that is 400 s where 2 workers took 510 s, since many tests
# wait on the demo server, a rate limit or a terminal; PYTEST_ARGS comes last, so PYTEST_ARGS="-n 0" runs it in one
# process
PYTEST_WORKERS ?= 4

.PHONY: venv lock demo test lint fmt bench screenshots mutate clean

LOCK := requirements-dev.lock
LOCK_VENV := .venv-lock
PIP := $(PY) -m pip --disable-pip-version-check

# Installs the locked dev/test environment with pip alone (hash-checked), then svctui itself without resolving
# anything more: the lock holds the build backend too, so nothing unpinned is fetched.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --require-hashes --no-deps -r $(LOCK)
	$(PIP) install --quiet --no-deps --no-build-isolation -e .
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

# Refreshes the lock from pyproject.toml's ranges (newest versions within them); pip-tools runs in a venv of its
# own, so the lock tool is needed to refresh the lock, never to install from it.
lock:
	test -x $(LOCK_VENV)/bin/pip-compile || ($(PYTHON) -m venv $(LOCK_VENV) \
		&& $(LOCK_VENV)/bin/pip install --quiet --disable-pip-version-check 'pip-tools>=7.6,<7.7')
	CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile --quiet --upgrade --extra dev --all-build-deps --allow-unsafe --generate-hashes \
		--strip-extras --no-emit-index-url --no-emit-find-links --output-file $(LOCK) pyproject.toml

# mutation testing of the code that decides what a request did (docs/TESTING.md): not in CI, for whoever changes
# it; MUTATE_CHILDREN workers (2 on a 2-core machine); mutants/ keeps the results, so a second run redoes only
# the functions that changed
MUTATE_CHILDREN ?= 2
MUTMUT := mutmut>=3.8.1,<3.9
# mutmut is not in the dev lock (it is not needed to test or lint): installed here, in its tested range, on first use
mutate: $(STAMP)
	test -x $(VENV)/bin/mutmut || $(PIP) install --quiet '$(MUTMUT)'
	$(VENV)/bin/mutmut run --max-children $(MUTATE_CHILDREN); status=$$?; \
	$(VENV)/bin/mutmut results; $(PY) tests/tools/mutation_scores.py; exit $$status

bench: $(STAMP)
	$(PY) -m bench

screenshots: $(STAMP)
	$(PY) -m svctui.tui.screenshots screenshots

clean:
	rm -rf $(VENV) $(LOCK_VENV) mutants .pytest_cache .mypy_cache .ruff_cache .hypothesis
