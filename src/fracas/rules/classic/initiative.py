"""Initiative (HC-INIT-1) and its manipulation (HC-INITM-1, HC-HERO-1).

Every round each fighter rolls d20 + initiative. The higher total goes first; a tie
goes to the higher initiative statistic, then the higher agility, then a coin flip
rolled through the dice source (a d2: 1 for the one first in the setup, 2 for the
other). More than two still tied are put in order by a coin flip for each pair
compared. A hero point spent last round puts its spender first; a fighter who lowers
its initiative acts just after the one it names.

>>> after_anchors(["a", "b", "c"], {"a": "c"})
['b', 'c', 'a']
"""

from __future__ import annotations

from collections.abc import Mapping

from fracas.dice import parse
from fracas.engine import DiceSource, Event
from fracas.rules.classic.combat import common, roll_d20
from fracas.rules.classic.modifiers import total
from fracas.rules.classic.state import ClassicState, Fighter

COIN = parse("standard", "d2")


def roll(state: ClassicState, dice: DiceSource, events: list[Event]) -> None:
    """Roll everyone's initiative and set ``state.order``."""
    fighters = [f for f in state.combatants.values() if f.in_fight]
    state.initiative = {}
    for f in fighters:
        spend = min(f.plan.willpower.pop("initiative", 0), f.willpower)
        f.willpower -= spend
        mods = common(state, f, "initiative")
        modifier = f.stat("initiative") + 2 * spend + total(mods)
        _, r = roll_d20(dice, modifier, f"{f.name}'s initiative")
        state.initiative[f.id] = r.result
        extra = f", {spend} willpower (+{2 * spend})" if spend else ""
        events.append(
            Event(
                "initiative",
                f"{f.name} rolls initiative d20{modifier:+d}: {r.faces[0]} -> {r.result}{extra}",
                {"who": f.id, "faces": list(r.faces), "result": r.result},
            )
        )
    order = ordered(state, fighters, dice, events)
    lowered = {f.id: f.plan.after for f in fighters if f.plan.after in state.initiative}
    state.order = after_anchors(order, {k: v for k, v in lowered.items() if v})
    for f in fighters:
        f.first_next = False
    events.append(
        Event(
            "order",
            "initiative order: " + ", ".join(state.combatants[c].name for c in state.order),
            {"order": list(state.order)},
        )
    )


def _key(state: ClassicState, f: Fighter) -> tuple[bool, int, int, int]:
    return (not f.first_next, -state.initiative[f.id], -f.stat("initiative"), -f.stat("agility"))


def ordered(
    state: ClassicState, fighters: list[Fighter], dice: DiceSource, events: list[Event]
) -> list[str]:
    """HC-INIT-1: highest first; ties by statistic, agility, then coin flips."""
    heroes = [f.name for f in fighters if f.first_next]
    if heroes:
        events.append(
            Event("initiative", f"a hero point puts {', '.join(heroes)} first this round", {})
        )
    groups: dict[tuple[bool, int, int, int], list[Fighter]] = {}
    for f in fighters:
        groups.setdefault(_key(state, f), []).append(f)
    order: list[str] = []
    for key in sorted(groups):
        order += coin_flips(groups[key], dice, events)
    return order


def coin_flips(tied: list[Fighter], dice: DiceSource, events: list[Event]) -> list[str]:
    """Order fighters tied on everything by flipping a coin for each pair compared."""
    out: list[Fighter] = []
    for f in tied:
        place = len(out)
        for i, other in enumerate(out):
            flip = dice.roll(COIN, f"coin flip: {other.name} (1) or {f.name} (2) first")
            first = other if flip.result == 1 else f
            events.append(
                Event(
                    "coin",
                    f"{other.name} and {f.name} tie: a coin flip shows {flip.result}, "
                    f"{first.name} goes first",
                    {"between": [other.id, f.id], "face": flip.result},
                )
            )
            if flip.result == 2:
                place = i
                break
        out.insert(place, f)
    return [f.id for f in out]


def after_anchors(order: list[str], after: Mapping[str, str]) -> list[str]:
    """HC-INITM-1: each fighter in ``after`` acts just after its anchor, if it came before."""
    order = list(order)
    for _ in range(len(order)):
        changed = False
        for cid in list(order):
            anchor = after.get(cid)
            if anchor is not None and order.index(cid) < order.index(anchor):
                order.remove(cid)
                order.insert(order.index(anchor) + 1, cid)
                changed = True
        if not changed:
            break
    return order
