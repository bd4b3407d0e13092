"""Dice sources: scripted faces read in order, seeded dice that repeat, and bookmarks."""

from __future__ import annotations

import pytest

from fracas.dice import FacesError, HeimrChallenge
from fracas.engine import DrawnRoll, RandomDice, ScriptedDice


def test_scripted_faces_are_read_in_order_and_recorded_with_the_purpose() -> None:
    dice = ScriptedDice([4, 3, 9, 6])
    roll = dice.roll(HeimrChallenge(2, 1), "ylva attacks brannoc")
    # d6 4, d10s 3 and 9: the highest d10 plus P1 = 10.
    assert roll.faces == (4, 3, 9)
    assert roll.result == 10
    assert dice.remaining() == 1
    assert dice.drawn == [DrawnRoll("C2P1", "ylva attacks brannoc", (4, 3, 9))]


def test_faces_can_be_added_to_the_script_later() -> None:
    dice = ScriptedDice([2])
    dice.add([5])
    assert dice.roll(HeimrChallenge(1, 0), "brannoc dodges").faces == (2, 5)
    assert dice.remaining() == 0


def test_a_script_that_runs_out_names_the_roll_and_the_die_needed() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(FacesError) as err:
        dice.roll(HeimrChallenge(2, 1), "ylva attacks brannoc")
    assert str(err.value) == "ylva attacks brannoc: the script has run out of dice: a d10 is needed"


@pytest.mark.parametrize(
    ("faces", "die"),
    [([7], "d6"), ([0], "d6"), ([4, 11], "d10")],
)
def test_a_face_the_die_cannot_show_is_refused_with_the_purpose(faces: list[int], die: str) -> None:
    dice = ScriptedDice(faces)
    with pytest.raises(FacesError) as err:
        dice.roll(HeimrChallenge(1, 0), "ylva's initiative")
    assert str(err.value) == (
        f"ylva's initiative: scripted face {faces[-1]} cannot be shown by a {die}"
    )


def test_a_refused_roll_gives_back_the_faces_it_had_read() -> None:
    dice = ScriptedDice([4, 11, 5])
    with pytest.raises(FacesError):
        dice.roll(HeimrChallenge(1, 0), "ylva attacks")
    assert dice.position == 0
    assert dice.remaining() == 3
    assert dice.drawn == []
    dice.faces[1] = 10  # the person at the table corrects the typo
    assert dice.roll(HeimrChallenge(1, 0), "ylva attacks").faces == (4, 10)
    assert dice.roll(HeimrChallenge(0, 0), "brannoc dodges").faces == (5,)


def test_rewinding_a_script_to_a_mark_forgets_the_rolls_after_it() -> None:
    dice = ScriptedDice([1, 2, 3, 4])
    dice.roll(HeimrChallenge(0, 0), "first")
    mark = dice.mark()
    dice.roll(HeimrChallenge(1, 0), "second")
    assert dice.remaining() == 1
    dice.rewind(mark)
    assert dice.remaining() == 3
    assert [r.purpose for r in dice.drawn] == ["first"]
    assert dice.roll(HeimrChallenge(1, 0), "second again").faces == (2, 3)


def rolls(dice: RandomDice, n: int) -> list[tuple[int, ...]]:
    return [dice.roll(HeimrChallenge(3, 2), f"roll {i}").faces for i in range(n)]


def test_the_same_seed_rolls_the_same_faces() -> None:
    assert rolls(RandomDice(7), 20) == rolls(RandomDice(7), 20)
    assert rolls(RandomDice(7), 20) != rolls(RandomDice(8), 20)


def test_random_dice_record_what_they_rolled() -> None:
    dice = RandomDice(3)
    faces = rolls(dice, 3)
    assert [r.faces for r in dice.drawn] == faces
    assert [r.notation for r in dice.drawn] == ["C3P2"] * 3


def test_rewinding_random_dice_rolls_the_same_faces_again() -> None:
    dice = RandomDice(11)
    rolls(dice, 2)
    mark = dice.mark()
    ahead = rolls(dice, 5)
    dice.rewind(mark)
    assert len(dice.drawn) == 2
    assert rolls(dice, 5) == ahead
