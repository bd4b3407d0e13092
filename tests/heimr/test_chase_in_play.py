"""The chase in an encounter (H-ACT-5, H-CHASE-1)."""

from __future__ import annotations

import pytest

from fracas.engine import Encounter
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet


def running() -> Encounter[HeimrState]:
    # Initiative C0P3: Brannoc 6 + 3 acts before Ylva 1 + 3. Both sta 0: fatigue 4.
    people = [sheet("brannoc", "south"), sheet("ylva", "north")]
    enc = encounter(people, faces=[6, 1], stances={"brannoc": "none", "ylva": "none"})
    enc.push("gm begin")
    enc.push("brannoc run B3")  # ongoing: his turn ends
    enc.push("ylva run B3")  # after him, from where he ran: a chase begins
    return enc


@pytest.mark.rule("H-ACT-5")
def test_two_characters_running_after_each_other_start_a_chase() -> None:
    enc = running()
    texts = [e.text for e in enc.log[-1].events]
    assert any(t.startswith("ylva runs after brannoc: a chase begins") for t in texts)


@pytest.mark.rule("H-CHASE-1")
def test_a_target_failing_its_fatigue_check_is_caught() -> None:
    enc = running()
    # The target rolls first: Agility C1P0, [1, 1] -> 1 before potential, below his
    # fatigue 4: he cannot go on, and Ylva reaches him.
    enc.dice.add([1, 1])
    enc.push("gm chase ylva target=brannoc ability=Agility gap=2")
    assert enc.state.combatants["ylva"].square == enc.state.combatants["brannoc"].square
    assert not enc.state.combatants["brannoc"].fled


@pytest.mark.rule("H-CHASE-1")
def test_a_chaser_failing_its_fatigue_check_lets_the_target_escape() -> None:
    enc = running()
    # Brannoc [5, 9] -> 9 (d6 5 is not below 4); Ylva [2, 3] -> 3, below her fatigue 4:
    # she cannot go on, Brannoc escapes and is out of the encounter.
    enc.dice.add([5, 9] + [2, 3])
    enc.push("gm chase ylva target=brannoc ability=Agility gap=2")
    assert enc.state.combatants["brannoc"].fled
    assert enc.is_over()
