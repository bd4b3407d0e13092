"""Tune an encounter: the value of one number that brings a side nearest a target win
rate, within a budget (at most :data:`MAX_VALUES` values tried, and a time bound).

The number is how many of a combatant (``eirik``: the rows of that character, copied
from its first) or one value of a character, as a sweep names it (``eirik.hit_points``,
``ylva.Sword and shield.consistency``: :func:`fracas.lab.sweep.resolve`). Each value
tried plays the same runs from the same seed (common random numbers), so values differ
by the number, not by luck.

The search: with at most :data:`MAX_VALUES` values, all of them, ends and middle first
(a search stopped by its time bound has still spread over the range); with more, the
ends, then halving the gap beside the best value so far, on the side where the win rate
crosses the target.

>>> knob = parse_knob("eirik", "1..3", {"campaign": {"characters": {"eirik": {}}},
...     "combatants": [{"character": "eirik", "square": "A1"}]})
>>> [len(knob_setup({"combatants": [{"character": "eirik"}]}, knob, n)["combatants"])
...  for n in knob.values]
[1, 2, 3]
>>> spread_order([1, 2, 3, 4, 5])
[0, 4, 2, 1, 3]
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fracas.lab import stats
from fracas.lab.playout import Outcome
from fracas.lab.runner import SimSpec, make_spec
from fracas.lab.sweep import apply, parse_vary, resolve

__all__ = [
    "MAX_VALUES",
    "Knob",
    "Point",
    "TuneResult",
    "knob_setup",
    "next_value",
    "parse_knob",
    "spread_order",
    "svg",
    "tune",
]

#: The most values a search tries, and the longest it may take (seconds).
MAX_VALUES = 12
MAX_SECONDS = 30.0
#: The most copies of a combatant.
MAX_COUNT = 20


@dataclass(frozen=True)
class Knob:
    """The number tuned: ``count`` of a character's rows, or a ``value`` at ``path``
    in its campaign entry."""

    kind: str
    character: str
    path: tuple[str, ...]
    values: tuple[float, ...]
    label: str


def parse_knob(text: str, values: str, setup: Mapping[str, Any]) -> Knob:
    """The knob ``text`` (``CHARACTER``: how many; ``CHARACTER.PATH``: a value) over
    ``values`` (``A..B``, ``A..B:STEP`` or ``1,2,5``); :class:`ValueError` in words."""
    text, values = text.strip()[:200], values.strip()[:200]
    if not text:
        raise ValueError("name what to tune: a character (how many) or character.value")
    if "." not in text:
        vary = parse_vary(f"{text}.count={values}")
        found = sorted(vary.values)
        if any(v != int(v) or not 0 <= v <= MAX_COUNT for v in found):
            raise ValueError(f"how many {text}: whole numbers from 0 to {MAX_COUNT}")
        rows = [c for c in setup.get("combatants") or () if c.get("character") == text]
        if not rows:
            raise ValueError(f"no combatant is the character {text!r} in this encounter")
        return Knob("count", text, (), tuple(found), f"how many {text}")
    vary = parse_vary(f"{text}={values}")
    path = resolve(vary, setup)
    return Knob("value", vary.character, path, tuple(sorted(vary.values)), vary.label)


def knob_setup(setup: Mapping[str, Any], knob: Knob, value: float) -> dict[str, Any]:
    """A copy of ``setup`` with the knob at ``value``."""
    if knob.kind == "value":
        out: dict[str, Any] = apply(setup, knob.character, knob.path, value)
        return out
    out = copy.deepcopy(dict(setup))
    rows = list(out.get("combatants") or ())
    first = next(c for c in rows if c.get("character") == knob.character)
    taken = {str(c.get("id") or c.get("character")) for c in rows if c is not first}
    placed: list[Any] = []
    number = 1
    for row in rows:
        if row is not first:
            if row.get("character") != knob.character:
                placed.append(row)
            continue
        for k in range(int(value)):
            again = dict(first)
            if k:
                number += 1
                while f"{knob.character}{number}" in taken:
                    number += 1
                again["id"] = f"{knob.character}{number}"
            placed.append(again)
    out["combatants"] = placed
    return out


@dataclass(frozen=True)
class Point:
    """One value tried: the side's win rate, its 95% interval, the runs."""

    value: float
    rate: float
    low: float
    high: float
    runs: int


@dataclass
class TuneResult:
    knob: Knob
    side: str
    target: float
    points: list[Point] = field(default_factory=list)
    #: Values refused by the ruleset (a side left empty, say), with why.
    refused: dict[float, str] = field(default_factory=dict)
    #: Why the search stopped before trying every value it meant to ("" if it did not).
    why: str = ""

    @property
    def best(self) -> Point | None:
        """The value tried whose win rate is nearest the target (the smaller on a tie)."""
        if not self.points:
            return None
        return min(self.points, key=lambda p: (abs(p.rate - self.target), p.value))

    def sorted_points(self) -> list[Point]:
        return sorted(self.points, key=lambda p: p.value)


def spread_order(values: Sequence[float]) -> list[int]:
    """Indices of ``values``: the ends, the middle, then the middles of the gaps."""
    n = len(values)
    if n <= 2:
        return list(range(n))
    order = [0, n - 1]
    gaps = [(0, n - 1)]
    while gaps:
        wider = []
        for a, b in gaps:
            if b - a > 1:
                m = (a + b) // 2
                order.append(m)
                wider += [(a, m), (m, b)]
        gaps = wider
    return order


