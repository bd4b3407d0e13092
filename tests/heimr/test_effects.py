"""Effects (H-EFF-1..10) in play, with scripted dice worked out by hand.

Most encounters here are two characters with dex 0: initiative is C0P3 (willpower 3), a
single d6 each, so the faces [6, 1] put the first character first (9 against 4).
Everyone has sta 3 unless fatigue matters: base fatigue max(1, 4 - 3) = 1, so no roll
fails outright and no d6 raises fatigue (H-FAT-1, H-FAT-2). The stance "none" pre-rolls
no defence, so the only dice are the ones a test names.

Timing (H-EFF-10): an effect lasts floor(seconds / 2) of the affected character's own
turns, passing at the end of the last one; one of 0 turns passes at the start of the
next one. An effect called during the affected character's own turn starts counting
with its next turn (docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr import effects
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts


def refuses(enc: Encounter[HeimrState], action: str, rule: str) -> None:
    """``action`` is refused by ``rule``, and is not offered as a legal action."""
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert err.value.rule == rule, err.value
    assert action not in enc.legal_actions()


def duel(
    faces: list[int] | None = None, squares: dict[str, str] | None = None, **kw: Any
) -> Encounter[HeimrState]:
    """Ylva (north, a medium weapon) acts before Brannoc (south, 10 hit points), both in
    B2 unless ``squares`` says otherwise.

    Ylva's Dueling: base C0, P dex 0 + 3 for the medium weapon: C0P3, one d6.
    """
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=3, hp=10, **kw)
    enc = encounter(
        [ylva, brannoc],
        faces=[6, 1] + (faces or []),
        squares=squares,
        stances={"ylva": "none", "brannoc": "none"},
    )
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    return enc


# -- H-EFF-10: durations in turns ---------------------------------------------------------


@pytest.mark.rule("H-EFF-10", "H-EFF-1")
@pytest.mark.parametrize(
    ("called", "turns"),
    [
        ("", 1),  # the default, 2 seconds: one turn
        (" number=1", 0),  # 1 second: floor(1/2) = 0, gone when its turn starts
        (" number=4", 2),  # "Stumble four": two turns
        (" number=5", 2),  # the seed's example: five seconds last two turns
        (" number=6", 3),
    ],
)
def test_an_effect_lasts_half_its_seconds_in_the_affected_characters_turns(
    called: str, turns: int
) -> None:
    enc = duel()
    brannoc = enc.state.combatants["brannoc"]
    enc.push("gm effect brannoc name=Stumble" + called)  # in Ylva's turn
    assert enc.state.combatants["brannoc"].has("Stumble")
    stumbling_turns = 0
    for _ in range(5):
        enc.push("ylva end")  # Brannoc's turn starts
        brannoc = enc.state.combatants["brannoc"]
        if brannoc.has("Stumble"):
            stumbling_turns += 1
        enc.push("brannoc end")
    assert stumbling_turns == turns
    assert not enc.state.combatants["brannoc"].has("Stumble")


@pytest.mark.rule("H-EFF-10")
def test_a_one_second_effect_passes_at_the_start_of_the_next_turn() -> None:
    enc = duel()
    enc.push("gm effect brannoc name=Daze number=1")
    # Still dazed through the rest of Ylva's turn: Brannoc cannot defend.
    assert not effects.can_defend(enc.state.combatants["brannoc"])
    events = [e.text for e in enc.push("ylva end")]
    # The turn starts, then the 0-turn Daze passes: Brannoc acts in this very turn.
    assert events.index("round 1: brannoc's turn") < events.index("brannoc's Daze passes")
    enc.push("brannoc move A2")
    assert enc.state.combatants["brannoc"].square == "A2"


@pytest.mark.rule("H-EFF-10")
def test_an_effect_called_in_ones_own_turn_counts_from_the_next_turn() -> None:
    # A Stumble of 2 seconds is one turn. Called while Brannoc's own turn is under way,
    # what is left of that turn does not count: it lasts through his next turn.
    enc = duel()
    enc.push("ylva end")
    enc.push("gm effect brannoc name=Stumble")
    enc.push("brannoc end")
    assert enc.state.combatants["brannoc"].has("Stumble")
    enc.push("ylva end")
    assert enc.state.combatants["brannoc"].has("Stumble")  # his next turn: still on
    enc.push("brannoc end")
    assert not enc.state.combatants["brannoc"].has("Stumble")


# -- H-EFF-1: numbers ---------------------------------------------------------------------


@pytest.mark.rule("H-EFF-1", "H-EFF-2")
def test_a_called_number_replaces_the_default() -> None:
    enc = duel()
    enc.push("gm effect brannoc name=Hit")  # default 1 point: 10 -> 9
    assert enc.state.combatants["brannoc"].hp == 9
    enc.push("gm effect brannoc name=Hit number=2")  # "hit two": 9 -> 7, not 9 - 1 - 2
    assert enc.state.combatants["brannoc"].hp == 7
    enc.push("gm effect brannoc name=Stumble number=4")  # four seconds, not two
    assert [e.turns for e in enc.state.combatants["brannoc"].effects] == [2]


# -- H-EFF-2: Hit and Drain -----------------------------------------------------------------


@pytest.mark.rule("H-EFF-2", "H-ATK-4")
def test_a_hit_effect_called_with_an_attack_replaces_the_weapon_damage() -> None:
    # The medium weapon deals 2. Brannoc does not defend (stance none): every attack hits.
    enc = duel(faces=[6])  # attack C0P3: 6 + 3 = 9
    enc.push("ylva attack brannoc hit=1")
    assert enc.state.combatants["brannoc"].hp == 9  # 10 - 1: not 10 - 2, not 10 - 3
    enc.push("ylva end")
    enc.push("brannoc end")
    enc.dice.add([6])
    enc.push("ylva attack brannoc hit=3")
    assert enc.state.combatants["brannoc"].hp == 6  # 9 - 3: replaces, not 9 - 2 or 9 - 5


@pytest.mark.rule("H-EFF-2")
def test_drain_costs_willpower_not_hit_points() -> None:
    enc = duel()
    enc.push("gm effect brannoc name=Drain")  # willpower 3 - 1
    brannoc = enc.state.combatants["brannoc"]
    assert (brannoc.willpower, brannoc.hp) == (2, 10)
    enc.push("gm effect brannoc name=Drain number=2")  # 2 - 2
    assert enc.state.combatants["brannoc"].willpower == 0


# -- H-EFF-3: Fall and Drop ---------------------------------------------------------------


@pytest.mark.rule("H-EFF-3")
def test_fall_puts_one_on_the_ground_with_no_standing_until_it_passes() -> None:
    enc = duel()
    enc.push("gm effect brannoc name=Fall")  # 2 seconds: Brannoc's next turn
    assert enc.state.combatants["brannoc"].prone
    enc.push("ylva end")
    refuses(enc, "brannoc stand", "H-EFF-3")
    enc.push("brannoc end")  # the Fall passes; he is still on the ground
    assert enc.state.combatants["brannoc"].prone
    enc.push("ylva end")
    enc.push("brannoc stand")
    assert not enc.state.combatants["brannoc"].prone


@pytest.mark.rule("H-EFF-3")
def test_drop_lets_go_of_the_item_with_no_picking_up_until_it_passes() -> None:
    enc = duel(sword="Light weapon")
    enc.push("gm effect brannoc name=Drop")  # the sword arm's item
    brannoc = enc.state.combatants["brannoc"]
    assert brannoc.sword_hand is None
    assert [i.name for i in brannoc.dropped] == ["Light weapon"]
    enc.push("ylva end")
    refuses(enc, "brannoc get 'Light weapon'", "H-EFF-3")
    enc.push("brannoc end")
    enc.push("ylva end")
    enc.push("brannoc get 'Light weapon'")
    sword = enc.state.combatants["brannoc"].sword_hand
    assert sword is not None and sword.name == "Light weapon"


# -- H-EFF-4: Stumble ---------------------------------------------------------------------


@pytest.mark.rule("H-EFF-4")
def test_stumble_moves_out_of_the_cluster_and_allows_melee_only_within_ones_cluster() -> None:
    # Both stand in B2 with medium weapons; neither pre-rolls a defence.
    enc = duel(faces=[6], sword="Medium weapon")
    enc.push("ylva attack brannoc")  # 9, undefended: a hit for 2; both in one cluster
    assert enc.state.clusters == [["ylva", "brannoc"]]
    # Ylva is in his square, so any direction fits: she chooses (here: up).
    refuses(enc, "gm effect brannoc name=Stumble number=4 from=ylva", "H-EFF-4")
    enc.push("gm effect brannoc name=Stumble number=4 from=ylva direction=up")
    assert enc.state.clusters == []  # moved out of the cluster
    enc.push("ylva end")
    # His first stumbling turn: Ylva is no longer in a cluster with him.
    refuses(enc, "brannoc attack ylva", "H-EFF-4")
    refuses(enc, "brannoc brawl ylva effect=hit", "H-EFF-4")
    refuses(enc, "brannoc move B3", "H-EFF-4")  # up, where it came from
    assert "brannoc move A2" in enc.legal_actions()
    enc.push("brannoc end")
    # Attacked first, he is in her cluster again and may strike back.
    enc.dice.add([6])
    enc.push("ylva attack brannoc")
    enc.push("ylva end")
    assert enc.state.combatants["brannoc"].has("Stumble")  # his second turn of two
    enc.dice.add([4])  # his Dueling C0P3: 4 + 3 = 7; Ylva pre-rolls nothing: a hit
    enc.push("brannoc attack ylva")
    assert enc.state.combatants["ylva"].hp == 2


@pytest.mark.rule("H-EFF-4")
def test_a_stumbling_archer_cannot_shoot_or_charge() -> None:
    archer = sheet("ylva", "north", sta=3, sword="Bow")
    brannoc = sheet("brannoc", "south", sta=3, sword="Medium weapon")
    enc = encounter(
        [archer, brannoc],
        faces=[6, 1],
        squares={"ylva": "A1", "brannoc": "B1"},
        stances={"ylva": "none", "brannoc": "none"},
    )
    enc.push("gm begin")
    assert "ylva attack brannoc" in enc.legal_actions()
    enc.push("gm effect ylva name=Stumble")  # in her own turn: it lasts her next turn
    refuses(enc, "ylva attack brannoc", "H-EFF-4")
    enc.push("ylva end")
    assert "brannoc charge ylva" in enc.legal_actions()
    enc.push("gm effect brannoc name=Stumble")
    refuses(enc, "brannoc charge ylva", "H-EFF-4")
    enc.push("brannoc end")
    refuses(enc, "ylva attack brannoc", "H-EFF-4")
    enc.push("ylva end")  # her Stumble passes
    enc.push("brannoc end")  # and his
    assert "ylva attack brannoc" in enc.legal_actions()


@pytest.mark.rule("H-EFF-4")
def test_a_stumble_bars_the_direction_it_came_from() -> None:
    # A1 is bottom left: B3 is up from B2, A3 is up and to the left.
    enc = duel(squares={"ylva": "B3"})
    enc.push("gm effect brannoc name=Stumble from=ylva")  # one direction fits: up
    refuses(enc, "gm effect brannoc name=Stumble from=ylva direction=left", "H-EFF-4")
    enc.push("ylva end")
    refuses(enc, "brannoc move B3", "H-EFF-4")
    for square in ("A2", "C2", "B1"):
        assert f"brannoc move {square}" in enc.legal_actions()
    enc.push("brannoc end")
    # From a diagonal square both up and left fit: the causer chooses.
    enc.push("ylva move A3")
    refuses(enc, "gm effect brannoc name=Stumble from=ylva", "H-EFF-4")
    refuses(enc, "gm effect brannoc name=Stumble from=ylva direction=down", "H-EFF-4")
    enc.push("gm effect brannoc name=Stumble from=ylva direction=left")
    enc.push("ylva end")
    refuses(enc, "brannoc move A2", "H-EFF-4")
    assert "brannoc move B3" in enc.legal_actions()


# -- H-EFF-5: Daze ------------------------------------------------------------------------


@pytest.mark.rule("H-EFF-5")
@pytest.mark.parametrize(
    ("seconds", "can_defend", "can_act"),
    [
        # Points in time: [just dazed, his 1st turn, after it, his 2nd turn, after it].
        # 1 s: 0 turns, passes at the start of his next turn.
        (1, [False, True, True, True, True], [True, True]),
        # 2 s: one turn; no defence until it has passed.
        (2, [False, False, True, True, True], [False, True]),
        # 3 s: one turn, odd: he defends from the start of the turn in which it ends.
        (3, [False, True, True, True, True], [False, True]),
        # 4 s: two turns, even.
        (4, [False, False, False, False, True], [False, False]),
        # 5 s: two turns, odd: he defends from the start of his second turn.
        (5, [False, False, False, True, True], [False, False]),
    ],
)
def test_daze_forbids_actions_and_defence_and_an_odd_one_lifts_defence_early(
    seconds: int, can_defend: list[bool], can_act: list[bool]
) -> None:
    enc = duel()
    enc.push(f"gm effect brannoc name=Daze number={seconds}")
    defend = [effects.can_defend(enc.state.combatants["brannoc"])]
    act = []
    for _ in range(2):
        enc.push("ylva end")
        defend.append(effects.can_defend(enc.state.combatants["brannoc"]))
        act.append("brannoc move A2" in enc.legal_actions())
        enc.push("brannoc end")
        defend.append(effects.can_defend(enc.state.combatants["brannoc"]))
    assert defend == can_defend
    assert act == can_act


def daze_encounter(seconds: int) -> Encounter[HeimrState]:
    """Ylva and Cato (north, medium weapons) act before Brannoc (south, 20 hit points),
    who dodges: Agility base C1, P0. Ylva dazes him and strikes; Cato readies a strike
    for Brannoc's own turn."""
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    cato = sheet("cato", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=3, hp=20)
    enc = encounter(
        [ylva, cato, brannoc],
        faces=[6, 5, 1]  # initiative 9, 8, 4: Ylva, Cato, Brannoc
        + [1, 10],  # Brannoc pre-rolls his dodge C1P0: highest 10
        stances={"ylva": "none", "cato": "none"},
    )
    enc.push("gm begin")
    enc.push(f"gm effect brannoc name=Daze number={seconds}")
    enc.dice.add([6])  # Ylva's attack C0P3: 9, below his dodge 10 - but he cannot dodge
    enc.push("ylva attack brannoc")
    assert "brannoc cannot defend" in texts(enc, 1)
    assert enc.state.combatants["brannoc"].hp == 18
    enc.push("ylva end")
    enc.push("cato ready action='attack brannoc' trigger='his turn begins'")
    enc.push("cato end")
    assert enc.to_move == "brannoc"
    refuses(enc, "brannoc move A2", "H-EFF-5")  # dazed: no actions in this turn
    enc.dice.add([6])  # Cato's readied attack, in Brannoc's own turn: 9
    return enc


