"""A throwaway PostgreSQL cluster for the tests, from Debian's binaries: initdb and
pg_ctl in a temporary folder (in memory, /dev/shm, when there is room: a database is made
there about ten times faster than on disk), on a free loopback port, as a user that is not
root (the ``postgres`` user when the tests run as root), stopped at the end. Each test
worker (pytest-xdist) starts a cluster of its own."""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from tests.web.servers import PORT_TRIES, free_port

_numbers = itertools.count(1)
#: The room /dev/shm must have for a cluster to be made there (a test's database is ~8 MB).
SHM_ROOM = 2 * 2**30


def scratch() -> str:
    """/dev/shm when it is there, writable and roomy; else /tmp (a short path: the
    cluster's Unix socket lives in the folder and such paths are limited to ~100 bytes)."""
    try:
        if os.access("/dev/shm", os.W_OK) and shutil.disk_usage("/dev/shm").free > SHM_ROOM:
            return "/dev/shm"
    except OSError:
        pass
    return "/tmp"


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl, or ``None``."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


class Cluster:
    """A cluster of its own; :meth:`database` makes a fresh database for one test."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="fracas-pg-", dir=scratch()))
        self.user: list[str] = []
        self._template = ""
        self._admin_engine: Engine | None = None
        if os.geteuid() == 0:
            os.chown(self.folder, pwd.getpwnam("postgres").pw_uid, -1)
            self.user = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "fracas", "--no-sync")
        log = self.folder / "log"
        for attempt in range(1, PORT_TRIES + 1):
            self.port = free_port()
            options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
            log.unlink(missing_ok=True)
            try:
                # -w: pg_ctl returns once the server accepts connections.
                self._run(
                    "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(log), "-w", "start"
                )
                break
            except subprocess.CalledProcessError:
                taken = (
                    "already in use" in log.read_text(errors="replace") if log.exists() else False
                )
                if not taken or attempt == PORT_TRIES:
                    shutil.rmtree(self.folder, ignore_errors=True)
                    raise
        try:
            # FILE_COPY (PostgreSQL 15+) copies the template's files instead of logging them.
            self.strategy = " STRATEGY FILE_COPY" if self._version() >= 150000 else ""
        except Exception:
            self.stop()
            raise

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.user, str(self.bin / program), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://fracas@127.0.0.1:{self.port}/{database}"

    def _version(self) -> int:
        engine = create_engine(self.url("postgres"))
        with engine.connect() as connection:
            number = int(connection.execute(text("SHOW server_version_num")).scalar_one())
        engine.dispose()
        return number

    def _admin(self, sql: str) -> None:
        """Run ``sql`` on the ``postgres`` database, over one connection kept for the run
        (a new one for each test's CREATE and DROP cost more than they do)."""
        if self._admin_engine is None:
            self._admin_engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        with self._admin_engine.connect() as connection:
            connection.execute(text(sql))

    def database(self, migrated: bool = False) -> str:
        """The URL of a new, empty database; ``migrated``: a copy of one that ``Store.open``
        upgraded from empty with Alembic earlier in the run (made once, copied in a few
        milliseconds where the upgrade takes ~0.15 s)."""
        name = f"test_{next(_numbers)}"
        template = f" TEMPLATE {self._migrated()}" if migrated else ""
        self._admin(f"CREATE DATABASE {name}{template}{self.strategy}")
        return self.url(name)

    def _migrated(self) -> str:
        """The database the migrated ones are copied from (no connection left open to it)."""
        if not self._template:
            from fracas.table.store import Store

            url = self.database()
            Store.open(url).engine.dispose()
            self._template = url.rsplit("/", 1)[1]
        return self._template

    def drop(self, url: str) -> None:
        """Drop the database of ``url`` (from :meth:`database`), connections and all."""
        name = url.rsplit("/", 1)[1]
        self._admin(f"DROP DATABASE {name} WITH (FORCE)")

    def stop(self) -> None:
        if self._admin_engine is not None:
            self._admin_engine.dispose()
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
