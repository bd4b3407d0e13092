"""Ledger entries and the fold that turns them into a campaign's standing.

An entry is a kind, a character (for most kinds) and a payload; :func:`apply` carries one
out on a :class:`Standing` with the rules' own functions (H-XP-1 division, H-XP-2/3
training, the classic creation and raise checks HC-STAT-1/2, HC-SOC-1, HC-XP-1), and
refuses it with a :class:`LedgerError` naming the field when the rules do. The sheets are
never stored as they stand: they are folded from the campaign file and the entries in
play, so an undone entry is simply left out.

>>> from fracas.ledger.books import books
>>> rules = Rules(books("heimr"), {})
>>> start = Standing({"ylva": {"name": "Ylva", "side": "a", "hit_points": 4, "willpower": 3,
...     "attributes": {"str": 1, "dex": 1, "sta": 1, "int": 0, "soc": 0, "emp": 0}}})
>>> after = apply(rules, start, "award", None, {"xp": 10, "group": "a", "characters": ["ylva"]})
>>> after.characters["ylva"]["xp"], after.leftovers
(10, {'a': 0})
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ValidationError

from fracas.ledger.books import Books, books, ruleset_ids
from fracas.yamlfile import CampaignError, KeyPath, format_path

__all__ = ["KINDS", "LedgerError", "Rules", "Standing", "apply"]


class LedgerError(ValueError):
    """An entry the rules refuse, or a request the ledger cannot carry out; nothing changes.

    ``problems`` holds each mistake at its field (a path inside the sheet or payload).
    """

    def __init__(self, message: str, problems: list[tuple[KeyPath, str]] | None = None) -> None:
        self.problems = problems or []
        super().__init__(message)


@dataclass
class Standing:
    """A campaign's books at one moment: sheets, what was carried out of encounters, and
    the XP left over per group (H-XP-1)."""

    characters: dict[str, dict[str, Any]] = field(default_factory=dict)
    carried: dict[str, dict[str, Any]] = field(default_factory=dict)
    leftovers: dict[str, int] = field(default_factory=dict)

    def copy(self) -> Standing:
        return copy.deepcopy(self)


@dataclass
class Rules:
    """A ruleset's books and a campaign's own data: what entries are checked against."""

    books: Books
    data: Mapping[str, Any]
    #: Replaying entries already checked when they were recorded: sheets are read by
    #: their model alone, not cross-checked against the campaign again.
    replaying: bool = False

    @property
    def ruleset(self) -> str:
        return self.books.ruleset

    @cached_property
    def campaign(self) -> Any:
        """The campaign's tables (its characters left out: they come from the ledger)."""
        found, problems = self.books.campaign({**self.data, "characters": {}})
        if found is None:
            raise LedgerError(_joined("the campaign", problems), problems)
        return found

    def sheet(self, key: str, data: Any) -> BaseModel:
        """The sheet model of ``data``, checked against the campaign; errors per field."""
        if self.replaying:
            return self.books.sheet_model.model_validate(data)
        problems = self.books.sheet_problems(self.data, key, data)
        if problems:
            raise LedgerError(_joined(f"character {key!r}", problems), problems)
        return self.books.sheet_model.model_validate(data)


def _joined(what: str, problems: list[tuple[KeyPath, str]]) -> str:
    parts = [f"{format_path(p)}: {m}" if p else m for p, m in problems]
    return f"{what}: " + "; ".join(parts)


def _number(payload: Mapping[str, Any], key: str, minimum: int = 0) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError(f"{key} should be a whole number, not {value!r}", [((key,), "a number")])
    if value < minimum:
        raise LedgerError(f"{key} should be at least {minimum}, not {value}", [((key,), "too low")])
    return value


def _character(standing: Standing, key: str | None) -> dict[str, Any]:
    if key is None:
        raise LedgerError("name the character")
    if key not in standing.characters:
        known = ", ".join(sorted(standing.characters)) or "none yet"
        raise LedgerError(f"no character {key!r} in this campaign (known: {known})")
    return standing.characters[key]


def _offered(rules: Rules, name: str) -> Any:
    """What the ruleset offers the ledger as ``name`` (its ``sheets`` capability's, or
    its campaign model's ``train``), or ``None``."""
    return _offer(rules.books, name)


def _offer(books: Books, name: str) -> Any:
    if name == "train":
        return getattr(books.campaign_model, "train", None)
    return getattr(books.own, name, None)


def _needs(rules: Rules, kind: str, name: str) -> Any:
    """What the ruleset offers as ``name``; :class:`LedgerError` naming the rulesets
    that have it when it has not."""
    found = _offered(rules, name)
    if not found:
        having = [r for r in ruleset_ids() if _offer(books(r), name)] or ["no"]
        raise LedgerError(f"{kind} is for {' and '.join(having)} campaigns, not {rules.ruleset}")
    return found


# -- the kinds ------------------------------------------------------------------------------

Apply = Callable[[Rules, Standing, str | None, dict[str, Any]], None]


