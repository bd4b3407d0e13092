"""The start-up hook puts the compiled build on the path only while it matches ``src``.

``tools/_fracas_compiled.py`` (copied into the venv's site-packages by ``tools/compile.py``)
decides at every interpreter start; here on a small fake tree, nothing compiled.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load(name: str) -> ModuleType:
    """The module ``tools/NAME.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location(f"_tools_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = load("_fracas_compiled")


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A fake ``src`` (with a ``__pycache__``) and a build whose manifest matches it."""
    src, compiled = tmp_path / "src", tmp_path / "build" / "compiled"
    (src / "fracas" / "engine" / "__pycache__").mkdir(parents=True)
    (src / "fracas" / "__init__.py").write_text('"""fracas."""\n')
    (src / "fracas" / "engine" / "legal.py").write_text("LEGAL = 1\n")
    (src / "fracas" / "engine" / "__pycache__" / "legal.cpython-311.pyc").write_bytes(b"x")
    compiled.mkdir(parents=True)
    files = hook.tree(str(src / "fracas"))
    (compiled / hook.MANIFEST).write_text(hook.manifest(files), encoding="utf-8")
    return src, compiled


def started(
    src: Path, compiled: Path, path: list[str], monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """``sys.path`` after the hook ran on ``path`` (FRACAS_PURE unset unless set here)."""
    monkeypatch.setattr(sys, "path", list(path))
    hook.activate(str(src), str(compiled))
    return list(sys.path)


@pytest.fixture(autouse=True)
def no_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FRACAS_PURE", raising=False)


def test_a_fresh_build_goes_just_before_src_after_an_explicit_pythonpath(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    path = ["", "/explicit/older/src", "/stdlib", "/venv/site-packages", str(src), "/plugin"]
    after = started(src, compiled, path, monkeypatch)
    assert after == [*path[:4], str(compiled), str(src), "/plugin"]


def test_bytecode_written_since_the_build_keeps_it_fresh(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    (src / "fracas" / "__pycache__").mkdir()
    (src / "fracas" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"y")
    assert started(src, compiled, [str(src)], monkeypatch) == [str(compiled), str(src)]


def touch(src: Path) -> None:
    legal = src / "fracas" / "engine" / "legal.py"
    stat = legal.stat()
    os.utime(legal, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))


def add(src: Path) -> None:
    (src / "fracas" / "engine" / "new.py").write_text("")


def remove(src: Path) -> None:
    (src / "fracas" / "engine" / "legal.py").unlink()


def grow(src: Path) -> None:
    legal = src / "fracas" / "engine" / "legal.py"
    stat = legal.stat()
    legal.write_text("LEGAL = 12\n")
    os.utime(legal, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.parametrize("change", [touch, add, remove, grow])
def test_a_source_touched_added_removed_or_resized_runs_pure(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], None]
) -> None:
    src, compiled = built
    change(src)
    assert started(src, compiled, ["", str(src)], monkeypatch) == ["", str(src)]


def test_fracas_pure_runs_pure(built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    src, compiled = built
    monkeypatch.setenv("FRACAS_PURE", "1")
    assert started(src, compiled, [str(src)], monkeypatch) == [str(src)]


def test_src_named_by_pythonpath_too_keeps_its_place_first(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    path = ["", str(src), "/stdlib", str(src)]
    assert started(src, compiled, path, monkeypatch) == [
        "",
        str(src),
        "/stdlib",
        str(compiled),
        str(src),
    ]


def test_an_explicit_compiled_path_stays_where_it_was_put(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    path = [str(compiled), "/stdlib", str(src)]
    assert started(src, compiled, path, monkeypatch) == path


def test_without_src_on_the_path_nothing_changes(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    assert started(src, compiled, ["", "/elsewhere"], monkeypatch) == ["", "/elsewhere"]


@pytest.mark.parametrize(
    "broken",
    ["garbage\n", "", "missing", "folder", "undecodable"],
)
def test_a_broken_or_missing_manifest_runs_pure(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    src, compiled = built
    manifest = compiled / hook.MANIFEST
    manifest.unlink()
    if broken == "folder":
        manifest.mkdir()
    elif broken == "undecodable":
        manifest.write_bytes(b"\xff\xfe\x00")
    elif broken != "missing":
        manifest.write_text(broken)
    assert started(src, compiled, [str(src)], monkeypatch) == [str(src)]


def test_a_missing_source_tree_runs_pure(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, compiled = built
    assert started(src / "gone", compiled, [str(src / "gone")], monkeypatch) == [str(src / "gone")]


def test_the_decision_is_a_pure_function() -> None:
    files = {"__init__.py": (3, 10), "engine/legal.py": (5, 20)}
    recorded = "__init__.py\t3\t10\nengine/legal.py\t5\t20\n"
    assert hook.manifest(files) == recorded
    assert hook.placed(["/s"], "/s", "/c", recorded, files) == ["/c", "/s"]
    assert hook.placed(["/s"], "/s", "/c", recorded, {**files, "x.py": (0, 0)}) is None
    assert hook.placed(["/s"], "/s", "/c", "", {}) is None  # an empty tree is not a build
    assert doctest.testmod(hook).failed == 0


def test_compile_installs_and_removes_the_hook(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``.pth`` line activates the real folders; uninstalling leaves nothing."""
    compile_ = load("compile")
    site = tmp_path / "site-packages"
    site.mkdir()
    _, compiled = built
    monkeypatch.setattr(compile_, "site_packages", lambda: site)
    monkeypatch.setattr(compile_, "OUT", compiled)
    monkeypatch.syspath_prepend(str(TOOLS))
    compile_.install()
    line = (site / "fracas_compiled.pth").read_text()
    root = TOOLS.parent
    expected = f"_fracas_compiled.activate({str(root / 'src')!r}, {str(compiled)!r})"
    assert line == f"import _fracas_compiled; {expected}\n"
    assert (site / "_fracas_compiled.py").read_bytes() == (
        TOOLS / "_fracas_compiled.py"
    ).read_bytes()
    compile_.uninstall()
    assert sorted(p.name for p in site.iterdir()) == ["__pycache__"]
    assert not list((site / "__pycache__").iterdir())
    assert not (compiled / hook.MANIFEST).exists()
