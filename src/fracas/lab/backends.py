"""Where simulations run: this process, a pool of local processes, or a Dask cluster,
each a :data:`~fracas.lab.runner.Runner` set up once for many simulations (a sweep).

(Apart from :mod:`.runner`, which the Dask workers import, so that neither imports the
other.)"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial

from numpy.random import SeedSequence

from fracas.engine.capabilities import Outcome
from fracas.lab.runner import Progress, Runner, SimSpec, _pool, check_workers, run_local

__all__ = ["backend", "run"]


@contextmanager
def backend(workers: int = 1, dask: str | None = None) -> Iterator[Runner]:
    """A way to run batches, set up once for many simulations (a sweep): this process,
    a pool of ``workers`` local processes, or the Dask cluster at ``dask``."""
    check_workers(workers)
    if dask is not None:
        from fracas.lab import dask as lab_dask  # only when asked: Dask is slow to import

        with lab_dask.connect(dask) as client:
            yield partial(lab_dask.run_on, client)
        return
    if workers <= 1:
        yield partial(run_local, workers=1)
        return
    with _pool(workers) as pool:
        yield partial(run_local, workers=workers, pool=pool)


def run(
    spec: SimSpec,
    all_seeds: Sequence[SeedSequence],
    workers: int = 1,
    dask: str | None = None,
    progress: Progress | None = None,
) -> list[Outcome]:
    """All runs on local processes, or on the Dask cluster at ``dask``."""
    with backend(workers, dask) as runner:
        return runner(spec, all_seeds, progress)
