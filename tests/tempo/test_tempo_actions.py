"""Proactive actions (T-ACT-1) and statuses (T-STAT-1), worked by hand from seed 003.

Unless a test says otherwise: Ylva (north) and Astrid (south), melee 2, Arming swords
(3 AP, d6+2), no armour (every margin of 0 or more is a Critical Hit), On Guard.
"""

from __future__ import annotations

from typing import Any

import pytest

from tempo_builders import State, duel, encounter, kinds, pool, refused, sheet, who

BOUND = {"ylva": {"status": "Bound", "engaged_with": "astrid"}, "astrid": {"status": "Bound"}}
GRAPPLED = {
    "ylva": {"status": "Grappled", "engaged_with": "astrid"},
    "astrid": {"status": "Grappled"},
}


def bound(faces: list[int], **skills: int) -> State:
    """Ylva and Astrid start Bound with each other; ``skills`` rate Ylva's."""
    return encounter(
        [sheet("ylva", "north", **skills), sheet("astrid", "south", melee=2)], faces, place=BOUND
    )


# -- T-ACT-1: the seed's costs and statuses --------------------------------------------------

SEED_ACTIONS: list[tuple[str, int | str, list[str]]] = [
    ("Aim", 4, ["On Guard"]),
    ("Move", 2, ["Off Guard", "On Guard"]),
    ("Combat Move", 3, ["On Guard"]),
    ("Disarm", "weapon", ["Bound"]),
    ("Escape", 3, ["Grappled", "Pinned"]),
    ("Feint", "weapon", ["On Guard"]),
    ("Grapple", "weapon", ["Bound"]),
    ("Melee Attack", "weapon", ["On Guard"]),
    ("Pin", 3, ["Grappled"]),
    ("Press", "weapon", ["Bound"]),
    ("Ranged Attack", "weapon", ["On Guard"]),
    ("Ready", 1, ["Off Guard"]),
    ("Unarmed Attack", 3, ["Grappled", "On Guard"]),
    ("Withdraw", 2, ["Bound"]),
]


@pytest.mark.rule("T-ACT-1")
def test_the_proactive_actions_cost_and_allow_what_the_seed_lists() -> None:
    tables = duel().state.tables
    proactive = {n for n, spec in tables.actions.items() if spec.kind == "proactive"}
    assert proactive == {name for name, _, _ in SEED_ACTIONS}
    for name, ap, statuses in SEED_ACTIONS:
        assert (tables.actions[name].ap, tables.actions[name].statuses) == (ap, statuses), name


@pytest.mark.rule("T-ACT-1")
def test_move_has_no_check_and_succeeds_unopposed() -> None:
    # Move: 2 AP, no dice (result 0 against DT 0: Success). Astrid lets it go.
    enc = duel()
    enc.push("ylva move")
    enc.push("astrid pass")
    assert who(enc, "ylva").ap == 10
    assert kinds(enc, "roll") == []
    assert kinds(enc, "outcome")[0]["outcome"] == "Success"


@pytest.mark.rule("T-ACT-1")
@pytest.mark.parametrize(
    ("result", "outcome"),
    [(0, "Failure"), (1, "Success"), (9, "Success"), (10, "Critical Success")],
)
def test_combat_move_succeeds_from_1_and_critically_from_10(result: int, outcome: str) -> None:
    # Ylva (movement 0): the pool is the result; Astrid lets it go. 3 AP.
    enc = duel(pool(result))
    enc.push("ylva combat-move")
    enc.push("astrid pass")
    assert kinds(enc, "outcome")[0]["outcome"] == outcome
    assert who(enc, "ylva").ap == 9


@pytest.mark.rule("T-ACT-1")
def test_aim_gives_aimed_accuracy_to_the_next_ranged_attack_only() -> None:
    # Ylva (ranged 1, Short bow: 4 AP, aimed +2, d6+1). Astrid has no bow: nothing
    # answers an Aim, which has no check (0 >= DT 0: Success). 4 AP: 8 left.
    # Ranged Attack (4 AP): pool 0 + 1 + 2 (aimed) = 3. Astrid cannot Dodge at
    # distance 0, so it resolves at once; d6 face 1 + 1 = 2 damage.
    # A second Ranged Attack is not right after the Aim: pool 0 + 1 = 1.
    enc = encounter(
        [sheet("ylva", "north", ranged=1, weapons=["Short bow"]), sheet("astrid", "south")],
        pool(0) + [1] + pool(0) + [1],
    )
    enc.push("ylva aim astrid")
    assert who(enc, "ylva").ap == 8 and who(enc, "ylva").aimed == "Short bow"
    enc.push("ylva ranged-attack astrid")
    assert kinds(enc, "roll")[0]["result"] == 3
    enc.push("ylva ranged-attack astrid")
    assert kinds(enc, "roll")[0]["result"] == 1
    assert who(enc, "ylva").ap == 0