@pytest.mark.rule("H-EFF-5", "H-EFF-10")
def test_an_odd_daze_lets_the_dazed_defend_in_the_turn_in_which_it_ends() -> None:
    # Daze 3 lasts floor(3/2) = 1 turn, Brannoc's next; being odd, he defends from the
    # start of that turn: his dodge 10 >= Cato's 9, a miss.
    enc = daze_encounter(3)
    enc.dice.add([1, 10])  # the used dodge is rolled again (C1-2 = C-1): lowest 1
    enc.push("cato trigger")
    assert "brannoc's dodge 10 against 9: miss" in texts(enc, 1)
    assert enc.state.combatants["brannoc"].hp == 18
    enc.dice.add([1, 10])  # Brannoc ends the turn: the dodge is pre-rolled again, C1
    enc.push("brannoc end")
    assert not enc.state.combatants["brannoc"].has("Daze")


@pytest.mark.rule("H-EFF-5", "H-EFF-10")
def test_an_even_daze_allows_no_defence_until_it_has_passed() -> None:
    # Daze 2 lasts one turn too, but even: no defence in that turn.
    enc = daze_encounter(2)
    enc.push("cato trigger")
    assert "brannoc cannot defend" in texts(enc, 1)
    assert enc.state.combatants["brannoc"].hp == 16
    enc.dice.add([1, 10])
    enc.push("brannoc end")  # the Daze passes at the end of his turn
    assert not enc.state.combatants["brannoc"].has("Daze")
    enc.dice.add([6] + [2, 3])  # Ylva: 9 against his pre-rolled dodge 10: a miss
    enc.push("ylva attack brannoc")
    assert "brannoc's dodge 10 against 9: miss" in texts(enc, 1)


