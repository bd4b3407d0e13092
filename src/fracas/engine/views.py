"""What a side may see. Hidden information is filtered here and nowhere else.

The game master (``side=None``) sees everything. A side sees the state as its
ruleset's observer shows it, each log event as :meth:`Event.for_side` gives it, and
no word of a combatant it cannot see: whose turn it is, the order and the initiative
leave out the combatants its observer leaves out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from fracas.engine.abcs import own_isinstance_cache
from fracas.engine.actions import Action
from fracas.engine.encounter import Encounter
from fracas.engine.events import Event
from fracas.engine.ruleset import S

#: The keys of an observed state that name combatants, which a side sees only if it
#: sees the combatant: one name, a list of names, or a mapping from names.
_NAMING = ("current", "order", "initiative", "waiting", "waiting_for")


def check_side(encounter: Encounter[S], side: str | None) -> None:
    """Refuse a side that is not in the encounter (``None``, the game master, is)."""
    if side is None:
        return
    sides = encounter.ruleset.sides(encounter.state)
    if side not in sides:
        raise ValueError(f"no side called {side!r}: the sides are {', '.join(sorted(sides))}")


def view(
    encounter: Encounter[S], side: str | None = None, log_tail: int | None = None
) -> dict[str, Any]:
    """A JSON-ready view of ``encounter`` for ``side`` (``None``: the game master).

    With ``log_tail``, only the log's last ``log_tail`` entries are built (``log_start``
    says where they begin), so a long encounter costs a screen only what it shows.
    :class:`ValueError` if there is no such side.
    """
    check_side(encounter, side)
    state = encounter.ruleset.observe(encounter.state, side)
    to_move = encounter.to_move
    if side is not None:
        hidden = _hidden_from(encounter, state)
        state = _without(state, hidden)
        if to_move in hidden:
            to_move = None  # somebody acts, but the side may not know who: "waiting"
    start = 0 if log_tail is None else max(0, len(encounter.log) - log_tail)
    return {
        "ruleset": encounter.ruleset.id,
        "side": side,
        "to_move": to_move,
        "over": encounter.is_over(),
        "state": state,
        "log": side_log(encounter, side, start),
        "log_start": start,
    }


def lazy_view(
    encounter: Encounter[S], side: str | None, log: Callable[[], Any], *, checked: bool = False
) -> SideView:
    """:func:`view` of ``encounter`` for ``side``, its parts (and the observed state's,
    where the ruleset offers :meth:`~Ruleset.observe_lazily`) worked out when read, with
    ``log()`` for its whole log: for a policy that reads a few fields and its log from
    the end. It equals the view until the encounter changes.

    >>> from fracas.engine import Encounter, RandomDice
    >>> from fracas.table import encounterfile
    >>> ruleset, setup, _ = encounterfile.load("examples/heimr/duel.yaml")
    >>> duel = Encounter(ruleset, setup, RandomDice(1))
    >>> seen = lazy_view(duel, "raiders", lambda: side_log(duel, "raiders"))
    >>> dict(seen) == view(duel, "raiders")
    True

    ``checked``: the caller knows ``side`` to be one of the encounter's (the side of a
    combatant in it), so it is not looked for among them again.
    """
    if not checked:
        check_side(encounter, side)
    return SideView(encounter, side, log)


class SideView(Mapping[str, Any]):
    """:func:`lazy_view`: one side looking at an encounter, each part of its view worked
    out when first read (by :data:`_LAZY_VIEW`) and kept. ``side`` is not checked here.

    It holds nothing that refers back to it (its state is given what it needs, not the
    view): a view is freed when its choice is made, not by the garbage collector. Its
    private attributes hold the whole encounter, for its parts to read from: a policy
    reads the view's keys only, never those."""

    __slots__ = ("_encounter", "_got", "_log", "_side")

    def __init__(self, encounter: Encounter[Any], side: str | None, log: Callable[[], Any]):
        self._encounter = encounter
        self._side = side
        self._log = log
        self._got: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        got = self._got
        if key in got:
            return got[key]
        found = got[key] = _LAZY_VIEW[key](self)
        return found

    def get(self, key: str, default: Any = None) -> Any:
        got = self._got
        if key in got:
            return got[key]
        part = _LAZY_VIEW.get(key)
        if part is None:
            return default
        found = got[key] = part(self)
        return found

    def __contains__(self, key: object) -> bool:
        return key in _LAZY_VIEW

    def __iter__(self) -> Iterator[str]:
        return iter(_LAZY_VIEW)

    def __len__(self) -> int:
        return len(_LAZY_VIEW)


own_isinstance_cache(SideView)


