"""Coverage-guided fuzzing of ``fracas.dice.parse`` with atheris (the ``fuzz`` extra).

Run outside the test suite::

    .venv/bin/python -m pip install -e '.[fuzz]'
    .venv/bin/python fuzz/atheris_dice.py --seconds 300

Each input picks a system and reads the rest of the bytes as text. It passes when
``parse`` returns a mechanic or raises ``DiceError`` with a one-line message; any other
exception, or an input over 5 s of CPU (an ``ITIMER_PROF`` watchdog), is a failure. Ends with one
JSON line ``{"harness", "inputs", "failures", "slowest_s", "max_rss_mb"}`` and exits 1 if
any input failed.
"""

from __future__ import annotations

from collections.abc import Callable

import atheris
from _atheris import Tally, run
from _watchdog import INPUT_LIMIT_S, TooSlow, Watchdog

with atheris.instrument_imports():
    from fracas.dice import SYSTEMS, DiceError, Mechanic, parse

HARNESS = "atheris_dice"


def checker(tally: Tally) -> Callable[[bytes], None]:
    """The check of one input: a system, then the rest of the bytes as text."""
    dog = Watchdog()

    def one(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        system = fdp.PickValueInList(list(SYSTEMS))
        text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
        why = ""
        started = dog.start()
        try:
            try:
                mech = parse(system, text)
                if not isinstance(mech, Mechanic):
                    why = f"parse returned {type(mech).__name__}"
            except DiceError as err:
                if "\n" in str(err) or not str(err):
                    why = f"message not one line: {err!s:.200}"
            except TooSlow:
                raise
            except Exception as err:  # anything else is what we look for
                why = f"{type(err).__name__}: {err}"
            spent = dog.stop(started)
        except TooSlow:
            spent = dog.stop(started)
            why = f"took over {INPUT_LIMIT_S} s of CPU"
        tally.record(f"{system} {text}", why, spent)

    return one


if __name__ == "__main__":
    # -timeout=0: our watchdog, not libFuzzer's, times the inputs; -max_len: long texts too
    run(HARNESS, __doc__.splitlines()[0], checker, ["-timeout=0", "-max_len=4096"])
