"""Action lines are bounded: long ones are refused at once, with a short excerpt."""

from __future__ import annotations

import pytest

from fracas.engine import Action, NotationError
from fracas.engine.actions import MAX_ACTION_CHARS


def refused(text: str) -> str:
    with pytest.raises(NotationError) as err:
        Action.parse(text)
    message = str(err.value)
    assert "\n" not in message, message
    return message


@pytest.mark.parametrize("size", [MAX_ACTION_CHARS + 1, 400_000, 5_000_000])
def test_a_line_over_the_limit_is_refused_quoting_only_its_start(size: int) -> None:
    text = ("ylva speak text=" + "a" * size)[:size]
    message = refused(text)
    assert message.startswith("cannot read 'ylva speak text=aaaa")
    assert f"({size} characters): an action is at most {MAX_ACTION_CHARS} characters" in message
    assert len(message) < 200


def test_a_line_at_the_limit_is_read() -> None:
    text = "ylva speak text=" + "a" * (MAX_ACTION_CHARS - 16)
    assert len(text) == MAX_ACTION_CHARS
    assert Action.parse(text).option("text") == "a" * (MAX_ACTION_CHARS - 16)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("ylva speak text='" + "a" * 900, "No closing quotation"),
        ("ylva attack astrid brannoc" + " x" * 400, "is a second target"),
        ("ylva attack =" + "b" * 900, "has no name"),
        ("ylva\n'attack", "No closing quotation"),
    ],
)
def test_errors_quote_a_short_excerpt_on_one_line(text: str, says: str) -> None:
    message = refused(text)
    assert says in message and len(message) < 200


def test_control_characters_in_an_action_round_trip() -> None:
    action = Action.of("ylva", "speak", None, text="a\x00b\x1bc\nd")
    assert Action.parse(str(action)) == action
