"""The command line end to end, in process (Typer's ``CliRunner``), for the fuzz harness
and the suite's short fuzz pass (not a harness itself).

:func:`command` turns a seed into one command line: ``play`` of a mutated encounter and
script, ``import`` of a mutated save, ``export``, ``round open/post/status/close`` and
``fracas post`` of a table played by post, ``campaign import/show`` of mutated campaign
files, ``roll`` and ``odds``, with names, sides and numbers often hostile. :func:`run`
runs it against a store of its own; an exception out of the command (not its exit), a
traceback in its output or an exit status other than 0, 1 or 2 is a failure.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HOSTILE = ["", "ńame", "ylv\u0430", "ｆｏｒｄ", "🙂", "-1", str(10**30), "\x07", "a" * 300, "--db"]
EXPRESSIONS = ["d20+5", "3d6", "C1P3 vs C2P1", "pool", "d8 adv", "100d1000", "2d1000 vs 2d1000"]


@dataclass
class Shell:
    """A folder with the example files, a store with two tables (one played by post)."""

    folder: Path
    env: dict[str, str]
    texts: dict[str, str]


def shell() -> Shell:
    from fracas.table import encounterfile
    from fracas.table.rounds import Rounds
    from fracas.table.store import Store
    from fracas.table.table import Table

    folder = Path(tempfile.mkdtemp(prefix="fuzz-cli-"))
    url = f"sqlite:///{folder / 'tables.db'}"
    os.environ["FRACAS_DB"] = url
    store = Store.open(url)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "classic/ford.yaml")
    Rounds(store).open(Table.start(store, "ford", ruleset, setup, title, seed=1))
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    duel = Table.start(store, "duel", ruleset, setup, title, seed=1)
    texts = {
        f"{p.parent.name}/{p.name}": p.read_text(encoding="utf-8")
        for p in sorted(EXAMPLES.glob("*/*.yaml")) + sorted(EXAMPLES.glob("*/*.script"))
    }
    texts["save.json"] = json.dumps(duel.encounter.save(), indent=1)
    from typer.testing import CliRunner

    from fracas.cli import app

    CliRunner().invoke(app, ["rulesets"])  # imported and warmed before the first input
    return Shell(folder, {"FRACAS_DB": url, "COLUMNS": "120"}, texts)


def command(place: Shell, seed: int) -> tuple[list[str], dict[str, str], str]:
    """The command line ``seed`` stands for: its arguments, the files it reads, its input."""
    from _harness import YAML_SNIPPETS, mutate_text

    rng = random.Random(seed)
    files: dict[str, str] = {}

    def pick(*given: str) -> str:
        return rng.choice(given) if rng.random() < 0.75 else rng.choice(HOSTILE)

    def file(prefix: str, suffix: str = ".yaml") -> str:
        keys = [k for k in place.texts if k.startswith(prefix) and k.endswith(suffix)]
        text = place.texts[rng.choice(keys)]
        if rng.random() < 0.8:
            text = mutate_text(rng, text, [*YAML_SNIPPETS, *HOSTILE, '"_v": 1', '"digests": []'])
        name = f"in-{len(files)}{suffix}"
        files[name] = text
        return str(place.folder / name)

    table = pick("ford", "duel")
    side = pick("wolves", "travellers", "raiders", "north")
    kind = rng.randrange(10)
    stdin = ""
    if kind == 0:
        args = ["roll", pick(*EXPRESSIONS)]
    elif kind == 1:
        args = [
            "odds",
            pick("heimr", "heimr-classic", "sides", "tempo", "diestep"),
            pick(*EXPRESSIONS),
        ]
    elif kind == 2:
        folder = rng.choice(["heimr", "classic", "sides", "tempo", "diestep"])
        args = ["play", file(f"{folder}/"), "--table", pick(f"p{seed % 1000}")]
        args += ["--script", file(f"{folder}/", ".script")]
    elif kind == 3:
        args = ["import", file("save", ".json"), "--table", pick(f"i{seed % 1000}")]
    elif kind == 4:
        args = ["export", table, str(place.folder / f"out-{seed % 7}.json")]
        args += ["--side", side] if rng.random() < 0.5 else []
    elif kind == 5:
        args = [
            "post",
            table,
            "--round",
            pick("1", "2", "0"),
            "--format",
            pick("markdown", "bbcode", "text"),
        ]
    elif kind == 6:
        args = ["round", rng.choice(["open", "status", "close", "post"]), table]
        if args[1] == "post":
            args += [side, "-"]
            stdin = mutate_text(rng, "wolf attack brannoc\nwolf done\n", HOSTILE, 2)
    elif kind == 7:
        args = ["campaign", "import", file("", "campaign.yaml"), "--name", pick(f"c{seed % 1000}")]
    elif kind == 8:
        args = [
            "campaign",
            "show",
            pick("heimr", "classic", f"c{seed % 1000}"),
            pick("ylva", "asa"),
        ]
    else:
        args = [
            rng.choice(["tables", "rulesets", "campaign"]),
            *(["list"] if rng.random() < 0.3 else []),
        ]
    return args, files, stdin


def run(place: Shell, seed: int) -> int:
    """Run the command ``seed`` stands for; ``AssertionError`` if it fails as above."""
    from typer.testing import CliRunner

    from fracas.cli import app

    args, files, stdin = command(place, seed)
    for name, text in files.items():
        (place.folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    result = CliRunner().invoke(app, args, input=stdin, env=place.env)
    shown = repr(args)[:300]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(
            f"{shown} raised {type(result.exception).__name__}: {result.exception}"
        )
    assert "Traceback" not in result.output, f"{shown} printed a traceback"
    assert result.exit_code in (0, 1, 2), f"{shown} exited {result.exit_code}"
    return int(result.exit_code)
