"""The rest of a turn: breather, skills, cancel, rest, delay, readied actions, speech, observing."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import combat, effects, health, hiding, terrain, turns
from fracas.rules.heimr.rolls import Modifier, challenge, turns_running
from fracas.rules.heimr.state import Combatant, HeimrState, Readied
from fracas.rules.heimr.tables import Skill
from fracas.rules.heimr.verbs.registry import (
    SKILL_KINDS,
    VERBS,
    ability_of,
    checks,
    kind_of,
    number,
    verb,
    who,
)


@checks("breather")
def _check_breather(state: HeimrState, action: Action) -> None:
    if action.option("as") not in (None, "ongoing", "upcoming"):
        raise IllegalAction("H-ACT-3", "a breather is taken as=ongoing (now) or as=upcoming")


@verb("breather", "ongoing", "H-FAT-3", "take a breather: fatigue -2, not below base [as=upcoming]")
def _breather(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    if kind_of(action) == "upcoming":
        c.upcoming = "breather"
        events.append(Event("upcoming", f"{c.name} starts taking a breather", {"who": c.id}))
        return
    combat.breather(state, c, events)


def _spec(state: HeimrState, action: Action) -> Skill:
    return state.tables.skill(action.target or "")


def skill_cost(c: Combatant, action: Action, spec: Skill | None = None) -> int:
    """H-EFF-8: the willpower a skill costs: its own (``cost=``, else the campaign's
    ``skills`` table, 1 when not listed, docs/decisions.md) and one more while Weakened;
    H-HP-3: a rested skill's first use after a short rest is free."""
    own = number(action, "cost", 1 if spec is None else spec.cost) or 0
    if spec is not None and spec.rested and _skill_name(c, action) not in c.rested_used:
        own = 0
    return own + (1 if c.has("Weaken") else 0)


def _skill_name(c: Combatant, action: Action) -> str:
    name = (action.target or "").lower()
    return next((s for s in c.skills if s.lower() == name), action.target or "")


def skill_kind(state: HeimrState, action: Action) -> str:
    """H-SKILL-1: the action type of a skill: ``as=``, else the campaign's table."""
    return action.option("as") or _spec(state, action).kind


