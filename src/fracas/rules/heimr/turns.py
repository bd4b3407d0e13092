"""Initiative and turns (H-INIT-1..5): who acts, and what the start and end of a turn do.

A turn is 2 seconds and turns run almost at the same time, so the clock advances 2
seconds a round (docs/decisions.md, H-INIT-2).
"""

from __future__ import annotations

from fracas.engine import DiceSource, Event
from fracas.rules.heimr import effects, health, terrain
from fracas.rules.heimr.combat import finish_upcoming as _finish_upcoming
from fracas.rules.heimr.combat import preroll_defence
from fracas.rules.heimr.rolls import challenge, mechanic, tire
from fracas.rules.heimr.state import Combatant, HeimrState, Turn

SECONDS_PER_ROUND = 2


def roll_initiative(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """H-INIT-1: consistency = dex, potential = willpower; ties go to the higher willpower,
    then to the order of the setup (docs/decisions.md)."""
    setup_order = list(state.combatants)
    for who in state.combatants.values():
        _roll_one(state, who, dice, events)
    state.order = sorted(
        setup_order,
        key=lambda c: (-state.initiative[c], -state.combatants[c].willpower, setup_order.index(c)),
    )
    events.append(
        Event(
            "order",
            "initiative order: " + ", ".join(state.combatants[c].name for c in state.order),
            {"order": list(state.order)},
        )
    )


def _roll_one(state: HeimrState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    ch, notation = mechanic(who.stats.attributes.get("dex", 0), who.willpower)
    roll = dice.roll(ch, f"{who.name}'s initiative")
    state.initiative[who.id] = roll.result
    events.append(
        Event(
            "initiative",
            f"{who.name} rolls initiative {notation}: {list(roll.faces)} -> {roll.result}",
            {"who": who.id, "faces": list(roll.faces), "result": roll.result},
            # Its potential is the willpower, which is the own side's (observe).
            detail=frozenset({who.side}),
            outline=f"{who.name} rolls initiative",
            outline_data={"who": who.id},
        )
    )
    if state.tables.fatigue.initiative:  # a campaign's option: a physical roll (H-FAT-2)
        tire(who, roll.parts["d6"], events)


def join(state: HeimrState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    """A combatant joins a fight under way (docs/decisions.md, H-INIT-1): it rolls
    initiative and takes its place in the order after everyone it does not beat (a tie
    on initiative and willpower goes to those already there). A place this round's turns
    have passed is first taken next round. It pre-rolls its defence (H-DEF-2)."""
    _roll_one(state, who, dice, events)
    mine = (state.initiative[who.id], who.willpower)
    at = len(state.order)
    for i, cid in enumerate(state.order):
        if mine > (state.initiative[cid], state.combatants[cid].willpower):
            at = i
            break
    state.order.insert(at, who.id)
    if at <= state.index:
        state.index += 1  # the turn under way stays where it is
    events.append(
        Event(
            "order",
            "initiative order: " + ", ".join(state.combatants[c].name for c in state.order),
            {"order": list(state.order)},
        )
    )
    preroll_defence(state, who, dice, events)


def leave(state: HeimrState, cid: str, dice: DiceSource, events: list[Event]) -> None:
    """Take ``cid`` out of the order; if it was its turn, the next one starts."""
    if cid not in state.order:
        return
    at = state.order.index(cid)
    current = state.turn is not None and state.turn.actor == cid
    state.order.remove(cid)
    state.initiative.pop(cid, None)
    if at < state.index:
        state.index -= 1
    if not state.order:
        state.turn = None
        return
    if current:
        state.index -= 1  # the next turn is the one now standing at its place
        _advance(state, events)
        start_turn(state, dice, events)


def begin(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """Start combat: roll initiative, pre-roll everyone's defence, start the first turn."""
    roll_initiative(state, dice, events)
    state.started = True
    state.round = 1
    for cid in state.order:
        preroll_defence(state, state.combatants[cid], dice, events)
    state.index = 0
    start_turn(state, dice, events)


def start_turn(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """Begin the turn of ``state.order[state.index]``, skipping the dead."""
    combatants = state.combatants
    who = combatants[state.order[state.index]]
    if who.dead:
        for _ in range(len(state.order)):
            _advance(state, events)
            who = combatants[state.order[state.index]]
            if not who.dead:
                break
        else:
            _advance(state, events)  # nobody left alive: as the turn of the last looked at
    wid = who.id
    cluster = state.cluster_of(wid)
    together = [] if cluster is None else [c for c in cluster if c != wid]
    state.turn = Turn(wid, square_at_start=who.square, cluster_at_start=together)
    # What this turn resets, each tested first: most of it is already as it should be.
    if who.passed_guards:
        who.passed_guards.clear()
    events.append(
        Event("turn", f"round {state.round}: {who.name}'s turn", {"who": wid, "round": state.round})
    )
    # H-DEF-3: defence uses are restored; H-ACT-1: the ongoing penalty ends; a readied
    # dodge was for the attacks until this turn (docs/decisions.md, H-ACT-3).
    if who.uses:
        who.uses.clear()
    terrain.new_turn(state, who)  # H-GRID-4: border counts; H-MOD-1: where it came from
    if state.blind_spots:
        state.blind_spots.pop(wid, None)  # H-MOD-1: until the defender's next turn
    who.ongoing = False
    if who.skill_in_use is not None and not (who.upcoming or "").startswith("skill "):
        who.skill_in_use = None  # H-SKILL-1: an ongoing skill lasts until this turn
    who.ready_dodge = False
    who.fatigue_raised = False
    if who.attacked_melee:
        who.attacked_melee.clear()
    # H-ATK-9: only a dodge of the attacker's *last* turn lets a brawler in. (A plain
    # loop that looks closer only at one with something to reset: asked at every turn,
    # for everyone, and most have nothing.)
    for other in combatants.values():
        if other.dodged_melee_of or other.shot_by or other.readied is not None:
            dodged = other.dodged_melee_of
            if wid in dodged:
                dodged.remove(wid)
            shot = other.shot_by
            if wid in shot:
                shot.remove(wid)  # H-ACT-7: only shots of its *last* turn count
            if other.readied is not None:
                other.readied.intent_failed = False  # H-INIT-5: one insight roll a turn
    # H-INIT-4: a readied action not triggered by now is lost.
    if who.readied is not None:
        events.append(
            Event(
                "ready",
                f"{who.name}'s readied action was not triggered and is lost",
                {"who": who.id},
                detail=frozenset({who.side}),  # H-INIT-4: the readied action is its side's
            )
        )
        who.readied = None
    if who.effects:  # most turns: none to count
        effects.start_of_turn(who, events)
    if who.upcoming is not None:
        # H-ACT-1: the upcoming action is this turn's standard action. It completes with
        # the character's first action, unless cancelled first (``cancel``).
        state.turn.standard = True
        events.append(
            Event(
                "upcoming",
                f"{who.name}'s upcoming {who.upcoming} completes as this turn's standard "
                "action, unless cancelled now",
                {"who": who.id, "upcoming": who.upcoming},
            )
        )


def finish_upcoming(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    _finish_upcoming(state, who, events)


def end_turn(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """End the current turn: pre-roll the next defence (H-DEF-2), count effects down,
    and start the next turn."""
    assert state.turn is not None
    who = state.combatants[state.turn.actor]
    preroll_defence(state, who, dice, events)  # none for one out of the fight
    if who.effects:  # most turns: none to count
        effects.end_of_turn(who, events)
    events.append(Event("end", f"{who.name} ends the turn", {"who": who.id}))
    _advance(state, events)
    start_turn(state, dice, events)


def _advance(state: HeimrState, events: list[Event]) -> None:
    state.index += 1
    if state.index >= len(state.order):
        state.index = 0
        state.round += 1
        state.clock += SECONDS_PER_ROUND
        health.tick(state, events)


def sees_intent(
    readier: Combatant, actor: Combatant, dice: DiceSource, events: list[Event]
) -> bool:
    """H-INIT-5: ``actor`` rolls Persuasion to hide what it means to do; the readier's
    Insight is a dice challenge against that roll, passed when equal or higher (H-DICE-7)."""
    hide = challenge(
        actor,
        actor.stats.abilities["Persuasion"],
        dice,
        f"{actor.name} rolls Persuasion",
        events=events,
    )
    see = challenge(
        readier,
        readier.stats.abilities["Insight"],
        dice,
        f"{readier.name} rolls Insight",
        events=events,
    )
    seen = not see.failed_outright and (hide.failed_outright or see.result >= hide.result)
    events.append(
        Event(
            "contest",
            f"{readier.name}'s Insight {see.result} against {actor.name}'s Persuasion "
            f"{hide.result}: {readier.name} {'sees' if seen else 'misses'} the intent",
            {"winner": readier.id if seen else actor.id},
        )
    )
    return seen


def delayed_order(order: list[str], cid: str, anchor: str, after: bool) -> list[str]:
    """The order with ``cid`` just before or after ``anchor`` (H-INIT-3, H-INIT-4).

    >>> delayed_order(["a", "b", "c"], "a", "b", after=True)
    ['b', 'a', 'c']
    """
    moved = [c for c in order if c != cid]
    moved.insert(moved.index(anchor) + (1 if after else 0), cid)
    return moved


def move_in_order(state: HeimrState, cid: str, anchor: str, after: bool) -> None:
    """H-INIT-4: put ``cid`` just before or after ``anchor``; the current turn goes on."""
    current = state.order[state.index]
    state.order = delayed_order(state.order, cid, anchor, after)
    state.index = state.order.index(current)


def delay(
    state: HeimrState,
    dice: DiceSource,
    who: Combatant,
    anchor: str,
    after: bool,
    events: list[Event],
) -> None:
    """H-INIT-3: at the start of its turn a character moves itself in the order.

    Moving later hands the turn to whoever now stands at its place; moving earlier
    (before a character who has already acted this round) ends its turn for this round,
    and the character who came after it in the old order acts next.
    """
    old_index = state.index
    state.order = delayed_order(state.order, who.id, anchor, after)
    events.append(
        Event(
            "delay",
            f"{who.name} delays until {'after' if after else 'before'} "
            f"{state.combatants[anchor].name}",
            {"who": who.id, "anchor": anchor, "after": after},
        )
    )
    state.index = old_index  # moving later: whoever came next now stands here
    if state.order.index(who.id) < old_index:
        # Moving earlier shifts those in between one place on, so the character that came
        # next in the old order stands one further.
        _advance(state, events)
    start_turn(state, dice, events)
