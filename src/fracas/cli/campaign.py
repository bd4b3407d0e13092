"""``fracas campaign …``: the campaign's books at the terminal.

Every command that changes the books records one entry (in its own transaction) and
prints it; ``undo`` and ``redo`` move through them; ``show CHARACTER --at DATE`` shows a
sheet as it stood on that date. Mistakes end with one line and exit status 2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import yaml
from rich.console import Console
from rich.table import Table as RichTable

from fracas.cli.app import app, fail
from fracas.cli.play import DbOption, open_store
from fracas.files import atomic_write
from fracas.yamlfile import load_yaml

if TYPE_CHECKING:  # the ledger (SQLAlchemy) loads in the commands that use it
    from fracas.ledger import Entry, Ledger

campaign_app = typer.Typer(
    help="The campaign's books: characters, XP, training, raises; undo and redo.",
    no_args_is_help=True,
)
app.add_typer(campaign_app, name="campaign", rich_help_panel="Play")

Name = Annotated[str, typer.Argument(help="The campaign.")]
Character = Annotated[str, typer.Argument(help="The character's key in the campaign.")]
DateOption = Annotated[
    str | None,
    typer.Option("--date", help="The entry's date (default now): 2026-03-01 or 2026-03-01T20:00."),
]

T = TypeVar("T")


def _run(action: Callable[[], T]) -> T:
    try:
        return action()
    except (ValueError, OSError) as err:
        fail(str(err))


def _ledger(db: str | None) -> Ledger:
    from fracas.ledger import Ledger

    return Ledger(open_store(db))


def describe(entry: Entry) -> str:
    """The log's line for ``entry`` (:func:`fracas.ledger.text.describe`)."""
    from fracas.ledger import text

    return text.describe(entry)


def parse_date(given: str, end_of_day: bool = False) -> datetime:
    """A ``--date`` or ``--at`` read as :func:`fracas.ledger.text.parse_date` reads it."""
    from fracas.ledger import text

    return text.parse_date(given, end_of_day)


def _record(
    db: str | None,
    name: str,
    kind: str,
    character: str | None,
    payload: Mapping[str, Any],
    date: str | None,
) -> None:
    ledger = _ledger(db)
    when = _run(lambda: parse_date(date)) if date else None
    entry = _run(lambda: ledger.record(name, kind, character, payload, when))
    _echo(entry)


def _echo(entry: Entry) -> None:
    typer.echo(f"{entry.seq}. {describe(entry)}")
    for warning in entry.payload.get("warnings", []):
        typer.echo(f"   warning: {warning}")


@campaign_app.command("new")
def new(
    name: Name,
    ruleset: Annotated[str, typer.Option(help="The ruleset's id (fracas rulesets lists them).")],
    title: Annotated[str, typer.Option(help="The campaign's title.")] = "",
    db: DbOption = None,
) -> None:
    """Start an empty campaign of a ruleset."""
    _run(lambda: _ledger(db).create(name, ruleset, None, title))
    typer.echo(f"campaign {name} ({ruleset}) created")


@campaign_app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A campaign file (YAML), as encounters name.")],
    name: Annotated[
        str | None, typer.Option(help="The campaign's name (default: the file's).")
    ] = None,
    ruleset: Annotated[str | None, typer.Option(help="Its ruleset (default: found).")] = None,
    db: DbOption = None,
) -> None:
    """A campaign from a campaign file; mistakes name the file, line and field."""
    chosen = name or file.stem
    found = _run(lambda: _ledger(db).import_file(chosen, file, ruleset))
    typer.echo(f"campaign {chosen} ({found}) imported from {file}")


@campaign_app.command("export")
def export(
    name: Name,
    file: Annotated[Path | None, typer.Argument(help="Where to write it (default: print).")] = None,
    character: Annotated[
        str | None, typer.Option(help="Only this character, as a campaign file of its own.")
    ] = None,
    db: DbOption = None,
) -> None:
    """The campaign file as it stands now (the terminal's encounters read it)."""
    text = _run(lambda: _ledger(db).export(name, character))
    if file is None:
        typer.echo(text, nl=False)
        return
    _run(lambda: atomic_write(file, text))
    typer.echo(f"wrote {file}")


