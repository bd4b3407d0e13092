"""What a side sees of a Heimr combatant, from one table of fields.

The game master sees everything; a side sees its own combatants fully and others as a
character would: position, visible states, injuries and pre-rolled defences (H-ATK-3),
but not hit points, willpower, fatigue or readied actions. :func:`observe_one` builds
the whole record (screens, saves, the engine's views); :class:`SeenCombatant` reads a
field only when it is asked for (a policy choosing an attack reads a handful). Both
read :data:`SEEN` and :data:`OWN` (the lazy one through tables made from them when the
module is loaded: they are not to be changed in play), so they cannot differ.

>>> from fracas.table import encounterfile
>>> ruleset, setup, _ = encounterfile.load("examples/heimr/duel.yaml")
>>> state = ruleset.start(setup)
>>> ylva = state.combatants["ylva"]
>>> dict(SeenCombatant(state, ylva, "raiders")) == observe_one(state, ylva, "raiders")
True
>>> own, other = SeenCombatant(state, ylva, "shieldwall"), SeenCombatant(state, ylva, "raiders")
>>> "fatigue" in own, "fatigue" in other
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from fracas.engine.abcs import own_isinstance_cache
from fracas.rules.heimr import combat, health, hiding
from fracas.rules.heimr.state import Combatant, HeimrState

#: A field's value, read from the state and the combatant.
Field = Callable[[HeimrState, Combatant], Any]


def _defence(state: HeimrState, c: Combatant) -> dict[str, Any] | None:
    if c.defence is None:
        return None
    return {"kind": c.defence.kind, "result": "fails" if c.defence.failed else c.defence.result}


def _weapons(state: HeimrState, c: Combatant) -> list[str]:
    return [w.name for w in c.weapons()] + ([c.shield.name] if c.shield else [])


def _readied(state: HeimrState, c: Combatant) -> dict[str, Any] | None:
    return None if c.readied is None else {"action": c.readied.action, "trigger": c.readied.trigger}


def _effect_details(state: HeimrState, c: Combatant) -> list[dict[str, Any]]:
    return [
        {"name": e.name, "number": e.number, "turns": e.turns, "injury": e.injury}
        for e in c.effects
    ]


#: The fields that are the combatant's attribute of the same name (read in place by
#: :class:`SeenCombatant`, as they are never copied).
_ATTRIBUTES: set[str] = set()


def _attribute(name: str) -> Field:
    """The field reading the combatant's attribute ``name``, one of :data:`_ATTRIBUTES`."""
    _ATTRIBUTES.add(name)
    return lambda s, c: getattr(c, name)


#: What every side that knows of a combatant sees, in the order a record lists it.
SEEN: dict[str, Field] = {
    "name": _attribute("name"),
    "hidden": lambda s, c: c.hide_cr is not None,
    "side": _attribute("side"),
    "square": lambda s, c: c.square,
    "height": _attribute("height"),
    "climbing": lambda s, c: c.climbing is not None,
    "prone": _attribute("prone"),
    "dead": _attribute("dead"),
    "unconscious": _attribute("unconscious"),
    "sleeping": _attribute("sleeping"),
    "injury": lambda s, c: health.level_name(s, c.hp),
    "injuries": lambda s, c: list(c.injuries),
    "effects": lambda s, c: [e.name for e in c.effects],
    "defence": _defence,
    "holding": _attribute("holding"),
    "held_by": _attribute("held_by"),
    "weapons": _weapons,
    "concealed_items": lambda s, c: [],  # by side: see _concealed_for
}

#: What only the combatant's own side (and the game master) sees, after :data:`SEEN`.
OWN: dict[str, Field] = {
    "hide_cr": _attribute("hide_cr"),
    "conceal_cr": _attribute("conceal_cr"),
    "guarding": _attribute("guarding"),
    "hp": _attribute("hp"),
    "max_hp": lambda s, c: c.stats.hit_points,
    "willpower": _attribute("willpower"),
    "fatigue": _attribute("fatigue"),
    "base_fatigue": combat.base_fatigue,
    "stance": _attribute("stance"),
    "readied": _readied,
    "upcoming": _attribute("upcoming"),
    "xp": _attribute("xp"),
    "effect_details": _effect_details,
    "ammunition": lambda s, c: dict(c.ammunition),  # counted, left (H-ACT-8)
    "drawn_ammunition": _attribute("drawn_ammunition"),
}

_SEEN_KEYS = tuple(SEEN)
#: The fields of :data:`SEEN` that depend on the side looking, not on the table alone.
_BY_SIDE = frozenset({"square", "concealed_items"})
_ALL_KEYS = (*SEEN, *OWN)
#: The fields read alike whoever looks, by what the side looking is shown: everything
#: (its own side, the game master) or what every side sees.
_FULL_FIELDS = {key: field for key, field in (*SEEN.items(), *OWN.items()) if key not in _BY_SIDE}
_SEEN_FIELDS = {key: field for key, field in SEEN.items() if key not in _BY_SIDE}
_FULL_ATTRIBUTES = frozenset(_ATTRIBUTES & set(_FULL_FIELDS))
_SEEN_ATTRIBUTES = frozenset(_ATTRIBUTES & set(_SEEN_FIELDS))
#: What :class:`SeenCombatant` reads, for a side shown everything and for another.
_FULL = (_FULL_FIELDS, _FULL_ATTRIBUTES)
_SEEN = (_SEEN_FIELDS, _SEEN_ATTRIBUTES)


def _unplaced(c: Combatant, side: str | None) -> bool:
    """Known to be hidden somewhere, not where (H-POS-4): the square is not shown."""
    return side is not None and hiding.hidden_from(c, side) == hiding.AWARE


