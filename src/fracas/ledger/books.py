"""What the ledger needs to know of each ruleset: its campaign model, its character sheet
model, and its package data (its ``sheets`` capability,
:class:`fracas.engine.capabilities.Sheets`), so that a campaign's characters are checked
by the rules' own models, each mistake at its field.

>>> heimr = books("heimr")
>>> heimr.sheet_model.__name__
'CharacterSheet'
>>> [m for p, m in heimr.sheet_problems({}, "ylva", {"name": "Ylva"}) if p == ("side",)]
['Field required']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from fracas.engine import EngineError
from fracas.engine.capabilities import sheets
from fracas.rules import find, offering
from fracas.yamlfile import KeyPath, collect, deep_merge

__all__ = ["Books", "books"]


@dataclass(frozen=True)
class Books:
    """One ruleset's models, as the ledger uses them."""

    ruleset: str
    campaign_model: type[BaseModel]
    sheet_model: type[BaseModel]
    package: Mapping[str, Any]
    #: The ruleset's ``sheets`` capability, for what else the ledger asks of it.
    own: Any = None

    def campaign(self, data: Mapping[str, Any]) -> tuple[Any, list[tuple[KeyPath, str]]]:
        """The campaign (package data with ``data`` laid over it), or ``None`` and every
        problem at its path."""
        return collect(self.campaign_model, deep_merge(self.package, dict(data)))

    def sheet_problems(
        self, data: Mapping[str, Any], key: str, sheet: Any
    ) -> list[tuple[KeyPath, str]]:
        """Every mistake in ``sheet`` (a character ``key`` of the campaign ``data``), each at
        its path inside the sheet: its own fields first, then what the campaign lacks."""
        _, own = collect(self.sheet_model, sheet)
        if own:
            return own
        characters = {**dict(data.get("characters") or {}), key: sheet}
        _, problems = self.campaign({**data, "characters": characters})
        inside = [(p[2:], m) for p, m in problems if p[:2] == ("characters", key)]
        return inside or [(p, m) for p, m in problems if p[:1] != ("characters",)]

    def dump(self, sheet: BaseModel) -> dict[str, Any]:
        """A sheet as the campaign file writes it (defaults left out)."""
        data: dict[str, Any] = sheet.model_dump(mode="json", exclude_defaults=True)
        for required in ("name", "side"):
            if hasattr(sheet, required):
                data.setdefault(required, getattr(sheet, required))
        return data

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of a character sheet of this ruleset (from its pydantic model)."""
        schema = self.sheet_model.model_json_schema()
        schema["title"] = f"{self.ruleset} character"
        return schema


@cache
def books(ruleset: str) -> Books:
    """The models of ``ruleset`` (one of :func:`ruleset_ids`)."""
    try:
        found = sheets(find(ruleset))
    except EngineError:
        found = None
    if found is None:
        raise ValueError(f"unknown ruleset {ruleset!r}: known are {', '.join(ruleset_ids())}")
    data = found.package_data()
    return Books(ruleset, found.campaign_model, found.sheet_model, dict(data), found)


def ruleset_ids() -> list[str]:
    """The rulesets installed that keep books (offer the ``sheets`` capability)."""
    return offering("sheets")
