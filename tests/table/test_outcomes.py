"""Who won, whether a fight has stalled, and why a character can do nothing, in every
ruleset (Ruleset.winner, harm, sides, why_no_actions; fracas.table.outcome)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Encounter, RandomDice
from fracas.table import encounterfile
from fracas.table.outcome import Outcome, outcome

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(path: str, seed: int = 1) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / path)
    return Encounter(ruleset, setup, RandomDice(seed))


def play(enc: Encounter[Any], *lines: str) -> None:
    for line in lines:
        enc.push(line)


# -- heimr ---------------------------------------------------------------------------------


def test_heimr_names_its_sides_and_the_winner_once_the_other_side_is_down() -> None:
    enc = example("heimr/duel.yaml")
    rules = enc.ruleset
    assert rules.sides(enc.state) == ["shieldwall", "raiders"]
    assert rules.winner(enc.state) is None
    play(enc, "gm begin")
    before = rules.harm(enc.state)
    play(enc, "gm effect astrid name=Hit number=30")  # far below -5 hit points: dead
    assert rules.harm(enc.state) != before
    assert enc.is_over() and rules.winner(enc.state) == "shieldwall"
    assert outcome(enc).describe() == "The encounter is over: won by shieldwall."


def test_heimr_harm_changes_with_a_wound_and_with_healing_and_nothing_else() -> None:
    enc = example("heimr/duel.yaml")
    rules = enc.ruleset
    play(enc, "gm begin")
    start = rules.harm(enc.state)
    play(enc, "gm wait seconds=10")
    assert rules.harm(enc.state) == start
    play(enc, "gm effect ylva name=Hit number=2")
    hurt = rules.harm(enc.state)
    assert hurt != start
    play(enc, "gm heal ylva hp=2")  # hp= is what she is healed to: no change
    assert rules.harm(enc.state) == hurt
    play(enc, "gm heal ylva")  # to full
    assert rules.harm(enc.state) == start


def test_a_fight_where_nobody_is_harmed_for_three_rounds_has_stalled() -> None:
    enc = example("heimr/duel.yaml")
    play(enc, "gm begin")
    seen: list[Outcome] = []
    while enc.ruleset.round_number(enc.state) < 5:
        play(enc, f"{enc.to_move} end")
        seen.append(outcome(enc))
    assert [o.quiet_rounds for o in seen][-1] == 3  # counted as far as the threshold
    assert not any(o.stalled for o in seen if o.quiet_rounds < 3)
    assert seen[-1].stalled
    assert seen[-1].describe() == (
        "Nobody has been harmed or healed for 3 rounds: the fight has stalled."
    )
    # A wound starts the count again; the encounter itself is untouched by the asking.
    log = len(enc.log)
    play(enc, "gm effect ylva name=Hit number=1")
    assert outcome(enc).quiet_rounds == 0 and not outcome(enc).stalled
    assert len(enc.log) == log + 1


@pytest.mark.rule("H-EFF-5")
def test_heimr_says_why_a_dazed_character_can_only_end_its_turn() -> None:
    enc = example("heimr/duel.yaml")
    play(enc, "gm begin")
    actor = enc.to_move
    assert actor is not None
    name = enc.state.combatants[actor].name
    assert enc.ruleset.why_no_actions(enc.state, actor) is None
    play(enc, f"gm effect {actor} name=Daze number=2")
    assert [str(a) for a in enc.legal_actions(actor)] == [f"{actor} end"]
    assert enc.ruleset.why_no_actions(enc.state, actor) == (
        f"{name} is dazed and can take no actions (H-EFF-5)"
    )


# -- heimr-classic -------------------------------------------------------------------------


def test_classic_winner_is_the_side_left_in_the_fight() -> None:
    enc = example("classic/ford.yaml")
    rules = enc.ruleset
    assert rules.sides(enc.state) == ["north", "raiders", "wolves"]
    play(enc, "gm open")
    before = rules.harm(enc.state)
    play(enc, "gm condition brannoc name=dying")
    assert rules.harm(enc.state) != before  # dying is harm
    assert rules.winner(enc.state) is None  # the wolf still fights
    play(enc, "gm condition wolf name=dying")
    assert enc.is_over() and rules.winner(enc.state) == "north"


@pytest.mark.rule("HC-COND-1")
def test_classic_says_why_a_helpless_character_does_nothing() -> None:
    enc = example("classic/ford.yaml")
    play(enc, "gm open", "gm condition asa name=helpless")
    assert enc.ruleset.why_no_actions(enc.state, "asa") == (
        "Asa the Quick is helpless and can do nothing (HC-COND-1)"
    )
    assert enc.ruleset.why_no_actions(enc.state, "ylva") is None


# -- sides ---------------------------------------------------------------------------------


def test_sides_winner_and_harm() -> None:
    enc = example("sides/mace.yaml")
    rules = enc.ruleset
    assert rules.sides(enc.state) == ["party", "orcs"]
    play(enc, "gm begin")
    before = rules.harm(enc.state)
    play(enc, "gm damage orc points=1")
    assert rules.harm(enc.state) != before and rules.winner(enc.state) is None
    play(enc, "gm damage orc points=50")
    assert enc.is_over() and rules.winner(enc.state) == "party"


def test_sides_ended_by_the_game_master_has_no_winner() -> None:
    enc = example("sides/mace.yaml")
    play(enc, "gm begin", "gm end")
    assert enc.is_over() and enc.ruleset.winner(enc.state) is None
    assert outcome(enc).describe() == "The encounter is over: no side won."


# -- tempo ---------------------------------------------------------------------------------


def test_tempo_winner_and_harm() -> None:
    enc = example("tempo/feint.yaml")
    rules, state = enc.ruleset, enc.state.clone()
    assert rules.sides(state) == ["north", "south"]
    before = rules.harm(state)
    state.combatants["hakon"].hp -= 1
    assert rules.harm(state) != before and rules.winner(state) is None
    state.combatants["hakon"].hp = 0
    assert rules.is_over(state) and rules.winner(state) == "north"


def test_tempo_says_why_its_actor_can_only_recover() -> None:
    enc = example("tempo/feint.yaml")
    state = enc.state.clone()
    actor = state.current
    who = state.combatants[actor]
    assert enc.ruleset.why_no_actions(state, actor) is None
    who.ap = 0
    assert enc.ruleset.why_no_actions(state, actor) == (
        f"{who.name} has 0 AP, too few for any action: recover (T-ROUND-2)"
    )


# -- diestep -------------------------------------------------------------------------------


def test_diestep_winner_and_harm() -> None:
    enc = example("diestep/charge.yaml")
    rules = enc.ruleset
    sides = rules.sides(enc.state)
    assert len(sides) == 2
    play(enc, "gm begin")
    before = rules.harm(enc.state)
    foes = [c for c in enc.state.combatants.values() if c.side != enc.state.combatants["sela"].side]
    play(enc, f"gm damage {foes[0].id} hp=1")
    assert rules.harm(enc.state) != before and rules.winner(enc.state) is None
    for foe in foes:
        if not enc.is_over():
            play(enc, f"gm damage {foe.id} hp=50")
    assert enc.is_over() and rules.winner(enc.state) == enc.state.combatants["sela"].side


def test_diestep_says_why_a_turn_with_no_ap_left_can_only_end() -> None:
    enc = example("diestep/charge.yaml")
    play(enc, "gm begin")
    state = enc.state.clone()
    actor = state.current
    assert state.turn is not None and enc.ruleset.why_no_actions(state, actor) is None
    state.turn.spent = state.turn.pool
    name = state.combatants[actor].name
    assert enc.ruleset.why_no_actions(state, actor) == f"{name} has no AP left this turn (D-ACT-1)"


# -- the game master's table verbs replay from a save ----------------------------------------

TABLE_VERBS = {
    "heimr/duel.yaml": ["gm begin", "gm add ulf character=hrolf square=A1", "gm remove astrid"],
    "classic/ford.yaml": ["gm open", "gm add gorm2 character=gorm", "gm remove wolf"],
    "sides/mace.yaml": ["gm begin", "gm add o2 character=orc at=40", "gm remove o2"],
    "tempo/feint.yaml": ["gm add ylva character=ylva", "gm remove hakon"],
    "diestep/charge.yaml": [
        "gm begin",
        "gm add rook character=rook region=ford",
        "gm remove archer",
    ],
}


@pytest.mark.parametrize("path", sorted(TABLE_VERBS))
def test_notes_newcomers_and_leavers_replay_from_a_save(path: str) -> None:
    enc = example(path, seed=3)
    play(enc, *TABLE_VERBS[path], "gm note text='Seen by all.'")
    again = Encounter.load(enc.save(), enc.ruleset)
    assert again.state == enc.state
    assert [e.text for e in again.events()] == [e.text for e in enc.events()]
