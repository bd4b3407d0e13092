"""Files are read bounded and written whole: fracas.files.

A save written over an older one while the writer is killed (SIGKILL) at 200 random
moments is always the old save or the new one, complete. Reading is bounded in size,
refuses what is not UTF-8 with the file and line, and refuses folders and devices.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import time
from pathlib import Path

import pytest

from fracas.files import (
    MAX_SEED_DIGITS,
    InputError,
    WriteError,
    atomic_write,
    parse_script,
    read_script,
    read_text,
)

PAD = "x" * 2_000_000


def whole_save(path: Path) -> int:
    """The number of the complete save at ``path`` (fails on a torn or empty file)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["n"] == data["end"] and data["pad"] == PAD
    number: int = data["n"]
    return number


def start_writer(target: Path, first: int) -> tuple[int, int]:
    """A forked process writing saves numbered from ``first`` over ``target`` until it is
    killed; returns its pid once it has started writing, and the pipe it said so on."""
    ready, say = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer
        try:
            os.close(ready)
            os.write(say, b"w")
            n = first
            while True:
                atomic_write(target, json.dumps({"n": n, "pad": PAD, "end": n}))
                n += 1
        finally:
            os._exit(1)
    os.close(say)
    assert os.read(ready, 1) == b"w"  # waits until it starts writing
    return pid, ready


def test_a_save_killed_while_written_is_the_old_or_the_new_one(tmp_path: Path) -> None:
    target = tmp_path / "duel.json"
    atomic_write(target, json.dumps({"n": 0, "pad": PAD, "end": 0}))
    rng = random.Random(13)
    last = 0
    for _ in range(200):
        pid, ready = start_writer(target, last + 1)
        time.sleep(rng.uniform(0, 0.05))  # a random moment in its first few saves
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(ready)
        number = whole_save(target)
        assert number >= last  # the old save or a newer one, never an older one
        last = number
    assert last > 0  # some saves were completed, so the kills fell at many moments


def test_atomic_write_writes_text_and_bytes_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    atomic_write(path, "{}")
    atomic_write(path, b"[1]")
    assert path.read_bytes() == b"[1]"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # no temporary file left


def test_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    atomic_write(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("where", ["folder", "missing", "file-as-folder"])
def test_atomic_write_to_a_bad_path_is_one_line(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    path = {
        "folder": tmp_path,
        "missing": tmp_path / "no" / "such.json",
        "file-as-folder": tmp_path / "file" / "x.json",
    }[where]
    with pytest.raises(WriteError) as err:
        atomic_write(path, "{}")
    assert isinstance(err.value, OSError)
    assert str(err.value).startswith(f"cannot write {path}: ") and "\n" not in str(err.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_atomic_write_to_a_read_only_folder_is_one_line(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(WriteError, match="Permission denied"):
            atomic_write(tmp_path / "x.json", "{}")
    finally:
        tmp_path.chmod(0o700)


def test_plots_are_written_atomically(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fracas.cli import app

    plot = tmp_path / "odds.png"
    result = CliRunner().invoke(app, ["odds", "heimr", "C3P2", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir()] == ["odds.png"]


# -- reading ------------------------------------------------------------------------------


def test_read_text_refuses_a_file_over_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "a.script"
    path.write_text("gm begin\n", encoding="utf-8")
    assert read_text(path, 9, "script") == "gm begin\n"
    with pytest.raises(InputError, match=r"a\.script: the script is larger than 8 bytes$"):
        read_text(path, 8, "script")


def test_read_text_names_the_line_of_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "a.script"
    path.write_bytes(b"gm begin\nylva attack astrid\nylva speak text=caf\xe9\n")
    with pytest.raises(InputError) as err:
        read_text(path, 1000, "script")
    assert str(err.value) == (
        f"{path}, line 3: the script is not UTF-8 text (invalid continuation byte)"
    )


@pytest.mark.parametrize(
    ("path", "says"),
    [("/dev/zero", "/dev/zero: not a regular file"), (".", ".: cannot read the script")],
)
def test_read_text_refuses_what_is_not_a_regular_file(path: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        read_text(path, 1000, "script")


def test_read_text_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        read_text(tmp_path / "none", 10, "script")
    assert (
        str(err.value) == f"{tmp_path / 'none'}: cannot read the script (No such file or directory)"
    )


def test_a_script_seed_of_5000_digits_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "long.script"
    path.write_text("gm begin\n# seed: " + "7" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_script(path)
    assert str(err.value) == (
        f"{path}, line 2: the seed has 5000 digits; at most {MAX_SEED_DIGITS}"
    )


def test_a_script_gives_its_seed_and_numbered_actions() -> None:
    script = parse_script("# a duel\n# seed: -12\n\ngm begin\n  ylva end\n")
    assert script.seed == -12
    assert script.lines == ((4, "gm begin"), (5, "ylva end"))


def test_a_script_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.script"
    path.write_bytes(b"gm begin\n\xff\xfe\n")
    with pytest.raises(InputError, match=r"bad\.script, line 2: the script is not UTF-8 text"):
        read_script(path)


@pytest.mark.parametrize("content", [b"# seed: " + b"9" * 5000 + b"\n", b"gm begin\n\xff\n"])
def test_fracas_play_with_a_bad_script_exits_2_with_one_line(
    tmp_path: Path, content: bytes
) -> None:
    from typer.testing import CliRunner

    from fracas.cli import app

    script = tmp_path / "bad.script"
    script.write_bytes(content)
    duel = Path(__file__).resolve().parents[2] / "examples" / "heimr" / "duel.yaml"
    result = CliRunner().invoke(app, ["play", str(duel), "--script", str(script)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
