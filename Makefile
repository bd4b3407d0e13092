# The two set-up commands a newcomer runs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest browser bench fuzz clean screenshots compiled test-pure

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Every install brings the `compiled` extra: what `make compiled` needs (mypy, setuptools).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[compiled]'
	touch $@

# The dev install brings the example plugin too (examples/plugins/pitfight), which the
# tests play as any ruleset installed beside fracas.
PLUGIN := examples/plugins/pitfight

$(VENV)/.dev-installed: pyproject.toml $(PLUGIN)/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,compiled]'
	$(BIN)/python -m pip install --quiet -e $(PLUGIN)
	touch $(VENV)/.installed $@

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench,compiled]'
	touch $(VENV)/.installed $@

$(VENV)/.fuzz-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,fuzz]'
	touch $@

# The web table on the default store, with a table for every example (made when absent).
run: $(VENV)/.installed compiled
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

# The whole suite runs on the compiled hot path when it is built (pure otherwise), then the
# suites that pin play run again pure (FRACAS_PURE=1): both builds play the same games.
test: lint typecheck browser compiled pytest test-pure

# The pure pass (about 20 s) keeps the whole run's build/rules-coverage.json (it would
# write its own). Of the kernel's agreement, the exact replays (the engine's dice replayed
# by the kernel to the same end) of the examples and of random builds. The doctests too: a
# compiled module shows pytest none of its own.
AGREEMENT := tests/lab/test_kernel_agreement.py
PURE_SUITES := src/fracas tests/golden tests/hidden tests/heimr/test_state_clone.py \
	$(AGREEMENT)::test_the_kernel_replays_each_covered_example_to_the_engines_end \
	$(AGREEMENT)::test_random_builds_replay_exactly
test-pure: $(VENV)/.dev-installed
	@[ ! -f build/rules-coverage.json ] || cp build/rules-coverage.json build/.rules-coverage.json
	env -u PYTHONDONTWRITEBYTECODE FRACAS_PURE=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal \
		$(PURE_SUITES); rc=$$?; \
	[ ! -f build/.rules-coverage.json ] || mv build/.rules-coverage.json build/rules-coverage.json; \
	exit $$rc

# The hot path compiled with mypyc (tools/compile.py, about a minute) into build/compiled, a
# copy of src rebuilt whenever a source changes; src keeps no .so to shadow a .py being
# edited. Every interpreter of the venv starts on it while it matches src/fracas file for
# file (its manifest; a hook in site-packages), pure from src otherwise or with
# FRACAS_PURE=1. Without a C compiler, or if the build fails, it runs pure (a failed build
# with a compiler at hand fails the make where CI is set). The stamp is in
# the venv: a new venv builds (and hooks) again.
COMPILED := $(VENV)/.compiled
$(COMPILED): tools/compile.py tools/_fracas_compiled.py \
		$(shell find src/fracas -name __pycache__ -prune -o -type f -print) | $(VENV)/.installed
	nice -n 10 $(BIN)/python tools/compile.py
	touch $@

compiled: $(COMPILED)

# As for the tests, bytecode is cached (PYTHONDONTWRITEBYTECODE unset, the sources compiled
# first): a command is timed as it starts once installed, not compiling fracas (or the
# sources of the earlier commits it is compared with) at every start.
BENCH := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python
bench: $(VENV)/.bench-installed compiled
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
