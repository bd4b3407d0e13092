"""The Heimr Tabletop Rulebook's tables and character sheets, as data a campaign overrides.

The package data (``data/*.yaml``) holds the seed's tables: statistics and creation
(HC-STAT-1, HC-STAT-2), XP costs (HC-XP-1), modifier types (HC-MOD-1), weapons and
armour (HC-CS-1, HC-DODGE-1, HC-AGI-1), charisma, wealth and knowledge (HC-SOC-1).
A campaign mapping is laid over it key by key (``!replace`` replaces a whole mapping).

>>> tables = ClassicCampaign.default()
>>> tables.weapons["one-handed"].attack, tables.weapons["one-handed"].defence
(1, 7)
>>> tables.damage("two-handed"), tables.damage("unarmed")
(3, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from fracas import yamlfile
from fracas.rules.heimr.campaign import Campaign as HeimrCampaign
from fracas.rules.heimr.tables import Model, NonNegative, Positive, Tables
from fracas.yamlfile import (
    KeyPath,
    Problems,
    YamlDocument,
    merge_documents,
    unknown_name,
    validate,
)

__all__ = ["ClassicCampaign", "Sheet", "WeaponType", "heimr_tables", "package_data"]

DATA_FILES = ("statistics.yaml", "weapons.yaml", "social.yaml", "upkeep.yaml")


#: A statistic (or the points raised on one) on a sheet: 0 to 30 (docs/decisions.md).
Stat = Annotated[int, Field(ge=0, le=30)]


class Creation(Model):
    """HC-STAT-1: the points to spend, the bounds, the default and the warning thresholds."""

    points: Positive
    maximum: Positive
    minimum: NonNegative
    default: NonNegative
    warn_above: int
    warn_below: int


class AgilityCap(Model):
    """HC-STAT-2: a capped statistic of ``at`` needs agility ``needs``, one more per point."""

    capped: list[str]
    at: int
    needs: int

    def agility_needed(self, value: int) -> int | None:
        """The agility a capped statistic of ``value`` needs, or ``None`` when uncapped.

        >>> AgilityCap(capped=[], at=7, needs=2).agility_needed(9)
        4
        """
        return None if value < self.at else self.needs + value - self.at


class WeaponType(Model):
    """A row of the weapon tables: attack and defence (HC-CS-1), ranged need (HC-AGI-1)."""

    length: str = ""
    attack: int = 0
    defence: int = 0
    dodge: int = 0  # a shield's dodge penalty (HC-DODGE-1)
    hands: Literal["one", "two"] = "one"
    shield: bool = False
    needed: int | None = None  # ranged: added to the number the agility roll needs
    minimum_agility: NonNegative = 0
    ammunition: bool = False  # an arrow or bolt is drawn before each shot
    damage: NonNegative | None = None
    armoury: str | None = None  # the medieval armoury entry whose damage applies

    @property
    def ranged(self) -> bool:
        return self.needed is not None


class Charisma(Model):
    commands: dict[int, NonNegative]
    group: dict[int, NonNegative]
    figureheads: dict[int, NonNegative]
    member_penalty: dict[int, NonNegative]
    leads: dict[str, int]


class WealthRow(Model):
    income: NonNegative
    gold: NonNegative | None
    note: str = ""


class Wealth(Model):
    table: dict[int, WealthRow]
    beyond: WealthRow
    employees: dict[int, NonNegative]
    employees_beyond: NonNegative
    leads: dict[str, int]


class Knowledge(Model):
    categories: list[str]
    lower_by: Positive
    raise_by: Positive


class Upkeep(Model):
    """HC-CAMP-1: what a month of active play gives, money, willpower bought, hero points
    spent between fights and the Underbelly's wealth (``data/upkeep.yaml``)."""

    xp_per_month: NonNegative
    free_willpower_per_month: NonNegative
    willpower_most: Positive
    coins: dict[str, Positive]
    willpower_price: NonNegative
    hero_uses: dict[str, str]
    hero_money: NonNegative
    hero_money_months: NonNegative
    underbelly_per_board: NonNegative
    lost_faction: NonNegative


