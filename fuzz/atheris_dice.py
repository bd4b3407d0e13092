"""Coverage-guided fuzzing of ``fracas.dice.parse`` with atheris (the ``fuzz`` extra).

Run outside the test suite::

    .venv/bin/python -m pip install -e '.[fuzz]'
    .venv/bin/python fuzz/atheris_dice.py --seconds 300

Each input picks a system and reads the rest of the bytes as text. It passes when
``parse`` returns a mechanic or raises ``DiceError`` with a one-line message; any other
exception, or an input over 5 s of CPU (an ``ITIMER_PROF`` watchdog), is a failure. Ends with one
JSON line ``{"harness", "inputs", "failures", "slowest_s", "max_rss_mb"}`` and exits 1 if
any input failed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import time
from types import FrameType

import atheris

with atheris.instrument_imports():
    from fracas.dice import SYSTEMS, DiceError, Mechanic, parse

HARNESS = "atheris_dice"
#: Seconds one input may take before it counts as a failure.
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


class Run:
    """The tally of one run; prints the summary and leaves once the time is up."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.inputs = 0
        self.failures = 0
        self.slowest = 0.0
        self.dog = Watchdog()

    def one(self, data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        system = fdp.PickValueInList(list(SYSTEMS))
        text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
        self.inputs += 1
        why = ""
        started = self.dog.start()
        try:
            try:
                mech = parse(system, text)
                if not isinstance(mech, Mechanic):
                    why = f"parse returned {type(mech).__name__}"
            except DiceError as err:
                if "\n" in str(err) or not str(err):
                    why = f"message not one line: {err!s:.200}"
            except TooSlow:
                raise
            except Exception as err:  # anything else is what we look for
                why = f"{type(err).__name__}: {err}"
            spent = self.dog.stop(started)
        except TooSlow:
            spent = self.dog.stop(started)
            why = f"took over {INPUT_LIMIT_S} s of CPU"
        self.slowest = max(self.slowest, spent)
        if why:
            self.failures += 1
            if self.failures <= 20:
                print(f"FAIL {system} {text[:120]!r}: {why[:300]}", file=sys.stderr, flush=True)
        if time.monotonic() > self.deadline:
            self.finish()

    def finish(self) -> None:
        summary = {
            "harness": HARNESS,
            "inputs": self.inputs,
            "failures": self.failures,
            "slowest_s": round(self.slowest, 3),
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
        print(json.dumps(summary), flush=True)
        # libFuzzer would otherwise keep going; leave at once with our own status
        os._exit(1 if self.failures else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run")
    args, rest = parser.parse_known_args()
    run = Run(args.seconds)
    # -timeout=0: our watchdog, not libFuzzer's, times the inputs; -max_len: long texts too
    atheris.Setup([sys.argv[0], "-timeout=0", "-max_len=4096", *rest], run.one)
    atheris.Fuzz()
    run.finish()


if __name__ == "__main__":
    main()
