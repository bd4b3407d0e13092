"""Build the hot path with mypyc into ``build/compiled`` (a copy of ``src``), never in place.

After a build, the running interpreter's venv imports it whenever it matches ``src``: the
build keeps a manifest of the sources it was made from (``src-manifest.txt``), and a
``fracas_compiled.pth`` in site-packages runs ``_fracas_compiled.py`` (a copy of
``tools/_fracas_compiled.py``) at every start-up, which puts the build just before ``src``
on ``sys.path`` while that manifest still matches ``src/fracas`` and ``FRACAS_PURE`` is
unset. A failed or skipped build (no C compiler) leaves neither: fracas runs pure, from
``src``, which keeps no ``.so`` to shadow a ``.py`` being edited. Run as
``nice -n 10 .venv/bin/python tools/compile.py``.
"""

from __future__ import annotations

import os
import py_compile
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
#: Where the compiled copy goes (``COMPILED_DIR`` to build a second one beside it, which
#: only an explicit ``PYTHONPATH`` runs: the venv's start-up hook is for the first).
OUT = Path(os.environ.get("COMPILED_DIR", ROOT / "build" / "compiled")).resolve()
HOOKED = (ROOT / "build" / "compiled").resolve() == OUT
#: The start-up module, copied into site-packages as it is.
ACTIVATION = Path(__file__).resolve().parent / "_fracas_compiled.py"

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


def site_packages() -> Path:
    """The running interpreter's site-packages (the venv's, run from it)."""
    return Path(sysconfig.get_path("purelib"))


def uninstall() -> None:
    """Remove the manifest and the start-up hook: fracas runs pure."""
    from _fracas_compiled import MANIFEST

    (OUT / MANIFEST).unlink(missing_ok=True)
    if HOOKED:
        (site_packages() / "fracas_compiled.pth").unlink(missing_ok=True)
        (site_packages() / "_fracas_compiled.py").unlink(missing_ok=True)
        for cached in (site_packages() / "__pycache__").glob("_fracas_compiled.*.pyc"):
            cached.unlink(missing_ok=True)


def install() -> None:
    """Start every interpreter of this venv on the build while it matches ``src``."""
    if not HOOKED:
        return
    site = site_packages()
    shutil.copyfile(ACTIVATION, site / "_fracas_compiled.py.new")
    os.replace(site / "_fracas_compiled.py.new", site / "_fracas_compiled.py")
    # Its bytecode written now: read at every start-up, even where none is written.
    py_compile.compile(str(site / "_fracas_compiled.py"), doraise=True)
    line = f"import _fracas_compiled; _fracas_compiled.activate({str(SRC)!r}, {str(OUT)!r})\n"
    (site / "fracas_compiled.pth.new").write_text(line, encoding="utf-8")
    os.replace(site / "fracas_compiled.pth.new", site / "fracas_compiled.pth")


def main() -> int:
    modules = sys.argv[1:] or MODULES
    start = time.monotonic()
    sys.path.insert(0, str(ACTIVATION.parent))
    uninstall()
    if (OUT / "fracas").exists():
        shutil.rmtree(OUT / "fracas")
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        # Nothing left to run stale: without the copy, fracas runs from src, pure.
        print(f"no C compiler ({compiler}): fracas runs pure Python, as from src")
        return 0
    from _fracas_compiled import MANIFEST, manifest, tree

    # Recorded before copying: a source edited meanwhile no longer matches (pure).
    recorded = manifest(tree(str(SRC / "fracas")))
    shutil.copytree(SRC / "fracas", OUT / "fracas", ignore=shutil.ignore_patterns("__pycache__"))
    os.chdir(OUT)
    try:
        from mypyc.build import mypycify  # imported only when building
        from setuptools import setup

        setup(
            name="fracas-compiled",
            ext_modules=mypycify(modules, opt_level="3", debug_level="0"),
            script_args=["--quiet", "build_ext", "--inplace", "--parallel", "2"],
        )
    except (Exception, SystemExit) as error:
        # No hook installed: the half-made copy is never imported, fracas runs pure.
        said = "see above" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
        print(f"the mypyc build failed ({said}): fracas runs pure Python, as from src")
        # On CI a build that fails with a compiler at hand is a failure: a module made
        # uncompilable would otherwise only show as a slower benchmark.
        return 1 if os.environ.get("CI") else 0
    (OUT / f"{MANIFEST}.new").write_text(recorded, encoding="utf-8")
    os.replace(OUT / f"{MANIFEST}.new", OUT / MANIFEST)
    install()
    print(f"compiled {len(modules)} modules in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
