"""Named positions and guarded borders (HC-MOVE-1, HC-MOVE-2), worked from the seed's
own example: a pub, the room behind its counter, and enemies standing on the counter."""

from __future__ import annotations

from typing import Any

import pytest

from classic_builders import encounter, play, refused, sheet, texts

PUB = {"Inside the pub": ["Behind the counter", "Street"], "Behind the counter": [], "Street": []}


def orc(name: str, **kw: Any) -> dict[str, Any]:
    return sheet(name, "raiders", npc=True, **kw)


# -- HC-MOVE-1 ---------------------------------------------------------------------------


@pytest.mark.rule("HC-MOVE-1")
def test_a_move_goes_to_a_bordering_position() -> None:
    enc = encounter([sheet("ylva", "north"), orc("orc")], faces=[20, 1], positions=PUB)
    # Borders work both ways: the counter borders the pub though only the pub lists it.
    assert enc.state.battlefield.borders("Behind the counter") == ["Inside the pub"]
    play(enc, "gm open")
    err = refused(enc, "ylva move Cellar")
    assert err.rule == "HC-MOVE-1" and "no position called 'Cellar'" in str(err)
    play(enc, "ylva move 'Behind the counter'")
    # From behind the counter the street does not border: the second move is refused.
    err = refused(enc, "ylva move Street")
    assert str(err) == "Street does not border Behind the counter (HC-MOVE-1)"
    play(enc, "ylva move 'Behind the counter'")  # staying where one is, is a move too
    play(enc, "ylva done", "orc done", "gm close")
    assert enc.state.combatants["ylva"].position == "Behind the counter"
    assert "Ylva moves to Behind the counter" in texts(enc)
    assert "Ylva stays in Behind the counter" in texts(enc)


# -- HC-MOVE-2 ---------------------------------------------------------------------------


def _the_pub_fight(**kw: Any) -> Any:
    """Three players behind the counter; two raiders in the pub, moving onto the counter
    to guard the way back into the pub. Initiative d20s in setup order: the raiders 20
    and 19, the players 10, 9, 8."""
    people = [orc("r1"), orc("r2"), sheet("p1", "north"), sheet("p2", "north"),
              sheet("p3", "north")]  # fmt: skip
    behind = {"position": "Behind the counter"}
    return encounter(
        people,
        positions=PUB,
        place={"r1": {}, "r2": {}, "p1": behind, "p2": behind, "p3": behind},
        **kw,
    )


@pytest.mark.rule("HC-MOVE-2")
def test_each_guard_blocks_one_enemy_and_the_third_gets_through() -> None:
    enc = _the_pub_fight()
    enc.dice.add([20, 19, 10, 9, 8])  # type: ignore[attr-defined]
    play(enc, "gm open")
    play(enc, "r1 move 'Behind the counter' guard='Inside the pub'", "r1 done")
    play(enc, "r2 move 'Behind the counter' guard='Inside the pub'", "r2 done")
    for p in ("p1", "p2", "p3"):
        play(enc, f"{p} move 'Inside the pub'", f"{p} done")
    play(enc, "gm close")
    out = texts(enc)
    assert "R1 guards the way to Inside the pub: P1 is blocked" in out
    assert "R2 guards the way to Inside the pub: P2 is blocked" in out
    assert "P3 moves to Inside the pub" in out
    where = {cid: f.position for cid, f in enc.state.combatants.items()}
    assert where == {
        "r1": "Behind the counter", "r2": "Behind the counter",
        "p1": "Behind the counter", "p2": "Behind the counter", "p3": "Inside the pub",
    }  # fmt: skip
    # The guards stand on. They bar the way out from behind the counter, not the way in:
    # P3 comes back freely (initiative r1 1, r2 2, p1 20, p2 19, p3 18).
    enc.dice.add([1, 2, 20, 19, 18])  # type: ignore[attr-defined]
    play(enc, "r1 done", "r2 done", "p1 done", "p2 done")
    play(enc, "p3 move 'Behind the counter'", "p3 done", "gm close")
    assert "P3 moves to Behind the counter" in texts(enc)
    assert len(enc.state.guards) == 2


