"""The largest dice expression of each shape that ``fracas odds`` accepts, and its time.

For each shape (a family of expressions with one growing number) the largest number
whose exact odds are accepted is found by bisection on the cost estimate alone
(:meth:`~fracas.dice.Mechanic.steps`, no odds computed), then ``fracas odds`` is run on
it in this process, in the terminal and as ``--json``. Estimates (``--sample``) are timed
at the most rolls they allow. The times are CPU seconds of this process: what the limits
are chosen to keep to a few seconds.

    .venv/bin/python benchmarks/dice_limits.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from typer.testing import CliRunner

from fracas.cli import app
from fracas.dice import LimitError, parse
from fracas.dice.core import MAX_STEPS
from fracas.dice.sample import most_rolls

#: (system, shape, the expression for n, the largest n the notation allows)
SHAPES: list[tuple[str, str, Callable[[int], str], int]] = [
    ("standard", "NdM, M = 1000", lambda n: f"{n}d1000", 100),
    ("standard", "100dM", lambda n: f"100d{n}", 1000),
    ("standard", "3dMkh3", lambda n: f"3d{n}kh3", 1000),
    ("standard", "NdMkh1, M = 100", lambda n: f"{n}d100kh1", 100),
    ("standard", "Nd20kh(N/2)", lambda n: f"{n}d20kh{max(1, n // 2)}", 100),
    ("standard", "NdMadv, M = 1000", lambda n: f"{n}d1000adv", 100),
    ("standard", "d1000 + d1000 + ... (N terms)", lambda n: "+".join(["d1000"] * n), 160),
    ("standard", "NdM vs NdM, M = 1000", lambda n: f"{n}d1000 vs {n}d1000", 100),
    ("standard", "dM vs dM adv", lambda n: f"d{n} vs d{n}adv", 1000),
    ("heimr", "C+N vs C-N", lambda n: f"C{n}P0 vs C-{n}P0", 100),
    ("tempo", "pool vs pool", lambda n: "pool vs pool", 1),
    ("diestep", "d60 adv vs d60 dis", lambda n: "d60 adv vs d60 dis", 1),
]
SAMPLES = [("standard", "100d1000"), ("standard", "5d1000 vs 5d1000"), ("heimr", "C3P2 vs C2P1")]


def accepted(system: str, text: str) -> bool:
    try:
        return parse(system, text).steps() <= MAX_STEPS
    except LimitError:
        return False


def largest(system: str, make: Callable[[int], str], top: int) -> int | None:
    """The largest n in 1..top whose expression is accepted (costs grow with n)."""
    if not accepted(system, make(1)):
        return None
    lo, hi = 1, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if accepted(system, make(mid)):
            lo = mid
        else:
            hi = mid - 1
    return lo


def timed(args: list[str]) -> float:
    runner = CliRunner()
    start = time.process_time()
    result = runner.invoke(app, args, env={"COLUMNS": "100"})
    spent = time.process_time() - start
    assert result.exit_code == 0, (args, result.stderr)
    return spent


def main() -> None:
    print(f"Exact odds: MAX_STEPS = {MAX_STEPS:,}\n")
    print("| shape | largest accepted | estimated steps | terminal (s) | --json (s) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for system, shape, make, top in SHAPES:
        n = largest(system, make, top)
        if n is None:
            print(f"| {shape} ({system}) | none | | | |")
            continue
        text = make(n)
        steps = parse(system, text).steps()
        terminal = timed(["odds", system, text])
        as_json = timed(["odds", system, text, "--json"])
        shown = text if len(text) <= 40 else f"{text[:18]}… ({n} terms)"
        print(
            f"| {shape} | `{system} {shown}` | {steps:,} | {terminal:.2f} | {as_json:.2f} |",
            flush=True,
        )
    print("\n| estimate | most rolls | terminal (s) |")
    print("| --- | ---: | ---: |")
    for system, text in SAMPLES:
        rolls = most_rolls(parse(system, text))
        spent = timed(["odds", system, text, "--sample", str(rolls), "--seed", "1"])
        print(f"| `{system} {text}` | {rolls:,} | {spent:.2f} |", flush=True)


if __name__ == "__main__":
    main()
