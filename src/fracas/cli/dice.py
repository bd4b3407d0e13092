"""``fracas roll``, ``fracas odds`` and ``fracas demo``: dice and their exact odds.

A thin layer over :mod:`fracas.dice`: it reads words, calls the core and prints what
comes back. Bad input (a ``ValueError`` from the core, an unreadable ``--dice``, a
missing argument or a bad option) ends with exit status 2 and one line on stderr.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fracas import dice
from fracas.cli import attack_odds
from fracas.cli.app import app, fail
from fracas.dice import CostError, Estimate, Mechanic, Opposed, PrismaticCheck, Roll
from fracas.dice.errors import quote
from fracas.dice.formula import Formula, depth_note
from fracas.dice.opposed import TIE_RULE_TEXT
from fracas.dice.pmf import as_float, as_weights
from fracas.dice.pmf import mean as exact_mean
from fracas.dice.sample import estimate, most_rolls
from fracas.dice.scanner import MAX_DIGITS
from fracas.dice.syntax import EXPLODE_DEPTH
from fracas.files import atomic_write

T = TypeVar("T")

#: Distributions longer than this lose their negligible tails in the terminal table.
MAX_ROWS = 30
#: Tables still longer than this are shown in ranges of values, at most this many rows.
MAX_RANGES = 40
#: Rolls suggested for an estimate when exact odds are refused.
SUGGESTED_ROLLS = 100_000
#: Total chance each trimmed tail may hold.
TRIM_MASS = Fraction(1, 1000)
#: Longest exact fraction shown in the terminal; longer ones are left to --json.
MAX_FRACTION = 25
BAR_WIDTH = 24
FACES_WIDTH = 64

WORDS_HELP = (
    "The dice system (" + ", ".join(dice.SYSTEMS) + "; standard if left out), then the "
    "expression, quoted or as separate words; 'A vs B' for an opposed roll."
)
WORDS = {"ignore_unknown_options": True}  # lets 'fracas roll tempo -1' through as words

# --- input -----------------------------------------------------------------------


def _one_line(message: str) -> str:
    return " ".join(message.split()) if "\n" in message or "\r" in message else message


#: Click's base of usage errors, found through Typer's public ``BadParameter`` (Typer may
#: bring its own copy of Click).
_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


class OneLineErrors(typer.core.TyperCommand):
    """A command whose usage errors (a missing argument, a bad option) are one line."""

    def make_context(self, info_name: str | None, args: list[str], *rest: Any, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, *rest, **extra)
        except _CLICK_ERROR as err:
            hint = f" (see 'fracas {info_name} --help')" if info_name else ""
            fail(_one_line(err.format_message()) + hint)  # type: ignore[attr-defined]


def _guard(call: Callable[[], T], context: str = "", mech: Mechanic | None = None) -> T:
    """Run a dice-layer call; its ``ValueError`` (``DiceError`` among them) is bad input.

    Exact odds refused for their cost name the way to an estimate instead.
    """
    try:
        return call()
    except CostError as err:
        hint = ""
        if mech is not None:
            rolls = min(SUGGESTED_ROLLS, most_rolls(mech))
            hint = f" with --sample N, for example --sample {rolls}"
        fail(_one_line(f"{context}{err}{hint}"))
    except ValueError as err:
        fail(_one_line(f"{context}{err}"))


def _system(words: Sequence[str]) -> tuple[str, list[str]]:
    """The system named first, or ``standard``; and the expression's words.

    >>> _system(["heimr", "C3P2"]), _system(["1d20+5"]), _system(["pitfight", "attack", "x"])
    (('heimr', ['C3P2']), ('standard', ['1d20+5']), ('pitfight', ['attack', 'x']))
    """
    if len(words) > 1 and (words[0] in dice.SYSTEMS or words[1] == "attack" or _named(words[0])):
        return words[0], list(words[1:])
    if len(words) == 1 and words[0] in dice.SYSTEMS:
        fail(f"expected an expression after {words[0]!r}, as in 'fracas roll {words[0]} ...'")
    return "standard", list(words)


def _named(word: str) -> bool:
    """Whether ``word`` reads as the name of a system rather than dice (``dnd``, not ``d20``)."""
    if not word[:1].isalpha():
        return False
    try:
        dice.parse("standard", word)
    except ValueError:
        return True
    return False


def _parse(system: str, words: Sequence[str]) -> Mechanic:
    text = " ".join(words)
    return _guard(lambda: dice.parse(system, text))


def _read_faces(text: str) -> list[int]:
    """``1,4,9,10`` (commas or spaces) to faces; names the item that is not a number."""
    items = [item for item in re.split(r"[,\s]+", text.strip()) if item]
    if not items:
        fail("--dice is empty: give the faces as in --dice 1,4,9,10")
    faces: list[int] = []
    for i, item in enumerate(items, 1):
        if not re.fullmatch(r"[+-]?[0-9]+", item):
            fail(f"--dice {quote(text)}: item {i}, {quote(item)}, is not a whole number")
        if len(item.lstrip("+-")) > MAX_DIGITS:
            fail(f"--dice: item {i} has {len(item):,} digits; a face has at most {MAX_DIGITS}")
        faces.append(int(item))
    return faces


# --- output helpers ------------------------------------------------------------------


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _pct(p: Fraction | float, digits: int = 2) -> str:
    """A percentage that never shows a possible outcome as 0% or an uncertain one as 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    floor = Fraction(1, 10 ** (digits + 2))
    if p < floor:
        return f"<{as_float(floor):.{digits}%}"
    if p > 1 - floor:
        return f">{as_float(1 - floor):.{digits}%}"
    return f"{as_float(p):.{digits}%}"


