"""The state of a Heimr Tabletop Rulebook encounter: fighters, positions, the round.

Plain data; the rules that change it live in the modules named after them. What is
fixed for the encounter (a fighter's :class:`Profile`, the :class:`Battlefield`, the
tables) is shared between clones; :meth:`ClassicState.clone` copies the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fracas.engine.cloning import shallow
from fracas.engine.declared import DeclaredRound
from fracas.rules.classic.campaign import ClassicCampaign

#: HC-COND-1: the conditions a character can be in.
CONDITIONS = ("prone", "sleeping", "helpless", "confused", "dying", "blinded", "fear")
#: HC-TAC-1: the tactics for a round.
TACTICS = ("normal", "aggressive", "defensive", "mobile")
SECONDS_PER_ROUND = 6  # HC-ROUND-1
_LYING = frozenset({"prone", "sleeping", "dying"})  # HC-COND-1: lying on the ground
_HELPLESS = frozenset({"helpless", "sleeping", "dying"})


@dataclass(frozen=True)
class Place:
    """A named position (HC-MOVE-1): its borders, each with how many enemies one guard
    there can block (HC-MOVE-2), and environment modifiers to rolls made in it."""

    borders: Mapping[str, int]
    modifiers: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Battlefield:
    """The DM's graph of positions (HC-MOVE-1)."""

    places: Mapping[str, Place]

    def borders(self, position: str) -> list[str]:
        return list(self.places[position].borders)

    def capacity(self, position: str, toward: str) -> int:
        return self.places[position].borders.get(toward, 1)

    def distance(self, start: str, end: str) -> int | None:
        """Moves from ``start`` to ``end``, or ``None`` when no way leads there."""
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for p in frontier:
                for q in self.borders(p):
                    if q not in seen:
                        seen[q] = seen[p] + 1
                        nxt.append(q)
            frontier = nxt
        return seen.get(end)


@dataclass(frozen=True)
class Profile:
    """What a fighter's sheet fixes for the encounter."""

    statistics: Mapping[str, int]
    skills: frozenset[str]
    max_hp: int
    weapons: Mapping[str, str]  # item -> weapon type
    armour: tuple[str, ...] = ()


@dataclass
class Condition:
    """A condition (HC-COND-1); ``dies_at`` is the clock second a dying character dies."""

    name: str
    source: str | None = None
    dies_at: int | None = None


@dataclass
class Plan:
    """What a fighter does with this round, set when the round closes (and reset after)."""

    tactic: str = "normal"
    hero_hits: int = 0  # HC-HERO-1: attacks on NPCs that hit automatically
    hero_dodges: int = 0  # HC-HERO-1: NPC attacks dodged automatically
    hero_best: list[str] = field(default_factory=list)  # rolls made as good as possible
    hero_initiative: bool = False  # HC-HERO-1: first in the next round's order
    willpower: dict[str, int] = field(default_factory=dict)  # roll -> willpower (HC-WP-1)
    after: str | None = None  # HC-INITM-1: act just after this character
    dodge_for: str | None = None  # the reactive dodge kept for this attacker
    dodged: bool = False  # the reactive action is spent (HC-ACT-1)
    attacked: bool = False  # made a non-melee attack (HC-MOVE-2: occupied)
    melee_target: str | None = None  # the last melee attack's target (HC-MOVE-2)
    melee_attacked: bool = False  # attacked in melee (HC-MOVE-2: occupied)

    def clone(self) -> Plan:
        new = shallow(self)
        new.hero_best = list(self.hero_best)
        new.willpower = dict(self.willpower)
        return new


@dataclass
class Fighter:
    """One character in the encounter."""

    id: str
    name: str
    side: str
    npc: bool
    profile: Profile
    hp: int
    willpower: int
    hero_points: int
    position: str
    main_hand: str | None = None
    off_hand: str | None = None
    carried: list[str] = field(default_factory=list)
    loaded: int = 0  # arrows drawn, or throwing weapons in hand
    conditions: list[Condition] = field(default_factory=list)
    dead: bool = False
    first_next: bool = False  # HC-HERO-1: highest initiative next round
    plan: Plan = field(default_factory=Plan)

    def clone(self) -> Fighter:
        new = shallow(self)
        new.carried = list(self.carried)
        new.conditions = [shallow(c) for c in self.conditions]
        new.plan = self.plan.clone()
        return new

    def stat(self, name: str) -> int:
        return self.profile.statistics[name]

    def has(self, condition: str) -> bool:
        return bool(self.conditions) and any(c.name == condition for c in self.conditions)

    def _any_of(self, names: frozenset[str]) -> bool:
        """Whether the fighter is in any of the conditions ``names``."""
        return any(c.name in names for c in self.conditions)

    def condition(self, name: str) -> Condition | None:
        return next((c for c in self.conditions if c.name == name), None)

    @property
    def prone(self) -> bool:
        """Prone, or lying as sleeping and dying characters do (HC-COND-1)."""
        return bool(self.conditions) and self._any_of(_LYING)

    @property
    def helpless(self) -> bool:
        return bool(self.conditions) and self._any_of(_HELPLESS)

    @property
    def in_fight(self) -> bool:
        """Neither dead nor dying."""
        return not self.dead and not (self.conditions and self.has("dying"))

    def held(self) -> list[str]:
        return [i for i in (self.main_hand, self.off_hand) if i is not None]


@dataclass
class Guard:
    """A guarded border (HC-MOVE-2): ``guard`` stands in ``at`` and bars ``toward``."""

    guard: str
    at: str
    toward: str
    named: str | None = None  # guards against this one enemy only
    engaged: list[str] = field(default_factory=list)  # enemies blocked this round

    def clone(self) -> Guard:
        new = shallow(self)
        new.engaged = list(self.engaged)
        return new


@dataclass
class ClassicState:
    """The whole encounter."""

    combatants: dict[str, Fighter]
    battlefield: Battlefield
    tables: ClassicCampaign
    round: int = 0
    clock: int = 0  # in-game seconds
    opened: bool = False
    declared: DeclaredRound = field(default_factory=DeclaredRound)
    posted: list[str] = field(default_factory=list)  # posted this round (HC-ROUND-1)
    order: list[str] = field(default_factory=list)  # the last initiative order
    initiative: dict[str, int] = field(default_factory=dict)
    guards: list[Guard] = field(default_factory=list)
    ground: dict[str, list[str]] = field(default_factory=dict)  # items lying in a position
    warnings: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)  # removed by the DM: targets no longer there

    def clone(self) -> ClassicState:
        new = shallow(self)
        new.combatants = {k: c.clone() for k, c in self.combatants.items()}
        new.declared = self.declared.clone()
        new.posted = list(self.posted)
        new.order = list(self.order)
        new.initiative = dict(self.initiative)
        new.guards = [g.clone() for g in self.guards]
        new.ground = {k: list(v) for k, v in self.ground.items()}
        new.warnings = list(self.warnings)
        new.gone = list(self.gone)
        return new

    def enemies(self, cid: str) -> list[Fighter]:
        side = self.combatants[cid].side
        return [f for f in self.combatants.values() if f.side != side]
