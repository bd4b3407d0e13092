"""Every number of a sheet is bounded, per ruleset and per field, in the ruleset's sheet
schema (its ``sheets`` capability): YAML, saves, imports and the web forms all read the
same bounds, and a number outside them is refused in one line (issue 24, point 3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.engine import Encounter, SaveError
from fracas.engine.capabilities import sheets
from fracas.ledger import Ledger, LedgerError
from fracas.rules import find, ids
from fracas.table.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
Saved = Callable[[str], dict[str, Any]]


def _unbounded(
    schema: dict[str, Any], defs: dict[str, Any], path: str, seen: set[str]
) -> list[str]:
    """The paths of integer and number fields of ``schema`` without both bounds."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        return _unbounded(defs[name], defs, path, {*seen, name})
    found: list[str] = []
    for key in ("anyOf", "allOf", "oneOf"):
        for part in schema.get(key, []):
            found += _unbounded(part, defs, path, seen)
    if schema.get("type") in ("integer", "number"):
        low = "minimum" in schema or "exclusiveMinimum" in schema
        high = "maximum" in schema or "exclusiveMaximum" in schema
        if not (low and high):
            found.append(path)
    for key, part in schema.get("properties", {}).items():
        found += _unbounded(part, defs, f"{path}.{key}", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        found += _unbounded(schema["additionalProperties"], defs, f"{path}.*", seen)
    if isinstance(schema.get("items"), dict):
        found += _unbounded(schema["items"], defs, f"{path}[]", seen)
    return found


@pytest.mark.parametrize("ruleset", ids())
def test_every_number_of_a_sheet_and_a_combatant_has_bounds(ruleset: str) -> None:
    books = sheets(find(ruleset))
    if books is None:
        pytest.skip(f"{ruleset} keeps no sheets")
    for model in (books.sheet_model, books.placement_model):
        if model is None:
            continue
        schema = model.model_json_schema()
        assert _unbounded(schema, schema.get("$defs", {}), model.__name__, set()) == []


def _refused(save: dict[str, Any], ruleset: str, says: str) -> None:
    with pytest.raises(SaveError) as err:
        Encounter.load(save, find(ruleset))
    message = str(err.value)
    assert "\n" not in message and says in message, message


def test_a_save_with_huge_hit_points_is_refused(saved: Saved) -> None:
    save = saved("heimr/duel")
    save["setup"]["combatants"][0]["hit_points"] = 10**30
    _refused(save, "heimr", "hit_points")


def test_a_save_with_a_huge_attribute_is_refused(saved: Saved) -> None:
    save = saved("heimr/duel")
    character = next(iter(save["setup"]["campaign"]["characters"].values()))
    character["attributes"]["str"] = 10**6
    _refused(save, "heimr", "str")


def test_a_save_with_a_negative_statistic_is_refused(saved: Saved) -> None:
    save = saved("classic/ford")
    character = next(iter(save["setup"]["campaign"]["characters"].values()))
    character["statistics"]["W"] = -1
    _refused(save, "heimr-classic", "W")


def test_an_imported_campaign_with_huge_numbers_is_refused(tmp_path: Path) -> None:
    ledger = Ledger(Store.open(f"sqlite:///{tmp_path / 'bounds.db'}"))
    data = yaml.safe_load((EXAMPLES / "heimr/campaign.yaml").read_text(encoding="utf-8"))
    character = next(iter(data["characters"].values()))
    character["attributes"]["str"] = 10**6
    character["willpower"] = 10**9
    path = tmp_path / "campaign.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises((LedgerError, ValueError)) as err:
        ledger.import_file("north", path)
    assert "str" in str(err.value) or "willpower" in str(err.value)
    assert ledger.campaigns() == []


def test_a_web_campaign_import_with_huge_numbers_is_refused_in_one_line(tmp_path: Path) -> None:
    from tests.web.webtools import Web, csrf_of

    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.csrf = csrf_of(web.gm.get("/gm/campaigns").text)
    data = yaml.safe_load((EXAMPLES / "classic/campaign.yaml").read_text(encoding="utf-8"))
    character = next(iter(data["characters"].values()))
    character["statistics"]["CS"] = 10**6
    character["willpower"] = 10**9
    response = web.gm.post(
        "/gm/campaigns/import",
        data={"csrf": web.csrf, "name": "ford", "ruleset": ""},
        files={"file": ("ford.yaml", yaml.safe_dump(data).encode(), "application/yaml")},
        follow_redirects=False,
    )
    assert response.status_code == 400
    assert "less than or equal to 30" in response.text
    assert Ledger(web.store).campaigns() == []
