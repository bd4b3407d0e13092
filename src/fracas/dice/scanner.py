"""A small scanner shared by the notations, so every parse error points at its place.

Numbers are bounded where they are read: first their count of digits (so that no
huge string is ever converted), then their value (:data:`MAX_NUMBER`). Expressions
longer than :data:`MAX_TEXT` characters are refused before any reading.

>>> s = Scanner("C3 P2")
>>> s.letter("cC", "expected 'C'"), s.integer("expected a number")
('C', 3)
>>> s.letter("pP", "expected 'P'"), s.integer("expected a number"), s.at_end()
('P', 2, True)
>>> s = Scanner("pool+" + "9" * 500)
>>> s.accept("pool"), s.integer("expected a number")
Traceback (most recent call last):
...
fracas.dice.errors.NotationError: a number of 500 digits is too long (at most 7) at position 5 ...
"""

from __future__ import annotations

from fracas.dice.errors import NotationError

DIGITS = "0123456789"
#: Longest expression read, in characters.
MAX_TEXT = 1000
#: Most digits in one number, and the largest value a number may have.
MAX_DIGITS = 7
MAX_NUMBER = 1_000_000


def check_length(text: str) -> None:
    """Raise :class:`NotationError` if ``text`` is longer than :data:`MAX_TEXT`."""
    if len(text) > MAX_TEXT:
        raise NotationError(
            text,
            MAX_TEXT,
            f"an expression of {len(text):,} characters is beyond the limit of {MAX_TEXT:,}",
        )


class Scanner:
    """Reads a dice expression left to right, skipping spaces between tokens."""

    def __init__(self, text: str) -> None:
        check_length(text)
        self.text = text
        self.pos = 0

    def _skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        self._skip()
        return self.pos >= len(self.text)

    def peek(self, n: int = 1) -> str:
        self._skip()
        return self.text[self.pos : self.pos + n]

    def error(self, reason: str) -> NotationError:
        self._skip()
        return NotationError(self.text, self.pos, reason)

    def accept(self, *tokens: str) -> str | None:
        """Consume and return the first of ``tokens`` found here (case-insensitive)."""
        self._skip()
        for token in sorted(tokens, key=len, reverse=True):
            if self.text[self.pos : self.pos + len(token)].lower() == token.lower():
                self.pos += len(token)
                return token
        return None

    def letter(self, letters: str, reason: str) -> str:
        self._skip()
        if self.pos < len(self.text) and self.text[self.pos] in letters:
            self.pos += 1
            return self.text[self.pos - 1]
        raise self.error(reason)

    def integer(self, reason: str, signed: bool = True) -> int:
        """A whole number here, with an optional sign when ``signed``, of at most
        :data:`MAX_DIGITS` digits and :data:`MAX_NUMBER` in size."""
        self._skip()
        start = self.pos
        if signed and self.pos < len(self.text) and self.text[self.pos] in "+-":
            self.pos += 1
        digits = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in DIGITS:
            self.pos += 1
        count = self.pos - digits
        if count == 0:
            self.pos = start
            raise self.error(reason)
        if count > MAX_DIGITS:
            raise NotationError(
                self.text,
                start,
                f"a number of {count:,} digits is too long (at most {MAX_DIGITS})",
            )
        value = int(self.text[start : self.pos])
        if abs(value) > MAX_NUMBER:
            raise NotationError(
                self.text, start, f"the number {value:,} is beyond the limit of ±{MAX_NUMBER:,}"
            )
        return value

    def optional_integer(self) -> int | None:
        self._skip()
        if self.pos < len(self.text) and self.text[self.pos] in DIGITS:
            return self.integer("", signed=False)
        return None

    def end(self, reason: str = "unexpected text") -> None:
        if not self.at_end():
            raise self.error(reason)
