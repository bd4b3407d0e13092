"""What the default policies of every ruleset share: looking up actions among the legal
ones, distances on a map of places, and the game master's whitelist.

A policy sees a view and a list of legal actions; these helpers read only those.

>>> legal = [Action.parse(t) for t in ("ylva end", "ylva attack astrid", "ylva move C2")]
>>> str(first(legal, "charge", "attack"))
'ylva attack astrid'
>>> sorted(distances({"A": ["B"], "B": ["A", "C"], "C": ["B"]}, ["C"]).items())
[('A', 2), ('B', 1), ('C', 0)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy
from mypy_extensions import mypyc_attr

from fracas.engine import Action
from fracas.engine.legal import actor_of, first_of, verb_of


def first(legal: Sequence[Action], *verbs: str) -> Action | None:
    """The first legal action with the first of ``verbs`` that has one."""
    for verb in verbs:
        found = first_of(legal, verb)
        if found is not None:
            return found
    return None


def acting(
    view: Mapping[str, Any], legal: Sequence[Action]
) -> tuple[str, Mapping[str, Mapping[str, Any]]]:
    """Who acts (without listing every legal action) and everyone the view shows;
    ``ValueError`` when there is nothing legal to choose from."""
    if not legal:
        raise ValueError("no legal action to choose from")
    return actor_of(legal), combatants(view)


@mypyc_attr(allow_interpreted_subclasses=True)
class Tactical:
    """The opening every ruleset's default policy shares: its name, the ruleset it was
    made for, and who acts with what its side sees of it (:meth:`acting`)."""

    name = "default"

    def __init__(self, ruleset_id: str | None = None) -> None:
        self.ruleset_id = ruleset_id

    @staticmethod
    def acting(
        view: Mapping[str, Any], legal: Sequence[Action]
    ) -> tuple[str, Mapping[str, Any], Mapping[str, Mapping[str, Any]]]:
        """Who acts, what the view shows of it, and everyone the view shows."""
        actor, people = acting(view, legal)
        return actor, people.get(actor, {}), people


def with_verb(legal: Sequence[Action], verb: str) -> list[Action]:
    return verb_of(legal, verb)


def find(
    legal: Sequence[Action], verb: str, target: str | None = None, **options: str
) -> Action | None:
    """The legal action ``verb target`` with exactly ``options``, if there is one."""
    wanted = tuple(sorted(options.items()))
    for action in verb_of(legal, verb):
        if action.target == target and action.options == wanted:
            return action
    return None


def distances(graph: Mapping[str, Iterable[str]], starts: Iterable[str]) -> dict[str, int]:
    """Steps from the nearest of ``starts`` to every place reachable in ``graph``."""
    found: dict[str, int] = {}
    queue: deque[str] = deque()
    for start in starts:
        if start not in found:
            found[start] = 0
            queue.append(start)
    while queue:
        here = queue.popleft()
        for there in graph.get(here, ()):
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


#: Scores this close to the best tie with it (sums of float chances may differ in
#: their last bits).
TIE = 1e-12


def best(
    actions: Sequence[Action], score: Callable[[Action], float], rng: numpy.random.Generator
) -> Action | None:
    """The action of highest ``score``; ties are broken by ``rng`` so that no side is
    favoured by the order in which the ruleset lists its actions."""
    if not actions:
        return None
    scores = [score(a) for a in actions]
    top = max(scores)
    tied = [a for a, s in zip(actions, scores, strict=True) if s >= top - TIE]
    if len(tied) == 1:
        return tied[0]
    return tied[int(rng.integers(len(tied)))]


def combatants(view: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
    found: Mapping[str, Mapping[str, Any]] = view["state"]["combatants"]
    return found


def undirected(graph: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """A map of places with every border both ways (a file may name a border once)."""
    both: dict[str, set[str]] = {place: set() for place in graph}
    for place, others in graph.items():
        for other in others:
            both[place].add(other)
            both.setdefault(other, set()).add(place)
    return both


@mypyc_attr(allow_interpreted_subclasses=True)
class GameMaster:
    """The game master's part in a simulation: only what the fight needs to go on.

    ``verbs`` are the game master's verbs that keep a fight going, in order of
    preference; awards, effects, healing and the like are never chosen.
    """

    name = "gm"
    verbs: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ruleset_id: str | None = None) -> None:
        self.ruleset_id = ruleset_id

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        found = first(legal, *self.verbs)
        if found is not None and found.target is None and not found.options:
            return found
        for verb in self.verbs:
            plain = find(legal, verb)
            if plain is not None:
                return plain
        if found is not None:
            return found
        return legal[0]