@pytest.mark.rule("HC-MOVE-2")
def test_attacking_the_guards_in_melee_lets_the_rest_through() -> None:
    # The seed's alternative: two players attack the guards in melee, the third lowers its
    # initiative until after them and moves. Initiative: r1 1, r2 2, p1 20, p2 19, p3 18.
    # P1's and P2's attacks (d20 1: 1 + 5 = 6 < 8) miss, but the guards were attacked.
    enc = _the_pub_fight()
    enc.dice.add([20, 19, 10, 9, 8])  # type: ignore[attr-defined]
    play(enc, "gm open", "r1 move 'Behind the counter' guard='Inside the pub'", "r1 done")
    play(enc, "r2 move 'Behind the counter' guard='Inside the pub'", "r2 done")
    play(enc, "p1 done", "p2 done", "p3 done", "gm close")
    enc.dice.add([1, 2, 20, 19, 18, 1, 1])  # type: ignore[attr-defined]
    play(enc, "r1 done", "r2 done", "p1 attack r1", "p1 done", "p2 attack r2", "p2 done")
    play(enc, "p3 after p2", "p3 move 'Inside the pub'", "p3 done", "gm close")
    assert enc.state.order == ["p1", "p2", "p3", "r2", "r1"]
    assert "P3 moves to Inside the pub" in texts(enc)
    # Without the attacks, P3 would have been blocked by the first guard.


@pytest.mark.rule("HC-MOVE-2")
def test_a_guard_that_attacked_or_named_an_enemy_blocks_only_that_enemy() -> None:
    # One raider guards, naming P2. P1 moves first (initiative 10 before 9): not named,
    # it passes; P2 is blocked.
    enc = _the_pub_fight()
    enc.dice.add([20, 19, 10, 9, 8])  # type: ignore[attr-defined]
    play(enc, "gm open", "r1 move 'Behind the counter' guard='Inside the pub' block=p2")
    play(enc, "r1 done", "r2 done", "p1 move 'Inside the pub'", "p1 done")
    play(enc, "p2 move 'Inside the pub'", "p2 done", "p3 done", "gm close")
    assert "P1 moves to Inside the pub" in texts(enc)
    assert "R1 guards the way to Inside the pub: P2 is blocked" in texts(enc)
    # Next round the guard attacks P3 in melee (d20 1: a miss): this round it holds only
    # P3, so P2 walks through. Initiative: r1 20, r2 1, p1 1, p2 10, p3 9; r2 and p1 tie
    # on everything, a coin flip (1: r2 first).
    enc.dice.add([20, 1, 1, 10, 9, 1, 1])  # type: ignore[attr-defined]
    play(enc, "r1 attack p3", "r1 done", "r2 done", "p1 done")
    play(enc, "p2 move 'Inside the pub'", "p2 done", "p3 move 'Inside the pub'", "p3 done")
    play(enc, "gm close")
    assert "P2 moves to Inside the pub" in texts(enc)
    assert "R1 guards the way to Inside the pub: P3 is blocked" in texts(enc)


@pytest.mark.rule("HC-MOVE-2")
def test_guarding_needs_a_move_action_and_terrain_lets_one_guard_block_more() -> None:
    narrow = {
        "Inside the pub": {"borders": {"Behind the counter": {"blocks": 2}, "Street": {}}},
        "Behind the counter": {"borders": []},
        "Street": {"borders": []},
    }
    people = [orc("r1"), sheet("p1", "north"), sheet("p2", "north"), sheet("p3", "north")]
    enc = encounter(people, faces=[20, 10, 9, 8], positions=narrow)
    play(enc, "gm open")
    err = refused(enc, "r1 guard 'Behind the counter'")
    assert err.rule == "HC-MOVE-2" and "declare a move first" in str(err)
    # A move to where it stands, then the guard (a free action).
    play(enc, "r1 move 'Inside the pub'", "r1 guard 'Behind the counter'", "r1 done")
    for p in ("p1", "p2", "p3"):
        play(enc, f"{p} move 'Behind the counter'", f"{p} done")
    play(enc, "gm close")
    # The narrow way lets the one guard hold two: P1 and P2 blocked, P3 through.
    assert "R1 guards the way to Behind the counter: P2 is blocked" in texts(enc)
    assert "P3 moves to Behind the counter" in texts(enc)