@pytest.mark.rule("T-ACT-1")
@pytest.mark.parametrize(("result", "disarmed"), [(7, False), (8, True)])
def test_disarm_from_a_bind_needs_8_and_ends_it(result: int, disarmed: bool) -> None:
    # Ylva (melee 0) disarms from the bind (3 AP, by weapon); Astrid lets it go.
    enc = bound(pool(result))
    enc.push("ylva disarm")
    enc.push("astrid pass")
    astrid = who(enc, "astrid")
    assert who(enc, "ylva").ap == 9
    assert astrid.weapons == ([] if disarmed else ["Arming sword"])
    assert (astrid.status, astrid.engaged_with) == (
        ("On Guard", None) if disarmed else ("Bound", "ylva")
    )


@pytest.mark.rule("T-ACT-1")
def test_grapple_from_a_bind_needs_8_and_pin_then_escape() -> None:
    # Grapple (by weapon, 3 AP), grapple 0: pool 8 (one re-roll, Black) = 8: both
    # Grappled. Next, Pin (3 AP) against Grapple Defence 0: pool 0: Astrid Pinned.
    enc = bound(pool(8) + pool(0))
    enc.push("ylva grapple")
    enc.push("astrid pass")
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == ("Grappled", "Grappled")
    enc.push("ylva pin")
    enc.push("astrid pass")
    assert who(enc, "astrid").status == "Pinned" and who(enc, "ylva").ap == 6


@pytest.mark.rule("T-ACT-1")
@pytest.mark.parametrize(("result", "free"), [(0, False), (1, True)])
def test_escape_from_a_pin_needs_1(result: int, free: bool) -> None:
    # Ylva is Pinned by Astrid (Grappled): Escape, 3 AP, grapple 0. Astrid could
    # Struggle; she lets it go. Success frees both: On Guard.
    enc = encounter(
        [sheet("ylva", "north"), sheet("astrid", "south")],
        pool(result),
        place={
            "ylva": {"status": "Pinned", "engaged_with": "astrid"},
            "astrid": {"status": "Grappled"},
        },
    )
    enc.push("ylva escape")
    enc.push("astrid pass")
    expect = ("On Guard", "On Guard") if free else ("Pinned", "Grappled")
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == expect


@pytest.mark.rule("T-ACT-1")
def test_press_breaks_through_the_bind() -> None:
    # Press (by weapon, 3 AP), melee 2: pool 1 + 2 = 3 >= Combat Defence (Armoured) 0:
    # Critical Success, d6 face 2 + 2 = 4 damage ignoring armour: 12 -> 8; the bind
    # is broken, both On Guard.
    enc = bound(pool(1) + [2], melee=2)
    enc.push("ylva press")
    enc.push("astrid pass")
    assert kinds(enc, "outcome")[0]["outcome"] == "Critical Success"
    assert who(enc, "astrid").hp == 8
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == ("On Guard", "On Guard")


@pytest.mark.rule("T-ACT-1")
@pytest.mark.parametrize(("result", "status"), [(0, "Bound"), (1, "On Guard")])
def test_withdraw_from_the_bind_needs_1(result: int, status: str) -> None:
    enc = bound(pool(result))
    enc.push("ylva withdraw")
    enc.push("astrid pass")
    assert who(enc, "ylva").ap == 10
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == (status, status)


@pytest.mark.rule("T-ACT-1")
def test_a_melee_counter_attack_on_an_unarmed_attack_gets_5() -> None:
    # Ylva (unarmed 1) punches: 3 AP, pool 3 + 1 = 4. Astrid counter-attacks with her
    # sword: pool 0 + 2 + 5 = 7. Ylva 4 - 7 = -3: Miss. Astrid 7 - 4 = 3: Critical Hit,
    # d6 face 6 + 2 = 8: Ylva 12 -> 4. (Without the +5 Astrid would miss and be hit.)
    enc = encounter(
        [sheet("ylva", "north", unarmed=1), sheet("astrid", "south", melee=2)],
        pool(3) + pool(0) + [6],
    )
    enc.push("ylva unarmed-attack astrid")
    assert who(enc, "ylva").ap == 9
    enc.push("astrid counter-attack")
    assert [r["bonus"] for r in kinds(enc, "roll")] == [0, 5]
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Miss", "Critical Hit"]
    assert who(enc, "ylva").hp == 4


