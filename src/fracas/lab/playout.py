"""One encounter played to its end by policies: :func:`play_out` and its :class:`Outcome`.

The policy of the acting character's side chooses from that side's view and the legal
actions; the game master's policy chooses the game master's calls. The encounter ends
by its rules or, failing that, at the action cap.

>>> from fracas.lab.policies import gm_policy, policy
>>> from fracas.engine import view, Encounter, RandomDice
>>> from fracas.table import encounterfile
>>> ruleset, setup, _ = encounterfile.load("examples/heimr/duel.yaml")
>>> rng = numpy.random.default_rng(1)
>>> sides = {s: policy("attack-nearest", "heimr") for s in ("shieldwall", "raiders")}
>>> outcome = play_out(Encounter(ruleset, setup, RandomDice(1)), sides, gm_policy("heimr"), rng)
>>> outcome.winner in ("shieldwall", "raiders"), outcome.capped
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, overload

import numpy

from fracas.engine import Encounter, Event
from fracas.engine.abcs import own_isinstance_cache
from fracas.engine.capabilities import Outcome, Policy, stats
from fracas.engine.collector import paused_alone
from fracas.engine.legal import Legal
from fracas.engine.views import SideView, check_side, side_entry

GM = "gm"


class LazyView(SideView):
    """:func:`fracas.engine.view` of one side, each part worked out when a policy reads
    it (:func:`fracas.engine.views.lazy_view`), so a policy is shown exactly what its
    side may see and pays only for what it looks at; its log is a :class:`SideLog`.

    For callers outside :func:`play_out` (which makes one :class:`SideLog` a side and a
    :class:`~fracas.engine.views.SideView` a choice itself): ``history`` is the log's
    events, entry by entry, when the encounter keeps none itself; ``built`` keeps the
    entries this side has read, from one view to the next (the log only grows), and is
    what tells a policy the log is the same one (:meth:`SideLog.position`); ``checked``:
    ``side`` is known to be one of the encounter's (else it is checked here)."""

    __slots__ = ()

    def __init__(
        self,
        encounter: Encounter[Any],
        side: str | None,
        history: Sequence[Sequence[Event]] | None = None,
        built: dict[int, list[dict[str, Any]]] | None = None,
        checked: bool = False,
    ) -> None:
        if not checked:
            check_side(encounter, side)
        # The log is given by a function holding no reference to this view: no reference
        # cycle, so a view is freed when its choice is made, not by the garbage collector.
        super().__init__(encounter, side, partial(_side_log, encounter, history, side, built))


own_isinstance_cache(LazyView)


def _side_log(
    encounter: Encounter[Any],
    history: Sequence[Sequence[Event]] | None,
    side: str | None,
    built: dict[int, list[dict[str, Any]]] | None,
) -> SideLog:
    """The log of :class:`LazyView`: ``history``, else the encounter's own."""
    if history is None:
        history = [entry.events for entry in encounter.log]
    return SideLog(history, side, built)


class SideLog(Sequence[list[dict[str, Any]]]):
    """The log as one side sees it, each entry built when it is read: a policy that
    looks back from the end for its last roll reads a few entries, not the whole fight.

    ``history`` is each entry's events; ``built`` may be shared by the side's views of
    one encounter, turn after turn, as long as its log only grows.
    """

    def __init__(
        self,
        history: Sequence[Sequence[Event]],
        side: str | None,
        built: dict[int, list[dict[str, Any]]] | None = None,
    ) -> None:
        self._history = history
        self._side = side
        self._built: dict[int, list[dict[str, Any]]] = {} if built is None else built

    def __len__(self) -> int:
        return len(self._history)

    @overload
    def __getitem__(self, index: int) -> list[dict[str, Any]]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[dict[str, Any]]]: ...

    def __getitem__(self, index: int | slice) -> list[dict[str, Any]] | list[list[dict[str, Any]]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._history)
        found = self._built.get(index)
        if found is None:
            found = self._built[index] = side_entry(self._history[index], self._side)
        return found

    def __reversed__(self) -> Iterator[list[dict[str, Any]]]:
        for index in range(len(self._history) - 1, -1, -1):
            yield self[index]

    def position(self) -> tuple[object, int]:
        """Where this log stands: a token for the log (the entries it keeps built, which
        the side's views of one log share) and its length. A policy that keeps what it
        read can tell by this whether the same log has grown since; the token shows it
        nothing (the events themselves are read through :meth:`events_back`)."""
        return self._built, len(self._history)

    def events_back(self, kinds: Collection[str] | None = None, since: int = 0) -> Iterator[Event]:
        """The events this side sees, last first, as :meth:`Event.for_side` gives them:
        what a policy reads in the entries, without building their JSON. With ``kinds``,
        only the events of those kinds (which what a side sees of an event keeps); with
        ``since``, only those of the entries from that index on."""
        side = self._side
        history = self._history
        for index in range(len(history) - 1, since - 1, -1):
            for event in reversed(history[index]):
                if kinds is not None and event.kind not in kinds:
                    continue
                seen = event.for_side(side)  # the one place that says what a side sees
                if seen is not None:
                    yield seen

    def __eq__(self, other: object) -> bool:
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]


