"""Coverage-guided fuzzing of names with atheris (the ``fuzz`` extra): the store's
:func:`~fracas.table.store.check_name`, :mod:`fracas.names`, the setup's
:func:`~fracas.engine.setups.name_problems` and the upgrade's report
(:func:`fracas.table.namecheck.problems`).

    .venv/bin/python fuzz/atheris_names.py --seconds 300

Each input is text: its lines are names, the first the one to check and the rest those
already kept. It passes when ``check_name`` returns a name that is valid, in NFKC form,
of one script and unlike the others, or refuses it with a one-line ``StoreError``; and
when the setup's and the report's checks give one line per problem. Anything else, or
over 5 s of CPU, is a failure (measured after each input: names are short, so no
watchdog interrupts one; libFuzzer's own 60 s timeout catches a hang). Ends with the
one JSON line every harness prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import atheris
from _atheris import Tally, run

with atheris.instrument_imports(include=["fracas"]):
    from fracas import names
    from fracas.engine.setups import name_problems
    from fracas.table.namecheck import problems
    from fracas.table.store import StoreError, check_name, valid_name

HARNESS = "atheris_names"


def check(text: str) -> str:
    """Why ``text`` fails, or ``""``."""
    first, *others = text.split("\n")[:8]
    try:
        kept = check_name(first, "table", others)
    except StoreError as err:
        if "\n" in str(err) or not str(err):
            return f"message not one line: {err!s:.200}"
    else:
        if not valid_name(kept) or names.normal(kept) != kept:
            return f"kept {kept!r}, not a valid name in NFKC form"
        if names.clash(kept, others) is not None or names.mixed_scripts(kept):
            return f"kept {kept!r}, which mixes scripts or looks like another"
    combatants = [{"id": n, "side": n[:3]} for n in (first, *others)]
    for _, message in name_problems(combatants):
        if "\n" in message:
            return f"setup message not one line: {message:.200}"
    for line in problems("table", [first, *others]):
        if "\n" in line:
            return f"report line not one line: {line:.200}"
    return ""


def checker(tally: Tally) -> Callable[[bytes], None]:
    """The check of one input, timed in CPU seconds after it (names are short)."""
    names.skeleton("warm")  # the confusables table, read once before the first input

    def one(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
        started = time.process_time()
        try:
            why = check(text)
        except Exception as err:  # anything else is what we look for
            why = f"{type(err).__name__}: {err}"
        tally.record(text, why, time.process_time() - started)

    return one


if __name__ == "__main__":
    run(HARNESS, __doc__.splitlines()[0], checker, ["-timeout=60", "-max_len=1024"])
