"""Actions: small value types that round-trip through a short text notation.

Scripts, logs and play-by-post declarations share the notation::

    ylva attack brannoc part=torso
    gm begin
    brannoc defend parry

The first word is the actor, the second the verb, then an optional target and
``key=value`` options. Words with spaces are quoted.

>>> a = Action.parse("ylva attack brannoc part='sword arm'")
>>> a.actor, a.verb, a.target, a.option("part")
('ylva', 'attack', 'brannoc', 'sword arm')
>>> Action.parse(str(a)) == a
True
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from fracas.engine.errors import NotationError

#: Characters shlex reads apart (quotes, escapes, comments) or that ``str.split`` alone
#: takes for white space: without any of them, an ASCII text splits the same both ways.
_SHELL = frozenset("'\"\\#\x0b\x0c\x1c\x1d\x1e\x1f")


def words(text: str) -> list[str]:
    """``text`` split into words as a shell would (``shlex``, ``#`` starting a comment);
    plain ASCII text is split without shlex's cost.

    >>> words("ylva attack brannoc part='sword arm'  # aimed")
    ['ylva', 'attack', 'brannoc', 'part=sword arm']
    """
    if text.isascii() and _SHELL.isdisjoint(text):
        return text.split()
    return shlex.split(text, comments=True)


@dataclass(frozen=True, order=True)
class Action:
    """Who does what, to whom, with which options."""

    actor: str
    verb: str
    target: str | None = None
    options: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def of(cls, actor: str, verb: str, target: str | None = None, **options: object) -> Action:
        """Build an action in code; options with the value ``None`` are left out."""
        opts = tuple(sorted((k, str(v)) for k, v in options.items() if v is not None))
        return cls(actor, verb, target, opts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one action; :class:`NotationError` says what is wrong."""
        try:
            split = words(text)
        except ValueError as err:
            raise NotationError(f"cannot read {text!r}: {err}") from None
        if len(split) < 2:
            raise NotationError(
                f"cannot read {text!r}: an action is '<actor> <verb> [target] [key=value ...]'"
            )
        actor, verb, *rest = split
        target: str | None = None
        options: list[tuple[str, str]] = []
        for i, word in enumerate(rest):
            if "=" in word:
                key, _, value = word.partition("=")
                if not key:
                    raise NotationError(f"cannot read {text!r}: option {word!r} has no name")
                options.append((key, value))
            elif i == 0:
                target = word
            else:
                raise NotationError(
                    f"cannot read {text!r}: {word!r} is a second target; options are key=value"
                )
        return cls(actor, verb, target, tuple(sorted(options)))

    def option(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.options:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        words = [self.actor, self.verb]
        if self.target is not None:
            words.append(self.target)
        words += [f"{k}={v}" for k, v in self.options]
        return " ".join(shlex.quote(w) for w in words)
