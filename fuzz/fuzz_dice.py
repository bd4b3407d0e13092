"""Fuzz the dice layer: generated dice text for all six systems through parse, pmf and roll.

Run outside the test suite::

    .venv/bin/python fuzz/fuzz_dice.py --seconds 300 [--seed 0]

Each input is plausible or hostile dice text (huge numbers, long repetitions, stray
characters, mutations of good expressions). It passes when ``parse`` returns a
mechanic or raises ``DiceError``; ``pmf`` computes (summing to at most 1) or raises
``LimitError``; a seeded roll lands in the distribution and reads back from its faces.
Anything else, or an input running over 5 s, is a failure. Times are CPU seconds of
this process (an ``ITIMER_PROF`` watchdog), so that other work on a shared machine
does not count against an input.
Ends with one JSON line ``{"harness", "inputs", "failures", "slowest_s", "max_rss_mb"}``
and exits 1 if any input failed.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from fractions import Fraction

from _watchdog import INPUT_LIMIT_S, TooSlow, Watchdog

from fracas.dice import SYSTEMS, DiceError, LimitError, Mechanic, PrismaticCheck, parse
from fracas.dice.diestep import LADDER

HARNESS = "fuzz_dice"
#: Seconds one input may take before it counts as a failure.
STRAY = list("dDkKhHlLcCpP+-<>=!vVsS 0123456789.,()*/\t\n") + ["é", "٣", "\u2028", "\x00", "𝟘"]


def number(rng: random.Random) -> str:
    """A number as text: mostly small, sometimes at or past a limit, sometimes enormous."""
    kind = rng.random()
    if kind < 0.55:
        return str(rng.randint(0, 12))
    if kind < 0.75:
        return str(rng.randint(0, 1000))
    if kind < 0.85:
        return str(rng.choice([99, 100, 101, 999, 1000, 1001, 10**6, 10**6 + 1, 9_999_999]))
    if kind < 0.95:
        return str(10 ** rng.randint(7, 400))
    return rng.choice("123456789") + "0" * rng.choice([4300, 4301, 5000, 20000])


def dice_term(rng: random.Random) -> str:
    count = rng.choice(["", str(rng.randint(1, 5)), str(rng.randint(1, 100)), number(rng)])
    sides = rng.choice([str(rng.choice([2, 4, 6, 8, 10, 12, 20, 100])), str(rng.randint(1, 1000))])
    text = f"{count}d{sides if rng.random() < 0.9 else number(rng)}"
    if rng.random() < 0.25:
        text += rng.choice(["kh", "kl", "k"]) + str(rng.randint(1, 5))
    if rng.random() < 0.2:
        text += rng.choice(["adv", "dis", "advadv", "adv dis"])
    return text


def standard(rng: random.Random) -> str:
    parts = [dice_term(rng) if rng.random() < 0.7 else number(rng)]
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 8])):
        parts.append(rng.choice("+-") + (dice_term(rng) if rng.random() < 0.7 else number(rng)))
    text = "".join(parts)
    if rng.random() < 0.3:
        text += rng.choice(["<=", ">=", "<", ">", "=", "=="]) + number(rng)
    return text


def plausible(rng: random.Random, system: str) -> str:
    """Text in the notation of ``system``, with numbers anywhere from small to enormous."""
    sign = rng.choice(["", "-", "+"])
    if system == "heimr":
        text = f"C{sign}{number(rng)}"
        return text + (f"P{rng.choice(['', '-'])}{number(rng)}" if rng.random() < 0.7 else "")
    if system == "heimr-classic":
        return rng.choice([f"d20+{number(rng)}", f"+{number(rng)}", number(rng), standard(rng)])
    if system == "sides":
        nums = [number(rng) for _ in range(rng.randint(1, 3))]
        return rng.choice(["-".join(nums), "+".join(nums), standard(rng)])
    if system == "tempo":
        return rng.choice(["pool", ""]) + rng.choice(["+", "-"]) + number(rng)
    if system == "diestep":
        sides = rng.choice([str(rng.choice(LADDER)), number(rng)])
        words = [rng.choice(["up", "down"]) + " " + number(rng) for _ in range(rng.randint(0, 2))]
        words += rng.choices(["adv", "dis"], k=rng.randint(0, 2))
        return " ".join([f"d{sides}", *words])
    return standard(rng)


def hostile(rng: random.Random, system: str) -> str:
    """Mutations, repetitions and stray characters around plausible text."""
    base = plausible(rng, system)
    kind = rng.random()
    if kind < 0.3:
        chars = list(base)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(chars))
            if rng.random() < 0.5 and chars:
                del chars[min(at, len(chars) - 1)]
            else:
                chars.insert(at, rng.choice(STRAY))
        return "".join(chars)
    if kind < 0.45:
        return (base + rng.choice(["+", " vs ", " ", ""])) * rng.choice([2, 10, 200, 2000])
    if kind < 0.6:
        return "".join(rng.choices(STRAY, k=rng.randint(0, 40)))
    if kind < 0.8:
        return f"{base} vs {plausible(rng, system)}" + (" vs x" if rng.random() < 0.1 else "")
    return rng.choice([" ", "\t", "\n", ""]) + base + rng.choice([" ", "vs", "\n", "x", ""])


def check(system: str, text: str, seed: int) -> None:
    """The properties an input must keep; an ``AssertionError`` or other exception fails."""
    try:
        mech = parse(system, text)
    except DiceError as err:
        assert str(err) and "\n" not in str(err), f"message not one line: {err!s:.200}"
        return
    assert isinstance(mech, Mechanic)
    try:
        pmf = mech.pmf()
    except LimitError as err:
        assert "\n" not in str(err)
        pmf = None
    # the tempo pool's exact odds stop after a bound of re-rolls, so theirs sum below 1
    bounded = isinstance(mech, PrismaticCheck) or isinstance(
        getattr(mech, "first", None), PrismaticCheck
    )
    if pmf is not None:
        total = sum(pmf.values(), Fraction(0))
        assert total == 1 or (bounded and total < 1), f"the odds sum to {float(total)}"
    try:
        roll = mech.roll(random.Random(seed))
    except LimitError:
        return
    if pmf is not None and not bounded:
        assert pmf.get(roll.result, 0) > 0, f"roll {roll.result} outside the distribution"
    assert mech.evaluate(roll.faces).result == roll.result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated inputs")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dog = Watchdog()
    inputs = failures = 0
    slowest = 0.0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        system = rng.choice(SYSTEMS)
        text = plausible(rng, system) if rng.random() < 0.5 else hostile(rng, system)
        inputs += 1
        seed = rng.randrange(2**32)
        started = dog.start()
        try:
            try:
                check(system, text, seed)
                why = ""
            except TooSlow:
                raise
            except Exception as err:  # anything else is what we look for
                why = f"{type(err).__name__}: {err}"
            spent = dog.stop(started)
        except TooSlow:
            spent = dog.stop(started)
            why = f"took over {INPUT_LIMIT_S} s of CPU"
        slowest = max(slowest, spent)
        if why:
            failures += 1
            if failures <= 20:
                print(f"FAIL {system} {text[:120]!r}: {why[:300]}", file=sys.stderr, flush=True)
    summary = {
        "harness": HARNESS,
        "inputs": inputs,
        "failures": failures,
        "slowest_s": round(slowest, 3),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(summary), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