class Sheet(Model):
    """A character of the Heimr Tabletop Rulebook; :mod:`.sheet` checks its creation."""

    name: str
    side: str
    npc: bool = False
    # Bounds, generous beside the rulebook's (statistics 1 to 10, above only with the DM's
    # permission): docs/decisions.md.
    statistics: dict[str, Stat] = Field(default_factory=dict)  # at creation; missing are 5
    raised: dict[str, Stat] = Field(default_factory=dict)  # points bought with XP
    xp: Annotated[int, Field(ge=0, le=1_000_000)] = 0  # XP earned, to pay for ``raised``
    dm_permission: bool = False  # to raise a statistic above 10 (HC-XP-1)
    background: str = ""  # explains an extreme statistic (HC-STAT-1)
    knowledge_categories: dict[str, Annotated[int, Field(ge=-30, le=30)]] = Field(
        default_factory=dict
    )
    skills: list[str] = Field(default_factory=list)
    hit_points: Annotated[int, Field(ge=1, le=100)] = 5
    willpower: Annotated[int, Field(ge=0, le=100)] = 10
    hero_points: Annotated[int, Field(ge=0, le=100)] = 0
    weapons: dict[str, str] = Field(default_factory=dict)  # item -> weapon type
    main_hand: str | None = None
    off_hand: str | None = None
    carried: list[str] = Field(default_factory=list)
    armour: list[str] = Field(default_factory=list)
    # HC-CAMP-1: kept by the books between fights.
    money: Annotated[int, Field(ge=0, le=10**9)] = 0  # in copper
    months_played: list[str] = Field(default_factory=list, max_length=1200)  # "2026-03"
    hero_money_month: str | None = None  # the last month a hero point earned money
    leads: list[str] = Field(default_factory=list, max_length=20)
    underbelly_boards: Annotated[int, Field(ge=0, le=100)] = 0
    lost_faction: bool = False


class ClassicCampaign(Model):
    """The tables of seed 001 and a campaign's characters, cross-checked on load."""

    title: str = ""
    statistics: dict[str, str]
    creation: Creation
    agility_cap: AgilityCap
    xp_costs: dict[int, Positive]
    xp_needs_permission_from: int
    modifier_types: dict[str, str]
    weapons: dict[str, WeaponType]
    ranged_base: int
    armour: dict[str, int]
    armour_stacking_skill: str
    #: HC-DODGE-1, HC-ACT-1: a character dodges once a round (its reactive action), or,
    #: ``false``, every potential hit (docs/decisions.md).
    one_dodge_a_round: bool = True
    charisma: Charisma
    wealth: Wealth
    knowledge: Knowledge
    upkeep: Upkeep
    armoury_abilities: dict[str, list[str]]
    characters: dict[str, Sheet] = Field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None, name: str = "campaign") -> ClassicCampaign:
        """The package data with ``data`` laid over it, validated."""
        return cls.from_documents(YamlDocument(dict(data or {}), {}, name))

    @classmethod
    def from_documents(cls, *documents: YamlDocument) -> ClassicCampaign:
        """The package data with campaign files laid over it: errors name file and line."""
        document = package_data()
        for more in documents:
            document = merge_documents(document, more)
        return validate(cls, document)

    @staticmethod
    def default() -> ClassicCampaign:
        return _default()

    @model_validator(mode="after")
    def _cross_check(self) -> ClassicCampaign:
        problems = list(self._problems())
        if problems:
            raise Problems(problems)
        return self

    def _problems(self) -> Iterator[tuple[KeyPath, str]]:
        for name in self.agility_cap.capped:
            if name not in self.statistics:
                yield ("agility_cap", "capped"), unknown_name("statistic", name, self.statistics)
        core = HeimrCampaign.default()
        armoury = core.weapons
        for name in self.armoury_abilities:
            if name not in armoury and name not in core.shields:
                yield (
                    ("armoury_abilities", name),
                    unknown_name("armoury entry", name, [*armoury, *core.shields]),
                )
        for coin in ("copper", "silver", "gold"):
            if coin not in self.upkeep.coins:
                yield ("upkeep", "coins"), f"needs the value of a {coin} piece in copper"
        for name, weapon in self.weapons.items():
            if weapon.damage is None and weapon.armoury is None and not weapon.shield:
                yield ("weapons", name), "needs a damage or an armoury entry to take it from"
            if weapon.armoury is not None and weapon.armoury not in armoury:
                yield (
                    ("weapons", name, "armoury"),
                    unknown_name("armoury weapon", weapon.armoury, armoury),
                )

    def damage(self, weapon_type: str) -> int:
        """The hit points a hit with ``weapon_type`` takes: its own or the armoury's."""
        weapon = self.weapons[weapon_type]
        if weapon.damage is not None:
            return weapon.damage
        if weapon.armoury is None:
            return 0
        return HeimrCampaign.default().weapons[weapon.armoury].damage

    def statistic(self, key: str) -> str | None:
        """The statistic a sheet's key names: its name or abbreviation, any case.

        >>> tables = ClassicCampaign.default()
        >>> tables.statistic("CS"), tables.statistic("Combat Skill"), tables.statistic("luck")
        ('combat_skill', 'combat_skill', None)
        """
        folded = key.strip().casefold().replace(" ", "_")
        for name, short in self.statistics.items():
            if folded in (name.casefold(), short.casefold()):
                return name
        return None


def package_data() -> YamlDocument:
    """The classic package data (``data/*.yaml``) merged into one document."""
    return yamlfile.package_data("fracas.rules.classic", DATA_FILES)


@cache
def _default() -> ClassicCampaign:
    return validate(ClassicCampaign, package_data())


def heimr_tables() -> Tables:
    """The injury levels of the Health chapter, which seed 001 shares with seed 000."""
    return HeimrCampaign.default().tables
