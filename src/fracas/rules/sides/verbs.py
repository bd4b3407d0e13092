"""The verbs of a side-initiative encounter: what each needs (check) and does (apply).

Each verb has a kind, which says who may use it and when (checked by the ruleset before
the verb's own check): ``gm`` the game master's calls; ``side`` the initiative winner's
choice; ``phase`` a character's part of its side's phase (:mod:`.movement`,
:mod:`.ranged`); ``melee`` a declaration in the melee phase; ``reply`` an answer to an
opportunity attack. This module holds the registry, the game master's, the side's and
the melee verbs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeAlias

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.engine.verbs import Verb as EngineVerb
from fracas.engine.verbs import Verbs, named
from fracas.rules.sides import melee, options, rounds
from fracas.rules.sides.attacks import take_damage
from fracas.rules.sides.positions import in_melee
from fracas.rules.sides.setup import GM
from fracas.rules.sides.state import Combatant, SidesState

__all__ = ["GM", "VERBS", "Verb", "combatant", "enemy", "side_of", "verb"]

Kind = Literal["gm", "side", "phase", "melee", "reply"]
Check = Callable[[SidesState, Action], None]
Apply = Callable[[SidesState, Action, DiceSource, list[Event]], None]
# A string: compiled, EngineVerb stays interpreted and cannot be subscripted at run time.
Verb: TypeAlias = "EngineVerb[SidesState, Kind]"

#: Every verb of the side-initiative rules.
VERBS: Verbs[SidesState, Kind] = Verbs()


def verb(
    name: str, kind: Kind, rule: str, summary: str, check: Check | None = None
) -> Callable[[Apply], Apply]:
    """Register the function that applies ``name``, with the function that checks it."""
    if check is not None:
        VERBS.checks(name)(check)
    return VERBS.verb(name, kind, rule, summary)


def combatant(state: SidesState, cid: str | None, rule: str = "S-ROUND-2") -> Combatant:
    return named(state.combatants, cid, rule)


def enemy(state: SidesState, who: Combatant, cid: str | None, rule: str) -> Combatant:
    """A living enemy of ``who`` named as the action's target."""
    if cid is None:
        raise IllegalAction(rule, f"name the enemy: {who.id} <verb> <enemy>")
    target = combatant(state, cid, rule)
    if target.side == who.side:
        raise IllegalAction(rule, f"{target.name} is on {who.name}'s side")
    if target.out:
        raise IllegalAction(rule, f"{target.name} is dead")
    return target


def side_of(state: SidesState, actor: str) -> str:
    """The side an actor speaks for: a side by name, or any of its characters."""
    if actor in state.sides:
        return actor
    if actor in state.combatants:
        return state.combatants[actor].side
    raise IllegalAction(
        "S-ROUND-1", f"no side or combatant called {actor!r} (sides: {', '.join(state.sides)})"
    )


# -- the game master -------------------------------------------------------------------


def _check_before_begin(state: SidesState, action: Action) -> None:
    if state.phase != "setup":
        raise IllegalAction("S-ROUND-1", "combat has already begun")
    if action.verb == "surprise" and action.target is not None and action.target not in state.sides:
        raise IllegalAction(
            "S-SURPRISE-1", f"no side called {action.target!r} (sides: {', '.join(state.sides)})"
        )


