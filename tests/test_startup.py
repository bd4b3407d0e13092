"""A command starts at once: the command line imports its heavy libraries where it uses them.

One fresh interpreter imports :mod:`fracas.cli`, asks for ``fracas --help`` and
``fracas sim --help``, and runs a tiny ``fracas sim FILE``; after each step it reports
which heavy libraries are loaded. None may be: the store's SQLAlchemy loads only for a
command that opens the store (``fracas sim --table``, ``fracas play``), the web's only
for ``fracas serve``, matplotlib only for a chart, Dask only with ``--dask``.
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
)

PROBE = """
import json, sys
heavy = set(json.loads(sys.argv[1]))
def loaded():
    return sorted(heavy & {name.partition(".")[0] for name in sys.modules})
steps = {}
import fracas.cli
steps["import"] = loaded()
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
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    steps = json.loads(done.stdout.splitlines()[-1])
    assert steps == {"import": [], "--help": [], "sim --help": [], "sim FILE": []}
    assert json.loads(out.read_text(encoding="utf-8"))["runs"] == 2
