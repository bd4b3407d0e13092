"""The d20 roll of the Heimr Tabletop Rulebook (heimr-classic): d20 plus a modifier.

Standard notation applies; a bare modifier is short for a d20 roll (HC-CS-1, HC-AGI-1).

>>> ClassicRoll.parse("+5").notation(), ClassicRoll.parse("d20+5>=15").pmf()[1]
('d20+5', Fraction(11, 20))
"""

from __future__ import annotations

from typing import ClassVar

from fracas.dice.standard import StandardExpression


class ClassicRoll(StandardExpression):
    """A heimr-classic roll: ``d20+5``, ``+5`` or ``5`` (all the same), ``d20+3>=15``."""

    system: ClassVar[str] = "heimr-classic"

    @classmethod
    def parse(cls, text: str) -> ClassicRoll:
        stripped = text.strip()
        if stripped and "d" not in stripped.lower():
            text = "d20" + (stripped if stripped[0] in "+-" else "+" + stripped)
        expr = StandardExpression.parse(text)
        return cls(expr.terms, expr.constant, expr.comparison)
