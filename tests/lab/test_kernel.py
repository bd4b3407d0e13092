"""Single steps of the kernel against hand-worked dice, and its exact bookkeeping.

Rolls are scripted as (result before potential, d6) pairs, so every number below can be
worked out from the rules by hand.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy
import pytest

from fracas.dice import HeimrChallenge
from fracas.engine import Action, Encounter, view
from fracas.rules import find
from fracas.rules.heimr import kernel
from fracas.rules.heimr.kernel import DODGE, PARRY, Fights, Roster
from fracas.rules.heimr.melee_policy import MeleePolicy
from fracas.rules.heimr.setup import build

from heimr_builders import setup, sheet

MELEE = {"n": "heimr-melee", "s": "heimr-melee"}


class Script:
    """Stands in for the kernel's dice: hands out (raw, d6) pairs and notes each consistency."""

    def __init__(self, *pairs: tuple[int, int]) -> None:
        self.pairs = list(pairs)
        self.asked: list[int] = []

    def __call__(self, runs: Any, c: Any) -> tuple[Any, Any]:
        self.asked.extend(int(x) for x in c)
        raw, d6 = zip(*(self.pairs.pop(0) for _ in range(len(runs))), strict=True)
        return numpy.array(raw), numpy.array(d6)


def duel(**extra: Any) -> dict[str, Any]:
    """Ylva (Dueling C2P2 + medium weapon P+3, parry) against Brannoc (light weapon)."""
    return setup(
        [
            sheet(
                "ylva",
                "n",
                dex=1,
                abilities={"Dueling": (2, 1)},
                sword="Medium weapon",
                **extra.get("ylva", {}),
            ),
            sheet(
                "brannoc",
                "s",
                hp=3,
                dex=1,
                abilities={"Knife fighting": (1, 0)},
                sword="Light weapon",
                **extra.get("brannoc", {}),
            ),
        ]
    )


def fights(spec: dict[str, Any], *pairs: tuple[int, int]) -> tuple[Fights, Script]:
    f = Fights(Roster(build(spec)), numpy.random.SeedSequence(0).spawn(1), 2000)
    script = Script(*pairs)
    f.roll = script  # type: ignore[method-assign]
    return f, script


ONE = numpy.array([0])
YLVA, BRANNOC = numpy.array([0]), numpy.array([1])


@pytest.mark.rule("H-INIT-1", "H-DEF-2")
def test_begin_rolls_initiative_and_pre_rolls_the_stances_in_its_order() -> None:
    # Initiative C1P3 each (dex 1, willpower 3): Ylva 4 + 3 = 7, Brannoc 6 + 3 = 9, so
    # Brannoc acts first and pre-rolls first: his parry, knife fighting C2 (base 1 + 1)
    # P3 (dex 1 + the knife's 2): 8 + 3 = 11; then Ylva's, dueling C2 (base 0 + 2) P5
    # (dex 1 + 1 + the medium weapon's 3): 5 + 5 = 10.
    f, script = fights(duel(), (4, 4), (6, 6), (8, 3), (5, 2))
    f.begin()
    assert f.order[0].tolist() == [1, 0]
    assert script.asked == [1, 1, 2, 2]
    assert f.kind[0].tolist() == [PARRY, PARRY]
    assert f.result[0].tolist() == [10, 11]
    assert f.actions[0] == 1


@pytest.mark.rule("H-ATK-4", "H-ATK-5", "H-DEF-3", "H-HP-1", "H-HP-2")
def test_a_hit_on_the_sword_arm_of_an_injured_character_drops_the_weapon() -> None:
    f, script = fights(duel())
    f.kind[0] = [PARRY, PARRY]
    f.result[0] = [10, 9]
    f.d6[0] = [6, 6]
    f.hp[0, 1] = 1
    ylva = build(duel()).combatants["ylva"].stats.abilities["Dueling"]
    # Ylva rolls raw 7, d6 4 (the sword arm): 7 + P beats Brannoc's parry 9.
    # Brannoc's next defence: no second parry (one a weapon, H-DEF-3), so a dodge.
    script.pairs = [(7, 4), (3, 3)]
    f.attack(ONE, YLVA, BRANNOC)
    assert 7 + ylva.potential + 3 > 9
    assert f.hp[0, 1] == 1 - 2  # the medium weapon's 2: Bloodied
    assert f.uses[PARRY, 0, 1] == 1
    assert f.kind[0, 1] == DODGE
    assert f.weapon[0, 1] == -1  # H-HP-2: Drop from the sword arm
    assert f.parts[0, 1] == 1 << kernel_part("sword arm")
    assert f.injured_at[0, 1] == 0


def kernel_part(name: str) -> int:
    return sorted(set(build(duel()).tables.body_parts.values())).index(name)


