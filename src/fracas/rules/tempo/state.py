"""The state of a tempo encounter: combatants, the initiative order, the round and the exchange.

An exchange is one proactive action on its way through the turn sequence (T-ROUND-2):
declared and paid, then open to a reaction, then to a counter-tempo replacement, then
resolved. Everything here is plain data; :meth:`TempoState.clone` copies by hand what
changes during play and shares the validated tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from fracas.engine.cloning import shallow
from fracas.rules.tempo.tables import TempoTables

Phase = Literal["react", "counter"]


@dataclass
class Combatant:
    """One character in the encounter."""

    id: str
    name: str
    side: str
    status: str
    ap: int
    hp: int
    max_hp: int
    skills: Mapping[str, int]
    weapons: list[str]  # names from the armoury; the first of a kind is the default
    armour: str
    combat_defence: int
    grapple_defence: int
    engaged_with: str | None = None  # the opponent of a bind, grapple or pin
    aimed: str | None = None  # the weapon aimed with by the last action (Aim's success)
    reach: set[str] = field(default_factory=set)  # T-MOVE-1: opponents within reach

    def clone(self) -> Combatant:
        new = shallow(self)
        new.weapons = list(self.weapons)
        new.reach = set(self.reach)
        return new

    @property
    def out(self) -> bool:
        """Down: no longer in the fight (decision: at 0 HP or less)."""
        return self.hp <= 0


@dataclass(frozen=True)
class Declared:
    """An action one combatant declared in the exchange, with what it is made with."""

    who: str
    action: str
    weapon: str | None = None
    bonus: int = 0
    to: str | None = None  # T-MOVE-1: a movement closing with this opponent
    away: str | None = None  # T-MOVE-1: a movement leaving this opponent's reach


@dataclass
class Exchange:
    """A proactive action in the turn sequence, and what answered it so far."""

    proactive: Declared
    target: str | None
    paid: int  # AP the actor has paid for it (and for a replacement)
    distance: int = 0  # squares, for a ranged attack (Dodge)
    phase: Phase = "react"
    passed: list[str] = field(default_factory=list)  # opponents who let the window go
    reaction: Declared | None = None
    replacement: Declared | None = None

    def clone(self) -> Exchange:
        new = shallow(self)
        new.passed = list(self.passed)
        return new


@dataclass
class TempoState:
    """The whole encounter."""

    combatants: dict[str, Combatant]
    order: list[str]
    tables: TempoTables
    round: int = 0
    turn: int = 0  # index into ``order`` of whose turn it is
    exchange: Exchange | None = None
    rolled: bool = True  # T-ROUND-1: false until ``gm initiative`` rolls the order
    initiative: dict[str, int] = field(default_factory=dict)  # as the encounter file writes it

    def clone(self) -> TempoState:
        new = shallow(self)
        new.combatants = {cid: c.clone() for cid, c in self.combatants.items()}
        new.order = list(self.order)
        new.exchange = self.exchange.clone() if self.exchange else None
        return new

    @property
    def current(self) -> str:
        return self.order[self.turn]

    def standing_sides(self) -> set[str]:
        return {c.side for c in self.combatants.values() if not c.out}

    @property
    def over(self) -> bool:
        """Decision: the encounter ends when one side (or none) has anyone standing."""
        standing = None
        for c in self.combatants.values():
            if c.hp > 0:  # not out
                if standing is None:
                    standing = c.side
                elif c.side != standing:
                    return False
        return True
