"""Baseline policies: random, attack-nearest, focus-weakest, defensive and scripted.

They work in every ruleset from the view of their side and the legal actions. The
rulesets name their verbs differently (``attack``, ``strike``, ``shoot``,
``melee-attack``...), so each ruleset sorts its words into a
:class:`~fracas.engine.capabilities.Vocabulary` (its ``policies`` capability):
what strikes a foe, what closes in, what defends, what ends a turn or a post.

>>> from fracas.engine import Action
>>> legal = [Action.parse(t) for t in ("ylva end", "ylva attack astrid", "ylva move B3")]
>>> view = {"side": "shieldwall", "state": {"combatants": {
...     "ylva": {"side": "shieldwall", "square": "B2"},
...     "astrid": {"side": "raiders", "square": "B2"}}}}
>>> str(AttackNearest("heimr").choose(view, legal, numpy.random.default_rng(0)))
'ylva attack astrid'
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import numpy

from fracas.engine import Action, EngineError, NotationError
from fracas.engine.capabilities import Vocabulary, policies
from fracas.rules import find


def vocabulary(ruleset_id: str) -> Vocabulary:
    """The ruleset's verbs as its ``policies`` capability sorts them (the plain words
    ``attack``, ``move``, ``end``… when it has none)."""
    return _vocabulary(ruleset_id)


@cache
def _vocabulary(ruleset_id: str) -> Vocabulary:
    try:
        return policies(find(ruleset_id)).vocabulary
    except EngineError as err:
        raise ValueError(str(err)) from None


# -- reading a view --------------------------------------------------------------------


def combatants(view: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
    found: Mapping[str, Mapping[str, Any]] = view.get("state", {}).get("combatants", {})
    return found


def _down(seen: Mapping[str, Any]) -> bool:
    return bool(seen.get("dead") or seen.get("unconscious") or seen.get("down"))


def side_of(view: Mapping[str, Any], actor: str) -> str | None:
    """The side ``actor`` fights on: its own, or the actor itself when it is a side."""
    seen = combatants(view).get(actor)
    return str(seen["side"]) if seen is not None else actor


def foes(view: Mapping[str, Any], actor: str) -> list[str]:
    """The combatants not on ``actor``'s side that are still standing, as seen."""
    side = side_of(view, actor)
    return [cid for cid, c in combatants(view).items() if c.get("side") != side and not _down(c)]


_SQUARE = re.compile(r"^([A-Z]+)(\d+)$")


def _grid(square: str) -> tuple[int, int] | None:
    m = _SQUARE.match(square)
    if m is None:
        return None
    column = 0
    for letter in m.group(1):
        column = column * 26 + ord(letter) - ord("A") + 1
    return column, int(m.group(2))


def _graph_steps(graph: Mapping[str, Iterable[str]], a: str, b: str) -> int | None:
    seen, queue = {a: 0}, deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for there in graph.get(here, ()):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return None


def place_of(view: Mapping[str, Any], cid: str) -> Any:
    seen = combatants(view).get(cid, {})
    return seen.get("position", seen.get("square"))


def distance(view: Mapping[str, Any], a: Any, b: Any) -> float:
    """How far apart two places are as the view shows them (unknown: far; a ruleset
    without places, such as tempo, has everyone at hand)."""
    if a is None and b is None:
        return 0.0
    if a is None or b is None:
        return 1e9
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b))
    a, b = str(a), str(b)
    if a == b:
        return 0.0
    state = view.get("state", {})
    for key in ("regions", "positions"):
        if key in state:
            steps = _graph_steps(state[key], a, b)
            return 1e9 if steps is None else float(steps)
    locations = state.get("battlefield", {}).get("locations") or {}
    if a in locations:
        steps = _graph_steps(locations, a, b)
        return 1e9 if steps is None else float(steps)
    ga, gb = _grid(a), _grid(b)
    if ga is None or gb is None:
        return 1e9
    return float(abs(ga[0] - gb[0]) + abs(ga[1] - gb[1]))


