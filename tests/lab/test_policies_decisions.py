"""The default policies' single decisions, on positions built from the examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice, view
from fracas.rules.classic import policies as classic
from fracas.rules.diestep import policies as diestep
from fracas.rules.heimr import policies as heimr
from fracas.rules.heimr import weighing
from fracas.rules.sides import policies as sides
from fracas.rules.tempo import policies as tempo
from fracas.table.encounterfile import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def position(
    example: str, *actions: str, seed: int = 1, where: dict[str, str] | None = None
) -> Encounter[Any]:
    """The example after ``actions``; ``where`` moves combatants before it starts."""
    ruleset, setup, _ = load(EXAMPLES / example)
    for spec in setup["combatants"]:
        if where and spec["character"] in where:
            key = "position" if "position" in spec else "square"
            spec[key] = where[spec["character"]]
    encounter = Encounter(ruleset, setup, RandomDice(seed))
    for action in actions:
        encounter.push(action)
    return encounter


def turn_of(encounter: Encounter[Any], who: str) -> None:
    """Play on, every other fighter ending its turn, until it is ``who``'s turn."""
    for _ in range(50):
        if encounter.to_move == who:
            return
        encounter.push(f"{encounter.to_move} end")
    raise AssertionError(f"never {who}'s turn")


def decide(policy: Any, encounter: Encounter[Any], side: str | None = None) -> Action:
    actor = encounter.to_move
    assert actor is not None
    if side is None and actor in encounter.state.combatants:
        side = encounter.state.combatants[actor].side
    legal = list(encounter.legal_actions(actor))
    action: Action = policy.choose(view(encounter, side), legal, numpy.random.default_rng(0))
    assert action in legal
    return action


# -- Heimr ----------------------------------------------------------------------------------


def test_heimr_game_master_begins_the_fight() -> None:
    enc = position("heimr/duel.yaml")
    assert str(decide(heimr.GmPolicy(), enc, None)) == "gm begin"