@campaign_app.command("list")
def list_(db: DbOption = None) -> None:
    """The campaigns in the store."""
    rows = _ledger(db).campaigns()
    if not rows:
        typer.echo("No campaigns yet: 'fracas campaign import FILE' or 'fracas campaign new'.")
        return
    table = RichTable("campaign", "ruleset", "entries", "changed", "title")
    for c in rows:
        when = c.changed.astimezone().strftime("%Y-%m-%d %H:%M") if c.changed else ""
        table.add_row(c.name, c.ruleset, str(c.head), when, c.title)
    Console().print(table)


@campaign_app.command("show")
def show(
    name: Name,
    character: Annotated[str | None, typer.Argument(help="A character (default: all).")] = None,
    at: Annotated[str | None, typer.Option(help="As it stood on this date.")] = None,
    db: DbOption = None,
) -> None:
    """The characters, or one character's sheet, now or as it stood on a date."""
    ledger = _ledger(db)
    when = _run(lambda: parse_date(at, end_of_day=True)) if at else None
    console = Console()
    if character is None:
        standing = _run(lambda: ledger.standing(name, when))
        table = RichTable("character", "name", "side", "XP", "carried")
        for key, sheet in standing.characters.items():
            carried = standing.carried.get(key)
            table.add_row(
                key,
                str(sheet.get("name", "")),
                str(sheet.get("side", "")),
                str(sheet.get("xp", 0)),
                ", ".join(f"{k} {v}" for k, v in carried.items()) if carried else "",
            )
        console.print(table)
        if standing.leftovers:
            left = ", ".join(f"{g} {n}" for g, n in standing.leftovers.items())
            console.print(f"XP left over (H-XP-1): {left}")
        return
    sheet = _run(lambda: ledger.sheet(name, character, when))
    console.print(yaml.safe_dump({character: sheet}, sort_keys=False, allow_unicode=True), end="")
    for label, value in ledger.summary(name, sheet):
        console.print(f"{label}: {value}", highlight=False)
    carried = ledger.standing(name, when).carried.get(character)
    if carried:
        console.print(f"carried out of the last encounter: {carried}")


@campaign_app.command("log")
def log(name: Name, db: DbOption = None) -> None:
    """Every entry, with its date; undone ones marked."""
    entries = _run(lambda: _ledger(db).entries(name))
    table = RichTable("#", "date", "entry", "")
    for e in entries:
        when = e.effective.astimezone().strftime("%Y-%m-%d %H:%M")
        table.add_row(str(e.seq), when, describe(e), "" if e.active else "undone")
    Console().print(table)


