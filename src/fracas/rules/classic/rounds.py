"""The round of play by post (HC-ROUND-1, HC-ROUND-2) and the DM's calls.

The DM opens the round; every player posts its actions once (each declaration may
list alternatives, ``else='orc2; move Street'``); the DM closes the round, and in the
same post initiative is rolled and the declarations resolve in its order. A declared
target that is gone by then gives way to the first alternative still there, else a
random other target (:func:`fracas.engine.declared.choose`). A declaration with a
``trigger='bob move'`` waits from its fighter's place in the order until that
character does that (HC-INITM-1), and resolves just before it.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.engine.declared import Declaration, DeclaredRound, choose, in_order
from fracas.rules.classic import health, initiative, positions
from fracas.rules.classic.combat import attack_weapon
from fracas.rules.classic.economy import Planned
from fracas.rules.classic.state import (
    CONDITIONS,
    SECONDS_PER_ROUND,
    ClassicState,
    Condition,
    Fighter,
    Plan,
)
from fracas.rules.classic.verbs import VERBS, checks, fighter, number, verb

REACH = ("attack", "cast")  # verbs whose character target must share the position


# -- resolving ----------------------------------------------------------------------------


def close(state: ClassicState, dice: DiceSource, events: list[Event]) -> None:
    """HC-ROUND-1: close the round, roll initiative, resolve, and open the next round."""
    state.declared.open = False
    events.append(Event("round", f"the DM closes round {state.round}", {"round": state.round}))
    for declaration in state.declared.declarations:
        action = declaration.action
        if VERBS[action.verb].kind == "round" and state.combatants[action.actor].in_fight:
            VERBS[action.verb].apply(state, action, dice, events)
    initiative.roll(state, dice, events)
    resolve(state, dice, events)
    end_round(state, events)


def resolve(state: ClassicState, dice: DiceSource, events: list[Event]) -> None:
    """Every turn declaration, in initiative order, triggers firing before their cue."""
    waiting: list[Declaration] = []
    turn = [d for d in in_order(state.declared, state.order) if VERBS[d.action.verb].kind == "turn"]
    for declaration in turn:
        if declaration.actor not in state.order:
            continue
        if declaration.action.option("trigger") is not None:
            waiting.append(declaration)
            continue
        _run(state, declaration, waiting, dice, events)
    for declaration in waiting:
        who = state.combatants[declaration.actor]
        events.append(
            Event(
                "delay",
                f"{who.name}'s {declaration.action.verb} waited for "
                f"'{declaration.action.option('trigger')}', which never came",
                {"who": who.id},
            )
        )


def _can_act(who: Fighter, action: Action, events: list[Event]) -> bool:
    if who.dead or who.helpless:
        why = "dead" if who.dead else "dying" if who.has("dying") else "helpless"
        events.append(Event("skip", f"{who.name} is {why}: no {action.verb}", {"who": who.id}))
        return False
    if who.has("confused") and action.verb != "speak":
        events.append(Event("skip", f"{who.name} is confused and only mumbles", {"who": who.id}))
        return False
    return True


def _run(
    state: ClassicState,
    declaration: Declaration,
    waiting: list[Declaration],
    dice: DiceSource,
    events: list[Event],
) -> None:
    who = state.combatants[declaration.actor]
    if not _can_act(who, declaration.action, events):
        return

    def present(target: str) -> bool:
        other = state.combatants.get(target)
        if other is None:
            return target not in state.gone  # a position or an item, or one who left
        main = declaration.action
        reach = main.verb in REACH and not _ranged(state, who, main)
        at = (main.option("move") if main.verb == "cast" else None) or who.position
        return other.in_fight and (not reach or other.position == at)

    def others(action: Action) -> list[str]:
        if action.target not in state.combatants and action.target not in state.gone:
            return []
        return [f.id for f in state.enemies(who.id) if f.id != action.target]

    action = choose(declaration, present, others, dice, events)
    if action is None:
        return
    for delayed in list(waiting):
        if _triggers(delayed, action):
            waiting.remove(delayed)
            trigger = delayed.action.option("trigger")
            events.append(
                Event("delay", f"'{trigger}': {state.combatants[delayed.actor].name} acts", {})
            )
            _run(
                state,
                Declaration(_without_trigger(delayed.action), delayed.alternatives),
                waiting,
                dice,
                events,
            )
    if _can_act(who, action, events):
        VERBS[action.verb].apply(state, action, dice, events)


def _ranged(state: ClassicState, who: Fighter, action: Action) -> bool:
    if action.verb != "attack":
        return False
    return state.tables.weapons[attack_weapon(state, who, action.option("with"))[1]].ranged


def _triggers(delayed: Declaration, action: Action) -> bool:
    words = (delayed.action.option("trigger") or "").split()
    if not words or words[0] != action.actor or delayed.actor == action.actor:
        return False
    return len(words) == 1 or words[1] == action.verb


def _without_trigger(action: Action) -> Action:
    return Action(
        action.actor,
        action.verb,
        action.target,
        tuple((k, v) for k, v in action.options if k != "trigger"),
    )


def end_round(state: ClassicState, events: list[Event]) -> None:
    """Six seconds pass; the round's plans end; the next round opens."""
    state.clock += SECONDS_PER_ROUND
    health.tick(state, events)
    for who in state.combatants.values():
        who.first_next = who.plan.hero_initiative
        who.plan = Plan()
    positions.new_round(state)
    if len({f.side for f in state.combatants.values() if f.in_fight}) <= 1:
        events.append(Event("round", "the fight is over", {"round": state.round}))
        return
    state.round += 1
    state.declared = DeclaredRound()
    state.posted = []
    events.append(Event("round", f"round {state.round} opens", {"round": state.round}))


