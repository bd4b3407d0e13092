"""Campaign data of the side-initiative rules: tables, armoury and character sheets.

:func:`load` lays a campaign (the setup's ``campaign`` mapping) over the package data in
``data/`` (mappings merge key by key, ``!replace`` replaces) and validates it, so a
mistake is one :class:`~fracas.yamlfile.CampaignError` naming the field.

>>> tables = load({})
>>> tables.evasion_of(10), tables.combat_movement(40, "feet"), tables.combat_movement(12, "metres")
(1, 15.0, 4.5)
>>> tables.weapons["Mace"].piercing_against("Metal")
2
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fracas import yamlfile
from fracas.yamlfile import (
    KeyPath,
    Problems,
    YamlDocument,
    merge_documents,
    unknown_name,
    validate,
)

__all__ = ["Armour", "CalledShot", "Sheet", "Tables", "Weapon", "load"]

DATA_FILES = ("rules.yaml", "armoury.yaml")
Units = Literal["feet", "metres"]
Length = Literal["short", "middle", "long"]
NonNegative = Annotated[int, Field(ge=0)]
Distance = Annotated[float, Field(ge=0)]
#: A distance on a sheet (movement): feet or metres, up to a mile.
SheetDistance = Annotated[float, Field(ge=0, le=5280)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Piercing(Model):
    """S-DMG-1: Armour Piercing "Category; N" bypasses up to N Protection of that category."""

    category: str
    points: NonNegative


class Ranges(Model):
    """S-ATK-2: the upper ends of Close, Medium and Far range, in feet."""

    close: Distance
    medium: Distance
    far: Distance

    @model_validator(mode="after")
    def _ordered(self) -> Ranges:
        if not self.close <= self.medium <= self.far:
            raise ValueError("ranges must grow: close <= medium <= far")
        return self


class Weapon(Model):
    """A weapon of the armoury (S-ATK-1, S-DMG-1, S-ATK-2, S-OPT-1)."""

    attribute: str = "Strength"
    hands: Literal[1, 2] = 1
    damage: str | None = None  # standard notation; None: by hands (S-DMG-1)
    length: Length | None = None
    range: Ranges | None = None
    armour_piercing: list[Piercing] = Field(default_factory=list)
    negates_charge: bool = False

    @field_validator("armour_piercing", mode="before")
    @classmethod
    def _seed_notation(cls, value: Any) -> Any:
        """Read the seed's notation ``"Metal; 2"`` as well as mappings."""
        if not isinstance(value, list):
            return value
        out: list[Any] = []
        for item in value:
            if isinstance(item, str):
                category, sep, points = item.partition(";")
                if not sep or not points.strip().isdigit():
                    raise ValueError(f"armour piercing {item!r} should read 'Category; N'")
                item = {"category": category.strip(), "points": int(points)}
            out.append(item)
        return out

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        if value is not None:
            from fracas.dice import DiceError, parse

            try:
                parse("standard", value)
            except DiceError as err:
                raise ValueError(f"damage {value!r}: {err}") from None
        return value

    @property
    def ranged(self) -> bool:
        return self.range is not None

    def damage_dice(self) -> str:
        """S-DMG-1: one-handed 1d6, two-handed 1d6+1, unless the armoury says otherwise."""
        if self.damage is not None:
            return self.damage
        return "1d6" if self.hands == 1 else "1d6+1"

    def piercing_against(self, category: str) -> int:
        return sum(p.points for p in self.armour_piercing if p.category == category)


class Armour(Model):
    """S-DMG-1: Protection and Category."""

    protection: NonNegative
    category: str


class EvasionBand(Model):
    agility_from: int
    agility_to: int
    evasion: NonNegative


class MovementTable(Model):
    """S-MOVE-1: exploration -> combat movement per unit, and the rounding step."""

    feet: dict[float, Distance]
    metres: dict[float, Distance]
    step: dict[Units, Annotated[float, Field(gt=0)]]


class RangedModifiers(Model):
    close_bonus: NonNegative
    far_difficulty: NonNegative


class CalledShot(Model):
    """S-CALLED-1: a part's difficulty and what a hit there does."""

    difficulty: NonNegative
    effect: Literal["drop"] | None = None
    summary: str = ""


class Mounted(Model):
    untrained_difficulty: NonNegative
    charge_damage: NonNegative
    movement: Distance


class Surprise(Model):
    surprised_at_most: Annotated[int, Field(ge=0, le=6)]


class OptionalRules(Model):
    confined_space: bool = False


class ConfinedSpace(Model):
    short: NonNegative = 0
    middle: NonNegative
    long: NonNegative


