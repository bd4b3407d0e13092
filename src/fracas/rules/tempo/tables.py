"""The tempo rules' data: the action table, statuses, armoury and character sheets.

The package data (``data/*.yaml``) holds seed 003's tables and fracas's defaults for
what the seed leaves open (T-OPEN-1); a campaign lays its own YAML over it key by key.
Everything is validated and cross-checked here, so the rules read trusted data.

>>> tables = TempoTables.load()
>>> tables.actions["Parry"].response_to
['Melee Attack', 'Unarmed Attack']
>>> tables.cost("Feint", tables.weapons["Dagger"]), tables.round.ap
(2, 12)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, cached_property
from types import MappingProxyType
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas import yamlfile
from fracas.dice import DiceError, parse
from fracas.yamlfile import (
    KeyPath,
    Problems,
    YamlDocument,
    merge_documents,
    unknown_name,
    validate,
)

__all__ = ["ActionSpec", "Offer", "Row", "Sheet", "TempoTables", "Weapon", "verb_of"]

DATA_FILES = ("statuses.yaml", "actions.yaml", "armoury.yaml", "characters.yaml")
NAMED_DTS = ("Combat Defence", "Combat Defence (Armoured)", "Grapple Defence")
#: The effects an outcome row may list (``self``/``target`` take a status, ``regain`` a number).
EFFECT = re.compile(
    r"cancel|damage|damage ignoring armour|aim|disarm|regain \d+|(self|target) .+"
    r"|move|move unless hit|edge|surge|edge away|withdraw"
)

NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Kind = Literal["proactive", "reactive", "counter-tempo", "special"]


class Model(BaseModel):
    """Frozen, strict, no unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Round(Model):
    """T-ROUND-1: AP a round, its length and the counter's first value."""

    ap: Positive
    seconds: Positive
    first: int
    initiative: Literal["written", "rolled"] = "written"
    initiative_skill: str = "initiative"


class Status(Model):
    """T-STAT-1: a status; ``engaged`` ties its holder to one opponent (bind, grapple, pin)."""

    engaged: bool
    summary: str = ""


class Row(Model):
    """One row of an outcome table (T-RES-2): from ``dt`` up, ``outcome`` with its effects."""

    dt: int | Literal["-", "Combat Defence", "Combat Defence (Armoured)", "Grapple Defence"]
    outcome: str
    effects: list[str] = Field(default_factory=list)
    text: str = ""


class Replacement(Model):
    """A counter-tempo replacement an action allows after ``reaction`` (the feint's)."""

    reaction: str
    action: str
    bonus: int = 0


class Bonus(Model):
    """``amount`` added to the check when answering the action ``answering``."""

    answering: str
    amount: int


class ActionSpec(Model):
    """A row of the action table (T-ACT-1..3, T-STAM-1); see ``data/actions.yaml``."""

    kind: Kind
    ap: NonNegative | Literal["weapon"]
    statuses: Annotated[list[str], Field(min_length=1)]
    check: str | None
    weapon: Literal["melee", "ranged"] | None = None
    target: Literal["none", "opponent", "engaged"] = "none"
    response_to: list[str] = Field(default_factory=list)
    replacement_for: list[str] = Field(default_factory=list)
    declared_as: str | None = None
    replacements: list[Replacement] = Field(default_factory=list)
    bonuses: list[Bonus] = Field(default_factory=list)
    beyond_attack_speed: bool = False
    movement: bool = False  # T-MOVE-1: to= and from= say where it goes
    reach: bool = False  # T-MOVE-1: only within reach (see data/actions.yaml)
    verb: str | None = None
    summary: str = ""
    outcomes: Annotated[list[Row], Field(min_length=1)]


class Weapon(Model):
    """T-OPEN-1: a weapon's AP cost (with per-action exceptions), attack speed, damage."""

    kind: Literal["melee", "ranged"]
    ap: Positive
    costs: dict[str, Positive] = Field(default_factory=dict)
    speed: NonNegative | None = None
    damage: str
    aimed: int = 0


class Unarmed(Model):
    ap: Positive
    damage: str


class Armour(Model):
    protection: NonNegative


class Defaults(Model):
    hp: Positive
    combat_defence: int
    grapple_defence: int
    armour: str


class Sheet(Model):
    """A tempo character: skill ratings, weapons (the first of a kind is the default), armour."""

    name: str
    side: str
    # Bounds, generous beside the rules' (12 HP, skills 0 to 3): docs/decisions.md.
    hp: Annotated[int, Field(ge=1, le=1000)] | None = None
    skills: dict[str, Annotated[int, Field(ge=-20, le=20)]] = Field(default_factory=dict)
    weapons: list[str] = Field(default_factory=list)
    armour: str | None = None
    combat_defence: Annotated[int, Field(ge=-20, le=20)] | None = None
    grapple_defence: Annotated[int, Field(ge=-20, le=20)] | None = None


