"""The tables of the Heimr core that the rules read: effects, injuries, the grid, XP.

Their values live in ``data/tables.yaml``; a campaign overrides them key by key.

>>> from fracas.rules.heimr.campaign import Campaign
>>> tables = Campaign.default().tables
>>> tables.effects["Stumble"].number, tables.effects["Hit"].unit
(2, 'points')
>>> tables.climbing["Stone wall"], tables.movement_limits["Double door"]
(11, 4)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas.yamlfile import KeyPath, Problems, unknown_name

__all__ = [
    "Concealment",
    "Door",
    "Effect",
    "Fatigue",
    "InjuryLevel",
    "Model",
    "Skill",
    "Tables",
    "Waking",
]

NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


class Model(BaseModel):
    """The base of every Heimr data model: frozen, strict types, no unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Effect(Model):
    """H-EFF-1: an effect's default number (seconds or points); reactions have none."""

    number: NonNegative | None
    unit: Literal["seconds", "points"] | None
    reaction: bool = False
    summary: str = ""


class InjuryLevel(Model):
    """H-HP-1: an injury level, for hit points from ``highest`` down to ``lowest``."""

    highest: int
    lowest: int | None
    needs_treatment: bool
    short_rest: bool
    unconscious_after_minutes: NonNegative | None
    dies_after_minutes: NonNegative | None


class Concealment(Model):
    """H-GRID-9: concealment effectiveness (a consistency penalty) and height."""

    effectiveness: NonNegative
    effectiveness_max: NonNegative | None = None
    height: NonNegative | None
    height_or_more: bool = False


class Door(Model):
    """H-GRID-3: a door or gate: open, a movement limit; closed, a structural barrier."""

    limit: Positive
    toughness: NonNegative
    closed: bool  # how it starts, unless the border says


class Fatigue(Model):
    """H-FAT-2, H-FAT-3: base fatigue = max(minimum, base - attribute); bounds; breather."""

    attribute: str
    base: int
    minimum: int
    maximum: int
    breather: NonNegative
    #: Whether initiative is a physical roll whose d6 below fatigue raises it (H-FAT-1,
    #: H-FAT-2; docs/decisions.md): it uses dexterity, but its potential is willpower.
    initiative: bool = False


class SkillNeeds(Model):
    """H-SKILL-1: a skill's prerequisite: other skills, a free hand, an item held."""

    skills: list[str] = Field(default_factory=list)
    free_hand: bool = False
    holding: list[str] = Field(default_factory=list)  # any one of these held


class Skill(Model):
    """H-SKILL-1, H-EFF-11, H-HP-3: how a skill is used in play (the LARP documents
    describe the skills; a campaign lists its own)."""

    kind: Literal["standard", "free", "ongoing", "upcoming"] = "standard"
    combat: bool = True  # usable as a combat action
    cost: NonNegative = 1  # willpower
    rested: bool = False  # one free use, regained by a short rest
    effects: list[str] = Field(default_factory=list)  # the effects it lets its user call
    needs: SkillNeeds = Field(default_factory=SkillNeeds)


class Waking(Model):
    """H-POS-2: the perception CR that wakes a sleeper, by how loud the sound is."""

    ability: str = "Perception"
    soft: int = 9
    loud: int = 5


class ItemConcealing(Model):
    """H-ACT-3: the roll that sets the CR perception must reach to find a concealed item."""

    ability: str = "Survival"


