"""Fuzz save files through ``Encounter.load``: tampered saves of the examples' games.

    python fuzz/fuzz_saves.py --seconds 60 [--seed N]

The examples' scripted games are played and saved; each input is one of those saves
tampered with: a value anywhere replaced (by text, lists, ``9.5``, ``true``, huge
numbers, deep nesting), a face moved, the events emptied, entries dropped, swapped
or repeated, an action rewritten, or the JSON text itself mutated. It is read with
:func:`fracas.files.loads_save` and replayed with ``Encounter.load``. A refusal must
be one ``SaveError``-like line; a save that loads must be exactly what it records
(the replayed log equals the recorded one). Anything else, or over 5 s or 1 GB, fails.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import EXAMPLES, main, mutate_text

JSON_SNIPPETS = [
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    '"',
    "\\",
    "\\u0000",
    "NaN",
    "1e999",
    "-0",
    "true",
    "null",
    "9" * 5000,
    "[" * 1000,
    "\x00",
    "\udcff",
    "1.5",
]
JUNK: list[Any] = [
    "x",
    [1],
    [[]],
    {},
    None,
    True,
    False,
    1.5,
    9.5,
    -1,
    0,
    10**30,
    "8",
    "",
    [[[[[]]]]],
    {"a": {"b": {"c": []}}},
    "gm begin",
    2**63,
    -(2**63),
]


def _saves() -> list[dict[str, Any]]:
    from fracas.engine import Encounter, RandomDice
    from fracas.files import read_script
    from fracas.table import encounterfile

    saves = []
    for script in sorted(EXAMPLES.glob("*/*.script")):
        ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
        parsed = read_script(script)
        enc: Encounter[Any] = Encounter(ruleset, setup, RandomDice(parsed.seed))
        for _, line in parsed.lines:
            try:
                enc.push(line)
            except ValueError:
                break
        saves.append(enc.save())
    return saves


SAVES = _saves()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*path, index))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return data


def tamper(rng: random.Random, save: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(save)
    log = data["log"]
    op = rng.randrange(8)
    if op == 0:  # any value replaced by junk (the dice state skipped: too many paths)
        paths = [p for p in _paths({k: v for k, v in data.items() if k != "dice"}) if p]
        data = _set(data, rng.choice(paths), copy.deepcopy(rng.choice(JUNK)))
    elif op == 1 and log:  # a face moved by a little, or to something no die shows
        rolls = [r for entry in log for r in entry["rolls"] if r["faces"]]
        if rolls:
            roll = rng.choice(rolls)
            i = rng.randrange(len(roll["faces"]))
            roll["faces"][i] = rng.choice(
                [roll["faces"][i] + rng.choice([-2, -1, 1, 2]), 0, 11, 13, 21, 1.5, 9.5, True]
            )
            if rng.random() < 0.5:
                for entry in log:
                    entry["events"] = []
    elif op == 2:  # every entry's events emptied
        for entry in log:
            entry["events"] = []
    elif op == 3 and log:  # entries dropped, repeated or swapped
        i, j = rng.randrange(len(log)), rng.randrange(len(log))
        choice = rng.randrange(3)
        if choice == 0:
            del log[i]
        elif choice == 1:
            log.insert(j, copy.deepcopy(log[i]))
        else:
            log[i], log[j] = log[j], log[i]
    elif op == 4 and log:  # an action rewritten
        entry = rng.choice(log)
        entry["action"] = mutate_text(rng, entry["action"], ["'", '"', "\\", "=", "#", " x=1"])
    elif op == 5:  # a top-level field changed
        key = rng.choice(["_v", "ruleset", "setup", "log", "dice"])
        data[key] = copy.deepcopy(rng.choice(JUNK))
    elif op == 6 and log:  # an event's text or data changed
        events = [e for entry in log for e in entry["events"]]
        if events:
            event = rng.choice(events)
            event[rng.choice(["text", "kind"])] = rng.choice(["ylva misses", "hit", ""])
    else:  # a roll's notation or purpose changed
        rolls = [r for entry in log for r in entry["rolls"]]
        if rolls:
            rng.choice(rolls)[rng.choice(["notation", "purpose"])] = rng.choice(["d20", "x", ""])
    return data


def generate(rng: random.Random) -> bytes:
    save = rng.choice(SAVES)
    roll = rng.random()
    if roll < 0.02:
        return b"[" * rng.choice([1000, 100_000])
    if roll < 0.15:
        text = json.dumps(save, indent=rng.choice([None, 1]))
        return mutate_text(rng, text, JSON_SNIPPETS).encode("utf-8", "surrogatepass")
    return json.dumps(tamper(rng, save)).encode()


def prepare() -> None:
    import fracas.table.encounterfile  # noqa: F401


def check(_: None, item: bytes) -> None:
    from fracas.engine import Action, Encounter, Event
    from fracas.rules import find
    from fracas.table.saves import loads_save

    data = loads_save(item)
    ruleset_id = data.get("ruleset")
    if not isinstance(ruleset_id, str):
        ruleset_id = "heimr"
    enc: Encounter[Any] = Encounter.load(data, find(ruleset_id))
    # Loaded: the save must be exactly what it records. Who may see an event (its
    # visibility and the outline a hidden side is shown) is the rules' to say: the replay
    # makes them anew and keeps its own, whatever the save wrote there.
    assert len(enc.log) == len(data["log"])
    for entry, raw in zip(enc.log, data["log"], strict=True):
        assert entry.action == Action.parse(raw["action"]), raw["action"]
        saved = tuple(Event.from_dict(e) for e in raw["events"])
        assert [(e.kind, e.text, e.data) for e in entry.events] == [
            (e.kind, e.text, e.data) for e in saved
        ]
        recorded = [(r["notation"], r["purpose"], r["faces"]) for r in raw["rolls"]]
        assert [(r.notation, r.purpose, list(r.faces)) for r in entry.rolls] == recorded


if __name__ == "__main__":
    main("fuzz_saves", generate, check, prepare, describe=lambda item: item)
