"""Rounds and phases (S-ROUND-1, S-ROUND-2, S-SURPRISE-1).

A round is 10 seconds: each side rolls 1d6, ties re-rolled, and the higher side chooses
to act or react; the acting side's phase (move, charge, shoot, cast), the reacting
side's, then melee (:mod:`.melee`). A side's phase ends when each of its characters is
done (or the game master moves on); the melee resolves when every fighter has declared;
then the next round begins by itself.
"""

from __future__ import annotations

from fracas.dice import parse
from fracas.engine import DiceSource, Event
from fracas.engine.capabilities import NamedRolls
from fracas.rules.sides import melee
from fracas.rules.sides.positions import engaged_pairs
from fracas.rules.sides.state import Combatant, Doing, SidesState

SECONDS_PER_ROUND = 10

#: Who rolls: the combatant or side a roll's purpose names; the referee rolls for surprise
#: (S-SURPRISE-1).
ROLLS = NamedRolls(referee=("surprise roll for ",))


def begin(state: SidesState, dice: DiceSource, events: list[Event]) -> None:
    state.round = 0
    start_round(state, dice, events)


def roll_surprise(state: SidesState, dice: DiceSource, events: list[Event]) -> None:
    """S-SURPRISE-1: the referee rolls 1d6 per side; 1 or 2 means surprised."""
    limit = state.tables.surprise.surprised_at_most
    for side in state.sides:
        roll = dice.roll(parse("standard", "1d6"), f"surprise roll for {side}")
        surprised = roll.result <= limit
        if surprised and side not in state.surprised:
            state.surprised.append(side)
        events.append(
            Event(
                "surprise",
                f"surprise roll for {side}: {roll.result}"
                + (" - surprised" if surprised else " - not surprised"),
                {"side": side, "roll": roll.result, "surprised": surprised},
            )
        )


def start_round(state: SidesState, dice: DiceSource, events: list[Event]) -> None:
    """Begin the next round: forget the last one, note who is in melee (S-MOVE-2) and
    settle who acts: by surprise in the first round, else by initiative."""
    state.round += 1
    for c in state.combatants.values():
        c.doing = Doing()
    state.charges.clear()
    state.pending.clear()
    state.offered.clear()
    state.acting = state.reacting = state.winner = None
    state.engaged = engaged_pairs(state)
    events.append(
        Event(
            "round",
            f"round {state.round} ({SECONDS_PER_ROUND * (state.round - 1)} s)",
            {"round": state.round},
        )
    )
    if state.round == 1 and state.surprised:
        awake = [s for s in state.sides if s not in state.surprised]
        if not awake:
            events.append(
                Event(
                    "surprise",
                    "every side is surprised: nobody acts in the first round",
                    {"sides": list(state.surprised)},
                )
            )
            start_round(state, dice, events)
            return
        state.acting = awake[0]
        state.reacting = next(s for s in state.sides if s != awake[0])
        events.append(
            Event(
                "surprise",
                f"{state.reacting} is surprised and does not act in the first round: "
                f"{state.acting} has the acting phase",
                {"acting": state.acting, "surprised": state.reacting},
            )
        )
        begin_phase(state, "acting", dice, events)
        return
    state.winner = roll_initiative(state, dice, events)
    state.phase = "choose"


def roll_initiative(state: SidesState, dice: DiceSource, events: list[Event]) -> str:
    """S-ROUND-1: each side rolls 1d6; the highest wins; ties are re-rolled."""
    while True:
        rolls = {
            side: dice.roll(parse("standard", "1d6"), f"{side}'s initiative").result
            for side in state.sides
        }
        best = max(rolls.values())
        leaders = [s for s, r in rolls.items() if r == best]
        listing = ", ".join(f"{s} {r}" for s, r in rolls.items())
        if len(leaders) == 1:
            events.append(
                Event(
                    "initiative",
                    f"initiative: {listing}; won by {leaders[0]}, to choose: act or react",
                    {"rolls": dict(rolls), "winner": leaders[0]},
                )
            )
            return leaders[0]
        events.append(
            Event("initiative", f"initiative: {listing}; a tie, re-rolled", {"rolls": dict(rolls)})
        )


def choose(state: SidesState, side: str, act: bool, dice: DiceSource, events: list[Event]) -> None:
    """S-ROUND-1: the winner acts (its phase first) or reacts (its phase second)."""
    other = next(s for s in state.sides if s != side)
    state.acting, state.reacting = (side, other) if act else (other, side)
    state.winner = None
    events.append(
        Event(
            "choice",
            f"{side} chose to {'act' if act else 'react'}: {state.acting} has the acting "
            f"phase, {state.reacting} the reacting phase",
            {"side": side, "acting": state.acting, "reacting": state.reacting},
        )
    )
    begin_phase(state, "acting", dice, events)


def begin_phase(state: SidesState, phase: str, dice: DiceSource, events: list[Event]) -> None:
    if phase == "melee":
        state.phase = "melee"
        melee.begin(state, events)
        settle(state, dice, events)
        return
    state.phase = "acting" if phase == "acting" else "reacting"
    side = state.phasing
    assert side is not None
    if state.surprised_now(side):
        events.append(
            Event("phase", f"{side} is surprised: no {phase} phase", {"phase": phase, "side": side})
        )
        for c in state.living(side):
            c.doing.done = True
    else:
        events.append(
            Event(
                "phase",
                f"the {phase} phase ({side}): move, charge, shoot, cast",
                {"phase": phase, "side": side},
            )
        )
    settle(state, dice, events)


def next_in_phase(state: SidesState) -> Combatant | None:
    """The first character of the phasing side still to finish (S-ROUND-2)."""
    side = state.phasing
    for cid in state.order():
        c = state.combatants[cid]
        if c.side == side and not c.out and not c.doing.done:
            return c
    return None


def is_over(state: SidesState) -> bool:
    if state.phase == "setup":
        return False
    if state.ended:
        return True
    standing = None  # fewer than two sides with someone living
    for c in state.combatants.values():
        if not c.out:
            if standing is None:
                standing = c.side
            elif c.side != standing:
                return False
    return True


def settle(state: SidesState, dice: DiceSource, events: list[Event]) -> None:
    """Move the round on as far as it goes without a decision: a side's phase ends when
    all its characters are done, the melee resolves when every fighter has declared."""
    if state.pending:
        return
    if is_over(state):
        if state.phase != "over":
            state.phase = "over"
            standing = sorted({c.side for c in state.living()})
            text = "the encounter is over" + (f": {standing[0]} stands" if standing else "")
            events.append(Event("over", text, {"standing": standing}))
        return
    if state.phase in ("acting", "reacting") and next_in_phase(state) is None:
        begin_phase(state, "reacting" if state.phase == "acting" else "melee", dice, events)
    elif state.phase == "melee" and melee.next_to_declare(state) is None:
        melee.resolve(state, dice, events)
        if is_over(state):
            settle(state, dice, events)
        else:
            start_round(state, dice, events)
