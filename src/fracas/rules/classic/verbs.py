"""The verbs a fighter declares: the registry, and the actions of a turn.

Each verb has a phase: ``turn`` verbs (here) resolve in initiative order
(HC-ROUND-1); ``round`` verbs set up the fighter's round when the DM closes it and
``post`` verbs edit the post itself (:mod:`.posts`); ``gm`` verbs are the DM's
(:mod:`.rounds`). Checks read the fighter as its post so far leaves it
(:class:`~fracas.rules.classic.economy.Planned`); resolution checks the world again
and reports what cannot be done as events, never as errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeAlias

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.engine.verbs import Verb as EngineVerb
from fracas.engine.verbs import Verbs, named
from fracas.rules.classic import combat, positions
from fracas.rules.classic import items as item_verbs
from fracas.rules.classic.economy import Planned, planned
from fracas.rules.classic.state import ClassicState, Condition, Fighter

Phase = Literal["turn", "round", "post", "gm"]
Check = Callable[[ClassicState, Action, Planned], None]


# A string: compiled, EngineVerb stays interpreted and cannot be subscripted at run time.
Verb: TypeAlias = "EngineVerb[ClassicState, Phase]"

#: Every verb of the classic rules; its ``kind`` is its phase.
VERBS: Verbs[ClassicState, Phase] = Verbs()
verb = VERBS.verb
#: Checks read the fighter's post so far, so they take the plan too.
CHECKS: dict[str, Check] = {}


def checks(*names: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        for name in names:
            CHECKS[name] = check
        return check

    return register


def fighter(state: ClassicState, cid: str | None, rule: str = "HC-ROUND-1") -> Fighter:
    """The fighter ``cid``; a declaration naming nobody known is refused."""
    return named(state.combatants, cid, rule, "character")


def number(action: Action, key: str, default: int = 0, rule: str = "HC-ACT-1") -> int:
    text = action.option(key)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise IllegalAction(rule, f"{key}={text!r} should be a whole number") from None


def position(state: ClassicState, name: str | None, plan: Planned, *, stay: bool = True) -> str:
    """HC-MOVE-1: a position bordering where the fighter will be (or that one)."""
    if name is None or name not in state.battlefield.places:
        known = ", ".join(state.battlefield.places)
        raise IllegalAction("HC-MOVE-1", f"no position called {name!r} (there are {known})")
    if name == plan.position and stay:
        return name
    if name not in state.battlefield.borders(plan.position):
        raise IllegalAction("HC-MOVE-1", f"{name} does not border {plan.position}")
    return name


# -- attacks ------------------------------------------------------------------------------


def _check_target(state: ClassicState, action: Action, plan: Planned) -> Fighter:
    who = state.combatants[action.actor]
    target = fighter(state, action.target)
    if target.id == who.id:
        raise IllegalAction("HC-CS-1", f"{who.name} cannot attack themself")
    if not target.in_fight:
        raise IllegalAction("HC-ROUND-2", f"{target.name} is out of the fight already")
    if plan.hero_initiative and not target.npc:
        raise IllegalAction(
            "HC-HERO-1",
            f"{who.name} spends a hero point on initiative this round, so cannot attack "
            f"{target.name}, a player character",
        )
    return target


@checks("attack")
def _check_attack(state: ClassicState, action: Action, plan: Planned) -> None:
    who = state.combatants[action.actor]
    target = _check_target(state, action, plan)
    hand = action.option("with")
    if hand not in (None, "main", "off"):
        raise IllegalAction("HC-CS-1", f"with={hand}: attack with the main or the off hand")
    spend = number(action, "willpower", rule="HC-WP-1")
    if spend < 0 or plan.willpower + spend > who.willpower:
        raise IllegalAction(
            "HC-WP-1", f"{who.name} has {who.willpower - plan.willpower} willpower to spend"
        )
    _, kind = combat.attack_weapon(state, who, hand)
    weapon = state.tables.weapons[kind]
    if who.stat("agility") < weapon.minimum_agility:
        raise IllegalAction(
            "HC-AGI-1",
            f"a {kind} needs agility {weapon.minimum_agility}, more than {who.name}'s "
            f"{who.stat('agility')}",
        )
    if weapon.ranged and plan.missiles <= 0:
        item, _ = combat.attack_weapon(state, who, hand)
        what = "arrow drawn" if weapon.ammunition else f"{item} in hand to throw"
        raise IllegalAction(
            "HC-AGI-1",
            f"{who.name} has no {what}: nothing would fly"
            + (" (draw arrow first, a half action)" if weapon.ammunition else ""),
        )
    if (
        not weapon.ranged
        and plan.position != target.position  # else no need to ask where it will be
        and action.option("trigger") is None
    ):
        there = {target.position, planned(state, target.id).position}
        if plan.position not in there:
            raise IllegalAction(
                "HC-MOVE-1",
                f"{target.name} is in {target.position}, not in {plan.position}: a melee "
                "attack needs the same position",
            )


@verb("attack", "turn", "HC-CS-1", "attack a character: with=main|off willpower=N")
def _attack(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who, target = state.combatants[action.actor], state.combatants[action.target or ""]
    _, kind = combat.attack_weapon(state, who, action.option("with"))
    weapon = state.tables.weapons[kind]
    if who.stat("agility") < weapon.minimum_agility:
        events.append(Event("attack", f"{who.name} cannot draw a {kind}: agility too low", {}))
        return
    if not weapon.ranged and target.position != who.position:
        events.append(Event("attack", f"{target.name} is out of {who.name}'s reach", {}))
        return
    combat.attack(
        state,
        who,
        target,
        dice,
        events,
        hand=action.option("with"),
        willpower=number(action, "willpower"),
    )


@checks("cast")
def _check_cast(state: ClassicState, action: Action, plan: Planned) -> None:
    if plan.tactic not in (None, "normal"):
        raise IllegalAction("HC-TAC-1", f"no spell with the {plan.tactic} tactic: fight normally")
    at = plan.position
    if action.option("move") is not None:
        at = position(state, action.option("move"), plan)
    number(action, "damage")
    if action.target is not None:
        target = _check_target(state, action, plan)
        if target.position != at and action.option("trigger") is None:
            raise IllegalAction("HC-MOVE-1", f"{target.name} is not in {at}: a touch needs it")


@verb("cast", "turn", "HC-ACT-1", "cast a spell: a touch attack, one move: spell= move= damage=")
def _cast(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    spell = action.option("spell", "a spell")
    events.append(Event("cast", f"{who.name} casts {spell}", {"who": who.id, "spell": spell}))
    to = action.option("move")
    if to is not None and not positions.move(state, who, to, events):
        return
    if action.target is not None:
        target = state.combatants[action.target]
        if target.position != who.position:
            events.append(Event("attack", f"{target.name} is out of reach of the touch", {}))
            return
        combat.attack(state, who, target, dice, events, touch=True, damage=number(action, "damage"))


@checks("power")
def _check_power(state: ClassicState, action: Action, plan: Planned) -> None:
    if action.option("cost", "half") not in ("free", "half", "full"):
        raise IllegalAction("HC-ACT-1", "a power costs a free, half or full action: cost=")


@verb("power", "turn", "HC-ACT-1", "use a power: name= cost=free|half|full")
def _power(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    name = action.option("name", "a power")
    on = f" on {state.combatants[action.target].name}" if action.target in state.combatants else ""
    events.append(Event("power", f"{who.name} uses {name}{on}", {"who": who.id, "power": name}))


@checks("taunt")
def _check_taunt(state: ClassicState, action: Action, plan: Planned) -> None:
    if fighter(state, action.target).id == action.actor:
        raise IllegalAction("HC-ACT-1", "a taunt is aimed at someone else")


@verb("taunt", "turn", "HC-ACT-1", "taunt a character (the DM rules the effect)")
def _taunt(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who, target = state.combatants[action.actor], state.combatants[action.target or ""]
    events.append(Event("taunt", f"{who.name} taunts {target.name}", {"who": who.id}))


# -- movement -----------------------------------------------------------------------------


def _check_guard_options(state: ClassicState, action: Action, at: str) -> None:
    toward = action.option("guard") if action.verb == "move" else action.target
    if toward is not None and toward not in state.battlefield.borders(at):
        raise IllegalAction("HC-MOVE-2", f"{at} has no border with {toward} to guard")
    named = action.option("block")
    if named is not None:
        enemy = fighter(state, named, "HC-MOVE-2")
        if enemy.side == state.combatants[action.actor].side:
            raise IllegalAction("HC-MOVE-2", f"{enemy.name} is no enemy to block")


@checks("move")
def _check_move(state: ClassicState, action: Action, plan: Planned) -> None:
    if plan.prone:
        raise IllegalAction(
            "HC-COND-1", "a prone character cannot walk: stand up (half) or crawl (full)"
        )
    to = position(state, action.target, plan)
    _check_guard_options(state, action, to)


@verb("move", "turn", "HC-MOVE-1", "move to a bordering position: guard=<position> block=<who>")
def _move(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    if who.prone:
        events.append(Event("move", f"{who.name} is prone and cannot walk", {"who": who.id}))
        return
    if positions.move(state, who, action.target or "", events) and action.option("guard"):
        positions.guard(state, who, action.option("guard") or "", action.option("block"), events)


@checks("guard")
def _check_guard(state: ClassicState, action: Action, plan: Planned) -> None:
    if not plan.moved:
        raise IllegalAction(
            "HC-MOVE-2",
            "guarding a border is named with a move action: declare a move first "
            "(to the position you stand in, if you stay)",
        )
    position(state, action.target, plan, stay=False)
    _check_guard_options(state, action, plan.position)


@verb("guard", "turn", "HC-MOVE-2", "guard the border to a position: block=<who>")
def _guard(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    positions.guard(state, who, action.target or "", action.option("block"), events)


@checks("crawl")
def _check_crawl(state: ClassicState, action: Action, plan: Planned) -> None:
    position(state, action.target, plan, stay=False)


@verb("crawl", "turn", "HC-COND-1", "crawl to a bordering position")
def _crawl(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    positions.move(state, state.combatants[action.actor], action.target or "", events, "crawls")


@checks("stand")
def _check_stand(state: ClassicState, action: Action, plan: Planned) -> None:
    if not plan.prone:
        raise IllegalAction("HC-COND-1", f"{state.combatants[action.actor].name} is not prone")


@verb("stand", "turn", "HC-COND-1", "stand up from prone")
def _stand(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    if who.has("sleeping") or who.has("dying"):
        return
    who.conditions = [c for c in who.conditions if c.name != "prone"]
    events.append(Event("stand", f"{who.name} stands up", {"who": who.id}))


@checks("prone")
def _check_prone(state: ClassicState, action: Action, plan: Planned) -> None:
    if plan.prone:
        raise IllegalAction("HC-COND-1", f"{state.combatants[action.actor].name} is prone already")


@verb("prone", "turn", "HC-COND-1", "drop prone")
def _prone(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    if not who.has("prone"):
        who.conditions.append(Condition("prone"))
    events.append(Event("prone", f"{who.name} drops prone", {"who": who.id}))


# -- items and words ----------------------------------------------------------------------

checks("draw", "sheathe", "drop", "pick")(item_verbs.check)
for _name, _summary in (
    ("draw", "draw a weapon, an item, 'arrow', or two throwing weapons"),
    ("sheathe", "put a weapon or an item away"),
    ("drop", "drop an item"),
    ("pick", "pick up an item from the ground"),
):
    verb(_name, "turn", "HC-ACT-1", _summary)(item_verbs.resolve)


@verb("speak", "turn", "HC-ACT-1", "speak a few lines: text=")
def _speak(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    text = action.option("text", "...")
    events.append(Event("speak", f"{who.name}: {text}", {"who": who.id, "text": text}))


def check(state: ClassicState, action: Action, plan: Planned) -> None:
    """The verb's own conditions, if it has any."""
    found = CHECKS.get(action.verb)
    if found is not None:
        found(state, action, plan)


__all__ = ["VERBS", "Verb", "check", "checks", "fighter", "number", "verb"]
