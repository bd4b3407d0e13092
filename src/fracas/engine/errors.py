"""The engine's own errors. Each is a ``ValueError`` with a message for people."""

from __future__ import annotations


class EngineError(ValueError):
    """Something the engine refuses; nothing already played is lost."""


class IllegalAction(EngineError):
    """An action the rules do not allow now, with the rule that forbids it.

    >>> print(IllegalAction("H-ACT-1", "ylva has already used her standard action this turn"))
    ylva has already used her standard action this turn (H-ACT-1)
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{reason} ({rule})")


class NotationError(EngineError):
    """An action's text that cannot be read."""


class SaveError(EngineError):
    """A save file that cannot be loaded: wrong format, version or a log that does not replay."""
