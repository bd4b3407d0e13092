# The two set-up commands a newcomer runs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest browser bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

# The web table on the default store, with a table for every example (made when absent).
run: $(VENV)/.installed
	$(BIN)/fracas serve --demo examples

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (Playwright cannot download its own here);
# installed once, when missing. Without it (no root, no apt) those tests are skipped.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
			>/dev/null 2>&1 || echo "chromium could not be installed: the browser tests will be skipped"; }

# pytest exits 5 when it collects nothing; that is not a failure here.
pytest: $(VENV)/.dev-installed
	$(BIN)/pytest; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; else exit $$rc; fi

test: lint typecheck browser pytest

bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/dice.py --write docs/benchmarks.md
	$(BIN)/python benchmarks/engine.py --write docs/benchmarks.md
	$(BIN)/python benchmarks/web.py --write docs/benchmarks.md

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