# -- H-EFF-7: Bind called by the game master ------------------------------------------------


@pytest.mark.rule("H-EFF-7")
def test_bound_feet_forbid_walking_but_not_crawling() -> None:
    enc = duel()
    refuses(enc, "gm effect brannoc name=Bind part=knee", "H-EFF-7")
    enc.push("gm effect brannoc name=Bind part=feet")
    enc.push("ylva end")
    refuses(enc, "brannoc move A2", "H-EFF-7")
    refuses(enc, "brannoc run A2", "H-EFF-7")
    enc.push("brannoc prone")
    enc.push("brannoc crawl A2")  # "you can only jump or crawl": an upcoming action
    assert enc.to_move == "ylva"


@pytest.mark.rule("H-EFF-7")
def test_a_bound_body_cannot_move_and_bound_hands_cannot_use_weapons() -> None:
    enc = duel()
    enc.push("gm effect brannoc name=Bind part=body")  # in Ylva's turn: his next turn
    enc.push("ylva end")
    enc.push("gm effect ylva name=Bind part=hands")  # in his turn: her next turn
    refuses(enc, "brannoc move A2", "H-EFF-7")  # "you can not move from your position"
    enc.push("brannoc prone")
    refuses(enc, "brannoc crawl A2", "H-EFF-7")
    enc.push("brannoc end")
    assert not enc.state.combatants["brannoc"].has("Bind")
    refuses(enc, "ylva attack brannoc", "H-EFF-7")  # "you cannot ... use your hands"
    refuses(enc, "ylva brawl brannoc effect=bind", "H-EFF-7")
    enc.push("ylva end")
    assert not enc.state.combatants["ylva"].has("Bind")
    enc.push("brannoc end")
    assert "ylva attack brannoc" in enc.legal_actions()


