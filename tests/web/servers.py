"""``fracas serve`` as a subprocess on a free loopback port, waited on by its health URL
and stopped by its PID."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

GM_TOKEN = "the-game-master-secret-for-tests"
#: How long a server may take to answer its health URL (a wait on a condition, not a sleep).
START_LIMIT = 60.0
#: How many free ports a server is started on before giving up.
PORT_TRIES = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str

    def gm(self) -> httpx.Client:
        client = httpx.Client(base_url=self.url, timeout=30)
        client.get(f"/gm/login?token={GM_TOKEN}")
        return client

    def workers(self) -> list[int]:
        """The PIDs of the server's processes under its own (``--workers``), deepest last."""
        found: list[int] = []
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                with contextlib.suppress(OSError):
                    kids = [int(k) for k in task.read_text().split()]
                    found += kids
                    todo += kids
        return found

    def kill(self) -> None:
        """SIGKILL: the server (and its worker processes) get no chance to tidy up."""
        if self.process.poll() is None:
            workers = self.workers()
            os.kill(self.process.pid, signal.SIGKILL)
            for pid in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.process.wait(30)


def start(db: str, *extra: str) -> Server:
    """A server on ``db`` with the ``extra`` options of ``fracas serve``, on a free port,
    tried again on another when the port was taken in the moment between finding it free
    and binding it (by another process or test worker)."""
    for attempt in range(1, PORT_TRIES + 1):
        try:
            return _start(db, free_port(), extra)
        except PortTaken:
            if attempt == PORT_TRIES:
                raise
    raise AssertionError("unreachable")


class PortTaken(RuntimeError):
    """The server could not bind its port."""


def _start(db: str, port: int, extra: tuple[str, ...]) -> Server:
    command = [
        sys.executable,
        "-c",
        "from fracas.cli import main; main()",
        "serve",
        "--db",
        db,
        "--port",
        str(port),
        "--gm-token",
        GM_TOKEN,
        *extra,
    ]
    return launch(command, port)


def launch(command: list[str], port: int, env: dict[str, str] | None = None) -> Server:
    """Run ``command`` (a server on ``port``) and wait for its health URL."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_LIMIT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = process.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            if "address already in use" in said:
                raise PortTaken(said)
            raise RuntimeError(f"the server stopped: {said}")
        if healthy(port):
            return Server(process, url)
        time.sleep(0.02)  # polling the condition above, not waiting a fixed time
    os.kill(process.pid, signal.SIGKILL)
    process.wait(30)
    raise RuntimeError("the server did not answer its health URL")


def healthy(port: int) -> bool:
    """Whether a server on ``port`` answers its health URL. (The standard library's client:
    ``httpx.get`` makes a client, and loads the CA certificates, at every call: ~20 ms of
    the processor the starting server needs.)"""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        connection.request("GET", "/health")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


@contextmanager
def running(db: str, *extra: str) -> Iterator[Server]:
    server = start(db, *extra)
    try:
        yield server
    finally:
        server.kill()
