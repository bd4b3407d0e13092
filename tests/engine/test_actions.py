"""Actions round-trip through their text notation; unreadable text says what is wrong."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.engine import Action, EngineError, NotationError
from fracas.engine.actions import words as split_words


def test_an_action_reads_actor_verb_target_and_options() -> None:
    a = Action.parse("ylva attack brannoc part='sword arm' hit=3")
    assert a.actor == "ylva"
    assert a.verb == "attack"
    assert a.target == "brannoc"
    assert a.option("part") == "sword arm"
    assert a.option("hit") == "3"
    assert a.option("defence") is None
    assert a.option("defence", "dodge") == "dodge"


def test_options_are_kept_sorted_so_their_order_does_not_matter() -> None:
    assert Action.parse("ylva attack brannoc hit=3 part=head") == Action.parse(
        "ylva attack brannoc part=head hit=3"
    )
    assert str(Action.parse("ylva attack brannoc part=head hit=3")) == (
        "ylva attack brannoc hit=3 part=head"
    )


def test_an_action_without_target_may_still_have_options() -> None:
    a = Action.parse("ylva delay after=brannoc")
    assert a.target is None
    assert a.options == (("after", "brannoc"),)
    assert str(a) == "ylva delay after=brannoc"


def test_of_builds_the_same_action_as_the_text_and_leaves_out_none() -> None:
    built = Action.of("ylva", "attack", "brannoc", part="torso", hit=3, defence=None)
    assert built == Action.parse("ylva attack brannoc part=torso hit=3")


def test_quoted_words_survive_the_round_trip() -> None:
    a = Action.of("ylva", "ready", None, action="attack brannoc", trigger="he moves")
    text = str(a)
    assert text == "ylva ready 'action=attack brannoc' 'trigger=he moves'"
    assert Action.parse(text) == a


def test_a_comment_is_ignored() -> None:
    assert Action.parse("gm begin  # roll initiative") == Action("gm", "begin")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "an action is '<actor> <verb>"),
        ("ylva", "an action is '<actor> <verb>"),
        ("# only a comment", "an action is '<actor> <verb>"),
        ("ylva attack 'brannoc", "No closing quotation"),
        ("ylva attack brannoc =torso", "option '=torso' has no name"),
        ("ylva attack brannoc torso", "'torso' is a second target"),
    ],
)
def test_unreadable_text_raises_a_notation_error_naming_the_problem(text: str, says: str) -> None:
    with pytest.raises(NotationError, match="cannot read") as err:
        Action.parse(text)
    assert says in str(err.value)
    assert isinstance(err.value, EngineError)
    assert isinstance(err.value, ValueError)


words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1)
names = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
# A target with '=' would read as an option: the notation has no way to write one.
targets = st.none() | names | words.filter(lambda w: "=" not in w)
actions = st.builds(
    Action,
    actor=names,
    verb=names,
    target=targets,
    options=st.dictionaries(names, words | st.just(""), max_size=3).map(
        lambda opts: tuple(sorted(opts.items()))
    ),
)


@given(actions)
def test_every_action_round_trips_through_its_text(action: Action) -> None:
    assert Action.parse(str(action)) == action


@given(st.text(alphabet="ab=# \t\n'\"\\\x0b\x1cé\xa0", max_size=20))
def test_actions_split_into_words_as_shlex_splits_them(text: str) -> None:
    try:
        expected = shlex.split(text, comments=True)
    except ValueError:
        with pytest.raises(ValueError):
            split_words(text)
        return
    assert split_words(text) == expected