def damage_seen(view: Mapping[str, Any]) -> dict[str, float]:
    """Damage each combatant has taken in the log events this side saw."""
    taken: dict[str, float] = {}
    for entry in view.get("log", ()):
        for event in entry:
            if event.get("kind") != "damage":
                continue
            data = event.get("data", {})
            victim = data.get("target", data.get("who"))
            amount = next(
                (data[k] for k in ("amount", "damage", "dealt") if isinstance(data.get(k), int)),
                0,
            )
            if isinstance(victim, str):
                taken[victim] = taken.get(victim, 0.0) + amount
    return taken


def weakness(view: Mapping[str, Any], cid: str, taken: Mapping[str, float]) -> float:
    """Lower is weaker: hit points where the view shows them, else signs of harm."""
    seen = combatants(view).get(cid, {})
    if isinstance(seen.get("hp"), int):
        return float(seen["hp"])
    signs = len(seen.get("injuries") or ()) + len(seen.get("effects") or ())
    if seen.get("injury"):
        signs += 1
    return -(taken.get(cid, 0.0) + signs)


# -- the policies ----------------------------------------------------------------------


class Baseline:
    """What the baselines share: the ruleset's words and the actions sorted by them."""

    name = "baseline"

    def __init__(self, ruleset_id: str) -> None:
        self.ruleset_id = ruleset_id
        self.words = vocabulary(ruleset_id)

    def allowed(self, legal: Sequence[Action]) -> list[Action]:
        never = self.words.never
        if not never:
            return list(legal)
        kept = [a for a in legal if not any(o in never for o in a.options)]
        return kept or list(legal)

    def rest(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The resting action (a Heimr breather) when the actor is tired by its own view."""
        if self.words.tired is None:
            return None
        field, limit = self.words.tired
        seen = combatants(view).get(legal[0].actor, {})
        if not isinstance(seen.get(field), int) or seen[field] < limit:
            return None
        rests = [a for a in legal if a.verb == self.words.recover and not a.options]
        return rests[0] if rests else None

    def of(self, legal: Sequence[Action], verbs: Sequence[str]) -> list[Action]:
        """The actions whose verb (or verb and target) is one of ``verbs``, in their order."""
        rank = {v: i for i, v in enumerate(verbs)}

        def key(a: Action) -> int | None:
            return rank.get(f"{a.verb} {a.target}", rank.get(a.verb))

        found = [(k, a) for a in legal if (k := key(a)) is not None]
        return [a for _, a in sorted(found, key=lambda ka: ka[0])]

    def gm(self, legal: Sequence[Action]) -> Action | None:
        if legal and legal[0].actor == "gm":
            begin = self.of(legal, self.words.begin)
            return begin[0] if begin else legal[0]
        return None

    def approach(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The move that brings the actor closest to its nearest foe, if it gets closer."""
        actor = legal[0].actor
        targets = [place_of(view, f) for f in foes(view, actor)]
        if not targets:
            return None
        here = place_of(view, actor)
        now = min(distance(view, here, t) for t in targets)
        if now == 0:
            return None
        best: tuple[float, Action] | None = None
        for action in self.of(legal, self.words.approach):
            if self.words.approach_foe:
                after = now - 1 if action.target in foes(view, actor) else now
            else:
                after = min(distance(view, action.target, t) for t in targets)
            if after < now and (best is None or after < best[0]):
                best = (after, action)
        return None if best is None else best[1]

    def finish(self, legal: Sequence[Action], rng: numpy.random.Generator) -> Action:
        ends = self.of(legal, self.words.finish)
        if ends:
            return ends[0]
        return legal[int(rng.integers(len(legal)))]


class RandomPolicy(Baseline):
    """Any legal action, each as likely (the game master's calls still move on)."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        gm = self.gm(legal)
        if gm is not None:
            return gm
        return legal[int(rng.integers(len(legal)))]


class AttackNearest(Baseline):
    """Attack the nearest foe in reach; else close in on it; else end the turn. Rest
    first when tired (Heimr: a breather at fatigue 7, where rolls start to fail)."""

    name = "attack-nearest"

    def order(self, view: Mapping[str, Any], actor: str, attacks: list[Action]) -> list[Action]:
        here = place_of(view, actor)
        rank = {v: i for i, v in enumerate(self.words.attacks)}
        return sorted(
            attacks,
            key=lambda a: (distance(view, here, place_of(view, a.target or "")), rank[a.verb]),
        )

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        gm = self.gm(legal)
        if gm is not None:
            return gm
        legal = self.allowed(legal)
        actor = legal[0].actor
        rest = self.rest(view, legal)
        if rest is not None:
            return rest
        attacks = self.of(legal, self.words.attacks)
        if attacks:
            return self.order(view, actor, attacks)[0]
        move = self.approach(view, legal)
        if move is not None:
            return move
        return self.finish(legal, rng)


class FocusWeakest(AttackNearest):
    """Attack the foe that looks worst off (hit points where shown, else the damage
    and harm its side has seen); nearest first among equals."""

    name = "focus-weakest"

    def order(self, view: Mapping[str, Any], actor: str, attacks: list[Action]) -> list[Action]:
        nearest = super().order(view, actor, attacks)
        taken = damage_seen(view)
        return sorted(nearest, key=lambda a: weakness(view, a.target or "", taken))


class Defensive(AttackNearest):
    """Hold the ground: defend first each turn, strike only foes already in reach,
    never move toward one."""

    name = "defensive"

    def __init__(self, ruleset_id: str) -> None:
        super().__init__(ruleset_id)
        self.defended: set[tuple[str, int]] = set()

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        gm = self.gm(legal)
        if gm is not None:
            return gm
        legal = self.allowed(legal)
        actor = legal[0].actor
        rest = self.rest(view, legal)
        if rest is not None:
            return rest
        turn = (actor, int(view.get("state", {}).get("round") or 0))
        defences = self.of(legal, self.words.defences)
        if defences and turn not in self.defended:
            self.defended.add(turn)
            return defences[0]
        here = place_of(view, actor)
        attacks = [
            a
            for a in self.of(legal, self.words.attacks)
            if distance(view, here, place_of(view, a.target or "")) == 0
        ]
        if attacks:
            return self.order(view, actor, attacks)[0]
        if defences and self.of(legal, self.words.finish) == []:
            return defences[0]
        return self.finish(legal, rng)


class Scripted(Baseline):
    """Plays the given actions in order while they are legal, then falls back.

    An action for another actor waits its turn; one for the actor to move that is no
    longer legal is dropped.
    """

    name = "scripted"

    def __init__(
        self, ruleset_id: str, actions: Iterable[str | Action], fallback: str = "attack-nearest"
    ) -> None:
        super().__init__(ruleset_id)
        try:
            self.script = deque(a if isinstance(a, Action) else Action.parse(a) for a in actions)
        except NotationError as err:
            raise ValueError(f"scripted policy: {err}") from None
        from fracas.lab.policies import policy

        self.fallback = policy(fallback, ruleset_id)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        actor = legal[0].actor if legal else None
        while self.script and self.script[0].actor == actor:
            planned = self.script.popleft()
            if planned in legal:
                return planned
        return self.fallback.choose(view, legal, rng)


class ProceedingGm(Baseline):
    """The game master who only moves the encounter on: begins it, opens and closes
    rounds, calls the next phase; otherwise the first legal action."""

    name = "proceeding-gm"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        begin = self.of(legal, self.words.begin)
        return begin[0] if begin else legal[0]


__all__ = [
    "AttackNearest",
    "Defensive",
    "FocusWeakest",
    "ProceedingGm",
    "RandomPolicy",
    "Scripted",
    "Vocabulary",
    "distance",
    "vocabulary",
]
