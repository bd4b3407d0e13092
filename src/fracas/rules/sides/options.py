"""Reading an action's options, each mistake an :class:`IllegalAction` citing the rule.

>>> from fracas.engine import Action
>>> number(Action.parse("darna attack orc difficulty=2"), "difficulty", "S-ATK-1")
2
>>> number(Action.parse("darna attack orc difficulty=two"), "difficulty", "S-ATK-1")
Traceback (most recent call last):
...
fracas.engine.errors.IllegalAction: difficulty='two' should be a whole number (S-ATK-1)
"""

from __future__ import annotations

import math

from fracas.dice import DiceError, Mechanic, parse
from fracas.engine import Action, IllegalAction
from fracas.rules.sides.attacks import Called
from fracas.rules.sides.campaign import Weapon
from fracas.rules.sides.state import Combatant, SidesState


def number(action: Action, key: str, rule: str, *, minimum: int = 0) -> int | None:
    text = action.option(key)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise IllegalAction(rule, f"{key}={text!r} should be a whole number") from None
    if value < minimum:
        raise IllegalAction(rule, f"{key}={value} should be at least {minimum}")
    return value


def distance(action: Action, key: str, rule: str) -> float | None:
    """A distance or a position in the encounter's unit (``by=7.5``, ``to=-20``)."""
    text = action.option(key)
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise IllegalAction(rule, f"{key}={text!r} should be a number") from None
    if not math.isfinite(value) or (key == "by" and value <= 0):
        raise IllegalAction(rule, f"{key}={text} is not a distance to move")
    return value


def dice(action: Action, key: str, rule: str) -> Mechanic | None:
    """Dice the referee sets (``damage=1d6+1``), in standard notation."""
    text = action.option(key)
    if text is None:
        return None
    try:
        return parse("standard", text)
    except DiceError as err:
        raise IllegalAction(rule, f"{key}={text!r}: {err}") from None


def called_shot(state: SidesState, action: Action) -> Called | None:
    """S-CALLED-1: ``called=hands`` takes the guideline's difficulty; ``called_difficulty=N``
    is the referee's, and needed for a part the guideline does not list."""
    part = action.option("called")
    set_by_referee = number(action, "called_difficulty", "S-CALLED-1")
    if part is None:
        if set_by_referee is not None:
            raise IllegalAction("S-CALLED-1", "called_difficulty= goes with called=<part>")
        return None
    shot = state.tables.called_shots.get(part.lower())
    if set_by_referee is None:
        if shot is None:
            known = ", ".join(state.tables.called_shots)
            raise IllegalAction(
                "S-CALLED-1",
                f"the referee sets the difficulty of a called shot at the {part}: add "
                f"called_difficulty=N (the guideline lists {known})",
            )
        set_by_referee = shot.difficulty
    return Called(part.lower(), set_by_referee, shot)


def weapon(who: Combatant, action: Action, ranged: bool, rule: str) -> tuple[str, Weapon]:
    """The weapon an attack uses: ``weapon=<name>``, else the first of its kind carried."""
    kind = "ranged" if ranged else "melee"
    if who.dropped:
        raise IllegalAction(
            "S-CALLED-1", f"{who.name} dropped what it held: pick it up first ({who.id} pickup)"
        )
    name = action.option("weapon")
    found = who.stats.ranged_weapon(name) if ranged else who.stats.melee_weapon(name)
    if found is None:
        what = f"no {kind} weapon" if name is None else f"no {kind} weapon called {name!r}"
        raise IllegalAction(rule, f"{who.name} has {what}")
    return found


def off_hand(who: Combatant, main: Weapon) -> Weapon | None:
    """S-DMG-1: a second one-handed weapon, used beside a one-handed main weapon."""
    if who.stats.off_hand is None or main.hands != 1 or main.ranged:
        return None
    return who.stats.off_hand[1]


def check_attack_options(state: SidesState, action: Action, rule: str) -> None:
    """The options every attack takes, checked before anything is rolled."""
    called_shot(state, action)
    number(action, "difficulty", rule)
    number(action, "bonus", rule)
