"""Reactive and counter-tempo actions (T-ACT-2, T-ACT-3) and the secret feint, worked by
hand from seed 003.

Unless a test says otherwise: Ylva (north) and Astrid (south), melee 2, Arming swords
(3 AP, d6+2), no armour (every margin of 0 or more is a Critical Hit), On Guard. Dice:
the actor's check, the reactor's, then damage (the actor's first).
"""

from __future__ import annotations

import json

import pytest

from fracas.engine import view

from tempo_builders import State, duel, encounter, kinds, pool, refused, sheet, texts, who

BOUND = {"ylva": {"status": "Bound", "engaged_with": "astrid"}, "astrid": {"status": "Bound"}}

# -- T-ACT-2: reactions ----------------------------------------------------------------------


@pytest.mark.rule("T-ACT-2")
def test_a_reaction_must_answer_the_declared_action() -> None:
    # Evade answers a Melee or Unarmed Attack, not a Move; Dodge answers a Ranged Attack.
    enc = duel()
    enc.push("ylva move")
    err = refused(enc, "astrid evade")
    assert err.rule == "T-ACT-2"
    assert "Evade answers Melee Attack, Unarmed Attack; it does not answer a Move" in str(err)
    enc = duel()
    enc.push("ylva melee-attack astrid")
    assert refused(enc, "astrid dodge").rule == "T-ACT-2"
    assert refused(enc, "astrid retreat").rule == "T-ACT-2"
    assert {a.verb for a in enc.legal_actions("astrid")} == {
        "counter-attack",
        "evade",
        "parry",
        "pass",
    }


@pytest.mark.rule("T-ACT-2")
def test_only_the_target_answers_a_targeted_action() -> None:
    # Brand, Astrid's ally, cannot parry a blow aimed at her.
    enc = encounter([sheet("ylva", "north"), sheet("astrid", "south"), sheet("brand", "south")])
    enc.push("ylva melee-attack astrid")
    err = refused(enc, "brand parry")
    assert err.rule == "T-ROUND-2" and "only Astrid may react" in str(err)
    assert refused(enc, "ylva parry").rule == "T-ROUND-2"  # nor the attacker herself


@pytest.mark.rule("T-ACT-2")
@pytest.mark.parametrize(
    ("attack", "parry", "outcome", "status", "hp"),
    [
        (3, 3, "Bind", "Bound", 12),  # 5 - 5 = 0: Bind, the attack fails, both Bound
        (2, 3, "Success", "On Guard", 12),  # parry 5 - 4 = 1: Success, the attack fails
        (3, 2, "Failure", "On Guard", 9),  # parry 4 - 5 = -1: the attack hits, 1 + 2 = 3
    ],
)
def test_parry_binds_at_0_and_succeeds_from_1(
    attack: int, parry: int, outcome: str, status: str, hp: int
) -> None:
    enc = duel(pool(attack) + pool(parry) + [1])
    enc.push("ylva melee-attack astrid")
    enc.push("astrid parry")
    enc.push("ylva pass")
    assert kinds(enc, "outcome")[1]["outcome"] == outcome
    assert (who(enc, "ylva").status, who(enc, "astrid").status) == (status, status)
    assert who(enc, "astrid").hp == hp


@pytest.mark.rule("T-ACT-2")
def test_evade_succeeds_from_0_and_the_attack_fails_without_effect() -> None:
    # Attack pool 2 + 2 = 4; Evade (2 AP) pool 2 + evasion 2 = 4: 4 - 4 = 0 >= DT 0.
    # Nothing can replace a Melee Attack after an Evade: it resolves at once.
    enc = encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south", evasion=2)],
        pool(2) + pool(2),
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid evade")
    assert who(enc, "astrid").ap == 10
    assert kinds(enc, "cancelled") == [{"who": "ylva", "action": "Melee Attack"}]
    assert who(enc, "astrid").hp == 12


