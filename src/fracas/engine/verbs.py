"""A ruleset's verbs: what each action word does, its action type, its rule, its checks.

Rulesets register a function that applies each verb and, apart, the functions that
check actions before they apply; the engine asks the ruleset, which asks its table.

>>> verbs: Verbs[list[str], str] = Verbs()
>>> @verbs.verb("wave", "free", "X-1", "wave a hand")
... def wave(state, action, dice, events):
...     state.append(action.actor)
>>> @verbs.checks("wave")
... def check_wave(state, action):
...     if action.actor == "nobody":
...         raise IllegalAction("X-1", "nobody cannot wave")
>>> verbs["wave"].kind, "wave" in verbs, sorted(verbs)
('free', True, ['wave'])
>>> verbs.find(Action.parse("ylva dance"), "X-2")
Traceback (most recent call last):
...
fracas.engine.errors.IllegalAction: unknown action 'dance': known are wave (X-2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from mypy_extensions import mypyc_attr

from fracas.engine.actions import Action
from fracas.engine.dicesource import DiceSource
from fracas.engine.errors import IllegalAction
from fracas.engine.events import Event

S = TypeVar("S")
K = TypeVar("K")
Apply = Callable[[S, Action, DiceSource, list[Event]], None]
Check = Callable[[S, Action], None]


@mypyc_attr(native_class=False)  # mypyc: a frozen generic dataclass fails to build
@dataclass(frozen=True)
class Verb(Generic[S, K]):
    """One verb: its action type (``kind``, the ruleset's own word), rule and function."""

    name: str
    kind: K
    rule: str
    summary: str
    apply: Callable[[S, Action, DiceSource, list[Event]], None]
    flags: frozenset[str] = field(default_factory=frozenset)

    def has(self, flag: str) -> bool:
        return flag in self.flags


class Verbs(Generic[S, K]):
    """The verbs of one ruleset, and the checks of each."""

    def __init__(self) -> None:
        self._verbs: dict[str, Verb[S, K]] = {}
        self._checks: dict[str, Callable[[S, Action], None]] = {}

    def verb(
        self, name: str, kind: K, rule: str, summary: str, *flags: str
    ) -> Callable[[Apply[S]], Apply[S]]:
        """Register the decorated function as what ``name`` does."""

        def register(apply: Apply[S]) -> Apply[S]:
            self._verbs[name] = Verb(name, kind, rule, summary, apply, frozenset(flags))
            return apply

        return register

    def checks(self, *names: str) -> Callable[[Check[S]], Check[S]]:
        """Register the decorated function as the check of the verbs ``names``."""

        def register(check: Check[S]) -> Check[S]:
            for name in names:
                self._checks[name] = check
            return check

        return register

    def check(self, state: S, action: Action) -> None:
        """Run the check registered for ``action``'s verb, if any."""
        found = self._checks.get(action.verb)
        if found is not None:
            found(state, action)

    def has_check(self, name: str) -> bool:
        return name in self._checks

    def find(self, action: Action, rule: str) -> Verb[S, K]:
        """The verb of ``action``, or :class:`IllegalAction` listing the known ones."""
        found = self._verbs.get(action.verb)
        if found is None:
            raise self.unknown(action, rule)
        return found

    def unknown(self, action: Action, rule: str) -> IllegalAction:
        """The error for an action whose verb is not in the table."""
        known = ", ".join(sorted(self._verbs))
        return IllegalAction(rule, f"unknown action {action.verb!r}: known are {known}")

    def get(self, name: str) -> Verb[S, K] | None:
        return self._verbs.get(name)

    def __getitem__(self, name: str) -> Verb[S, K]:
        return self._verbs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._verbs

    def __iter__(self) -> Iterator[str]:
        return iter(self._verbs)

    def __len__(self) -> int:
        return len(self._verbs)

    def items(self) -> Iterator[tuple[str, Verb[S, K]]]:
        return iter(self._verbs.items())


T = TypeVar("T")


def named(table: Mapping[str, T], name: str | None, rule: str, noun: str = "combatant") -> T:
    """The entry an action names, or :class:`IllegalAction` listing who there is.

    >>> named({"ylva": 1}, "brannoc", "X-1")
    Traceback (most recent call last):
    ...
    fracas.engine.errors.IllegalAction: no combatant called 'brannoc' (there are ylva) (X-1)
    """
    if name is None or name not in table:
        raise IllegalAction(rule, f"no {noun} called {name!r} (there are {', '.join(table)})")
    return table[name]


__all__ = ["Verb", "Verbs", "named"]
