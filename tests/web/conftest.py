"""The stores the web tests run on: SQLite, and PostgreSQL in a cluster the run starts
itself (skipped, saying why, only when PostgreSQL's binaries are absent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