def _set_character(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """Add a character or replace its sheet (validated by the ruleset's sheet model)."""
    if not key:
        raise LedgerError("a character needs a key", [(("key",), "required")])
    sheet = rules.sheet(key, p.get("sheet"))
    if _offered(rules, "sheet_warnings") and not rules.replaying:
        p["warnings"] = _warnings(rules, sheet)
    s.characters[key] = rules.books.dump(sheet)


def _create(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """HC-STAT-1, HC-STAT-2, HC-SOC-1: a classic character made with the creation points."""
    _needs(rules, "creation by points", "creates_by_points")
    if key in s.characters:
        raise LedgerError(f"there is already a character {key!r}: edit it instead")
    sheet = p.get("sheet")
    if isinstance(sheet, Mapping) and (sheet.get("raised") or sheet.get("xp")):
        raise LedgerError("a new character has no XP yet and nothing raised", [(("raised",), "")])
    _set_character(rules, s, key, p)
    made = _offered(rules, "created")
    if made is not None:
        s.characters[str(key)] = made(rules.campaign, s.characters[str(key)])


def _warnings(rules: Rules, sheet: Any) -> list[str]:
    """What the ruleset warns of in ``sheet``; :class:`LedgerError` for what it refuses."""
    warn = _offered(rules, "sheet_warnings")
    if rules.replaying or warn is None:
        return []
    try:
        found: list[str] = warn(rules.campaign, sheet)
    except ValueError as err:
        raise LedgerError(str(err), [((), str(err))]) from None
    return found


def _award(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """H-XP-1: XP divided among the characters present, the remainder kept for the group."""
    _needs(rules, "an XP award", "awards_xp")
    xp = _number(p, "xp")
    present = p.get("characters")
    if not isinstance(present, list) or not present:
        raise LedgerError("name the characters present", [(("characters",), "required")])
    for who in present:
        _character(s, who)
    divide = _offered(rules, "divide_xp")
    if divide is not None:
        group = str(p.get("group") or "")
        if not group:
            raise LedgerError("name the group the XP is divided among", [(("group",), "")])
        each, remainder = divide(xp, len(present), s.leftovers.get(group, 0))
        s.leftovers[group] = remainder
        p["each"], p["remainder"] = each, remainder
    else:
        each = xp  # each character is given its XP: nothing is divided
    for who in present:
        sheet = s.characters[who]
        sheet["xp"] = int(sheet.get("xp", 0)) + each


def _train(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """H-XP-2, H-XP-3: one point of an ability's consistency or potential for XP."""
    _needs(rules, "ability training", "train")
    sheet = rules.sheet(str(key), _character(s, key))
    try:
        result = rules.campaign.train(
            sheet, str(p.get("ability", "")), p.get("track", ""), p.get("attribute") or None
        )
    except ValueError as err:
        raise LedgerError(str(err), [(("ability",), str(err))]) from None
    p["cost"], p["attribute_raised"] = result.cost, result.attribute_increased
    p["progress_attribute"] = result.attribute
    s.characters[str(key)] = rules.books.dump(result.sheet)


def _raise(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """HC-XP-1: a statistic raised with XP (above 10 only with the DM's permission)."""
    lift = _needs(rules, "raising a statistic", "raise_statistic")
    data = copy.deepcopy(_character(s, key))
    rules.sheet(str(key), data)
    points = _number(p, "points", 1) if "points" in p else 1
    try:
        data, name, to, p["cost"] = lift(rules.campaign, data, str(p.get("statistic", "")), points)
    except ValueError as err:
        raise LedgerError(str(err)) from None
    p["statistic"], p["to"] = name, to
    checked = rules.sheet(str(key), data)
    _warnings(rules, checked)
    s.characters[str(key)] = rules.books.dump(checked)


def _permit(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """HC-XP-1: the DM's permission to raise a statistic to 11 or 12 (or its withdrawal)."""
    _needs(rules, "the DM's permission", "permits")
    sheet = _character(s, key)
    granted = p.setdefault("granted", True)
    if not isinstance(granted, bool):
        raise LedgerError("granted is true or false", [(("granted",), "true or false")])
    data = {**sheet, "dm_permission": granted}
    if not granted:
        _warnings(rules, rules.sheet(str(key), data))
    s.characters[str(key)] = data


def _points(rules: Rules, s: Standing, key: str | None, p: dict[str, Any], sign: int) -> None:
    what = str(p.get("what", ""))
    if what == "health" and sign > 0:
        _character(s, key)
        s.carried.pop(str(key), None)  # rested and healed: the next fight starts fresh
        return
    known: Mapping[str, int | None] = _offered(rules, "points") or {}
    if what not in known:
        offered = [*known, *(["health"] if sign > 0 else [])]
        raise LedgerError(
            f"{rules.ruleset} keeps no {what or 'points'!s} between fights"
            + (f": {', '.join(offered)}" if offered else ""),
            [(("what",), "unknown")],
        )
    sheet = _character(s, key)
    amount = _number(p, "amount", 1)
    field_default = 10 if what == "willpower" else 0
    value = int(sheet.get(what, field_default)) + sign * amount
    top = known[what]
    if value < 0:
        have = value + amount
        raise LedgerError(f"{key} has {have} {what.replace('_', ' ')}, not {amount} to spend")
    if top is not None and value > top:
        raise LedgerError(f"{what} is at most {top} (HC-WP-1): {key} would have {value}")
    s.characters[str(key)] = {**sheet, what: value}


def _spend(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """HC-WP-1: willpower (or hero points) spent between fights."""
    _points(rules, s, key, p, -1)


def _restore(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """Willpower bought or given monthly, hero points earned (HC-WP-1), or health (rest)."""
    _points(rules, s, key, p, +1)


def _upkeep(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """HC-CAMP-1: a change between fights the ruleset keeps (a month of active play for
    the ``characters`` named, money, willpower bought, a hero point used, leadership, the
    Underbelly); each sheet is checked again after it."""
    change = _needs(rules, "upkeep between fights", "upkeep")
    if p.get("what") == "money":
        _number(p, "copper", -10_000_000)
    for name in ("amount", "boards"):
        if name in p:
            _number(p, name, 1 if name == "amount" else 0)
    present = p.get("characters") if key is None else [key]
    if not isinstance(present, list) or not present or len(present) > 100:
        raise LedgerError("name the characters", [(("characters",), "required")])
    lines: dict[str, str] = {}
    for who in dict.fromkeys(str(w) for w in present):
        data = _character(s, who)
        try:
            data, lines[who] = change(rules.campaign, data, p)
        except (ValueError, KeyError) as err:
            raise LedgerError(f"{who}: {str(err).strip(chr(39))}") from None
        checked = rules.sheet(who, data)
        _warnings(rules, checked)
        s.characters[who] = rules.books.dump(checked)
    if not rules.replaying:
        p["lines"] = lines


def _rest(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """D-REC-1: ``minutes`` of rest between encounters: what the character carries into
    the next, as the ruleset heals it over time."""
    rest = _needs(rules, "rest over time", "rest")
    minutes = _number(p, "minutes", 1)
    if minutes > 10 * 366 * 24 * 60:
        raise LedgerError("rest at most ten years at once", [(("minutes",), "too high")])
    sheet = _character(s, key)
    try:
        carried, line = rest(rules.campaign, sheet, s.carried.get(str(key), {}), minutes)
    except ValueError as err:
        raise LedgerError(str(err)) from None
    if carried:
        s.carried[str(key)] = carried
    else:
        s.carried.pop(str(key), None)
    if not rules.replaying:
        p["line"] = line


def _carry(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """What a character carries out of an encounter into the next (hit points, fatigue,
    wounds...): the encounter's starting values for it, per ruleset."""
    _character(s, key)
    condition = p.get("condition")
    if not isinstance(condition, Mapping):
        raise LedgerError("condition should be a mapping", [(("condition",), "a mapping")])
    if condition:
        s.carried[str(key)] = dict(condition)
    else:
        s.carried.pop(str(key), None)


def _conclude(rules: Rules, s: Standing, key: str | None, p: dict[str, Any]) -> None:
    """The end of an encounter as the GM confirmed it: XP per character, leftovers per
    group, and what each character carries out."""
    if p.get("award"):
        _award(rules, s, None, p["award"])
    gained = p.get("xp") or {}
    for who, xp in gained.items():
        sheet = _character(s, who)
        sheet["xp"] = int(sheet.get("xp", 0)) + int(xp)
    for group, left in (p.get("leftovers") or {}).items():
        s.leftovers[group] = s.leftovers.get(group, 0) + int(left)
    for who, condition in (p.get("carry") or {}).items():
        _carry(rules, s, who, {"condition": condition})


KINDS: dict[str, Apply] = {
    "character": _set_character,
    "create": _create,
    "award": _award,
    "train": _train,
    "raise": _raise,
    "permit": _permit,
    "spend": _spend,
    "restore": _restore,
    "upkeep": _upkeep,
    "rest": _rest,
    "carry": _carry,
    "conclude": _conclude,
}


def apply(
    rules: Rules,
    standing: Standing,
    kind: str,
    character: str | None,
    payload: dict[str, Any],
    in_place: bool = False,
) -> Standing:
    """``standing`` after one entry (a new value, unless ``in_place``; ``payload`` gains
    what the rules worked out, such as a training's cost); :class:`LedgerError` if the
    rules refuse it."""
    if kind not in KINDS:
        raise LedgerError(f"unknown entry kind {kind!r}: known are {', '.join(KINDS)}")
    new = standing if in_place else standing.copy()
    try:
        KINDS[kind](rules, new, character, payload)
    except (ValidationError, CampaignError) as err:
        raise LedgerError(str(err)) from None
    return new
