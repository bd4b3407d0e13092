"""The one presenter: everything a side is shown, derived from that side's view alone.

:func:`present` takes a :class:`~fracas.table.table.TableView` (a side's view of the
encounter plus what the table knows about it: the title, the actions that side is
offered, the outcome) and returns a :class:`Screen` of plain strings and values. The
terminal tracker draws a screen with Rich, the web pages with Jinja2; neither reads the
encounter itself, so nothing hidden from a side can reach that side's screen.

The game master's screen is a :class:`GmScreen`, a separate type: it adds the actions as
typed and the initiative rolls, which a side's screen has no field for.

>>> tv = TableView(
...     title="Duel", ruleset="Heimr", side=None,
...     view={"to_move": "ylva", "over": False, "log": [],
...           "state": {"round": 1, "current": "ylva", "order": ["ylva"],
...                     "combatants": {"ylva": {"name": "Ylva", "side": "north",
...                                             "hp": 4, "max_hp": 4, "fatigue": 2}}}},
...     offered=("ylva end",), typed=(), outcome=None, note=None)
>>> screen = present(tv)
>>> screen.status, screen.rows[0].cells
('Ylva to act', ('HP 4/4', 'fat 2'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "GmScreen",
    "LogLine",
    "Numbering",
    "RollPrompt",
    "RollView",
    "Row",
    "Screen",
    "TableView",
    "present",
    "roll_prompt",
]

#: Log lines a screen carries unless asked for more.
LOG_TAIL = 8


@dataclass(frozen=True)
class TableView:
    """What the table hands the presenter for one audience (``side`` None: the GM).

    ``view`` is :func:`fracas.engine.view` for that side; ``offered`` the actions that
    side may take now, as text; ``typed`` the actions as typed, one per entry of the
    view's log (the GM's only: empty for a side); ``outcome`` who won or that the fight
    has stalled; ``note`` why the one to act has nothing to do, where the rules say.
    """

    title: str
    ruleset: str
    side: str | None
    view: Mapping[str, Any]
    offered: tuple[str, ...]
    typed: tuple[str, ...]
    outcome: str | None
    note: str | None
    log_tail: int = LOG_TAIL


@dataclass(frozen=True)
class Row:
    """One combatant as the audience sees them, as short strings."""

    id: str
    name: str
    side: str
    place: str
    acting: bool
    down: bool
    cells: tuple[str, ...]
    effects: tuple[str, ...]
    readied: str | None = None
    #: The name, with the id when another combatant the audience knows has the same name.
    label: str = ""


@dataclass(frozen=True)
class Screen:
    """All a side is shown: header, whose turn, combatants, map data, log, offered actions."""

    audience: str
    header: str
    status: str
    rows: tuple[Row, ...]
    battlefield: Mapping[str, Any] | None
    people: Mapping[str, Mapping[str, Any]]
    log: tuple[str, ...]
    log_size: int
    offered: tuple[str, ...]
    over: bool
    note: str | None = None
    order: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class GmScreen(Screen):
    """The game master's screen: a side's fields, plus the initiative rolls."""

    initiative: Mapping[str, Any] = field(default_factory=dict)


def present(tv: TableView) -> Screen:
    """The screen for ``tv.side`` (a :class:`GmScreen` for the game master)."""
    view = tv.view
    state: Mapping[str, Any] = view.get("state", {})
    people: Mapping[str, Mapping[str, Any]] = state.get("combatants", {})
    current = view.get("to_move")
    order = [cid for cid in state.get("order", []) if cid in people]
    order += [cid for cid in people if cid not in order]
    named = labels(people)
    rows = tuple(_row(cid, people[cid], cid == current, named[cid]) for cid in order)
    log, size = _log(view.get("log", []), tv.typed, tv.log_tail, named)
    fields: dict[str, Any] = dict(
        audience="gm" if tv.side is None else tv.side,
        header=_header(tv, state),
        status=_status(tv, people, current, named),
        rows=rows,
        battlefield=state.get("battlefield") if _has_grid(state) else None,
        people=_map_people(state, people, named),
        log=log,
        log_size=size,
        offered=tv.offered,
        over=bool(view.get("over")),
        note=tv.note,
        order=tuple(order),
    )
    if tv.side is None:
        return GmScreen(**fields, initiative=dict(state.get("initiative") or {}))
    return Screen(**fields)


def _header(tv: TableView, state: Mapping[str, Any]) -> str:
    parts = [tv.title, tv.ruleset]
    if state.get("round"):
        parts.append(f"round {state['round']}")
    clock = state.get("clock")
    if clock:
        parts.append(f"{clock} s")
    parts.append("game master" if tv.side is None else f"side {tv.side}")
    return " · ".join(str(p) for p in parts)


def labels(people: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Each combatant's label: its name, with its id where two share the name.

    >>> labels({"eirik": {"name": "Eirik"}, "archer2": {"name": "Eirik"}, "ylva": {}})
    {'eirik': 'Eirik (eirik)', 'archer2': 'Eirik (archer2)', 'ylva': 'ylva'}
    """
    names = {cid: str(p.get("name", cid)) for cid, p in people.items()}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {cid: f"{n} ({cid})" if counts[n] > 1 else n for cid, n in names.items()}


