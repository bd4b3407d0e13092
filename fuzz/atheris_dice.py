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
import sys
import time
from pathlib import Path

import atheris
from _watchdog import INPUT_LIMIT_S, TooSlow, Watchdog

with atheris.instrument_imports():
    from fracas.dice import SYSTEMS, DiceError, Mechanic, parse

HARNESS = "atheris_dice"
#: Seconds one input may take before it counts as a failure.


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
    out = Path(__file__).resolve().parent.parent / "build" / "fuzz" / HARNESS
    out.mkdir(parents=True, exist_ok=True)
    prefix = f"-artifact_prefix={out}/"  # crash files there, not in the working folder
    atheris.Setup([sys.argv[0], prefix, "-timeout=0", "-max_len=4096", *rest], run.one)
    atheris.Fuzz()
    run.finish()


if __name__ == "__main__":
    main()
