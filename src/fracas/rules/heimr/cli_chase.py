"""``fracas chase``: play a Heimr chase (H-CHASE-1) between two characters of a campaign.

    fracas chase examples/heimr/campaign.yaml --chaser hrolf --target ylva --ability Agility
    fracas chase examples/heimr/duel.yaml --chaser astrid --target ylva --ability sta \\
        --consistency 2 --gap 2 --dice 3,8,5,2,9,4

The file is a campaign or an encounter file; from an encounter, a character's placement
(its fatigue, say) is used. Heimr's own command (its ``commands`` capability, :mod:`.commands`) adds
:data:`app` to ``fracas``; bad input ends with exit status 2 and one message on stderr.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from fracas.cli.app import fail
from fracas.engine import DiceSource, RandomDice, ScriptedDice
from fracas.rules.heimr.campaign import Campaign
from fracas.rules.heimr.chase import MAX_TURNS, Chase, ChaseTurn, Runner, parse_terrain
from fracas.rules.heimr.setup import Placement, combatant
from fracas.yamlfile import load_yaml, unknown_name

__all__ = ["app", "chase_command", "load_runner"]

#: The command, added to ``fracas`` by :func:`fracas.rules.heimr.commands.typer_apps`.
app = typer.Typer()

OUTCOMES = {
    "caught": "caught: {chaser} reaches {target}",
    "escaped": "escaped: {target} gets away from {chaser}",
    "act": "{chaser} draws level and may act against {target} instead of passing",
}


def _faces(text: str) -> list[int]:
    items = [item for item in text.replace(",", " ").split() if item]
    if not items:
        fail("--dice is empty: give the faces as in --dice 3,8,5,2,9,4")
    try:
        return [int(item) for item in items]
    except ValueError:
        fail(f"--dice {text!r}: every face must be a whole number")


def _load(path: Path) -> tuple[Campaign, list[Mapping[str, Any]]]:
    """The campaign and the placements (none for a campaign file) of ``path``."""
    document = load_yaml(path)
    data = document.data if isinstance(document.data, Mapping) else {}
    if "ruleset" not in data:
        return Campaign.load(path), []
    if data["ruleset"] != "heimr":
        raise ValueError(f"{path}: a chase is a Heimr rule; this encounter is {data['ruleset']}")
    names = data.get("campaign") or []
    names = [names] if isinstance(names, str) else list(names)
    placements = data.get("combatants") or []
    if not isinstance(placements, list):
        raise ValueError(f"{path}: combatants should be a list")
    return Campaign.load(*(path.parent / n for n in names)), [
        p for p in placements if isinstance(p, Mapping)
    ]


def load_runner(
    campaign: Campaign,
    placements: list[Mapping[str, Any]],
    cid: str,
    ability: str,
    consistency: int,
) -> Runner:
    """The runner ``cid`` (a placement's id or character, else a campaign character)."""
    found = next((p for p in placements if (p.get("id") or p.get("character")) == cid), None)
    try:
        place = Placement.model_validate(found) if found else Placement(character=cid)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise ValueError(f"combatant {cid}, {where}: {first['msg']}") from None
    if place.character not in campaign.characters:
        raise ValueError(unknown_name("character", place.character, campaign.characters))
    sheet = campaign.characters[place.character]
    who = combatant(campaign, sheet, cid, place)
    return Runner.of(who, ability, consistency, campaign.base_fatigue(sheet))


def _print_turn(turn: ChaseTurn) -> None:
    typer.echo(f"Turn {turn.number}")
    for event in turn.events:
        typer.echo(f"  {event.text}")


@app.command(
    "chase",
    help="Run a Heimr chase (H-CHASE-1) between two characters.",
    rich_help_panel="Heimr",
)
def chase_command(
    file: Annotated[Path, typer.Argument(help="A Heimr campaign or encounter file (YAML).")],
    chaser: Annotated[str, typer.Option("--chaser", metavar="ID", help="Who runs after.")],
    target: Annotated[str, typer.Option("--target", metavar="ID", help="Who runs away.")],
    ability: Annotated[
        str,
        typer.Option(
            "--ability",
            metavar="NAME",
            help="The ability (or physical attribute) the GM chose for the terrain.",
        ),
    ],
    gap: Annotated[int, typer.Option(help="Squares between them at the start.")] = 1,
    consistency: Annotated[
        int, typer.Option(help="The GM's consistency for an attribute roll (H-CHAR-4).")
    ] = 0,
    escape: Annotated[
        int | None,
        typer.Option(metavar="N", help="The target escapes on getting this many squares away."),
    ] = None,
    turns: Annotated[
        int, typer.Option(help="Chase turns to play before leaving it to the GM.")
    ] = MAX_TURNS,
    seed: Annotated[int | None, typer.Option(help="Seed for a repeatable chase.")] = None,
    faces_text: Annotated[
        str | None,
        typer.Option(
            "--dice",
            metavar="F1,F2,...",
            help="Faces rolled by hand, in order: each turn the target's roll, then the "
            "chaser's (each d6 first).",
        ),
    ] = None,
    terrain: Annotated[
        list[str] | None,
        typer.Option(
            "--terrain",
            metavar="TURN:ABILITY",
            help="A terrain decision (H-CHASE-2): from chase turn TURN both roll ABILITY; "
            "TURN:A|B lets the target choose. Repeat for several.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play a chase (H-CHASE-1) turn by turn: caught, escaped, or the chaser acts."""
    if turns < 1:
        fail(f"--turns {turns}: play at least 1 turn")
    dice: DiceSource = RandomDice(seed) if faces_text is None else ScriptedDice(_faces(faces_text))
    try:
        campaign, placements = _load(file)
        chase = Chase(
            load_runner(campaign, placements, chaser, ability, consistency),
            load_runner(campaign, placements, target, ability, consistency),
            gap,
            escape,
            terrains=parse_terrain(" ".join(terrain or [])),
            consistency=consistency,
        )
    except ValueError as err:
        fail(str(err))
    start = gap
    if not as_json:
        c, t = chase.chaser, chase.target
        typer.echo(
            f"{c.who.name} ({c.label} C{c.ability.consistency}P{c.ability.potential}, "
            f"fatigue {c.who.fatigue}) chases {t.who.name} ({t.label} "
            f"C{t.ability.consistency}P{t.ability.potential}, fatigue {t.who.fatigue}), "
            f"{start} square{'' if start == 1 else 's'} ahead"
        )
    problem = None
    while not chase.over and len(chase.turns) < turns:
        try:
            turn = chase.step(dice)
        except ValueError as err:
            problem = str(err)
            break
        if not as_json:
            _print_turn(turn)
    if as_json:
        record = chase.to_dict()
        record["start_gap"] = start
        record["faces"] = [f for d in dice.drawn for f in d.faces]
        typer.echo(json.dumps(record))
    else:
        names = {"chaser": chase.chaser.who.name, "target": chase.target.who.name}
        if chase.outcome is not None:
            typer.echo(OUTCOMES[chase.outcome].format(**names))
        elif problem is None:
            typer.echo(f"After {len(chase.turns)} turns the chase goes on: the GM decides.")
        fatigue = ", ".join(
            f"{r.who.name} {r.who.fatigue} (base {r.base_fatigue})"
            for r in (chase.chaser, chase.target)
        )
        typer.echo(f"Fatigue: {fatigue}")
    if problem is not None:
        fail(problem)
