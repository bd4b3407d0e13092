"""Shooting, casting and improvising in a side's phase (S-ATK-2, S-ATK-3, S-IMPROV-1).

    ana shoot orc [weapon=Longbow] [called=hands]    resolved at once, in the phase
    mira cast orc spell='Fire bolt' test=Intelligence difficulty=1 damage=1d6
    darna improvise orc text='kicks the brazier over' test=Agility damage=1d6

A ranged attack reads its range band (close: a bonus of 1, far: difficulty 1); moving
around it is split (:func:`~fracas.rules.sides.positions.movement_left`). A shooter
or caster cannot charge, never runs, and gets Last Strike in melee; casting within an
enemy's melee range gives that enemy an opportunity attack. The seed leaves spells to
its chapter on Arcane Magic: a spell here is what the referee sets, like an improvised
action: an optional check (``test=<attribute>``, ``difficulty=``, ``bonus=``) and
optional damage on success.
"""

from __future__ import annotations

from fracas.dice import RollUnder
from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.sides import melee, options
from fracas.rules.sides.attacks import land, strike, take_damage
from fracas.rules.sides.positions import distance, engaged_with, show, within
from fracas.rules.sides.state import Combatant, SidesState
from fracas.rules.sides.verbs import combatant, enemy, verb


def band(state: SidesState, who: Combatant, target: Combatant, action: Action) -> str:
    """S-ATK-2: close, medium or far; beyond far range there is no shot."""
    _, weapon = options.weapon(who, action, True, "S-ATK-2")
    assert weapon.range is not None
    gap = distance(who.position, target.position)
    for name in ("close", "medium", "far"):
        if within(gap, state.tables.feet_to(getattr(weapon.range, name), state.units)):
            return name
    far = state.tables.feet_to(weapon.range.far, state.units)
    raise IllegalAction(
        "S-ATK-2",
        f"{target.name} is {show(gap, state.units)} away, beyond far range "
        f"({show(far, state.units)})",
    )


