"""The game master's calls: begin, effects, time, healing, challenges, contests, XP."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import chase, effects, health, terrain, turns
from fracas.rules.heimr.rolls import challenge, turns_running
from fracas.rules.heimr.sheet import divide_xp
from fracas.rules.heimr.state import Combatant, HeimrState
from fracas.rules.heimr.verbs.registry import (
    ability_of,
    checks,
    number,
    verb,
    who,
)

# -- the game master ---------------------------------------------------------------------


@checks("begin")
def _check_begin(state: HeimrState, action: Action) -> None:
    if state.started:
        raise IllegalAction("H-INIT-1", "combat has already begun")


@verb("begin", "gm", "H-INIT-1", "roll initiative and start combat")
def _begin(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.begin(state, dice, events)


@checks("effect")
def _check_effect(state: HeimrState, action: Action) -> None:
    who(state, action.target)
    name = effects.name_of(state, action.option("name") or "")
    if name in ("Resist", "Miss"):
        raise IllegalAction("H-EFF-9", f"{name} is a reaction: give it as reaction={name}")
    number(action, "number")
    if action.option("reaction") is None and name == "Bind":
        effects.bind_part(action.option("part"))
    if action.option("reaction") is None and name == "Stumble":
        target = who(state, action.target)
        effects.stumble_direction(state, target, action.option("from"), action.option("direction"))


@verb("effect", "gm", "H-EFF-1", "call an effect on a character: name= number= part= from=")
def _effect(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    name = effects.name_of(state, action.option("name") or "")
    reaction = action.option("reaction")
    if reaction is not None:
        reaction = effects.name_of(state, reaction)
    effects.receive(
        state,
        target,
        name,
        number(action, "number"),
        events,
        source=action.option("from"),
        part=action.option("part"),
        reaction=reaction,
        direction=action.option("direction"),
        item=action.option("item"),
    )
    if reaction is None:  # a Resist or Miss negates it: nothing hit the climber
        terrain.hold_on(state, target, dice, events)  # H-GRID-7


@checks("wait")
def _check_wait(state: HeimrState, action: Action) -> None:
    if (number(action, "seconds") or 0) <= 0:
        raise IllegalAction("H-HP-5", "wait seconds=N, with N above 0")


@verb("wait", "gm", "H-HP-5", "let in-game time pass out of combat: seconds=")
def _wait(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    seconds = number(action, "seconds") or 0
    state.clock += seconds
    events.append(Event("clock", f"{seconds} seconds pass", {"clock": state.clock}))
    health.tick(state, events)


@checks("stabilize")
def _check_stabilize(state: HeimrState, action: Action) -> None:
    target = who(state, action.target)
    if not target.injured or target.dead:
        raise IllegalAction("H-HP-4", f"{target.name} is not dying")


@verb("stabilize", "gm", "H-HP-4", "a skill stabilizes an injured character")
def _stabilize(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.stabilize(who(state, action.target), events)


@checks("reopen")
def _check_reopen(state: HeimrState, action: Action) -> None:
    target = who(state, action.target)
    if not target.injured or target.dead or not target.stabilized:
        raise IllegalAction("H-HP-4", f"{target.name} has no stabilized injury to reopen")


@verb("reopen", "gm", "H-HP-4", "moving the injured part reopens the injury")
def _reopen(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.reopen(state, who(state, action.target), events)


@verb("heal", "gm", "H-HP-3", "restore hit points: hp=")
def _heal(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    health.heal(target, number(action, "hp", target.stats.hit_points) or 0, events)


@checks("challenge")
def _check_challenge(state: HeimrState, action: Action) -> None:
    c = who(state, action.target)
    if action.option("attribute") is None:
        ability_of(state, c, action.option("ability"))
    elif action.option("attribute") not in c.stats.attributes:
        raise IllegalAction("H-CHAR-4", f"unknown attribute {action.option('attribute')!r}")
    if number(action, "cr") is None:
        raise IllegalAction("H-DICE-7", "a challenge needs its requirement: cr=N")


@verb("challenge", "gm", "H-DICE-7", "a CR challenge: ability= or attribute= consistency=, cr=")
def _challenge(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.target)
    cr = number(action, "cr") or 0
    state.pending = None
    passed = roll_challenge(state, c, action, cr, dice, events)
    if not passed:
        state.pending = str(action)


def roll_challenge(
    state: HeimrState, c: Combatant, action: Action, cr: int, dice: DiceSource, events: list[Event]
) -> bool:
    """Roll an ability (H-CHAR-2) or attribute (H-CHAR-4) against a CR (H-DICE-7)."""
    from fracas.rules.heimr.state import Ability

    attribute = action.option("attribute")
    if attribute is not None:
        consistency = number(action, "consistency", 0) or 0
        ability = Ability(consistency, c.stats.attributes[attribute], (attribute,))
        label = attribute
    else:
        label = ability_of(state, c, action.option("ability"))
        ability = c.stats.abilities[label]
    penalty = number(action, "penalty", 0) or 0
    mods = [("situational", -penalty)] if penalty else []
    check = challenge(
        c,
        ability,
        dice,
        f"{c.name} rolls {label} against CR {cr}",
        mods,
        events=events,
        in_combat=turns_running(state),
    )
    passed = not check.failed_outright and check.result >= cr
    events.append(
        Event(
            "challenge",
            f"{c.name} {'passes' if passed else 'fails'} CR {cr}",
            {"who": c.id, "cr": cr, "passed": passed},
        )
    )
    effects.interrupt(c, "dice challenge", events)
    return passed


@checks("reroll")
def _check_reroll(state: HeimrState, action: Action) -> None:
    if state.pending is None or Action.parse(state.pending).target != action.actor:
        raise IllegalAction("H-DICE-7", f"{action.actor} has no failed challenge to re-roll")
    if who(state, action.actor).willpower < 1:
        raise IllegalAction("H-DICE-7", f"{action.actor} has no willpower left to re-roll")


@verb("reroll", "any", "H-DICE-7", "spend 1 willpower to re-roll the failed challenge")
def _reroll(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    assert state.pending is not None
    original = Action.parse(state.pending)
    c = who(state, action.actor)
    c.willpower -= 1
    events.append(
        Event(
            "willpower",
            f"{c.name} spends 1 willpower to re-roll ({c.willpower} left)",
            {"who": c.id, "willpower": c.willpower},
            detail=frozenset({c.side}),
            outline=f"{c.name} spends willpower to re-roll",
            outline_data={"who": c.id},
        )
    )
    if roll_challenge(state, c, original, number(original, "cr") or 0, dice, events):
        state.pending = None


@checks("contest")
def _check_contest(state: HeimrState, action: Action) -> None:
    a, b = who(state, action.target), who(state, action.option("against"))
    ability_of(state, a, action.option("ability"))
    ability_of(state, b, action.option("with"))


@verb("contest", "gm", "H-DICE-8", "opposed challenge: <a> ability= against=<b> with=<ability>")
def _contest(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    a, b = who(state, action.target), who(state, action.option("against"))
    contest(
        state,
        a,
        ability_of(state, a, action.option("ability")),
        b,
        ability_of(state, b, action.option("with")),
        dice,
        events,
    )


def contest(
    state: HeimrState,
    a: Combatant,
    ability_a: str,
    b: Combatant,
    ability_b: str,
    dice: DiceSource,
    events: list[Event],
) -> bool:
    """H-DICE-8: both roll and compare; the first must beat the second (a tie holds)."""
    fighting = turns_running(state)
    ra = challenge(
        a,
        a.stats.abilities[ability_a],
        dice,
        f"{a.name} rolls {ability_a}",
        events=events,
        in_combat=fighting,
    )
    rb = challenge(
        b,
        b.stats.abilities[ability_b],
        dice,
        f"{b.name} rolls {ability_b}",
        events=events,
        in_combat=fighting,
    )
    won = not ra.failed_outright and (rb.failed_outright or ra.result > rb.result)
    events.append(
        Event(
            "contest",
            f"{a.name}'s {ability_a} {ra.result} against {b.name}'s "
            f"{ability_b} {rb.result}: "
            f"{a.name if won else b.name} wins",
            {"winner": a.id if won else b.id},
        )
    )
    return won


@verb("award", "gm", "H-XP-1", "encounter XP divided among a side present: xp= [group=]")
def _award(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    side = _award_side(action)
    group = action.option("group") or side
    present = [c for c in state.combatants.values() if not c.dead and c.side == side]
    carried = state.xp_remainder.get(group, 0)
    share = divide_xp(number(action, "xp", 0) or 0, len(present), carried)
    state.xp_remainder[group] = share.remainder
    for c in present:
        c.xp += share.each
    events.append(
        Event(
            "xp",
            f"{share.each} XP each to {', '.join(c.name for c in present)}; "
            f"{share.remainder} carried over for {group}",
            {"each": share.each, "remainder": share.remainder, "group": group},
            detail=frozenset({c.side for c in present}),  # XP is the own side's
        )
    )


def _award_side(action: Action) -> str:
    return action.option("side") or action.target or ""


@checks("award")
def _check_award(state: HeimrState, action: Action) -> None:
    if number(action, "xp") is None or not _award_side(action):
        raise IllegalAction("H-XP-1", "award <side> xp=N [group=NAME]")
    side = _award_side(action)
    present = {c.side for c in state.combatants.values() if not c.dead}
    if side not in present:
        raise IllegalAction(
            "H-XP-1", f"no side {side!r} is present to share XP: {', '.join(sorted(present))}"
        )


@verb("skip", "gm", "H-INIT-2", "end the turn of a character that cannot act")
def _skip(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.end_turn(state, dice, events)


@checks("sleep")
def _check_sleep(state: HeimrState, action: Action) -> None:
    c = who(state, action.target)
    if c.out or c.sleeping:
        raise IllegalAction("H-POS-2", f"{c.name} cannot fall asleep now")


@verb("sleep", "gm", "H-POS-2", "a character falls asleep: prone and helpless")
def _sleep(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.fall_asleep(who(state, action.target), events)


@checks("sound")
def _check_sound(state: HeimrState, action: Action) -> None:
    if action.option("loud") not in (None, "yes", "no"):
        raise IllegalAction("H-POS-2", "a sound is loud=yes or loud=no (soft)")
    sleepers = _sleepers(state, action)
    if not sleepers:
        raise IllegalAction("H-POS-2", "nobody is asleep to hear it")
    for c in sleepers:
        ability_of(state, c, state.tables.waking.ability)


def _sleepers(state: HeimrState, action: Action) -> list[Combatant]:
    if action.target is not None:
        c = who(state, action.target)
        return [c] if c.sleeping else []
    return [c for c in state.combatants.values() if c.sleeping]


@verb("sound", "gm", "H-POS-2", "a sound near sleepers: [<who>] loud=yes|no; perception wakes")
def _sound(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    """H-POS-2: each sleeper (or the one named) rolls perception: CR 9 for a soft sound,
    5 for a louder one (the campaign's ``waking`` table); passing, it wakes."""
    loud = action.option("loud") == "yes"
    cr = state.tables.waking.loud if loud else state.tables.waking.soft
    for c in _sleepers(state, action):
        name = ability_of(state, c, state.tables.waking.ability)
        check = challenge(
            c,
            c.stats.abilities[name],
            dice,
            f"{c.name} hears a {'loud' if loud else 'soft'} sound (CR {cr})",
            events=events,
            in_combat=turns_running(state),
        )
        if not check.failed_outright and check.result >= cr:
            health.wake(c, f"a {'loud' if loud else 'soft'} sound", events)
        else:
            events.append(Event("sleep", f"{c.name} sleeps on", {"who": c.id}))


@checks("skip")
def _check_skip(state: HeimrState, action: Action) -> None:
    if state.turn is None:
        raise IllegalAction("H-INIT-2", "combat has not begun")


@checks("break")
def _check_break(state: HeimrState, action: Action) -> None:
    squares = [state.battlefield.place(t) for t in (action.target or "").split("-")]
    border = state.battlefield.border(squares[0], squares[1]) if len(squares) == 2 else None
    if border is None or border.toughness is None:
        raise IllegalAction("H-GRID-3", f"no structural barrier between {action.target}")
    if number(action, "number") is None:
        raise IllegalAction("H-EFF-6", "break <square>-<square> number=N (the Break effect)")


@verb("break", "gm", "H-GRID-3", "a Break effect on a barrier: <A1>-<A2> number=N")
def _break(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    a, b = (state.battlefield.place(t) for t in (action.target or "").split("-"))
    border = state.battlefield.border(a, b)
    assert border is not None and border.toughness is not None
    strength = number(action, "number") or 0
    broken = strength >= border.toughness
    if broken:
        state.broken.append(terrain.border_key(a, b))
    verdict = "breaks" if broken else "holds"
    events.append(
        Event(
            "break",
            f"the {border.name or 'barrier'} between {a} and {b} {verdict}: Break {strength} "
            f"against toughness {border.toughness}",
            {"border": terrain.border_key(a, b), "broken": broken},
        )
    )


@checks("chase")
def _check_chase(state: HeimrState, action: Action) -> None:
    chaser, target = who(state, action.target), who(state, action.option("target"))
    for c in (chaser, target):
        if c.out:
            raise IllegalAction("H-CHASE-1", f"{c.name} is out of the fight and cannot run")
    name = action.option("ability")
    if name is None:
        raise IllegalAction("H-CHASE-1", "the game master names the roll: ability=<name>")
    _chase_of(state, action, chaser, target)


def _chase_of(
    state: HeimrState, action: Action, chaser: Combatant, target: Combatant
) -> chase.Chase:
    name, consistency = action.option("ability") or "", number(action, "consistency", 0) or 0
    return chase.Chase(
        chase.Runner.of(chaser, name, consistency),
        chase.Runner.of(target, name, consistency),
        gap=_gap(state, action, chaser, target),
        escape=number(action, "escape"),
        terrains=chase.parse_terrain(action.option("terrain") or ""),  # H-CHASE-2
        consistency=consistency,
    )


def _gap(state: HeimrState, action: Action, chaser: Combatant, target: Combatant) -> int:
    found = number(action, "gap")
    return state.battlefield.grid_steps(chaser.square, target.square) if found is None else found


@verb(
    "chase",
    "gm",
    "H-CHASE-1",
    "run a chase: <chaser> target= ability= [gap= escape= terrain='2:Swim 4:Climb|Agility']",
)
def _chase(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    """H-CHASE-1: chase turns until one fails its fatigue check. Caught, or passed, the
    chaser is at the target; escaped, the target is gone from the encounter. H-CHASE-2:
    ``terrain=`` gives the GM's terrain decisions by chase turn."""
    chaser, target = who(state, action.target), who(state, action.option("target"))
    run = _chase_of(state, action, chaser, target)
    for turn in run.run(dice):
        events.extend(turn.events)
    if run.outcome in ("caught", "act"):
        effects.leave_cluster(state, chaser, events)
        chaser.square, chaser.height = target.square, target.height
    elif run.outcome == "escaped":
        target.fled = True
        effects.leave_cluster(state, target, events)
