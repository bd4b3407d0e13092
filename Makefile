# The two set-up commands a newcomer runs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest browser bench fuzz clean screenshots compiled test-compiled

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The dev install brings the example plugin too (examples/plugins/pitfight), which the
# tests play as any ruleset installed beside fracas.
PLUGIN := examples/plugins/pitfight

$(VENV)/.dev-installed: pyproject.toml $(PLUGIN)/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet -e $(PLUGIN)
	touch $@

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

$(VENV)/.fuzz-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,fuzz]'
	touch $@

# The web table on the default store, with a table for every example (made when absent).
run: $(VENV)/.installed
	$(BIN)/fracas serve --demo examples

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks examples/plugins
	$(BIN)/ruff format --check src tests benchmarks examples/plugins
	$(BIN)/lint-imports

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (Playwright cannot download its own here) and
# the web tests start a throwaway PostgreSQL; both come from Debian's packages, installed
# once, when missing. Without them (no root, no apt) those tests are skipped, saying why.
browser:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) \
			>/dev/null 2>&1 || echo "could not install$$missing: their tests will be skipped"; \
	fi

# The tests run on a worker process per core (pytest-xdist; TEST_WORKERS=0 runs them in
# this one); worksteal hands a worker that is done some of the queue of one still busy.
# pytest exits 5 when it collects nothing; that is not a failure here. Bytecode is cached
# for the run (PYTHONDONTWRITEBYTECODE unset): every worker and every server a test starts
# would otherwise compile the sources again.
TEST_WORKERS ?= auto
pytest: $(VENV)/.dev-installed
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; else exit $$rc; fi

test: lint typecheck browser pytest

# The hot path compiled with mypyc (tools/compile.py, about a minute) into build/compiled, a
# copy of src rebuilt whenever a source changes: PYTHONPATH=build/compiled runs it, and src
# keeps no .so to shadow a .py being edited. Without a C compiler it leaves no copy (pure).
COMPILED := build/compiled/.built
$(COMPILED): $(VENV)/.dev-installed tools/compile.py $(shell find src/fracas -name '*.py')
	nice -n 10 $(BIN)/python tools/compile.py
	touch $@

compiled: $(COMPILED)

# The suites that play through the compiled modules, against the compiled build.
test-compiled: $(COMPILED)
	env PYTHONPATH=build/compiled $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal \
		tests/heimr tests/engine tests/lab tests/hidden tests/golden

# As for the tests, bytecode is cached (PYTHONDONTWRITEBYTECODE unset, the sources compiled
# first): a command is timed as it starts once installed, not compiling fracas (or the
# sources of the earlier commits it is compared with) at every start.
BENCH := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python
bench: $(VENV)/.bench-installed
	$(BENCH) -m compileall -q src
	$(BENCH) benchmarks/dice.py --write docs/benchmarks.md
	$(BENCH) benchmarks/engine.py --write docs/benchmarks.md
	$(BENCH) benchmarks/lab.py --write docs/benchmarks.md --today-from 3c46f05
	$(BENCH) benchmarks/kernel.py --write docs/benchmarks.md
	$(BENCH) benchmarks/kernel_sides.py --write docs/benchmarks.md
	$(BENCH) benchmarks/table_cost.py --write docs/benchmarks.md
	$(BENCH) benchmarks/web.py --write docs/benchmarks.md
	$(BENCH) benchmarks/fight_odds.py --write docs/benchmarks.md

# Every harness in fuzz/ (not the _helpers) for FUZZ_SECONDS each, one after the other;
# each prints one JSON line (libFuzzer may print after it: the JSON line is the one read),
# its other output goes to build/fuzz/NAME.log.
FUZZ_SECONDS ?= 60
fuzz: $(VENV)/.fuzz-installed
	@mkdir -p build/fuzz; status=0; \
	for harness in fuzz/[!_]*.py; do \
	  name=$$(basename $$harness .py); \
	  line=$$($(BIN)/python $$harness --seconds $(FUZZ_SECONDS) 2>build/fuzz/$$name.log | grep '^{"harness"' | tail -n 1); \
	  echo "$$line"; \
	  case "$$line" in *'"failures": 0'*) ;; *) status=1;; esac; \
	done; exit $$status

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache

# The README's screenshots (docs/images/), made from the examples in Debian's Chromium.
screenshots: $(VENV)/.dev-installed browser
	$(BIN)/python -m tests.web.tour docs/images
