"""Fuzz the web app through its ASGI interface, in process: every form of the GM's and a
player's pages (campaigns, characters and ledger entries, the library's battlefields and
encounters, tables' actions, dice, links, rounds and posts), the uploads of campaigns,
battlefields and encounters (mutated example YAML), and pages under hostile names.

    python fuzz/fuzz_web.py --seconds 60 [--seed N]

Each input is a seed that :func:`_web.request` turns into one request against a store
that keeps what earlier inputs made; an answer of 500 or more, an exception out of the
app, or over 5 s is a failure (a refusal is a 4xx page or a redirect).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import main


class _Never(Exception):
    """Nothing the app raises is a refusal: it answers refusals as pages."""


def generate(rng: random.Random) -> int:
    return rng.randrange(2**63)


def prepare() -> Any:
    from _web import site

    return site()


def check(place: Any, seed: int) -> None:
    from _web import send

    send(place, seed)


def describe(seed: int) -> bytes:
    return f"seed {seed}: rerun with _web.request(site(), {seed})\n".encode()


if __name__ == "__main__":
    main("fuzz_web", generate, check, prepare, refusals=(_Never,), describe=describe)
