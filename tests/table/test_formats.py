"""Every YAML example in docs/formats.md loads: encounter files beside their ruleset's
example campaign, campaign files checked by their ruleset."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from fracas.engine import Encounter, RandomDice
from fracas.rules import find
from fracas.table import encounterfile
from fracas.yamlfile import parse_yaml

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "docs" / "formats.md"
FOLDERS = {
    "heimr": "heimr",
    "heimr-classic": "classic",
    "sides": "sides",
    "tempo": "tempo",
    "diestep": "diestep",
}
BLOCKS = re.findall(r"```yaml\n(.*?)```", FORMATS.read_text(encoding="utf-8"), re.S)


def test_the_document_shows_an_encounter_and_a_campaign_file_of_every_ruleset() -> None:
    encounters = {yaml.safe_load(b).get("ruleset") for b in BLOCKS}
    campaigns = {m.group(1) for b in BLOCKS if (m := re.match(r"# (\S+) campaign file", b))}
    assert set(FOLDERS) <= encounters and set(FOLDERS) <= campaigns


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_every_example_in_the_formats_document_loads(block: str, tmp_path: Path) -> None:
    data = yaml.safe_load(block)
    campaign = re.match(r"# (\S+) campaign file", block)
    if campaign is not None:
        find(campaign.group(1)).check_campaign(parse_yaml(block, "formats.md"))
        return
    assert isinstance(data, dict) and data.get("ruleset") in FOLDERS, block[:80]
    folder = tmp_path / "example"
    shutil.copytree(ROOT / "examples" / FOLDERS[data["ruleset"]], folder)
    path = folder / "from-the-docs.yaml"
    path.write_text(block, encoding="utf-8")
    ruleset, setup, _ = encounterfile.load(path)
    Encounter(ruleset, setup, RandomDice(1))
