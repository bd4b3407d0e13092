"""The action round and the turn sequence (T-ROUND-1, T-ROUND-2) and Recover Stamina
(T-STAM-1), worked by hand from seed 003.

Unless a test says otherwise: Ylva (north) and Astrid (south) are On Guard with melee 2,
an Arming sword (3 AP, d6+2 damage) and no armour, so Combat Defence 0 and Combat
Defence (Armoured) 0: any margin of 0 or more is a Critical Hit. Stamina is 0, so
Recover Stamina on a pool of 0 reads 0: Success, 12 AP.
"""

from __future__ import annotations

import pytest

from tempo_builders import duel, encounter, kinds, pool, refused, sheet, who


@pytest.mark.rule("T-ROUND-1")
def test_a_round_gives_12_ap_follows_initiative_and_counts_from_zero() -> None:
    # Astrid has initiative 2, Ylva 0: Astrid acts first although listed second.
    enc = duel(pool(0) * 4, astrid={"initiative": 2})
    assert enc.state.order == ["astrid", "ylva"]
    assert (who(enc, "ylva").ap, who(enc, "astrid").ap) == (12, 12)
    assert enc.state.round == 0 and enc.to_move == "astrid"
    assert refused(enc, "ylva move").rule == "T-ROUND-1"  # not Ylva's turn
    enc.push("astrid recover")  # the first turn ends; the round does not
    assert enc.state.round == 0 and enc.to_move == "ylva"
    enc.push("ylva recover")  # the last turn of the round ends: the counter rises
    assert enc.state.round == 1 and enc.to_move == "astrid"
    assert enc.ruleset.observe(enc.state, None)["clock"] == 6  # one round is 6 seconds
    enc.push("astrid recover")
    enc.push("ylva recover")
    assert enc.state.round == 2


@pytest.mark.rule("T-ROUND-1")
def test_a_combatant_who_is_down_is_skipped() -> None:
    # Three fighters; Brand (south) starts at 0 HP: down, so his turn never comes.
    enc = encounter(
        [sheet("ylva", "north"), sheet("brand", "south"), sheet("astrid", "south")],
        pool(0) * 2,
        place={"brand": {"hp": 0}},
    )
    enc.push("ylva recover")
    assert enc.to_move == "astrid"
    enc.push("astrid recover")
    assert enc.state.round == 1 and enc.to_move == "ylva"


@pytest.mark.rule("T-ROUND-2")
def test_declare_pay_react_pay_then_resolve() -> None:
    # Ylva declares a Melee Attack: 3 AP, 9 left. Astrid parries: 3 AP, 9 left.
    # A parried Melee Attack opens the counter-tempo window (it could be a feint):
    # Ylva keeps it. Ylva pool 2 + 2 = 4; Astrid pool 0 + 2 = 2. Ylva 4 - 2 = 2 >= 0:
    # Critical Hit, d6 face 3 + 2 = 5 damage: Astrid 12 -> 7. Astrid 2 - 4 = -2: Failure.
    enc = duel(pool(2) + pool(0) + [3])
    enc.push("ylva melee-attack astrid")
    assert who(enc, "ylva").ap == 9 and enc.to_move == "astrid"
    # The actor cannot go on before the opponent has answered.
    assert refused(enc, "ylva melee-attack astrid").rule == "T-ROUND-2"
    enc.push("astrid parry")
    assert who(enc, "astrid").ap == 9 and enc.to_move == "ylva"
    enc.push("ylva pass")
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Critical Hit", "Failure"]
    assert [o["margin"] for o in kinds(enc, "outcome")] == [2, -2]
    assert who(enc, "astrid").hp == 7
    # The turn goes on while AP remain: Ylva may act again, then ends with recover.
    assert enc.to_move == "ylva" and enc.state.exchange is None


@pytest.mark.rule("T-ROUND-2")
def test_a_counter_tempo_replacement_pays_only_the_difference_when_dearer() -> None:
    # Ylva feints with the Dagger (2 AP: 10 left); Astrid parries (3 AP); Ylva replaces
    # the feint with a Counter-Attack with the Arming sword (3 AP): she pays 3 - 2 = 1
    # more, 3 in all, the larger of the two costs: 9 left.
    # Counter-Attack pool 0 + 2 + 3 (feint bonus) = 5; Parry pool 5 + 2 = 7.
    # Parry 7 - 5 = 2: Success, the Counter-Attack fails without effect. The feint
    # itself is replaced and never rolls.
    enc = encounter(
        [
            sheet("ylva", "north", melee=2, weapons=["Dagger", "Arming sword"]),
            sheet("astrid", "south", melee=2),
        ],
        pool(0) + pool(5),
    )
    enc.push("ylva feint astrid with=Dagger")
    assert who(enc, "ylva").ap == 10
    enc.push("astrid parry")
    enc.push("ylva counter-attack with='Arming sword'")
    assert who(enc, "ylva").ap == 9
    assert kinds(enc, "counter-tempo")[0]["ap"] == 1
    assert kinds(enc, "counter-tempo")[0]["paid"] == 3
    assert [r["action"] for r in kinds(enc, "roll")] == ["Counter-Attack", "Parry"]
    assert kinds(enc, "cancelled")[0]["action"] == "Counter-Attack"
    assert who(enc, "astrid").hp == 12


