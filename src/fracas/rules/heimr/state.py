"""The state of a Heimr encounter: combatants, the initiative order, clusters and the clock.

Everything here is plain data; the rules that change it live in the modules named
after them (:mod:`.turns`, :mod:`.combat`, :mod:`.effects`, :mod:`.health`).
:meth:`HeimrState.clone` is the undo stack's snapshot, so it copies by hand what
changes during play and shares what does not (the fixed :class:`Stats`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from mypy_extensions import mypyc_attr

from fracas.engine.cloning import shallow
from fracas.rules.heimr.battlefield import Battlefield
from fracas.rules.heimr.blindspots import BlindSpots
from fracas.rules.heimr.tables import Tables

if TYPE_CHECKING:
    from fracas.rules.heimr.campaign import Campaign

Defence = Literal["dodge", "block", "parry"]
DEFENCES: tuple[Defence, ...] = ("dodge", "block", "parry")


@mypyc_attr(native_class=False)  # compiled, a frozen one cannot be copied or pickled
@dataclass(frozen=True)
class Ability:
    """An ability's challenge for one character (H-CHAR-2), before situational changes."""

    consistency: int
    potential: int
    attributes: tuple[str, ...]


@mypyc_attr(native_class=False)  # compiled, a frozen one cannot be copied or pickled
@dataclass(frozen=True)
class Weapon:
    """A wielded weapon as the armoury describes it (H-MOD-2, H-ATK-2)."""

    name: str
    ability: str
    damage: int
    potential_bonus: int = 0
    ranged: int | None = None  # maximum range; None for melee
    hands: str = "either hand"

    @property
    def melee(self) -> bool:
        return self.ranged is None


@mypyc_attr(native_class=False)  # compiled, a frozen one cannot be copied or pickled
@dataclass(frozen=True)
class Shield:
    name: str
    ability: str
    potential_bonus: int = 0


@mypyc_attr(native_class=False)  # compiled, a frozen one cannot be copied or pickled
@dataclass(frozen=True)
class Stats:
    """What combat reads from a character sheet; fixed for the encounter."""

    attributes: Mapping[str, int]
    groups: Mapping[str, str]
    abilities: Mapping[str, Ability]
    hit_points: int
    willpower: int

    def physical(self, ability: Ability) -> bool:
        """Whether a roll of ``ability`` is based on a physical attribute (H-FAT-1)."""
        return not self.physical_attributes.isdisjoint(ability.attributes)

    @cached_property
    def physical_attributes(self) -> frozenset[str]:
        """The physical attributes (worked out once: every roll asks)."""
        return frozenset(a for a, group in self.groups.items() if group == "physical")


@mypyc_attr(native_class=False)  # cloned by cloning.shallow
@dataclass
class ActiveEffect:
    """An effect on a character (H-EFF-*): its number, and the turns it has left."""

    name: str
    number: int
    turns: int  # own turns still to end before it passes (H-EFF-10)
    odd: bool = False  # an odd number of seconds (H-EFF-5)
    source: str | None = None
    part: str | None = None
    injury: bool = False  # lasts while injured (H-HP-2), not by turns
    final_turn: bool = False  # the last turn of an odd duration has begun (H-EFF-5)
    fresh: bool = False  # received in the affected's own turn, which does not count
    direction: str | None = None  # Stumble: the way it came from, barred (H-EFF-4)
    limb: str | None = None  # Bind on an arm or a leg: which one (H-EFF-7)


@mypyc_attr(native_class=False)  # cloned by cloning.shallow
@dataclass
class PreRolled:
    """A defence rolled in advance (H-DEF-2): its kind, result and the dice fatigue reads."""

    kind: Defence
    result: int
    raw: int
    d6: int
    failed: bool = False  # failed outright on fatigue (H-FAT-1)


@mypyc_attr(native_class=False)  # cloned by cloning.shallow
@dataclass
class Readied:
    """A readied action and its trigger (H-INIT-4)."""

    action: str
    trigger: str
    intent_failed: bool = False  # an intent trigger lost its insight roll this turn (H-INIT-5)


