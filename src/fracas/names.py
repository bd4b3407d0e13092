"""Names people give things (tables, campaigns, combatants, sides): normal form, one
script, and no two that look alike.

A name is kept in Unicode's NFKC form (full-width ``ｙｌｖａ`` is ``ylva``). Its letters
may be of any one script (``Ylva``, ``Ильва``, ``ユルヴァ``), with digits, marks and
punctuation of any; letters of two scripts in one name (``ylvа``, its ``а`` Cyrillic)
are refused. Two names clash when they look identical: their :func:`skeleton` (each
character replaced by the one it is confusable with, after Unicode's confusables data)
is the same; ``Ylva`` and ``ylva`` differ.

>>> normal("ｙｌｖａ")
'ylva'
>>> mixed_scripts("ylvа")
'CYRILLIC and LATIN letters'
>>> mixed_scripts("Ильва-2") is None
True
>>> skeleton("ylva") == skeleton("ylvа") == skeleton("yIva"), skeleton("Ylva") == skeleton("ylva")
(True, False)
>>> clash("ylvа", ["astrid", "ylva"])
'ylva'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["NameError_", "check", "clash", "mixed_scripts", "normal", "skeleton"]


class NameError_(ValueError):
    """A name refused: one line saying why."""


def normal(name: str) -> str:
    """``name`` in NFKC form."""
    return unicodedata.normalize("NFKC", name)


@lru_cache(maxsize=4096)
def _script(char: str) -> str | None:
    """The script of a letter (``LATIN``, ``CYRILLIC``...), or ``None`` for anything else."""
    if char.isascii():  # the data is loaded for other characters only
        return "LATIN" if char.isalpha() else None
    if not unicodedata.category(char).startswith("L"):
        return None
    from confusable_homoglyphs import categories

    try:
        alias = str(categories.alias(char))
    except (KeyError, IndexError, ValueError):
        return None
    return None if alias in ("COMMON", "INHERITED") else alias


def mixed_scripts(name: str) -> str | None:
    """What scripts ``name``'s letters mix (``'CYRILLIC and LATIN letters'``), or ``None``.

    Han, Hiragana and Katakana go together, as Japanese writes them.
    """
    scripts = {s for c in name if (s := _script(c)) is not None}
    if scripts <= {"HAN", "HIRAGANA", "KATAKANA"}:
        return None
    if len(scripts) <= 1:
        return None
    return " and ".join(sorted(scripts)) + " letters"


@lru_cache(maxsize=1)
def _confusables() -> dict[str, str]:
    """Each confusable character mapped to the smallest of those it looks like (the
    groups of Unicode's confusables data, joined where they share a character)."""
    from confusable_homoglyphs import confusables

    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    for char, homoglyphs in confusables.confusables_data.items():
        for h in homoglyphs:
            other = h["c"]
            if len(char) == 1 and len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: root(c) for c in parent}


#: :func:`_confusables` for the ASCII characters, so that an ASCII name's skeleton needs
#: no data loaded (tests/test_names_ascii.py checks it against the data).
ASCII_CONFUSABLES = {"`": "'", "|": "1", "l": "1", "I": "1", "O": "0"}
_ASCII_TABLE = str.maketrans(ASCII_CONFUSABLES)


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for names that are confusable."""
    name = normal(name)
    if name.isascii():
        return name.translate(_ASCII_TABLE)
    table = _confusables()
    return "".join(table.get(c, c) for c in name)


def clash(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` (not ``name`` itself) that looks identical to ``name``."""
    mine = skeleton(name)
    for other in others:
        if other != name and skeleton(other) == mine:
            return other
    return None


def check(name: str, what: str, others: Iterable[str] = ()) -> str:
    """``name`` in normal form; :class:`NameError_` if it mixes scripts or looks like one
    of ``others`` (the names already in the same table, campaign or store)."""
    name = normal(name)
    mixed = mixed_scripts(name)
    if mixed:
        raise NameError_(
            f"{name[:40]!r} is not a {what} name: it mixes {mixed}, which can look like "
            "another name; write it in one script"
        )
    other = clash(name, others)
    if other is not None:
        raise NameError_(
            f"{name[:40]!r} looks the same as the {what} {other[:40]!r}: choose a name that "
            "can be told apart"
        )
    return name
