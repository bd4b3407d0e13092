"""Properties of the engine over random Heimr encounters played with legal actions.

Each example builds 2 to 4 characters, seeds the dice and plays up to 25 actions chosen
among those ``legal_actions`` offers whoever is to move, now and then a reaction of
someone else, and a declared observation or readied action (hidden from the other side).
A legal action must never raise: if one does, the ruleset has a bug, and the failure
prints the seed and the action texts that reproduce it.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from fracas.engine import Action, Encounter, IllegalAction, RandomDice, view
from fracas.rules import find
from fracas.rules.heimr.state import HeimrState

from heimr_builders import setup, sheet

HEIMR = find("heimr")
MAX_ACTIONS = 25

ONE_HANDED = [None, "Light weapon", "Medium weapon", "Throwing weapon", "Blowgun"]
TWO_HANDED = ["Great weapon", "Pole arm", "Bow", "Crossbow"]
OFF_HAND = [None, "Buckler", "Small shield", "Medium shield", "Tower shield", "Light weapon"]
ABILITIES = ["Dueling", "Brawl", "Agility", "Knife fighting", "Sword and shield", "Archery"]
# Mostly one square, so that they fight; some a step or two away.
SQUARES = ["B2", "B2", "B2", "A2", "B3", "C1"]


@st.composite
def characters(draw: st.DrawFn, name: str, side: str) -> dict[str, Any]:
    sword = draw(st.sampled_from(ONE_HANDED + TWO_HANDED))
    off = None if sword in TWO_HANDED else draw(st.sampled_from(OFF_HAND))
    return sheet(
        name,
        side,
        hp=draw(st.integers(1, 6)),
        willpower=draw(st.integers(0, 3)),
        abilities=draw(
            st.dictionaries(
                st.sampled_from(ABILITIES),
                st.tuples(st.integers(0, 2), st.integers(0, 2)),
                max_size=2,
            )
        ),
        sword=sword,
        off=off,
        carried=draw(st.lists(st.sampled_from(["Light weapon", "Buckler", "Bow"]), unique=True)),
        str=draw(st.integers(0, 2)),
        dex=draw(st.integers(0, 2)),
        sta=draw(st.integers(0, 2)),
    )


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 4))
    sides = ["north", "south"] + [
        draw(st.sampled_from(["north", "south", "west"])) for _ in range(count - 2)
    ]
    sheets = [draw(characters(f"c{i}", side)) for i, side in enumerate(sides)]
    squares = {s["name"]: draw(st.sampled_from(SQUARES)) for s in sheets}
    return setup(sheets, squares)


seeds = st.integers(0, 2**32 - 1)


@dataclass
class Game:
    """An encounter being played, with what reproduces it."""

    setup: dict[str, Any]
    seed: int
    enc: Encounter[HeimrState]

    @classmethod
    def start(cls, setup: dict[str, Any], seed: int) -> Game:
        return cls(setup, seed, Encounter(HEIMR, setup, RandomDice(seed)))

    @property
    def texts(self) -> list[str]:
        return [str(entry.action) for entry in self.enc.log]

    @property
    def sides(self) -> list[str | None]:
        return [None, *sorted({c.side for c in self.enc.state.combatants.values()})]

    def offered(self, actor: str | None) -> list[Action]:
        # A comprehension, not list(): list() would first ask len(), counting them twice.
        return [a for a in self.enc.legal_actions(actor)]

    def choose(self, data: st.DataObject, offered: list[Action] | None = None) -> Action | None:
        """A legal action for whoever is to move, now and then someone else's."""
        mover = self.enc.to_move
        if mover is None:
            return None
        kind = data.draw(st.sampled_from(["offered"] * 8 + ["reaction", "declared"]))
        pool: list[Action] = []
        if kind == "reaction":
            pool = [a for a in self.offered(None) if a.actor != mover]
        elif kind == "declared":
            pool = [a for a in self.declared() if a in self.enc.legal_actions(mover)]
        if not pool:
            pool = self.offered(mover) if offered is None else offered
        return data.draw(st.sampled_from(pool)) if pool else None

    def declared(self) -> list[Action]:
        """Legal actions ``legal_actions`` does not offer: an observation, a readied attack."""
        mover = self.enc.to_move
        others = [c for c in self.enc.state.combatants if c != mover]
        return [Action.of(str(mover), "observe", "B2")] + [
            a
            for other in others
            for a in (
                Action.of(str(mover), "observe", other),
                Action.of(str(mover), "ready", action=f"attack {other}", trigger="it moves"),
            )
        ]

    def push(self, action: Action) -> None:
        try:
            self.enc.push(action)
        except Exception as err:
            raise AssertionError(
                f"the legal action {action} raised {err!r}: a ruleset bug. Reproduce with "
                f"RandomDice({self.seed}) and the actions {[*self.texts, str(action)]}"
            ) from err

    def play(self, data: st.DataObject) -> None:
        for _ in range(data.draw(st.integers(1, MAX_ACTIONS), label="actions")):
            action = self.choose(data)
            if action is None:
                break
            self.push(action)
        note(f"RandomDice({self.seed}), actions {self.texts}")


