"""Initiative and turns (H-INIT-1..5): who acts, and what the start and end of a turn do.

A turn is 2 seconds and turns run almost at the same time, so the clock advances 2
seconds a round (docs/decisions.md, H-INIT-2).
"""

from __future__ import annotations

from fracas.dice import HeimrChallenge
from fracas.engine import DiceSource, Event
from fracas.rules.heimr import effects, health
from fracas.rules.heimr.state import Combatant, HeimrState, Turn

SECONDS_PER_ROUND = 2


def roll_initiative(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """H-INIT-1: consistency = dex, potential = willpower; ties go to the higher willpower,
    then to the order of the setup (docs/decisions.md)."""
    setup_order = list(state.combatants)
    for cid, who in state.combatants.items():
        ch = HeimrChallenge(who.stats.attributes.get("dex", 0), who.willpower)
        roll = dice.roll(ch, f"{who.name}'s initiative")
        state.initiative[cid] = roll.result
        events.append(
            Event(
                "initiative",
                f"{who.name} rolls initiative {ch.notation()}: {list(roll.faces)} -> {roll.result}",
                {"who": cid, "faces": list(roll.faces), "result": roll.result},
            )
        )
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


def begin(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """Start combat: roll initiative, pre-roll everyone's defence, start the first turn."""
    from fracas.rules.heimr.combat import preroll_defence

    roll_initiative(state, dice, events)
    state.started = True
    state.round = 1
    for cid in state.order:
        preroll_defence(state, state.combatants[cid], dice, events)
    state.index = 0
    start_turn(state, dice, events)


def start_turn(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """Begin the turn of ``state.order[state.index]``, skipping the dead."""
    for _ in range(len(state.order) + 1):
        who = state.combatants[state.order[state.index]]
        if not who.dead:
            break
        _advance(state, events)
    state.turn = Turn(who.id, square_at_start=who.square)
    events.append(
        Event(
            "turn", f"round {state.round}: {who.name}'s turn", {"who": who.id, "round": state.round}
        )
    )
    # H-DEF-3: defence uses are restored; H-ACT-1: the ongoing penalty ends.
    who.uses.clear()
    who.ongoing = False
    who.fatigue_raised = False
    who.attacked_melee.clear()
    # H-ATK-9: only a dodge of the attacker's *last* turn lets a brawler in.
    for other in state.combatants.values():
        if who.id in other.dodged_melee_of:
            other.dodged_melee_of.remove(who.id)
    # H-INIT-4: a readied action not triggered by now is lost.
    if who.readied is not None:
        events.append(
            Event(
                "ready",
                f"{who.name}'s readied action was not triggered and is lost",
                {"who": who.id},
            )
        )
        who.readied = None
    effects.start_of_turn(who, events)
    if who.upcoming is not None:
        state.turn.standard = True  # H-ACT-1: the upcoming action is this turn's standard
        finish_upcoming(state, who, events)


def finish_upcoming(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    from fracas.rules.heimr.combat import finish_upcoming as finish

    finish(state, who, events)


def end_turn(state: HeimrState, dice: DiceSource, events: list[Event]) -> None:
    """End the current turn: pre-roll the next defence (H-DEF-2), count effects down,
    and start the next turn."""
    from fracas.rules.heimr.combat import preroll_defence

    assert state.turn is not None
    who = state.combatants[state.turn.actor]
    if not who.out:
        preroll_defence(state, who, dice, events)
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


def move_in_order(state: HeimrState, cid: str, anchor: str, after: bool) -> None:
    """Put ``cid`` just before or after ``anchor`` in the order (H-INIT-3, H-INIT-4)."""
    current = state.order[state.index]
    state.order.remove(cid)
    at = state.order.index(anchor) + (1 if after else 0)
    state.order.insert(at, cid)
    state.index = state.order.index(current) if current in state.order else state.index


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
    (before a character who has already acted this round) ends its turn for this round.
    """
    old_index = state.index
    state.order.remove(who.id)
    at = state.order.index(anchor) + (1 if after else 0)
    state.order.insert(at, who.id)
    events.append(
        Event(
            "delay",
            f"{who.name} delays until {'after' if after else 'before'} "
            f"{state.combatants[anchor].name}",
            {"who": who.id, "anchor": anchor, "after": after},
        )
    )
    new_index = state.order.index(who.id)
    if new_index < old_index:
        # Moved ahead of characters who already acted: the turn is over for this round.
        state.index = new_index
        _advance(state, events)
    else:
        state.index = old_index
        if state.index >= len(state.order):
            state.index = 0
    start_turn(state, dice, events)