def _bar(p: Fraction, top: Fraction) -> str:
    eighths = round(BAR_WIDTH * 8 * p / top) if top else 0
    return "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]


def _at_least(pmf: Mapping[int, Fraction], above: Fraction = Fraction(0)) -> dict[int, Fraction]:
    """P(result >= value) for each value; ``above`` is mass left out beyond the largest.

    Running sums of integer weights over one common denominator, then one division each.
    """
    weights, den = as_weights(pmf)
    common = math.lcm(den, above.denominator)
    scale = common // den
    running = above.numerator * (common // above.denominator)
    out: dict[int, Fraction] = {}
    for value in sorted(pmf, reverse=True):
        running += weights[value] * scale
        out[value] = Fraction(running, common)
    return out


def _mean(pmf: Mapping[int, Fraction]) -> float:
    return as_float(exact_mean(pmf), "the mean")


def _exact_json(pmf: Mapping[int, Fraction]) -> dict[str, str]:
    return {str(v): _exact(p) for v, p in sorted(pmf.items())}


def _trim(pmf: Mapping[int, Fraction]) -> tuple[list[int], list[int], list[int]]:
    """Values to show, and the negligible low and high tails left out of a long table."""
    values = sorted(pmf)
    low: list[int] = []
    high: list[int] = []
    if len(values) <= MAX_ROWS:
        return values, low, high
    weights, den = as_weights(pmf)
    limit = den * TRIM_MASS  # the tails' weight may reach this
    hi = len(values)
    mass = 0
    while hi > 1 and mass + weights[values[hi - 1]] <= limit:
        hi -= 1
        mass += weights[values[hi]]
    lo = 0
    mass = 0
    while lo < hi - 1 and mass + weights[values[lo]] <= limit:
        mass += weights[values[lo]]
        lo += 1
    return values[lo:hi], values[:lo], values[hi:]


def _groups(values: Sequence[int]) -> list[list[int]]:
    """``values`` (ascending), one to a row, or in at most :data:`MAX_RANGES` runs of about
    equal width when there are too many for a table."""
    if len(values) <= MAX_ROWS * 2:
        return [[v] for v in values]
    width = -(-(values[-1] - values[0] + 1) // MAX_RANGES)
    out: list[list[int]] = []
    start = None
    for v in values:
        run = (v - values[0]) // width
        if run != start:
            out.append([])
            start = run
        out[-1].append(v)
    return out


def _label(group: Sequence[int]) -> str:
    return str(group[0]) if len(group) == 1 else f"{group[0]} to {group[-1]}"


def _pmf_table(
    pmf: Mapping[int, Fraction], label: str, above: Fraction = Fraction(0)
) -> tuple[Table, list[str]]:
    """The distribution as a table (value, exact, chance, at least, bar) and its footnotes;
    a long one in ranges of values."""
    at_least = _at_least(pmf, above)
    shown, low, high = _trim(pmf)
    runs = _groups(shown)
    masses = [sum((pmf[v] for v in g), Fraction(0)) for g in runs]
    top = max(masses, default=Fraction(0))
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column(label, justify="right")
    table.add_column("exact", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("", style="cyan", no_wrap=True)
    long_fraction = False
    for run, mass in zip(runs, masses, strict=True):
        exact = _exact(mass)
        if len(exact) > MAX_FRACTION:
            exact, long_fraction = "…", True
        table.add_row(_label(run), exact, _pct(mass), _pct(at_least[run[0]]), _bar(mass, top))
    notes = _tail_notes(pmf, low, high)
    if len(runs) < len(shown):
        notes.append(f"Values are grouped in {len(runs)} ranges of equal width.")
    if long_fraction:
        notes.append(f"Fractions longer than {MAX_FRACTION} characters are given by --json.")
    return table, notes


def _tail_notes(pmf: Mapping[int, Fraction], low: list[int], high: list[int]) -> list[str]:
    notes = []
    for tail, where in ((low, "below"), (high, "above")):
        if tail:
            mass = sum((pmf[v] for v in tail), Fraction(0))
            notes.append(
                f"{len(tail)} values {where} the table ({tail[0]} to {tail[-1]}) together "
                f"have a chance of {_pct(mass, 4)}; --json lists them all."
            )
    return notes


def _sample_table(est: Estimate, label: str) -> tuple[Table, list[str]]:
    """Counts of an estimate (value, rolls, chance, 95% interval, at least, bar)."""
    pmf = {v: Fraction(c, est.rolls) for v, c in est.counts.items()}
    shown, low, high = _trim(pmf)
    runs = _groups(shown)
    counts = [sum(est.counts[v] for v in g) for g in runs]
    top = Fraction(max(counts, default=0), est.rolls)
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in (label, "rolls", "chance", "95% interval", "at least"):
        table.add_column(name, justify="right")
    table.add_column("", style="cyan", no_wrap=True)
    at_least = sum(est.counts.values()) - sum(est.counts[v] for v in low)
    for run, count in zip(runs, counts, strict=True):
        lo, hi = est.interval(count)
        chance = Fraction(count, est.rolls)
        table.add_row(
            _label(run),
            str(count),
            _pct(chance),
            f"{_pct(lo)} to {_pct(hi)}",
            _pct(Fraction(at_least, est.rolls)),
            _bar(chance, top),
        )
        at_least -= count
    notes = _tail_notes(pmf, low, high)
    if len(runs) < len(shown):
        notes.append(f"Values are grouped in {len(runs)} ranges of equal width.")
    return table, notes


def _print_table(console: Console, table: Table, notes: Sequence[str]) -> None:
    console.print(table)
    for note in notes:
        console.print(Text(note, style="dim"))


def _plot(path: Path, pmf: Mapping[int, Fraction], title: str, xlabel: str) -> None:
    """Write a bar chart of ``pmf`` to ``path`` with matplotlib's Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    fig = Figure(figsize=(8, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.bar(list(pmf), [as_float(p) for p in pmf.values()], color="#4c72b0")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("chance")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="y", alpha=0.3)
    try:
        image = io.BytesIO()
        fig.savefig(image, dpi=120, format=path.suffix.removeprefix(".") or None)
        atomic_write(path, image.getvalue())
    except (OSError, ValueError) as err:
        fail(f"cannot write the plot {str(path)!r}: {err}")


# --- roll ----------------------------------------------------------------------------


def _face_lines(mech: Mechanic, roll: Roll) -> list[str]:
    """Each face with the name of its die, wrapped; tempo re-rolls get a line per throw."""
    names = mech.die_names()
    faces = roll.faces
    if len(faces) == len(names):
        groups = [("", [f"{n}: {f}" for n, f in zip(names, faces, strict=True)])]
    elif isinstance(mech, PrismaticCheck) and len(faces) % len(names) == 0:
        k = len(names)
        groups = [
            (f"throw {t + 1}: ", [f"{n}: {f}" for n, f in zip(names, faces[t * k :], strict=False)])
            for t in range(len(faces) // k)
        ]
    else:
        groups = [("", [f"d{s}: {f}" for s, f in zip(roll.dice, faces, strict=True)])]
    lines: list[str] = []
    for head, items in groups:
        line, fresh = head, True
        for item in items:
            if not fresh and len(line) + len(item) + 5 > FACES_WIDTH:
                lines.append(line)
                line, fresh = "", True
            line += item if fresh else "  ·  " + item
            fresh = False
        lines.append(line)
    return lines


def _read(mech: Mechanic, rng: random.Random, faces: list[int] | None, side: str = "") -> Roll:
    """Roll ``mech`` with ``rng``, or read the ``faces`` given."""
    if faces is None:
        return _guard(lambda: mech.roll(rng), side and f"{side}: ")
    return _guard(lambda: mech.evaluate(faces), f"--dice, {side}: " if side else "--dice: ")


def _throw(
    mech: Mechanic, rng: random.Random, faces: list[int] | None
) -> tuple[Roll, list[tuple[str, Mechanic, Roll]]]:
    """The roll and what each side rolled (one side unless opposed).

    An opposed roll is read side by side, as :meth:`Opposed.roll` does, so that a bad
    face is reported with the side it belongs to.
    """
    if not isinstance(mech, Opposed):
        roll = _read(mech, rng, faces)
        return roll, [("", mech, roll)]
    n = 0 if faces is None else mech.first.take(faces)
    first_faces, second_faces = (None, None) if faces is None else (faces[:n], faces[n:])
    first = _read(mech.first, rng, first_faces, f"first side ({mech.first.notation()})")
    second = _read(mech.second, rng, second_faces, f"second side ({mech.second.notation()})")
    sides = [("first", mech.first, first), ("second", mech.second, second)]
    return mech.resolve(first, second), sides


@app.command(context_settings=WORDS, cls=OneLineErrors, rich_help_panel="Dice")
def roll(
    words: Annotated[list[str], typer.Argument(metavar="[SYSTEM] EXPR", help=WORDS_HELP)],
    faces_text: Annotated[
        str | None,
        typer.Option(
            "--dice",
            metavar="F1,F2,...",
            help="Faces rolled by hand instead of a random roll (heimr: the d6 first; "
            "tempo: 8 per throw in colour order; opposed: the first side's, then the second's).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a repeatable roll.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Roll an expression, or read faces you rolled by hand with --dice.

    Examples: fracas roll 4d6dl1 · fracas roll heimr C3P3 --dice 1,4,9,10
    """
    system, expression = _system(words)
    mech = _parse(system, expression)
    faces = None if faces_text is None else _read_faces(faces_text)
    result, sides = _throw(mech, random.Random(seed), faces)
    if as_json:
        record = {"system": system, "expression": mech.notation(), **result.to_dict()}
        print(json.dumps(record, default=str))  # a division's fraction as '7/2'
        return
    console = Console(highlight=False)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row(system, Text(mech.notation(), style="bold"))
    if isinstance(mech, Opposed):
        grid.add_row("", Text(TIE_RULE_TEXT[mech.ties_to_first], style="dim"))
    for label, side, side_roll in sides:
        heading = f"{label} {side.notation()}" if label else "dice"
        grid.add_row(heading, "\n".join(_face_lines(side, side_roll)))
        grid.add_row("", Text(side_roll.explanation, style="italic"))
    if isinstance(mech, Opposed):
        won = "the first side wins" if result.parts.get("success") else "the second side holds"
        grid.add_row("margin", Text(f"{result.result:+d}: {won}", style="bold green"))
    else:
        grid.add_row("result", Text(str(result.result), style="bold green"))
    console.print(grid)


# --- odds ----------------------------------------------------------------------------


#: What the odds commands hand back: the JSON record, the distribution to plot and its labels.
Odds = tuple[dict[str, object], dict[int, Fraction], str, str]


def _odds_single(console: Console | None, system: str, mech: Mechanic) -> Odds:
    """The exact distribution of one expression."""
    pmf = _guard(mech.pmf, mech=mech)
    mean = _guard(lambda: _mean(pmf))
    record: dict[str, object] = {
        "system": system,
        "expression": mech.notation(),
        "exact": _exact_json(pmf),
        "pmf": {str(v): as_float(p) for v, p in sorted(pmf.items())},
        "mean": mean,
    }
    tail_note, tail = "", Fraction(0)
    if isinstance(mech, PrismaticCheck):
        tail = mech.tail_mass()
        record["tail_mass"] = _exact(tail)
        record["reroll_bound"] = mech.bound
        tail_note = (
            f"Exact up to {mech.bound} re-rolls; the chance of more ({as_float(tail):.2g}) "
            "is left out of the table and the mean."
        )
    if isinstance(mech, Formula) and (depth := depth_note(mech)) is not None:
        record["explosion_depth"] = EXPLODE_DEPTH
        record["cutoff_mass"] = _exact(mech.cutoff_mass())
        tail_note = depth
    if console is not None:
        console.print(
            Text.assemble(
                (f"{mech.notation()}", "bold"), f" ({system}): exact odds, mean {mean:.2f}"
            )
        )
        table, notes = _pmf_table(pmf, "result", above=tail)
        _print_table(console, table, [*notes, tail_note] if tail_note else notes)
    return record, pmf, f"{mech.notation()} ({system})", "result"


def _odds_opposed(console: Console | None, system: str, mech: Opposed) -> Odds:
    """The first side's chance of success under the tie rule, and the margin."""
    margin = _guard(mech.pmf, mech=mech)
    p_success = mech.p_success(margin)
    p_tie = mech.p_tie(margin)
    rule = TIE_RULE_TEXT[mech.ties_to_first]
    record: dict[str, object] = {
        "system": system,
        "expression": mech.notation(),
        "p_success": _exact(p_success),
        "p_success_float": as_float(p_success),
        "p_tie": _exact(p_tie),
        "tie_rule": rule,
        "margin": _exact_json(margin),
    }
    counts = system in dice.COUNTING_SUCCESSES
    successes = _guard(mech.successes_pmf, mech=mech) if counts else None
    if successes is not None:
        record["successes"] = _exact_json(successes)
    left_out = 1 - sum(margin.values(), Fraction(0))
    if left_out:
        record["tail_mass"] = _exact(left_out)
    if console is not None:
        first, second = mech.first.notation(), mech.second.notation()
        console.print(Text(f"{first} vs {second} ({system})", style="bold"))
        console.print(
            f"The first side ({first}) succeeds with probability {_exact(p_success)}, "
            f"about {_pct(p_success)}."
        )
        console.print(f"A tie has a chance of {_pct(p_tie)}: {rule}.")
        if left_out:
            console.print(
                f"Re-rolls beyond the bound (chance {as_float(left_out):.2g}) are left out."
            )
        console.print()
        _print_table(console, *_pmf_table(margin, "margin"))
        if successes is not None:
            console.print()
            console.print("Successes of the first side (equal or greater 1, double 2, ...):")
            _print_table(console, *_pmf_table(successes, "successes"))
    title = f"{mech.notation()} ({system}): the first side succeeds {_pct(p_success)}"
    return record, margin, title, "margin (first minus second)"


def _interval_json(est: Estimate, count: int | None) -> list[float]:
    return list(est.interval(count))


def _odds_sample(
    console: Console | None, system: str, mech: Mechanic, rolls: int, seed: int
) -> Odds:
    """A Monte-Carlo estimate from ``rolls`` seeded rolls, with Wilson 95% intervals."""
    est = _guard(lambda: estimate(mech, rolls, random.Random(seed)))
    opposed = isinstance(mech, Opposed)
    record: dict[str, object] = {
        "system": system,
        "expression": mech.notation(),
        "sample": rolls,
        "seed": seed,
        "counts": {str(v): c for v, c in est.counts.items()},
        "estimate": {str(v): est.chance(c) for v, c in est.counts.items()},
        "interval": {str(v): _interval_json(est, c) for v, c in est.counts.items()},
        "mean": est.mean(),
    }
    if est.successes is not None:
        record["p_success"] = est.chance(est.successes)
        record["p_success_interval"] = _interval_json(est, est.successes)
    if opposed:
        assert isinstance(mech, Opposed)
        record["p_tie"] = est.chance(est.counts.get(0, 0))
        record["p_tie_interval"] = _interval_json(est, est.counts.get(0, 0))
        record["tie_rule"] = TIE_RULE_TEXT[mech.ties_to_first]
    label = "margin" if opposed else "result"
    if console is not None:
        console.print(
            Text.assemble(
                (mech.notation(), "bold"),
                f" ({system}): estimate from {rolls:,} rolls (seed {seed}), mean {est.mean():.2f}",
            )
        )
        if est.successes is not None:
            lo, hi = est.interval(est.successes)
            who = "The first side" if opposed else "The roll"
            console.print(
                f"{who} succeeds in {_pct(est.chance(est.successes))} of the rolls "
                f"(95% interval {_pct(lo)} to {_pct(hi)})."
            )
        if isinstance(mech, Opposed):
            console.print(f"{TIE_RULE_TEXT[mech.ties_to_first].capitalize()}.")
        _print_table(console, *_sample_table(est, label))
    pmf = {v: Fraction(c, rolls) for v, c in est.counts.items()}
    title = f"{mech.notation()} ({system}): estimate from {rolls:,} rolls"
    return record, pmf, title, "margin (first minus second)" if opposed else "result"


@app.command(context_settings=WORDS, cls=OneLineErrors, rich_help_panel="Dice")
def odds(
    words: Annotated[list[str], typer.Argument(metavar="[SYSTEM] EXPR", help=WORDS_HELP)],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(metavar="FILE.png", help="Also write a bar chart of the distribution."),
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Estimate from N random rolls instead of exact odds, with 95% intervals "
            "(for expressions too large for exact odds).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the rolls of --sample (drawn and shown if not given)."),
    ] = None,
) -> None:
    """Exact odds of an expression, or of 'A vs B' under the system's tie rule.

    Examples: fracas odds 8d6ro<2 · fracas odds heimr C3P2 vs C2P1
    """
    system, expression = _system(words)
    if expression[:1] == ["attack"]:  # one attack: the ruleset's own odds command
        return attack_odds.odds_command(system, expression[1:], as_json)
    mech = _parse(system, expression)
    if plot is not None and not plot.parent.is_dir():
        fail(f"--plot {str(plot)!r}: the folder {str(plot.parent)!r} does not exist")
    console = None if as_json else Console(highlight=False)
    if sample is not None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        record, pmf, title, xlabel = _odds_sample(console, system, mech, sample, seed)
    elif isinstance(mech, Opposed):
        record, pmf, title, xlabel = _odds_opposed(console, system, mech)
    else:
        record, pmf, title, xlabel = _odds_single(console, system, mech)
    if plot is not None:
        _plot(plot, pmf, title, xlabel)
        typer.echo(f"wrote {plot}", err=as_json)
    if as_json:
        print(json.dumps(record))
