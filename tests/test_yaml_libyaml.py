"""YAML is read with libyaml's parser where it reads as PyYAML's does, and only there.

:func:`fracas.yamlfile.parse_yaml` takes libyaml's events (C) under its own composer;
what libyaml refuses is read again by PyYAML's parser, whose message is shown, and a
text where the two parsers differ (tabs, tags, a comment after a block scalar's header,
no line end at the end) is read by PyYAML's alone. Either way the data, the line of
every key and every refusal are those PyYAML's parser gives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from fracas import yamlfile
from fracas.yamlfile import CampaignError, YamlDocument, parse_yaml

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    p for folder in (ROOT / "examples", ROOT / "src" / "fracas") for p in folder.rglob("*.yaml")
)

pytestmark = pytest.mark.skipif(yamlfile._FastLoader is None, reason="PyYAML without libyaml")


def _pure(text: str) -> YamlDocument:
    return yamlfile._read(yamlfile._Loader(text), "f.yaml")


def _fast(text: str) -> YamlDocument:
    assert yamlfile._FastLoader is not None
    return yamlfile._read(yamlfile._FastLoader(text), "f.yaml")


def _outcome(read: Callable[[str], YamlDocument], text: str) -> tuple[object, ...]:
    try:
        doc = read(text)
    except (yaml.YAMLError, ValueError, OverflowError):
        return ("refused",)
    return ("read", repr(doc.data), sorted((repr(k), v.line) for k, v in doc.locations.items()))


def test_every_yaml_file_shipped_reads_alike_and_on_the_fast_path() -> None:
    assert len(FILES) > 30
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert yamlfile._fast_enough(text), path
        assert _outcome(_fast, text) == _outcome(_pure, text), path


#: Pieces that random texts are made of: YAML's syntax, line breaks, odd scalars.
PIECES = [
    *("a", "x", "1", "é", ": ", "- ", "? ", ",", "[", "]", "{", "}", "'", '"', "\\", "#"),
    *("&a ", "*a", "!", "!replace ", "|", ">-", "|2+", " ", "  ", "\n", "\n  ", "\r\n"),
    *("\x85", "\u2028", "\t", "\ufeff", "---\n", "...\n", "%YAML 1.1\n", "<<: ", "0x1F"),
    *("1e3", ".inf", "~", "Yes", "2026-11-24", '"\\x41\\/"', "'it''s'", "a: b: c", "- - x"),
]


def test_random_texts_read_alike_where_libyaml_is_used() -> None:
    rng = random.Random(23)
    fast = 0
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))
        text += "\n" if rng.random() < 0.9 else ""
        if yamlfile._fast_enough(text):
            fast += 1
            assert _outcome(_fast, text) == _outcome(_pure, text), repr(text)
    assert fast > 500


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("hero:\n  str: 1\n   dex: 2\n", "f.yaml, line 3: mapping values are not allowed here"),
        ("a: [1, 2\n", "f.yaml, line 2: expected ',' or ']', but got '<stream end>'"),
        ("a: 1\na: 2\n", "f.yaml, line 2, a: duplicate key"),
        ("a: \x07\n", "f.yaml, line 1: the character #x07 is not allowed"),
    ],
)
def test_a_refusal_is_pyyamls_message(text: str, says: str) -> None:
    with pytest.raises(CampaignError) as err:
        parse_yaml(text, "f.yaml")
    assert str(err.value).startswith(says)


@pytest.mark.parametrize(
    "text",
    ["a: {b:\t1}\n", "a: !x 1\n", "a: >#\n", "a: 1", "\ufeffa: 1\n"],
)
def test_where_the_parsers_differ_pyyamls_reads(text: str) -> None:
    assert not yamlfile._fast_enough(text)
