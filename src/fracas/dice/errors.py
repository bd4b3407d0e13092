"""Errors for people: each says what is wrong and where.

All are ``ValueError`` subclasses, so callers that only care that the input was
bad can catch one type.
"""

from __future__ import annotations


class DiceError(ValueError):
    """Bad dice input: an expression, a list of faces or a request beyond a limit."""


class NotationError(DiceError):
    """A malformed dice expression; the message points at the offending part.

    >>> err = NotationError("C3Q2", 2, "expected 'P' and the potential")
    >>> print(err)
    expected 'P' and the potential at position 3 of 'C3Q2':
      C3Q2
        ^
    """

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        caret = " " * (position + 2) + "^"
        where = f"at position {position + 1}" if position < len(text) else "at the end"
        super().__init__(f"{reason} {where} of {text!r}:\n  {text}\n{caret}")


class FacesError(DiceError):
    """Faces that these dice cannot show, or the wrong number of them."""


class LimitError(DiceError):
    """A pool or a computation beyond the documented limits."""