def _status(
    tv: TableView,
    people: Mapping[str, Mapping[str, Any]],
    current: Any,
    named: Mapping[str, str],
) -> str:
    if tv.outcome:
        return tv.outcome
    if tv.view.get("over"):
        return "The encounter is over."
    declared = tv.view.get("state", {}).get("declared")
    if isinstance(declared, Mapping) and current not in (None, "gm"):
        # Every side declares at once (heimr-classic): nobody acts alone.
        waiting = [
            named[cid]
            for cid, p in people.items()
            if cid not in declared and not (p.get("dead") or p.get("unconscious") or p.get("down"))
        ]
        if waiting:
            return f"Every side declares at once: waiting for {', '.join(waiting)}"
    if current is None:
        return "Waiting for the other sides." if tv.side is not None else "Nobody to act."
    if current == "gm":
        return "The game master to act."
    if current not in people:  # a view never names someone it hides; say only that we wait
        return "Waiting."
    return f"{named[current]} to act"


class LogLine(str):
    """A line of the log: its text, with the ids of the combatants it is about (``who``)
    and its kind (``"action"`` as typed, ``"round"`` for a round's separator, else the
    event's kind), for a page's filter and separators.

    >>> line = LogLine("  Ylva ends the turn", ("ylva",), "end")
    >>> line == "  Ylva ends the turn", line.who
    (True, ('ylva',))
    """

    who: tuple[str, ...]
    kind: str

    def __new__(cls, text: str, who: Sequence[str] = (), kind: str = "") -> LogLine:
        line = super().__new__(cls, text)
        line.who = tuple(who)
        line.kind = kind
        return line


def _event_line(e: Mapping[str, Any], named: Mapping[str, str]) -> LogLine:
    """An event's line, led by its combatant's id where two share the name (the text
    itself stays as the rules wrote it)."""
    text = str(e["text"])
    data = e.get("data")
    who = data.get("who") if isinstance(data, Mapping) else None
    ids = (who,) if isinstance(who, str) else ()
    if isinstance(who, str) and named.get(who, "").endswith(f" ({who})"):
        text = f"({who}) {text}"
    return LogLine(f"  {text}", ids, str(e.get("kind", "")))


def _log(
    entries: Sequence[Sequence[Mapping[str, Any]]],
    typed: Sequence[str],
    tail: int,
    named: Mapping[str, str] | None = None,
) -> tuple[tuple[LogLine, ...], int]:
    """The last ``tail`` lines of the log (and how many there are), built from the end so
    that a long encounter costs only what is shown."""
    lines: list[LogLine] = []
    size = 0
    named = named or {}
    for n in range(len(entries) - 1, -1, -1):
        if tail and len(lines) >= tail:
            size += len(entries[n]) + (n < len(typed))
            continue
        block = [_event_line(e, named) for e in entries[n]]
        if n < len(typed):
            actor = typed[n].split(" ", 1)[0]
            block.insert(0, LogLine(f"> {typed[n]}", (actor,), "action"))
        size += len(block)
        lines[:0] = block
    return tuple(lines[-tail:] if tail else lines), size


def _round(e: Mapping[str, Any]) -> int | None:
    data = e.get("data")
    number = data.get("round") if isinstance(data, Mapping) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def log_text(
    tv: TableView, named: Mapping[str, str] | None = None, before: int | None = None
) -> list[LogLine]:
    """The whole log for the audience: each action as typed (GM only), then its events,
    combatants named by ``named`` (their labels), and a separator line where a round
    begins (``before``: the round in force before the first entry, when known)."""
    entries: Sequence[Sequence[Mapping[str, Any]]] = tv.view.get("log", [])
    lines, _ = _log(entries, tv.typed, 0, named)
    out: list[LogLine] = []
    last = before
    events = iter([e for entry in entries for e in entry])
    for line in lines:
        if line.kind != "action":
            number = _round(next(events, {}))
            if number is not None and number != last:
                if number > 0:
                    out.append(LogLine(f"── round {number} ──", (), "round"))
                last = number
        out.append(line)
    return out


