"""A small scanner shared by the notations, so every parse error points at its place.

>>> s = Scanner("C3 P2")
>>> s.letter("cC", "expected 'C'"), s.integer("expected a number")
('C', 3)
>>> s.letter("pP", "expected 'P'"), s.integer("expected a number"), s.at_end()
('P', 2, True)
"""

from __future__ import annotations

from fracas.dice.errors import NotationError

DIGITS = "0123456789"


class Scanner:
    """Reads a dice expression left to right, skipping spaces between tokens."""

    def __init__(self, text: str) -> None:
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
        rest = self.text[self.pos :].lower()
        for token in sorted(tokens, key=len, reverse=True):
            if rest.startswith(token.lower()):
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
        """A whole number here, with an optional sign when ``signed``."""
        self._skip()
        start = self.pos
        if signed and self.pos < len(self.text) and self.text[self.pos] in "+-":
            self.pos += 1
        digits = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in DIGITS:
            self.pos += 1
        if self.pos == digits:
            self.pos = start
            raise self.error(reason)
        return int(self.text[start : self.pos])

    def optional_integer(self) -> int | None:
        self._skip()
        if self.pos < len(self.text) and self.text[self.pos] in DIGITS:
            return self.integer("", signed=False)
        return None

    def end(self, reason: str = "unexpected text") -> None:
        if not self.at_end():
            raise self.error(reason)
