"""The layout of the source: outside the rules (and the dice systems), no module names a
ruleset by its id in code, docstrings aside; the rulesets are reached through the
registry and their capabilities (import-linter checks the imports: ``make lint``)."""

from __future__ import annotations

import ast
from pathlib import Path

from fracas import rules

SRC = Path(__file__).resolve().parents[1] / "src" / "fracas"
#: Where a ruleset may be named: its own package, the registry and the dice systems.
INSIDE = ("rules", "dice")
#: The built-in rulesets, whose ids the test knows (a plugin's are its own business).
BUILT_IN = {"heimr", "heimr-classic", "sides", "tempo", "diestep"}
#: The word "sides" as a plain word, the key of the lab's summary of a fight (the sides
#: that fought), not the ruleset: only as a subscript or a key, only in these modules.
WORD_SIDES = {"lab/stats.py", "lab/plots.py", "lab/sweep.py", "cli/lab.py", "lab/fightodds.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _as_word(tree: ast.AST) -> set[int]:
    """The string constants used as a subscript or a mapping's key."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            found.add(id(node.slice))
        elif isinstance(node, ast.Dict):
            found.update(id(k) for k in node.keys if isinstance(k, ast.Constant))
    return found


def named_ids(where: str, text: str) -> list[str]:
    """Each place in the code of the module at ``where`` (under src/fracas) that names a
    built-in ruleset's id."""
    tree = ast.parse(text)
    skip = _docstrings(tree)
    words = _as_word(tree) if where in WORD_SIDES else set()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if node.value not in BUILT_IN or id(node) in skip:
            continue
        if node.value == "sides" and id(node) in words:
            continue
        found.append(f"{where}:{node.lineno}: {node.value!r}")
    return found


def test_the_built_in_ids_are_the_installed_ones() -> None:
    assert set(rules.ids()) >= BUILT_IN


def test_no_module_outside_the_rules_names_a_ruleset_in_code() -> None:
    outside = [p for p in sorted(SRC.rglob("*.py")) if p.relative_to(SRC).parts[0] not in INSIDE]
    assert len(outside) > 50
    found = [
        line
        for path in outside
        for line in named_ids(path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_sees_a_ruleset_named_in_code() -> None:
    """The check itself: a comparison with an id is found, a docstring is not, and the
    word "sides" only as a key in the lab's summaries."""
    text = '"""Plays heimr."""\n\nTEMPO = x == "tempo"\nn = summary["sides"]\n'
    assert named_ids("lab/probe.py", text) == ["lab/probe.py:3: 'tempo'", "lab/probe.py:4: 'sides'"]
    assert named_ids("lab/stats.py", text) == ["lab/stats.py:3: 'tempo'"]
