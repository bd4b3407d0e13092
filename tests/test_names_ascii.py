"""An ASCII name is checked without Unicode's confusables data: the same answers.

:func:`fracas.names.skeleton` and :func:`fracas.names.mixed_scripts` answer for ASCII
names from :data:`fracas.names.ASCII_CONFUSABLES` and ``str.isalpha``; these are the
answers the data gives (tests/test_startup.py checks that ``fracas sim`` of an encounter
of ASCII names does not load it).
"""

from __future__ import annotations

import string
import unicodedata

from confusable_homoglyphs import categories

from fracas import names


def test_the_ascii_table_is_the_datas() -> None:
    table = names._confusables()
    assert {c: r for c, r in table.items() if c.isascii()} == names.ASCII_CONFUSABLES


def test_every_ascii_letter_is_latin_and_nothing_else_is_a_letter() -> None:
    for char in map(chr, range(128)):
        letter = unicodedata.category(char).startswith("L")
        assert char.isalpha() == letter
        if letter:
            assert categories.alias(char) == "LATIN"


def test_skeletons_of_ascii_names_are_as_the_data_makes_them() -> None:
    table = names._confusables()
    for name in ("ylva", "Ylva", "yIva", "l0O|`'", string.printable):
        assert names.skeleton(name) == "".join(table.get(c, c) for c in name)
