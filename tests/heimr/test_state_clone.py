"""Heimr's states clone through their constructors, naming every field (compiled with mypyc,
a native class has no ``__dict__`` to copy at once): a field left out would come back as
its default in every clone."""

from __future__ import annotations

from dataclasses import fields

import pytest

from fracas.rules.heimr.state import Combatant, HeimrState, Turn


@pytest.mark.parametrize("cls", [Combatant, HeimrState, Turn])
def test_clone_reads_every_field(cls: type) -> None:
    code = getattr(cls.clone, "__code__", None)
    if code is None:
        pytest.skip("compiled: the clone has no bytecode to read")
    read = set(code.co_names)
    assert [f.name for f in fields(cls) if f.name not in read] == []