@pytest.mark.rule("T-ACT-2")
def test_dodge_only_from_beyond_the_weapons_attack_speed() -> None:
    # The Short bow's attack speed is 6. From 6 squares Astrid cannot dodge: nobody can
    # answer, the shot resolves at once (ranged 0: pool 0 = 0, Critical Hit, d6 1 + 1).
    bow = [sheet("ylva", "north", weapons=["Short bow"]), sheet("astrid", "south")]
    enc = encounter(bow, pool(0) + [1])
    enc.push("ylva ranged-attack astrid distance=6")
    assert enc.state.exchange is None and who(enc, "astrid").hp == 10
    # From 7 she may: Dodge (2 AP) pool 0 = 0 against the shot's 0: 0 >= DT 0, it fails.
    enc = encounter(bow, pool(0) + pool(0))
    enc.push("ylva ranged-attack astrid distance=7")
    assert enc.to_move == "astrid"
    enc.push("astrid dodge")
    assert kinds(enc, "cancelled")[0]["action"] == "Ranged Attack"
    assert who(enc, "astrid").hp == 12


@pytest.mark.rule("T-ACT-2")
def test_a_counter_attack_can_leave_both_hit() -> None:
    # Attack pool 3 + 2 = 5, Counter-Attack pool 3 + 2 = 5: each reads 0, and with
    # Combat Defence 0 both land. Ylva keeps her attack. Ylva's damage first: d6 2 + 2
    # = 4, Astrid 12 -> 8; then Astrid's: d6 5 + 2 = 7, Ylva 12 -> 5.
    enc = duel(pool(3) + pool(3) + [2, 5])
    enc.push("ylva melee-attack astrid")
    enc.push("astrid counter-attack")
    enc.push("ylva pass")
    assert (who(enc, "astrid").hp, who(enc, "ylva").hp) == (8, 5)


@pytest.mark.rule("T-ACT-2")
def test_a_move_into_a_counter_attack_is_struck() -> None:
    # A Move has no check: 0. Counter-Attack pool 1 + 2 = 3. Move 0 - 3 = -3: Failure.
    # Counter-Attack 3 - 0 = 3: Critical Hit, d6 4 + 2 = 6: Ylva 12 -> 6.
    enc = duel(pool(1) + [4])
    enc.push("ylva move")
    enc.push("astrid counter-attack")
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Failure", "Critical Hit"]
    assert who(enc, "ylva").hp == 6


@pytest.mark.rule("T-ACT-2")
def test_retreat_answers_a_move() -> None:
    # Retreat (3 AP), movement 1: pool 0 + 1 = 1 - 0 = 1, Success; the Move 0 - 1 fails.
    enc = encounter([sheet("ylva", "north"), sheet("astrid", "south", movement=1)], pool(0))
    enc.push("ylva move")
    enc.push("astrid retreat")
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Failure", "Success"]
    assert who(enc, "astrid").ap == 9


@pytest.mark.rule("T-ACT-2")
def test_counter_fire_answers_an_aim() -> None:
    # Aim has no check: 0. Counter-Fire (Short bow, 4 AP), ranged 1: pool 0 + 1 = 1.
    # Aim 0 - 1 = -1: Failure, no aimed accuracy. Counter-Fire 1: Critical Hit,
    # d6 3 + 1 = 4: Ylva 12 -> 8.
    bows = [
        sheet("ylva", "north", weapons=["Short bow"]),
        sheet("astrid", "south", ranged=1, weapons=["Short bow"]),
    ]
    enc = encounter(bows, pool(0) + [3])
    enc.push("ylva aim astrid")
    enc.push("astrid counter-fire")
    assert who(enc, "ylva").aimed is None and who(enc, "ylva").hp == 8
    assert who(enc, "astrid").ap == 8