def deep_snapshot(enc: Encounter[HeimrState]) -> tuple[HeimrState, list[Any]]:
    """State and log, copied so deep that a clone sharing what it should not is caught."""
    state = enc.state
    # What the state declares fixed in play is shared, not copied: the campaign's tables,
    # the battlefield and each combatant's stats from the sheet.
    fixed: list[object] = [state.tables, state.battlefield]
    fixed += [c.stats for c in state.combatants.values()]
    return copy.deepcopy(state, {id(x): x for x in fixed}), list(enc.log)


def as_is(enc: Encounter[HeimrState]) -> tuple[HeimrState, list[Any]]:
    """State and log as they are, to compare with a snapshot (a copy of them compares
    equal exactly when they do: a second deep copy would only cost time)."""
    return enc.state, list(enc.log)


@given(setups(), seeds, st.data())
def test_push_then_pop_restores_an_equal_state_and_log(
    setup: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    game = Game.start(setup, seed)
    start = deep_snapshot(game.enc)
    for _ in range(data.draw(st.integers(1, MAX_ACTIONS), label="actions")):
        action = game.choose(data)
        if action is None:
            break
        before, dice = deep_snapshot(game.enc), game.enc.dice.mark()
        game.push(action)
        popped = game.enc.pop()
        assert popped.action == action
        assert as_is(game.enc) == before
        # Pushed again with the same dice, it does the same (and the texts reproduce the game).
        game.enc.dice.rewind(dice)
        game.push(action)
        assert game.enc.log[-1] == popped
    note(f"RandomDice({seed}), actions {game.texts}")
    while game.enc.log:
        game.enc.pop()
    assert as_is(game.enc) == start


@given(setups(), seeds, st.data())
def test_save_then_load_gives_the_same_state_and_views(
    setup: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    game = Game.start(setup, seed)
    game.play(data)
    enc = game.enc
    loaded = Encounter.load(json.loads(enc.dumps()), HEIMR)
    assert loaded.state == enc.state
    assert loaded.log == enc.log
    for side in game.sides:
        assert view(loaded, side) == view(enc, side)
    # The seeded dice roll on as they would have without the save.
    action = game.choose(data)
    if action is not None:
        events = loaded.push(action)
        game.push(action)
        assert enc.log[-1].events == events
        assert loaded.state == enc.state


@given(setups(), seeds, st.data())
def test_the_same_seed_and_action_texts_give_the_same_log(
    setup: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    game = Game.start(setup, seed)
    game.play(data)
    again = Encounter(HEIMR, setup, RandomDice(seed))
    for text in game.texts:
        again.push(text)
    assert again.log == game.enc.log
    assert again.state == game.enc.state


RULE_ID = re.compile(r"H-[A-Z]+-\d+")


@given(setups(), seeds, st.data())
def test_legal_actions_never_raise_and_refused_ones_change_nothing(
    setup: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    game = Game.start(setup, seed)
    enc = game.enc
    for _ in range(data.draw(st.integers(1, MAX_ACTIONS), label="actions")):
        mover = enc.to_move
        if mover is None:
            break
        offered = game.offered(mover)
        assert all(a.actor == mover for a in offered)
        # Something the rules refuse: a candidate that is not legal now, or out of turn.
        others = [Action(c, "end") for c in enc.state.combatants if c != mover]
        refused = [a for a in HEIMR.candidates(enc.state, mover) if a not in offered] + others
        action = data.draw(st.sampled_from(refused))
        assert action not in enc.legal_actions()
        before, mark = deep_snapshot(enc), enc.dice.mark()
        with pytest.raises(IllegalAction) as err:
            enc.push(action)
        assert RULE_ID.fullmatch(err.value.rule), err.value.rule
        assert (as_is(enc), enc.dice.mark()) == (before, mark)
        action = game.choose(data, offered)
        if action is None:
            break
        assert action in enc.legal_actions(action.actor)
        game.push(action)
    note(f"RandomDice({seed}), actions {game.texts}")
