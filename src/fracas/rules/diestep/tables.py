"""Die-step campaign data: the shipped tables and weapons, character sheets and regions.

The package data (``data/tables.yaml``, ``data/weapons.yaml``) lies under a
campaign's own keys (``tables``, ``weapons``, ``characters``): mappings merge key by
key, anything else replaces. Dice are written ``d8`` (or 8) and must be on the ladder.

>>> campaign = Campaign.load({})
>>> campaign.tables.ap_per_turn, campaign.weapons["crossbow"].ignores_prone
(3, True)
>>> campaign.tables.minimum_defence(2), campaign.tables.minimum_defence(9)
(6, 10)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from fracas import yamlfile
from fracas.dice.diestep import LADDER
from fracas.engine import EngineError
from fracas.yamlfile import deep_merge

#: The attribute dice the rules read (D-DIE-1).
DICE = ("att", "def", "ref", "pre", "for", "str", "int")


def parse_die(value: Any) -> Any:
    """``"d8"`` or ``8`` -> 8, for a die on the ladder (others fail validation).

    >>> parse_die("d12"), parse_die(6)
    (12, 6)
    """
    if isinstance(value, str) and value[:1] in "dD" and value[1:].isdigit():
        value = int(value[1:])
    if isinstance(value, int) and value not in LADDER:
        raise ValueError(f"d{value} is not on the ladder ({', '.join(f'd{x}' for x in LADDER)})")
    return value


Die = Annotated[int, Field(ge=min(LADDER), le=max(LADDER)), BeforeValidator(parse_die)]
NonNegative = Annotated[int, Field(ge=0)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Weapon(Model):
    """A weapon: melee or ranged (range in regions), hands, long, made to parry."""

    name: str = ""
    kind: Literal["melee", "ranged"]
    hands: Literal[1, 2] = 1
    long: bool = False
    parry: bool = True
    range: NonNegative = 0
    ignores_prone: bool = False  # firearms and crossbows (D-PRONE-1)

    @property
    def melee(self) -> bool:
        return self.kind == "melee"


class Region(Model):
    """A region, the unit of movement: its borders, room to move and ground."""

    borders: list[str] = Field(default_factory=list)
    cramped: bool = False  # no decent room to manoeuvre: dodges disadvantaged (D-DEF-2)
    ground: Literal["soft", "hard"] = "soft"  # hard: a throw may be lethal (D-GRAB-1)


class Sheet(Model):
    """A character sheet: its dice, hit and magic points, AP and gear."""

    name: str
    side: str
    # Bounds, generous beside the rules' (a few hit points, 2 AP): docs/decisions.md.
    dice: dict[str, Die] = Field(default_factory=dict)
    hit_points: Annotated[int, Field(ge=0, le=1000)] | None = None
    magic_points: Annotated[int, Field(ge=0, le=1000)] = 0
    ap: Annotated[int, Field(ge=0, le=100)] | None = None
    weapon: str | None = None
    shield: bool = False
    riding: bool = False  # a skilled rider (D-MOUNT-1)
    mount: bool = False  # can be ridden
    minion: bool = False  # a minor unnamed character (D-KO-2)
    hero: bool = True  # D-REC-1: heals from a bad wound in a week, others in a month
    size: Annotated[int, Field(ge=-10, le=10)] = 0  # 0 human; a giant is sizes.giant or more
    run_regions: Annotated[int, Field(ge=1, le=100)] | None = None


class Minutes(Model):
    mortal_wound: NonNegative = 10
    wake: NonNegative = 5
    badly_wounded_wake: NonNegative = 60
    roused: NonNegative = 10
    first_aid: NonNegative = 10
    rest: NonNegative = 60
    mp_rest: NonNegative = 60


class Recovery(Model):
    """D-REC-1: days of rest that heal the badly wounded, a hero's and anyone else's."""

    hero_days: NonNegative = 7
    other_days: NonNegative = 30


class Sizes(Model):
    giant: int = 2
    much_larger: int = 2


class Survival(Model):
    """D-KO-1: a FOR roll at or below each value gives that outcome."""

    dead: int = 1
    mortally_wounded: int = 2
    badly_wounded: int = 3


class Tables(Model):
    """The numbers the rules read; see ``data/tables.yaml`` and docs/decisions.md."""

    default_die: Die
    ap_per_turn: NonNegative
    costs: dict[Literal["major", "minor"], NonNegative]
    hit_points: NonNegative
    run_regions: Annotated[int, Field(ge=1)]
    mount_run_regions: Annotated[int, Field(ge=1)]
    unarmed_ranks: int
    minimum_ranged_defence: list[Die | None] = Field(min_length=1)
    survival: Survival
    first_aid: dict[str, Die]
    minutes: Minutes
    recovery: Recovery = Recovery()
    sizes: Sizes

    def minimum_defence(self, distance: int) -> int | None:
        """D-DEF-1: the minimum passive defence die at ``distance`` regions."""
        table = self.minimum_ranged_defence
        return table[min(distance, len(table) - 1)]


class Campaign(Model):
    """Package data with a campaign laid over it."""

    tables: Tables
    weapons: dict[str, Weapon]
    characters: dict[str, Sheet] = Field(default_factory=dict)

    @classmethod
    def load(cls, campaign: Mapping[str, Any]) -> Campaign:
        """Validate ``campaign`` laid over the package data; :class:`EngineError` if wrong."""
        data = deep_merge(package_data(), dict(campaign))
        try:
            loaded = cls.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise EngineError(f"campaign, {where}: {first['msg']}") from None
        weapons = {name: w.model_copy(update={"name": name}) for name, w in loaded.weapons.items()}
        return loaded.model_copy(update={"weapons": weapons})


DATA_FILES = ("tables.yaml", "weapons.yaml")


def package_data() -> dict[str, Any]:
    """The shipped tables and weapons, as one mapping (a fresh copy each time)."""
    data: dict[str, Any] = yamlfile.package_data("fracas.rules.diestep", DATA_FILES).data
    return copy.deepcopy(data)
