"""The Heimr melee policy: everyone attacks from where it stands, simply played (it never
moves, so on several squares only shots and those in the same square reach).

Every decision reads only the acting side's view and the legal actions, and uses no
randomness, so :mod:`fracas.rules.heimr.kernel` can mirror it exactly:

1. ``gm begin`` when it is legal (the game master's opening).
2. A breather (H-FAT-3) when fatigue is ``breather_gap`` or more above base fatigue
   and the standard action is still free.
3. An attack (H-ATK-2) on the standing enemy whose pre-rolled defence is weakest
   (H-ATK-3): one who cannot defend first, then the lowest defence, ties by id; no
   body part is aimed at (H-ATK-5).
4. With no attack legal (no weapon, no ammunition drawn, nobody in reach), draw the
   first item it may: a carried weapon, else counted ammunition (H-ACT-3, H-ACT-8).
5. Otherwise end the turn; the defence pre-rolled is the character's stance.

>>> from fracas.engine import Action
>>> view = {"to_move": "ylva", "state": {"combatants": {
...     "ylva": {"side": "north", "fatigue": 3, "base_fatigue": 3},
...     "ari": {"side": "south", "dead": False, "unconscious": False, "effects": [],
...             "defence": {"kind": "parry", "result": 9}},
...     "bo": {"side": "south", "dead": False, "unconscious": False, "effects": [],
...            "defence": {"kind": "dodge", "result": 7}}}}}
>>> legal = [Action("ylva", "attack", "ari"), Action("ylva", "attack", "bo"),
...          Action("ylva", "end")]
>>> str(MeleePolicy().choose(view, legal, None))
'ylva attack bo'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy

from fracas.engine import Action

#: Take a breather when fatigue is this far above base fatigue (H-FAT-3: -2 a breather).
BREATHER_GAP = 2
#: The sort key of a defence that will not stop anything: below any roll.
NO_DEFENCE = -(10**6)


def defence_key(seen: Mapping[str, Any]) -> int:
    """How hard a visible enemy is to hit: its pre-rolled defence, or :data:`NO_DEFENCE`
    when it holds none, its roll failed outright (H-FAT-1) or it is dazed (H-EFF-5)."""
    defence = seen.get("defence")
    if defence is None or defence.get("result") == "fails" or "Daze" in seen.get("effects", ()):
        return NO_DEFENCE
    return int(defence["result"])


class MeleePolicy:
    """The ``heimr-melee`` policy (see the module's rules, in order)."""

    name = "heimr-melee"

    def __init__(self, ruleset_id: str = "heimr", breather_gap: int = BREATHER_GAP) -> None:
        if ruleset_id != "heimr":
            raise ValueError(f"heimr-melee plays the heimr ruleset, not {ruleset_id!r}")
        self.breather_gap = breather_gap

    def choose(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator | None,
    ) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        by_text = {str(a): a for a in legal}
        if "gm begin" in by_text:
            return by_text["gm begin"]
        actor = view["to_move"]
        seen = view["state"]["combatants"]
        me = seen.get(actor, {})
        breather = by_text.get(f"{actor} breather")
        if (
            breather is not None
            and me.get("fatigue", 0) >= me.get("base_fatigue", 0) + self.breather_gap
        ):
            return breather
        targets = [
            a
            for a in legal
            if a.verb == "attack"
            and not a.options
            and a.target in seen
            and not seen[a.target].get("dead")
            and not seen[a.target].get("unconscious")
        ]
        if targets:
            return min(targets, key=lambda a: (defence_key(seen[a.target or ""]), a.target or ""))
        draws = [a for a in legal if a.verb == "draw"]
        if draws and breather is not None and not any(a.verb == "attack" for a in legal):
            return draws[0]
        end = by_text.get(f"{actor} end")
        return end if end is not None else legal[0]