def round_before(entries: Sequence[Sequence[Mapping[str, Any]]]) -> int | None:
    """The round of the last event of ``entries`` that names one (``None``: none does)."""
    for entry in reversed(entries):
        for e in reversed(entry):
            number = _round(e)
            if number is not None:
                return number
    return None


def _row(cid: str, p: Mapping[str, Any], acting: bool, label: str = "") -> Row:
    down = bool(p.get("dead") or p.get("unconscious") or p.get("down"))
    return Row(
        id=cid,
        name=str(p.get("name", cid)),
        side=str(p.get("side", "")),
        place=_place(p),
        acting=acting,
        down=down,
        cells=tuple(_cells(p)),
        effects=tuple(_effects(p)),
        readied=_readied(p),
        label=label or str(p.get("name", cid)),
    )


def _place(p: Mapping[str, Any]) -> str:
    for key in ("square", "region"):
        if p.get(key) not in (None, ""):
            return str(p[key])
    if p.get("hidden"):
        return "hidden"
    if p.get("position") is not None:
        return f"{p['position']:g}'" if isinstance(p["position"], float) else str(p["position"])
    return ""


#: Numbers shown in a row, in this order, as (key, label).
NUMBERS = (
    ("fatigue", "fat"),
    ("willpower", "WP"),
    ("stamina", "stam"),
    ("ap", "AP"),
    ("mp", "MP"),
    ("hero_points", "hero"),
)


def _cells(p: Mapping[str, Any]) -> Iterable[str]:
    """The numbers of a row, as its side's view shows them.

    >>> bowman = {"hp": 3, "max_hp": 4, "ammunition": {"Arrow": 19}, "drawn_ammunition": "Arrow"}
    >>> list(_cells(bowman))
    ['HP 3/4', 'Arrow 19 +1 drawn']
    """
    if p.get("hp") is not None:
        top = p.get("max_hp")
        yield f"HP {p['hp']}/{top}" if top is not None else f"HP {p['hp']}"
    if p.get("injury"):
        yield str(p["injury"])
    for key, label in NUMBERS:
        if p.get(key) is not None:
            value = p[key]
            top = p.get(f"max_{key}")
            yield f"{label} {value}/{top}" if top is not None else f"{label} {value}"
    if p.get("status"):
        yield str(p["status"])
    ammunition = p.get("ammunition")
    if isinstance(ammunition, Mapping):  # counted, its own side's (H-ACT-8)
        for kind, left in ammunition.items():
            yield f"{kind} {left}" + (" +1 drawn" if p.get("drawn_ammunition") == kind else "")
    defence = p.get("defence")
    if isinstance(defence, Mapping):
        yield f"{defence.get('kind')} {defence.get('result')}"
    if p.get("stance") not in (None, "", "normal"):
        yield f"stance {p['stance']}"


def _effects(p: Mapping[str, Any]) -> Iterable[str]:
    """Each effect once (two injuries may give the same one)."""
    return dict.fromkeys(_each_effect(p))


def _each_effect(p: Mapping[str, Any]) -> Iterable[str]:
    details = {d["name"]: d for d in p.get("effect_details") or [] if isinstance(d, Mapping)}
    for name in p.get("effects") or []:
        d = details.get(name)
        if d is None:
            yield str(name)
            continue
        text = f"{name} {d['number']}" if d.get("number") is not None else str(name)
        if d.get("injury"):
            text += " (while injured)"
        elif d.get("turns") is not None:
            turns = d["turns"]
            text += f" ({turns} turn{'' if turns == 1 else 's'} left)"
        yield text
    if p.get("prone"):
        yield "prone"
    if p.get("climbing"):
        yield "climbing"
    if p.get("held_by"):
        yield f"held by {p['held_by']}"
    if p.get("holding"):
        yield f"holding {p['holding']}"
    if p.get("guarding"):
        yield f"guarding {p['guarding']}"
    if p.get("hidden") and p.get("square"):
        yield "hidden"
    if p.get("dead"):
        yield "dead"
    elif p.get("unconscious"):
        yield "unconscious"
    elif p.get("down"):
        yield "down"


def _readied(p: Mapping[str, Any]) -> str | None:
    readied = p.get("readied")
    if isinstance(readied, Mapping):
        return f"ready: {readied.get('action')} when {readied.get('trigger')}"
    if p.get("upcoming"):
        return f"upcoming: {p['upcoming']}"
    return None


def _has_grid(state: Mapping[str, Any]) -> bool:
    field_ = state.get("battlefield")
    return isinstance(field_, Mapping) and bool(field_.get("columns"))