def test_heimr_fighter_moves_toward_the_nearest_enemy() -> None:
    # Ylva stands in C3 of an open field, archers in C5 and C1: she closes on one.
    enc = position("heimr/field.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "block"
    action = decide(heimr.DefaultPolicy(), enc)
    assert (action.verb, action.target) in {("move", "C2"), ("move", "C4")}


def test_heimr_fighter_attacks_an_enemy_in_reach() -> None:
    enc = position("heimr/duel.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "block"  # her best defence is already set
    assert str(decide(heimr.DefaultPolicy(), enc)) == "ylva attack astrid"


@pytest.mark.rule("H-ACT-8")
def test_heimr_bowman_counting_arrows_draws_one_then_shoots() -> None:
    # Ulf (C1) counts his arrows, none drawn: nothing to shoot, so he draws one rather
    # than walking into the melee at the ford, and stays; on his next turn he shoots.
    enc = position("heimr/ambush.yaml", "gm begin")
    turn_of(enc, "ulf")
    policy = heimr.DefaultPolicy()
    drawn = decide(policy, enc)
    while drawn.verb == "defend":  # his best defence first (a free action)
        enc.push(str(drawn))
        drawn = decide(policy, enc)
    assert str(drawn) == "ulf draw Arrow"
    enc.push(str(drawn))
    assert enc.state.combatants["ulf"].drawn_ammunition == "Arrow"
    rest = [decide(policy, enc)]
    while rest[-1].verb != "end" and len(rest) < 5:
        enc.push(str(rest[-1]))
        rest.append(decide(policy, enc))
    # The draw was the turn's standard action; with a shot ready he keeps his place.
    assert [a.verb for a in rest] == ["end"]
    enc.push("ulf end")
    turn_of(enc, "ulf")
    shot = decide(policy, enc)
    while shot.verb == "defend":
        enc.push(str(shot))
        shot = decide(policy, enc)
    assert shot.verb == "attack"
    enc.push(str(shot))
    assert enc.state.combatants["ulf"].drawn_ammunition is None  # the shot spent it


@pytest.mark.rule("H-ACT-8")
def test_heimr_fighter_without_counted_ammunition_draws_none() -> None:
    # Ylva, in the ford's melee with a sword in hand, never looks for arrows.
    enc = position("heimr/ambush.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "block"
    assert decide(heimr.DefaultPolicy(), enc).verb == "attack"


def test_heimr_fighter_sets_its_best_defence_first() -> None:
    enc = position("heimr/duel.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "dodge"
    assert str(decide(heimr.DefaultPolicy(), enc)) == "ylva defend block"  # she has a shield


def test_heimr_fighter_takes_a_breather_when_fatigue_fails_its_attacks() -> None:
    enc = position("heimr/duel.yaml", "gm begin")
    turn_of(enc, "ylva")
    ylva = enc.state.combatants["ylva"]
    ylva.stance = "block"
    ylva.fatigue = 9  # a C2 attack fails outright 2 times in 5 at fatigue 9
    assert str(decide(heimr.DefaultPolicy(), enc)) == "ylva breather"


def test_heimr_fighter_near_its_base_fatigue_does_not_breathe_two_turns_running() -> None:
    # A C0 attack fails outright at fatigue 5 two times in three; a breather to 3 would
    # halve that. But right after a breather, fatigue 5 may be the fighter's base.
    breather = {"kind": "fatigue", "text": "Ylva takes a breather: fatigue 5"}
    after = {"log": [[{**breather, "data": {"who": "ylva", "fatigue": 5}}]]}
    needs = heimr.DefaultPolicy._needs_breather
    assert needs({"log": []}, "ylva", 0, 5)
    assert not needs(after, "ylva", 0, 5)
    assert needs(after, "ylva", 0, 9)  # above any base: breathe on


def test_heimr_fighter_ends_its_turn_after_its_standard_action() -> None:
    enc = position("heimr/duel.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "block"
    enc.push("ylva attack astrid")
    if enc.to_move == "ylva":
        assert str(decide(heimr.DefaultPolicy(), enc)) == "ylva end"


def test_heimr_outnumbered_side_holds_the_door() -> None:
    # Ylva and Astrid in the hall (B2), three raiders in the yard behind the door.
    enc = position("heimr/doorway.yaml", "gm begin")
    turn_of(enc, "ylva")
    enc.state.combatants["ylva"].stance = "block"
    assert str(decide(heimr.DefaultPolicy(), enc)) == "ylva guard B2-B3"


def test_heimr_brawler_without_a_weapon_punches() -> None:
    enc = position("heimr/grab.yaml", "gm begin")
    turn_of(enc, "hrolf")
    action = decide(heimr.DefaultPolicy(), enc)
    assert action.verb in ("brawl", "defend") and action.verb != "attack"


@pytest.mark.parametrize(("fatigue", "expected"), [(1, 0.0), (2, 1 / 6 * 1 / 100)])
def test_heimr_exact_odds_of_failing_outright(fatigue: int, expected: float) -> None:
    # C2: the d6 and two d10 all below the fatigue.
    assert weighing.fails_outright(2, fatigue) == pytest.approx(expected)


# -- heimr-classic --------------------------------------------------------------------------


def test_classic_dm_opens_and_closes_rounds() -> None:
    enc = position("classic/ford.yaml")
    assert str(decide(classic.GmPolicy(), enc, None)) == "gm open"


def test_classic_archer_draws_an_arrow_before_each_shot() -> None:
    enc = position("classic/ford.yaml", "gm open", "ylva done")
    assert enc.to_move == "asa"
    policy = classic.DefaultPolicy()
    assert str(decide(policy, enc)) == "asa draw arrow"
    enc.push("asa draw arrow")
    assert decide(policy, enc).verb == "attack"


def test_classic_archer_never_shoots_without_an_arrow() -> None:
    enc = position("classic/ford.yaml", "gm open", "ylva done")
    policy = classic.DefaultPolicy()
    for _ in range(6):
        if enc.to_move != "asa":
            break
        action = decide(policy, enc)
        if action.verb == "attack":
            declared = [str(d.action) for d in enc.state.declared.of("asa")]
            shots = sum(d.startswith("asa attack") for d in declared)
            assert declared.count("asa draw arrow") > shots
        enc.push(action)


def test_classic_swordswoman_with_a_bow_slung_draws_no_arrows() -> None:
    ruleset, setup, _ = load(EXAMPLES / "classic/ford.yaml")
    setup["campaign"]["characters"]["ylva"]["weapons"]["Bow"] = "bow"
    enc = Encounter(ruleset, setup, RandomDice(1))
    enc.push("gm open")
    assert "ylva draw arrow" in enc.legal_actions("ylva")
    policy = classic.DefaultPolicy()
    declared = []
    while enc.to_move == "ylva":
        action = decide(policy, enc)
        declared.append(str(action))
        enc.push(action)
    assert "ylva draw arrow" not in declared
    assert sum(d.startswith("ylva attack") for d in declared) == 2


def test_classic_fighter_moves_to_reach_an_enemy() -> None:
    # Ylva on the north bank, her enemies in the ford: she wades in and strikes.
    enc = position("classic/ford.yaml", "gm open", where={"ylva": "North bank"})
    policy = classic.DefaultPolicy()
    declared = []
    while enc.to_move == "ylva":
        action = decide(policy, enc)
        declared.append(str(action))
        enc.push(action)
    assert declared[0] == "ylva move Ford"
    assert declared[1].startswith("ylva attack") and declared[-1] == "ylva done"


def test_classic_posts_end_with_done() -> None:
    enc = position("classic/ford.yaml", "gm open")
    policy = classic.DefaultPolicy()
    verbs = []
    while enc.to_move == "ylva":
        action = decide(policy, enc)
        verbs.append(action.verb)
        enc.push(action)
    assert verbs[-1] == "done" and "attack" in verbs


# -- sides ----------------------------------------------------------------------------------


def test_sides_winner_acts_and_the_fighter_charges() -> None:
    enc = position("sides/mace.yaml", "gm begin")
    side = enc.to_move
    assert side is not None and str(decide(sides.DefaultPolicy(), enc, side)) == f"{side} act"
    enc.push(f"{side} act")
    action = decide(sides.DefaultPolicy(), enc)
    assert action.verb == "charge"


def test_sides_fighter_out_of_charge_range_closes_in() -> None:
    # Snik stands 80' down the road: Ana cannot charge him, so she moves or shoots.
    enc = position("sides/ambush.yaml", "gm begin")
    policy = sides.DefaultPolicy()
    verbs = set()
    for _ in range(30):
        actor = enc.to_move
        if actor in (None, "gm"):
            break
        action = decide(policy, enc, actor if actor not in enc.state.combatants else None)
        verbs.add(action.verb)
        enc.push(action)
    assert verbs & {"move", "shoot", "charge"}
    assert "run" not in verbs


def test_sides_gm_never_ends_the_fight_by_fiat() -> None:
    enc = position("sides/mace.yaml")
    legal = [Action.parse("gm end"), Action.parse("gm begin"), Action.parse("gm surprise")]
    choice = sides.GmPolicy().choose(view(enc, None), legal, numpy.random.default_rng(0))
    assert str(choice) == "gm begin"


# -- tempo ----------------------------------------------------------------------------------


def test_tempo_fighter_strikes_and_the_opponent_parries() -> None:
    enc = position("tempo/binds.yaml")
    policy = tempo.DefaultPolicy()
    first = decide(policy, enc)
    assert first.verb in ("melee-attack", "feint")
    enc.push(first)
    assert decide(policy, enc).verb in ("parry", "evade")


def test_tempo_fighter_recovers_when_it_can_afford_nothing() -> None:
    enc = position("tempo/binds.yaml")
    enc.state.combatants["ylva"].ap = 0
    assert decide(tempo.DefaultPolicy(), enc).verb == "recover"


# -- diestep --------------------------------------------------------------------------------


def test_diestep_rider_moves_toward_the_bandits() -> None:
    enc = position("diestep/charge.yaml", "gm begin")
    assert enc.to_move == "sela"
    action = decide(diestep.DefaultPolicy(), enc)
    assert (action.verb, action.target) == ("move", "bend")


def test_diestep_fighter_attacks_then_ends_its_turn() -> None:
    enc = position("diestep/grapple.yaml", "gm begin")
    actor = enc.to_move
    policy = diestep.DefaultPolicy()
    verbs = []
    for _ in range(20):
        if enc.to_move != actor:
            if enc.to_move is None:
                break
            enc.push(decide(policy, enc))  # the defender answers
            continue
        action = decide(policy, enc)
        verbs.append(action.verb)
        enc.push(action)
        if action.verb == "end":
            break
    assert verbs[0] in ("attack", "grab") and verbs[-1] == "end"


def test_diestep_defender_picks_its_larger_die() -> None:
    me = {"dice": {"att": "d10", "ref": "d6"}}
    legal = [Action.parse(t) for t in ("rook dodge", "rook parry", "rook take")]
    choice = diestep.DefaultPolicy._answer(legal, me)
    assert str(choice) == "rook parry"


# -- game masters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "needed"),
    [(heimr, "gm begin"), (classic, "gm close"), (sides, "gm next"), (diestep, "gm begin")],
)
def test_game_masters_do_what_the_fight_needs_and_nothing_else(module: Any, needed: str) -> None:
    extras = ("gm award shieldwall xp=10", "gm effect ylva name=Stumble number=4", "gm end")
    legal = [Action.parse(t) for t in (*extras, needed, "gm over")]
    choice = module.GmPolicy("any").choose({}, legal, numpy.random.default_rng(0))
    assert str(choice) == needed