@pytest.mark.rule("H-EFF-7", "H-ATK-10")
def test_the_bind_of_a_grab_lasts_until_released_not_by_turns() -> None:
    ylva = sheet("ylva", "north", sta=3)
    brannoc = sheet("brannoc", "south", sta=3)
    enc = encounter([ylva, brannoc], faces=[6, 1], stances={"ylva": "none", "brannoc": "none"})
    enc.push("gm begin")
    enc.dice.add([6, 10])  # Brawl C1P0: 10, undefended; the d6 6 takes the torso: the body
    enc.push("ylva brawl brannoc effect=bind")
    for _ in range(3):
        enc.push("ylva end")
        enc.push("brannoc end")
    b = enc.state.combatants["brannoc"]
    assert (b.held_by, [(e.name, e.part) for e in b.effects]) == ("ylva", [("Bind", "body")])
    enc.push("ylva release")
    assert enc.state.combatants["brannoc"].effects == []


# -- H-EFF-9: reactions -------------------------------------------------------------------


@pytest.mark.rule("H-EFF-9")
def test_resist_and_miss_negate_an_effect() -> None:
    enc = duel(faces=[6], sword="Medium weapon")
    enc.push("ylva attack brannoc")  # a hit for 2: 10 -> 8, and a cluster
    enc.push("gm effect brannoc name=Hit number=3 reaction=Resist")
    enc.push("gm effect brannoc name=Stumble from=ylva direction=up reaction=Miss")
    enc.push("gm effect brannoc name=Daze reaction=Resist")
    brannoc = enc.state.combatants["brannoc"]
    assert brannoc.hp == 8
    assert brannoc.effects == []
    assert enc.state.clusters == [["ylva", "brannoc"]]
    assert "brannoc answers Hit 3 with Resist: negated" in texts(enc)
    refuses(enc, "gm effect brannoc name=Resist", "H-EFF-9")
