"""A command starts at once: the command line imports its heavy libraries where it uses them.

One fresh interpreter imports :mod:`fracas.cli`, asks for ``fracas --help`` and
``fracas sim --help``, and runs a tiny ``fracas sim FILE``; after each step it reports
which heavy libraries are loaded. None may be: the store's SQLAlchemy (and SQLite) loads
only for a command that opens the store (``fracas sim --table``, ``fracas play``) or a
sweep, the web's only for ``fracas serve``, matplotlib only for a chart, Dask only with
``--dask``. Nor may what ``fracas sim FILE`` does without: the save file's schema
(pydantic models built at import), Unicode's confusables data (its names are ASCII).
Each command is built from its function only when it is asked for, and the cycle
collector, paused while the command line is imported, runs again afterwards.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Top-level packages a start-up must not load (numpy is the simulations' own).
HEAVY = (
    "sqlalchemy",
    "alembic",
    "psycopg",
    "psycopg2",
    "fastapi",
    "starlette",
    "uvicorn",
    "jinja2",
    "matplotlib",
    "dask",
    "distributed",
    "sqlite3",
    "confusable_homoglyphs",
)

#: Modules of fracas that none of the steps loads.
LAZY = ("fracas.engine.savefile", "fracas.lab.sweep")

PROBE = """
import gc, json, sys
heavy = set(json.loads(sys.argv[1]))
lazy = set(json.loads(sys.argv[4]))
def loaded():
    tops = {name.partition(".")[0] for name in sys.modules}
    return sorted(heavy & tops | lazy & set(sys.modules))
steps = {}
import fracas.cli
steps["import"] = loaded()
steps["collecting"] = gc.isenabled()
from typer.testing import CliRunner
from fracas.cli import app
def run(*args):
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output)
run("--help")
steps["--help"] = loaded()
run("sim", "--help")
steps["sim --help"] = loaded()
run("sim", sys.argv[2], "--runs", "2", "--engine", "engine", "--json", sys.argv[3])
steps["sim FILE"] = loaded()
print(json.dumps(steps))
"""


def test_the_command_line_starts_without_heavy_libraries(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            json.dumps(HEAVY),
            str(ROOT / "examples" / "heimr" / "duel.yaml"),
            str(out),
            json.dumps(LAZY),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    steps = json.loads(done.stdout.splitlines()[-1])
    assert steps == {
        "import": [],
        "collecting": True,
        "--help": [],
        "sim --help": [],
        "sim FILE": [],
    }
    assert json.loads(out.read_text(encoding="utf-8"))["runs"] == 2


def test_a_command_is_built_alone_and_the_list_has_them_all() -> None:
    import typer.main

    from fracas.cli import app

    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    context = group.make_context("fracas", ["sim", "--help"], resilient_parsing=True)
    assert group.get_command(context, "sim") is not None
    assert list(group.commands) == ["sim"]
    names = group.list_commands(context)
    assert names[:3] == ["play", "tables", "export"]
    assert {"sim", "sweep", "campaign", "round", "chase"} <= set(names)
    assert group.get_command(context, "sim") is group.commands["sim"]
