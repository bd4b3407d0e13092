"""Encounter files are checked like campaign files: every mistake at once, each with its
file, line and field, and the closest name for one misspelt, in every ruleset."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fracas import rules
from fracas.table import encounterfile
from fracas.yamlfile import CampaignError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def mistakes(tmp_path: Path, folder: str, text: str, *campaigns: str) -> list[str]:
    """The lines of the error loading ``text`` beside copies of ``campaigns``."""
    for name in campaigns:
        shutil.copy(EXAMPLES / folder / name, tmp_path / name)
    path = tmp_path / "fight.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CampaignError) as err:
        encounterfile.load(path)
    lines = str(err.value).splitlines()
    assert all(line.startswith(f"{path}, line ") for line in lines)
    return [line.removeprefix(f"{path}, ") for line in lines]


def test_a_misspelt_ruleset_names_the_closest(tmp_path: Path) -> None:
    text = "ruleset: heimer\ncombatants: [{character: ylva}]\n"
    known = ", ".join(rules.ids())  # the built-in five, and any plugin installed
    assert mistakes(tmp_path, "heimr", text) == [
        f"line 1, ruleset: unknown ruleset 'heimer' (known: {known}); did you mean 'heimr'?"
    ]


HEIMR = """\
ruleset: heimr
campaign: [campaign.yaml, troll.yaml]
battlefield:
  squares:
    B2: {light: torch}
  borders:
    - {between: [B2, B3], preset: Singel door}
    - {between: [A1, C3], preset: Stone wall}
combatants:
  - {character: ylva, square: B2, stance: parr}
  - {character: astrd, square: B2}
  - {character: hrolf, square: D4}
  - {character: ylva, square: B1}
"""


def test_heimr(tmp_path: Path) -> None:
    found = mistakes(tmp_path, "heimr", HEIMR, "campaign.yaml", "troll.yaml")
    assert [line.split(":")[0] for line in found] == [
        "line 5, battlefield.squares.B2.light",
        "line 7, battlefield.borders[0].preset",
        "line 8, battlefield.borders[1].between",
        "line 10, combatants[0].stance",
        "line 11, combatants[1].character",
        "line 12, combatants[2].square",
        "line 13, combatants[3]",
    ]
    assert found[1].endswith("did you mean 'Single door'?")
    assert found[3].endswith("did you mean 'parry'?")
    assert found[4].endswith("did you mean 'astrid'?")
    assert "not bordering" in found[2] and "off the 3x3 grid" in found[5]
    assert "two combatants are called 'ylva'" in found[6]


CLASSIC = """\
ruleset: heimr-classic
campaign: campaign.yaml
positions:
  North bank: {borders: [Ford]}
  Ford: {borders: [South bnk]}
  South bank: {}
combatants:
  - {character: ylva, position: Frod}
  - {character: asaa, position: North bank}
  - {character: brannoc, position: Ford, conditions: [pron]}
  - {character: wolf, position: Ford, hit_points: lots}
"""


def test_heimr_classic(tmp_path: Path) -> None:
    found = mistakes(tmp_path, "classic", CLASSIC, "campaign.yaml")
    assert [line.split(":")[0] for line in found] == [
        "line 5, positions.Ford",
        "line 8, combatants[0].position",
        "line 9, combatants[1].character",
        "line 10, combatants[2].conditions[0]",
        "line 11, combatants[3].hit_points",
    ]
    assert found[0].endswith("did you mean 'South bank'?")
    assert found[1].endswith("did you mean 'Ford'?")
    assert found[3].endswith("did you mean 'prone'?")


SIDES = """\
ruleset: sides
campaign: campaign.yaml
surprised: [party, orks]
combatants:
  - {character: darna, at: 0, weapons: [Mase]}
  - {character: orcc, at: 25}
  - {character: orc, at: far}
  - {character: orc, id: orc2, at: 30}
"""


def test_sides(tmp_path: Path) -> None:
    found = mistakes(tmp_path, "sides", SIDES, "campaign.yaml")
    assert [line.split(":")[0] for line in found] == [
        "line 3, surprised[1]",
        "line 5, combatants[0].weapons[0]",
        "line 6, combatants[1].character",
        "line 7, combatants[2].at",
    ]
    assert found[0].endswith("did you mean 'orcs'?")
    assert found[1].endswith("did you mean 'Mace'?")


TEMPO = """\
ruleset: tempo
campaign: campaign.yaml
combatants:
  - {character: sigrn, prepared: true}
  - {character: hakon, status: On guard}
  - {character: hakon, id: h2, status: Bound}
  - {character: ylva, hp: many}
"""


def test_tempo(tmp_path: Path) -> None:
    found = mistakes(tmp_path, "tempo", TEMPO, "campaign.yaml")
    assert [line.split(":")[0] for line in found] == [
        "line 4, combatants[0].character",
        "line 5, combatants[1].status",
        "line 6, combatants[2].engaged_with",
        "line 7, combatants[3].hp",
    ]
    assert found[0].endswith("did you mean 'sigrun'?")
    assert found[1].endswith("did you mean 'On Guard'?")


DIESTEP = """\
ruleset: diestep
campaign: campaign.yaml
regions:
  road: {borders: [bend]}
  bend: {borders: [ford]}
  ford: {}
combatants:
  - {character: sela, region: raod}
  - {character: ashfot, region: road}
  - {character: archer, region: ford, unaware_of: [sel]}
  - {character: archer, region: ford, prone: maybe}
"""


def test_diestep(tmp_path: Path) -> None:
    found = mistakes(tmp_path, "diestep", DIESTEP, "campaign.yaml")
    assert [line.split(":")[0] for line in found] == [
        "line 8, combatants[0].region",
        "line 9, combatants[1].character",
        "line 10, combatants[2].unaware_of[0]",
        "line 11, combatants[3].prone",
        "line 11, combatants[3]",
    ]
    assert found[0].endswith("did you mean 'road'?")
    assert found[1].endswith("did you mean 'ashfoot'?")
    assert found[2].endswith("did you mean 'sela'?")
