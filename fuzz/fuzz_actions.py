"""Fuzz action lines through ``Action.parse`` and ``Encounter.push``.

    python fuzz/fuzz_actions.py --seconds 60 [--seed N]

Each input is an action line built from the examples' actors, verbs and options,
with quotes, backslashes, comments, control characters and odd Unicode mixed in,
sometimes hundreds of kilobytes long. A line that parses must round-trip through
its text; it is then pushed onto one of the examples' encounters, part-way through
its script. Refusals are ``ValueError``s; anything else, or over 5 s or 1 GB, fails.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import EXAMPLES, main, mutate_text

SCRIPTS = sorted(EXAMPLES.glob("*/*.script"))
LINES = [
    line.strip()
    for script in SCRIPTS
    for line in script.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.strip().startswith("#")
]
WORDS = sorted({word for line in LINES for word in line.split()})
ODD = [
    "'",
    '"',
    "\\",
    "=",
    "#",
    "''",
    '""',
    "\\'",
    "x=",
    "=x",
    "a=b=c",
    "\x00",
    "\x1b",
    "\t",
    "\n",
    "\r",
    "\u2028",
    "\ufeff",
    "\udcff",
    "é",
    "ü",
    "名",
    "🙂",
    "-",
    "--",
    "gm",
    "*",
]


def generate(rng: random.Random) -> tuple[int, str]:
    which = rng.randrange(len(SCRIPTS))
    roll = rng.random()
    if roll < 0.02:  # a very long line, of the shapes that once were quadratic
        size = rng.choice([2_000, 50_000, 400_000, 5_000_000])
        return which, rng.choice(["ylva speak text=", "ylva ", "'", "a b c="]) + "a " * (size // 2)
    if roll < 0.5:
        return which, mutate_text(rng, rng.choice(LINES), ODD)
    count = rng.randint(0, 8)
    words = [rng.choice(WORDS + ODD) for _ in range(count)]
    if rng.random() < 0.3:
        words.append(f"{rng.choice(WORDS)}={rng.choice(WORDS + ODD)}")
    return which, " ".join(words)


def prepare() -> list[Any]:
    from fracas.engine import Encounter, RandomDice
    from fracas.files import read_script
    from fracas.table import encounterfile

    encounters = []
    for script in SCRIPTS:
        ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
        parsed = read_script(script)
        enc: Encounter[Any] = Encounter(ruleset, setup, RandomDice(parsed.seed))
        for _, line in parsed.lines[: len(parsed.lines) // 2]:
            enc.push(line)
        encounters.append(enc)
    return encounters


def check(encounters: list[Any], item: tuple[int, str]) -> None:
    from fracas.engine import Action, RandomDice
    from fracas.engine.actions import MAX_ACTION_CHARS

    which, line = item
    action = Action.parse(line)
    text = str(action)
    if len(text) <= MAX_ACTION_CHARS:
        assert Action.parse(text) == action, (line, text)
    encounters[which].copy(dice=RandomDice(0)).push(action)


if __name__ == "__main__":
    main(
        "fuzz_actions",
        generate,
        check,
        prepare,
        describe=lambda item: item[1].encode("utf-8", "surrogatepass"),
    )
