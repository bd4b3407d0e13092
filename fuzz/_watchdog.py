"""The CPU-time watchdog the dice harnesses share: an input that runs past
:data:`INPUT_LIMIT_S` seconds of this process's CPU time is interrupted and counted."""

from __future__ import annotations

import signal
import time
from types import FrameType

#: CPU seconds one input may take before it counts as a failure.
INPUT_LIMIT_S = 5.0


class TooSlow(Exception):
    """Raised by the watchdog inside an input that ran past :data:`INPUT_LIMIT_S`."""


class Watchdog:
    """Interrupts an input after :data:`INPUT_LIMIT_S` seconds of this process's CPU time
    (``ITIMER_PROF``), so that other work on a shared machine does not count against it."""

    def __init__(self) -> None:
        self.armed = False
        signal.signal(signal.SIGPROF, self._fire)

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:  # a signal landing just after the input ended is ignored
            self.armed = False
            raise TooSlow

    def start(self) -> float:
        self.armed = True
        signal.setitimer(signal.ITIMER_PROF, INPUT_LIMIT_S)
        return time.process_time()

    def stop(self, started: float) -> float:
        """Disarm; the CPU seconds the input took."""
        self.armed = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        return time.process_time() - started
