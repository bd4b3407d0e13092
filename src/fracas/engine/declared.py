"""Rounds declared first and resolved at once: play by post, and phased systems.

Every participant declares what it will do this round, with alternatives; when the
round closes, the ruleset resolves the declarations in its order (initiative, phase).
A declaration whose target is gone falls back to its first alternative whose target is
still there, and failing that to a random other target (HC-ROUND-2). The random pick
is rolled through the encounter's dice source, so it replays.

A ruleset keeps a :class:`DeclaredRound` in its state and calls :func:`resolve`.

>>> r = DeclaredRound()
>>> r.declare(Declaration(Action.parse("ylva attack orc1"), (Action.parse("ylva attack orc2"),)))
>>> [str(d.action) for d in r.of("ylva")]
['ylva attack orc1']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from fracas.dice import StandardExpression
from fracas.dice.standard import DiceTerm
from fracas.engine.actions import Action
from fracas.engine.dicesource import DiceSource
from fracas.engine.errors import IllegalAction
from fracas.engine.events import Event


@dataclass(frozen=True)
class Declaration:
    """What one participant will do, and what instead if its target is gone."""

    action: Action
    alternatives: tuple[Action, ...] = ()

    @property
    def actor(self) -> str:
        return self.action.actor


@dataclass
class DeclaredRound:
    """The declarations of one round, in the order they were made."""

    declarations: list[Declaration] = field(default_factory=list)
    open: bool = True

    def clone(self) -> DeclaredRound:
        return DeclaredRound(list(self.declarations), self.open)

    def declare(self, declaration: Declaration) -> None:
        if not self.open:
            raise IllegalAction("HC-ROUND-1", "the round is closed: wait for the next one")
        self.declarations.append(declaration)

    def retract(self, actor: str) -> int:
        """Take back everything ``actor`` declared; returns how many."""
        before = len(self.declarations)
        self.declarations = [d for d in self.declarations if d.actor != actor]
        return before - len(self.declarations)

    def of(self, actor: str) -> list[Declaration]:
        return [d for d in self.declarations if d.actor == actor]

    def actors(self) -> list[str]:
        return list(dict.fromkeys(d.actor for d in self.declarations))


def choose(
    declaration: Declaration,
    present: Callable[[str], bool],
    others: Callable[[Action], list[str]],
    dice: DiceSource,
    events: list[Event],
) -> Action | None:
    """The action to carry out: as declared, an alternative, or a random other target.

    ``present(target)`` says whether a target is still there; ``others(action)`` lists
    the targets the action could turn to instead. ``None`` when nobody is left.
    """
    action = declaration.action
    if action.target is None or present(action.target):
        return action
    for alternative in declaration.alternatives:
        if alternative.target is None or present(alternative.target):
            events.append(
                Event(
                    "declaration",
                    f"{action.target} is gone: {action.actor} does the alternative, {alternative}",
                    {"actor": action.actor, "action": str(alternative)},
                )
            )
            return alternative
    candidates = [t for t in others(action) if present(t)]
    if not candidates:
        events.append(
            Event(
                "declaration",
                f"{action.target} is gone and no other target is "
                f"left: {action.actor}'s {action.verb} comes to nothing",
                {"actor": action.actor},
            )
        )
        return None
    if len(candidates) == 1:
        pick = candidates[0]
    else:
        roll = dice.roll(
            StandardExpression((DiceTerm(1, len(candidates)),)),
            f"a random other target for {action.actor}",
        )
        pick = candidates[roll.result - 1]
    retargeted = Action(action.actor, action.verb, pick, action.options)
    events.append(
        Event(
            "declaration",
            f"{action.target} is gone: {action.actor} turns on {pick} at random",
            {"actor": action.actor, "action": str(retargeted)},
        )
    )
    return retargeted


def in_order(round_: DeclaredRound, order: Iterable[str]) -> list[Declaration]:
    """The declarations sorted by ``order`` (actors not in it last, as declared)."""
    rank = {actor: i for i, actor in enumerate(order)}
    return sorted(round_.declarations, key=lambda d: rank.get(d.actor, len(rank)))
