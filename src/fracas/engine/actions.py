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

#: The longest action read. shlex's tokenizer grows worse than linearly with the length
#: of a line (100,000 characters: 65 ms); at this bound it takes well under a millisecond.
MAX_ACTION_CHARS = 1000


def excerpt(text: str, width: int = 60, *, quoted: bool = True) -> str:
    """``text`` for a message on one line, cut short past ``width`` characters; unquoted,
    its runs of white space become one space.

    >>> excerpt("ylva attack astrid")
    "'ylva attack astrid'"
    >>> excerpt("ylva speak text=" + "a" * 100, 24)
    "'ylva speak text=aaaaaaaa'... (116 characters)"
    >>> excerpt("ylva\\nattack", quoted=False)
    'ylva attack'
    """
    if not quoted:
        text = " ".join(text.split())
    shown = repr(text[:width]) if quoted else text[:width]
    return shown if len(text) <= width else f"{shown}... ({len(text)} characters)"


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


@dataclass(frozen=True, order=True, init=False)
class Action:
    """Who does what, to whom, with which options."""

    actor: str
    verb: str
    target: str | None = None
    options: tuple[tuple[str, str], ...] = field(default=())

    def __init__(
        self,
        actor: str,
        verb: str,
        target: str | None = None,
        options: tuple[tuple[str, str], ...] = (),
    ) -> None:
        # Set through object.__setattr__, as a frozen dataclass's own init does, but
        # without its checks (the rules make thousands a fight; compiled, each is a store).
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "options", options)

    def __reduce__(
        self,
    ) -> tuple[type[Action], tuple[str, str, str | None, tuple[tuple[str, str], ...]]]:
        # Made again by its constructor (compiled, the default sets frozen fields).
        return Action, (self.actor, self.verb, self.target, self.options)

    @classmethod
    def of(cls, actor: str, verb: str, target: str | None = None, **options: object) -> Action:
        """Build an action in code; options with the value ``None`` are left out."""
        opts = tuple(sorted((k, str(v)) for k, v in options.items() if v is not None))
        return cls(actor, verb, target, opts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one action; :class:`NotationError` says what is wrong, on one line.

        >>> try:
        ...     Action.parse("ylva speak text=" + "a" * 2000)
        ... except NotationError as err:
        ...     print(err)  # doctest: +ELLIPSIS
        cannot read 'ylva speak...(2016 characters): an action is at most 1000 characters
        """
        if len(text) > MAX_ACTION_CHARS:
            raise NotationError(
                f"cannot read {excerpt(text)}: an action is at most {MAX_ACTION_CHARS} characters"
            )
        try:
            split = words(text)
        except ValueError as err:
            raise NotationError(f"cannot read {excerpt(text)}: {err}") from None
        if len(split) < 2:
            raise NotationError(
                f"cannot read {excerpt(text)}: an action is "
                "'<actor> <verb> [target] [key=value ...]'"
            )
        actor, verb, *rest = split
        target: str | None = None
        options: list[tuple[str, str]] = []
        for i, word in enumerate(rest):
            if "=" in word:
                key, _, value = word.partition("=")
                if not key:
                    raise NotationError(
                        f"cannot read {excerpt(text)}: option {excerpt(word, 30)} has no name"
                    )
                options.append((key, value))
            elif i == 0:
                target = word
            else:
                raise NotationError(
                    f"cannot read {excerpt(text)}: {excerpt(word, 30)} is a second target; "
                    "options are key=value"
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
