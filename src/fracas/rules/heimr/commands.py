"""Heimr's own commands (its ``commands`` capability,
:class:`fracas.engine.capabilities.Commands`): ``fracas odds heimr attack`` and
``fracas chase`` and ``fracas demo``. Their modules (:mod:`.cli_odds`, :mod:`.cli_chase`,
:mod:`.cli_demo`) are the ruleset's
interface: they print, read files and use the command line's helpers, and are imported
only by the command line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["odds_command", "typer_apps"]


def odds_command(words: Sequence[str], as_json: bool) -> None:
    """``fracas odds heimr attack ...``: the odds of one attack, from numbers or a file."""
    from fracas.rules.heimr.cli_odds import odds_command as run

    run(words, as_json)


def typer_apps() -> list[Any]:
    """``fracas chase`` and ``fracas demo``."""
    from fracas.rules.heimr import cli_chase, cli_demo

    return [cli_chase.app, cli_demo.app]
