"""Fuzz the YAML loader through the encounter loader: mutations of the examples.

    python fuzz/fuzz_yaml.py --seconds 60 [--seed N]

Each input is an example encounter with its encounter file or one of its campaign
files mutated (control characters, tags, anchors and aliases, deep nesting, odd
scalars, a "billion laughs"). It is loaded with :func:`fracas.table.encounterfile.load`,
started, saved and loaded again: a refusal must be a one-line-per-problem
``ValueError``; anything else, or over 5 s or 1 GB, is a failure.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import BILLION_LAUGHS, EXAMPLES, YAML_SNIPPETS, main, mutate_text

FOLDERS = sorted(p for p in EXAMPLES.iterdir() if p.is_dir())


def _texts() -> dict[str, dict[str, str]]:
    return {
        folder.name: {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.yaml")}
        for folder in FOLDERS
    }


TEXTS = _texts()
#: Each ruleset's folder of examples and its encounter files (examples/plugins holds none).
ENCOUNTERS = {
    folder: found
    for folder, files in TEXTS.items()
    if (found := sorted(name for name, text in files.items() if "combatants:" in text))
}


def generate(rng: random.Random) -> tuple[str, str, str, str]:
    folder = rng.choice(sorted(ENCOUNTERS))
    encounter = rng.choice(ENCOUNTERS[folder])
    target = encounter if rng.random() < 0.5 else rng.choice(sorted(TEXTS[folder]))
    text = TEXTS[folder][target]
    roll = rng.random()
    if roll < 0.03:
        text = BILLION_LAUGHS + text
    elif roll < 0.05:
        text = text + "\n" + "x: " + "[" * rng.randint(50, 100_000)
    else:
        text = mutate_text(rng, text, YAML_SNIPPETS)
    return folder, encounter, target, text


def prepare() -> Path:
    import fracas.table.encounterfile  # noqa: F401  (imported once, before the inputs)

    return Path(tempfile.mkdtemp(prefix="fuzz-yaml-"))


def check(scratch: Path, item: tuple[str, str, str, str]) -> None:
    from fracas.engine import Encounter, RandomDice
    from fracas.table import encounterfile

    folder, encounter, target, text = item
    for name, original in TEXTS[folder].items():
        (scratch / name).write_text(text if name == target else original, encoding="utf-8")
    ruleset, setup, _ = encounterfile.load(scratch / encounter)
    played: Encounter[Any] = Encounter(ruleset, setup, RandomDice(1))
    again = Encounter.load(json.loads(played.dumps()), ruleset)
    assert again.save()["setup"] == played.save()["setup"]


def describe(item: tuple[str, str, str, str]) -> bytes:
    folder, encounter, target, text = item
    return f"# {folder}/{encounter}, {target} mutated\n{text}".encode("utf-8", "replace")


if __name__ == "__main__":
    main("fuzz_yaml", generate, check, prepare, describe=describe)
