"""Runs on a Dask cluster: the same pure batches as the local pool, as Dask tasks.

``tcp://host:8786`` connects to a running scheduler (started with ``dask scheduler``,
its workers with ``dask worker tcp://host:8786``); ``local:N`` starts a LocalCluster
of N worker processes for the run. Each task is one batch of runs with the spec, as
:func:`~fracas.lab.runner.batches` splits them: a few dozen tasks a worker for the
engine, shrinking toward the end, two for the kernel (Dask's advice: pure tasks, not
too many).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from numpy.random import SeedSequence

from fracas.lab.playout import Outcome
from fracas.lab.runner import Progress, SimSpec, batches, check_workers, run_batch

#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 3


def parse_address(address: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N``, else ``("remote", address)``; :class:`ValueError`
    for anything else.

    >>> parse_address("local:2"), parse_address("tcp://10.0.0.5:8786")
    (('local', 2), ('remote', 'tcp://10.0.0.5:8786'))
    """
    if address.startswith("local:"):
        count = address.partition(":")[2]
        if not count.isdigit() or len(count) > 6 or int(count) < 1:
            raise ValueError(f"--dask {address}: local:N needs a number of workers, as local:2")
        try:
            check_workers(int(count))
        except ValueError as err:
            raise ValueError(f"--dask {address}: {err}") from None
        return "local", int(count)
    if "://" in address or ":" in address:
        return "remote", address
    raise ValueError(f"--dask {address}: give a scheduler address (tcp://host:8786) or local:N")


@contextmanager
def connect(address: str, timeout: float | None = None) -> Iterator[Any]:
    """A Dask client for ``address``; :class:`ValueError` if no scheduler answers
    within ``timeout`` seconds (:data:`CONNECT_TIMEOUT` by default)."""
    from distributed import Client, LocalCluster

    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    kind, where = parse_address(address)
    if kind == "local":
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=int(where),
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        )
        try:
            with Client(cluster) as client:  # type: ignore[no-untyped-call]
                yield client
        finally:
            cluster.close()
        return
    try:
        client = Client(str(where), timeout=timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as err:
        raise ValueError(
            f"no Dask scheduler answers at {where} within {timeout:g} s ({type(err).__name__})"
        ) from None
    try:
        yield client
    finally:
        client.close()  # type: ignore[no-untyped-call]


def run_on(
    client: Any,
    spec: SimSpec,
    all_seeds: Sequence[SeedSequence],
    progress: Progress | None = None,
) -> list[Outcome]:
    """All runs of ``spec`` as batches on the cluster of ``client``, in order."""
    from distributed import as_completed

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    parts = batches(all_seeds, workers, spec.engine)
    # The spec is small (a setup and a few names): it travels with each task, so a worker
    # lost and replaced mid-run takes nothing with it that the others need.
    futures = [client.submit(run_batch, spec, part, pure=False) for part in parts]
    index = {f.key: i for i, f in enumerate(futures)}
    results: dict[int, list[Outcome]] = {}
    for future in as_completed(futures):  # type: ignore[no-untyped-call]
        i = index[future.key]
        results[i] = future.result()
        if progress:
            progress(len(parts[i]))
    return [o for i in range(len(parts)) for o in results[i]]


__all__ = ["CONNECT_TIMEOUT", "connect", "parse_address", "run_on"]
