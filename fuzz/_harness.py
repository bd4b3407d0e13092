"""The loop every input-hardening fuzz harness shares (not a harness itself).

The parent draws inputs from a seeded generator and hands each to a worker process
that runs the check under a memory limit; a worker that gives no answer within
:data:`WALL_LIMIT_S` is killed. An input counts as a failure when the check raises
anything but a refusal (``ValueError``/``OSError``, or one of the harness's own), takes
over :data:`TIME_LIMIT_S` of CPU, hangs, or makes the worker exceed
:data:`MEMORY_LIMIT_BYTES`.

At the end one JSON line goes to stdout::

    {"harness": NAME, "inputs": int, "failures": int, "slowest_s": float, "max_rss_mb": float}

and the exit status is 1 if anything failed. Failing inputs are written to
``build/fuzz/NAME/`` so that each can become a regression test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import pickle
import random
import resource
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: An input that takes more CPU seconds than this is a failure (CPU, not wall-clock time:
#: other work on a shared machine does not count against an input).
TIME_LIMIT_S = 5.0
#: An input whose answer takes longer than this on the wall clock is a hang.
WALL_LIMIT_S = 60.0
#: A worker that needs more memory than this fails the input it was running.
MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024

Generate = Callable[[random.Random], Any]
Check = Callable[[Any, Any], None]
Prepare = Callable[[], Any]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def _worker(conn: Connection, prepare: Prepare, check: Check, refusals: tuple[type, ...]) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    context = prepare()
    conn.send(("ready", 0.0, _rss_mb(), ""))
    while True:
        item = conn.recv()
        if item is None:
            return
        start = time.process_time()  # every thread of the worker (the web app's too)
        outcome, detail = "ok", ""
        try:
            check(context, item)
        except MemoryError:
            outcome, detail = "failure", "MemoryError (over the memory limit)"
        except refusals:
            outcome = "refused"
        except Exception:
            outcome, detail = "failure", traceback.format_exc(limit=-8)
        conn.send((outcome, time.process_time() - start, _rss_mb(), detail))


class _Worker:
    def __init__(self, prepare: Prepare, check: Check, refusals: tuple[type, ...]) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker, args=(child, prepare, check, refusals), daemon=True
        )
        self.process.start()
        child.close()
        if not self.conn.poll(120):
            raise SystemExit("the fuzz worker did not start")
        self.conn.recv()

    def run(self, item: Any) -> tuple[str, float, float, str]:
        start = time.perf_counter()
        try:
            self.conn.send(item)
            if self.conn.poll(WALL_LIMIT_S):
                result: tuple[str, float, float, str] = self.conn.recv()
                return result
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self.process.join(1)
            code = self.process.exitcode
            return "dead", time.perf_counter() - start, 0.0, f"the worker died (exit {code})"
        return "timeout", time.perf_counter() - start, 0.0, f"no answer in {WALL_LIMIT_S} s"

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


def main(
    name: str,
    generate: Generate,
    check: Check,
    prepare: Prepare = lambda: None,
    refusals: tuple[type, ...] = (ValueError, OSError),
    describe: Callable[[Any], bytes] = lambda item: repr(item).encode(),
) -> None:
    """Parse ``--seconds N [--seed S]`` and fuzz ``check`` with inputs from ``generate``."""
    parser = argparse.ArgumentParser(description=f"fuzz harness {name}")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"{name}: seed {seed}", file=sys.stderr)
    rng = random.Random(seed)
    out = ROOT / "build" / "fuzz" / name
    worker = _Worker(prepare, check, refusals)
    inputs = failures = 0
    outcomes: dict[str, int] = {}
    slowest = 0.0
    max_rss = 0.0
    deadline = time.monotonic() + args.seconds
    try:
        while time.monotonic() < deadline:
            item = generate(rng)
            outcome, elapsed, rss, detail = worker.run(item)
            inputs += 1
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            slowest = max(slowest, elapsed)
            max_rss = max(max_rss, rss)
            failed = outcome in ("failure", "timeout", "dead") or elapsed > TIME_LIMIT_S
            if rss * 1024 * 1024 > MEMORY_LIMIT_BYTES:
                failed, detail = True, f"the worker reached {rss:.0f} MB"
            if failed:
                failures += 1
                out.mkdir(parents=True, exist_ok=True)
                (out / f"failure-{failures}.input").write_bytes(describe(item))
                (out / f"failure-{failures}.pickle").write_bytes(pickle.dumps(item))
                first = (detail or outcome).strip().splitlines()[-1:] or [outcome]
                print(f"{name}: failure {failures} ({elapsed:.2f} s): {first[0]}", file=sys.stderr)
                (out / f"failure-{failures}.txt").write_text(detail or outcome, encoding="utf-8")
            if outcome in ("timeout", "dead") or (failed and "MemoryError" in detail):
                worker.stop()
                worker = _Worker(prepare, check, refusals)
    finally:
        worker.stop()
    print(f"{name}: outcomes {outcomes}", file=sys.stderr)
    print(
        json.dumps(
            {
                "harness": name,
                "inputs": inputs,
                "failures": failures,
                "slowest_s": round(slowest, 3),
                "max_rss_mb": round(max_rss, 1),
            }
        )
    )
    sys.exit(1 if failures else 0)


# -- mutation helpers shared by the harnesses ----------------------------------------------

#: Snippets that stress a loader: tags, anchors, nesting, odd scalars, control characters.
YAML_SNIPPETS = [
    "!!set {a, b}",
    "!!binary aGk=",
    "!!timestamp 2001-12-14",
    "2026-11-24",
    "2026-11-24T10:00:00Z",
    "!!python/object:os.system",
    "!!omap [{a: 1}]",
    "!foo bar",
    "&a [1, 2]",
    "*a",
    "<<: *a",
    "[" * 80,
    "{a: " * 80,
    "- " * 80,
    ".inf",
    ".nan",
    "9" * 5000,
    "1:2:3:4:5:6:7:8:9",
    "0x" + "f" * 200,
    "~",
    "? [a, b]\n: c",
    "---\n",
    "...\n",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\ufeff",
    "\ud7ff",
    "'unterminated",
    '"\\x00"',
    '"\\U99999999"',
    '"\\UFFFFFFFF"',
    "|\n  block",
    "%YAML 1.1\n---\n",
]

BILLION_LAUGHS = 'lol: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"l{n}: &{chr(98 + n)} [{', '.join(['*' + chr(97 + n)] * 9)}]\n" for n in range(8)
)


def mutate_text(rng: random.Random, text: str, snippets: list[str], rounds: int = 4) -> str:
    """``text`` changed in a few random ways: characters, spans, lines and snippets."""
    for _ in range(rng.randint(1, rounds)):
        if not text:
            text = rng.choice(snippets)
            continue
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, 40))
        op = rng.randrange(9)
        if op == 0:  # one character changed, often to a control or odd one
            c = chr(rng.choice([0, 7, 8, 11, 27, 127, 0x85, 0xFEFF, rng.randrange(32, 0x2FFF)]))
            text = text[:i] + c + text[i + 1 :]
        elif op == 1:
            text = text[:i] + text[j:]
        elif op == 2:
            text = text[:i] + text[i:j] * rng.randint(2, 50) + text[i:]
        elif op == 3:
            text = text[:i] + rng.choice(snippets) + text[i:]
        elif op == 4:  # a snippet as a value after a colon
            k = text.find(": ", i)
            if k >= 0:
                end = text.find("\n", k)
                end = len(text) if end < 0 else end
                text = text[: k + 2] + rng.choice(snippets) + text[end:]
        elif op == 5:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif op == 6:  # indentation changed
            lines = text.split("\n")
            a = rng.randrange(len(lines))
            lines[a] = " " * rng.randint(0, 6) + lines[a].lstrip()
            text = "\n".join(lines)
        elif op == 7:
            text = text[:i] + rng.choice(" :-[]{},&*!|>'\"#%@`\n\t") + text[i:]
        else:
            text = text[:i] + str(rng.choice([-1, 0, 1, 2**31, 10**20, 1.5])) + text[j:]
    return text
