"""Campaign forms whose fields are not one payload key each: what a character carries
into the next encounter, and the award that concludes an encounter.

Both read a form into a payload and the mistakes by field (nothing is recorded while
there is one), and give back the fields to show, with what was typed or what stands.

>>> read_carry("heimr", {"hit_points": "-2", "fatigue": "x"})
({'hit_points': -2}, {'carry.fatigue': "fatigue: a whole number, not 'x'"})
>>> read_award({"award": "gm", "xp_ylva": "3", "xp_astrid": ""})
({'ylva': 3}, {})
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.ledger import LedgerError
from fracas.ledger.encounters import DEAD, carried_fields

__all__ = ["CarryField", "carry_form", "conclude_errors", "read_award", "read_carry"]

#: A whole number as the terminal's ``campaign carry`` takes it (hit points may be below 0).
_WHOLE = re.compile(r"-?[0-9]{1,9}")
#: The carried fields that are not whole numbers, and the values they take.
_KINDS = {DEAD: "flag", "conditions": "names", "wound": "choice"}
_OPTIONS = {DEAD: ("true", "false"), "wound": ("badly", "mortal")}


@dataclass(frozen=True)
class CarryField:
    """One input of the carry form: its name, kind, shown value and offered values."""

    name: str
    kind: str
    value: str
    options: tuple[str, ...] = ()


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def carry_form(
    ruleset: str, carried: Mapping[str, Any] | None, form: Mapping[str, Any] | None = None
) -> list[CarryField]:
    """The carry form's inputs: what the character carries, or what was typed (``form``)."""
    shown = {n: _shown((carried or {}).get(n)) for n in carried_fields(ruleset)}
    if form is not None:
        shown = {n: str(form.get(n, ""))[:100] for n in shown}
    return [
        CarryField(n, _KINDS.get(n, "number"), v, _OPTIONS.get(n, ())) for n, v in shown.items()
    ]


def read_carry(ruleset: str, form: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The condition a carry form gives (an empty field: not carried) and its mistakes,
    under ``carry.FIELD``; checked as the terminal does: whole numbers, true or false."""
    condition: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in carried_fields(ruleset):
        text = str(form.get(name, "")).strip()
        if not text:
            continue
        kind, options = _KINDS.get(name, "number"), _OPTIONS.get(name, ())
        if kind == "number":
            if _WHOLE.fullmatch(text) is None:
                errors[f"carry.{name}"] = f"{name}: a whole number, not {text[:20]!r}"
            else:
                condition[name] = int(text)
        elif kind in ("flag", "choice") and text not in options:
            errors[f"carry.{name}"] = f"{name}: {' or '.join(options)}, not {text[:20]!r}"
        elif kind == "flag":
            if text == "true":  # not dead is simply not carried
                condition[name] = True
        elif kind == "names":
            condition[name] = [n[:40] for n in text.replace(",", " ").split()][:20]
        else:
            condition[name] = text
    return condition, errors


def read_award(form: Mapping[str, Any]) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The conclude form's award: ``None`` for the encounter's own, ``{character: XP}``
    for the GM's numbers, or ``{xp, group, characters}`` divided (H-XP-1); and its
    mistakes by field."""
    how = form.get("award")
    errors: dict[str, str] = {}
    if how == "gm":
        award: dict[str, Any] = {}
        for key, value in form.items():
            text = str(value).strip()
            if key.startswith("xp_") and text:
                if not text.isascii() or not text.isdigit() or len(text) > 9:
                    errors[key] = f"{key.removeprefix('xp_')}: a whole number, not {text[:20]!r}"
                else:
                    award[key.removeprefix("xp_")] = int(text)
        return award, errors
    if how == "divide":
        text = str(form.get("xp", "")).strip()
        if not text.isascii() or not text.isdigit() or len(text) > 9:
            errors["xp"] = f"xp: a whole number, not {text[:20]!r}"
        names = str(form.get("characters", "")).replace(",", " ").split()
        divided: dict[str, Any] = {"xp": int(text) if "xp" not in errors else 0}
        divided["characters"] = names
        if str(form.get("group", "")).strip():
            divided["group"] = str(form["group"]).strip()[:80]
        return divided, errors
    return None, errors


def conclude_errors(err: LedgerError, award: Mapping[str, Any] | None) -> dict[str, str]:
    """A refused conclusion's problems beside the award's fields (the rest: ``conclude``)."""
    fields = ("xp", "group", "characters") if award and "characters" in award else ()
    field = next((str(p[0]) for p, _ in err.problems if p and str(p[0]) in fields), "conclude")
    if field == "conclude" and fields and str(err).startswith("no character"):
        field = "characters"  # a name that is not in the campaign
    return {field: str(err)}
