"""The ``fracas`` command line: an interface over the table service and the core.

Each command group lives in its own module and registers itself on
:data:`fracas.cli.app.app`: dice (``roll``, ``odds``, ``demo``), play (``play``), the
Heimr chase (``chase``) and the lab (``sim``, ``sweep``).
"""

from __future__ import annotations

from fracas.cli import chase, dice, lab, play  # noqa: F401  (they register their commands)
from fracas.cli.app import app


def main() -> None:
    """Entry point of the ``fracas`` console script."""
    app()


__all__ = ["app", "main"]