# -- the DM -------------------------------------------------------------------------------


@checks("open")
def _check_open(state: ClassicState, action: Action, plan: Planned) -> None:
    if state.opened:
        raise IllegalAction("HC-ROUND-1", "the fight is open: closing a round opens the next")


@verb("open", "gm", "HC-ROUND-1", "open the first round")
def _open(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.opened = True
    state.round = 1
    for warning in state.warnings:
        events.append(Event("warning", warning, {}))
    events.append(Event("round", "round 1 opens: post your actions", {"round": 1}))


@checks("close")
def _check_close(state: ClassicState, action: Action, plan: Planned) -> None:
    if not state.opened:
        raise IllegalAction("HC-ROUND-1", "no round is open: the DM opens the first")


@verb("close", "gm", "HC-ROUND-1", "close the round: initiative, then every post resolves")
def _close(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    close(state, dice, events)


@checks("condition", "lift")
def _check_condition(state: ClassicState, action: Action, plan: Planned) -> None:
    who = fighter(state, action.target, "HC-COND-1")
    name = action.option("name")
    if name not in CONDITIONS:
        raise IllegalAction(
            "HC-COND-1", f"name={name}: a condition is one of {', '.join(CONDITIONS)}"
        )
    if action.verb == "lift" and not who.has(name):
        raise IllegalAction("HC-COND-1", f"{who.name} is not {name}")
    if action.verb == "condition" and name == "fear":
        fighter(state, action.option("source"), "HC-COND-1")


@verb("condition", "gm", "HC-COND-1", "put a character in a condition: name= source=")
def _condition(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.target or ""]
    name = action.option("name") or ""
    if name == "dying":
        health.make_dying(state, who, health.DYING_MINUTES, events)
        return
    who.conditions = [c for c in who.conditions if c.name != name]
    who.conditions.append(Condition(name, action.option("source")))
    if name in ("sleeping", "helpless"):
        state.guards = [g for g in state.guards if g.guard != who.id]
    events.append(Event("condition", f"{who.name} is {name}", {"who": who.id, "condition": name}))


@verb("lift", "gm", "HC-COND-1", "end a character's condition: name=")
def _lift(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.target or ""]
    name = action.option("name")
    who.conditions = [c for c in who.conditions if c.name != name]
    events.append(Event("condition", f"{who.name} is no longer {name}", {"who": who.id}))


@checks("heal")
def _check_heal(state: ClassicState, action: Action, plan: Planned) -> None:
    who = fighter(state, action.target, "HC-COND-1")
    if who.dead:
        raise IllegalAction("HC-COND-1", f"{who.name} is dead")
    number(action, "hp", rule="HC-COND-1")


@verb("heal", "gm", "HC-COND-1", "restore hit points (hp=, all by default)")
def _heal(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.target or ""]
    health.heal(who, number(action, "hp", who.profile.max_hp), events)


@checks("wait")
def _check_wait(state: ClassicState, action: Action, plan: Planned) -> None:
    if number(action, "seconds", rule="HC-ROUND-1") <= 0:
        raise IllegalAction("HC-ROUND-1", "wait seconds=N, with N above 0")


@verb("wait", "gm", "HC-COND-1", "let in-game time pass: seconds=")
def _wait(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.clock += number(action, "seconds")
    events.append(Event("clock", f"{number(action, 'seconds')} seconds pass", {}))
    health.tick(state, events)