own_isinstance_cache(SideLog)


def outcome_of(encounter: Encounter[Any], actions: int, capped: bool) -> Outcome:
    """The :class:`Outcome` of ``encounter`` as it stands, from the game master's view."""
    read = stats(encounter.ruleset)  # the ruleset's own reading, or the plain one
    state = encounter.ruleset.observe_lazily(encounter.state, None)
    people: Mapping[str, Mapping[str, Any]] = state.get("combatants", {})
    over = encounter.is_over()
    standing: set[str] = set()  # the sides of those standing, once it is over
    hp_left: dict[str, int] = {}
    injuries: dict[str, int] = {}
    for cid, c in people.items():  # everyone read in one pass
        if over and read.standing(c):
            standing.add(str(c["side"]))
        hp_left[cid] = int(c.get("hp", 0))
        injuries[cid] = read.injuries(c)
    return Outcome(
        winner=next(iter(standing)) if len(standing) == 1 else None,
        rounds=int(state.get("round") or 0),
        hp_left=hp_left,
        injuries=injuries,
        actions=actions,
        capped=capped,
    )


#: What :func:`play_out` keeps of one actor: its side, its policy, the verbs that policy
#: lists together and probes, and its side's log (as a view's ``log`` part gives it).
_Acting = tuple[
    "str | None", "Policy | None", frozenset[str], tuple[str, ...], Callable[[], "SideLog"]
]


def play_out(
    encounter: Encounter[Any],
    policies: Mapping[str, Policy],
    gm: Policy,
    rng: numpy.random.Generator,
    max_actions: int = 2000,
) -> Outcome:
    """Play ``encounter`` on (changing it) with a policy per side until it is over, no one
    is waited for, or ``max_actions`` actions have been pushed. A playout encounter keeps
    no log: the events pushed here are kept for the policies' views instead.

    In a process with no other thread (a simulation's worker process, a command) the
    cyclic garbage collector is paused while it plays (:func:`paused_alone`): a playout
    leaves no cycles (its views refer to nothing that refers back to them), so the
    passes its allocations would trigger find nothing to free (5-9% of a fight's time
    on Heimr's examples); whatever a ruleset might leave is collected after."""
    with paused_alone():
        actions = _played(encounter, policies, gm, rng, max_actions)
    capped = not encounter.is_over() and actions >= max_actions
    return outcome_of(encounter, actions, capped)


def _played(
    encounter: Encounter[Any],
    policies: Mapping[str, Policy],
    gm: Policy,
    rng: numpy.random.Generator,
    max_actions: int,
) -> int:
    """:func:`play_out`'s play: how many actions were pushed."""
    actions = 0
    ruleset = encounter.ruleset
    to_move = ruleset.to_move
    sides = {
        cid: str(c["side"])
        for cid, c in ruleset.observe_lazily(encounter.state, None)["combatants"].items()
    }
    history: list[Sequence[Event]] = [entry.events for entry in encounter.log]
    # Each side's log, read by its views turn after turn (it only grows).
    logs: dict[str | None, Callable[[], SideLog]] = {}
    # What each actor's turns share: its side, the side's policy and what that policy asks
    # of its legal actions, and its side's log.
    acting: dict[str, _Acting] = {}
    while actions < max_actions:
        actor = to_move(encounter.state)  # None once it is over (Ruleset.to_move)
        if actor is None:
            break
        found = acting.get(actor)
        if found is None:
            side = None if actor == GM else sides.get(actor, actor)
            chooser = gm if side is None else policies.get(side)
            log = logs.get(side)
            if log is None:
                log = logs[side] = _returning(SideLog(history, side))
            found = acting[actor] = (
                side,
                chooser,
                frozenset(getattr(chooser, "verbs_together", ())),
                tuple(getattr(chooser, "probes", ())),
                log,
            )
        side, chooser, together, probes, log = found
        legal = Legal(encounter, actor, together, probes)
        if not legal:
            break
        if actor not in sides and actor != GM:
            check_side(encounter, side)  # the side of a combatant is one of its sides
        if chooser is None:
            known = ", ".join(sorted(policies))
            raise ValueError(f"no policy for side {side!r} (policies are given for {known})")
        action = chooser.choose(SideView(encounter, side, log), legal, rng)
        if legal.listed(action):
            events = encounter.push_legal(action)  # listed by the engine just now
        elif action in legal:
            events = encounter.push(action)
        else:
            raise ValueError(f"policy {chooser.name!r} chose {action}, which is not legal")
        history.append(events)
        actions += 1
    return actions


def _returning(log: SideLog) -> Callable[[], SideLog]:
    """A view's ``log`` part: always ``log`` (which reads its history as it grows)."""
    return lambda: log


__all__ = ["LazyView", "Outcome", "outcome_of", "play_out"]