@dataclass
class Combatant:
    """One character in the encounter."""

    id: str
    name: str
    side: str
    stats: Stats
    hp: int
    willpower: int
    fatigue: int
    square: str
    height: int = 0  # the height this character stands at (H-GRID-5)
    climbing: str | None = None  # the square it climbs towards, in climbing position (H-POS-5)
    entered_from: str | None = None  # the square it came from this turn (H-MOD-1)
    max_fatigue: int = 20  # H-FAT-2, from the campaign's fatigue table
    sword_hand: Weapon | None = None
    off_hand: Weapon | None = None
    shield: Shield | None = None
    stance: Defence | Literal["none"] = "dodge"
    defence: PreRolled | None = None
    uses: dict[str, int] = field(default_factory=dict)  # defences used since the last turn
    effects: list[ActiveEffect] = field(default_factory=list)
    injuries: list[str] = field(default_factory=list)  # body parts hit while injured
    injured_at: int | None = None  # clock second the injury (re)started
    stabilized: bool = False
    dead: bool = False
    fled: bool = False  # escaped a chase (H-CHASE-1): out of the encounter
    prone: bool = False
    unconscious: bool = False
    helpless: bool = False
    fatigue_raised: bool = False  # this turn window (H-FAT-2)
    ongoing: bool = False  # -2 on defence until the next turn (H-ACT-1)
    upcoming: str | None = None  # an upcoming action to finish next turn (H-ACT-1)
    readied: Readied | None = None
    ran_from: str | None = None  # cannot be charged from there until its next turn (H-ACT-5)
    ready_dodge: bool = False  # +2 potential to the next dodge (H-ACT-3)
    holding: str | None = None  # whom this character grabs (H-ATK-10)
    held_by: str | None = None
    dodged_melee_of: list[str] = field(default_factory=list)  # in their last turn (H-ATK-9)
    shot_by: list[str] = field(default_factory=list)  # ranged attackers in their last turn
    hide_cr: int | None = None  # the CR perception must reach to spot it (H-ACT-7)
    hidden_from: dict[str, str] = field(default_factory=dict)  # side: unaware | aware (H-POS-4)
    guarding: str | None = None  # person:<id>, square:<sq> or border:<A1-A2> (H-GUARD-1)
    passed_guards: list[str] = field(default_factory=list)  # outmanoeuvred this turn
    attacked_melee: list[str] = field(default_factory=list)  # whom it attacked this turn
    skills: tuple[str, ...] = ()  # from the sheet (H-CHAR-5); fixed in combat
    carried: list[Weapon | Shield] = field(default_factory=list)  # stowed, drawn by an action
    dropped: list[Weapon | Shield] = field(default_factory=list)  # on the ground, its square
    xp: int = 0
    pouch: list[Weapon | Shield] = field(default_factory=list)  # not easily accessible (H-ACT-8)
    ammunition: dict[str, int] = field(default_factory=dict)  # counted ammunition (H-ACT-8)
    drawn_ammunition: str | None = None  # drawn, ready to shoot (H-ACT-8)
    concealed: list[Weapon | Shield] = field(default_factory=list)  # hidden on it (H-ACT-3)
    conceal_cr: int | None = None  # what perception must reach to find them (H-ACT-3)
    concealed_found_by: list[str] = field(default_factory=list)  # sides that found them
    sleeping: bool = False  # prone and helpless until woken (H-POS-2)
    skill_in_use: str | None = None  # an ongoing or prepared skill (H-SKILL-1)
    rested_used: list[str] = field(default_factory=list)  # rested skills used (H-HP-3)

    def clone(self) -> Combatant:
        # Every field named (compiled, a native class has no __dict__ to copy at once).
        return Combatant(
            id=self.id,
            name=self.name,
            side=self.side,
            stats=self.stats,
            hp=self.hp,
            willpower=self.willpower,
            fatigue=self.fatigue,
            square=self.square,
            height=self.height,
            climbing=self.climbing,
            entered_from=self.entered_from,
            max_fatigue=self.max_fatigue,
            sword_hand=self.sword_hand,
            off_hand=self.off_hand,
            shield=self.shield,
            stance=self.stance,
            defence=shallow(self.defence) if self.defence else None,
            uses=dict(self.uses),
            effects=[shallow(e) for e in self.effects],
            injuries=list(self.injuries),
            injured_at=self.injured_at,
            stabilized=self.stabilized,
            dead=self.dead,
            fled=self.fled,
            prone=self.prone,
            unconscious=self.unconscious,
            helpless=self.helpless,
            fatigue_raised=self.fatigue_raised,
            ongoing=self.ongoing,
            upcoming=self.upcoming,
            readied=shallow(self.readied) if self.readied else None,
            ran_from=self.ran_from,
            ready_dodge=self.ready_dodge,
            holding=self.holding,
            held_by=self.held_by,
            dodged_melee_of=list(self.dodged_melee_of),
            shot_by=list(self.shot_by),
            hide_cr=self.hide_cr,
            hidden_from=dict(self.hidden_from),
            guarding=self.guarding,
            passed_guards=list(self.passed_guards),
            attacked_melee=list(self.attacked_melee),
            skills=self.skills,
            carried=list(self.carried),
            dropped=list(self.dropped),
            xp=self.xp,
            pouch=list(self.pouch),
            ammunition=dict(self.ammunition),
            drawn_ammunition=self.drawn_ammunition,
            concealed=list(self.concealed),
            conceal_cr=self.conceal_cr,
            concealed_found_by=list(self.concealed_found_by),
            sleeping=self.sleeping,
            skill_in_use=self.skill_in_use,
            rested_used=list(self.rested_used),
        )

    def has(self, effect: str) -> bool:
        # A plain loop, not any() over a generator: asked at every check of an action.
        for e in self.effects:  # noqa: SIM110
            if e.name == effect:
                return True
        return False

    @property
    def injured(self) -> bool:
        return self.hp <= 0

    @property
    def out(self) -> bool:
        """Dead, unconscious or fled: no longer fighting."""
        return self.dead or self.unconscious or self.fled

    def held(self) -> list[Weapon | Shield]:
        """What is in its hands: sword hand, off hand, shield."""
        held: list[Weapon | Shield] = []
        if self.sword_hand is not None:
            held.append(self.sword_hand)
        if self.off_hand is not None:
            held.append(self.off_hand)
        if self.shield is not None:
            held.append(self.shield)
        return held

    def take_in_hand(self, item: Weapon | Shield) -> bool:
        """Put ``item`` in a free hand (a weapon: the sword hand first); False if none. A
        two-hands weapon fills both hands (H-ATK-2): it needs both, and nothing joins it."""
        if not self.can_take_in_hand(item):
            return False
        if isinstance(item, Shield):
            self.shield = item
        elif self.sword_hand is None:
            self.sword_hand = item
        else:
            self.off_hand = item
        return True

    def can_take_in_hand(self, item: Weapon | Shield) -> bool:
        """Whether :meth:`take_in_hand` would find a hand for ``item`` (nothing changed)."""
        if self.sword_hand is not None and self.sword_hand.hands == "two-hands":
            return False
        if isinstance(item, Shield):
            return self.shield is None and self.off_hand is None
        if item.hands == "two-hands":
            return self.sword_hand is None and self.off_hand is None and self.shield is None
        return self.sword_hand is None or (self.off_hand is None and self.shield is None)

    def let_go(self, item: Weapon | Shield) -> None:
        """Empty the hand holding ``item``."""
        for slot in ("sword_hand", "off_hand", "shield"):
            if getattr(self, slot) is item:
                setattr(self, slot, None)
                return

    def weapons(self) -> list[Weapon]:
        """The wielded weapons, sword hand first (no comprehension: asked at every attack
        and every check of one)."""
        sword, off = self.sword_hand, self.off_hand
        if sword is None:
            return [] if off is None else [off]
        return [sword] if off is None else [sword, off]

    def free_hand(self) -> bool:
        """A hand holding nothing: a two-hands weapon fills both (H-ATK-2, H-ATK-8)."""
        if self.sword_hand is not None and self.sword_hand.hands == "two-hands":
            return False
        return self.sword_hand is None or (self.off_hand is None and self.shield is None)


