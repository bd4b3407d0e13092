"""What the atheris harnesses share: the tally of a run, its one JSON line, and its start.

Each harness checks one input and reports why it failed (``""`` when it passed) with the
CPU seconds it took; :class:`Tally` counts, prints the first failures, and once the time
is up prints the summary every harness prints and leaves with its status.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import atheris
from _watchdog import INPUT_LIMIT_S


class Tally:
    """The tally of one run; prints the summary and leaves once the time is up."""

    def __init__(self, harness: str, seconds: float) -> None:
        self.harness = harness
        self.deadline = time.monotonic() + seconds
        self.inputs = 0
        self.failures = 0
        self.slowest = 0.0

    def record(self, label: str, why: str, spent: float) -> None:
        """One input checked: ``why`` it failed (``""``: it passed), in ``spent`` s of CPU."""
        self.inputs += 1
        if spent > INPUT_LIMIT_S and not why:
            why = f"took {spent:.1f} s of CPU, over {INPUT_LIMIT_S}"
        self.slowest = max(self.slowest, spent)
        if why:
            self.failures += 1
            if self.failures <= 20:
                print(f"FAIL {label[:120]!r}: {why[:300]}", file=sys.stderr, flush=True)
        if time.monotonic() > self.deadline:
            self.finish()

    def finish(self) -> None:
        summary = {
            "harness": self.harness,
            "inputs": self.inputs,
            "failures": self.failures,
            "slowest_s": round(self.slowest, 3),
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
        print(json.dumps(summary), flush=True)
        # libFuzzer would otherwise keep going; leave at once with our own status
        os._exit(1 if self.failures else 0)


def run(
    harness: str,
    about: str,
    one: Callable[[Tally], Callable[[bytes], None]],
    libfuzzer: list[str],
) -> None:
    """Parse ``--seconds``, then fuzz ``one(tally)`` with libFuzzer's ``libfuzzer`` options
    (crash files under build/fuzz/HARNESS, not in the working folder)."""
    parser = argparse.ArgumentParser(description=about)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run")
    args, rest = parser.parse_known_args()
    tally = Tally(harness, args.seconds)
    out = Path(__file__).resolve().parent.parent / "build" / "fuzz" / harness
    out.mkdir(parents=True, exist_ok=True)
    prefix = f"-artifact_prefix={out}/"
    atheris.Setup([sys.argv[0], prefix, *libfuzzer, *rest], one(tally))
    atheris.Fuzz()
    tally.finish()