@pytest.mark.rule("T-ACT-1")
def test_a_feint_that_fully_resolves_has_no_effect() -> None:
    # Astrid lets the "Melee Attack" go; it was a feint: pool 7 + 2 = 9 is still a Miss.
    enc = duel(pool(7))
    enc.push("ylva feint astrid")
    enc.push("astrid pass")
    assert kinds(enc, "reveal")[0]["action"] == "Feint"
    assert kinds(enc, "outcome")[0]["outcome"] == "Miss"
    assert who(enc, "astrid").hp == 12 and who(enc, "ylva").ap == 9


# -- T-STAT-1: statuses ---------------------------------------------------------------------


@pytest.mark.rule("T-STAT-1")
def test_combatants_start_off_guard_unless_prepared() -> None:
    enc = duel(ylva={"prepared": False})
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == ("Off Guard", "On Guard")
    tables = enc.state.tables
    assert sorted(tables.statuses) == ["Bound", "Grappled", "Off Guard", "On Guard", "Pinned"]


@pytest.mark.rule("T-STAT-1")
def test_off_guard_allows_only_move_and_ready() -> None:
    # Off Guard Ylva may not attack; Ready (1 AP, no check) puts her On Guard.
    enc = duel(ylva={"prepared": False})
    err = refused(enc, "ylva melee-attack astrid")
    assert err.rule == "T-STAT-1" and "Ylva is Off Guard: Melee Attack needs On Guard" in str(err)
    offered = {a.verb for a in enc.legal_actions("ylva")}
    assert offered == {"move", "ready", "recover"}
    enc.push("ylva ready")
    assert who(enc, "ylva").status == "On Guard" and who(enc, "ylva").ap == 11
    assert "melee-attack" in {a.verb for a in enc.legal_actions("ylva")}


@pytest.mark.rule("T-STAT-1")
def test_an_off_guard_target_cannot_react() -> None:
    # Astrid is Off Guard: no reaction is allowed her, so the attack resolves at once,
    # unopposed: pool 0 + 2 = 2, Critical Hit, d6 face 1 + 2 = 3: 12 -> 9.
    enc = duel(pool(0) + [1], astrid={"prepared": False})
    enc.push("ylva melee-attack astrid")
    assert enc.state.exchange is None and who(enc, "astrid").hp == 9
    assert refused(enc, "astrid parry").rule == "T-ACT-2"  # nothing to answer now


@pytest.mark.rule("T-STAT-1")
def test_a_parry_that_binds_leaves_both_bound_with_their_own_actions() -> None:
    # Attack pool 3 + 2 = 5, Parry pool 3 + 2 = 5: 5 - 5 = 0, Bind. Both Bound, with
    # each other; Bound allows Disarm, Grapple, Press, Withdraw, not a Melee Attack.
    enc = duel(pool(3) + pool(3))
    enc.push("ylva melee-attack astrid")
    enc.push("astrid parry")
    enc.push("ylva pass")
    assert (who(enc, "ylva").engaged_with, who(enc, "astrid").engaged_with) == ("astrid", "ylva")
    assert refused(enc, "ylva melee-attack astrid").rule == "T-STAT-1"
    assert {a.verb for a in enc.legal_actions("ylva")} == {
        "disarm",
        "grapple",
        "press",
        "withdraw",
        "recover",
    }


@pytest.mark.rule("T-STAT-1")
def test_the_statuses_an_action_allows_are_data() -> None:
    # A campaign lets Off Guard characters Evade: Off Guard Astrid may answer now.
    # Attack pool 0 + 2 = 2, Evade pool 2 + 0 = 2: 2 - 2 = 0 >= DT 0, the attack fails.
    campaign: dict[str, Any] = {"actions": {"Evade": {"statuses": ["On Guard", "Off Guard"]}}}
    enc = encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south")],
        pool(0) + pool(2),
        place={"astrid": {"prepared": False}},
        campaign=campaign,
    )
    enc.push("ylva melee-attack astrid")
    assert enc.to_move == "astrid"
    enc.push("astrid evade")
    assert kinds(enc, "cancelled")[0]["action"] == "Melee Attack"
    assert who(enc, "astrid").hp == 12
