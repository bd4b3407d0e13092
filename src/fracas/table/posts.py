"""A round's results as a post for a forum: what every side may see, with every roll.

Play by post ends each round with the game master posting what happened (HC-ROUND-2).
:func:`round_post` writes that post from the table's log, as the *public* sees it: an
event only some sides may see is left out, and one whose numbers are a side's own (hit
points, declarations before the round closed) shows only its outline ("Brannoc the Red
is wounded"). The round of an event is the last round number the log has named by then,
so the same post serves rulesets that count rounds by turns or by declared rounds.

>>> print(render("The ford", 1, ["Ylva attacks *Brannoc*"], "markdown"))
**The ford: round 1**
<BLANKLINE>
- Ylva attacks \\*Brannoc\\*
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from fracas.engine import Encounter

__all__ = ["FORMATS", "PostError", "public_events", "render", "round_post"]

FORMATS = ("markdown", "bbcode", "text")
#: Not the name of any side: the audience of a public post.
PUBLIC = "\x00public"


class PostError(ValueError):
    """A post that cannot be written: an unknown format, or a round with nothing in it."""


def public_events(encounter: Encounter[Any]) -> Iterator[tuple[int, str]]:
    """Each event the public may see, as (its round, its text), in the log's order."""
    current = 0
    for entry in encounter.log:
        for event in entry.events:
            round_ = event.data.get("round")
            if isinstance(round_, int) and not isinstance(round_, bool):
                current = round_
            shown = event.for_side(PUBLIC)
            if shown is not None:
                yield current, shown.text


def round_post(
    encounter: Encounter[Any], title: str, round_: int | None = None, fmt: str = "markdown"
) -> str:
    """The post of round ``round_`` (by default the last one with results) in ``fmt``."""
    if fmt not in FORMATS:
        raise PostError(f"unknown format {fmt[:20]!r}: choose one of {', '.join(FORMATS)}")
    by_round: dict[int, list[str]] = {}
    for number, text in public_events(encounter):
        by_round.setdefault(number, []).append(text)
    if not by_round:
        raise PostError("nothing has happened yet: there is no round to post")
    if round_ is None:
        # The round just played: the last with more than the line that opens it.
        played = [n for n, lines in by_round.items() if len(lines) > 1]
        round_ = max(played or by_round)
    if round_ not in by_round:
        known = ", ".join(str(n) for n in sorted(by_round))
        raise PostError(f"round {round_} has nothing to post: the log has rounds {known}")
    return render(title, round_, by_round[round_], fmt)


def render(title: str, round_: int, lines: Sequence[str], fmt: str) -> str:
    """The post's text: a heading and one line an event."""
    heading = f"{title}: round {round_}" if round_ else title
    if fmt == "markdown":
        body = "\n".join(f"- {_markdown(line)}" for line in lines)
        return f"**{_markdown(heading)}**\n\n{body}"
    if fmt == "bbcode":
        body = "\n".join(f"[*]{_bbcode(line)}" for line in lines)
        return f"[b]{_bbcode(heading)}[/b]\n[list]\n{body}\n[/list]"
    return "\n".join([heading, "", *(f"  {line}" for line in lines)])


def _markdown(text: str) -> str:
    """Text that Markdown shows as it is: its emphasis and link characters escaped."""
    for char in "\\`*_[]<":
        text = text.replace(char, "\\" + char)
    return text


def _bbcode(text: str) -> str:
    """Text that BBCode shows as it is: a bracket cannot open a tag."""
    return text.replace("[", "[[i][/i]")
