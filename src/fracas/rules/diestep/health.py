"""Damage, knockout, survival, wounds and healing (D-DMG-1 .. D-HEAL-1).

Hit points stop at 0, which knocks a character out for the encounter and empties its
MP. Lethal damage of twice the maximum HP in one hit kills outright (once the maximum
when already knocked out); a minion, or a character with 0 maximum HP, dies when
lethal damage knocks it out. When the encounter ends (or magic revives it sooner) a
character knocked out by lethal damage makes its survival roll: FOR, 1 dead, 2
mortally wounded, 3 badly wounded, 4+ awake after five minutes with 1 HP.

Time after the encounter runs in minutes (``gm wait minutes=N``): the mortally wounded
die after ten unless healed; the knocked out wake when their time comes; after about an
hour of rest awake the wounded have full HP and MP again (D-REC-1). Days of rest between
encounters are the books' (:mod:`.books`).
"""

from __future__ import annotations

from fracas.dice import successes
from fracas.engine import DiceSource, Event
from fracas.rules.diestep import grapple
from fracas.rules.diestep.rolls import ADV, Source, conditions, roll, side_only
from fracas.rules.diestep.state import Combatant, DieStepState


def damage(
    state: DieStepState, target: Combatant, amount: int, lethal: bool, events: list[Event]
) -> None:
    """D-DMG-1, D-KO-2: ``amount`` points of (lethal or stunning) damage to ``target``."""
    if amount <= 0 or target.dead:
        return
    was_out = target.knocked_out
    most = target.sheet.hit_points or 0
    kind = "lethal" if lethal else "non-lethal"
    if lethal and amount >= (most if was_out else 2 * most):
        target.hp = 0
        times = "once" if was_out else "twice"
        kill(
            state,
            target,
            events,
            f"{amount} lethal damage, {times} its {most} HP in one hit",
            f"{amount} lethal damage in one hit",
        )
        return
    target.hp = max(0, target.hp - amount)
    events.append(
        Event(
            "damage",
            f"{target.name} takes {amount} {kind} damage ({target.hp}/{most} HP)",
            {"who": target.id, "damage": amount, "lethal": lethal, "hp": target.hp},
            detail=side_only(target.side),  # hit points are the own side's
            outline=f"{target.name} takes {amount} {kind} damage",
            outline_data={"who": target.id, "damage": amount, "lethal": lethal},
        )
    )
    if was_out:
        target.ko_lethal = target.ko_lethal or lethal
    elif target.hp == 0:
        knock_out(state, target, lethal, events)
        if lethal and target.sheet.minion:
            kill(state, target, events, "a minion knocked out by lethal damage")


def knock_out(state: DieStepState, who: Combatant, lethal: bool, events: list[Event]) -> None:
    """D-DMG-1: knocked out for the encounter; MP drop to 0."""
    who.knocked_out, who.ko_lethal, who.mp = True, lethal, 0
    events.append(Event("knockout", f"{who.name} is knocked out", {"who": who.id}))
    _fall(state, who, events, "knocked out")


def kill(
    state: DieStepState, who: Combatant, events: list[Event], why: str, seen: str | None = None
) -> None:
    """``who`` dies; ``seen`` is the why the other sides read when ``why`` tells HP."""
    who.dead, who.knocked_out, who.hp, who.mp = True, False, 0, 0
    who.dies_at = who.wake_at = None
    if seen is None:
        events.append(Event("death", f"{who.name} dies: {why}", {"who": who.id}))
    else:
        events.append(
            Event(
                "death",
                f"{who.name} dies: {why}",
                {"who": who.id},
                detail=frozenset({who.side}),
                outline=f"{who.name} dies: {seen}",
                outline_data={"who": who.id},
            )
        )
    _fall(state, who, events, "dead")


def _fall(state: DieStepState, who: Combatant, events: list[Event], why: str) -> None:
    """The fallen let go, drop from the saddle (or throw their rider) and lie prone."""
    grapple.break_grabs(state, who, events, f"{who.name} is {why}")
    partner = state.partner(who)
    if partner is not None:
        rider, mount = (who, partner) if who.mounted_on else (partner, who)
        rider.mounted_on, mount.rider, rider.prone = None, None, True
        events.append(Event("fall", f"{rider.name} falls to the ground", {"who": rider.id}))
        if state.turn is not None and state.turn.partner == mount.id:
            state.turn.partner = None
    who.prone = True
    if state.turn is not None and state.turn.actor == who.id:
        state.turn.done = True