@campaign_app.command("character")
def character_(
    name: Name,
    character: Character,
    file: Annotated[Path, typer.Argument(help="The sheet (YAML), as a campaign file writes it.")],
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Add a character or replace its sheet, checked by the ruleset's sheet model.

    The file holds the sheet, or a campaign file with this one character ('export
    --character')."""
    sheet = _run(lambda: load_yaml(file)).data
    if isinstance(sheet, dict) and set(sheet) == {"characters"} and len(sheet["characters"]) == 1:
        sheet = next(iter(sheet["characters"].values()))
    _record(db, name, "character", character, {"sheet": sheet}, date)


@campaign_app.command("create")
def create(
    name: Name,
    character: Character,
    full_name: Annotated[str, typer.Option("--name", help="The character's name.")],
    side: Annotated[str, typer.Option(help="Its side.")],
    stat: Annotated[
        list[str] | None, typer.Option(help="A statistic: CS=9 (others are 5).")
    ] = None,
    knowledge: Annotated[
        list[str] | None, typer.Option(help="A knowledge category: Arcane=6.")
    ] = None,
    background: Annotated[str, typer.Option(help="How its extreme statistics came to be.")] = "",
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """A heimr-classic character by points (HC-STAT-1/2, HC-SOC-1): 35 points, at most 10."""
    sheet = {
        "name": full_name,
        "side": side,
        "statistics": _run(lambda: _pairs(stat or [])),
        "knowledge_categories": _run(lambda: _pairs(knowledge or [])),
        "background": background,
    }
    _record(db, name, "create", character, {"sheet": sheet}, date)


def _pairs(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit() or len(value) > 6:
            raise ValueError(f"{item[:40]!r}: write NAME=NUMBER")
        out[key.strip()] = int(value)
    return out


@campaign_app.command("award")
def award(
    name: Name,
    characters: Annotated[list[str], typer.Argument(help="The characters present.")],
    xp: Annotated[int, typer.Option(help="The encounter's XP.", min=0, max=1_000_000)],
    group: Annotated[str, typer.Option(help="The group whose leftovers carry (H-XP-1).")] = "",
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """XP divided among the characters present; the remainder carries to the group's next."""
    payload: dict[str, Any] = {"xp": xp, "characters": characters}
    if group:
        payload["group"] = group
    _record(db, name, "award", None, payload, date)


@campaign_app.command("train")
def train(
    name: Name,
    character: Character,
    ability: Annotated[str, typer.Argument(help="The ability.")],
    track: Annotated[str, typer.Argument(help="consistency or potential.")],
    attribute: Annotated[
        str | None, typer.Option(help="The attribute that progresses (several to choose).")
    ] = None,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """One point of an ability's training for XP (H-XP-2), with attribute progress (H-XP-3)."""
    payload = {"ability": ability, "track": track, "attribute": attribute}
    _record(db, name, "train", character, payload, date)


@campaign_app.command("raise")
def raise_(
    name: Name,
    character: Character,
    statistic: Annotated[str, typer.Argument(help="The statistic: CS, combat_skill...")],
    points: Annotated[int, typer.Option(help="How many points.", min=1, max=11)] = 1,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Raise a heimr-classic statistic with XP (HC-XP-1; 11 and 12 need 'permit')."""
    _record(db, name, "raise", character, {"statistic": statistic, "points": points}, date)


@campaign_app.command("permit")
def permit(
    name: Name,
    character: Character,
    withdraw: Annotated[bool, typer.Option(help="Withdraw the permission.")] = False,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """The DM's permission to raise a statistic above 10 (HC-XP-1)."""
    _record(db, name, "permit", character, {"granted": not withdraw}, date)


What = Annotated[str, typer.Argument(help="willpower or hero_points (restore: also health).")]
Amount = Annotated[int, typer.Argument(help="How many.", min=1, max=1000)]


@campaign_app.command("spend")
def spend(
    name: Name,
    character: Character,
    what: What,
    amount: Amount,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Spend willpower or hero points between fights (HC-WP-1)."""
    _record(db, name, "spend", character, {"what": what, "amount": amount}, date)


@campaign_app.command("restore")
def restore(
    name: Name,
    character: Character,
    what: What,
    amount: Annotated[int, typer.Argument(help="How many (not for health).", min=1)] = 1,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Restore willpower or hero points (HC-WP-1), or health: rested, nothing carried."""
    _record(db, name, "restore", character, {"what": what, "amount": amount}, date)


Month = Annotated[
    str | None, typer.Option(help="The month, 2026-03 (default: the entry's date's).")
]


def _upkeep(
    db: str | None, name: str, character: str | None, payload: dict[str, Any], date: str | None
) -> None:
    _record(db, name, "upkeep", character, payload, date)


@campaign_app.command("month")
def month(
    name: Name,
    characters: Annotated[list[str], typer.Argument(help="The characters played that month.")],
    month: Month = None,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """A month of active play (HC-CAMP-1): 20 XP, the income of its wealth, one willpower."""
    payload: dict[str, Any] = {"what": "month", "characters": characters}
    if month:
        payload["month"] = month[:20]
    _upkeep(db, name, None, payload, date)


@campaign_app.command("money")
def money(
    name: Name,
    character: Character,
    copper: Annotated[int, typer.Argument(help="How much, in copper.", min=0, max=10**7)],
    spend: Annotated[bool, typer.Option(help="Spent, not gained.")] = False,
    reason: Annotated[str, typer.Option(help="What for.")] = "",
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Money gained or spent, in copper (HC-CAMP-1); no more spent than held."""
    payload = {"what": "money", "copper": -copper if spend else copper, "reason": reason[:200]}
    _upkeep(db, name, character, payload, date)


@campaign_app.command("buy-willpower")
def buy_willpower(
    name: Name,
    character: Character,
    amount: Annotated[int, typer.Argument(help="How many.", min=1, max=10)] = 1,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Willpower bought for a silver a point, up to 10 (HC-CAMP-1)."""
    _upkeep(db, name, character, {"what": "buy", "amount": amount}, date)


@campaign_app.command("hero")
def hero(
    name: Name,
    character: Character,
    use: Annotated[str, typer.Argument(help="dm (use 5), money (use 6) or prayer (use 7).")],
    note: Annotated[str, typer.Option(help="What was done.")] = "",
    month: Month = None,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """A hero point used outside a fight (HC-CAMP-1; earned ones: 'restore ... hero_points')."""
    payload: dict[str, Any] = {"what": "hero", "use": use[:20], "note": note[:200]}
    if month:
        payload["month"] = month[:20]
    _upkeep(db, name, character, payload, date)


@campaign_app.command("lead")
def lead(
    name: Name,
    character: Character,
    what: Annotated[str, typer.Argument(help="'Underbelly faction' or 'Heimr fleet'.")],
    stop: Annotated[bool, typer.Option(help="Give up the lead.")] = False,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Take the lead of a faction or fleet (HC-CAMP-1: charisma 6 or 8, starting wealth 8)."""
    _upkeep(db, name, character, {"what": "lead", "lead": what[:80], "stop": stop}, date)


@campaign_app.command("underbelly")
def underbelly(
    name: Name,
    character: Character,
    boards: Annotated[int, typer.Argument(help="Boards held alone (0: none).", min=0, max=100)],
    lost: Annotated[bool, typer.Option(help="Control of the faction is lost.")] = False,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """The Underbelly: +1 wealth a board held, one less while the faction is lost (HC-CAMP-1)."""
    payload = {"what": "underbelly", "boards": boards, "lost": lost}
    _upkeep(db, name, character, payload, date)


@campaign_app.command("rest")
def rest(
    name: Name,
    character: Character,
    hours: Annotated[int, typer.Option(help="Hours of rest.", min=0, max=24 * 3660)] = 0,
    days: Annotated[int, typer.Option(help="Days of rest.", min=0, max=3660)] = 0,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Rest over time between encounters (diestep, D-REC-1).

    An hour heals the wounded; a week (a hero) or a month the badly wounded."""
    minutes = hours * 60 + days * 24 * 60
    if minutes < 1:
        fail("say how long: --hours N or --days N")
    _record(db, name, "rest", character, {"minutes": minutes}, date)


@campaign_app.command("carry")
def carry(
    name: Name,
    character: Character,
    values: Annotated[
        list[str] | None,
        typer.Argument(help="What it starts the next encounter with: hit_points=2 fatigue=5."),
    ] = None,
    date: DateOption = None,
    db: DbOption = None,
) -> None:
    """Set what a character carries into the next encounter (none: nothing)."""
    condition: dict[str, Any] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"{item[:40]!r}: write FIELD=VALUE")
        text = value.strip()[:100]
        number = text.lstrip("-")
        condition[key.strip()] = (
            int(text)
            if number.isdigit() and len(number) < 10
            else {"true": True, "false": False}.get(text, text)
        )
    _record(db, name, "carry", character, {"condition": condition}, date)


@campaign_app.command("undo")
def undo(name: Name, db: DbOption = None) -> None:
    """Take back the last entry (redo puts it back)."""
    entry = _run(lambda: _ledger(db).undo(name))
    typer.echo(f"undone: {entry.seq}. {describe(entry)}")


@campaign_app.command("redo")
def redo(name: Name, db: DbOption = None) -> None:
    """Put back the last entry undone."""
    entry = _run(lambda: _ledger(db).redo(name))
    typer.echo(f"redone: {entry.seq}. {describe(entry)}")


@campaign_app.command("start")
def start(
    name: Name,
    table: Annotated[str, typer.Argument(help="The new table's name.")],
    file: Annotated[Path, typer.Argument(help="An encounter file; its 'campaign' is ignored.")],
    seed: Annotated[int | None, typer.Option(help="Seed the dice.")] = None,
    db: DbOption = None,
) -> None:
    """Start an encounter from the campaign's sheets as they stand.

    Play it with 'fracas play --table TABLE', then end it in the books with 'fracas
    campaign conclude TABLE'."""
    data = _run(lambda: load_yaml(file)).data
    if not isinstance(data, dict):
        fail(f"{file}: an encounter file holds a mapping")
    data.pop("campaign", None)
    _run(lambda: _ledger(db).start_encounter(name, table, data, seed))
    typer.echo(f"table {table} started from {name}: fracas play --table {table}")


@campaign_app.command("conclude")
def conclude(
    table: Annotated[str, typer.Argument(help="A table started from a campaign.")],
    xp: Annotated[
        list[str] | None, typer.Option(help="The GM's XP instead of the award's: ylva=5.")
    ] = None,
    carry: Annotated[
        bool, typer.Option(help="Carry hit points, fatigue and wounds into the next.")
    ] = True,
    db: DbOption = None,
) -> None:
    """End an encounter in the books: its XP and what each character carries out."""
    award = _run(lambda: _pairs(xp)) if xp else None
    entry = _run(lambda: _ledger(db).conclude(table, award, carry))
    _echo(entry)
