"""Property tests: hostile YAML, saves and action lines are read or refused in one line.

Bounded by the Hypothesis profile of tests/conftest.py; fuzz/ runs the same ideas
for minutes at a time.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine import Action, Encounter, Event, NotationError, SaveError
from fracas.engine.actions import MAX_ACTION_CHARS
from fracas.rules import find
from fracas.yamlfile import CampaignError, parse_yaml

SNIPPETS = [
    "\x00", "\x07", "\x1b", "!!set {a}", "!!binary aGk=", "2026-11-24", "!!timestamp 2001-01-01",
    "&a [1]", "*a", '"\\U99999999"', '"\\UFFFFFFFF"', '"\\x00"',
    "<<: *a", "[" * 70, "{a: " * 70, ".nan", "9" * 200, "!x y", "? [a]\n: b",
    ": ", "- ", "\n  ", "'", '"', "#", "|", ">", "%", "@", "`", "~", "---\n",
]  # fmt: skip

# PyYAML's emitter folds line separators (U+0085, U+2028) inside quoted strings.
texts = st.text(
    st.characters(blacklist_categories=["Cs", "Zl", "Zp"], blacklist_characters="\x85"),
    max_size=20,
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)
plain = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


@given(plain)
def test_plain_data_written_as_yaml_reads_back_the_same(data: Any) -> None:
    text = yaml.safe_dump({"data": data}, allow_unicode=True)
    try:
        read = parse_yaml(text, "p.yaml").data
    except CampaignError as err:
        # PyYAML writes some strings it cannot read back (control characters).
        assert str(err).startswith("p.yaml, line ") and "\n" not in str(err)
        return
    assert read == {"data": data}


@given(plain, st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(SNIPPETS)), max_size=4))
def test_mutated_yaml_is_plain_json_data_or_one_line_per_problem(
    data: Any, insertions: list[tuple[int, str]]
) -> None:
    text = yaml.safe_dump({"setup": data, "ruleset": "heimr"})
    for at, snippet in insertions:
        at %= len(text) + 1
        text = text[:at] + snippet + text[at:]
    try:
        read = parse_yaml(text, "m.yaml").data
    except CampaignError as err:
        assert str(err).startswith("m.yaml") and "\n" not in str(err), str(err)
        return
    json.dumps(read, allow_nan=False)  # only text, numbers, booleans, null, lists and maps


JUNK = st.sampled_from(
    ["x", [1], [[]], {}, None, True, 1.5, 9.5, -1, 0, 10**30, "8", "", {"a": []}, [None]]
)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*path, index))
    return out


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_tampered_save_is_refused_in_one_line_or_is_exactly_what_it_records(
    saved: Callable[[str], dict[str, Any]], data: st.DataObject
) -> None:
    save = saved("heimr/duel")
    tampered = copy.deepcopy(save)
    for _ in range(data.draw(st.integers(1, 3))):
        # Anything but the setup and the dice state (too many paths to be useful).
        top = {key: tampered[key] for key in ("_v", "ruleset", "log")}
        path = data.draw(st.sampled_from(paths(top)))
        node: Any = tampered
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = data.draw(JUNK)
    try:
        loaded = Encounter.load(json.loads(json.dumps(tampered)), find("heimr"))
    except SaveError as err:
        assert "\n" not in str(err)
        return
    for entry, raw in zip(loaded.log, tampered["log"], strict=True):
        assert entry.action == Action.parse(raw["action"])
        # Who may see each event is the rules' to say, not the save's: what happened is.
        happened = [(e.kind, e.text, dict(e.data)) for e in entry.events]
        recorded = [Event.from_dict(e) for e in raw["events"]]
        assert happened == [(e.kind, e.text, dict(e.data)) for e in recorded]
        assert [list(r.faces) for r in entry.rolls] == [r["faces"] for r in raw["rolls"]]


words = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12)
lines = st.lists(
    words | st.sampled_from(["'", '"', "\\", "=", "#", "x=y", "a='b c'", "\x00", "\n"]), max_size=8
).map(" ".join)


@given(lines)
def test_an_action_line_round_trips_or_is_refused_in_one_line(line: str) -> None:
    try:
        action = Action.parse(line)
    except NotationError as err:
        assert "\n" not in str(err)
        return
    text = str(action)
    if len(text) <= MAX_ACTION_CHARS:
        assert Action.parse(text) == action


# A word with "=" reads as an option, so names are written without one.
names = words.filter(lambda w: bool(w) and "=" not in w)


@given(st.builds(Action.of, names, names, st.none() | names))
def test_an_action_built_in_code_round_trips(action: Action) -> None:
    text = str(action)
    if len(text) <= MAX_ACTION_CHARS and not text.startswith("#"):
        assert Action.parse(text) == action


def test_floats_in_yaml_are_finite() -> None:
    assert math.isfinite(parse_yaml("x: 1.5e+300\n", "f.yaml").data["x"])
