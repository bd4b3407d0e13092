"""The game master's calls in play: challenge requirements and re-rolls (H-DICE-7),
opposed challenges (H-DICE-8), attribute rolls (H-CHAR-4) and experience (H-XP-1).

Everyone has sta 3 (base fatigue 1), so no roll here fails outright on fatigue.
Agility is base C1 on dex: for dex 0, C1P0, a d6 and a d10, the highest kept.
"""

from __future__ import annotations

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts


def refuses(enc: Encounter[HeimrState], action: str, rule: str) -> None:
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert err.value.rule == rule, err.value


def party() -> Encounter[HeimrState]:
    ylva = sheet("ylva", "north", sta=3, str=3, int=1, soc=2)
    brannoc = sheet("brannoc", "south", sta=3, emp=1, willpower=1)
    return encounter([ylva, brannoc])


def willpower(enc: Encounter[HeimrState], who: str) -> int:
    return enc.state.combatants[who].willpower


# -- H-DICE-7: challenge requirements ---------------------------------------------------------


@pytest.mark.rule("H-DICE-7")
def test_a_cr_is_met_by_an_equal_result_and_a_failure_may_be_rerolled_for_willpower() -> None:
    enc = party()
    refuses(enc, "ylva reroll", "H-DICE-7")  # nothing failed yet
    enc.dice.add([3, 4])  # Agility C1P0: highest 4 < CR 5
    enc.push("gm challenge ylva ability=Agility cr=5")
    assert "ylva fails CR 5" in texts(enc, 1)
    refuses(enc, "brannoc reroll", "H-DICE-7")  # not his challenge
    enc.dice.add([1, 4])  # 4 again: still failed, for 1 willpower
    enc.push("ylva reroll")
    assert willpower(enc, "ylva") == 2
    enc.dice.add([2, 5])  # 5 >= 5: equal to the CR passes
    enc.push("ylva reroll")
    assert "ylva passes CR 5" in texts(enc, 1)
    assert willpower(enc, "ylva") == 1
    refuses(enc, "ylva reroll", "H-DICE-7")  # passed: nothing left to re-roll


@pytest.mark.rule("H-DICE-7", "H-DICE-6")
def test_a_rerolled_challenge_keeps_its_penalty_and_needs_willpower() -> None:
    enc = party()
    # A situational penalty of 2 lowers the consistency: C1 - 2 = C-1, the lowest kept.
    enc.dice.add([6, 4])  # lowest 4 < 5
    enc.push("gm challenge brannoc ability=Agility cr=5 penalty=2")
    assert "C-1P0" in texts(enc, 1)[0]
    enc.dice.add([5, 9])  # the re-roll is C-1 again: lowest 5 >= 5
    enc.push("brannoc reroll")
    assert "C-1P0" in texts(enc, 1)[1]
    assert "brannoc passes CR 5" in texts(enc, 1)
    assert willpower(enc, "brannoc") == 0
    enc.dice.add([1, 1])  # lowest 1, one more 1: 1 - 1 = 0 < 5
    enc.push("gm challenge brannoc ability=Agility cr=5 penalty=2")
    refuses(enc, "brannoc reroll", "H-DICE-7")  # no willpower left


# -- H-DICE-8: opposed challenges ---------------------------------------------------------------


@pytest.mark.rule("H-DICE-8")
@pytest.mark.parametrize(
    ("faces", "winner"),
    [
        # Persuasion C0P2 (soc 2) against Insight C0P1 (emp 1): one d6 each.
        ([4, 4], "ylva"),  # 6 against 5
        ([1, 6], "brannoc"),  # 3 against 7
        ([3, 4], "brannoc"),  # 5 against 5: a tie holds (docs/decisions.md)
    ],
)
def test_an_opposed_challenge_compares_both_rolls(faces: list[int], winner: str) -> None:
    enc = party()
    enc.dice.add(faces)
    events = enc.push("gm contest ylva ability=Persuasion against=brannoc with=Insight")
    rolls = [e.data["challenge"] for e in events if e.kind == "roll"]
    assert rolls == ["C0P2", "C0P1"]
    assert [e.data["winner"] for e in events if e.kind == "contest"] == [winner]


# -- H-CHAR-4: attribute rolls ------------------------------------------------------------------


