"""Fuzz the command line end to end, in process (Typer's CliRunner): ``play`` of mutated
encounters and scripts, ``import`` of mutated saves, ``export``, ``round open/post/
status/close`` and ``fracas post`` of a table played by post, ``campaign import/show``,
``roll`` and ``odds``, with hostile names, sides and numbers (see fuzz/_cli.py).

    python fuzz/fuzz_cli.py --seconds 60 [--seed N]

A failure is an exception out of a command (not its exit), a traceback in its output, an
exit status other than 0, 1 or 2, or over 5 s.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import main


class _Never(Exception):
    """Nothing a command raises is a refusal: it says no in one line and exits."""


def generate(rng: random.Random) -> int:
    return rng.randrange(2**63)


def prepare() -> Any:
    from _cli import shell

    return shell()


def check(place: Any, seed: int) -> None:
    from _cli import run

    run(place, seed)


def describe(seed: int) -> bytes:
    return f"seed {seed}: rerun with _cli.run(shell(), {seed})\n".encode()


if __name__ == "__main__":
    main("fuzz_cli", generate, check, prepare, refusals=(_Never,), describe=describe)
