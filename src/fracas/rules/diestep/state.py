"""The state of a die-step encounter: combatants, regions, turn order and open windows.

Plain data; the rules that change it live in the modules named after them.
:meth:`DieStepState.clone` is the undo stack's snapshot: it copies by hand what
changes in play and shares what does not (sheets, weapons, regions, tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from fracas.engine.cloning import shallow
from fracas.rules.diestep.tables import Region, Sheet, Tables, Weapon

if TYPE_CHECKING:
    from fracas.rules.diestep.tables import Campaign

Hold = Literal["partial", "full"]
Wound = Literal["", "badly", "mortal"]


@dataclass
class Combatant:
    """One character (or mount) in the encounter."""

    id: str
    name: str
    side: str
    sheet: Sheet
    hp: int
    mp: int
    region: str
    weapon: Weapon | None = None
    shield: bool = False
    ready: bool = True  # weapon and shield in hand (D-PRONE-1: the surprised usually not)
    prone: bool = False
    helpless: bool = False
    surprised: bool = False  # until its first turn begins (D-PRONE-1)
    unaware_of: list[str] = field(default_factory=list)  # attackers it cannot see (D-DEF-1)
    knocked_out: bool = False
    ko_lethal: bool = False  # knocked out by lethal damage: a survival roll is owed (D-KO-1)
    dead: bool = False
    wound: Wound = ""  # D-WOUND-1: badly or mortally wounded; "wounded" is just hp < max
    permanent_injury: bool = False
    survival: int | None = None  # the survival roll, once made
    stunned: int = 0  # own turns still lost (D-KO-1, D-HEAL-1)
    stunned_encounter: bool = False  # D-HEAL-1: a healed mortal wound, until full HP
    debt: int = 0  # AP owed to the next turn by minor interrupts (D-ACT-1)
    held_by: str | None = None  # D-GRAB-1
    hold: Hold | None = None
    holding: str | None = None
    mounted_on: str | None = None  # D-MOUNT-1
    rider: str | None = None
    wake_at: int | None = None  # minutes after the encounter
    dies_at: int | None = None
    aid_tried: bool = False
    busy_until: int = 0  # a first-aider's next free minute
    rested: int = 0  # D-REC-1: minutes of rest awake after the encounter

    def clone(self) -> Combatant:
        new = shallow(self)
        new.unaware_of = list(self.unaware_of)
        return new

    @property
    def out(self) -> bool:
        """Dead or knocked out: no actions, no active defences."""
        return self.dead or self.knocked_out

    @property
    def able(self) -> bool:
        """Able to act at all: not out, helpless or stunned."""
        return not (
            self.dead or self.knocked_out or self.helpless or self.stunned or self.stunned_encounter
        )

    @property
    def badly_wounded(self) -> bool:
        """D-WOUND-1: the penalties apply once awake, until HP are full again."""
        return self.wound == "badly" and not self.knocked_out

    def die(self, name: str) -> int:
        """The sides of one of the character's dice (``att``, ``def``, ``ref``...)."""
        return self.sheet.dice[name]

    def melee_weapon(self) -> Weapon | None:
        """The ready melee weapon, if any."""
        w = self.weapon
        return w if w is not None and self.ready and w.melee else None


AttackKind = Literal["weapon", "spell", "strike", "grab", "crush", "throw", "opportunity"]


@dataclass(frozen=True, init=False)
class Attack:
    """A declared attack, waiting for the target's answer or being resolved."""

    attacker: str
    target: str
    kind: AttackKind
    die: str  # the attacker's die: att, pre, str
    ranks: int  # shift of the attacker's die (unarmed: -2)
    defence: str  # the target's passive die: def, pre, for, str
    melee: bool
    ranged: bool
    physical: bool
    indirect: bool = False
    active: bool = True  # may the target block, parry or dodge?
    lethal: bool = True
    weapon: str | None = None
    distance: int = 0

    def __init__(
        self,
        attacker: str,
        target: str,
        kind: AttackKind,
        die: str,
        ranks: int,
        defence: str,
        melee: bool,
        ranged: bool,
        physical: bool,
        indirect: bool = False,
        active: bool = True,
        lethal: bool = True,
        weapon: str | None = None,
        distance: int = 0,
    ) -> None:
        # The fields set at once, not one by one through object.__setattr__ as a frozen
        # dataclass's own init does: a fight declares an attack every other action.
        self.__dict__.update(
            attacker=attacker,
            target=target,
            kind=kind,
            die=die,
            ranks=ranks,
            defence=defence,
            melee=melee,
            ranged=ranged,
            physical=physical,
            indirect=indirect,
            active=active,
            lethal=lethal,
            weapon=weapon,
            distance=distance,
        )