class Tables(Model):
    """The tables of seed 000 that the rules read (see ``data/tables.yaml``)."""

    effects: dict[str, Effect]
    bind_locations: dict[str, str]
    injury_levels: dict[str, InjuryLevel]
    injury_effects: dict[str, str]
    body_parts: dict[int, str]
    movement_limits: dict[str, Positive]
    crossing_challenges: dict[str, int]
    structural_barriers: dict[str, NonNegative]
    doors: dict[str, Door] = Field(default_factory=dict)
    climbing: dict[str, int | None]
    concealment: dict[str, Concealment]
    lighting: dict[str, NonNegative]
    item_toughness: dict[str, NonNegative]
    fatigue: Fatigue
    training_costs: Annotated[list[Positive], Field(min_length=2)]
    attribute_progress: Annotated[dict[int, Positive], Field(min_length=1)]
    skills: dict[str, Skill] = Field(default_factory=dict)
    ammunition: dict[str, str] = Field(default_factory=dict)  # weapon: what it shoots
    waking: Waking = Field(default_factory=Waking)
    concealing_items: ItemConcealing = Field(default_factory=ItemConcealing)

    def skill(self, name: str) -> Skill:
        """H-SKILL-1: the skill called ``name`` (any case); one not listed is a standard
        combat action for 1 willpower with no prerequisite and no effect.

        >>> from fracas.rules.heimr.campaign import Campaign
        >>> Campaign.default().tables.skill("shield bash").effects
        ['Stumble']
        >>> Campaign.default().tables.skill("Unheard of").kind
        'standard'
        """
        for known, spec in self.skills.items():
            if known.lower() == name.lower():
                return spec
        return Skill()

    @model_validator(mode="after")
    def _cross_check(self) -> Tables:
        problems = list(self._problems())
        if problems:
            raise Problems(problems)
        return self

    def _problems(self) -> Iterator[tuple[KeyPath, str]]:
        for part, effect in self.injury_effects.items():
            if effect not in self.effects:
                yield ("injury_effects", part), unknown_name("effect", effect, self.effects)
        for face, part in self.body_parts.items():
            if part not in self.injury_effects:
                yield ("body_parts", face), unknown_name("body part", part, self.injury_effects)
        if sorted(self.body_parts) != [1, 2, 3, 4, 5, 6]:
            yield ("body_parts",), "needs one body part for each d6 face 1 to 6"
        expected: int | None = 0
        for name, level in sorted(self.injury_levels.items(), key=lambda kv: -kv[1].highest):
            if expected is None or level.highest != expected:
                want = "nothing (the level above has no floor)" if expected is None else expected
                yield ("injury_levels", name, "highest"), f"should be {want}, to follow on"
            if level.lowest is not None and level.lowest > level.highest:
                yield ("injury_levels", name, "lowest"), "is above highest"
            expected = None if level.lowest is None else level.lowest - 1
        if "default" not in self.item_toughness:
            yield ("item_toughness",), "needs a `default` toughness for items not named"
        for name, skill in self.skills.items():
            for effect in skill.effects:
                if effect not in self.effects:
                    yield ("skills", name, "effects"), unknown_name("effect", effect, self.effects)
        keys = sorted(self.attribute_progress)
        if keys != list(range(keys[0], keys[-1] + 1)):
            yield ("attribute_progress",), "needs one entry for every value between its ends"

    def injury_level(self, hit_points: int) -> str | None:
        """H-HP-1: the injury level's name, or ``None`` with 1 or more hit points.

        >>> from fracas.rules.heimr.campaign import Campaign
        >>> tables = Campaign.default().tables
        >>> [tables.injury_level(hp) for hp in (1, 0, -3, -4, -9)]
        [None, 'Bloodied', 'Mangled', 'Mutilated', 'Dead']
        """
        # Asked at every hit and every round: kept by hit points, for these levels (a
        # model_copy with other levels shares the cached property, not its answers).
        levels = self.injury_levels
        kept = self._levels_by_hp
        if kept[0] is not levels:
            kept = self.__dict__["_levels_by_hp"] = (levels, {})
        known = kept[1]
        if hit_points in known:
            return known[hit_points]
        found = None
        for name, level in self.injury_levels.items():
            low = level.lowest
            if hit_points <= level.highest and (low is None or hit_points >= low):
                found = name
                break
        if len(known) < 1024:
            known[hit_points] = found
        return found

    @cached_property
    def _levels_by_hp(self) -> tuple[object, dict[int, str | None]]:
        """The injury levels :meth:`injury_level` has looked up, with the levels they were
        looked up in."""
        return self.injury_levels, {}

    def body_part(self, d6: int) -> str:
        """H-ATK-5: the body part an attack hits, by its d6.

        >>> from fracas.rules.heimr.campaign import Campaign
        >>> [Campaign.default().tables.body_part(face) for face in (6, 4, 1)]
        ['torso', 'sword arm', 'left leg']
        """
        if d6 not in self.body_parts:
            raise ValueError(f"a d6 shows 1 to 6, not {d6}")
        return self.body_parts[d6]
