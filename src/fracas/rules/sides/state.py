"""The state of a side-initiative encounter: combatants on a line, the round and its phase.

Positions are distances along one line, in the encounter's unit (feet or metres); the
distance between two combatants is the difference of their positions. Everything here
is plain data; :meth:`SidesState.clone` copies by hand what changes during a round and
shares what does not (the tables and each combatant's fixed :class:`Stats`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from fracas.engine.cloning import shallow
from fracas.rules.sides.campaign import Armour, Tables, Units, Weapon

Phase = Literal["setup", "choose", "acting", "reacting", "melee", "over"]
Movement = Literal["move", "run", "charge"]


@dataclass(frozen=True)
class Stats:
    """What the rules read from a sheet; fixed for the encounter."""

    attributes: Mapping[str, int]
    max_health: int
    max_stamina: int | None
    player: bool
    evasion: int  # S-ATK-1: from Agility, or as the sheet gives it
    movement: float  # combat movement, in the encounter's unit (S-MOVE-1)
    weapons: tuple[tuple[str, Weapon], ...]
    off_hand: tuple[str, Weapon] | None
    armour: tuple[str, Armour] | None
    mounted: bool
    trained_rider: bool

    def attribute(self, name: str) -> int | None:
        for key, value in self.attributes.items():
            if key.lower() == name.lower():
                return value
        return None

    def melee_weapon(self, name: str | None = None) -> tuple[str, Weapon] | None:
        for wname, weapon in self.weapons:
            if not weapon.ranged and (name is None or wname.lower() == name.lower()):
                return wname, weapon
        return None

    def ranged_weapon(self, name: str | None = None) -> tuple[str, Weapon] | None:
        for wname, weapon in self.weapons:
            if weapon.ranged and (name is None or wname.lower() == name.lower()):
                return wname, weapon
        return None


@dataclass
class Doing:
    """What a combatant has done this round (S-ROUND-2, S-MOVE-*, S-ATK-2, S-ATK-3)."""

    done: bool = False  # its part of its side's phase is over
    movement: Movement | None = None
    before: float = 0.0  # distance moved before shooting, casting or improvising
    after: float = 0.0  # distance moved after it
    shot: bool = False
    cast: bool = False
    improvised: bool = False
    charged: str | None = None  # whom it charged
    declared: str | None = None  # its melee declaration: "attack <id> ..." or "hold"

    @property
    def acted(self) -> bool:
        """Shot, cast or improvised: the split of movement around it applies."""
        return self.shot or self.cast or self.improvised


@dataclass
class Combatant:
    id: str
    name: str
    side: str
    stats: Stats
    health: int
    stamina: int | None
    position: float
    dropped: bool = False  # dropped what it held (S-CALLED-1): no weapon until picked up
    dead: bool = False
    doing: Doing = field(default_factory=Doing)

    def clone(self) -> Combatant:
        new = shallow(self)
        new.doing = shallow(self.doing)
        return new

    @property
    def out(self) -> bool:
        return self.dead


@dataclass
class SidesState:
    """The whole encounter."""

    combatants: dict[str, Combatant]
    sides: list[str]  # in order of first appearance
    tables: Tables  # shared, never changed in play
    units: Units
    confined_space: bool = False  # S-OPT-1
    round: int = 0
    phase: Phase = "setup"
    winner: str | None = None  # the side that chooses to act or react (S-ROUND-1)
    acting: str | None = None
    reacting: str | None = None
    surprised: list[str] = field(default_factory=list)  # S-SURPRISE-1, first round only
    engaged: list[list[str]] = field(default_factory=list)  # pairs in melee at round start
    charges: list[list[str]] = field(default_factory=list)  # [charger, target] this round
    pending: list[list[str]] = field(default_factory=list)  # opportunity attacks waiting
    offered: list[list[str]] = field(default_factory=list)  # opportunity attacks given
    ended: bool = False

    def clone(self) -> SidesState:
        new = shallow(self)
        new.combatants = {k: c.clone() for k, c in self.combatants.items()}
        new.sides = list(self.sides)
        new.surprised = list(self.surprised)
        new.engaged = [list(p) for p in self.engaged]
        new.charges = [list(p) for p in self.charges]
        new.pending = [list(p) for p in self.pending]
        new.offered = [list(p) for p in self.offered]
        return new

    @property
    def melee_range(self) -> float:
        return self.tables.feet_to(self.tables.melee_range, self.units)

    @property
    def phasing(self) -> str | None:
        """The side whose phase it is (S-ROUND-2), if a side's phase is on."""
        if self.phase == "acting":
            return self.acting
        if self.phase == "reacting":
            return self.reacting
        return None

    def order(self) -> list[str]:
        """The acting side's characters, then the reacting side's, each in setup order."""
        sides = [self.acting, self.reacting] if self.acting and self.reacting else self.sides
        return [cid for side in sides for cid, c in self.combatants.items() if c.side == side]

    def living(self, side: str | None = None) -> list[Combatant]:
        return [c for c in self.combatants.values() if not c.out and side in (None, c.side)]

    def enemies(self, who: Combatant) -> list[Combatant]:
        return [c for c in self.combatants.values() if not c.out and c.side != who.side]

    def surprised_now(self, side: str) -> bool:
        """S-SURPRISE-1: a surprised side does not act in the first round."""
        return self.round == 1 and side in self.surprised

    def charged_by(self, cid: str) -> list[str]:
        return [a for a, t in self.charges if t == cid]
