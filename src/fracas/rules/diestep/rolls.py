"""Die rolls (D-DIE-1): a character's die, shifted by ranks, with advantage or not.

Every circumstance that grants advantage or disadvantage is a :data:`Source`, a
reason with +1 or -1. They cancel one for one and never stack beyond one re-roll,
as the dice layer decides (:class:`fracas.dice.DieStep`): only the sign of the sum
counts.

>>> net([("block", ADV), ("prone", DIS), ("unaware", DIS)])
-1
>>> net([("block", ADV), ("mounted", ADV)])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from fracas.dice import DieStep, Roll
from fracas.dice.diestep import shift
from fracas.engine import DiceSource, Event
from fracas.rules.diestep.state import Combatant

Source = tuple[str, int]
ADV, DIS = 1, -1


def net(sources: Sequence[Source]) -> int:
    """The net advantage of ``sources``: +1, 0 or -1."""
    total = sum(v for _, v in sources)
    return (total > 0) - (total < 0)


#: The dice rolled so far, by sides, ranks and net advantage (a die is immutable), each
#: with its notation.
_MECHANICS: dict[tuple[int, int, int], tuple[DieStep, str]] = {}
#: Who sees a roll's detail: the roller's side, by side (one set for every roll).
_SIDES: dict[str, frozenset[str]] = {}


def roll(
    dice: DiceSource,
    who: Combatant | None,
    what: str,
    sides: int,
    sources: Sequence[Source],
    events: list[Event],
    ranks: int = 0,
) -> int:
    """Roll ``who``'s d``sides`` moved ``ranks`` along the ladder, and log it.

    ``who`` is ``None`` for a die nobody owns (a difficulty die).
    """
    total = 0
    for source in sources:
        total += source[1]
    key = (sides, ranks, (total > 0) - (total < 0))
    found = _MECHANICS.get(key)
    if found is None:
        made = DieStep(shift(sides, ranks), key[2])
        found = _MECHANICS[key] = (made, made.notation())
    mechanic, notation = found
    name = who.name if who is not None else "the game master"
    rolled = dice.roll(mechanic, f"{name}: {what}")
    result = rolled.result
    reasons = tuple(sources)
    # the words, written only if the log is read
    render = partial(_said, name, what, sides, ranks, notation, reasons, mechanic, rolled)
    data = {
        "who": who.id if who is not None else None,
        "what": what,
        "die": notation,
        "faces": list(rolled.faces),
        "result": result,
        "why": [f"{r} ({'adv' if v > 0 else 'dis'})" if v else r for r, v in reasons]
        if reasons
        else [],
    }
    if who is None:
        events.append(Event.deferred("roll", render, data))
        return result
    # The die tells the attribute, which is the own side's: the others see the result.
    events.append(
        Event.deferred(
            "roll",
            render,
            data,
            detail=_SIDES.get(who.side) or side_only(who.side),
            outline=f"{name} rolls {what}: {result}",
            outline_data={"who": who.id, "what": what, "result": result},
        )
    )
    return result


def _said(
    name: str,
    what: str,
    sides: int,
    ranks: int,
    notation: str,
    reasons: tuple[Source, ...],
    mechanic: DieStep,
    rolled: Roll,
) -> str:
    """The words of a roll (:func:`roll`)."""
    shifted = f" {ranks:+d} ranks" if ranks else ""
    said = [f"{r}: {'adv' if v > 0 else 'dis'}" if v else r for r, v in reasons]
    because = f" ({'; '.join(said)})" if said else ""  # no brackets: the terminal eats them
    return (
        f"{name} rolls {what} d{sides}{shifted} as {notation}{because}: {mechanic.explain(rolled)}"
    )


def side_only(side: str) -> frozenset[str]:
    """The one side that sees an event's detail, as a set shared by every such event.

    >>> side_only("riders") is side_only("riders")
    True
    """
    found = _SIDES.get(side)
    if found is None:
        if len(_SIDES) >= 1024:  # sides of every campaign a server has played: kept bounded
            _SIDES.clear()
        found = _SIDES[side] = frozenset({side})
    return found


def conditions(who: Combatant, physical: bool) -> list[Source]:
    """What disadvantages every roll of ``who`` (or every physical one)."""
    out: list[Source] = []
    if who.badly_wounded:
        out.append(("badly wounded", DIS))  # D-WOUND-1
    if who.stunned or who.stunned_encounter:
        out.append(("stunned", DIS))  # D-HEAL-1
    if physical and who.hold == "full":
        out.append(("fully held", DIS))  # D-GRAB-1
    if physical and who.mounted_on is not None and not who.sheet.riding:
        out.append(("unskilled rider", DIS))  # D-MOUNT-1
    return out
