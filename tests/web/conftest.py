"""The stores the web tests run on: SQLite, and PostgreSQL in a cluster the run starts
itself (skipped, saying why, only when PostgreSQL's binaries are absent); the browser of
the browser tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.pg import Cluster, binaries


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    folder = binaries()
    if folder is None:
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    cluster = Cluster(folder)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new store of each kind: an empty SQLite file (tests/conftest.py fills it with a
    store made by Alembic as it opens); a PostgreSQL database made by Alembic earlier in
    the run, copied (dropped after its test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
        return
    cluster: Cluster = request.getfixturevalue("postgres")
    url = cluster.database(migrated=True)
    yield url
    cluster.drop(url)


@pytest.fixture(scope="session")
def chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """Debian's Chromium under Playwright, started once in a test process (Playwright's
    driver and a browser take ~1 s to start), and the event loop Playwright drives it
    from. Between two of its calls Playwright leaves that loop marked as running in this
    thread; it is so only during a browser test (see ``browser``), never in another test."""
    from tests.web.test_browser import ARGS, CHROMIUM, playwright  # skips without them

    driver = playwright.sync_playwright().start()
    try:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    except BaseException:
        driver.stop()
        raise
    loop = asyncio.get_running_loop()
    asyncio._set_running_loop(None)
    yield launched, loop
    asyncio._set_running_loop(loop)
    try:
        launched.close()
    finally:
        driver.stop()
        asyncio._set_running_loop(None)


@pytest.fixture
def browser(chromium: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[Any]:
    """The shared browser for one test; the contexts (pages) it opened are closed after
    it, so that no page of a stopped server goes on reconnecting in a later test."""
    launched, loop = chromium
    asyncio._set_running_loop(loop)
    try:
        yield launched
        for context in launched.contexts:
            context.close()
    finally:
        asyncio._set_running_loop(None)
