"""Hidden information field by field: every field of every combatant (and every part of
the state kept per combatant) is shown to each side exactly when the table in
docs/decisions.md ("Field by field") says, and always to the game master. States come
from seeded random play of every example; the breaks the table must catch (initiative,
fatigue or hit points shown to every side) are patched in and caught."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from fracas.engine import Encounter, RandomDice, view
from fracas.engine.views import offered
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    p for p in (ROOT / "examples").glob("*/*.yaml") if p.with_suffix(".script").exists()
)
STEPS = 25


def read_table() -> dict[str, dict[tuple[str, str], str]]:
    """ruleset -> (scope, field) -> when another side is shown it, from docs/decisions.md."""
    text = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    start = text.index("| ruleset | scope | field | another side | rule |")
    table: dict[str, dict[tuple[str, str], str]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        ruleset, scope, field, when, _rule = (c.strip() for c in line.strip("|").split("|"))
        table.setdefault(ruleset, {})[(scope, field.strip("`"))] = when
    return table


TABLE = read_table()


def problems(enc: Encounter[Any]) -> list[str]:
    """Every field a view shows when the table says it must not, or hides when it must
    show it, or that the table does not know."""
    rules = TABLE[enc.ruleset.id]
    fields = {f: w for (scope, f), w in rules.items() if scope == "combatant"}
    parts = {f: w for (scope, f), w in rules.items() if scope == "state"}
    out: list[str] = []
    gm = view(enc, None)["state"]
    people = gm["combatants"]
    for cid, record in people.items():
        out += [f"GM: {cid}.{f} missing" for f in fields if f not in record]
        out += [f"{cid}.{f}: not in the table" for f in record if f not in fields]
    for side in sorted(enc.ruleset.sides(enc.state)):
        seen = view(enc, side)["state"]
        shown = seen["combatants"]
        for cid, record in people.items():
            own = record["side"] == side
            if cid not in shown:
                if own or "once seen" not in fields.values() or not record.get("hidden"):
                    out.append(f"{side}: {cid} left out")
                continue
            for f, when in fields.items():
                everyone = ("always", "once seen", "once found")
                expected = when in everyone or (when == "own side" and own)
                if (f in shown[cid]) != expected:
                    out.append(f"{side}: {cid}.{f} {'hidden' if expected else 'shown'} ({when})")
                elif expected and when == "once found" and not own:
                    # All of them once this side has found them by observing (H-ACT-3),
                    # else none.
                    found_by = getattr(enc.state.combatants[cid], "concealed_found_by", ())
                    want = record[f] if side in found_by else []
                    if shown[cid][f] != want:
                        out.append(f"{side}: {cid}.{f} is {shown[cid][f]!r}, not {want!r}")
                elif expected and shown[cid][f] != record[f]:
                    unplaced = when == "once seen" and shown[cid][f] is None and record["hidden"]
                    if not unplaced:
                        out.append(f"{side}: {cid}.{f} is {shown[cid][f]!r}, not {record[f]!r}")
            out += [f"{side}: {cid}.{f} not in the table" for f in shown[cid] if f not in fields]
        for part, when in parts.items():
            whole, got = gm[part], seen[part]
            if isinstance(whole, dict):
                want: Any = {
                    c: v
                    for c, v in whole.items()
                    if (when == "always" and c in shown)
                    or (when == "own side" and people[c]["side"] == side)
                }
            elif when == "own side":
                actor = gm.get("current")
                want = whole if actor in people and people[actor]["side"] == side else None
            else:
                want = whole if when == "always" else type(whole)() if whole is not None else None
            if got != want:
                out.append(f"{side}: {part} is {got!r}, the table gives {want!r} ({when})")
    return out


def played(path: Path, seed: int, steps: int = STEPS) -> list[str]:
    """Seeded random play of ``path``, every view checked after every action."""
    ruleset, setup, _ = encounterfile.load(path)
    enc = Encounter(ruleset, setup, RandomDice(seed))
    choose = random.Random(seed)
    found = problems(enc)
    for _ in range(steps):
        actions = offered(enc)
        if not actions:
            break
        action = choose.choice(actions)
        enc.push(action)
        found += [f"after {action}: {p}" for p in problems(enc)]
    return list(dict.fromkeys(found))


def test_every_ruleset_has_a_table() -> None:
    assert set(TABLE) == {"heimr", "heimr-classic", "sides", "tempo", "diestep"}


@pytest.mark.rule("H-HP-1", "H-FAT-2", "H-INIT-1", "H-POS-4", "HC-ROUND-1", "HC-WP-1")
@pytest.mark.rule("S-HP-1", "S-ROUND-2", "T-OPEN-1", "D-DIE-1")
@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(st.sampled_from(EXAMPLES), st.integers(0, 2**16))
def test_each_field_is_shown_as_the_table_says(path: Path, seed: int) -> None:
    assert played(path, seed) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_example_plays_to_the_table(path: Path) -> None:
    assert played(path, 1, 12) == []


# -- the breaks the table must catch --------------------------------------------------


def example(name: str) -> Path:
    return ROOT / "examples" / f"{name}.yaml"


@pytest.mark.rule("H-FAT-2")
def test_fatigue_shown_to_every_side_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.rules.heimr import observing

    monkeypatch.setitem(observing.SEEN, "fatigue", observing.OWN["fatigue"])
    monkeypatch.delitem(observing.OWN, "fatigue")
    assert any(re.search(r"\.fatigue shown", p) for p in played(example("heimr/duel"), 1, 4))


@pytest.mark.rule("H-INIT-1")
def test_initiative_shown_to_every_side_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.rules.heimr import ruleset

    monkeypatch.setitem(
        ruleset._PARTS, "initiative", lambda rules, state, side, lazy: dict(state.initiative)
    )
    assert any("initiative is" in p for p in played(example("heimr/duel"), 1, 4))


@pytest.mark.rule("T-OPEN-1")
def test_hit_points_shown_to_every_side_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.rules.tempo import ruleset

    real = ruleset._combatant
    monkeypatch.setattr(ruleset, "_combatant", lambda state, c, full: real(state, c, True))
    assert any(re.search(r"\.hp shown", p) for p in played(example("tempo/binds"), 1, 4))