def _concealed_for(c: Combatant, side: str | None) -> list[str]:
    """H-ACT-3: the items ``c`` conceals that ``side`` knows of: all for its own side and
    the game master, those found by observing it for a side that did, else none."""
    if side is None or side == c.side or side in c.concealed_found_by:
        return [i.name for i in c.concealed]
    return []


def observe_one(state: HeimrState, c: Combatant, side: str | None) -> dict[str, Any]:
    """Everything ``side`` (``None``: the game master) sees of ``c``, as JSON."""
    seen = {key: field(state, c) for key, field in SEEN.items()}
    seen["concealed_items"] = _concealed_for(c, side)
    if _unplaced(c, side):
        seen["square"] = None
    if side is None or side == c.side:
        for key, field in OWN.items():
            seen[key] = field(state, c)
    return seen


class SeenCombatant(Mapping[str, Any]):
    """What :func:`observe_one` gives, each field read from the state when first asked
    for: valid until the state changes."""

    __slots__ = ("_attributes", "_c", "_fields", "_full", "_got", "_side", "_state")

    def __init__(self, state: HeimrState, c: Combatant, side: str | None) -> None:
        self._state = state
        self._c = c
        self._side = side
        self._full = full = side is None or side == c.side
        self._fields, self._attributes = _FULL if full else _SEEN
        self._got: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key in self._attributes:
            return getattr(self._c, key)
        got = self._got
        if key in got:
            return got[key]
        field = self._fields.get(key)
        if field is not None:
            value = field(self._state, self._c)
        elif key == "square":
            c = self._c
            value = None if c.hide_cr is not None and _unplaced(c, self._side) else c.square
        elif key == "concealed_items":
            value = _concealed_for(self._c, self._side)
        else:
            raise KeyError(key)
        got[key] = value
        return value

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._attributes:
            return getattr(self._c, key)
        got = self._got
        if key in got:
            return got[key]
        field = self._fields.get(key)
        if field is None:
            if key == "square":  # as __getitem__ reads it: the one asked at every choice
                c = self._c
                square = got[key] = (
                    None if c.hide_cr is not None and _unplaced(c, self._side) else c.square
                )
                return square
            return self[key] if key in _BY_SIDE else default
        value = got[key] = field(self._state, self._c)  # as __getitem__ reads it
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._fields or key in _BY_SIDE  # the fields __getitem__ reads

    def __iter__(self) -> Iterator[str]:
        return iter(_ALL_KEYS if self._full else _SEEN_KEYS)

    def __len__(self) -> int:
        return len(_ALL_KEYS if self._full else _SEEN_KEYS)


own_isinstance_cache(SeenCombatant)


class SeenCombatants(Mapping[str, SeenCombatant]):
    """Everyone ``side`` knows of, by id, each as a :class:`SeenCombatant`."""

    __slots__ = ("_made", "_seen", "_side", "_state")

    def __init__(self, state: HeimrState, side: str | None) -> None:
        self._state = state
        self._side = side
        # Those the side knows of, by id, in the state's order: the state's own mapping
        # while nobody is hidden (most fights hide nobody: a plain loop tells).
        self._seen: Mapping[str, Combatant] = state.combatants
        if side is not None:
            for c in state.combatants.values():
                if c.hide_cr is not None:
                    self._seen = {
                        cid: c
                        for cid, c in state.combatants.items()
                        if hiding.hidden_from(c, side) != hiding.UNAWARE
                    }
                    break
        self._made: dict[str, SeenCombatant] = {}

    def __getitem__(self, cid: str) -> SeenCombatant:
        found = self._made.get(cid)
        if found is None:
            found = self._made[cid] = SeenCombatant(self._state, self._seen[cid], self._side)
        return found

    def get(self, cid: str, default: Any = None) -> Any:
        found = self._made.get(cid)
        if found is None:
            c = self._seen.get(cid)
            if c is None:
                return default
            found = self._made[cid] = SeenCombatant(self._state, c, self._side)
        return found

    def __contains__(self, cid: object) -> bool:
        return cid in self._seen

    def values(self) -> list[SeenCombatant]:  # type: ignore[override]
        return [seen for _, seen in self.items()]

    def items(self) -> list[tuple[str, SeenCombatant]]:  # type: ignore[override]
        made = self._made
        if len(made) == len(self._seen):
            return [(cid, made[cid]) for cid in self._seen]
        state, side = self._state, self._side
        out = []
        for cid, c in self._seen.items():
            found = made.get(cid)
            if found is None:
                found = made[cid] = SeenCombatant(state, c, side)
            out.append((cid, found))
        return out

    def forces(self, side: object) -> tuple[list[SeenCombatant], int]:
        """Those seen standing somewhere (neither dead nor unconscious, a square shown)
        of another side than ``side``, and how many of ``side`` stand: what reading
        each one's ``dead``, ``unconscious``, ``side`` and ``square`` tells, in one pass.
        """
        seer = self._side
        enemies = []
        own = 0
        for cid, c in self._seen.items():
            if c.dead or c.unconscious:
                continue
            if c.side == side:
                own += 1
            elif c.square is not None and (c.hide_cr is None or not _unplaced(c, seer)):
                enemies.append(self[cid])
        return enemies, own

    def foe_squares(self, side: object) -> list[str | None]:
        """The squares of those seen of another side than ``side``, not dead (``None``
        for one known to be hidden somewhere, or on no square): what reading each one's
        ``dead``, ``side`` and ``square`` tells, in one pass."""
        seer = self._side
        found: list[str | None] = []
        for c in self._seen.values():
            if c.dead or c.side == side:
                continue
            found.append(None if c.hide_cr is not None and _unplaced(c, seer) else c.square)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._seen)

    def __len__(self) -> int:
        return len(self._seen)


own_isinstance_cache(SeenCombatants)
