"""The ``fracas`` command line: an interface over the table service and the core.

Each command group lives in its own module and registers itself on
:data:`fracas.cli.app.app`, in the order ``fracas --help`` lists them: play (``play``,
``tables``, ``export``, ``import``, ``post``, ``round``), dice (``roll``, ``odds``,
``demo``), the lab (``sim``, ``sweep``) and the web (``serve``, ``gm-link``), then each
ruleset's own (``chase``); ``rulesets`` lists the rule systems installed.
"""

from __future__ import annotations

import gc

# The imports make long-lived objects only (modules, classes, functions, schemas): the
# cycle collector, which would go through them again and again as they pile up, waits
# until they are made and then leaves them out of its passes (a tenth of a start-up).
_collecting = gc.isenabled()
gc.disable()
try:
    # isort: off
    from fracas.cli import play  # noqa: F401  (registers first: the tracker leads the help)
    from fracas.cli import post  # noqa: F401
    from fracas.cli import rounds  # noqa: F401
    from fracas.cli import campaign  # noqa: F401
    from fracas.cli import dice  # noqa: F401
    from fracas.cli import lab  # noqa: F401
    from fracas.cli import serve  # noqa: F401
    from fracas.cli import gmlink  # noqa: F401
    from fracas.cli import rulesets  # noqa: F401

    # isort: on
finally:
    if _collecting:
        gc.freeze()
        gc.enable()

import typer  # noqa: E402

from fracas.cli.app import app  # noqa: E402
from fracas.engine.capabilities import commands  # noqa: E402
from fracas.rules import find, ids  # noqa: E402


def ruleset_apps() -> list[typer.Typer]:
    """Each installed ruleset's own commands (its ``commands`` capability's ``typer_apps``),
    which :class:`fracas.cli.app.Commands` adds when first asked for; a ruleset that does
    not load adds none (``fracas rulesets`` says why)."""
    found: list[typer.Typer] = []
    for rid in ids():
        try:
            own = commands(find(rid))
            found += own.typer_apps() if own is not None and hasattr(own, "typer_apps") else []
        except Exception:  # a broken plugin must not break the command line
            continue
    return found


def main() -> None:
    """Entry point of the ``fracas`` console script."""
    app()


__all__ = ["app", "main", "ruleset_apps"]
