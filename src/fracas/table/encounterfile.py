"""Encounter files: the YAML a game master writes to set up a fight.

    ruleset: heimr
    campaign: campaign.yaml        # one file or a list, relative to this file
    grid: {columns: 3, rows: 3}
    combatants:
      - {character: ylva, square: B2, stance: block}
      - {character: hrolf, square: B2}

:func:`load` checks the file (each mistake named by file, line and field) and returns
the ruleset and the setup the engine starts from. The campaign's contents go into the
setup, so a save file made from it stands on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError, Ruleset
from fracas.rules import find, ids
from fracas.yamlfile import deep_merge, load_yaml, unknown_name, validate


class EncounterFile(BaseModel):
    """The top of an encounter file; the ruleset checks the rest."""

    model_config = ConfigDict(extra="allow")

    ruleset: str
    title: str = ""
    campaign: str | list[str] = Field(default_factory=list)
    combatants: list[dict[str, Any]] = Field(min_length=1)


def load(path: str | Path) -> tuple[Ruleset[Any], dict[str, Any], str]:
    """The ruleset, the setup and the title of the encounter file at ``path``.

    Every mistake is reported at once (a :class:`~fracas.yamlfile.CampaignError`), each
    with its file, line and field: the campaign files' first, then the encounter's.
    """
    path = Path(path)
    document = load_yaml(path)
    spec = validate(EncounterFile, document)
    if spec.ruleset not in ids():
        raise document.error([(("ruleset",), unknown_name("ruleset", spec.ruleset, ids()))])
    ruleset = find(spec.ruleset)
    campaigns = [spec.campaign] if isinstance(spec.campaign, str) else spec.campaign
    merged: dict[str, Any] = {}
    for name in campaigns:
        campaign_path = path.parent / name
        campaign = load_yaml(campaign_path)
        ruleset.check_campaign(campaign)
        merged = deep_merge(merged, campaign.data or {})
    setup = {
        key: value
        for key, value in (document.data or {}).items()
        if key not in ("ruleset", "title", "campaign")
    }
    setup["campaign"] = merged
    problems = [(p, m) for p, m in ruleset.setup_problems(setup) if p[:1] != ("campaign",)]
    if problems:
        problems.sort(key=lambda problem: document.location(problem[0]).line)
        raise document.error(problems)
    try:
        ruleset.start(setup)  # anything the ruleset checks only as it starts
    except EngineError as err:
        raise document.error([((), str(err))]) from None
    return ruleset, setup, spec.title or path.stem
