"""Every ruleset says who owns each roll it asks for (the ``rolls`` capability), and the
roll an action waits for is kept with its table: stale answers are refused, and what a
side is shown of it comes through the presenter (issue 24, point 1)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from fracas.dice import Mechanic, Roll
from fracas.engine import DiceSource, RandomDice
from fracas.table import encounterfile, rollcall
from fracas.table.scripts import Script
from fracas.table.store import PendingRow, Store
from fracas.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
#: One encounter a ruleset (the example plugin's too), played by its script.
SCRIPTS = [
    "examples/heimr/ambush",
    "examples/classic/ford",
    "examples/sides/ambush",
    "examples/tempo/feint",
    "examples/diestep/charge",
    "examples/plugins/pitfight/encounters/pit",
]


class Owners(DiceSource):
    """Rolls as ``inner`` does, noting who owns each roll."""

    def __init__(self, table: Table, inner: DiceSource) -> None:
        super().__init__()
        self.table, self.inner, self.seen = table, inner, []

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        self.seen.append((purpose, self.table.roll_owner(purpose)))
        return self.inner.roll(mechanic, purpose)


@pytest.mark.parametrize("example", SCRIPTS, ids=lambda e: e.split("/")[-2])
def test_every_ruleset_names_the_side_that_owns_each_roll(example: str) -> None:
    script = Script.read(ROOT / f"{example}.script")
    ruleset, setup, title = encounterfile.load(ROOT / f"{example}.yaml")
    table = Table.start(Store.open("sqlite://"), "t", ruleset, setup, title, seed=script.seed)
    spy = Owners(table, table.encounter.dice)
    table.encounter.dice = spy
    assert isinstance(spy.inner, RandomDice)
    script.play(table, lambda action, events: None)
    assert spy.seen
    sides = set(table.sides())
    for purpose, owner in spy.seen:
        if purpose.startswith("surprise roll for "):  # the referee's (S-SURPRISE-1)
            assert owner is None
        else:
            assert owner in sides, (purpose, owner)
    people = ruleset.observe(table.encounter.state, None)["combatants"]
    for purpose, owner in spy.seen:  # the roller is the combatant the purpose opens with
        named = [p for p in people.values() if purpose.startswith(p.get("name", "\0"))]
        if named:
            assert owner == max(named, key=lambda p: len(p["name"]))["side"], purpose


def duel() -> Table:
    ruleset, setup, title = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    table = Table.start(Store.open("sqlite://"), "duel", ruleset, setup, title, seed=1)
    table.store.set_dice_mode(table.id, "typed")
    return table


def test_a_stale_answer_is_refused_and_another_action_waits() -> None:
    table = duel()
    waiting = rollcall.start(table, "gm begin", None, frozenset({"shieldwall", "raiders"}))
    assert isinstance(waiting, rollcall.Pending) and waiting.owner == "shieldwall"
    with pytest.raises(rollcall.Waiting):
        rollcall.start(table, "gm begin", None, frozenset())
    with pytest.raises(rollcall.Stale):
        rollcall.answer(table, "not-the-token", "2 10", None, frozenset())
    with pytest.raises(rollcall.NotYours):
        rollcall.answer(table, waiting.token, "2 10", "raiders", frozenset())
    nxt = rollcall.answer(table, waiting.token, "2 10", "shieldwall", frozenset({"raiders"}))
    assert isinstance(nxt, rollcall.Pending) and nxt.owner == "raiders"
    with pytest.raises(rollcall.Stale):  # answered already
        rollcall.answer(table, waiting.token, "2 10", "shieldwall", frozenset())
    # Another table object (another process) sees the same wait, and may end it.
    other = Table.resume(table.store, "duel")
    assert rollcall.pending(other) == nxt
    assert rollcall.answer(other, nxt.token, "undo", None, frozenset()) is None
    table.sync()
    assert rollcall.pending(table) is None and table.head == 0


def test_a_roll_is_shown_to_each_side_through_the_presenter() -> None:
    table = duel()
    waiting = rollcall.start(table, "gm begin", None, frozenset({"shieldwall"}))
    assert isinstance(waiting, rollcall.Pending)
    gm, own, other = (rollcall.prompt(table, s) for s in (None, "shieldwall", "raiders"))
    assert gm and own and other
    assert gm.mine and own.mine and not other.mine
    assert own.text.startswith("Ylva Shieldbreaker's initiative") and own.action is None
    assert "Ylva" not in other.text and other.action is None
    assert gm.action == "gm begin"


def test_a_roll_is_rolled_once_due_and_not_before() -> None:
    table = duel()
    rollcall.set_settings(table.store, table.id, "roll", 30)
    waiting = rollcall.start(table, "gm begin", None, frozenset({"shieldwall", "raiders"}))
    assert isinstance(waiting, rollcall.Pending)
    here = frozenset({"shieldwall", "raiders"})
    assert rollcall.expire(table, here, waiting.asked + timedelta(seconds=29)) is None
    later = rollcall.expire(table, here, waiting.asked + timedelta(seconds=30))
    assert isinstance(later, rollcall.Pending) and later.purpose != waiting.purpose
    # A side whose page closed is rolled for at once.
    assert rollcall.expire(table, frozenset(), later.asked) is not None


def test_the_settings_are_bounded() -> None:
    table = duel()
    with pytest.raises(ValueError, match="'dm'"):
        rollcall.set_settings(table.store, table.id, "dm", 10)
    with pytest.raises(ValueError, match="0 to 3600"):
        rollcall.set_settings(table.store, table.id, "gm", 99999)
    assert rollcall.settings(table.store, table.id) == rollcall.RollSettings("gm", 60)


def test_a_side_s_question_never_names_whom_it_cannot_see() -> None:
    script = Script.read(ROOT / "examples/heimr/ambush.script")
    ruleset, setup, title = encounterfile.load(ROOT / "examples/heimr/ambush.yaml")
    for placed in setup["combatants"]:  # arrows uncounted: the shot comes in the same turn
        placed.pop("ammunition", None)
    table = Table.start(Store.open("sqlite://"), "t", ruleset, setup, title, seed=script.seed)
    table.push("gm begin")
    table.push("eirik hide")
    assert "eirik" not in table.table_view("raiders").view["state"]["combatants"]
    table.store.set_dice_mode(table.id, "typed")
    here = frozenset({"shieldwall", "raiders"})
    waiting = rollcall.start(table, "eirik attack ulf", "shieldwall", here)
    while isinstance(waiting, rollcall.Pending) and waiting.owner == "shieldwall":
        answer = " ".join(["10" if "10" in d else "5" for d in waiting.dice])
        waiting = rollcall.answer(table, waiting.token, answer, "shieldwall", here)
    assert isinstance(waiting, rollcall.Pending) and waiting.owner == "raiders"
    asked = rollcall.prompt(table, "raiders")
    assert asked is not None and asked.mine and asked.action is None
    assert "Eirik" not in asked.text
    # Were a question to name the hidden archer, the raiders would read "someone".
    with table.store.session() as s:
        row = s.get(PendingRow, table.id)
        assert row is not None
        row.data = {**row.data, "purpose": f"{waiting.purpose} against Eirik Longshot"}
    rollcall._read.clear()
    asked = rollcall.prompt(table, "raiders")
    assert asked is not None and "Eirik" not in asked.text and "against someone" in asked.text
    gm = rollcall.prompt(table, None)
    assert gm is not None and "Eirik Longshot" in gm.text
