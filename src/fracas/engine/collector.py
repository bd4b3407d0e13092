"""Python's cyclic garbage collector, paused where its passes would find nothing to free.

Loading a long save builds tens of thousands of objects that all live on (log entries,
their events, the states kept for undo). The collector, triggered by allocations,
would traverse them again and again only to find nothing to free: nearly half of the
time of loading 20,000 actions. :func:`paused` turns it off for such a block and back
on after (only if it was on); blocks may nest and run in several threads at once. The
switch is the whole process's: a block pauses it for every thread.

A simulated fight leaves no cycles either, but a simulation may run for minutes: there
:func:`paused_alone` pauses it only in a process with no other thread (a worker process,
a command), never in a server or a Dask worker, whose other threads' garbage would pile
up meanwhile.

>>> import gc
>>> with paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused", "paused_alone"]

_lock = threading.Lock()
_depth = 0  # blocks inside paused(), in every thread
_was_enabled = False  # whether the collector ran before the first of them


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (reference counting goes on)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


def _alone() -> bool:
    """Whether this is the process's only thread."""
    return threading.active_count() == 1


@contextmanager
def paused_alone() -> Iterator[None]:
    """:func:`paused` in a process with no other thread; else nothing changes.

    >>> with paused_alone():
    ...     gc.isenabled() is not _alone()
    True
    """
    if not _alone():
        yield
        return
    with paused():
        yield