def survival_roll(
    state: DieStepState, who: Combatant, dice: DiceSource, events: list[Event], ritual: bool
) -> None:
    """D-KO-1 (D-HEAL-1: advantaged by a healing ritual)."""
    sources: list[Source] = [("healing ritual", ADV)] if ritual else []
    result = roll(dice, who, "FOR to survive", who.die("for"), sources, events)
    who.survival = result
    table = state.tables.survival
    minutes = state.tables.minutes
    if result <= table.dead:
        kill(state, who, events, f"survival roll {result}")
        return
    if result <= table.mortally_wounded:
        who.wound, who.permanent_injury = "mortal", True
        who.dies_at, who.wake_at = state.minutes + minutes.mortal_wound, None
        text = f"{who.name} is mortally wounded: dies within {minutes.mortal_wound} minutes"
    elif result <= table.badly_wounded:
        who.wound, who.wake_at = "badly", state.minutes + minutes.badly_wounded_wake
        text = f"{who.name} is badly wounded: wakes in about {minutes.badly_wounded_wake} minutes"
    else:
        who.wake_at, who.stunned = state.minutes + minutes.wake, 1
        text = f"{who.name} will wake after {minutes.wake} minutes with 1 HP"
    events.append(Event("survival", text, {"who": who.id, "roll": result, "wound": who.wound}))


def owes_survival(who: Combatant) -> bool:
    """D-KO-1: knocked out by lethal damage, and the roll not yet made."""
    return who.knocked_out and who.ko_lethal and who.survival is None and not who.dead


def end_encounter(state: DieStepState, events: list[Event]) -> None:
    """The encounter is over: survival rolls are owed by the lethally knocked out (D-KO-1).

    They are made by ``gm survival``, before time passes (``gm wait``), or at once when
    magical healing arrives (advantaged for a ritual, D-HEAL-1).
    """
    state.over, state.turn = True, None
    state.windows.clear()
    owed = [
        state.who(c).name for c in state.order or state.combatants if owes_survival(state.who(c))
    ]
    more = f"; survival rolls owed by {', '.join(owed)}" if owed else ""
    events.append(Event("over", f"the encounter is over{more}", {}))
    for who in state.combatants.values():
        if who.knocked_out and not who.ko_lethal and not who.dead:
            who.wake_at = state.minutes + state.tables.minutes.wake


def survive_all(state: DieStepState, dice: DiceSource, events: list[Event]) -> None:
    for cid in state.order or list(state.combatants):
        if owes_survival(state.who(cid)):
            survival_roll(state, state.who(cid), dice, events, ritual=False)


def wait(state: DieStepState, minutes: int, dice: DiceSource, events: list[Event]) -> None:
    """Time after the encounter: owed survival rolls first; then the mortally wounded die
    and the knocked out wake when their time comes."""
    survive_all(state, dice, events)
    start = state.minutes
    state.minutes += minutes
    events.append(Event("clock", f"{minutes} minutes pass", {"minutes": state.minutes}))
    for who in state.combatants.values():
        if who.dead:
            continue
        if not who.knocked_out:
            who.rested += minutes  # awake all along: resting (D-REC-1)
        if who.dies_at is not None and who.dies_at <= state.minutes:
            kill(state, who, events, "a mortal wound")
        elif who.wake_at is not None and who.wake_at <= state.minutes:
            who.rested += state.minutes - max(who.wake_at, start)
            who.knocked_out, who.wake_at = False, None
            who.hp = max(who.hp, 1)
            events.append(
                Event(
                    "wake",
                    f"{who.name} wakes with {who.hp} HP",
                    {"who": who.id},
                    detail=frozenset({who.side}),
                    outline=f"{who.name} wakes",
                    outline_data={"who": who.id},
                )
            )
    recover(state, events)


