"""Errors for people: each says what is wrong and where, on one line.

All are ``ValueError`` subclasses, so callers that only care that the input was
bad can catch one type.
"""

from __future__ import annotations

#: Longest stretch of an expression quoted in a message; longer ones are cut around the place.
QUOTE_WIDTH = 40


class DiceError(ValueError):
    """Bad dice input: an expression, a list of faces or a request beyond a limit."""


def quote(text: str, position: int = 0, width: int = QUOTE_WIDTH) -> str:
    """``text`` quoted on one line (newlines escaped), cut to ``width`` around ``position``.

    >>> quote("C3P2")
    "'C3P2'"
    >>> quote("d6+" * 30, position=45, width=12)
    "…'d6+d6+d6+d6+'…"
    """
    start = max(0, min(position - width // 2, len(text) - width))
    end = start + width
    shown = repr(text[start:end])
    return ("…" if start > 0 else "") + shown + ("…" if end < len(text) else "")


class NotationError(DiceError):
    """A malformed dice expression; the message points at the offending part.

    >>> err = NotationError("C3Q2", 2, "expected 'P' and the potential")
    >>> print(err)
    expected 'P' and the potential at position 3 of 'C3Q2' (at 'Q2')
    >>> print(NotationError("C3P", 3, "expected the potential"))
    expected the potential at the end of 'C3P'
    """

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        if position < len(text):
            here = text[position : position + 10]
            where = f"at position {position + 1} of {quote(text, position)} (at {here!r})"
        else:
            where = f"at the end of {quote(text, position)}"
        super().__init__(f"{reason} {where}")


class FacesError(DiceError):
    """Faces that these dice cannot show, or the wrong number of them."""


class LimitError(DiceError):
    """A pool or a computation beyond the documented limits."""


class CostError(LimitError):
    """Exact odds whose estimated cost is past the limit; an estimate from rolls can answer."""