def _seen_state(look: SideView) -> Mapping[str, Any]:
    """The ``state`` of a :class:`SideView`: what its side observes, names it may not
    know left out as they are read."""
    enc = look._encounter
    seen = enc.ruleset.observe_lazily(enc.state, look._side)
    return seen if look._side is None else _SideState(seen, enc)


def _seen_to_move(look: SideView) -> str | None:
    """The ``to_move`` of a :class:`SideView`: ``None`` for a mover hidden from its side."""
    mover = look._encounter.to_move
    if look._side is None:
        return mover
    state: _SideState = look["state"]
    return None if mover in state.hidden() else mover


#: The parts of :func:`lazy_view`, as :func:`view` gives them.
_LAZY_VIEW: dict[str, Callable[[SideView], Any]] = {
    "ruleset": lambda look: look._encounter.ruleset.id,
    "side": lambda look: look._side,
    "to_move": _seen_to_move,
    "over": lambda look: look._encounter.is_over(),
    "state": _seen_state,
    "log": lambda look: look._log(),
    "log_start": lambda look: 0,
}

#: :data:`_NAMING`, looked up.
_NAMING_KEYS = frozenset(_NAMING)


class _SideState(Mapping[str, Any]):
    """A side's observed state, names it may not know left out as they are read (who is
    hidden from it worked out once, when first needed)."""

    __slots__ = ("_encounter", "_hidden", "_seen")

    def __init__(self, seen: Mapping[str, Any], encounter: Encounter[Any]) -> None:
        self._seen = seen
        self._encounter = encounter
        self._hidden: set[str] | None = None

    def hidden(self) -> set[str]:
        """The combatants the game master sees and this side does not."""
        hidden = self._hidden
        if hidden is None:
            hidden = self._hidden = _hidden_from(self._encounter, self._seen)
        return hidden

    def __getitem__(self, key: str) -> Any:
        value = self._seen[key]
        return _named(value, self.hidden()) if key in _NAMING_KEYS else value

    def get(self, key: str, default: Any = None) -> Any:
        if key in _NAMING_KEYS:
            return self[key] if key in self._seen else default
        return self._seen.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._seen

    def __iter__(self) -> Iterator[str]:
        return iter(self._seen)

    def __len__(self) -> int:
        return len(self._seen)


own_isinstance_cache(_SideState)


def side_log(
    encounter: Encounter[S], side: str | None, start: int = 0, stop: int | None = None
) -> list[list[Any]]:
    """The log's entries ``start`` to ``stop``, each entry's events as ``side`` sees them."""
    return [side_entry(entry.events, side) for entry in encounter.log[start:stop]]


def side_entry(events: Iterable[Event], side: str | None) -> list[dict[str, Any]]:
    """One log entry's ``events`` as ``side`` sees them, as JSON."""
    seen = (e.for_side(side) for e in events)
    return [e.to_dict() for e in seen if e is not None]


def offered(encounter: Encounter[S], side: str | None = None) -> list[Action]:
    """The legal actions ``side`` may be offered now: first those of whoever is to move,
    when that is one of its combatants (or the side itself), then those its other
    combatants may take at this moment (a reaction, a mount in its rider's turn, a post
    in a round declared by all); ``[]`` when it may do nothing. The game master is
    offered all of ``to_move``'s, then what everyone else may do at this moment (a readied
    action whose trigger has come, say).
    """
    check_side(encounter, side)
    actor = encounter.to_move
    everyone = encounter.ruleset.observe(encounter.state, None).get("combatants", {})
    if side is None:
        actors = [a for a in (actor, *everyone) if a is not None]
        return [a for who in dict.fromkeys(actors) for a in encounter.legal_actions(who)]
    own = [cid for cid, c in everyone.items() if c.get("side") == side]
    actors = [a for a in (actor, *own) if a is not None and (a == side or a in own)]
    return [a for who in dict.fromkeys(actors) for a in encounter.legal_actions(who)]


def _hidden_from(encounter: Encounter[S], seen: Mapping[str, Any]) -> set[str]:
    """The combatants the game master sees and the side's observer leaves out."""
    everyone = encounter.ruleset.combatant_ids(encounter.state)
    return set(everyone) - set(seen.get("combatants", {}))


def _without(state: dict[str, Any], hidden: set[str]) -> dict[str, Any]:
    if not hidden:
        return state
    out = dict(state)
    for key in _NAMING:
        if key in out:
            out[key] = _named(out[key], hidden)
    return out


def _named(value: Any, hidden: set[str]) -> Any:
    """``value`` (a key of :data:`_NAMING`) without the names in ``hidden``."""
    if not hidden:
        return value
    if isinstance(value, str) and value in hidden:
        return None
    if isinstance(value, list):
        return [v for v in value if v not in hidden]
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in hidden}
    return value
