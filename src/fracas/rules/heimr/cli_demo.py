"""``fracas demo``: the Heimr Tabletop RPG Core's worked examples read by the rules, then
exact odds (a command of Heimr's own, added by its ``commands`` capability; see
:mod:`.commands`)."""

from __future__ import annotations

from fractions import Fraction

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fracas import dice
from fracas.cli.dice import _mean, _pct  # the command line's own way of showing odds

__all__ = ["app", "demo"]

#: The command, added to ``fracas`` by :func:`fracas.rules.heimr.commands.typer_apps`.
app = typer.Typer()

#: The Heimr seed's worked examples: C, P, the dice listed (the d6 first) and the sum printed.
SEED_EXAMPLES: tuple[tuple[int, int, tuple[int, ...], str, int], ...] = (
    (3, 3, (1, 4, 9, 10), "10+0+3", 13),
    (5, 6, (1, 3, 5, 7, 10, 10), "10+1+6", 18),
    (0, 0, (3,), "3+0", 3),
    (4, 3, (1, 1, 2, 4, 6), "6+0+3", 9),
    (2, -3, (3, 10, 10), "10+1-3", 8),
    (-4, -4, (1, 1, 1, 4, 9), "1-2-4", -2),
)
DEMO_CONSISTENCY = range(-5, 6)
DEMO_CRS = (2, 4, 6, 8, 10, 12)


@app.command(rich_help_panel="Dice")
def demo() -> None:
    """The Heimr Tabletop RPG Core's worked examples read by the rules, then exact odds."""
    console = Console(highlight=False)
    _demo_examples(console)
    console.print()
    _demo_odds(console)
    console.print()
    console.print(
        Text(
            "Try: fracas odds heimr C3P2   ·   fracas odds heimr C2P1 vs C1P2   ·   "
            "fracas roll heimr C3P2",
            style="dim",
        )
    )


def _demo_examples(console: Console) -> None:
    """Each worked example read by the rules beside the sum the seed prints (H-DICE-4)."""
    console.print(
        Text(
            "Heimr dice challenges: the six worked examples of the Heimr Tabletop RPG Core "
            "(the first die is the d6)"
        )
    )
    table = Table(header_style="bold", pad_edge=False, box=None)
    table.add_column("challenge")
    table.add_column("dice")
    table.add_column("the rules read")
    table.add_column("result", justify="right")
    table.add_column("seed prints")
    table.add_column("")
    errata = []
    for c, p, faces, printed_sum, printed in SEED_EXAMPLES:
        mech = dice.parse("heimr", f"C{c}P{p}")
        roll = mech.evaluate(faces)
        ok = roll.result == printed
        if not ok:
            errata.append(f"{printed_sum} is {roll.result}, not {printed}")
        table.add_row(
            mech.notation(),
            ", ".join(map(str, faces)),
            roll.explanation,
            Text(str(roll.result), style="bold"),
            f"{printed_sum} = {printed}",
            Text("ok", style="green") if ok else Text("erratum", style="bold red"),
        )
    console.print(table)
    if errata:
        console.print(
            Text(
                "Errata in the Heimr Tabletop RPG Core's sums: " + "; ".join(errata) + ".",
                style="dim",
            )
        )


def _demo_odds(console: Console) -> None:
    """P(result >= CR) for each consistency of the demo, potential 0."""
    console.print(Text("Chance to meet a challenge requirement, P(result >= CR), with potential 0"))
    console.print(
        Text(
            "Exact odds, rounded; 0% is impossible. "
            "C > 0 keeps the highest die, C < 0 the lowest.\n"
            "With potential P, read the column CR - P: "
            "at P = 2, a CR of 10 reads the CR 8 column.",
            style="dim",
        )
    )
    table = Table(header_style="bold", pad_edge=False, box=None)
    table.add_column("C", justify="right")
    table.add_column("mean", justify="right")
    for cr in DEMO_CRS:
        table.add_column(f"CR {cr}", justify="right")
    for c in DEMO_CONSISTENCY:
        pmf = dice.parse("heimr", f"C{c}P0").pmf()
        at_least = [sum((p for v, p in pmf.items() if v >= cr), Fraction(0)) for cr in DEMO_CRS]
        table.add_row(f"{c:+d}" if c else "0", f"{_mean(pmf):.2f}", *(_pct(p, 1) for p in at_least))
    console.print(table)