def _check_shoot(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    doing = who.doing
    if doing.shot:
        raise IllegalAction("S-ATK-2", f"{who.name} has already fired this round")
    if doing.cast:
        raise IllegalAction(
            "S-ATK-3", f"{who.name} cast a spell and cannot attack with a ranged weapon"
        )
    if doing.improvised:
        raise IllegalAction("S-IMPROV-1", f"{who.name} improvised instead of attacking this round")
    if doing.movement == "run":
        raise IllegalAction("S-MOVE-3", f"{who.name} ran: a running character may not fire")
    if doing.movement == "charge":
        raise IllegalAction("S-ATK-2", f"{who.name} charged: a shooter cannot charge")
    target = enemy(state, who, action.target, "S-ATK-2")
    band(state, who, target, action)
    options.check_attack_options(state, action, "S-ATK-2")


@verb("shoot", "phase", "S-ATK-2", "a ranged attack, resolved at once", _check_shoot)
def _shoot(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    assert action.target is not None
    target = state.combatants[action.target]
    where = band(state, who, target, action)
    who.doing.shot = True
    hit = strike(
        state,
        dice,
        who,
        target,
        options.weapon(who, action, True, "S-ATK-2"),
        events,
        kind=f"shoots ({where} range) at",
        band=where,
        called=options.called_shot(state, action),
        difficulty=options.number(action, "difficulty", "S-ATK-2") or 0,
        bonus=options.number(action, "bonus", "S-ATK-2") or 0,
    )
    if hit is not None:
        land(state, hit, events)


def _check_test(state: SidesState, action: Action, who: Combatant, rule: str) -> None:
    """The referee's check and damage, shared by spells and improvised actions."""
    test = action.option("test")
    if test is not None and who.stats.attribute(test) is None:
        raise IllegalAction(rule, f"{who.name} has no {test} score to test")
    options.number(action, "difficulty", rule)
    options.number(action, "bonus", rule)
    if options.dice(action, "damage", rule) is not None:
        if action.target is None:
            raise IllegalAction(rule, "damage= needs a target")
        target = combatant(state, action.target, rule)
        if target.out:
            raise IllegalAction(rule, f"{target.name} is dead")
    elif action.target is not None:
        combatant(state, action.target, rule)


def _referee_test(
    state: SidesState,
    action: Action,
    who: Combatant,
    dice: DiceSource,
    events: list[Event],
    rule: str,
) -> None:
    """Roll the check the referee set (2d6 at or under attribute - difficulty + bonus), if
    any, and on success deal the damage the referee set, if any (Protection aside)."""
    test = action.option("test")
    success = True
    if test is not None:
        score = who.stats.attribute(test)
        assert score is not None
        hard = options.number(action, "difficulty", rule) or 0
        easy = options.number(action, "bonus", rule) or 0
        need = score - hard + easy
        roll = dice.roll(RollUnder.target(need), f"{who.name}'s {test} check")
        success = roll.result == 1
        text = f"{test} {score}" + (f" - {hard}" if hard else "") + (f" + {easy}" if easy else "")
        rolls = f"rolls {'+'.join(map(str, roll.faces))} = {roll.parts['total']}: " + (
            "success" if success else "failure"
        )
        events.append(
            Event(
                "check",
                f"{who.name} tests {text} = {need}: {rolls}",
                {
                    "who": who.id,
                    "attribute": test,
                    "needed": need,
                    "faces": list(roll.faces),
                    "success": success,
                },
                # The score tells the attribute, which is the own side's.
                detail=frozenset({who.side}),
                outline=f"{who.name} tests {test}: {rolls}",
                outline_data={
                    "who": who.id,
                    "attribute": test,
                    "faces": list(roll.faces),
                    "success": success,
                },
            )
        )
    damage = options.dice(action, "damage", rule)
    if success and damage is not None and action.target is not None:
        target = state.combatants[action.target]
        roll = dice.roll(damage, f"damage of {who.name}'s {action.verb}")
        events.append(
            Event(
                "damage",
                f"damage {damage.notation()}: {roll.result}",
                {
                    "who": who.id,
                    "target": target.id,
                    "faces": list(roll.faces),
                    "damage": roll.result,
                },
            )
        )
        take_damage(target, roll.result, events)


def _check_cast(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    doing = who.doing
    if doing.cast:
        raise IllegalAction("S-ATK-3", f"{who.name} has already cast a spell this round")
    if doing.shot:
        raise IllegalAction("S-ATK-3", f"{who.name} attacked with a ranged weapon and cannot cast")
    if doing.improvised:
        raise IllegalAction("S-IMPROV-1", f"{who.name} improvised instead of casting this round")
    if doing.movement == "run":
        raise IllegalAction("S-MOVE-3", f"{who.name} ran: a running character may not cast")
    if doing.movement == "charge":
        raise IllegalAction("S-ATK-3", f"{who.name} charged: a caster cannot charge")
    _check_test(state, action, who, "S-ATK-3")


@verb(
    "cast",
    "phase",
    "S-ATK-3",
    "cast a spell: spell= [test= difficulty= bonus= damage=]",
    _check_cast,
)
def _cast(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    who.doing.cast = True
    spell = action.option("spell", "a spell")
    on = "" if action.target is None else f" on {state.combatants[action.target].name}"
    events.append(
        Event(
            "cast",
            f"{who.name} casts {spell}{on}",
            {"who": who.id, "spell": spell, "target": action.target},
        )
    )
    _referee_test(state, action, who, dice, events, "S-ATK-3")
    if not who.out:
        for foe in engaged_with(state, who):
            melee.offer(state, foe, who, "casts a spell within melee range", events)


def _check_improvise(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    doing = who.doing
    if doing.shot or doing.cast or doing.improvised:
        did = "fired" if doing.shot else "cast a spell" if doing.cast else "improvised"
        raise IllegalAction(
            "S-IMPROV-1",
            f"an improvised action is instead of attacking and casting: {who.name} {did}",
        )
    if doing.movement == "charge":
        raise IllegalAction("S-IMPROV-1", f"{who.name} charged to attack in melee")
    _check_test(state, action, who, "S-IMPROV-1")


@verb(
    "improvise",
    "phase",
    "S-IMPROV-1",
    "an improvised action instead of attacking: text= [test= difficulty= bonus= damage=]",
    _check_improvise,
)
def _improvise(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    who.doing.improvised = True
    what = action.option("text", "something unexpected")
    events.append(
        Event("improvise", f"{who.name} improvises: {what}", {"who": who.id, "text": what})
    )
    _referee_test(state, action, who, dice, events, "S-IMPROV-1")