@pytest.mark.rule("H-FAT-1", "H-FAT-2")
def test_an_attack_failing_on_fatigue_needs_no_defence_and_tires() -> None:
    f, script = fights(duel())
    f.kind[0] = [PARRY, PARRY]
    f.result[0] = [10, 2]
    f.fatigue[0, 0] = 4
    script.pairs = [(3, 2)]  # raw 3 below fatigue 4: fails outright; d6 2 < 4: fatigue 5
    f.attack(ONE, YLVA, BRANNOC)
    assert f.hp[0, 1] == 3
    assert f.uses[:, 0, 1].tolist() == [0, 0, 0]
    assert f.fatigue[0, 0] == 5
    script.pairs = [(3, 1)]  # once a turn window (H-FAT-2): no second rise
    f.attack(ONE, YLVA, BRANNOC)
    assert f.fatigue[0, 0] == 5


@pytest.mark.rule("H-DEF-3")
def test_each_dodge_used_costs_the_next_two_consistency() -> None:
    spec = duel()
    spec["combatants"][1]["stance"] = "dodge"
    f, script = fights(spec)
    agility = build(spec).combatants["brannoc"].stats.abilities["Agility"]
    f.kind[0] = [PARRY, DODGE]
    f.result[0] = [10, 30]
    script.pairs = [(7, 6), (5, 5), (7, 6), (5, 5)]
    f.attack(ONE, YLVA, BRANNOC)
    f.result[0, 1] = 30
    f.attack(ONE, YLVA, BRANNOC)
    assert script.asked == [
        build(spec).combatants["ylva"].stats.abilities["Dueling"].consistency,
        agility.consistency - 2,
        build(spec).combatants["ylva"].stats.abilities["Dueling"].consistency,
        agility.consistency - 4,
    ]
    assert f.hp[0, 1] == 3


@pytest.mark.rule("H-HP-2", "H-EFF-5")
def test_a_dazed_character_cannot_defend_and_only_ends_its_turn() -> None:
    f, script = fights(duel())
    f.kind[0] = [PARRY, PARRY]
    f.result[0] = [10, 25]
    f.hp[0, 1] = 1
    script.pairs = [(8, 5), (4, 4)]  # torso: -1 hit points and Daze; a dodge re-rolled
    f.result[0, 1] = 0
    f.attack(ONE, YLVA, BRANNOC)
    assert f.dazed[0, 1] and f.hp[0, 1] == -1
    before = f.uses[:, 0, 1].copy()
    script.pairs = [(2, 1)]  # any roll hits the dazed
    f.fatigue[0, 0] = 1
    f.attack(ONE, YLVA, BRANNOC)
    assert f.hp[0, 1] == -3
    assert (f.uses[:, 0, 1] == before).all()


@pytest.mark.rule("H-FAT-3", "H-ACT-1")
def test_a_tired_character_takes_a_breather_and_defends_at_minus_two() -> None:
    spec = duel()
    f, script = fights(spec)
    ylva = build(spec).combatants["ylva"]
    f.order[0] = [0, 1]
    f.fatigue[0, 0] = ylva.fatigue + 2
    script.pairs = [(6, 6)]
    f.turn(ONE)
    assert f.fatigue[0, 0] == ylva.fatigue
    assert script.asked == [ylva.stats.abilities["Dueling"].consistency - 2]
    assert f.actions[0] == 1 and f.index[0] == 1


@pytest.mark.rule("H-ACT-3")
def test_a_disarmed_character_draws_its_carried_weapon() -> None:
    spec = duel(ylva={"carried": ["Light weapon"]})
    f, script = fights(spec)
    f.order[0] = [0, 1]
    f.weapon[0, 0] = -1
    script.pairs = [(6, 6)]  # the pre-roll at the end of the turn: parry again
    f.turn(ONE)
    assert f.weapon[0, 0] == 1 and f.actions[0] == 2
    assert f.kind[0, 0] == PARRY


def test_the_challenge_table_is_the_exact_distribution() -> None:
    table = kernel.challenge_table()
    for c in (-3, 0, 2):
        n = 60_000
        u = (numpy.arange(n) + 0.5) / n
        raw, d6 = table.draw(numpy.full(n, c), u)
        counts = Counter(zip(raw.tolist(), d6.tolist(), strict=True))
        for key, p in HeimrChallenge(c).joint().items():
            assert abs(counts[key] - p * n) <= 1, (c, key)


def test_the_guided_draw_is_the_plain_search() -> None:
    table = kernel.challenge_table()
    rng = numpy.random.default_rng(4)
    c = rng.integers(-kernel.MAX_CONSISTENCY, kernel.MAX_CONSISTENCY + 1, 200_000)
    u = rng.random(c.size)
    # and the uniforms that fall exactly on a key, or on the edge of a guide bin
    rows = numpy.floor(table.keys[:-1])
    c = numpy.concatenate([c, rows - kernel.MAX_CONSISTENCY, c[:4096]]).astype(numpy.int64)
    u = numpy.concatenate([u, table.keys[:-1] - rows, numpy.arange(4096) / kernel.GUIDE])
    inside = c + kernel.MAX_CONSISTENCY + u < 2 * kernel.MAX_CONSISTENCY + 1  # C40's top
    c, u = c[inside], u[inside]
    at = numpy.searchsorted(table.keys, c + kernel.MAX_CONSISTENCY + u, side="right")
    raw, d6 = table.draw(c, u)
    assert (raw == table.raw[at]).all() and (d6 == table.d6[at]).all()
    assert table.crowded.any()  # the searched bins are tested too


