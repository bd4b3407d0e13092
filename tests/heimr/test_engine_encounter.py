"""The encounter as a board: push, refusals that change nothing, pop, copy, legal actions.

Played on a Heimr duel with scripted dice (the faces of tests/heimr/test_smoke.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fracas.dice import DiceError
from fracas.engine import Action, Encounter, EngineError, IllegalAction, ScriptedDice
from fracas.rules.heimr.ruleset import HeimrRules
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, setup, sheet

BEGIN = [5, 2] + [4, 3, 3] + [3, 2]  # initiative Ylva 8, Brannoc 5; parry 8; dodge 3
ATTACK = [4, 2, 1] + [6, 1]  # Ylva hits (8 > 3) for 2; Brannoc re-rolls his dodge


def duelists() -> list[dict[str, Any]]:
    ylva = sheet("ylva", "north", abilities={"Dueling": (2, 1)}, sword="Medium weapon")
    return [ylva, sheet("brannoc", "south")]


def duel(faces: list[int] = BEGIN) -> Encounter[HeimrState]:
    return encounter(duelists(), faces=faces)


def begun() -> Encounter[HeimrState]:
    enc = duel(BEGIN + ATTACK)
    enc.push("gm begin")
    return enc


def snapshot(enc: Encounter[HeimrState]) -> tuple[HeimrState, list[Any], int, int]:
    """A deep copy of everything a push may change (the campaign tables are shared)."""
    assert isinstance(enc.dice, ScriptedDice)
    state = copy.deepcopy(enc.state, {id(enc.state.tables): enc.state.tables})
    return state, list(enc.log), enc.dice.position, len(enc.dice.drawn)


# -- push ------------------------------------------------------------------------------


def test_push_returns_the_events_and_logs_the_action_with_its_dice() -> None:
    enc = begun()
    events = enc.push("ylva attack brannoc")
    entry = enc.log[-1]
    assert entry.action == Action("ylva", "attack", "brannoc")
    assert entry.events == events
    assert [r.faces for r in entry.rolls] == [(4, 2, 1), (6, 1)]
    assert enc.state.combatants["brannoc"].hp == 2


def test_pushing_text_or_an_action_is_the_same() -> None:
    by_text, by_action = begun(), begun()
    by_text.push("ylva attack brannoc")
    by_action.push(Action.of("ylva", "attack", "brannoc"))
    assert by_text.state == by_action.state
    assert by_text.log == by_action.log


@pytest.mark.rule("H-INIT-2")
def test_an_action_out_of_turn_is_refused_naming_the_rule_and_changes_nothing() -> None:
    enc = begun()
    before = snapshot(enc)
    with pytest.raises(IllegalAction) as err:
        enc.push("brannoc attack ylva")
    assert err.value.rule == "H-INIT-2"
    assert err.value.reason == "it is ylva's turn, not brannoc's"
    assert str(err.value) == "it is ylva's turn, not brannoc's (H-INIT-2)"
    assert snapshot(enc) == before


@pytest.mark.parametrize(
    "text",
    ["ylva fly", "ylva attack nobody", "ylva attack brannoc part=tail", "zed end", "ylva stand"],
)
def test_every_refusal_names_a_rule_and_changes_nothing(text: str) -> None:
    enc = begun()
    before = snapshot(enc)
    with pytest.raises(IllegalAction) as err:
        enc.push(text)
    assert err.value.rule.startswith("H-")
    assert snapshot(enc) == before


def test_unreadable_text_is_refused_before_anything_happens() -> None:
    enc = begun()
    before = snapshot(enc)
    with pytest.raises(EngineError, match="cannot read"):
        enc.push("ylva attack 'brannoc")
    assert snapshot(enc) == before


def test_dice_running_out_half_way_leave_the_encounter_as_it_was() -> None:
    # Only the initiative faces: the pre-rolled parry finds no dice.
    enc = duel(BEGIN[:2])
    before = snapshot(enc)
    with pytest.raises(DiceError, match="ylva's parry: the script has run out of dice"):
        enc.push("gm begin")
    assert snapshot(enc) == before
    assert not enc.state.started
    # The same faces are read again once the rest are given.
    assert isinstance(enc.dice, ScriptedDice)
    enc.dice.add(BEGIN[2:])
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    assert enc.dice.remaining() == 0


# -- pop -------------------------------------------------------------------------------


def test_pop_undoes_the_last_action_and_returns_its_entry() -> None:
    enc = begun()
    after_begin = snapshot(enc)[:2]
    enc.push("ylva attack brannoc")
    attack = enc.log[-1]
    assert enc.pop() is attack
    assert snapshot(enc)[:2] == after_begin
    assert enc.state.combatants["brannoc"].hp == 4


def test_pop_goes_all_the_way_back_to_the_start_and_no_further() -> None:
    start = duel().state.clone()
    enc = begun()
    enc.push("ylva attack brannoc")
    assert [str(enc.pop().action) for _ in range(2)] == ["ylva attack brannoc", "gm begin"]
    assert enc.state == start
    assert enc.log == []
    with pytest.raises(EngineError, match="nothing to undo"):
        enc.pop()


def test_pop_on_a_new_encounter_raises_an_engine_error() -> None:
    with pytest.raises(EngineError, match="nothing to undo: the encounter is at its start"):
        duel().pop()


# -- copy ------------------------------------------------------------------------------


def test_a_copy_plays_on_without_touching_the_original() -> None:
    enc = begun()
    before = snapshot(enc)[:2]
    other = enc.copy()
    other.push("ylva prone")
    other.state.combatants["brannoc"].hp = 1
    assert snapshot(enc)[:2] == before
    assert not enc.state.combatants["ylva"].prone
    assert other.state.combatants["ylva"].prone
    assert len(other.log) == 2


def test_the_original_plays_on_without_touching_a_copy() -> None:
    enc = begun()
    other = enc.copy()
    kept = snapshot(other)[:2]
    enc.push("ylva prone")
    enc.pop()
    enc.pop()
    assert snapshot(other)[:2] == kept
    assert other.state.started


def test_a_copy_with_its_stack_can_undo_and_one_without_cannot() -> None:
    enc = begun()
    enc.push("ylva prone")
    with_stack, without = enc.copy(), enc.copy(stack=False)
    assert without.state == enc.state
    assert without.log == []
    with pytest.raises(EngineError, match="nothing to undo"):
        without.pop()
    with_stack.pop()
    with_stack.pop()
    assert not with_stack.state.started
    assert len(enc.log) == 2


# -- legal actions ---------------------------------------------------------------------


def test_legal_actions_is_a_live_view_of_the_present() -> None:
    enc = duel()
    ylvas = enc.legal_actions("ylva")
    assert not ylvas
    assert list(enc.legal_actions()) == [Action("gm", "begin")]
    enc.push("gm begin")
    assert ylvas
    assert "ylva attack brannoc" in ylvas
    assert ylvas.count() == len(list(ylvas))


def test_in_accepts_text_and_actions_and_checks_the_actor() -> None:
    enc = begun()
    assert "ylva attack brannoc" in enc.legal_actions()
    assert Action("ylva", "attack", "brannoc") in enc.legal_actions("ylva")
    assert "ylva attack brannoc" not in enc.legal_actions("brannoc")
    assert "brannoc attack ylva" not in enc.legal_actions()
    assert "ylva fly" not in enc.legal_actions()
    assert 42 not in enc.legal_actions()


@pytest.mark.parametrize("moment", [duel, begun], ids=["before begin", "ylva's turn"])
def test_every_offered_action_is_the_asked_actors_and_is_legal(
    moment: Callable[[], Encounter[HeimrState]],
) -> None:
    enc = moment()
    for actor in ("ylva", "brannoc", "gm", None):
        for action in enc.legal_actions(actor):
            assert actor is None or action.actor == actor
            assert action in enc.legal_actions(actor)


class CountingRules(HeimrRules):
    """Heimr, counting the candidate actions the engine asks for."""

    asked = 0

    def candidates(self, state: HeimrState, actor: str | None) -> Iterator[Action]:
        for action in super().candidates(state, actor):
            self.asked += 1
            yield action


def test_legal_actions_checks_candidates_only_as_far_as_it_is_asked() -> None:
    rules = CountingRules()
    enc = Encounter(rules, setup(duelists()), ScriptedDice(BEGIN))
    enc.push("gm begin")
    legal = enc.legal_actions("ylva")
    assert rules.asked == 0
    assert legal
    first = rules.asked
    total = len(list(rules.candidates(enc.state, "ylva")))
    assert 0 < first < total
    assert repr(legal).startswith("<LegalActions (ylva end, ")


@pytest.mark.parametrize(
    "text",
    [
        "ylva observe B2",
        "ylva observe brannoc",
        "gm award north xp=7",
    ],
)
def test_an_action_legal_actions_accepts_is_pushed_without_error(text: str) -> None:
    enc = begun()
    assert text in enc.legal_actions()
    enc.push(text)
    assert str(enc.log[-1].action) == text


@pytest.mark.rule("H-XP-1")
def test_xp_goes_to_a_side_present() -> None:
    enc = begun()
    assert "gm award ylva xp=7" not in enc.legal_actions()
    with pytest.raises(IllegalAction, match="no side 'ylva' is present") as err:
        enc.push("gm award ylva xp=7")
    assert err.value.rule == "H-XP-1"


def test_a_copy_can_roll_with_dice_of_its_own() -> None:
    enc = encounter([sheet("ylva", "north"), sheet("brannoc", "south")], faces=[6, 1, 3, 3, 3, 3])
    mine = enc.copy(dice=ScriptedDice([2, 5, 4, 4, 4, 4]))
    mine.push("gm begin")
    assert mine.state.order == ["brannoc", "ylva"]  # 5 + 3 against 2 + 3
    assert enc.dice.remaining() == 6 and not enc.state.started