def recover(state: DieStepState, events: list[Event]) -> None:
    """D-REC-1: after about an hour of rest awake, the (merely) wounded have full HP again,
    and MP come back (a decision: the seed gives no time); the badly wounded recover
    neither (a week or a month of rest, or magic), nor do the knocked out."""
    minutes = state.tables.minutes
    for who in state.combatants.values():
        if who.dead or who.knocked_out or who.wound:
            continue
        most = who.sheet.hit_points or 0
        if who.rested >= minutes.rest and who.hp < most:
            who.hp = most
            events.append(
                Event(
                    "recover",
                    f"{who.name} has rested and recovers full HP ({most})",
                    {"who": who.id, "hp": most},
                    detail=frozenset({who.side}),
                    outline=f"{who.name} has rested and recovers",
                    outline_data={"who": who.id},
                )
            )
        if who.rested >= minutes.mp_rest and who.mp < who.sheet.magic_points:
            who.mp = who.sheet.magic_points
            events.append(
                Event(
                    "recover",
                    f"{who.name} recovers its MP ({who.mp})",
                    {"who": who.id, "mp": who.mp},
                    detail=frozenset({who.side}),
                    outline=f"{who.name} recovers its MP",
                    outline_data={"who": who.id},
                )
            )


def first_aid(
    state: DieStepState,
    medic: Combatant,
    patient: Combatant,
    supplies: str,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """D-WOUND-1: ten minutes, INT against the difficulty die; heals 1 HP of a mortal wound.

    A badly wounded patient is woken within ten minutes instead, with no roll.
    """
    minutes = state.tables.minutes
    medic.busy_until = state.minutes + minutes.first_aid
    if patient.wound != "mortal":
        soon = state.minutes + minutes.roused
        patient.wake_at = soon if patient.wake_at is None else min(patient.wake_at, soon)
        events.append(Event("aid", f"{medic.name} tends {patient.name}, who will wake soon", {}))
        return
    patient.aid_tried = True
    difficulty = state.tables.first_aid[supplies]
    skill = roll(
        dice, medic, "INT for first aid", medic.die("int"), conditions(medic, False), events
    )
    against = roll(dice, None, f"the first aid difficulty ({supplies})", difficulty, [], events)
    if successes(skill, against) == 0:
        events.append(
            Event("aid", f"{medic.name}'s first aid fails", {"who": patient.id, "saved": False})
        )
        return
    patient.hp, patient.wound, patient.dies_at = 1, "badly", None
    patient.wake_at = state.minutes + minutes.roused
    events.append(
        Event(
            "aid",
            f"{medic.name} saves {patient.name}: 1 HP, badly wounded, a permanent injury",
            {"who": patient.id, "saved": True},
            detail=frozenset({patient.side}),  # hit points and injuries are its side's
            outline=f"{medic.name} saves {patient.name}: badly wounded",
            outline_data={"who": patient.id, "saved": True},
        )
    )


def heal(
    state: DieStepState,
    target: Combatant,
    amount: int,
    ritual: bool,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """D-HEAL-1: magical healing (a spell, or out of combat a ritual)."""
    most = target.sheet.hit_points or 0
    in_combat = state.started and not state.over
    if target.hp == 0 and target.knocked_out:
        if owes_survival(target):
            survival_roll(state, target, dice, events, ritual)
            if target.dead:
                events.append(Event("heal", "the healing comes too late", {"who": target.id}))
                return
        target.knocked_out, target.wake_at, target.dies_at = False, None, None
        target.stunned = max(target.stunned, 1)  # at least one turn
        if target.wound == "mortal":
            target.wound = "badly"  # healed: from mortally to badly wounded
            target.stunned_encounter = in_combat and not ritual
    target.hp = most if ritual else min(most, target.hp + amount)
    if ritual:
        target.permanent_injury = False
    if target.hp >= most:
        target.stunned_encounter = False
        if target.wound == "badly":
            target.wound = ""
    stunned = " and stunned" if target.stunned or target.stunned_encounter else ""
    events.append(
        Event(
            "heal",
            f"{target.name} is healed to {target.hp}/{most} HP{stunned}",
            {"who": target.id, "hp": target.hp},
            detail=frozenset({target.side}),
            outline=f"{target.name} is healed{stunned}",
            outline_data={"who": target.id},
        )
    )