@dataclass(frozen=True, init=False)
class DefenceWindow:
    """An attack declared against ``attack.target``: it answers block, parry, dodge or take.

    ``defences``: the active defences open to it and who rolls each, as
    :func:`~fracas.rules.diestep.combat.defences` gave them when it was declared (they
    hold while the window is open: nothing else is done until it is answered), or
    ``None``; not to be changed."""

    attack: Attack
    defences: Mapping[str, str] | None = field(default=None, compare=False, repr=False)

    def __init__(self, attack: Attack, defences: Mapping[str, str] | None = None) -> None:
        # (as Attack: set at once, one a declaration)
        own = self.__dict__
        own["attack"] = attack
        own["defences"] = defences


@dataclass(frozen=True, init=False)
class OpportunityWindow:
    """An action that provoked opportunity attacks (D-OA-1).

    ``waiting`` answer in turn order (``opportunity`` or ``pass``); ``action`` is the
    provoking action, carried out when all have answered (``None``: already done).
    """

    provoker: str
    waiting: tuple[str, ...]
    action: str | None

    def __init__(self, provoker: str, waiting: tuple[str, ...], action: str | None) -> None:
        # (as Attack: set at once; a window is made again at each answer)
        own = self.__dict__
        own["provoker"] = provoker
        own["waiting"] = waiting
        own["action"] = action


Window = DefenceWindow | OpportunityWindow


@dataclass
class Turn:
    """The turn of ``actor`` (with its mount, ``partner``) and the AP it has spent."""

    actor: str
    partner: str | None
    pool: int  # AP this turn: the higher of the pair's, less interrupt debts
    rider_cap: int  # D-MOUNT-1: AP for anything but movement
    mount_cap: int  # D-MOUNT-1: AP for movement
    spent: int = 0
    moving: int = 0
    other: int = 0
    mount_moved: bool = False
    grabbed: bool = False  # a grab made this turn needs no sustaining
    sustained: bool = False
    done: bool = False  # a rule ended the turn

    def clone(self) -> Turn:
        new = shallow(self)
        return new

    @property
    def left(self) -> int:
        return self.pool - self.spent

    def members(self) -> tuple[str, ...]:
        return (self.actor,) if self.partner is None else (self.actor, self.partner)


@dataclass
class DieStepState:
    """The whole encounter."""

    combatants: dict[str, Combatant]
    regions: dict[str, Region]  # shared, never changed in play
    tables: Tables  # shared, never changed in play
    order: list[str] = field(default_factory=list)
    initiative: dict[str, int] = field(default_factory=dict)
    round: int = 0
    index: int = 0
    turn: Turn | None = None
    started: bool = False
    over: bool = False
    windows: list[Window] = field(default_factory=list)
    minutes: int = 0  # minutes since the encounter ended
    # The campaign the setup gave, for those who join mid-fight: shared, never changed.
    campaign: Campaign | None = field(default=None, compare=False, repr=False)

    def clone(self) -> DieStepState:
        new = shallow(self)
        new.combatants = {k: c.clone() for k, c in self.combatants.items()}
        new.order = list(self.order)
        new.initiative = dict(self.initiative)
        new.turn = self.turn.clone() if self.turn else None
        new.windows = list(self.windows)
        return new

    @property
    def current(self) -> str | None:
        return self.turn.actor if self.turn else None

    def who(self, cid: str) -> Combatant:
        return self.combatants[cid]

    def partner(self, c: Combatant) -> Combatant | None:
        """The other half of a mounted pair."""
        other = c.mounted_on or c.rider
        return None if other is None else self.combatants[other]