class TempoTables(Model):
    """Every table the tempo rules read, cross-checked."""

    round: Round
    starting_status: str
    prepared_status: str
    freed_status: str
    statuses: Annotated[dict[str, Status], Field(min_length=1)]
    actions: dict[str, ActionSpec]
    weapons: dict[str, Weapon]
    unarmed: Unarmed
    armour: dict[str, Armour]
    skills: list[str]
    defaults: Defaults
    characters: dict[str, Sheet] = Field(default_factory=dict)

    @classmethod
    def load(cls, campaign: Mapping[str, Any] | None = None) -> TempoTables:
        """The package data with ``campaign`` laid over it; :class:`CampaignError` if wrong."""
        if not campaign:
            return _default()
        document = merge_documents(_package_data(), YamlDocument(dict(campaign), name="campaign"))
        return validate(cls, document)

    @classmethod
    def check_document(cls, document: YamlDocument) -> None:
        """Validate a campaign file laid over the package data, naming its file and lines."""
        validate(cls, merge_documents(_package_data(), document))

    # -- reading -------------------------------------------------------------------------

    def by_verb(self, verb: str) -> str | None:
        """The action a verb of the notation names (``melee-attack``: Melee Attack)."""
        return self.verbs.get(verb)

    @cached_property
    def verbs(self) -> dict[str, str]:
        """Each verb of the notation and the action it names."""
        return {spec.verb or verb_of(name): name for name, spec in self.actions.items()}

    @cached_property
    def verb_names(self) -> dict[str, str]:
        """Each action's verb in the notation, by the action's name."""
        return {name: spec.verb or verb_of(name) for name, spec in self.actions.items()}

    def verb(self, action: str) -> str:
        return self.verb_names[action]

    # -- what legality reads again and again, worked out once --------------------------

    def default_weapon(self, action: str, weapons: Sequence[str]) -> tuple[bool, str | None]:
        """The weapon of ``weapons`` that ``action`` is made with when none is chosen, as
        ``(fits, weapon)``: the first of the kind it asks for (``(False, None)``: none),
        else for an action costing "By Weapon" the first melee weapon (else unarmed),
        else ``None``."""
        spec = self.actions[action]
        if spec.weapon is not None:
            for name in weapons:
                if self.weapons[name].kind == spec.weapon:
                    return True, name
            return False, None
        if spec.ap != "weapon":
            return True, None
        for name in weapons:  # Grapple: the melee weapon in hand, else unarmed
            if self.weapons[name].kind == "melee":
                return True, name
        return True, None

    def offers(
        self, kind: Literal["turn", "reactive"], status: str, weapons: tuple[str, ...]
    ) -> tuple[Offer, ...]:
        """The actions of ``kind`` open to one with ``status`` (T-STAT-1) and ``weapons``
        (the weapon each asks for), each with its default weapon and AP cost, in table
        order; ``"turn"`` is the proactive actions and then Recover Stamina."""
        key = (kind, status, weapons)
        found = self._offers.get(key)
        if found is None:
            if kind == "turn":
                names = [n for n, spec in self.actions.items() if spec.kind == "proactive"]
                names.append("Recover Stamina")
            else:
                names = [n for n, spec in self.actions.items() if spec.kind == kind]
            offered = []
            for name in names:
                spec = self.actions[name]
                fits, chosen = self.default_weapon(name, weapons)
                if fits and status in spec.statuses:
                    used = None if chosen is None else self.weapons[chosen]
                    offered.append(Offer(name, self.verb(name), spec, self.cost(name, used)))
            if len(self._offers) >= MAX_OFFERS:
                self._offers.clear()
            found = self._offers[key] = tuple(offered)
        return found

    @cached_property
    def _offers(self) -> dict[tuple[str, str, tuple[str, ...]], tuple[Offer, ...]]:
        return {}

    @cached_property
    def _replacements(self) -> dict[tuple[str, str], Mapping[str, int]]:
        return {}

    @cached_property
    def _windows(self) -> dict[tuple[str, str], bool]:
        return {}

    def counter_window(self, looks: str, theirs: str) -> bool:
        """Whether any action that looks like ``looks`` may be replaced after the reaction
        ``theirs`` (see :func:`.legality.counter_window`)."""
        key = (looks, theirs)
        found = self._windows.get(key)
        if found is None:
            found = self._windows[key] = any(
                self.replacement_options(name, theirs)
                for name, spec in self.actions.items()
                if (spec.declared_as or name) == looks
            )
        return found

    def replacement_options(self, mine: str, theirs: str) -> Mapping[str, int]:
        """T-ACT-3: what may replace the proactive ``mine`` after the reaction ``theirs``,
        with the bonus (the feint's Counter-Attack after a Parry: +3)."""
        key = (mine, theirs)
        found = self._replacements.get(key)
        if found is None:
            made = {
                name: 0
                for name, spec in self.actions.items()
                if spec.kind == "counter-tempo"
                and theirs in spec.response_to
                and mine in spec.replacement_for
            }
            for extra in self.actions[mine].replacements:
                if extra.reaction == theirs:
                    made[extra.action] = extra.bonus
            self._replacements[key] = found = MappingProxyType(made)  # shared: read-only
        return found

    def cost(self, action: str, weapon: Weapon | None) -> int:
        """The AP cost of ``action`` made with ``weapon`` (``None``: unarmed)."""
        ap = self.actions[action].ap
        if ap != "weapon":
            return ap
        if weapon is None:
            return self.unarmed.ap
        return weapon.costs.get(action, weapon.ap)

    # -- checking ------------------------------------------------------------------------

    @model_validator(mode="after")
    def _cross_check(self) -> TempoTables:
        problems = list(self._problems())
        if problems:
            raise Problems(problems)
        return self

    def _problems(self) -> Iterator[tuple[KeyPath, str]]:
        for key in ("starting_status", "prepared_status", "freed_status"):
            if getattr(self, key) not in self.statuses:
                yield (key,), unknown_name("status", getattr(self, key), self.statuses)
        for name, spec in self.actions.items():
            yield from self._action_problems(name, spec)
        for name, weapon in self.weapons.items():
            yield from _dice_problem(("weapons", name, "damage"), weapon.damage)
            for action in weapon.costs:
                if action not in self.actions:
                    where = ("weapons", name, "costs", action)
                    yield where, unknown_name("action", action, self.actions)
            for action, spec in self.actions.items():
                shown = spec.declared_as
                if shown in self.actions and self.cost(action, weapon) != self.cost(shown, weapon):
                    yield (
                        ("weapons", name, "costs"),
                        (f"{action} must cost what {shown} costs, or its AP would give it away"),
                    )
        yield from _dice_problem(("unarmed", "damage"), self.unarmed.damage)
        if self.defaults.armour not in self.armour:
            yield ("defaults", "armour"), unknown_name("armour", self.defaults.armour, self.armour)
        for cid, sheet in self.characters.items():
            yield from self._sheet_problems(cid, sheet)
        if len(self.verbs) != len(self.actions):
            yield ("actions",), "two actions share a verb"

    def _action_problems(self, name: str, spec: ActionSpec) -> Iterator[tuple[KeyPath, str]]:
        at: KeyPath = ("actions", name)
        for status in spec.statuses:
            if status not in self.statuses:
                yield (*at, "statuses"), unknown_name("status", status, self.statuses)
        if spec.check is not None and spec.check not in self.skills:
            yield (*at, "check"), unknown_name("skill", spec.check, self.skills)
        named = [
            *spec.response_to,
            *spec.replacement_for,
            *([spec.declared_as] if spec.declared_as else []),
            *(r.reaction for r in spec.replacements),
            *(r.action for r in spec.replacements),
            *(b.answering for b in spec.bonuses),
        ]
        for other in named:
            if other not in self.actions:
                yield at, unknown_name("action", other, self.actions)
        if spec.outcomes[0].dt != "-":
            yield (*at, "outcomes"), 'the first row is the floor, with dt "-"'
        for i, row in enumerate(spec.outcomes):
            if i and row.dt == "-":
                yield (*at, "outcomes", i, "dt"), 'only the first row has dt "-"'
            for effect in row.effects:
                yield from self._effect_problems((*at, "outcomes", i, "effects"), effect)
        numbers = [r.dt for r in spec.outcomes if isinstance(r.dt, int)]
        if numbers != sorted(numbers):
            yield (*at, "outcomes"), "the rows go from the lowest threshold up"

    def _effect_problems(self, at: KeyPath, effect: str) -> Iterator[tuple[KeyPath, str]]:
        if not EFFECT.fullmatch(effect):
            yield at, f"unknown effect {effect!r}"
        elif effect.startswith(("self ", "target ")):
            status = effect.split(" ", 1)[1]
            if status not in self.statuses:
                yield at, unknown_name("status", status, self.statuses)

    def _sheet_problems(self, cid: str, sheet: Sheet) -> Iterator[tuple[KeyPath, str]]:
        at: KeyPath = ("characters", cid)
        for skill in sheet.skills:
            if skill not in self.skills:
                yield (*at, "skills", skill), unknown_name("skill", skill, self.skills)
        for i, weapon in enumerate(sheet.weapons):
            if weapon not in self.weapons:
                yield (*at, "weapons", i), unknown_name("weapon", weapon, self.weapons)
        if sheet.armour is not None and sheet.armour not in self.armour:
            yield (*at, "armour"), unknown_name("armour", sheet.armour, self.armour)


class Offer(NamedTuple):
    """An action open to a combatant (:meth:`TempoTables.offers`)."""

    name: str
    verb: str
    spec: ActionSpec
    cost: int  # AP, with the default weapon


#: Combinations of status and weapons whose offers are kept (then they are worked out anew).
MAX_OFFERS = 1000


def verb_of(action: str) -> str:
    """The notation's verb for an action: ``CT Counter-Attack`` is ``ct-counter-attack``."""
    return action.lower().replace(" ", "-")


def _dice_problem(at: KeyPath, text: str) -> Iterator[tuple[KeyPath, str]]:
    try:
        parse("standard", text)
    except DiceError as err:
        yield at, f"not a damage roll: {err}"


def _package_data() -> YamlDocument:
    return yamlfile.package_data("fracas.rules.tempo", DATA_FILES)


@cache
def _default() -> TempoTables:
    return validate(TempoTables, _package_data())
