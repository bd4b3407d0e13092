"""Python's cyclic garbage collector, paused while a replay builds what it will keep.

Loading a long save builds tens of thousands of objects that all live on (log entries,
their events, the states kept for undo). The collector, triggered by allocations,
would traverse them again and again only to find nothing to free: nearly half of the
time of loading 20,000 actions. :func:`paused` turns it off for such a block and back
on after (only if it was on); blocks may nest and run in several threads at once.

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

__all__ = ["paused"]

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