@pytest.mark.rule("T-ROUND-2")
def test_a_cheaper_replacement_costs_nothing_more() -> None:
    # Feint with the Arming sword (3 AP), replaced by a Counter-Attack with the Dagger
    # (2 AP): nothing more to pay; the total stays 3, the larger cost. 9 AP left.
    # Counter-Attack pool 4 + 2 + 3 = 9; Parry pool 0 + 2 = 2: 9 - 2 = 7, Critical Hit,
    # Dagger d4 face 2 + 1 = 3 damage: Astrid 12 -> 9.
    enc = encounter(
        [
            sheet("ylva", "north", melee=2, weapons=["Arming sword", "Dagger"]),
            sheet("astrid", "south", melee=2),
        ],
        pool(4) + pool(0) + [2],
    )
    enc.push("ylva feint astrid")
    enc.push("astrid parry")
    enc.push("ylva counter-attack with=Dagger")
    assert who(enc, "ylva").ap == 9
    assert kinds(enc, "counter-tempo")[0]["paid"] == 3
    assert who(enc, "astrid").hp == 9


@pytest.mark.rule("T-ROUND-2")
def test_no_one_may_spend_more_ap_than_they_have() -> None:
    # Ylva has 2 AP: a Melee Attack (3) is refused, a Move (2) is not.
    enc = duel(ylva={"ap": 2})
    err = refused(enc, "ylva melee-attack astrid")
    assert err.rule == "T-ROUND-2" and "costs 3 AP; Ylva has 2 AP" in str(err)
    enc.push("ylva move")
    assert who(enc, "ylva").ap == 0
    # Astrid with 2 AP cannot parry (3) but can evade (2). (Attack pool 0 + 2 = 2,
    # Evade pool 0 + 0 = 0: the evade fails and the attack hits, d6 face 1.)
    enc = duel(astrid={"ap": 2}, faces=pool(0) + pool(0) + [1])
    enc.push("ylva melee-attack astrid")
    assert refused(enc, "astrid parry").rule == "T-ROUND-2"
    enc.push("astrid evade")
    assert who(enc, "astrid").ap == 0


@pytest.mark.rule("T-ROUND-2")
def test_with_no_ap_to_react_the_window_closes_by_itself() -> None:
    # Astrid has 1 AP: no reaction is affordable, so the attack resolves at once,
    # unopposed: pool 0 + 2 = 2 >= 0, Critical Hit, d6 face 1 + 2 = 3: 12 -> 9.
    enc = duel(pool(0) + [1], astrid={"ap": 1})
    enc.push("ylva melee-attack astrid")
    assert enc.state.exchange is None and enc.to_move == "ylva"
    assert kinds(enc, "outcome")[0]["margin"] == 2
    assert who(enc, "astrid").hp == 9


@pytest.mark.rule("T-STAM-1")
@pytest.mark.parametrize(
    ("stamina", "regained"),
    [
        (-14, 0),  # below -13: Failure
        (-13, 1),
        (-10, 1),
        (-9, 2),
        (-8, 3),
        (-7, 3),
        (-6, 4),
        (-5, 4),
        (-4, 6),
        (-3, 8),
        (-2, 10),
        (-1, 11),
        (0, 12),
        (3, 12),
    ],
)
def test_recover_stamina_reads_its_table(stamina: int, regained: int) -> None:
    # Ylva starts with 0 AP; the pool shows 0, so the result is her stamina rating.
    enc = encounter(
        [sheet("ylva", "north", stamina=stamina), sheet("astrid", "south")],
        pool(0),
        place={"ylva": {"ap": 0}},
    )
    enc.push("ylva recover")
    assert who(enc, "ylva").ap == regained
    assert enc.to_move == "astrid"


@pytest.mark.rule("T-STAM-1")
def test_recovery_never_goes_above_the_rounds_12_ap() -> None:
    # 5 AP left and -4 regains 6: 11. 8 AP left and a Success regains 12: 12, not 20.
    enc = encounter(
        [sheet("ylva", "north", stamina=-4), sheet("astrid", "south")],
        pool(0) * 2,
        place={"ylva": {"ap": 5}, "astrid": {"ap": 8}},
    )
    enc.push("ylva recover")
    assert who(enc, "ylva").ap == 11
    enc.push("astrid recover")
    assert who(enc, "astrid").ap == 12


@pytest.mark.rule("T-STAM-1")
def test_recover_stamina_is_allowed_in_every_status() -> None:
    # Pinned allows only Escape and Recover Stamina: Ylva, pinned, recovers.
    enc = duel(
        pool(0),
        ylva={"status": "Pinned", "engaged_with": "astrid", "ap": 0},
        astrid={"status": "Grappled"},
    )
    assert refused(enc, "ylva melee-attack astrid").rule == "T-STAT-1"
    enc.push("ylva recover")
    assert who(enc, "ylva").ap == 12


@pytest.mark.rule("T-ROUND-1")
def test_an_actor_who_goes_down_loses_the_rest_of_the_turn() -> None:
    # Ylva (1 HP) attacks; Astrid counter-attacks: attack pool 0 + 0 = 0, counter pool
    # 2 + 2 = 4. Ylva 0 - 4 misses; Astrid 4 - 0 hits, d6 face 1 + 2 = 3: Ylva is down.
    # Her turn ends without Recover Stamina; Sigrun (north) is next.
    enc = encounter(
        [sheet("ylva", "north", hp=1), sheet("sigrun", "north"), sheet("astrid", "south", melee=2)],
        pool(0) + pool(2) + [1],
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid counter-attack")
    enc.push("ylva pass")
    assert who(enc, "ylva").out and not enc.is_over()
    assert enc.to_move == "sigrun" and kinds(enc, "regain") == []
