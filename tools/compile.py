"""Build the hot path with mypyc into ``build/compiled`` (a copy of ``src``), never in place.

``PYTHONPATH=build/compiled`` then runs the compiled modules; ``src`` keeps no ``.so``
to shadow a ``.py`` being edited. Run as ``nice -n 10 .venv/bin/python tools/compile.py``.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the compiled copy goes (``COMPILED_DIR`` to build a second one beside it).
OUT = Path(os.environ.get("COMPILED_DIR", ROOT / "build" / "compiled")).resolve()

#: The modules compiled: the engine's and Heimr's hot path (the rest stays Python).
MODULES = [
    "fracas/dice/heimr.py",
    "fracas/engine/actions.py",
    "fracas/engine/dicesource.py",
    "fracas/engine/events.py",
    "fracas/engine/legal.py",
    "fracas/engine/ruleset.py",
    "fracas/engine/verbs.py",
    "fracas/engine/views.py",
    "fracas/lab/playout.py",
    "fracas/rules/tactics.py",
    "fracas/rules/heimr/combat.py",
    "fracas/rules/heimr/health.py",
    "fracas/rules/heimr/observing.py",
    "fracas/rules/heimr/policies.py",
    "fracas/rules/heimr/rolls.py",
    "fracas/rules/heimr/ruleset.py",
    "fracas/rules/heimr/state.py",
    "fracas/rules/heimr/terrain.py",
    "fracas/rules/heimr/turns.py",
    "fracas/rules/heimr/verbs/fighting.py",
    "fracas/rules/heimr/verbs/moving.py",
]


def main() -> int:
    modules = sys.argv[1:] or MODULES
    start = time.monotonic()
    if (OUT / "fracas").exists():
        shutil.rmtree(OUT / "fracas")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        # Nothing left to run stale: without the copy, fracas runs from src, pure.
        print("no C compiler (cc): fracas runs pure Python, as from src")
        return 0
    shutil.copytree(
        ROOT / "src" / "fracas", OUT / "fracas", ignore=shutil.ignore_patterns("__pycache__")
    )
    os.chdir(OUT)
    from mypyc.build import mypycify  # imported only when building
    from setuptools import setup

    setup(
        name="fracas-compiled",
        ext_modules=mypycify(modules, opt_level="3", debug_level="0"),
        script_args=["build_ext", "--inplace", "--parallel", "2"],
    )
    print(f"compiled {len(modules)} modules in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
