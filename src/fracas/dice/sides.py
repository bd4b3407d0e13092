"""The 2d6 roll-under of the side-initiative rules (S-ATK-1).

Roll 2d6 at or under the attack attribute minus the difficulty plus any circumstance
bonus. Notation: the numbers to add up (``9-1+1``), or standard dice notation.

>>> RollUnder.parse("9-1").notation()
'2d6<=8'
>>> RollUnder.parse("9").pmf()[1]
Fraction(5, 6)
"""

from __future__ import annotations

from typing import ClassVar

from fracas.dice.scanner import Scanner
from fracas.dice.standard import DiceTerm, StandardExpression


class RollUnder(StandardExpression):
    """2d6 at or under a target; the result is 1 for success, 0 for failure."""

    system: ClassVar[str] = "sides"

    @classmethod
    def target(cls, number: int) -> RollUnder:
        """2d6 at or under ``number``."""
        return cls((DiceTerm(2, 6),), 0, ("<=", number))

    @classmethod
    def parse(cls, text: str) -> RollUnder:
        if "d" in text.lower():
            expr = StandardExpression.parse(text)
            return cls(expr.terms, expr.constant, expr.comparison)
        s = Scanner(text)
        if s.at_end():
            raise s.error("empty expression: expected the number to roll under, such as '9'")
        number = 0
        while not s.at_end():
            number += s.integer("expected the attribute, difficulty and bonus as whole numbers")
        return cls.target(number)