def unarmed(hp: int = 4) -> dict[str, Any]:
    return setup([sheet("a", "n", hp=hp), sheet("b", "s", hp=hp)])


def engine_play(enc: Encounter[Any], cap: int) -> tuple[int, int, bool]:
    policy = MeleePolicy()
    actions = 1
    while not enc.is_over() and actions < cap:
        actor = enc.to_move
        legal = [a for a in enc.legal_actions(actor) if a.verb in ("end", "breather")]
        enc.push(policy.choose(view(enc, enc.state.combatants[actor].side), legal, None))
        actions += 1
    return enc.state.round, actions, enc.is_over()


@pytest.mark.rule("H-INIT-2")
def test_a_fight_nobody_can_win_runs_to_the_action_cap_as_in_the_engine() -> None:
    out = kernel.simulate("heimr", unarmed(), numpy.random.SeedSequence(1).spawn(2), 51)
    enc = Encounter(find("heimr"), unarmed())
    enc.push(Action("gm", "begin"))
    rounds, actions, over = engine_play(enc, 51)
    assert not over
    assert [(o.rounds, o.actions, o.capped, o.winner) for o in out] == [
        (rounds, actions, True, None)
    ] * 2


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_small_action_caps_stop_where_the_engine_would(cap: int) -> None:
    spec = duel()
    seeds = numpy.random.SeedSequence(5).spawn(20)
    for o in kernel.simulate("heimr", spec, seeds, cap):
        assert o.capped and o.actions == cap and o.winner is None


@pytest.mark.rule("H-HP-1", "H-HP-5")
def test_the_dying_clock_decides_a_fight_nobody_can_win_as_in_the_engine() -> None:
    # Mangled at the start (clock 0): unconscious after 5 minutes, 150 rounds of 2 s.
    f = Fights(Roster(build(unarmed())), numpy.random.SeedSequence(0).spawn(1), 2000)
    f.begin()
    f.hp[0, 0], f.injured_at[0, 0] = -2, 0
    (out,) = f.play()
    enc = Encounter(find("heimr"), unarmed())
    enc.push(Action("gm", "begin"))
    enc.state.combatants["a"].hp = -2
    enc.state.combatants["a"].injured_at = 0
    rounds, actions, over = engine_play(enc, 2000)
    assert over and (out.rounds, out.actions, out.winner) == (rounds, actions, "s")
    assert out.rounds == 151


def test_the_state_arrays_stay_contiguous_for_their_flat_views() -> None:
    # the kernel writes through flat views (reshape(-1)): a copy would lose the writes
    f = Fights(Roster(build(duel())), numpy.random.SeedSequence(2).spawn(50), 2000)
    f.begin()
    f.play()
    arrays = {**vars(f), **{f"streams.{k}": v for k, v in vars(f.streams).items()}}
    for name, value in arrays.items():
        if isinstance(value, numpy.ndarray):
            assert value.flags.c_contiguous, name


def test_results_do_not_depend_on_how_the_runs_are_split(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = duel()
    seeds = numpy.random.SeedSequence(3).spawn(30)
    whole = kernel.simulate("heimr", spec, seeds)
    parts = kernel.simulate("heimr", spec, seeds[:7]) + kernel.simulate("heimr", spec, seeds[7:])
    assert parts == whole
    monkeypatch.setattr(kernel, "CHUNK", 4)
    assert kernel.simulate("heimr", spec, seeds) == whole


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (
            lambda s: (
                s.update(battlefield={"squares": {"C2": {"concealment": ["Shrubbery"]}}})
                or s["combatants"][1].update(square="C2")
            ),
            "concealment",
        ),
        (lambda s: s.update(battlefield={"squares": {"B2": {"terrain": "difficult"}}}), "terrain"),
        (lambda s: s["combatants"][0].update(ammunition={"Arrow": 5, "Bolt": 2}), "ammunition"),
        (lambda s: s["campaign"]["characters"]["ylva"]["items"].update(carried=["Bow"]), "ranged"),
        (lambda s: s["combatants"][0].update(prone=True), "prone"),
    ],
)
def test_the_kernel_refuses_what_it_does_not_model(change: Any, why: str) -> None:
    spec = duel()
    change(spec)
    assert not kernel.qualifies("heimr", spec, MELEE)
    assert why in (kernel.why_not("heimr", spec, MELEE) or "")
    with pytest.raises(ValueError, match="cannot play"):
        kernel.simulate("heimr", spec, numpy.random.SeedSequence(0).spawn(1))


def test_the_kernel_plays_only_heimr_melee_policies() -> None:
    assert kernel.qualifies("heimr", duel(), MELEE)
    assert not kernel.qualifies("heimr", duel(), {"n": "heimr-melee", "s": "random"})
    assert not kernel.qualifies("tempo", duel(), MELEE)
