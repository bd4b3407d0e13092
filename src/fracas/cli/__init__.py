"""The ``fracas`` command line: an interface over the table service and the core.

Each command group lives in its own module and registers itself on
:data:`fracas.cli.app.app`, in the order ``fracas --help`` lists them: play (``play``,
``tables``, ``export``, ``import``, ``post``, ``round``), dice (``roll``, ``odds``,
``demo``), the Heimr chase (``chase``), the lab (``sim``, ``sweep``) and the web
(``serve``); ``rulesets`` lists the rule systems installed.
"""

from __future__ import annotations

# isort: off
from fracas.cli import play  # noqa: F401  (registers first: the tracker leads the help)
from fracas.cli import post  # noqa: F401
from fracas.cli import rounds  # noqa: F401
from fracas.cli import campaign  # noqa: F401
from fracas.cli import dice  # noqa: F401
from fracas.cli import chase  # noqa: F401
from fracas.cli import lab  # noqa: F401
from fracas.cli import serve  # noqa: F401
from fracas.cli import rulesets  # noqa: F401

# isort: on
from fracas.cli.app import app


def main() -> None:
    """Entry point of the ``fracas`` console script."""
    app()


__all__ = ["app", "main"]
