"""A throwaway PostgreSQL cluster for the tests, from Debian's binaries: initdb and
pg_ctl in a temporary folder, on a free loopback port, as a user that is not root (the
``postgres`` user when the tests run as root), stopped at the end."""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, text
from tests.web.servers import free_port

_numbers = itertools.count(1)


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
        self.folder = Path(tempfile.mkdtemp(prefix="fracas-pg-", dir="/tmp"))
        self.port = free_port()
        self.user: list[str] = []
        if os.geteuid() == 0:
            os.chown(self.folder, pwd.getpwnam("postgres").pw_uid, -1)
            self.user = ["runuser", "-u", "postgres", "--"]
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "fracas", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        # -w: pg_ctl returns once the server accepts connections.
        self._run(
            "pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        self.data = data

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.user, str(self.bin / program), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://fracas@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """The URL of a new, empty database."""
        name = f"test_{next(_numbers)}"
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
        engine.dispose()
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
