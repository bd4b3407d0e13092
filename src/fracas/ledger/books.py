"""What the ledger needs to know of each ruleset: its campaign model, its character sheet
model, and its package data, so that a campaign's characters are checked by the rules'
own models, each mistake at its field.

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
from importlib import import_module
from typing import Any

from pydantic import BaseModel

from fracas.yamlfile import KeyPath, YamlDocument, collect, deep_merge

__all__ = ["Books", "books"]

#: Each ruleset's campaign model, sheet model and package data, imported when asked for.
_MODELS: dict[str, tuple[str, str, str]] = {
    "heimr": (
        "fracas.rules.heimr.campaign:Campaign",
        "fracas.rules.heimr.campaign:CharacterSheet",
        "fracas.rules.heimr.campaign:package_data",
    ),
    "heimr-classic": (
        "fracas.rules.classic.campaign:ClassicCampaign",
        "fracas.rules.classic.campaign:Sheet",
        "fracas.rules.classic.campaign:package_data",
    ),
    "sides": (
        "fracas.rules.sides.campaign:Tables",
        "fracas.rules.sides.campaign:Sheet",
        "fracas.rules.sides.campaign:package_data",
    ),
    "tempo": (
        "fracas.rules.tempo.tables:TempoTables",
        "fracas.rules.tempo.tables:Sheet",
        "fracas.rules.tempo.tables:_package_data",
    ),
    "diestep": (
        "fracas.rules.diestep.tables:Campaign",
        "fracas.rules.diestep.tables:Sheet",
        "fracas.rules.diestep.tables:package_data",
    ),
}


def _load(where: str) -> Any:
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class Books:
    """One ruleset's models, as the ledger uses them."""

    ruleset: str
    campaign_model: type[BaseModel]
    sheet_model: type[BaseModel]
    package: Mapping[str, Any]

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
    """The models of ``ruleset`` (one of :func:`fracas.rules.ids`)."""
    if ruleset not in _MODELS:
        raise ValueError(f"unknown ruleset {ruleset!r}: known are {', '.join(sorted(_MODELS))}")
    campaign, sheet, package = (_load(where) for where in _MODELS[ruleset])
    data = package()
    if isinstance(data, YamlDocument):
        data = data.data
    return Books(ruleset, campaign, sheet, data)


def ruleset_ids() -> list[str]:
    return sorted(_MODELS)
