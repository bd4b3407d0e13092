"""Heimr campaign data and character sheets: the shipped tables, a campaign's own, checked.

:meth:`Campaign.load` lays campaign YAML files over the package data in ``data/``
(mappings merge key by key, anything else replaces, ``!replace`` replaces a whole
mapping), validates everything and cross-checks every name, so a mistake is one
:class:`~fracas.yamlfile.CampaignError` naming the file, the line and the field.
The sheet arithmetic (H-CHAR-2, H-CHAR-4, H-DICE-6, H-XP-2, H-XP-3, H-FAT-3) is
computed on demand from the sheet's attributes, never stored.

>>> heimr = Campaign.default()
>>> ylva = CharacterSheet(name="Ylva", side="shieldwall", hit_points=4, willpower=3,
...     attributes={"str": 2, "dex": 1, "sta": 1, "int": 0, "soc": 0, "emp": 0},
...     abilities={"Sword and shield": {"trained_consistency": 2}})
>>> str(heimr.ability_challenge(ylva, "Shield and sword"))  # C 1 + 2, P floor((2 + 1) / 2)
'C3P1'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from fracas import yamlfile
from fracas.rules.heimr.sheet import (
    DiceChallenge,
    add_attribute_progress,
    attribute_progress_required,
    base_fatigue,
    base_potential,
    situational_penalty,
    training_cost,
)
from fracas.rules.heimr.tables import Model, NonNegative, Tables
from fracas.yamlfile import (
    CampaignError,
    KeyPath,
    Problems,
    YamlDocument,
    format_path,
    load_yaml,
    merge_documents,
    unknown_name,
    validate,
)

__all__ = [
    "DATA_FILES",
    "Ability",
    "AbilityTraining",
    "Attribute",
    "Campaign",
    "CharacterSheet",
    "Items",
    "Shield",
    "SituationalPenalty",
    "TrainingResult",
    "Weapon",
    "package_data",
]

#: The package data files, merged in this order before any campaign file.
DATA_FILES = ("attributes.yaml", "abilities.yaml", "armoury.yaml", "tables.yaml")

Names = Annotated[list[str], Field(min_length=1)]
Wielding = Literal["either-hand", "sword-hand", "off-hand", "two-hands", "one-or-two-hands"]
Track = Literal["consistency", "potential"]


class Attribute(Model):
    """H-CHAR-1: an attribute, keyed by its short name, and its group."""

    name: str
    group: str
    description: str = ""


class Ability(Model):
    """H-CHAR-2, H-CHAR-3: an ability, the attribute(s) it is based on, its base consistency."""

    attributes: Names
    base_consistency: Annotated[int, Field(ge=-2, le=3)]
    aliases: list[str] = Field(default_factory=list)
    description: str = ""


class SituationalPenalty(Model):
    """H-DICE-6: ``amount`` off the consistency of rolls on an ability, attribute or group."""

    target: str
    amount: NonNegative


class Weapon(Model):
    """H-MOD-2: a weapon of the armoury; ``range`` is ``"melee"`` or a number of squares."""

    range: Literal["melee"] | NonNegative
    damage: NonNegative
    potential_bonus: int = 0
    wielding: Wielding
    abilities: Names


class Shield(Model):
    """H-MOD-2: a shield; its penalties apply while it is wielded."""

    potential_bonus: int = 0
    penalties: list[SituationalPenalty] = Field(default_factory=list)
    wielding: Literal["off-hand"] = "off-hand"
    abilities: Names


class AbilityTraining(Model):
    """H-CHAR-2, H-XP-3: trained consistency and potential, and which attribute progresses."""

    trained_consistency: Annotated[int, Field(ge=0, le=20)] = 0
    trained_potential: Annotated[int, Field(ge=0, le=20)] = 0
    progress_attribute: str | None = None


class Items(Model):
    """H-CHAR-5, H-ATK-2: armoury items wielded in each hand, and other things carried."""

    sword_hand: str | None = None
    off_hand: str | None = None
    carried: list[str] = Field(default_factory=list)
    pouch: list[str] = Field(default_factory=list)  # stored, not easily accessible (H-ACT-8)
    # counted (H-ACT-8)
    ammunition: dict[str, Annotated[int, Field(ge=0, le=10_000)]] = Field(default_factory=dict)


class CharacterSheet(Model):
    """H-CHAR-5: a character: attributes, maxima, trained abilities, items, skills, progress."""

    name: str
    side: str
    # Bounds, generous beside the rulebook's (attributes -3 to +3 at creation, a few hit
    # points and willpower): docs/decisions.md.
    attributes: dict[str, Annotated[int, Field(ge=-20, le=20)]]
    hit_points: Annotated[int, Field(ge=1, le=100)]
    willpower: Annotated[int, Field(ge=0, le=100)]
    abilities: dict[str, AbilityTraining] = Field(default_factory=dict)
    attribute_progress: dict[str, Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=dict
    )
    xp: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    items: Items = Items()
    skills: list[str] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class TrainingResult:
    """One point of ability training (H-XP-2, H-XP-3): the new sheet and what it cost."""

    sheet: CharacterSheet
    cost: int
    attribute: str
    attribute_increased: bool


class Campaign(Model):
    """A campaign: attributes, abilities, the armoury, tables and characters, cross-checked."""

    version: Literal[1] = 1
    title: str = ""
    attributes: Annotated[dict[str, Attribute], Field(min_length=1)]
    abilities: dict[str, Ability]
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    shields: dict[str, Shield] = Field(default_factory=dict)
    tables: Tables
    characters: dict[str, CharacterSheet] = Field(default_factory=dict)

    @classmethod
    def load(cls, *paths: str | Path) -> Campaign:
        """The package data with each campaign file laid over it in order."""
        return cls.from_documents(*(load_yaml(path) for path in paths))

    @classmethod
    def from_documents(cls, *documents: YamlDocument) -> Campaign:
        """As :meth:`load`, from documents already parsed."""
        document = package_data()
        for more in documents:
            document = merge_documents(document, more)
        return validate(cls, document)

    @staticmethod
    def default() -> Campaign:
        """The package data alone (cached)."""
        return _default_campaign()

    @model_validator(mode="after")
    def _cross_check(self) -> Campaign:
        problems = list(self._problems())
        if problems:
            raise Problems(problems)
        return self

    # -- names ---------------------------------------------------------------------------

    def groups(self) -> frozenset[str]:
        """H-CHAR-1: the attribute groups.

        >>> sorted(Campaign.default().groups())
        ['mental', 'physical']
        """
        return frozenset(attribute.group for attribute in self.attributes.values())

    def ability_name(self, name: str) -> str:
        """The ability's name as the campaign spells it (case and aliases ignored).

        >>> Campaign.default().ability_name("shield and sword")
        'Sword and shield'
        """
        index = self._ability_index
        if name.casefold() not in index:
            raise ValueError(unknown_name("ability", name, self.abilities))
        return index[name.casefold()]

    def ability(self, name: str) -> Ability:
        """The ability called ``name`` (or one of its aliases)."""
        return self.abilities[self.ability_name(name)]

    def weapon_abilities(self, weapon: str) -> list[str]:
        """H-MOD-2: the abilities a weapon or shield is used with, as the campaign names them.

        >>> Campaign.default().weapon_abilities("Throwing weapon")
        ['Throwing', 'Knife fighting']
        """
        item = self.weapons.get(weapon) or self.shields.get(weapon)
        if item is None:
            raise ValueError(
                unknown_name("weapon or shield", weapon, {**self.weapons, **self.shields})
            )
        return [self.ability_name(name) for name in item.abilities]

    # -- the sheet arithmetic --------------------------------------------------------------

    def training(self, sheet: CharacterSheet, ability: str) -> AbilityTraining:
        """The sheet's training in an ability (none if it is not written down)."""
        name = self.ability_name(ability)
        key = self._training_key(sheet, name)
        return sheet.abilities[key] if key is not None else AbilityTraining()

    def base_potential(self, sheet: CharacterSheet, ability: str) -> int:
        """H-CHAR-2: the ability's attribute, or the floor of the average of its attributes."""
        return base_potential([sheet.attributes[a] for a in self.ability(ability).attributes])

    def ability_consistency(
        self, sheet: CharacterSheet, ability: str, penalties: Iterable[SituationalPenalty] = ()
    ) -> int:
        """H-CHAR-2, H-DICE-6: base + trained consistency, less the penalties that reach it.

        A penalty reaches an ability when it targets the ability, one of its attributes
        or the group of one of them; each penalty counts once.

        >>> heimr = Campaign.default()
        >>> eirik = CharacterSheet(name="Eirik", side="a", hit_points=4, willpower=3,
        ...     attributes={"str": 0, "dex": 3, "sta": 0, "int": 1, "soc": -1, "emp": 0})
        >>> dark = [SituationalPenalty(target="physical", amount=2),
        ...         SituationalPenalty(target="dex", amount=1)]
        >>> heimr.ability_consistency(eirik, "Agility", dark)  # 1 + 0 - 2 - 1
        -2
        >>> heimr.ability_consistency(eirik, "Perception", dark)  # int is mental
        0
        """
        name = self.ability_name(ability)
        trained = self.training(sheet, name).trained_consistency
        return self.abilities[name].base_consistency + trained - self.penalty_on(name, penalties)

    def ability_potential(self, sheet: CharacterSheet, ability: str) -> int:
        """H-CHAR-2: base potential + trained potential."""
        return self.base_potential(sheet, ability) + self.training(sheet, ability).trained_potential

    def ability_challenge(
        self, sheet: CharacterSheet, ability: str, penalties: Iterable[SituationalPenalty] = ()
    ) -> DiceChallenge:
        """H-CHAR-2, H-DICE-6: the dice challenge of an ability roll."""
        consistency = self.ability_consistency(sheet, ability, penalties)
        return DiceChallenge(consistency, self.ability_potential(sheet, ability))

    def attribute_challenge(
        self,
        sheet: CharacterSheet,
        attribute: str,
        consistency: int,
        penalties: Iterable[SituationalPenalty] = (),
    ) -> DiceChallenge:
        """H-CHAR-4, H-DICE-6: an attribute roll; the GM picks C, the attribute is P.

        Penalties on the attribute or its group lower the consistency.

        >>> heimr = Campaign.default()
        >>> hrolf = CharacterSheet(name="Hrolf", side="b", hit_points=5, willpower=2,
        ...     attributes={"str": 3, "dex": 1, "sta": 1, "int": -1, "soc": 0, "emp": -1})
        >>> str(heimr.attribute_challenge(hrolf, "str", 5))  # arm wrestling: 4 to 6
        'C5P3'
        """
        if attribute not in self.attributes:
            raise ValueError(unknown_name("attribute", attribute, self.attributes))
        targets = {attribute, self.attributes[attribute].group}
        penalty = situational_penalty(self._penalty_pairs(penalties), targets)
        return DiceChallenge(consistency - penalty, sheet.attributes[attribute])

    def penalty_on(self, ability: str, penalties: Iterable[SituationalPenalty]) -> int:
        """H-DICE-6: the total of the penalties that reach an ability."""
        name = self.ability_name(ability)
        spec = self.abilities[name]
        targets = {name, *spec.aliases, *spec.attributes}
        targets |= {self.attributes[a].group for a in spec.attributes}
        return situational_penalty(self._penalty_pairs(penalties), targets)

    def item_penalties(self, items: Items) -> list[SituationalPenalty]:
        """H-MOD-2: the situational penalties of the shields wielded (the tower shield's sta 1).

        >>> Campaign.default().item_penalties(Items(off_hand="Tower shield"))
        [SituationalPenalty(target='sta', amount=1)]
        """
        held = (items.sword_hand, items.off_hand)
        return [p for name in held if name in self.shields for p in self.shields[name].penalties]

    def base_fatigue(self, sheet: CharacterSheet) -> int:
        """H-FAT-3: max(1, 4 - sta), with the numbers of the fatigue table."""
        table = self.tables.fatigue
        return base_fatigue(
            sheet.attributes[table.attribute], base=table.base, minimum=table.minimum
        )

    def train(
        self,
        sheet: CharacterSheet,
        ability: str,
        track: Track,
        attribute: str | None = None,
    ) -> TrainingResult:
        """H-XP-2, H-XP-3: spend XP on one point of trained consistency or potential.

        The attribute (chosen among a multi-attribute ability's, by ``attribute`` or the
        training's ``progress_attribute``) gains one progress and may rise by one.

        >>> heimr = Campaign.default()
        >>> sheet = CharacterSheet(name="Astrid", side="b", hit_points=5, willpower=3, xp=20,
        ...     attributes={"str": 2, "dex": 0, "sta": 2, "int": 0, "soc": 0, "emp": -1},
        ...     abilities={"Swordmanship": {"trained_consistency": 1}},
        ...     attribute_progress={"sta": 9})
        >>> step = heimr.train(sheet, "Swordmanship", "consistency", attribute="sta")
        >>> step.cost, step.sheet.xp, step.sheet.attributes["sta"], step.attribute_increased
        (10, 10, 3, True)
        >>> heimr.ability_challenge(step.sheet, "Swordmanship")  # P: floor((2 + 3) / 2)
        DiceChallenge(consistency=2, potential=2)
        """
        if track not in ("consistency", "potential"):
            raise ValueError(f"train 'consistency' or 'potential', not {track!r}")
        name = self.ability_name(ability)
        current = self.training(sheet, name)
        field = f"trained_{track}"
        level = getattr(current, field) + 1
        cost = training_cost(level, self.tables.training_costs)
        if cost > sheet.xp:
            raise ValueError(f"{sheet.name} has {sheet.xp} XP; {name} {track} {level} costs {cost}")
        chosen = self._progress_attribute(name, current, attribute)
        value = sheet.attributes[chosen]
        new_value, progress = add_attribute_progress(
            value, sheet.attribute_progress.get(chosen, 0), 1, self.tables.attribute_progress
        )
        key = self._training_key(sheet, name) or name
        updated = sheet.model_copy(
            update={
                "abilities": {**sheet.abilities, key: current.model_copy(update={field: level})},
                "attributes": {**sheet.attributes, chosen: new_value},
                "attribute_progress": {**sheet.attribute_progress, chosen: progress},
                "xp": sheet.xp - cost,
            }
        )
        return TrainingResult(updated, cost, chosen, new_value > value)

    def check_sheet(self, sheet: CharacterSheet) -> None:
        """Raise :class:`CampaignError` if the sheet names anything this campaign lacks."""
        problems = list(self._sheet_problems(sheet))
        if problems:
            lines = [f"character {sheet.name!r}, {format_path(p)}: {m}" for p, m in problems]
            raise CampaignError("\n".join(lines))

    # -- helpers ---------------------------------------------------------------------------

    @property
    def _ability_index(self) -> dict[str, str]:
        """Every ability's name and alias, casefolded, to its name: worked out once for
        these abilities (the campaign is frozen; a model_copy with other abilities shares
        the kept index, and makes its own)."""
        kept = self.__dict__.get("_kept_index")
        if kept is None or kept[0] is not self.abilities:
            index: dict[str, str] = {}
            for name, spec in self.abilities.items():
                for label in (name, *spec.aliases):
                    index.setdefault(label.casefold(), name)
            kept = self.__dict__["_kept_index"] = (self.abilities, index)
        found: dict[str, str] = kept[1]
        return found

    def _training_key(self, sheet: CharacterSheet, name: str) -> str | None:
        index = self._ability_index
        return next((k for k in sheet.abilities if index.get(k.casefold()) == name), None)

    def _progress_attribute(
        self, name: str, current: AbilityTraining, attribute: str | None
    ) -> str:
        based_on = self.abilities[name].attributes
        chosen = attribute or current.progress_attribute
        if chosen is None:
            if len(based_on) > 1:
                raise ValueError(f"{name} is based on {', '.join(based_on)}: choose one")
            chosen = based_on[0]
        if chosen not in based_on:
            raise ValueError(f"{name} is based on {', '.join(based_on)}, not {chosen!r}")
        return chosen

    def _penalty_pairs(self, penalties: Iterable[SituationalPenalty]) -> list[tuple[str, int]]:
        pairs = [(p.target, p.amount) for p in penalties]
        for target, _ in pairs:
            if target.casefold() not in self._target_names():
                known = [*self.abilities, *self.attributes, *self.groups()]
                raise ValueError(unknown_name("penalty target", target, known))
        return pairs

    def _target_names(self) -> set[str]:
        return {*self._ability_index, *(a.casefold() for a in self.attributes)} | {
            g.casefold() for g in self.groups()
        }

    def _problems(self) -> Iterator[tuple[KeyPath, str]]:
        groups = {group.casefold() for group in self.groups()}
        for short in self.attributes:
            if short.casefold() in groups:
                yield ("attributes", short), f"{short!r} is also the name of a group"
        seen: dict[str, str] = {}
        attributes = {a.casefold() for a in self.attributes}
        for name, spec in self.abilities.items():
            for i, attribute in enumerate(spec.attributes):
                if attribute not in self.attributes:
                    message = unknown_name("attribute", attribute, self.attributes)
                    yield ("abilities", name, "attributes", i), message
            for label in (name, *spec.aliases):
                key = label.casefold()
                if key in seen:
                    yield ("abilities", name), f"{label!r} also names the ability {seen[key]!r}"
                elif key in attributes or key in groups:
                    yield ("abilities", name), f"{label!r} is also an attribute or group"
                seen.setdefault(key, name)
        for table, items in (("weapons", self.weapons), ("shields", self.shields)):
            for item_name, item in items.items():
                for i, ability in enumerate(item.abilities):
                    if ability.casefold() not in seen:
                        yield (
                            (table, item_name, "abilities", i),
                            unknown_name("ability", ability, self.abilities),
                        )
        for shield_name, shield in self.shields.items():
            for i, penalty in enumerate(shield.penalties):
                if penalty.target.casefold() not in self._target_names():
                    known = [*self.abilities, *self.attributes, *self.groups()]
                    message = unknown_name("penalty target", penalty.target, known)
                    yield ("shields", shield_name, "penalties", i, "target"), message
        if self.tables.fatigue.attribute not in self.attributes:
            message = unknown_name("attribute", self.tables.fatigue.attribute, self.attributes)
            yield ("tables", "fatigue", "attribute"), message
        for key, sheet in self.characters.items():
            for path, message in self._sheet_problems(sheet):
                yield ("characters", key, *path), message

    def _sheet_problems(self, sheet: CharacterSheet) -> Iterator[tuple[KeyPath, str]]:
        missing = [a for a in self.attributes if a not in sheet.attributes]
        if missing:
            yield ("attributes",), f"missing {', '.join(missing)}"
        for short in sheet.attributes:
            if short not in self.attributes:
                yield ("attributes", short), unknown_name("attribute", short, self.attributes)
        index = self._ability_index
        trained: dict[str, str] = {}
        for label, training in sheet.abilities.items():
            name = index.get(label.casefold())
            if name is None:
                yield ("abilities", label), unknown_name("ability", label, self.abilities)
                continue
            if name in trained:
                yield ("abilities", label), f"the same ability as {trained[name]!r}"
            trained.setdefault(name, label)
            chosen = training.progress_attribute
            based_on = self.abilities[name].attributes
            if chosen is not None and chosen not in based_on:
                message = f"{name} is based on {', '.join(based_on)}, not {chosen!r}"
                yield ("abilities", label, "progress_attribute"), message
        for short, progress in sheet.attribute_progress.items():
            if short not in self.attributes:
                yield (
                    ("attribute_progress", short),
                    unknown_name("attribute", short, self.attributes),
                )
            elif short in sheet.attributes:
                new = sheet.attributes[short] + 1
                need = attribute_progress_required(new, self.tables.attribute_progress)
                if progress >= need:
                    message = f"{progress} already reaches the {need} needed for {short} {new}"
                    yield ("attribute_progress", short), message
        yield from self._item_problems(sheet.items)

    def _item_problems(self, items: Items) -> Iterator[tuple[KeyPath, str]]:
        known = {**self.weapons, **self.shields}
        sword = self.weapons.get(items.sword_hand or "")
        if items.sword_hand is not None:
            if items.sword_hand in self.shields:
                yield ("items", "sword_hand"), f"a {items.sword_hand} is wielded in the off-hand"
            elif sword is None:
                yield (
                    ("items", "sword_hand"),
                    unknown_name("weapon", items.sword_hand, self.weapons),
                )
        if items.off_hand is not None:
            off = self.weapons.get(items.off_hand)
            if items.off_hand not in known:
                yield ("items", "off_hand"), unknown_name("weapon or shield", items.off_hand, known)
            elif off is not None and off.wielding != "either-hand":
                message = f"a {items.off_hand} is wielded {off.wielding}, not in the off-hand"
                yield ("items", "off_hand"), message
            elif sword is not None and sword.wielding == "two-hands":
                message = f"the {items.sword_hand} takes both hands"
                yield ("items", "off_hand"), message


def package_data() -> YamlDocument:
    """The Heimr package data (``data/*.yaml``) merged into one document."""
    return yamlfile.package_data("fracas.rules.heimr", DATA_FILES)


@cache
def _default_campaign() -> Campaign:
    return validate(Campaign, package_data())
