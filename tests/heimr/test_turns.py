"""Initiative, turns and action types (H-INIT-1..5, H-ACT-1..3), worked by hand from seed 000.

Every character here has stamina 3, so base fatigue is max(1, 4 - 3) = 1 (H-FAT-3): no
roll fails outright and no d6 raises fatigue, which keeps the dice to the rule under
test. With dex 0 the initiative roll is C0P<willpower>: one d6. An unarmed character
pre-rolls a dodge, Agility C1P0 (base consistency 1, potential dex 0): a d6 and a d10.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState
from fracas.rules.heimr.verbs import VERBS

from heimr_builders import encounter, sheet

State = Encounter[HeimrState]


def person(name: str, side: str, **kw: Any) -> dict[str, Any]:
    """A character with stamina 3: fatigue 1 never gets in the way."""
    return sheet(name, side, sta=3, **kw)


def rolls(enc: State, last: int = 1) -> list[tuple[str, str, list[int], int]]:
    """(purpose, challenge, faces, result) of every roll in the last ``last`` log entries."""
    return [
        (e.data["purpose"], e.data["challenge"], e.data["faces"], e.data["result"])
        for entry in enc.log[-last:]
        for e in entry.events
        if e.kind == "roll"
    ]


def refused(enc: State, action: str) -> str:
    """The rule ID an illegal action is refused with."""
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    return err.value.rule


def three(faces: list[int], **squares: str) -> State:
    """Ylva, Asa (north) and Hrolf (south), unarmed, all willpower 3 and dex 0.

    ``faces`` starts with the three initiative d6s in setup order (ylva, asa, hrolf);
    then come the three pre-rolled dodges (two faces each) in initiative order.
    """
    return encounter(
        [person("ylva", "north"), person("asa", "north"), person("hrolf", "south")],
        faces=faces,
        squares=squares,
    )


# -- H-INIT-1: initiative --------------------------------------------------------------


@pytest.mark.rule("H-INIT-1")
def test_initiative_is_dexterity_consistency_and_willpower_potential_highest_first() -> None:
    # Ylva: dex 2, willpower 1 -> C2P1, a d6 and two d10: [1, 9, 2] keeps 9, + 1 = 10.
    # Hrolf: dex 0, willpower 5 -> C0P5, the d6 alone: [4] -> 4 + 5 = 9.
    # (Read the other way round, C = willpower and P = dex, the same dice give other sums.)
    ylva = person("ylva", "north", dex=2, willpower=1)
    hrolf = person("hrolf", "south", willpower=5)
    # Pre-rolled dodges in initiative order: Ylva Agility C1P2, Hrolf C1P0.
    enc = encounter([hrolf, ylva], faces=[4] + [1, 9, 2] + [3, 3] + [3, 3])
    enc.push("gm begin")
    assert enc.state.initiative == {"hrolf": 9, "ylva": 10}
    # Hrolf is first in the setup, but the highest initiative starts.
    assert enc.state.order == ["ylva", "hrolf"]
    assert enc.to_move == "ylva"


@pytest.mark.rule("H-INIT-1")
def test_a_tie_in_initiative_goes_to_the_higher_willpower() -> None:
    # Ylva: dex 1, willpower 3 -> C1P3: [5, 1] keeps 5, + 3 = 8.
    # Hrolf: dex 0, willpower 4 -> C0P4: [4] -> 8. A tie: Hrolf has the higher willpower.
    ylva = person("ylva", "north", dex=1)
    hrolf = person("hrolf", "south", willpower=4)
    enc = encounter([ylva, hrolf], faces=[5, 1] + [4] + [3, 3] + [3, 3])
    enc.push("gm begin")
    assert enc.state.initiative == {"ylva": 8, "hrolf": 8}
    assert enc.state.order == ["hrolf", "ylva"]  # not the setup order
    assert enc.to_move == "hrolf"


# -- H-INIT-2: turns follow the order, round after round ---------------------------------


@pytest.mark.rule("H-INIT-2")
def test_turns_follow_the_initiative_order_round_after_round() -> None:
    # Initiative d6s: ylva 2 -> 5, asa 6 -> 9, hrolf 4 -> 7: order asa, hrolf, ylva.
    enc = three([2, 6, 4] + [3, 3] * 3)
    enc.push("gm begin")
    assert enc.state.order == ["asa", "hrolf", "ylva"]
    seen = []
    for _ in range(6):
        seen.append((enc.state.round, enc.to_move))
        enc.dice.add([3, 3])  # the pre-rolled dodge at the end of each turn (H-DEF-2)
        enc.push(f"{enc.to_move} end")
    assert seen == [
        (1, "asa"),
        (1, "hrolf"),
        (1, "ylva"),
        (2, "asa"),
        (2, "hrolf"),
        (2, "ylva"),
    ]
    # A turn is 2 seconds and the turns of a round happen almost at the same time:
    # two full rounds have passed, 4 seconds (docs/decisions.md, H-INIT-2).
    assert enc.state.round == 3
    assert enc.state.clock == 4


# -- H-INIT-3: delay ---------------------------------------------------------------------


@pytest.mark.rule("H-INIT-3")
def test_delaying_after_another_character_moves_one_later_in_the_order() -> None:
    # Initiative: ylva 6 -> 9, asa 5 -> 8, hrolf 4 -> 7: order ylva, asa, hrolf.
    enc = three([6, 5, 4] + [3, 3] * 3)
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    enc.push("ylva delay after=asa")
    assert enc.state.order == ["asa", "ylva", "hrolf"]
    assert enc.to_move == "asa"  # Asa takes her turn first ...
    enc.dice.add([3, 3] * 4)
    enc.push("asa end")
    assert enc.to_move == "ylva"  # ... then Ylva, where she moved herself
    enc.push("ylva end")
    enc.push("hrolf end")
    assert (enc.state.round, enc.to_move) == (2, "asa")  # and the new order holds


@pytest.mark.rule("H-INIT-3")
def test_delaying_to_before_a_character_who_has_acted_waits_for_the_next_round() -> None:
    # Order ylva, asa, hrolf. In Asa's turn she moves herself to just before Ylva, who
    # has already acted: the order becomes asa, ylva, hrolf, so Hrolf acts next this
    # round (neither Ylva nor Asa a second time), and Asa leads the next round.
    enc = three([6, 5, 4] + [3, 3] * 3)
    enc.push("gm begin")
    enc.dice.add([3, 3] * 3)
    enc.push("ylva end")
    enc.push("asa delay before=ylva")
    assert enc.state.order == ["asa", "ylva", "hrolf"]
    assert (enc.state.round, enc.to_move) == (1, "hrolf")
    enc.push("hrolf end")
    assert (enc.state.round, enc.to_move) == (2, "asa")


@pytest.mark.rule("H-INIT-3")
def test_delay_is_declared_at_the_start_of_the_turn_only() -> None:
    enc = three([6, 5, 4] + [3, 3] * 3)
    enc.push("gm begin")
    enc.push("ylva speak text='wait for me'")
    assert refused(enc, "ylva delay after=hrolf") == "H-INIT-3"


# -- H-INIT-4: readied actions -----------------------------------------------------------


def ambush() -> State:
    """Ylva (knife, B2) and Asa (north) against Hrolf (south, C2); order ylva, asa, hrolf.

    Ylva's Light weapon: Knife fighting C1, P = dex 0 + 2 = 2; her stance is a parry
    with it (C1P2). Asa and Hrolf pre-roll dodges, C1P0.
    """
    ylva = person("ylva", "north", sword="Light weapon")
    enc = encounter(
        [ylva, person("asa", "north"), person("hrolf", "south")],
        faces=[6, 5, 4] + [3, 3] * 3,
        squares={"hrolf": "C2"},
    )
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-INIT-4")
def test_a_readied_attack_happens_in_the_triggers_turn_and_moves_the_readier_before_it() -> None:
    enc = ambush()
    enc.push("ylva ready action='attack hrolf' trigger='hrolf enters B2'")
    # The trigger must come in another character's turn.
    assert refused(enc, "ylva trigger") == "H-INIT-4"
    enc.dice.add([3, 3] * 2)  # Ylva's and Asa's end-of-turn defences
    enc.push("ylva end")
    enc.push("asa end")
    enc.push("hrolf move B2")  # Hrolf's dodge was pre-rolled as [3, 3] -> 3
    # The trigger: Ylva attacks inside Hrolf's turn. Knife C1P2 shows [5, 6]: 6 + 2 = 8,
    # above Hrolf's dodge 3: a hit, d6 5 -> torso, the light weapon's 1 damage. Hrolf
    # pre-rolls his next dodge at C-1 (one dodge used): [3, 2] keeps the lowest, 2.
    enc.dice.add([5, 6] + [3, 2])
    enc.push("ylva trigger")
    assert enc.state.combatants["hrolf"].hp == 3
    assert enc.to_move == "hrolf"  # still Hrolf's turn
    # Ylva now stands just before Hrolf, the character who triggered her.
    assert enc.state.order == ["asa", "ylva", "hrolf"]
    enc.dice.add([3, 3])
    enc.push("hrolf end")
    assert (enc.state.round, enc.to_move) == (2, "asa")


@pytest.mark.rule("H-INIT-4")
def test_a_readied_action_not_triggered_by_the_readiers_next_turn_is_lost() -> None:
    enc = ambush()
    enc.push("ylva ready action='attack hrolf' trigger='hrolf enters B2'")
    enc.dice.add([3, 3] * 3)
    for cid in ("ylva", "asa", "hrolf"):
        enc.push(f"{cid} end")
    assert enc.to_move == "ylva"  # round 2: Hrolf never came
    assert enc.state.combatants["ylva"].readied is None
    assert any("is lost" in e.text for e in enc.log[-1].events)
    enc.dice.add([3, 3])
    enc.push("ylva end")
    assert refused(enc, "ylva trigger") == "H-INIT-4"


# -- H-INIT-5: a trigger on intent -------------------------------------------------------


def standoff() -> State:
    """Ylva (knife) and Hrolf (knife) in B2; order hrolf, ylva. Ylva readies an attack for
    the moment Hrolf means to attack her. Persuasion and Insight are C0 (base 0), P soc 0
    and emp 0: one d6 each."""
    knife = {"sword": "Light weapon"}
    enc = encounter(
        [person("ylva", "north", **knife), person("hrolf", "south", **knife)],
        # initiative: ylva 4 -> 7, hrolf 6 -> 9; parries (Knife fighting C1P2) hrolf, ylva
        faces=[4, 6] + [3, 3] + [3, 3],
    )
    enc.push("gm begin")
    enc.dice.add([3, 3] * 2)
    enc.push("hrolf end")
    enc.push("ylva ready action='attack hrolf' trigger='hrolf means to attack me'")
    enc.push("ylva end")
    assert (enc.state.round, enc.to_move) == (2, "hrolf")
    return enc


@pytest.mark.rule("H-INIT-5")
def test_an_intent_trigger_that_meets_the_hidden_attack_strikes_first() -> None:
    enc = standoff()
    # Hrolf hides his intent: Persuasion C0P0 shows 4. Ylva's Insight is a challenge
    # against that roll: 4 meets it (a challenge is passed when equal or higher).
    # Her attack goes first: knife C1P2 [6, 7] -> 7 + 2 = 9 against Hrolf's parry
    # (C1P2 [3, 3] -> 5): a hit, torso, 1 damage. Hrolf's parry is spent; with one
    # melee weapon he has no second parry and pre-rolls a dodge, Agility C1P0 [3, 3].
    enc.dice.add([4] + [4] + [6, 7] + [3, 3])
    enc.push("ylva trigger intent=1")
    purposes = [r[0] for r in rolls(enc)]
    assert purposes[:2] == ["hrolf rolls Persuasion", "ylva rolls Insight"]
    assert enc.state.combatants["hrolf"].hp == 3
    assert enc.state.combatants["ylva"].readied is None
    assert enc.state.order == ["ylva", "hrolf"]


@pytest.mark.rule("H-INIT-5")
def test_an_intent_trigger_that_fails_insight_comes_after_the_attack() -> None:
    enc = standoff()
    # Persuasion 5 against Insight 4: Ylva does not see it coming in time.
    enc.dice.add([5] + [4])
    enc.push("ylva trigger intent=1")
    assert enc.state.combatants["ylva"].readied is not None  # not spent, not first
    assert enc.state.combatants["hrolf"].hp == 4
    # Hrolf attacks first: knife [2, 1] -> 2 + 2 = 4, below Ylva's parry 5: a miss.
    # Ylva's next defence is a dodge (her one parry is used): [3, 3].
    enc.dice.add([2, 1] + [3, 3])
    enc.push("hrolf attack ylva")
    # Now she knows, and her readied attack follows the trigger: [6, 7] -> 9 against
    # Hrolf's parry 5, a hit for 1; his next defence is a dodge [3, 3].
    enc.dice.add([6, 7] + [3, 3])
    enc.push("ylva trigger")
    assert enc.state.combatants["hrolf"].hp == 3


@pytest.mark.rule("H-INIT-5")
def test_a_failed_intent_trigger_cannot_be_tried_again_in_the_same_turn() -> None:
    enc = standoff()
    enc.dice.add([5] + [4])
    enc.push("ylva trigger intent=1")
    assert refused(enc, "ylva trigger intent=1") == "H-INIT-5"


# -- H-ACT-1: action types ---------------------------------------------------------------


def duel(**extra: Any) -> State:
    """Ylva (knife, B2) against Hrolf (unarmed, B2); order ylva, hrolf."""
    enc = encounter(
        [person("ylva", "north", sword="Light weapon"), person("hrolf", "south")],
        faces=[6, 4] + [3, 3] + [3, 3],
        **extra,
    )
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-ACT-1")
def test_one_standard_action_a_turn() -> None:
    enc = duel()
    enc.push("ylva dodge")  # standard (H-ACT-3)
    assert refused(enc, "ylva attack hrolf") == "H-ACT-1"
    assert refused(enc, "ylva move C2") == "H-ACT-1"
    assert refused(enc, "ylva run C2") == "H-ACT-1"  # an ongoing action is a standard one
    enc.push("ylva speak text='come on'")  # free actions still go
    assert enc.to_move == "ylva"


@pytest.mark.rule("H-ACT-1")
def test_each_free_action_once_a_turn() -> None:
    enc = duel()
    enc.push("ylva speak text='one'")
    assert refused(enc, "ylva speak text='two'") == "H-ACT-1"
    enc.push("ylva defend dodge")  # another free action is fine
    assert refused(enc, "ylva defend parry") == "H-ACT-1"
    enc.dice.add([3, 3] * 2)
    enc.push("ylva end")
    enc.push("hrolf end")
    enc.push("ylva speak text='again'")  # a new turn


@pytest.mark.rule("H-ACT-1")
def test_an_ongoing_action_ends_the_turn_and_costs_2_on_defence_rolls_until_the_next() -> None:
    enc = encounter(
        [person("ylva", "north"), person("hrolf", "south")], faces=[6, 4] + [3, 3] + [3, 3]
    )
    enc.push("gm begin")
    # Run is ongoing: the turn ends at once, and the defence pre-rolled at its end is
    # Agility C1 - 2 = C-1 (a d6 and a d10, the lowest kept).
    enc.dice.add([5, 4])
    enc.push("ylva run C2")
    assert enc.to_move == "hrolf"
    assert rolls(enc) == [("ylva's dodge", "C-1P0", [5, 4], 4)]
    assert enc.state.combatants["ylva"].defence.result == 4
    # From the start of her next turn the penalty is gone: her next pre-roll is C1.
    enc.dice.add([3, 3] + [5, 4])
    enc.push("hrolf end")
    enc.push("ylva end")
    assert rolls(enc) == [("ylva's dodge", "C1P0", [5, 4], 5)]


@pytest.mark.rule("H-ACT-1")
def test_an_upcoming_action_ends_the_turn_and_completes_as_the_next_standard_action() -> None:
    enc = duel()
    enc.push("ylva prone")
    enc.push("ylva dodge")  # the standard action of this turn ...
    enc.dice.add([3, 3])  # her parry, pre-rolled prone: Knife fighting C1 - 2 = C-1
    enc.push("ylva crawl C2")  # ... and an upcoming one, a free action, ends the turn
    assert enc.to_move == "hrolf"
    ylva = enc.state.combatants["ylva"]
    assert (ylva.square, ylva.upcoming) == ("B2", "crawl C2")
    enc.dice.add([3, 3])
    enc.push("hrolf end")
    # Ylva's turn: the crawl is this turn's standard action.
    assert refused(enc, "ylva stand") == "H-ACT-1"
    enc.push("ylva speak text='almost there'")
    assert enc.state.combatants["ylva"].square == "C2"


@pytest.mark.rule("H-ACT-1")
def test_an_attack_cancels_the_upcoming_action_but_not_the_next_standard_action() -> None:
    enc = encounter(
        [person("ylva", "north"), person("hrolf", "south", sword="Light weapon")],
        faces=[6, 4] + [3, 3] + [3, 3],
    )
    enc.push("gm begin")
    enc.push("ylva prone")
    # Prone, her end-of-turn dodge is C1 - 2 = C-1 (H-POS-1): [4, 5] -> 4.
    enc.dice.add([4, 5])
    enc.push("ylva crawl C2")
    # Hrolf's knife C1P2: [1, 1] -> 1 + 2 = 3, below the dodge 4: a miss, yet an attack.
    # Ylva pre-rolls again: C1 - 2 prone - 2 (one dodge used) = C-3: [4, 5, 6, 7] -> 4.
    enc.dice.add([1, 1] + [4, 5, 6, 7])
    enc.push("hrolf attack ylva")
    assert enc.state.combatants["ylva"].upcoming is None
    enc.dice.add([3, 3])
    enc.push("hrolf end")
    # Her crawl is cancelled: she is still in B2 and keeps this turn's standard action.
    assert enc.state.combatants["ylva"].square == "B2"
    enc.push("ylva stand")
    assert not enc.state.combatants["ylva"].prone


@pytest.mark.rule("H-ACT-1")
def test_an_upcoming_action_may_be_cancelled_at_the_start_of_the_next_turn() -> None:
    enc = duel()
    enc.push("ylva prone")
    enc.dice.add([4, 5] + [3, 3])
    enc.push("ylva crawl C2")
    enc.push("hrolf end")
    enc.push("ylva cancel")
    ylva = enc.state.combatants["ylva"]
    assert (ylva.square, ylva.upcoming) == ("B2", None)
    enc.push("ylva stand")  # the standard action is hers again
    assert refused(enc, "ylva cancel") == "H-ACT-1"  # nothing left to cancel


@pytest.mark.rule("H-ACT-1")
def test_cancelling_comes_at_the_start_of_the_turn_only() -> None:
    enc = duel()
    enc.push("ylva prone")
    enc.dice.add([4, 5] + [3, 3])
    enc.push("ylva crawl C2")
    enc.push("hrolf end")
    enc.push("ylva speak text='onwards'")  # acting completes the crawl
    assert enc.state.combatants["ylva"].square == "C2"
    assert refused(enc, "ylva cancel") == "H-ACT-1"


# -- H-ACT-2: simultaneous actions ---------------------------------------------------------


def armed_on_the_move() -> State:
    """Ylva carries a knife and a second one; Hrolf is far away in A1."""
    ylva = person("ylva", "north", carried=["Light weapon"])
    enc = encounter(
        [ylva, person("hrolf", "south")],
        faces=[6, 4] + [3, 3] + [3, 3],
        squares={"hrolf": "A1"},
    )
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-ACT-2")
def test_drawing_a_weapon_can_go_with_a_move() -> None:
    enc = armed_on_the_move()
    enc.push("ylva move C2")
    enc.push("ylva draw 'Light weapon'")  # simultaneous with the move
    ylva = enc.state.combatants["ylva"]
    assert (ylva.square, ylva.sword_hand and ylva.sword_hand.name) == ("C2", "Light weapon")
    # Only one simultaneous action a turn: putting it away again is a second one.
    assert refused(enc, "ylva sheathe 'Light weapon'") == "H-ACT-2"


@pytest.mark.rule("H-ACT-2")
def test_a_draw_first_then_the_move_also_go_together() -> None:
    enc = armed_on_the_move()
    enc.push("ylva draw 'Light weapon'")
    enc.push("ylva move C2")
    assert enc.state.combatants["ylva"].square == "C2"


@pytest.mark.rule("H-ACT-2")
def test_a_draw_goes_with_a_move_only_not_with_an_attack_or_a_run() -> None:
    enc = armed_on_the_move()
    enc.push("ylva dodge")
    assert refused(enc, "ylva draw 'Light weapon'") == "H-ACT-1"
    enc = armed_on_the_move()
    enc.push("ylva draw 'Light weapon'")
    assert refused(enc, "ylva run C2") == "H-ACT-1"


# -- H-ACT-3: the list of combat actions ---------------------------------------------------


SEED_ACTION_TYPES = {
    # The seed's "List of combat actions", with the types it gives.
    "attack": "standard",  # Weapon attack
    "brawl": "standard",  # Brawl attack
    "charge": "ongoing",
    "move": "standard",
    "run": "ongoing",
    "prone": "free",  # Drop prone
    "crawl": "upcoming",
    "dodge": "standard",
    "draw": "standard",  # Draw a weapon or ammunition
    "sheathe": "standard",  # Put a weapon or ammunition away
    "drop": "free",  # Drop item(s)
    "get": "ongoing",  # Get an item
    "swap": "free",  # Swap items
    "breather": "ongoing",  # Taking a breather: ongoing, or upcoming with as=upcoming
    "observe": "free",  # Observation
    "speak": "free",
}


@pytest.mark.rule("H-ACT-3")
@pytest.mark.parametrize(("verb", "kind"), sorted(SEED_ACTION_TYPES.items()))
def test_each_combat_action_has_the_seeds_type(verb: str, kind: str) -> None:
    assert VERBS[verb].kind == kind


@pytest.mark.rule("H-ACT-3")
def test_a_verbs_type_kept_once_known_never_hides_one_its_options_change() -> None:
    """``kind_of`` keeps each verb's type once asked, except a breather's and a skill's,
    whose options choose it: asked in any order, each answer stays its own."""
    from fracas.engine import Action
    from fracas.rules.heimr.verbs.registry import kind_of

    plain, later = (
        Action("ylva", "breather"),
        Action("ylva", "breather", None, (("as", "upcoming"),)),
    )
    for _ in range(2):
        assert (kind_of(plain), kind_of(later), kind_of(plain)) == (
            "ongoing",
            "upcoming",
            "ongoing",
        )
        assert kind_of(Action("ylva", "end")) == "free"
        assert kind_of(Action("ylva", "skill", "Heal", (("as", "free"),))) == "free"
        assert kind_of(Action("ylva", "skill", "Heal", (("as", "ongoing"),))) == "ongoing"


@pytest.mark.rule("H-ACT-3")
def test_swapping_and_dropping_items_are_free_actions() -> None:
    enc = duel()  # Ylva holds a knife (either hand) in her sword hand
    enc.push("ylva swap")  # to the off-hand
    ylva = enc.state.combatants["ylva"]
    assert (ylva.sword_hand, ylva.off_hand and ylva.off_hand.name) == (None, "Light weapon")
    assert refused(enc, "ylva swap") == "H-ACT-1"  # each free action once a turn
    enc.push("ylva drop")  # drop what she holds
    ylva = enc.state.combatants["ylva"]
    assert (ylva.off_hand, [i.name for i in ylva.dropped]) == (None, ["Light weapon"])
    enc.push("ylva dodge")  # the standard action is still hers
    assert enc.to_move == "ylva"


@pytest.mark.rule("H-ACT-3")
def test_only_an_either_hand_weapon_goes_to_the_off_hand() -> None:
    ylva = person("ylva", "north", sword="Medium weapon")  # one or two hands
    enc = encounter([ylva, person("hrolf", "south")], faces=[6, 4] + [3] + [3, 3])
    enc.push("gm begin")
    assert refused(enc, "ylva swap") == "H-ACT-3"


@pytest.mark.rule("H-ACT-3")
def test_a_readied_dodge_adds_2_potential_against_a_ranged_attack() -> None:
    # Ylva (unarmed, B2) readies her dodge; Asa shoots her with a bow from C2.
    ylva = person("ylva", "north")
    asa = person("asa", "south", sword="Bow")
    enc = encounter([ylva, asa], faces=[6, 4] + [3, 3] + [3, 3], squares={"asa": "C2"})
    enc.push("gm begin")
    enc.push("ylva dodge")  # a standard action
    enc.dice.add([4, 3])  # her dodge, Agility C1P0: [4, 3] -> 4
    enc.push("ylva end")
    # The bow: Archery base C-1, P dex 0 + 1 = 1; one square away, distance 1 costs
    # floor(1 / 2) = 0. [5, 9] keeps the lowest, 5: 5 + 1 = 6. Ylva's dodge has +2
    # potential against this shot: 4 + 2 = 6, equal to the attack: a miss.
    enc.dice.add([5, 9] + [3, 3])
    enc.push("asa attack ylva")
    assert enc.state.combatants["ylva"].hp == 4
    assert not enc.state.combatants["ylva"].ready_dodge  # used up


@pytest.mark.rule("H-ACT-3")
def test_a_breather_as_an_upcoming_action_lowers_fatigue_at_the_next_turn() -> None:
    # Ylva has stamina 0 (base fatigue 4 - 0 = 4) and starts at fatigue 7; her dodges
    # (Agility C1P0) show a 9 so that they do not fail outright on fatigue.
    ylva = sheet("ylva", "north")
    enc = encounter(
        [ylva, person("hrolf", "south")],
        faces=[6, 4] + [6, 9] + [3, 3],
        place={"ylva": {"fatigue": 7}},
    )
    enc.push("gm begin")
    enc.dice.add([6, 9])
    enc.push("ylva breather as=upcoming")  # a free action that ends the turn
    assert enc.to_move == "hrolf"
    assert enc.state.combatants["ylva"].fatigue == 7
    enc.dice.add([3, 3])
    enc.push("hrolf end")
    enc.push("ylva speak text='better'")  # the breather completes: 7 - 2 = 5
    assert enc.state.combatants["ylva"].fatigue == 5
    assert refused(enc, "ylva dodge") == "H-ACT-1"  # it was this turn's standard action


@pytest.mark.rule("H-ACT-3")
def test_observing_a_square_gets_2_potential_in_it_and_1_next_to_it() -> None:
    # Perception: base C0, P int 0. Ylva is in B2.
    enc = duel()
    enc.dice.add([3])
    enc.push("ylva observe B2")
    assert rolls(enc)[0][1] == "C0P2"  # the same square
    enc.dice.add([3, 3] * 2 + [3])
    enc.push("ylva end")
    enc.push("hrolf end")
    enc.push("ylva observe B3")
    assert rolls(enc)[0][1] == "C0P1"  # a bordering square
    enc.dice.add([3, 3] * 2 + [3])
    enc.push("ylva end")
    enc.push("hrolf end")
    enc.push("ylva observe A1")
    assert rolls(enc)[0][1] == "C0P0"  # farther away