@dataclass
class Turn:
    """What the character whose turn it is has done this turn (H-ACT-1, H-ACT-2)."""

    actor: str
    standard: bool = False  # the standard action is spent
    standard_verb: str | None = None  # the verb it was spent on
    simultaneous: bool = False  # the one simultaneous action is used (H-ACT-2)
    free: list[str] = field(default_factory=list)  # free actions used
    acted: bool = False  # any action taken (delay only at the start)
    square_at_start: str = ""
    cluster_at_start: list[str] = field(default_factory=list)  # who shared its cluster

    def clone(self) -> Turn:
        return Turn(
            actor=self.actor,
            standard=self.standard,
            standard_verb=self.standard_verb,
            simultaneous=self.simultaneous,
            free=list(self.free),
            acted=self.acted,
            square_at_start=self.square_at_start,
            cluster_at_start=list(self.cluster_at_start),
        )


@dataclass
class HeimrState:
    """The whole encounter."""

    combatants: dict[str, Combatant]
    tables: Tables  # the campaign's tables: shared, never changed in play
    battlefield: Battlefield  # the grid, its borders and terrain: shared, fixed in play
    order: list[str] = field(default_factory=list)  # initiative order, first to act first
    initiative: dict[str, int] = field(default_factory=dict)
    round: int = 0
    index: int = 0
    clock: int = 0  # in-game seconds since the encounter began (H-HP-5)
    turn: Turn | None = None
    clusters: list[list[str]] = field(default_factory=list)
    started: bool = False
    # H-XP-1: XP left over from the last award, by the group it was divided among (a side,
    # or the group the game master names), carried to that group's next award.
    xp_remainder: dict[str, int] = field(default_factory=dict)
    pending: str | None = None  # a failed challenge that may be re-rolled (H-DICE-7)
    options: dict[str, int] = field(default_factory=dict)
    # H-GRID-4: who has gone through each limited border in its current count, first first.
    crossings: dict[str, list[str]] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)  # structural barriers broken (H-GRID-3)
    open_doors: list[str] = field(default_factory=list)  # doors and gates standing open
    blind_spots: dict[str, BlindSpots] = field(default_factory=dict)  # by defender (H-MOD-1)
    # The campaign the setup gave, for those who join mid-fight: shared, never changed.
    campaign: Campaign | None = field(default=None, compare=False, repr=False)

    def clone(self) -> HeimrState:
        return HeimrState(
            combatants={k: c.clone() for k, c in self.combatants.items()},
            tables=self.tables,
            battlefield=self.battlefield,
            order=list(self.order),
            initiative=dict(self.initiative),
            round=self.round,
            index=self.index,
            clock=self.clock,
            turn=self.turn.clone() if self.turn else None,
            clusters=[list(c) for c in self.clusters],
            started=self.started,
            xp_remainder=dict(self.xp_remainder),
            pending=self.pending,
            options=dict(self.options),
            crossings={k: list(v) for k, v in self.crossings.items()},
            broken=list(self.broken),
            open_doors=list(self.open_doors),
            blind_spots={k: v.clone() for k, v in self.blind_spots.items()},
            campaign=self.campaign,
        )

    @property
    def current(self) -> str | None:
        return self.turn.actor if self.turn else None

    def cluster_of(self, cid: str) -> list[str] | None:
        for cluster in self.clusters:
            if cid in cluster:
                return cluster
        return None


def item_named(items: list[Weapon | Shield], name: str | None) -> Weapon | Shield | None:
    """The item of ``items`` called ``name``, whatever its case."""
    wanted = (name or "").lower()
    return next((i for i in items if i.name.lower() == wanted), None)
