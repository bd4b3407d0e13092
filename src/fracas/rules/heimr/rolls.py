"""Dice challenges made by a combatant: situational changes, fatigue and the log line.

Every roll a Heimr character makes in an encounter goes through :func:`challenge`,
so the situational penalties (H-DICE-6), fatigue failing a physical roll outright
(H-FAT-1) and fatigue rising on a low d6 (H-FAT-2) are applied in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from fracas.dice import HeimrChallenge, Roll
from fracas.dice.heimr import MAX_CONSISTENCY
from fracas.engine import DiceSource, Event
from fracas.rules.heimr.state import Ability, Combatant, HeimrState

Modifier = tuple[str, int]


class Check(NamedTuple):
    """A challenge one combatant rolled (a tuple: every roll of a fight makes one)."""

    roll: Roll
    consistency: int
    potential: int
    physical: bool
    failed_outright: bool  # H-FAT-1: result before potential below fatigue

    @property
    def result(self) -> int:
        return self.roll.result

    @property
    def raw(self) -> int:
        return self.roll.parts["raw"]

    @property
    def d6(self) -> int:
        return self.roll.parts["d6"]


def describe(consistency: Sequence[Modifier], potential: Sequence[Modifier]) -> str:
    """The situational changes in words: ``C-2 prone, P+3 weapon``."""
    parts = [f"C{v:+d} {why}" for why, v in consistency if v]
    parts += [f"P{v:+d} {why}" for why, v in potential if v]
    return ", ".join(parts)


@lru_cache(maxsize=1024)
def mechanic(consistency: int, potential: int) -> tuple[HeimrChallenge, str]:
    """The challenge ``C..P..`` and its notation, made once (it is immutable) and rolled
    many times (every fight rolls the same few)."""
    return HeimrChallenge(consistency, potential), f"C{consistency}P{potential}"


def challenge(
    who: Combatant,
    ability: Ability,
    dice: DiceSource,
    purpose: str,
    consistency: Sequence[Modifier] = (),
    potential: Sequence[Modifier] = (),
    events: list[Event] | None = None,
    fatigue: bool = True,
    seen_by: frozenset[str] | None = None,
    in_combat: bool = True,
) -> Check:
    """Roll ``ability`` for ``who``; append the roll (and any fatigue) to ``events``.

    With ``fatigue=False`` the roll may still fail outright, but fatigue does not rise
    (pre-rolled defences raise it only when used, H-DEF-2; a cluster shot's re-rolls
    never, H-ATK-7). Out of combat (``in_combat=False``) every low d6 raises fatigue:
    the once-a-turn limit is for combat (H-FAT-2).
    """
    c = ability.consistency
    if consistency:
        for _, v in consistency:
            c += v
    if c > MAX_CONSISTENCY:
        c = MAX_CONSISTENCY
    elif c < -MAX_CONSISTENCY:
        c = -MAX_CONSISTENCY
    p = ability.potential
    if potential:
        for _, v in potential:
            p += v
    ch, notation = mechanic(c, p)
    roll = dice.roll(ch, purpose)
    raw = roll.parts["raw"]
    physical = who.stats.physical(ability)
    failed = physical and raw < who.fatigue
    check = _new_check(Check, (roll, c, p, physical, failed))
    if events is not None:
        data = {
            "who": who.id,
            "purpose": purpose,
            "challenge": notation,
            "faces": list(roll.faces),
            "result": roll.result,
            "failed_outright": failed,
        }
        # Written when read: a playout's rolls never are (the arguments never change).
        render = _new_line(
            _RollLine,
            (
                ability,
                purpose,
                c,
                p,
                tuple(consistency) if consistency else (),
                tuple(potential) if potential else (),
                roll,
            ),
        )
        if failed:
            # That it fails is seen (H-ATK-3); the fatigue it fails on is the own side's.
            below = f"; fails outright, {raw} is below fatigue {who.fatigue}"
            events.append(
                Event.deferred(
                    "roll",
                    partial(_and, render, below),
                    data,
                    seen_by,
                    detail=frozenset({who.side}),
                    outline=partial(_and, render, "; fails outright"),
                    outline_data=data,
                )
            )
        else:
            events.append(_deferred("roll", render, data, seen_by))
        if physical and fatigue:
            tire(who, roll.parts["d6"], events, in_combat)
    return check


#: A check made at once (a named tuple's own constructor is a Python call, at every roll).
_new_check = tuple.__new__
#: :meth:`Event.deferred`, looked up once (every roll makes one).
_deferred = Event.deferred


@mypyc_attr(native_class=False)  # a tuple subclass (mypyc compiles none)
class _RollLine(tuple[Any, ...]):
    """A roll's line in the log, written when called: the arguments of :func:`_roll_text`
    in one tuple (a roll's event keeps one; a ``partial`` would make three objects).

    >>> from fracas.dice import HeimrChallenge
    >>> from fracas.rules.heimr.state import Ability
    >>> roll = HeimrChallenge(2, 1).read((4, 7, 3))
    >>> _RollLine((Ability(2, 1, ("dex",)), "ylva's dodge", 2, 1, (), (), roll))()
    "ylva's dodge: C2P1, rolls [4, 7, 3]: highest 7 + 1 = 8"
    """

    __slots__ = ()

    def __call__(self) -> str:
        return _roll_text(*self)


#: A line made at once (tuple.__new__: no Python call).
_new_line = tuple.__new__


def _and(render: Callable[[], str], more: str) -> str:
    """``render()``'s words with ``more`` after them."""
    return render() + more


def _roll_text(
    ability: Ability,
    purpose: str,
    c: int,
    p: int,
    consistency: tuple[Modifier, ...],
    potential: tuple[Modifier, ...],
    roll: Roll,
) -> str:
    """A roll's line in the log: ``purpose: C2P3 (C2P2; P+1 axe), rolls [..]: ..``."""
    changes = describe(consistency, potential)
    base = f"C{ability.consistency}P{ability.potential}"
    text = f"{purpose}: C{c}P{p}" + (f" ({base}; {changes})" if changes else "")
    return text + f", rolls {list(roll.faces)}: {roll.explanation}"


def turns_running(state: HeimrState) -> bool:
    """Whether turns are running: combat has begun and two sides still stand."""
    return state.started and len({c.side for c in state.combatants.values() if not c.out}) > 1


def tire(who: Combatant, d6: int, events: list[Event], in_combat: bool = True) -> None:
    """H-FAT-2: a d6 below fatigue raises it by 1 (never above the maximum, 20); in
    combat at most once a turn window: one's own turn and the defences until the next."""
    if d6 >= who.fatigue or who.fatigue >= who.max_fatigue:
        return
    if in_combat and who.fatigue_raised:
        return
    who.fatigue += 1
    if in_combat:
        who.fatigue_raised = True
    events.append(
        Event(
            "fatigue",
            f"{who.name}'s d6 shows {d6}, below fatigue: fatigue rises to {who.fatigue}",
            {"who": who.id, "fatigue": who.fatigue},
            detail=frozenset({who.side}),  # fatigue is the own side's
        )
    )