def next_value(
    values: Sequence[float], tried: Mapping[int, float], target: float, limit: int
) -> int | None:
    """The index of the next value to try (``tried``: index -> win rate), or ``None``."""
    if len(tried) >= limit:
        return None
    if len(values) <= limit:
        return next((i for i in spread_order(values) if i not in tried), None)
    for end in (0, len(values) - 1):
        if end not in tried:
            return end
    done = sorted(tried)
    best = min(done, key=lambda i: (abs(tried[i] - target), i))
    at = done.index(best)
    choices = []
    for other in (done[at - 1] if at else None, done[at + 1] if at + 1 < len(done) else None):
        if other is None or abs(other - best) <= 1:
            continue
        crosses = (tried[other] - target) * (tried[best] - target) <= 0
        choices.append((not crosses, -abs(other - best), (other + best) // 2))
    if not choices:
        return None
    return min(choices)[2]


#: Plays a spec's runs; ``None`` when stopped before the end.
Play = Callable[[SimSpec], list[Outcome] | None]


def tune(
    spec: SimSpec,
    knob: Knob,
    side: str,
    target: float,
    play: Play,
    *,
    max_values: int = MAX_VALUES,
    seconds: float = MAX_SECONDS,
    on_point: Callable[[TuneResult], None] | None = None,
) -> TuneResult:
    """Search the knob's values for the one bringing ``side`` nearest ``target``."""
    if side not in spec.sides:
        raise ValueError(f"no side {side!r} here (sides: {', '.join(spec.sides)})")
    if not 0 <= target <= 1:
        raise ValueError("the target win rate is 0 to 100%")
    max_values = max(1, min(max_values, MAX_VALUES))
    seconds = min(seconds, MAX_SECONDS)
    result = TuneResult(knob, side, target)
    tried: dict[int, float] = {}
    refused: set[int] = set()
    deadline = time.monotonic() + seconds
    while True:
        if time.monotonic() >= deadline:
            result.why = f"stopped at {seconds:g} s"
            break
        shown = {i: r for i, r in tried.items()}
        shown.update({i: 2.0 for i in refused})  # far from any target: searched past
        index = next_value(knob.values, shown, target, max_values)
        if index is None:
            break
        value = knob.values[index]
        try:
            cell = make_spec(
                spec.ruleset,
                knob_setup(spec.setup, knob, value),
                dict(spec.policies),
                engine=spec.engine,
                max_actions=spec.max_actions,
                title=spec.title,
            )
        except ValueError as err:
            refused.add(index)
            result.refused[value] = str(err).splitlines()[0]
            continue
        outcomes = play(cell)
        if outcomes is None:
            result.why = "stopped"
            break
        wins = sum(1 for o in outcomes if o.winner == side)
        low, high = stats.wilson(wins, len(outcomes))
        rate = wins / len(outcomes) if outcomes else 0.0
        tried[index] = rate
        result.points.append(
            Point(value, round(rate, 6), round(low, 6), round(high, 6), len(outcomes))
        )
        if on_point is not None:
            on_point(result)
    return result


def svg(result: TuneResult, width: int = 360, height: int = 200) -> str:
    """A small inline SVG: the side's win rate against the values tried, with the 95%
    intervals, the target line and the best value ringed."""
    left, right, top, bottom = 40, 12, 12, 32
    points = result.sorted_points()
    xs = list(result.knob.values) or [0.0]
    lo_x, hi_x = min(xs), max(xs)
    span = (hi_x - lo_x) or 1.0

    def px(v: float) -> float:
        return round(left + (v - lo_x) / span * (width - left - right), 1)

    def py(r: float) -> float:
        return round(top + (1 - r) * (height - top - bottom), 1)

    out = [
        f'<svg class="tune-plot" id="tune-plot" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{_esc(result.side)} win rate against '
        f'{_esc(result.knob.label)}">'
    ]
    for r in (0.0, 0.5, 1.0):
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{py(r)}" y2="{py(r)}" class="grid"/>'
            f'<text x="{left - 4}" y="{py(r) + 4}" text-anchor="end" class="tick">'
            f"{round(r * 100)}%</text>"
        )
    out.append(
        f'<line x1="{left}" x2="{width - right}" y1="{py(result.target)}" '
        f'y2="{py(result.target)}" class="target"><title>target '
        f"{round(result.target * 100)}%</title></line>"
    )
    ticks = xs if len(xs) <= 12 else [p.value for p in points]
    for v in ticks:
        out.append(
            f'<text x="{px(v)}" y="{height - bottom + 14}" text-anchor="middle" class="tick">'
            f"{v:g}</text>"
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle" '
        f'class="axis">{_esc(result.knob.label)}</text>'
    )
    if len(points) > 1:
        line = " ".join(f"{px(p.value)},{py(p.rate)}" for p in points)
        out.append(f'<polyline points="{line}" class="rate"/>')
    best = result.best
    for p in points:
        out.append(
            f'<line x1="{px(p.value)}" x2="{px(p.value)}" y1="{py(p.low)}" y2="{py(p.high)}" '
            f'class="ci"/><circle cx="{px(p.value)}" cy="{py(p.rate)}" r="3" class="point">'
            f"<title>{p.value:g}: {round(p.rate * 100)}% "
            f"({round(p.low * 100)}–{round(p.high * 100)}%, {p.runs} runs)</title></circle>"
        )
    if best is not None:
        out.append(f'<circle cx="{px(best.value)}" cy="{py(best.rate)}" r="7" class="best"/>')
    out.append("</svg>")
    return "".join(out)


def _esc(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
