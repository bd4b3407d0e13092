"""Golden logs: every example script played to its end, as ``fracas play`` plays it.

Each example ``examples/<dir>/<name>.script`` is played on its encounter file with the
seed its ``# seed:`` line fixes; its save (:meth:`Encounter.save`) and the game master's
log text are written to ``tests/golden/<ruleset>/<name>.json``. ``test_golden.py``
replays every example and asserts the same save and log, so a faster engine is seen to
play the same rules. Re-record only when a rule change is meant to change a log::

    .venv/bin/python tests/golden/record.py

With ``--legal`` it writes instead, beside each, ``<name>.legal.json``: before every
action of the script and at its end, every legal action of everyone, as the engine
lists them (``legal_actions()``); and ``<name>.random.json``: random legal play from the
example's encounter (a few seeds), with a digest of the legal actions at every step.
``tests/engine/test_legality.py`` asserts a faster legality check still gives exactly
these; they were recorded from the engine before its legality was made quicker.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fracas.engine import Action, Encounter, RandomDice
from fracas.files import atomic_write
from fracas.table import encounterfile
from fracas.table.scripts import Script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent


def scripts() -> Iterator[Path]:
    """Every example script that has an encounter file beside it."""
    for script in sorted(EXAMPLES.glob("*/*.script")):
        if script.with_suffix(".yaml").is_file():
            yield script


def play(script: Path) -> tuple[str, dict[str, Any]]:
    """The ruleset id and the golden record of one example: save, log text, refusal."""
    ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
    played = Script.read(script)
    encounter = Encounter(ruleset, setup, RandomDice(played.seed))
    stopped = None
    for _, line in played.lines:
        try:
            encounter.push(Action.parse(line))
        except ValueError as err:
            stopped = f"{line}: {err}"
            break
    record = {
        "stopped": stopped,
        "log": log_lines(encounter),
        "save": rules_only(encounter.save()),
    }
    # Through JSON, so the record compares equal to what a golden file reads back.
    return ruleset.id, json.loads(json.dumps(record))


def rules_only(save: dict[str, Any]) -> dict[str, Any]:
    """A save without the installed rules' version and as version 1, without the digests
    of its entries: a golden file records the rules' play, which must not change with each
    release's version number or the save's format (a version-1 save still loads)."""
    kept = {k: v for k, v in save.items() if k not in ("ruleset_version", "digests")}
    return {**kept, "_v": 1}


def log_lines(encounter: Encounter[Any]) -> list[str]:
    """The game master's log as text: each action, then what it caused."""
    lines: list[str] = []
    for entry in encounter.log:
        lines.append(f"> {entry.action}")
        lines += [f"  {e.text}" for e in entry.events]
    return lines


def legal_sets(script: Path) -> tuple[str, list[list[str]]]:
    """The ruleset id and the legal actions before each action of the script and after
    the last (or the refused) one."""
    ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
    played = Script.read(script)
    encounter = Encounter(ruleset, setup, RandomDice(played.seed))
    sets: list[list[str]] = []
    for _, line in played.lines:
        sets.append([str(a) for a in encounter.legal_actions()])
        try:
            encounter.push(Action.parse(line))
        except ValueError:
            return ruleset.id, sets
    sets.append([str(a) for a in encounter.legal_actions()])
    return ruleset.id, sets


def random_play(script: Path, seed: int, steps: int = 80) -> list[str]:
    """Random legal play from the example's encounter: at each step, the action chosen,
    how many were legal and a digest of them all (everyone's, in order), so that a
    difference is found at its first step without keeping every list."""
    ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
    encounter = Encounter(ruleset, setup, RandomDice(seed))
    pick = random.Random(seed)
    trace: list[str] = []
    for _ in range(steps):
        legal = [str(a) for a in encounter.legal_actions()]
        digest = hashlib.sha256("\n".join(legal).encode()).hexdigest()[:12]
        if not legal:
            trace.append(f"- 0 {digest}")
            break
        chosen = pick.choice(legal)
        trace.append(f"{chosen} | {len(legal)} {digest}")
        encounter.push(chosen)
    return trace


#: The seeds of the random plays recorded for each example.
RANDOM_SEEDS = (1, 2, 3)


def golden_path(ruleset_id: str, script: Path, suffix: str = ".json") -> Path:
    return GOLDEN / ruleset_id / f"{script.stem}{suffix}"


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)


def main() -> int:
    if "--legal" in sys.argv[1:]:
        for script in scripts():
            ruleset_id, sets = legal_sets(script)
            path = golden_path(ruleset_id, script, ".legal.json")
            write_atomically(path, json.dumps(sets, indent=0) + "\n")
            plays = {str(seed): random_play(script, seed) for seed in RANDOM_SEEDS}
            played = golden_path(ruleset_id, script, ".random.json")
            write_atomically(played, json.dumps(plays, indent=1) + "\n")
            print(f"{path.relative_to(ROOT)}: {len(sets)} positions, and random play")
        return 0
    for script in scripts():
        ruleset_id, record = play(script)
        path = golden_path(ruleset_id, script)
        write_atomically(path, json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(record['save']['log'])} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
