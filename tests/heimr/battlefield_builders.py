"""Builders for the battlefield tests (test_battlefield, test_heights, test_hiding).

Everyone has stamina 3 (base fatigue 1: no roll fails outright or tires) and dex 0, so
initiative is C0P3, a single d6 each in setup order, and the stance is "none" unless a
test names one: beginning combat rolls only the initiative d6s. The abilities used:

- Agility (crossing, climbing, landing, holding on, dodging): base C1, P dex 0: C1P0.
- Knife (Light weapon): Knife fighting C1, P dex 0 + 2: C1P2; damage 1.
- Bow: Archery C-1, P dex 0 + 1: C-1P1; range 6; damage 3.
- Survival (hiding): C0, P sta 3: C0P3. Perception: C0, P int 0: C0P0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet

State = Encounter[HeimrState]
KNIFE = {"sword": "Light weapon"}
BOW = {"sword": "Bow"}


def person(name: str, side: str, **kw: Any) -> dict[str, Any]:
    """A character with stamina 3: fatigue 1 never gets in the way."""
    return sheet(name, side, sta=3, **kw)


def begun(
    people: Iterable[Mapping[str, Any]],
    faces: Iterable[int],
    stances: Mapping[str, str] | None = None,
    **kw: Any,
) -> State:
    """An encounter that has begun: ``faces`` are the initiative d6s in setup order, then
    the pre-rolled defences of those with a stance, in initiative order."""
    people = list(people)
    chosen = {p["name"]: "none" for p in people} | dict(stances or {})
    enc = encounter(people, faces=faces, stances=chosen, **kw)
    enc.push("gm begin")
    return enc


def rolls(enc: State, last: int = 1) -> list[tuple[str, str, list[int], int]]:
    """(purpose, challenge, faces, result) of every roll in the last ``last`` log entries."""
    return [
        (e.data["purpose"], e.data["challenge"], e.data["faces"], e.data["result"])
        for entry in enc.log[-last:]
        for e in entry.events
        if e.kind == "roll"
    ]


def challenges(enc: State, last: int = 1) -> dict[str, str]:
    """The challenge rolled for each purpose in the last ``last`` log entries."""
    return {purpose: challenge for purpose, challenge, _, _ in rolls(enc, last)}


def said(enc: State, last: int = 1) -> str:
    """The texts of the last ``last`` log entries, one a line."""
    return "\n".join(e.text for entry in enc.log[-last:] for e in entry.events)


def refused(enc: State, action: str) -> str:
    """The rule ID ``action`` is refused with; it is not offered as legal either."""
    assert action not in enc.legal_actions()
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    return err.value.rule


def where(enc: State, cid: str) -> tuple[str, int]:
    """(square, height) of a combatant."""
    c = enc.state.combatants[cid]
    return c.square, c.height