@pytest.mark.rule("T-ACT-2")
def test_wind_keeps_the_bind_and_double_strikes_from_it() -> None:
    # Press pool 3 + 2 = 5 against Wind pool 3 + 2 = 5: Wind 0 >= DT 0, Success: the
    # Press fails without effect; still Bound.
    enc = encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south", melee=2)],
        pool(3) + pool(3) + pool(1) + pool(3) + [1],
        place=BOUND,
    )
    enc.push("ylva press")
    enc.push("astrid wind")
    assert kinds(enc, "cancelled")[0]["action"] == "Press"
    assert who(enc, "ylva").status == "Bound" and who(enc, "astrid").hp == 12
    # Press pool 1 + 2 = 3 against Double pool 3 + 2 = 5: the Press fails (3 - 5 = -2);
    # the Double hits, 5 - 3 = 2: d6 1 + 2 = 3, Ylva 12 -> 9.
    enc.push("ylva press")
    enc.push("astrid double")
    assert who(enc, "ylva").hp == 9 and who(enc, "astrid").ap == 6


@pytest.mark.rule("T-ACT-2")
def test_struggle_keeps_the_grapple() -> None:
    # Pin pool 2 against Struggle pool 2 (grapple 0 both): Struggle 0 >= DT 0, the Pin
    # fails without effect (its own 0 would have reached Grapple Defence 0).
    enc = encounter(
        [sheet("ylva", "north"), sheet("astrid", "south")],
        pool(2) + pool(2),
        place={
            "ylva": {"status": "Grappled", "engaged_with": "astrid"},
            "astrid": {"status": "Grappled"},
        },
    )
    enc.push("ylva pin")
    enc.push("astrid struggle")
    assert kinds(enc, "cancelled")[0]["action"] == "Pin"
    assert who(enc, "astrid").status == "Grappled"


@pytest.mark.rule("T-ACT-2")
def test_any_opponent_may_answer_an_untargeted_move_in_turn() -> None:
    # Ylva moves; Astrid and Brand (south) may each answer. Astrid lets it go, then
    # Brand does: the Move resolves unopposed (no check: Success).
    enc = encounter([sheet("ylva", "north"), sheet("astrid", "south"), sheet("brand", "south")])
    enc.push("ylva move")
    assert enc.to_move == "astrid"
    enc.push("astrid pass")
    assert enc.to_move == "brand"
    enc.push("brand pass")
    assert kinds(enc, "outcome")[0]["outcome"] == "Success" and enc.to_move == "ylva"


# -- T-ACT-3: counter-tempo actions ------------------------------------------------------


def countered(faces: list[int]) -> State:
    """Ylva attacks, Astrid counter-attacks (both 3 AP): the counter-tempo window."""
    enc = duel(faces)
    enc.push("ylva melee-attack astrid")
    enc.push("astrid counter-attack")
    assert enc.to_move == "ylva"
    return enc


@pytest.mark.rule("T-ACT-3")
def test_ct_parry_replaces_the_attack_and_binds_the_counter_attack() -> None:
    # CT Parry pool 3 + 2 = 5 against Counter-Attack pool 3 + 2 = 5: 0, Bind: the
    # Counter-Attack (which read 0, a hit) fails without effect; both Bound. The
    # replaced Melee Attack never rolls. Same weapon: no AP more, 9 left.
    enc = countered(pool(3) + pool(3))
    enc.push("ylva ct-parry")
    assert [r["action"] for r in kinds(enc, "roll")] == ["CT Parry", "Counter-Attack"]
    assert kinds(enc, "cancelled")[0]["action"] == "Counter-Attack"
    assert (who(enc, "ylva").hp, who(enc, "ylva").status, who(enc, "ylva").ap) == (12, "Bound", 9)


@pytest.mark.rule("T-ACT-3")
def test_ct_counter_attack_replaces_the_attack() -> None:
    # CT Counter-Attack pool 5 + 2 = 7 against Counter-Attack pool 1 + 2 = 3: 4,
    # Critical Hit, d6 3 + 2 = 5: Astrid 12 -> 7. The counter-attack misses (-4).
    enc = countered(pool(5) + pool(1) + [3])
    enc.push("ylva ct-counter-attack")
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Critical Hit", "Miss"]
    assert (who(enc, "astrid").hp, who(enc, "ylva").hp) == (7, 12)