class Sheet(Model):
    """A character: attributes, Health (and Stamina for player characters), gear."""

    name: str
    side: str
    # Bounds, generous beside the seed's (attributes 3 to 18, a few points of Health and
    # Stamina, 60' of movement): docs/decisions.md.
    attributes: dict[str, Annotated[int, Field(ge=0, le=30)]]
    health: Annotated[int, Field(ge=1, le=100)]
    stamina: Annotated[int, Field(ge=0, le=100)] | None = None  # S-HP-1: most NPCs have none
    evasion: Annotated[int, Field(ge=0, le=30)] | None = None  # given outright (the seed's Orc)
    player: bool = False
    movement: SheetDistance | None = None  # exploration movement, in the encounter's unit
    combat_movement: SheetDistance | None = None  # overrides the S-MOVE-1 table
    weapons: list[str] = Field(default_factory=list)
    off_hand: str | None = None  # a second one-handed weapon (S-DMG-1)
    armour: str | None = None
    mounted: bool = False
    trained_rider: bool = False
    mount_movement: SheetDistance | None = None


class Tables(Model):
    """Everything the rules read from data: the package's, laid under a campaign's."""

    title: str = ""
    version: int = 1
    units: Units
    metres_per_foot: Annotated[float, Field(gt=0)]
    melee_range: Distance
    exploration_movement: Distance
    movement: MovementTable
    evasion: list[EvasionBand] = Field(min_length=1)
    ranged: RangedModifiers
    called_shots: dict[str, CalledShot]
    mounted: Mounted
    surprise: Surprise
    optional_rules: OptionalRules
    confined_space: ConfinedSpace
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    characters: dict[str, Sheet] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _cross_check(self) -> Tables:
        problems = list(self._problems())
        if problems:
            raise Problems(problems)
        return self

    def _problems(self) -> Iterator[tuple[KeyPath, str]]:
        for key, sheet in self.characters.items():
            yield from (((("characters", key, *p), m)) for p, m in self.sheet_problems(sheet))

    def sheet_problems(self, sheet: Sheet) -> Iterator[tuple[KeyPath, str]]:
        """Names a sheet uses that the armoury lacks, and weapons it cannot wield."""
        for i, name in enumerate(sheet.weapons):
            if name not in self.weapons:
                yield ("weapons", i), unknown_name("weapon", name, self.weapons)
            elif self.attribute(sheet, self.weapons[name].attribute) is None:
                yield (
                    ("weapons", i),
                    f"{name} attacks with {self.weapons[name].attribute}, "
                    + ("which the sheet lacks"),
                )
        if sheet.off_hand is not None:
            off = self.weapons.get(sheet.off_hand)
            if off is None:
                yield ("off_hand",), unknown_name("weapon", sheet.off_hand, self.weapons)
            elif off.hands != 1 or off.ranged:
                yield ("off_hand",), "the off hand holds a one-handed melee weapon"
        if sheet.armour is not None and sheet.armour not in self.armour:
            yield ("armour",), unknown_name("armour", sheet.armour, self.armour)

    # -- reading the tables -------------------------------------------------------------

    @staticmethod
    def attribute(sheet: Sheet, name: str) -> int | None:
        """A sheet's score by name, without regard to case."""
        for key, value in sheet.attributes.items():
            if key.lower() == name.lower():
                return value
        return None

    def evasion_of(self, agility: int) -> int:
        """S-ATK-1: Evasion from Agility (2-8: 0, 9-11: 1, 12: 2)."""
        bands = sorted(self.evasion, key=lambda b: b.agility_from)
        for band in bands:
            if band.agility_from <= agility <= band.agility_to:
                return band.evasion
        return bands[0].evasion if agility < bands[0].agility_from else bands[-1].evasion

    def combat_movement(self, exploration: float, units: Units) -> float:
        """S-MOVE-1: a third of exploration movement, as the table gives it, else rounded
        up to the step (5 feet, 1.5 m)."""
        table = self.movement.feet if units == "feet" else self.movement.metres
        if exploration in table:
            return float(table[exploration])
        step = self.movement.step[units]
        return round(math.ceil(exploration / 3 / step - 1e-9) * step, 2)

    def feet_to(self, feet: float, units: Units) -> float:
        """A distance the data gives in feet, in the encounter's unit."""
        return feet if units == "feet" else round(feet * self.metres_per_foot, 2)


def package_data() -> YamlDocument:
    """The package data (``data/*.yaml``) merged into one document."""
    return yamlfile.package_data("fracas.rules.sides", DATA_FILES)


@cache
def _package() -> YamlDocument:
    return package_data()


def load(campaign: Mapping[str, Any]) -> Tables:
    """The tables of an encounter: the package data with ``campaign`` laid over it."""
    document = merge_documents(_package(), YamlDocument(dict(campaign), {}, "campaign"))
    return validate(Tables, document)
