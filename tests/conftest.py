"""Test-suite plumbing: the `rule` marker and build/rules-coverage.json.

A test names the catalogue rules it checks with ``@pytest.mark.rule("H-DICE-1")``.
At the end of the run every rule ID maps to the passing tests that cite it. Under
pytest-xdist each worker attaches a test's rule IDs to its reports (``user_properties``)
and the controller, which receives every report, gathers them and writes the file.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

#: The name under which a report carries its test's rule IDs.
RULES = "rules"
#: tests/test_rules_coverage.py runs pytest on a few tests of its own.
pytest_plugins = ["pytester"]

# Hypothesis stays bounded: CI runs a fixed, small number of examples; `make test` a few
# more, drawn afresh each run. HYPOTHESIS_PROFILE=thorough searches longer, by hand.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session", autouse=True)
def _made_stores() -> Iterator[None]:
    """A new SQLite store is a copy of one this process made with Alembic, not made again.

    ``Store.open`` upgrades a new database with Alembic (~70 ms, for every test that opens
    a store). Here, when the file to upgrade is a new, empty one, it receives the bytes of
    a store that the real upgrade made from empty earlier in this process (the same
    migrations, no randomness in them), so every test still plays on a store Alembic made.
    Any other database (older revisions, PostgreSQL, files not empty) is upgraded as ever.
    """
    from fracas.table.store import Store

    upgrade = Store.upgrade
    made: list[bytes] = []

    def new_file(store: Store) -> Path | None:
        url = store.engine.url
        name = url.database or ""
        if url.get_backend_name() != "sqlite" or name in ("", ":memory:"):
            return None
        if name.startswith("file:"):
            return None
        path = Path(name)
        fresh = path.is_file() and path.stat().st_size == 0
        return path if fresh and not Path(f"{name}-wal").exists() else None

    def copied(store: Store) -> None:
        path = new_file(store)
        if path is None:
            upgrade(store)
            return
        if not made:
            with tempfile.TemporaryDirectory() as folder:
                first = Store.open(f"sqlite:///{folder}/made.db", migrate=False)
                upgrade(first)
                first.engine.dispose()  # checkpoints the WAL into the file
                made.append((Path(folder) / "made.db").read_bytes())
        store.engine.dispose()
        with path.open("r+b") as file:  # the file made 0600 by Store.open keeps its mode
            file.write(made[0])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Store, "upgrade", copied)
        yield
    if "tests.web.webtools" in sys.modules:
        sys.modules["tests.web.webtools"].close_portal()


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test plays in a store of its own, never in the user's."""
    monkeypatch.setenv("FRACAS_DB", f"sqlite:///{tmp_path / 'tables.db'}")


_cited: dict[str, set[str]] = defaultdict(set)
_passed: dict[str, bool] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Attach the rule IDs the test cites to each of its reports."""
    outcome = yield
    ids = [rid for mark in item.iter_markers("rule") for rid in mark.args]
    if ids:
        outcome.get_result().user_properties.append((RULES, ids))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count a report towards its rules (in the one process that writes the file)."""
    ids = [rid for name, value in report.user_properties if name == RULES for rid in value]
    if not ids:
        return
    ok = _passed.get(report.nodeid, True)
    if report.when == "call":
        ok = ok and report.passed
    elif report.failed or report.skipped:
        ok = False
    _passed[report.nodeid] = ok
    for rid in ids:
        _cited[rid].add(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _cited or hasattr(session.config, "workerinput"):
        return  # nothing cited, or an xdist worker: its controller writes the file
    coverage = {
        rid: sorted(n for n in nodes if _passed.get(n)) for rid, nodes in sorted(_cited.items())
    }
    path = session.config.rootpath / "build" / "rules-coverage.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(coverage, indent=2) + "\n")
    os.replace(temporary, path)
