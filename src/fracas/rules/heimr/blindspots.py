"""Blind spots (H-MOD-1, a module of the Heimr core): the geometry of attacks from behind.

A ranged attack from another square, defended against, leaves the defender a blind
spot opposite it until the defender's next turn; ranged attacks from it, and melee
attacks by characters who entered the defender's square from it that turn, are
defended at -5 consistency. An attack the defender chose not to defend makes none
(H-DEF-4).

Directions are the eight of the compass on the chessboard grid: N is up, towards
higher row numbers; E is right, towards later letters. An attack comes from the
closest straight or diagonal line (:func:`direction_of`), and its blind spot is the
90-degree sector opposite it (:func:`blind_spot`): the squares whose direction from
the defender lies within 45 degrees of the opposite direction, edges included,
clipped to the grid. From the centre of a 3x3 grid that is three squares::

    3 . N .        attack from B3 (N): the blind spot is A1, B1, C1
    2 . D .
    1 x x x
      A B C

Clipped at an edge or a corner it is smaller, and may be empty: a defender with the
grid's edge behind it has no squares there to be attacked from. On the 3x3 grid, from
the middle of an edge: an attack along the edge leaves two squares (A2 attacked from
A3: A1, B1), a diagonal attack from inside one (A2 from B3: A1), an attack from across
the grid none (A2 from C2). From a corner every attack comes from inside the corner's
quadrant, so its opposite is off the grid: never a blind spot.

>>> direction_of("B2", "B3"), direction_of("A1", "D2")
((<Direction.N: (0, 1)>,), (<Direction.E: (1, 0)>,))
>>> sorted(blind_spot("B2", Direction.N, 3, 3))
['A1', 'B1', 'C1']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Literal

from fracas.engine.cloning import shallow
from fracas.rules.heimr.battlefield import coordinates, square_name

__all__ = [
    "PENALTY",
    "AttackerChooses",
    "BlindSpots",
    "Direction",
    "Line",
    "blind_spot",
    "direction_of",
]

#: The defence consistency penalty against attacks from a blind spot (H-MOD-1).
PENALTY = 5

#: Which line an attack exactly between two lines is counted from: the attacker's choice.
Line = Literal["straight", "diagonal"]


class Direction(Enum):
    """One of the eight directions along a straight or diagonal line, as (columns, rows)."""

    N = (0, 1)
    NE = (1, 1)
    E = (1, 0)
    SE = (1, -1)
    S = (0, -1)
    SW = (-1, -1)
    W = (-1, 0)
    NW = (-1, 1)

    @property
    def straight(self) -> bool:
        """Up, down, left or right (as opposed to diagonal)."""
        dx, dy = self.value
        return dx == 0 or dy == 0

    @property
    def opposite(self) -> Direction:
        """
        >>> Direction.NE.opposite
        <Direction.SW: (-1, -1)>
        """
        dx, dy = self.value
        return Direction((-dx, -dy))


class AttackerChooses(ValueError):
    """An attack exactly as close to a straight line as to a diagonal one: the attacker
    picks which it is counted from (``prefer="straight"`` or ``"diagonal"``)."""

    def __init__(self, defender: str, attacker: str, candidates: tuple[Direction, ...]) -> None:
        self.candidates = candidates
        names = " or ".join(d.name for d in candidates)
        super().__init__(
            f"an attack from {attacker} on {defender} is as close to {names}: "
            "the attacker chooses (H-MOD-1)"
        )


def _offset(a: str, b: str) -> tuple[int, int]:
    (ac, ar), (bc, br) = coordinates(a), coordinates(b)
    return bc - ac, br - ar


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


@lru_cache(maxsize=4096)  # pure, and asked at every defended shot
def direction_of(defender: str, attacker: str, prefer: Line | None = None) -> tuple[Direction, ...]:
    """The direction an attack from ``attacker`` comes from: the closest straight or
    diagonal line, counted in squares (the squares off a straight line are the smaller
    of the offsets, off a diagonal their difference).

    One direction; ``()`` from the defender's own square; two candidates (straight
    first) when the attacker is as close to both, that is when one offset is twice the
    other, unless ``prefer`` names the attacker's choice.

    >>> direction_of("A1", "C4")  # 2 right, 3 up: 1 off the diagonal, 2 off straight
    (<Direction.NE: (1, 1)>,)
    >>> direction_of("B2", "D3")  # 2 right, 1 up: 1 off either line
    (<Direction.E: (1, 0)>, <Direction.NE: (1, 1)>)
    >>> direction_of("B2", "D3", prefer="diagonal")
    (<Direction.NE: (1, 1)>,)
    """
    dx, dy = _offset(defender, attacker)
    a, b = abs(dx), abs(dy)
    if a == b == 0:
        return ()
    straight = Direction((_sign(dx), 0) if a > b else (0, _sign(dy)))
    diagonal = Direction((_sign(dx), _sign(dy))) if a and b else straight
    off_straight, off_diagonal = min(a, b), abs(a - b)
    if off_straight < off_diagonal:
        return (straight,)
    if off_diagonal < off_straight:
        return (diagonal,)
    if prefer is None:
        return (straight, diagonal)
    return (straight,) if prefer == "straight" else (diagonal,)


def _within_45(direction: Direction, dx: int, dy: int) -> bool:
    """Whether the offset lies within 45 degrees of ``direction`` (edges included)."""
    ox, oy = direction.value
    dot = ox * dx + oy * dy
    return dot > 0 and 2 * dot * dot >= (ox * ox + oy * oy) * (dx * dx + dy * dy)


@lru_cache(maxsize=4096)  # pure, and asked at every defended shot
def blind_spot(defender: str, attack: Direction, columns: int, rows: int) -> frozenset[str]:
    """The squares of the blind spot an attack from ``attack`` leaves the defender: the
    90-degree sector opposite it, clipped to a ``columns`` x ``rows`` grid.

    >>> sorted(blind_spot("B2", Direction.NE, 3, 3))
    ['A1', 'A2', 'B1']
    >>> sorted(blind_spot("C3", Direction.N, 5, 5))  # larger grids: the sector widens
    ['A1', 'B1', 'B2', 'C1', 'C2', 'D1', 'D2', 'E1']
    """
    dc, dr = coordinates(defender)
    behind = attack.opposite
    return frozenset(
        square_name(c, r)
        for c in range(columns)
        for r in range(rows)
        if _within_45(behind, c - dc, r - dr)
    )


@dataclass
class BlindSpots:
    """One defender's blind spot on a ``columns`` x ``rows`` grid, until its next turn.

    Ask for the penalty before the attack is defended, then record the attack:

    >>> spots = BlindSpots(3, 3)
    >>> spots.penalty_for_ranged("B3"), sorted(spots.add_attack("B2", "B3"))
    (0, ['A1', 'B1', 'C1'])
    >>> spots.penalty_for_ranged("C1"), spots.penalty_for_melee(entered_from="B1")
    (5, 5)
    >>> spots.clear(); spots.penalty_for_ranged("C1")  # the defender's next turn
    0
    """

    columns: int
    rows: int
    squares: frozenset[str] = frozenset()

    def add_attack(
        self, defender: str, attacker: str, defended: bool = True, prefer: Line | None = None
    ) -> frozenset[str]:
        """Record a ranged attack from ``attacker`` on the defender in ``defender``;
        returns the squares it added to the blind spot.

        None are added when the attack was not defended (H-DEF-4), came from the
        defender's square, or came from inside the blind spot. :class:`AttackerChooses`
        when the attack is as close to two lines and ``prefer`` does not say which.
        """
        if not defended or attacker == defender or attacker in self.squares:
            return frozenset()
        directions = direction_of(defender, attacker, prefer)
        if len(directions) != 1:
            raise AttackerChooses(defender, attacker, directions)
        added = blind_spot(defender, directions[0], self.columns, self.rows) - self.squares
        self.squares |= added
        return added

    def penalty_for_ranged(self, attacker: str) -> int:
        """The defence consistency penalty against a ranged attack from ``attacker``."""
        return PENALTY if attacker in self.squares else 0

    def penalty_for_melee(self, entered_from: str | None) -> int:
        """The penalty against a melee attack by a character who entered the defender's
        square this turn from the bordering square ``entered_from`` (``None``: did not)."""
        return PENALTY if entered_from is not None and entered_from in self.squares else 0

    def clear(self) -> None:
        """The defender's next turn has begun: the blind spot is gone."""
        self.squares = frozenset()

    def clone(self) -> BlindSpots:
        return shallow(self)
