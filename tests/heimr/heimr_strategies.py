"""Hypothesis strategies of Heimr fighters, for the tests that replay random builds on the
engine and on the kernel (tests/lab/test_kernel_agreement.py, test_kernel_default.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from heimr_builders import sheet

#: The weapons a random fighter may wield, with the ability each is fought with.
WEAPONS = {
    "Light weapon": "Knife fighting",
    "Medium weapon": "Dueling",
    "Great weapon": "Swordmanship",
    "Pole arm": "Pole arms",
    "Bow": "Archery",
}
TWO_HANDED = ("Great weapon", "Pole arm", "Bow")


@st.composite
def fighter(
    draw: st.DrawFn,
    name: str,
    side: str,
    weapons: Mapping[str, str],
    trained: str,
    willpower: bool = False,
) -> dict[str, Any]:
    """A character sheet: a weapon of ``weapons`` (or none), perhaps a shield or a second
    weapon, one carried, its weapon's ability, Agility and ``trained`` at C0..2 P0..2."""
    sword = draw(st.sampled_from([*weapons, None]))
    off = (
        None
        if sword in TWO_HANDED
        else draw(st.sampled_from([None, "Medium shield", "Light weapon"]))
    )
    if off == "Light weapon" and sword not in (None, "Light weapon"):
        off = None  # only an either-hand weapon goes beside another (H-ATK-2)
    abilities = {
        ability: (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
        for ability in {weapons.get(sword or "", "Knife fighting"), "Agility", trained}
    }
    stats = {a: draw(st.integers(-1, 3)) for a in ("str", "dex", "sta")}
    more = {"willpower": draw(st.integers(1, 4))} if willpower else {}
    return sheet(
        name,
        side,
        hp=draw(st.integers(1, 7)),
        **more,
        abilities=abilities,
        sword=sword,
        off=off,
        carried=draw(st.sampled_from([[], ["Light weapon"], ["Medium weapon"]])),
        **stats,
    )


@st.composite
def line_up(
    draw: st.DrawFn, weapons: Mapping[str, str], trained: str, willpower: bool = False
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Two to four fighters of sides ``n`` and ``s``, and the stances some of them start in."""
    sides = draw(st.sampled_from([("n", "s"), ("n", "n", "s"), ("n", "s", "n", "s")]))
    people = [
        draw(fighter(f"f{i}", side, weapons, trained, willpower)) for i, side in enumerate(sides)
    ]
    stances = {
        p["name"]: draw(st.sampled_from(["dodge", "block", "parry", "none"]))
        for p in people
        if draw(st.booleans())
    }
    return people, stances