@verb("begin", "gm", "S-ROUND-1", "start the first round: roll initiative", _check_before_begin)
def _begin(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    rounds.begin(state, dice, events)


@verb(
    "surprise",
    "gm",
    "S-SURPRISE-1",
    "before the first round: roll 1d6 per side (1-2 surprised), or name a surprised side",
    _check_before_begin,
)
def _surprise(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    if action.target is None:
        rounds.roll_surprise(state, dice, events)
        return
    if action.target not in state.surprised:
        state.surprised.append(action.target)
    events.append(
        Event(
            "surprise", f"{action.target} is surprised", {"side": action.target, "surprised": True}
        )
    )


def _check_next(state: SidesState, action: Action) -> None:
    if state.phase == "choose":
        raise IllegalAction(
            "S-ROUND-1", f"{state.winner} won the initiative and must choose to act or react"
        )


@verb(
    "next", "gm", "S-ROUND-2", "end the current phase (who has not finished is done)", _check_next
)
def _next(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    if state.phase == "melee":
        for who in melee.fighters(state):
            if who.doing.declared is None:
                who.doing.declared = "hold"
        events.append(Event("phase", "the game master closes the declarations", {}))
        return
    side = state.phasing
    for who in state.living(side):
        who.doing.done = True
    events.append(Event("phase", f"the game master ends {side}'s phase", {"side": side}))


def _check_damage(state: SidesState, action: Action) -> None:
    target = combatant(state, action.target, "S-HP-1")
    if target.out:
        raise IllegalAction("S-HP-1", f"{target.name} is dead")
    if options.number(action, "points", "S-HP-1") is None:
        raise IllegalAction("S-HP-1", "say how much: gm damage <who> points=N")


@verb("damage", "gm", "S-HP-1", "the referee deals damage: points=N (Stamina first)", _check_damage)
def _damage(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = combatant(state, action.target)
    take_damage(target, options.number(action, "points", "S-HP-1") or 0, events)


@verb("end", "gm", "S-ROUND-1", "end the encounter (a side flees or yields)")
def _end(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.ended = True
    state.pending.clear()
    events.append(Event("end", "the game master ends the encounter", {}))


# -- the initiative winner ---------------------------------------------------------------


def _check_choice(state: SidesState, action: Action) -> None:
    side = side_of(state, action.actor)
    if side != state.winner:
        raise IllegalAction(
            "S-ROUND-1", f"{state.winner} won the initiative: {state.winner} chooses, not {side}"
        )


@verb(
    "act", "side", "S-ROUND-1", "the initiative winner acts: its phase comes first", _check_choice
)
def _act(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    rounds.choose(state, side_of(state, action.actor), True, dice, events)


@verb(
    "react",
    "side",
    "S-ROUND-1",
    "the initiative winner reacts: its phase comes second",
    _check_choice,
)
def _react(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    rounds.choose(state, side_of(state, action.actor), False, dice, events)


# -- melee and opportunity attacks ---------------------------------------------------------


def _check_attack(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    if state.pending:  # the ruleset let only the pending attacker through
        if action.target != state.pending[0][1]:
            target = state.combatants[state.pending[0][1]]
            raise IllegalAction(
                "S-MOVE-2", f"the opportunity attack is on {target.name} ({target.id})"
            )
        options.weapon(who, action, False, "S-MOVE-2")
        options.check_attack_options(state, action, "S-MOVE-2")
        return
    target = enemy(state, who, action.target, "S-MELEE-1")
    if not in_melee(state, who, target):
        raise IllegalAction("S-MELEE-1", f"{target.name} is not within {who.name}'s melee range")
    options.weapon(who, action, False, "S-MELEE-1")
    options.check_attack_options(state, action, "S-ATK-1")


@verb(
    "attack",
    "melee",
    "S-MELEE-1",
    "declare a melee attack (or make an opportunity attack)",
    _check_attack,
)
def _attack(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    if state.pending:
        melee.opportunity(state, dice, action, events)
        return
    who = combatant(state, action.actor)
    words = str(action).split(" ", 1)[1]
    who.doing.declared = words
    events.append(
        Event(
            "declare",
            f"{who.name} declares: {words}",
            {"who": who.id, "declared": words},
            seen_by=frozenset({who.side}),
        )
    )


@verb("hold", "melee", "S-MELEE-1", "make no melee attack this round")
def _hold(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    who.doing.declared = "hold"
    events.append(
        Event(
            "declare",
            f"{who.name} holds",
            {"who": who.id, "declared": "hold"},
            seen_by=frozenset({who.side}),
        )
    )


@verb("pass", "reply", "S-MOVE-2", "let an opportunity attack go")
def _pass(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    melee.opportunity(state, dice, action, events)
