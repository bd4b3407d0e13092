"""A ``fracas serve`` of the benchmarks' own: started on a free port of 127.0.0.1, ready
once it answers ``/health``, stopped by its PID (its children too: worker processes, the
odds' worker), whatever happens."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import psutil

#: The GM token the benchmarks' servers are started with.
TOKEN = "benchmark-game-master-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(db: str, *options: str) -> Iterator[tuple[psutil.Process, str]]:
    """``fracas serve --db DB`` with ``options``, its process and its URL."""
    port = free_port()
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
        TOKEN,
        *options,
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"fracas serve ended with {process.returncode}")
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 60 s")
            time.sleep(0.05)  # polling the health URL: a condition
        yield psutil.Process(process.pid), url
    finally:
        children = []
        with contextlib.suppress(psutil.NoSuchProcess):
            children = psutil.Process(process.pid).children(recursive=True)
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(30)
        for child in children:  # a worker process, should it outlive the server
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