@pytest.mark.rule("H-CHAR-4")
def test_an_attribute_roll_has_the_gms_consistency_and_the_attribute_as_potential() -> None:
    enc = party()
    enc.dice.add([2, 4, 3])  # arm wrestling, str 3 at C2: highest 4 + 3 = 7 >= 7
    events = enc.push("gm challenge ylva attribute=str consistency=2 cr=7")
    assert [e.data["challenge"] for e in events if e.kind == "roll"] == ["C2P3"]
    assert "ylva passes CR 7" in texts(enc, 1)
    enc.dice.add([5, 3, 9])  # int 1 at C-2: lowest 3 + 1 = 4 < 5
    events = enc.push("gm challenge ylva attribute=int consistency=-2 cr=5")
    assert [e.data["challenge"] for e in events if e.kind == "roll"] == ["C-2P1"]
    assert "ylva fails CR 5" in texts(enc, 1)
    refuses(enc, "gm challenge ylva attribute=luck consistency=1 cr=2", "H-CHAR-4")


# -- H-XP-1: experience -------------------------------------------------------------------------


@pytest.mark.rule("H-XP-1")
def test_encounter_xp_is_divided_rounded_down_and_the_rest_carries_over() -> None:
    sheets = [sheet(n, "north") for n in ("ylva", "cato", "dag")] + [sheet("brannoc", "south")]
    enc = encounter(sheets)
    enc.push("gm award north xp=10")  # 10 / 3 = 3 each, 1 left over
    xp = {cid: c.xp for cid, c in enc.state.combatants.items()}
    assert xp == {"ylva": 3, "cato": 3, "dag": 3, "brannoc": 0}
    assert enc.state.xp_remainder == {"north": 1}
    enc.push("gm award north xp=5")  # (5 + 1) / 3 = 2 each, none left over
    assert enc.state.combatants["ylva"].xp == 5
    assert enc.state.xp_remainder == {"north": 0}
    # docs/decisions.md: the dead take no share. Dag falls below -5 hit points.
    enc.push("gm effect dag name=Hit number=10")
    enc.push("gm award north xp=7")  # 7 / 2 = 3 each, 1 left over
    xp = {cid: c.xp for cid, c in enc.state.combatants.items()}
    assert xp == {"ylva": 8, "cato": 8, "dag": 5, "brannoc": 0}
    assert enc.state.xp_remainder == {"north": 1}


@pytest.mark.rule("H-XP-1")
def test_the_xp_left_over_stays_with_the_side_that_earned_it() -> None:
    # Four on team A: 10 / 4 = 2 each, 2 left over for A. Four on team B: 7 / 4 = 1 each,
    # 3 left over for B (A's 2 are not B's). A's next 2: (2 + 2) / 4 = 1 each, none left.
    teama = [sheet(n, "teama") for n in ("ylva", "cato", "dag", "eir")]
    teamb = [sheet(n, "teamb") for n in ("brannoc", "hrolf", "asa", "orm")]
    enc = encounter(teama + teamb)
    enc.push("gm award teama xp=10")
    assert [enc.state.combatants[c].xp for c in ("ylva", "eir")] == [2, 2]
    enc.push("gm award teamb xp=7")
    assert [enc.state.combatants[c].xp for c in ("brannoc", "orm")] == [1, 1]
    assert enc.state.xp_remainder == {"teama": 2, "teamb": 3}
    assert "1 XP each to brannoc, hrolf, asa, orm; 3 carried over for teamb" in texts(enc, 1)
    enc.push("gm award teama xp=2")
    assert enc.state.combatants["ylva"].xp == 3
    assert enc.state.xp_remainder == {"teama": 0, "teamb": 3}


@pytest.mark.rule("H-XP-1")
def test_a_named_group_keeps_its_own_xp_left_over() -> None:
    # The game master names the group: north's party and its hirelings divide apart.
    enc = encounter([sheet(n, "north") for n in ("ylva", "cato", "dag")] + [sheet("b", "south")])
    enc.push("gm award north xp=10 group=party")  # 3 each, 1 left over for the party
    enc.push("gm award north xp=2")  # the side's own: 0 each, 2 left over for north
    assert enc.state.xp_remainder == {"party": 1, "north": 2}
    enc.push("gm award north xp=2 group=party")  # (2 + 1) / 3 = 1 each
    assert enc.state.combatants["ylva"].xp == 4
    assert enc.state.xp_remainder == {"party": 0, "north": 2}