def _map_people(
    state: Mapping[str, Any],
    people: Mapping[str, Mapping[str, Any]],
    named: Mapping[str, str],
) -> dict[str, dict[str, Any]]:
    """Who stands where, for a map: only what the view shows."""
    cluster_of = {cid: i for i, c in enumerate(state.get("clusters", [])) for cid in c}
    return {
        cid: {
            "name": p.get("name", cid),
            "label": named.get(cid, cid),
            "side": p.get("side"),
            "square": p.get("square"),
            "height": p.get("height"),
            "cluster": cluster_of.get(cid),
            "hidden": p.get("hidden", False),
        }
        for cid, p in people.items()
    }


class Numbering:
    """Action numbers that stay put while the same one acts: an action keeps its number
    as long as it is offered, and new ones take the next free numbers.

    >>> n = Numbering()
    >>> n.number("ylva", ["ylva attack astrid", "ylva end"])
    [(1, 'ylva attack astrid'), (2, 'ylva end')]
    >>> n.number("ylva", ["ylva end", "ylva breather"])
    [(2, 'ylva end'), (3, 'ylva breather')]
    >>> n.number("astrid", ["astrid end"])
    [(1, 'astrid end')]
    """

    def __init__(self) -> None:
        self.owner: str | None = None
        self.numbers: dict[str, int] = {}

    def number(self, owner: str | None, actions: Sequence[str]) -> list[tuple[int, str]]:
        if owner != self.owner:
            self.owner, self.numbers = owner, {}
        taken = set(self.numbers.values())
        for text in actions:
            if text not in self.numbers:
                n = max(taken, default=0) + 1
                self.numbers[text] = n
                taken.add(n)
        return sorted((self.numbers[text], text) for text in actions)

    def action(self, number: int) -> str | None:
        for text, n in self.numbers.items():
            if n == number:
                return text
        return None


# -- a roll an action waits for ----------------------------------------------------------------


@dataclass(frozen=True)
class RollView:
    """A roll an action waits for, as the table hands it to the presenter for one audience
    (``side`` None: the GM): ``owner`` is asked for it (``None``: the GM), ``asker`` asked
    for the action; ``purpose`` is already as ``side`` may read it."""

    side: str | None
    token: str
    owner: str | None
    asker: str | None
    action: str
    purpose: str
    notation: str
    dice: tuple[str, ...]
    throw: int
    problem: str | None
    away: bool
    waited: int
    #: Why a later throw is asked (see :meth:`fracas.dice.Mechanic.more_note`).
    reason: str = ""


@dataclass(frozen=True)
class RollPrompt:
    """What one audience is shown of a roll an action waits for: asked of it (``mine``)
    or waited on, the action only for those who may know it."""

    token: str
    mine: bool
    text: str
    problem: str | None = None
    action: str | None = None
    note: str | None = None


def roll_prompt(rv: RollView) -> RollPrompt:
    """A roll as ``rv.side`` is shown it: the game master sees everything and may always
    answer; the side that owns it is asked (the action only if it asked for it); the side
    that asked for the action is told it waits; another side only that dice are awaited.

    >>> from dataclasses import replace
    >>> rv = RollView("party", "t", "orcs", "party", "darna attack orc", "Orc attacks Darna",
    ...               "2d6", ("d6", "d6"), 1, None, False, 3)
    >>> roll_prompt(rv).text
    "Waiting for another side's dice."
    >>> roll_prompt(replace(rv, side="orcs")).text
    'Orc attacks Darna: roll 2d6 (d6, d6)'
    >>> roll_prompt(replace(rv, side="orcs")).action is None
    True
    """
    question = f"{rv.purpose}: roll {rv.notation} ({', '.join(rv.dice)})"
    if rv.throw > 1:
        question += f", throw {rv.throw}" + (f" ({rv.reason})" if rv.reason else "")
    if rv.side is None:
        who = "your roll" if rv.owner is None else f"a roll of side {rv.owner}"
        if rv.owner is not None and rv.away:
            note = f"{who}, which has no page open: you type it"
        elif rv.owner is not None:
            note = f"{who}, asked of it {rv.waited} s ago: you may type it"
        else:
            note = who
        return RollPrompt(rv.token, True, question, rv.problem, rv.action, note)
    if rv.side == rv.owner:
        action = rv.action if rv.asker == rv.side else None
        return RollPrompt(rv.token, True, question, rv.problem, action)
    if rv.side == rv.asker:
        whose = "the game master's" if rv.owner is None else "another side's"
        return RollPrompt(rv.token, False, f"Waiting for {whose} dice.", action=rv.action)
    return RollPrompt(rv.token, False, "An action waits for dice.")