@pytest.mark.rule("T-ACT-3")
def test_counter_tempo_needs_its_reaction_and_its_replaced_action() -> None:
    # No exchange: nothing to replace.
    enc = duel()
    assert refused(enc, "ylva ct-parry").rule == "T-ACT-3"
    # After a Parry of a real Melee Attack the window opens (it might be a feint), but
    # CT Parry answers only a Counter-Attack and the +3 Counter-Attack replaces a Feint.
    enc = duel()
    enc.push("ylva melee-attack astrid")
    enc.push("astrid parry")
    assert refused(enc, "ylva ct-parry").rule == "T-ACT-3"
    assert refused(enc, "ylva counter-attack").rule == "T-ACT-3"
    assert [str(a) for a in enc.legal_actions("ylva")] == ["ylva pass"]
    # An Unarmed Attack is no "Replacement For": after a Counter-Attack it resolves
    # at once (punch pool 0 = 0 - 2 = Miss; counter 2 - 0: hit, d6 1 + 2 = 3).
    enc = encounter(
        [sheet("ylva", "north"), sheet("astrid", "south", melee=2)], pool(0) + pool(0) + [1]
    )
    enc.push("ylva unarmed-attack astrid")
    enc.push("astrid counter-attack")
    assert enc.state.exchange is None and who(enc, "ylva").hp == 9


@pytest.mark.rule("T-ACT-3")
def test_a_feint_that_draws_a_parry_becomes_a_counter_attack_at_plus_3() -> None:
    # Counter-Attack pool 1 + 2 + 3 = 6 against the Parry's pool 3 + 2 = 5: the parry
    # fails (5 - 6 = -1) and the counter-attack lands (1): d6 2 + 2 = 4, 12 -> 8.
    # Without the +3 the parry (5 - 3 = 2) would have succeeded.
    enc = duel(pool(1) + pool(3) + [2])
    enc.push("ylva feint astrid")
    enc.push("astrid parry")
    assert [str(a) for a in enc.legal_actions("ylva")] == ["ylva counter-attack", "ylva pass"]
    enc.push("ylva counter-attack")
    assert kinds(enc, "roll")[0]["bonus"] == 3
    assert who(enc, "astrid").hp == 8


# -- the secret feint ---------------------------------------------------------------------


def hidden(enc: State, side: str) -> str:
    return json.dumps(view(enc, side)).lower()


@pytest.mark.rule("T-ACT-1")
def test_a_feint_never_appears_in_the_opponents_view_before_it_resolves() -> None:
    enc = duel(pool(1) + pool(3) + [2])
    enc.push("ylva feint astrid")
    assert "feint" not in hidden(enc, "south")
    assert enc.ruleset.observe(enc.state, "south")["exchange"]["action"] == "Melee Attack"
    assert "feint" in hidden(enc, "north") and "feint" in hidden(enc, None)
    enc.push("astrid parry")  # the counter-tempo window: still secret
    assert "feint" not in hidden(enc, "south")
    enc.push("ylva counter-attack")  # replaced: revealed
    assert "was a feint" in hidden(enc, "south")


@pytest.mark.rule("T-ACT-1")
def test_the_opponent_cannot_tell_a_feint_from_an_attack() -> None:
    # Up to the resolution Astrid's view of a feint and of a real attack is the same.
    def play(verb: str) -> list[str]:
        enc = duel()
        seen = []
        for action in (f"ylva {verb} astrid", "astrid parry"):
            enc.push(action)
            seen.append(json.dumps(view(enc, "south")))
        return seen

    assert play("feint") == play("melee-attack")


def test_the_log_texts_name_every_step() -> None:
    enc = duel(pool(1) + pool(3) + [2])
    enc.push("ylva feint astrid")
    enc.push("astrid parry")
    enc.push("ylva counter-attack")
    log = texts(enc)
    assert log[0] == "Ylva declares Melee Attack on Astrid with the Arming sword: 3 AP (9 left)"
    assert "Ylva's Melee Attack was a Feint" in log
    assert "Astrid takes 4 damage (d6+2 rolled 4, ignoring armour): 8 HP left" in log
