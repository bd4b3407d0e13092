"""Test-suite plumbing: the `rule` marker and build/rules-coverage.json.

A test names the catalogue rules it checks with ``@pytest.mark.rule("H-DICE-1")``.
At the end of the run every rule ID maps to the passing tests that cite it.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
COVERAGE_FILE = ROOT / "build" / "rules-coverage.json"
CATALOGUE = ROOT.parent / "shared" / "rules" / "CATALOGUE.md"

# CI runs a bounded number of Hypothesis examples so `make test` stays quick.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=150, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test plays in a store of its own, never in the user's."""
    monkeypatch.setenv("FRACAS_DB", f"sqlite:///{tmp_path / 'tables.db'}")


_cited: dict[str, set[str]] = defaultdict(set)
_passed: dict[str, bool] = {}


def _rule_ids(item: pytest.Item) -> list[str]:
    return [rid for mark in item.iter_markers("rule") for rid in mark.args]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    ids = _rule_ids(item)
    if not ids:
        return
    ok = _passed.get(item.nodeid, True)
    if report.when == "call":
        ok = ok and report.passed
    elif report.failed or report.skipped:
        ok = False
    _passed[item.nodeid] = ok
    for rid in ids:
        _cited[rid].add(item.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _cited:
        return
    coverage = {
        rid: sorted(n for n in nodes if _passed.get(n)) for rid, nodes in sorted(_cited.items())
    }
    COVERAGE_FILE.parent.mkdir(parents=True, exist_ok=True)
    COVERAGE_FILE.write_text(json.dumps(coverage, indent=2) + "\n", encoding="utf-8")
