"""Blind spots (H-MOD-1), the seed's geometry worked by hand on small grids.

Grids are drawn as on a chessboard, row 1 at the bottom: ``D`` the defender, ``a``
the attacker, ``x`` the blind spot.
"""

from __future__ import annotations

import pytest

from fracas.rules.heimr.blindspots import (
    AttackerChooses,
    BlindSpots,
    Direction,
    blind_spot,
    direction_of,
)

pytestmark = pytest.mark.rule("H-MOD-1")


def spot(defender: str, attacker: str, size: int, prefer: str | None = None) -> list[str]:
    (direction,) = direction_of(defender, attacker, prefer)  # type: ignore[arg-type]
    return sorted(blind_spot(defender, direction, size, size))


def test_the_eight_directions_and_their_opposites() -> None:
    assert [d.name for d in Direction] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert all(d.opposite.opposite is d for d in Direction)
    assert [d.name for d in Direction if d.straight] == ["N", "E", "S", "W"]


def test_from_the_centre_of_a_3x3_grid_a_blind_spot_is_three_squares() -> None:
    # 3 . a .     3 . . a     3 a . .
    # 2 . D .     2 x D .     2 . D x
    # 1 x x x     1 x x .     1 . x x
    assert spot("B2", "B3", 3) == ["A1", "B1", "C1"]
    assert spot("B2", "C3", 3) == ["A1", "A2", "B1"]
    assert spot("B2", "A3", 3) == ["B1", "C1", "C2"]
    assert spot("B2", "A2", 3) == ["C1", "C2", "C3"]
    assert all(len(spot("B2", sq, 3)) == 3 for sq in ("A1", "A2", "A3", "B1", "B3", "C1", "C3"))


def test_at_an_edge_or_in_a_corner_the_grid_clips_the_blind_spot() -> None:
    assert spot("A2", "A3", 3) == ["A1", "B1"]  # along the edge: two squares
    assert spot("A2", "B3", 3) == ["A1"]  # diagonally from inside: one
    assert spot("A2", "C2", 3) == []  # from across the grid: the edge is behind
    for attacker in ("A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"):
        for way in direction_of("A1", attacker):  # B3 and C2 are ties: both ways
            assert blind_spot("A1", way, 3, 3) == frozenset()  # a corner has no back


def test_on_larger_grids_the_blind_spot_spreads_at_90_degrees() -> None:
    # 4x4, the attacker E of the defender, the sector W of it along both diagonals:
    # 4 x . . .
    # 3 x x . .
    # 2 x x D a
    # 1 x x . .
    assert spot("C2", "D2", 4) == ["A1", "A2", "A3", "A4", "B1", "B2", "B3"]
    # 5x5, from the north: a widening cone below the defender, 3 then 5 squares.
    assert spot("C3", "C5", 5) == ["A1", "B1", "B2", "C1", "C2", "D1", "D2", "E1"]
    # 5x5, from a diagonal: the whole quarter behind, both straight lines included.
    assert spot("C3", "E5", 5) == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"]


def test_an_attacker_off_the_lines_counts_from_the_closest_line() -> None:
    # 3 right and 1 up: 1 square off the straight line, 2 off the diagonal: E.
    assert direction_of("B2", "E3") == (Direction.E,)
    assert spot("B2", "E3", 5) == ["A1", "A2", "A3"]
    # 3 right and 2 up: 2 off the straight line, 1 off the diagonal: NE.
    assert direction_of("A1", "D3") == (Direction.NE,)
    # 1 left and 3 down: S.
    assert direction_of("B4", "A1") == (Direction.S,)


def test_on_a_tie_the_attacker_chooses_the_line() -> None:
    # 2 right and 1 up on a 4x4 grid: 1 square off either line.
    assert direction_of("B2", "D3") == (Direction.E, Direction.NE)
    assert spot("B2", "D3", 4, prefer="straight") == ["A1", "A2", "A3"]
    assert spot("B2", "D3", 4, prefer="diagonal") == ["A1", "A2", "B1"]
    spots = BlindSpots(4, 4)
    with pytest.raises(AttackerChooses) as err:
        spots.add_attack("B2", "D3")
    assert err.value.candidates == (Direction.E, Direction.NE)
    assert "the attacker chooses (H-MOD-1)" in str(err.value)
    assert spots.add_attack("B2", "D3", prefer="diagonal") == {"A1", "A2", "B1"}


def test_the_blind_spot_widens_and_penalises_ranged_and_entering_melee() -> None:
    spots = BlindSpots(3, 3)
    assert spots.penalty_for_ranged("B3") == 0  # the first attack is not from a blind spot
    assert spots.add_attack("B2", "B3") == {"A1", "B1", "C1"}
    assert spots.penalty_for_ranged("C1") == 5
    assert spots.penalty_for_ranged("A2") == 0
    assert spots.add_attack("B2", "C1") == frozenset()  # from inside: no wider
    assert spots.add_attack("B2", "A2") == {"C2", "C3"}  # from a new square: wider
    assert spots.penalty_for_ranged("C3") == 5
    assert spots.penalty_for_melee(entered_from="B1") == 5  # came in from behind
    assert spots.penalty_for_melee(entered_from="A2") == 0
    assert spots.penalty_for_melee(entered_from=None) == 0  # was already there
    spots.clear()  # the defender's next turn
    assert spots.squares == frozenset() and spots.penalty_for_ranged("C1") == 0


@pytest.mark.rule("H-DEF-4")
def test_no_blind_spot_from_an_undefended_attack_or_the_same_square() -> None:
    spots = BlindSpots(3, 3)
    assert spots.add_attack("B2", "B3", defended=False) == frozenset()  # H-DEF-4
    assert spots.add_attack("B2", "B2") == frozenset()
    assert spots.squares == frozenset()
    copy = spots.clone()
    spots.add_attack("B2", "B3")
    assert copy.squares == frozenset()
