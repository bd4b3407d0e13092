"""Every YAML file fracas reads goes through one bounded, plain-data loader.

Each case found by fuzzing the examples (control characters, dates and other tags,
alias bombs, deep nesting, huge files) is refused with one ``CampaignError`` line
naming the file and the line, through the loader, the encounter loader and the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.table import encounterfile
from fracas.yamlfile import (
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
    CampaignError,
    Location,
    load_yaml,
    package_data,
    parse_yaml,
)

BILLION_LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + n)}: &{chr(98 + n)} [{', '.join(['*' + chr(97 + n)] * 9)}]\n" for n in range(8)
)


def refused(text: str, name: str = "f.yaml") -> str:
    with pytest.raises(CampaignError) as err:
        parse_yaml(text, name)
    message = str(err.value)
    assert "\n" not in message, message
    assert message.startswith(f"{name}"), message
    return message


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x08", "\x7f"])
def test_a_control_character_is_refused_with_its_line(char: str) -> None:
    text = f"ruleset: heimr\ntitle: bad{char}title\ncombatants: []\n"
    message = refused(text)
    assert message.startswith("f.yaml, line 2: ")
    assert f"#x{ord(char):02x}" in message


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("2026-11-24", "2026-11-24 reads as a date"),
        ("2026-11-24 10:00:00", "reads as a date"),
        ("!!timestamp 2001-12-14", "reads as a date"),
        ("!!set {a, b}", "the tag !!set (a set) is not read"),
        ("!!binary aGk=", "the tag !!binary (binary data) is not read"),
        ("!!omap [{a: 1}]", "the tag !!omap"),
        ("!!python/object:os.system x", "the tag !!python/object:os.system"),
        ("!custom x", "the tag !custom"),
        (".nan", "not a finite number"),
        ("-.inf", "not a finite number"),
        ("9" * 5000, "a number longer than 100 characters"),
        # Found by the property tests: PyYAML's scanner raises ValueError/OverflowError.
        ('"\\U99999999"', "unreadable YAML"),
        ('"\\UFFFFFFFF"', "unreadable YAML"),
    ],
)
def test_values_other_than_plain_data_are_refused(value: str, says: str) -> None:
    message = refused(f"hero:\n  name: Ylva\n  born: {value}\n")
    assert message.startswith("f.yaml, line 3: ")
    assert says in message


def test_quoted_a_date_is_text() -> None:
    assert parse_yaml("born: '2026-11-24'\n", "f.yaml").data == {"born": "2026-11-24"}


def test_a_billion_laughs_is_refused_before_it_expands() -> None:
    assert "more than 200,000 values once aliases are expanded" in refused(BILLION_LAUGHS)


def test_a_few_aliases_are_still_fine() -> None:
    doc = parse_yaml("base: &b {hp: 3}\nhero: {<<: *b, name: Ylva}\nother: *b\n", "f.yaml")
    assert doc.data["hero"] == {"hp": 3, "name": "Ylva"}
    assert doc.location(("hero", "name")) == Location("f.yaml", 2)


def test_a_recursive_alias_is_refused() -> None:
    assert "an alias refers to a value that contains it" in refused("a: &a [1, *a]\n")


@pytest.mark.parametrize("opening", ["[", "{a: ", "- "])
def test_absurd_nesting_is_refused(opening: str) -> None:
    deep = (
        "x: " + opening * 100_000
        if opening != "- "
        else "x:\n" + "".join("  " * n + "- \n" for n in range(200))
    )
    assert f"nested deeper than {MAX_YAML_DEPTH} levels" in refused(deep)


def test_nesting_within_the_limit_is_read() -> None:
    text = "x: " + "[" * (MAX_YAML_DEPTH - 1) + "]" * (MAX_YAML_DEPTH - 1) + "\n"
    assert parse_yaml(text, "f.yaml").data is not None


def test_a_document_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * MAX_YAML_BYTES + "\n", encoding="utf-8")
    with pytest.raises(CampaignError, match=r"big\.yaml: the file is larger than 2 MB$"):
        load_yaml(big)
    assert refused("# " + "x" * MAX_YAML_BYTES).endswith("the file is larger than 2 MB")


def test_a_file_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"ruleset: heimr\ntitle: caf\xe9\n")
    with pytest.raises(CampaignError) as err:
        load_yaml(bad)
    assert str(err.value).startswith(f"{bad}, line 2: the file is not UTF-8 text")


def test_a_folder_or_missing_file_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "none.yaml"):
        with pytest.raises(CampaignError) as err:
            load_yaml(path)
        assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_the_line_numbered_key_map_still_works() -> None:
    doc = parse_yaml("hero:\n  name: Ylva\n  skills:\n    - Archery\n    - Riding\n", "c.yaml")
    assert doc.location(("hero", "skills", 1)) == Location("c.yaml", 5)
    assert doc.location(("hero", "name")) == Location("c.yaml", 2)


def test_every_rulesets_package_data_loads() -> None:
    for package, files in [
        ("fracas.rules.heimr", ("attributes.yaml",)),
        ("fracas.rules.tempo", ("actions.yaml",)),
        ("fracas.rules.diestep", ("tables.yaml", "weapons.yaml")),
    ]:
        assert package_data(package, files).data


# -- through the encounter loader and the CLI --------------------------------------------

BAD_VALUES = {
    "control": "title: duel\x07\n",
    "date": "title: 2026-11-24\n",
    "set": "title: !!set {a}\n",
    "binary": "title: !!binary aGk=\n",
    "timestamp": "title: !!timestamp 2026-11-24\n",
    "laughs": BILLION_LAUGHS,
    "nesting": "deep: " + "[" * 100_000 + "\n",
}


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_a_bad_encounter_file_is_one_campaign_error(
    case: str, example_copy: Callable[[str], Path]
) -> None:
    folder = example_copy("heimr")
    duel = folder / "duel.yaml"
    duel.write_text(duel.read_text(encoding="utf-8") + BAD_VALUES[case], encoding="utf-8")
    with pytest.raises(CampaignError) as err:
        encounterfile.load(duel)
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{duel}, line ")


@pytest.mark.parametrize("case", ["control", "date", "binary"])
def test_a_bad_campaign_file_is_one_campaign_error(
    case: str, example_copy: Callable[[str], Path]
) -> None:
    folder = example_copy("sides")
    campaign = folder / "campaign.yaml"
    campaign.write_text(
        campaign.read_text(encoding="utf-8") + BAD_VALUES[case].replace("title", "note"),
        encoding="utf-8",
    )
    with pytest.raises(CampaignError) as err:
        encounterfile.load(folder / "mace.yaml")
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{campaign}, line ")


def test_an_encounter_that_loads_serialises_to_json(example_copy: Callable[[str], Path]) -> None:
    _, setup, _ = encounterfile.load(example_copy("heimr") / "duel.yaml")
    json.dumps(setup, allow_nan=False)


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_fracas_play_of_a_bad_encounter_exits_2_with_one_line(
    case: str,
    example_copy: Callable[[str], Path],
    fracas_cli: Callable[..., tuple[int, str, str]],
) -> None:
    folder = example_copy("heimr")
    duel = folder / "duel.yaml"
    duel.write_text(duel.read_text(encoding="utf-8") + BAD_VALUES[case], encoding="utf-8")
    code, _, err = fracas_cli("play", duel, "--script", folder / "duel.script")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"fracas: {duel}, line "), err