@checks("skill")
def _check_skill(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    name = action.target or ""
    if name.lower() not in (s.lower() for s in c.skills):
        known = ", ".join(c.skills) or "none"
        raise IllegalAction("H-ACT-3", f"{c.name} has no skill {name!r} (skills: {known})")
    if action.option("as") not in (None, *SKILL_KINDS):
        raise IllegalAction("H-ACT-1", f"as= is one of {', '.join(SKILL_KINDS)}")
    if c.has("Daze"):
        raise IllegalAction("H-EFF-5", f"{c.name} is dazed and cannot use a skill")
    spec = _spec(state, action)
    _check_prerequisite(state, c, name, spec)
    _check_called_effect(state, action, c, spec)
    cost = skill_cost(c, action, spec)
    if c.willpower < cost:
        raise IllegalAction(
            "H-EFF-8" if c.has("Weaken") else "H-ACT-3",
            f"{name} costs {cost} willpower"
            + (" while Weakened" if c.has("Weaken") else "")
            + f"; {c.name} has {c.willpower}",
        )


def _check_prerequisite(state: HeimrState, c: Combatant, name: str, spec: Skill) -> None:
    """H-SKILL-1: not as a combat action when the skill cannot be; its prerequisite
    met; one skill used or prepared at a time."""
    if not spec.combat and turns_running(state):
        raise IllegalAction("H-SKILL-1", f"{name} cannot be used as a combat action")
    if c.skill_in_use is not None:
        raise IllegalAction(
            "H-SKILL-1",
            f"{c.name} is using {c.skill_in_use}: one skill used or prepared at a time",
        )
    known = {s.lower() for s in c.skills}
    missing = [s for s in spec.needs.skills if s.lower() not in known]
    if missing:
        raise IllegalAction("H-SKILL-1", f"{name} needs the skill {', '.join(missing)}")
    if spec.needs.free_hand and not c.free_hand():
        raise IllegalAction("H-SKILL-1", f"{name} needs a free hand")
    held = {i.name.lower() for i in c.held()}
    if spec.needs.holding and held.isdisjoint(h.lower() for h in spec.needs.holding):
        raise IllegalAction(
            "H-SKILL-1", f"{name} needs one of these in hand: {', '.join(spec.needs.holding)}"
        )


def _check_called_effect(state: HeimrState, action: Action, c: Combatant, spec: Skill) -> None:
    """H-EFF-11: a player calls an effect only with a skill that corresponds to it."""
    effect = action.option("effect")
    if effect is None:
        return
    name = effects.name_of(state, effect)
    if name not in spec.effects:
        can = ", ".join(spec.effects) or "no effect"
        raise IllegalAction("H-EFF-11", f"{action.target} does not call {name}: it calls {can}")
    target = who(state, action.option("on"), "H-EFF-11")
    if target.dead:
        raise IllegalAction("H-EFF-11", f"{target.name} is dead")
    if hiding.hidden_from(target, c.side) == hiding.UNAWARE:
        raise IllegalAction("H-EFF-11", f"{c.name} sees no one called {target.id!r}")
    number(action, "number")
    if name == "Bind":
        effects.bind_part(action.option("part"))
    if name == "Stumble":
        effects.stumble_direction(state, target, c.id, action.option("direction"))


@verb(
    "skill",
    "standard",
    "H-SKILL-1",
    "use a skill: <skill> [effect=<name> on=<who> number=N] [cost=N] [as=free|ongoing|...]",
)
def _skill(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    spec = _spec(state, action)
    name = _skill_name(c, action)
    cost = skill_cost(c, action, spec)
    c.willpower -= cost
    extra = " (1 more while Weakened)" if c.has("Weaken") else ""
    if spec.rested and name not in c.rested_used:
        c.rested_used.append(name)  # H-HP-3: its free use is spent until a short rest
        extra += " (its rested use)"
    events.append(
        Event(
            "skill",
            f"{c.name} uses {action.target} for {cost} willpower{extra}: {c.willpower} left",
            {"who": c.id, "skill": action.target, "cost": cost, "willpower": c.willpower},
            detail=frozenset({c.side}),
            outline=f"{c.name} uses {action.target}",
            outline_data={"who": c.id, "skill": action.target},
        )
    )
    effects.interrupt(c, "skill", events)  # H-ACT-1: a skill cancels an upcoming action
    kind = skill_kind(state, action)
    if turns_running(state) and kind in ("ongoing", "upcoming"):
        c.skill_in_use = name  # H-SKILL-1: until its next turn, or until it completes
        if kind == "upcoming":
            c.upcoming = f"skill {name}"
    effect = action.option("effect")
    if effect is not None:  # H-EFF-11: the effect the skill calls
        target = who(state, action.option("on"))
        effects.receive(
            state,
            target,
            effects.name_of(state, effect),
            number(action, "number"),
            events,
            source=c.id,
            part=action.option("part"),
            direction=action.option("direction"),
            item=action.option("item"),
        )
        terrain.hold_on(state, target, dice, events)  # H-GRID-7


@checks("cancel")
def _check_cancel(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    assert state.turn is not None
    if c.upcoming is None or state.turn.acted:
        raise IllegalAction(
            "H-ACT-1",
            f"{c.name} has no upcoming action to cancel: that is done at the start of the "
            "turn it would complete in",
        )


@verb("cancel", "start", "H-ACT-1", "cancel your upcoming action at the start of your turn")
def _cancel(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    assert state.turn is not None
    events.append(Event("upcoming", f"{c.name} cancels the upcoming {c.upcoming}", {"who": c.id}))
    if (c.upcoming or "").startswith("skill "):
        c.skill_in_use = None  # H-SKILL-1
    c.upcoming = None
    state.turn.standard = False  # the standard action is the character's again


@verb("rest", "start", "H-HP-3", "a short rest of five minutes, out of combat")
def _rest(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    state.clock += 5 * 60
    health.tick(state, events)
    c.hp = c.stats.hit_points
    c.fatigue = combat.base_fatigue(state, c)
    regained = ", ".join(c.rested_used)
    c.rested_used.clear()  # H-HP-3: the free use of rested skills is regained
    events.append(
        Event(
            "rest",
            f"{c.name} rests five minutes: {c.hp} hit points"
            + (f"; rested skills regained: {regained}" if regained else ""),
            {"who": c.id, "hp": c.hp, "clock": state.clock},
            detail=frozenset({c.side}),
            outline=f"{c.name} rests five minutes",
            outline_data={"who": c.id, "clock": state.clock},
        )
    )


@checks("rest")
def _check_rest(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.hp < 1:
        raise IllegalAction(
            "H-HP-3", f"{c.name} is injured: a short rest needs 1 or more hit points"
        )


@checks("delay")
def _check_delay(state: HeimrState, action: Action) -> None:
    assert state.turn is not None
    if state.turn.acted:
        raise IllegalAction("H-INIT-3", "delay only at the start of your turn")
    anchor = action.option("after") or action.option("before")
    if anchor is None or anchor == action.actor:
        raise IllegalAction("H-INIT-3", "delay after=<character> or before=<character>")
    other = who(state, anchor)
    if hiding.hidden_from(other, who(state, action.actor).side) == hiding.UNAWARE:
        # H-POS-4: one cannot wait for a character one does not know is there.
        raise IllegalAction("H-INIT-3", f"{action.actor} sees no one called {anchor!r}")
    after = action.option("after") is not None
    if turns.delayed_order(state.order, action.actor, anchor, after) == state.order:
        raise IllegalAction("H-INIT-3", f"{action.actor} already stands there in the order")


@verb("delay", "start", "H-INIT-3", "move yourself in the order: after= or before=")
def _delay(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    after = action.option("after")
    turns.delay(
        state,
        dice,
        who(state, action.actor),
        after or action.option("before") or "",
        after is not None,
        events,
    )


@checks("ready")
def _check_ready(state: HeimrState, action: Action) -> None:
    text = action.option("action")
    if text is None or action.option("trigger") is None:
        raise IllegalAction("H-INIT-4", "ready action='<action>' trigger='<what triggers it>'")
    readied = Action.parse(f"{action.actor} {text}")
    if readied.verb not in VERBS or VERBS[readied.verb].kind not in ("standard", "ongoing"):
        raise IllegalAction("H-INIT-4", f"{readied.verb!r} is not a combat action to ready")


@verb("ready", "standard", "H-INIT-4", "ready one combat action: action='...' trigger='...'")
def _ready(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.readied = Readied(action.option("action") or "", action.option("trigger") or "")
    events.append(
        Event("ready", f"{c.name} readies an action", {"who": c.id}, seen_by=frozenset({c.side}))
    )


@checks("trigger")
def _check_trigger(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.readied is None:
        raise IllegalAction("H-INIT-4", f"{c.name} has no readied action")
    if state.current == c.id:
        raise IllegalAction("H-INIT-4", "a readied action happens in another character's turn")
    if action.option("intent") is not None and c.readied.intent_failed:
        raise IllegalAction(
            "H-INIT-5", f"{c.name} has already failed to see this intent: wait for the attack"
        )
    readied = Action.parse(f"{c.id} {c.readied.action}")
    try:
        VERBS.check(state, readied)
    except IllegalAction as err:
        # H-INIT-4: the readied action comes after its trigger, so it meets the world as
        # the trigger left it; an intent (H-INIT-5) is the way to act before it.
        raise IllegalAction(
            "H-INIT-4",
            f"{c.name}'s readied {readied.verb} cannot go off now, after its trigger: "
            f"{err.reason} ({err.rule}); to act before a move or an attack, trigger on the "
            f"intent as it is declared: {c.id} trigger intent=1",
        ) from None


@verb("trigger", "reaction", "H-INIT-4", "the trigger happened: do the readied action now")
def _trigger(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    assert c.readied is not None and state.turn is not None
    trigger_actor = state.combatants[state.turn.actor]
    readied = Action.parse(f"{c.id} {c.readied.action}")
    # H-INIT-5: on intent, the actor hides it (persuasion) and the readier's insight is a
    # challenge against that roll.
    if action.option("intent") is not None and not turns.sees_intent(
        c, trigger_actor, dice, events
    ):
        c.readied.intent_failed = True
        text = f"{c.name} does not see it coming in time: the readied action comes after"
        events.append(Event("ready", text, {"who": c.id}))
        return
    events.append(
        Event(
            "ready",
            f"{c.readied.trigger}: {c.name}'s readied {readied.verb} goes off",
            {"who": c.id},
        )
    )
    c.readied = None
    VERBS[readied.verb].apply(state, readied, dice, events)
    if VERBS[readied.verb].kind == "ongoing":
        c.ongoing = True  # H-ACT-1: -2 on defence rolls until its next turn
    turns.move_in_order(state, c.id, trigger_actor.id, after=False)


@verb("speak", "free", "H-ACT-3", "speak a few sentences: text='...'")
def _speak(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    events.append(Event("speak", f"{c.name}: {action.option('text', '...')}", {"who": c.id}))
    hiding.reveal(c, "speaking is a loud sound", events)  # H-ACT-7


@checks("hide")
def _check_hide(state: HeimrState, action: Action) -> None:
    hiding.check_hide(state, who(state, action.actor))


@verb("hide", "free", "H-ACT-7", "hide where your square conceals you: survival sets the CR")
def _hide(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    hiding.hide(state, who(state, action.actor), dice, events)


@checks("observe")
def _check_observe(state: HeimrState, action: Action) -> None:
    ability_of(state, who(state, action.actor), action.option("ability", "Perception"))


@verb("observe", "free", "H-ACT-3", "perception on a square or character, insight on an opponent")
def _observe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    name = ability_of(state, c, action.option("ability", "Perception"))
    square = state.battlefield.place(action.target or "")
    if name == "Perception" and square in state.battlefield:
        hiding.observe_square(state, c, square, dice, events)  # H-ACT-3, H-ACT-7
        return
    bonus: list[Modifier] = []
    # What a character notices is its own side's to know.
    check = challenge(
        c,
        c.stats.abilities[name],
        dice,
        f"{c.name} observes {action.target}",
        potential=bonus,
        events=events,
        seen_by=frozenset({c.side}),
    )
    other = state.combatants.get(action.target or "")
    if name == "Perception" and other is not None and other.side != c.side:
        _search(c, other, check.result if not check.failed_outright else None, events)


def _search(c: Combatant, other: Combatant, result: int | None, events: list[Event]) -> None:
    """H-ACT-3: perception on a character finds the items it conceals when the roll
    reaches their CR; the observer's side learns of them, and only it (the same words
    whether or not there was anything to find)."""
    found = (
        other.concealed
        and other.conceal_cr is not None
        and result is not None
        and result >= other.conceal_cr
    )
    if found:
        if c.side not in other.concealed_found_by:
            other.concealed_found_by.append(c.side)
        names = ", ".join(i.name for i in other.concealed)
        text = f"{c.name} finds what {other.name} conceals: {names}"
    else:
        text = f"{c.name} finds nothing hidden on {other.name}"
    events.append(Event("search", text, {"who": c.id, "on": other.id}, frozenset({c.side})))
