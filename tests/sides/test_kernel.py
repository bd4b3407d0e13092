"""The sides kernel step by step: its tables worked out by hand, scripted fights, its
decisions against the default policy's in engine play, the cap, batching and when it applies."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy
import pytest

from fracas.engine import Encounter, RandomDice, capabilities, view
from fracas.lab import runner
from fracas.rules import find
from fracas.rules.sides import kernel
from fracas.rules.sides.kernel import KERNEL, Fights, Roster
from fracas.rules.sides.kernel.fights import CHARGING, DONE, MOVING, SHOOTING
from fracas.rules.sides.kernel.roster import CHARGE, CLOSE, FAR, MELEE
from fracas.rules.sides.policies import MELEE_RANGE, DefaultPolicy, GmPolicy
from fracas.rules.sides.setup import build
from fracas.rules.sides.state import SidesState

from sides_builders import EXAMPLES, builds, darna, example, orc, setup

DEFAULT = {"party": "default", "orcs": "default", "goblins": "default"}


def chances(roster: Roster, who: str, target: str, kind: int) -> list[Fraction]:
    """The chance of each damage 0, 1, ... of one attack, read back from the table."""
    ids = roster.ids
    row = roster.cdf[(ids.index(who) * roster.m + ids.index(target)) * 5 + kind]
    steps = numpy.diff(numpy.concatenate([[0.0], row]))
    return [Fraction(float(p)).limit_denominator(10_000) for p in steps]


@pytest.mark.rule("S-ATK-1", "S-DMG-1")
def test_the_seeds_mace_on_the_orc_in_leather() -> None:
    # Strength 10 - Evasion 1 = 9: a hit 30 times in 36; 1d6 - Protection 1
    roster = Roster(build(example("mace")))
    hit = Fraction(30, 36)
    want = [1 - hit + hit / 6] + [hit / 6] * 5 + [Fraction(0)]
    assert chances(roster, "darna", "orc", MELEE)[:7] == want
    assert sum(chances(roster, "darna", "orc", MELEE)) == 1


@pytest.mark.rule("S-DMG-1", "S-OPT-1")
def test_the_corridor_piercing_and_the_long_halberd() -> None:
    roster = Roster(build(example("metal")))
    # Darna: 9 or lower; "Metal; 2" leaves 1 of Urgash's Protection 3
    hit = Fraction(30, 36)
    assert chances(roster, "darna", "urgash", MELEE)[:6] == [1 - hit + hit / 6] + [hit / 6] * 5
    # Urgash: Strength 9 - Evasion 0 - 2 for a long weapon in a corridor = 7 (21 in 36);
    # a two-handed 1d6+1 on Darna, who wears nothing
    hit = Fraction(21, 36)
    assert chances(roster, "urgash", "darna", MELEE) == [1 - hit, 0] + [hit / 6] * 6


@pytest.mark.rule("S-ATK-2", "S-MOUNT-1")
def test_range_bands_and_a_mounted_charge() -> None:
    state = build(example("ambush"))
    roster = Roster(state)
    # Ana's shortbow (Agility 9) at Gob (Evasion 1): close 9, far 7; two-handed, 1d6+1,
    # less Gob's leather 1: 1 to 6 on a hit
    close, far = Fraction(30, 36), Fraction(21, 36)
    assert chances(roster, "ana", "gob", CLOSE)[:7] == [1 - close] + [close / 6] * 6
    assert chances(roster, "ana", "gob", FAR)[:7] == [1 - far] + [far / 6] * 6
    rider = Roster(build(setup(darna(mounted=True, trained_rider=True), orc())))
    # a mounted charge: 1 more damage, so never 0 on a hit against leather
    assert chances(rider, "darna", "orc", CHARGE)[0] == Fraction(6, 36)


def scripted(spec: dict[str, Any], *uniforms: float) -> Fights:
    """One run whose uniforms are ``uniforms``, in the order the kernel draws them."""
    fights = Fights(Roster(build(spec)), numpy.random.SeedSequence(0).spawn(1), 2000)
    queue = list(uniforms)

    def draw(runs: Any) -> Any:
        return numpy.array([queue.pop(0) for _ in runs])

    fights.streams.uniforms = draw  # type: ignore[method-assign]
    return fights


@pytest.mark.rule("S-ROUND-1", "S-MOVE-4", "S-MELEE-1")
def test_a_charge_strikes_first_and_the_dead_do_not_strike_back() -> None:
    # The party wins the initiative (below one half) and acts: Darna charges the orc 25'
    # away; in the melee her First Strike deals 5 (the highest), more than its 2 Health
    fights = scripted(example("mace"), 0.1, 0.999)
    (out,) = fights.play()
    assert (out.winner, out.rounds, out.hp_left) == ("party", 1, {"darna": 6, "orc": 0})
    # gm begin, party act, darna charge, darna done, orc done, two declarations
    assert out.actions == 7 and not out.capped


@pytest.mark.rule("S-MOVE-4", "S-MELEE-1", "S-HP-1")
def test_a_halberd_negates_the_charge_so_both_strike_together() -> None:
    # Darna's 5 kills Urgash (Health 3), whose 7 still lands: Stamina 4, then 3 Health
    fights = scripted(example("metal"), 0.1, 0.999, 0.999)
    (out,) = fights.play()
    assert (out.winner, out.hp_left) == ("party", {"darna": 3, "urgash": 0})


@pytest.mark.rule("S-SURPRISE-1")
def test_a_surprised_side_sits_out_the_first_round() -> None:
    # No initiative in the first round: the orcs act; the party neither moves nor fights
    # gm begin, the orc charges, is done and declares; its First Strike deals 6 to Darna,
    # 4 Stamina and 2 Health; the second round's initiative, and the cap stops it there
    spec = {**example("mace"), "surprised": ["party"]}
    fights = Fights(Roster(build(spec)), numpy.random.SeedSequence(0).spawn(1), 4)
    queue = [0.999, 0.5]
    fights.streams.uniforms = lambda runs: numpy.array([queue.pop(0) for _ in runs])  # type: ignore[method-assign]
    (out,) = fights.play()
    assert (out.winner, out.rounds, out.hp_left["darna"]) == (None, 2, 4)
    assert out.actions == 4 and out.capped


def arrays(fights: Fights, state: SidesState) -> None:
    """Put the engine's state into the kernel's one run."""
    codes = {None: 0, "move": 1, "charge": 2}
    for j, c in enumerate(state.combatants.values()):
        fights.health[0, j], fights.stamina[0, j] = c.health, c.stamina or 0
        fights.dead[0, j], fights.position[0, j] = c.dead, c.position
        fights.moved[0, j] = codes[c.doing.movement]
        fights.before[0, j], fights.after[0, j] = c.doing.before, c.doing.after
        fights.shot[0, j] = c.doing.shot


def decisions(spec: dict[str, Any], seed: int) -> Iterator[tuple[SidesState, str, Any]]:
    """Each phase decision of one engine play-out with the default policies: the state,
    who chooses and the action chosen."""
    enc = Encounter(find("sides"), spec, RandomDice(seed))
    policy, gm, rng = DefaultPolicy(), GmPolicy(), numpy.random.default_rng(seed)
    while not enc.is_over():
        actor = enc.to_move
        assert actor is not None
        side = None if actor == "gm" else enc.state.combatants.get(actor)
        chooser = gm if actor == "gm" else policy
        legal = list(enc.legal_actions(actor))
        seen = view(enc, side.side if side else None if actor == "gm" else actor)
        action = chooser.choose(seen, legal, rng)
        if enc.state.phase in ("acting", "reacting") and side is not None:
            yield enc.state.clone(), actor, action
        enc.push(action)


VERBS = {"done": DONE, "charge": CHARGING, "shoot": SHOOTING, "move": MOVING}


@pytest.mark.parametrize("name", list(builds()))
def test_the_kernel_decides_as_the_default_policy(name: str) -> None:
    """Every choice the policy makes in a phase, over a few engine play-outs: the kernel
    makes the same, on a target as good by the policy's measure (ties go either way)."""
    spec = builds()[name]
    fights = Fights(Roster(build(spec)), numpy.random.SeedSequence(0).spawn(1), 2000)
    ids = fights.roster.ids
    seen = 0
    for seed in range(6):
        for state, actor, action in decisions(spec, seed):
            arrays(fights, state)
            who = numpy.array([ids.index(actor)])
            choice, target, _ = fights.decide(numpy.array([0]), who)
            assert int(choice[0]) == VERBS[action.verb], (state.round, actor, action)
            if action.verb == "done":
                continue
            mine, theirs = state.combatants[ids[int(target[0])]], state.combatants[action.target]
            me = state.combatants[actor].position
            if action.verb == "move":
                assert abs(mine.position - me) == abs(theirs.position - me)
            else:
                assert mine.stats.evasion == theirs.stats.evasion
            seen += 1
    assert seen >= 6


def test_the_action_cap_stops_a_fight_where_the_engine_stops() -> None:
    spec = example("mace")
    seeds = runner.seeds(3, 4)
    for cap in (1, 2, 3):
        made = runner.make_spec("sides", spec, {}, max_actions=cap, engine="engine")
        assert kernel.simulate("sides", spec, seeds, cap) == runner.run_batch(made, seeds)


def test_results_do_not_depend_on_the_batching(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = example("ambush")
    seeds = runner.seeds(11, 30)
    whole = kernel.simulate("sides", spec, seeds)
    monkeypatch.setattr(kernel, "CHUNK", 7)
    assert kernel.simulate("sides", spec, seeds) == whole
    assert kernel.simulate("sides", spec, seeds[::-1]) == whole[::-1]


@pytest.mark.parametrize("name", EXAMPLES)
def test_engine_auto_plays_the_examples_on_the_kernel(name: str) -> None:
    assert capabilities.policies(find("sides")).kernel() is KERNEL
    path = f"examples/sides/{name}.yaml"
    assert runner.spec_from_file(path, {}, engine="auto").engine == "kernel"
    other = runner.spec_from_file(path, {"party": "attack-nearest"}, engine="auto")
    assert other.engine == "engine"


@pytest.mark.parametrize(
    ("ruleset", "spec", "policies", "reason"),
    [
        ("heimr", {}, DEFAULT, "the kernel plays sides"),
        ("sides", example("mace"), {"party": "random"}, "darna plays 'random'"),
        ("sides", {**example("mace"), "units": "metres"}, DEFAULT, "the melee range is 1.5"),
        ("sides", setup(darna(at=0.1), orc()), DEFAULT, "multiples of 0.25"),
        ("sides", {"combatants": []}, DEFAULT, "the setup does not start"),
        (
            "sides",
            setup(
                *(darna(name=f"D{i}") for i in range(33)), *(orc(name=f"O{i}") for i in range(32))
            ),
            DEFAULT,
            "65 combatants: the kernel plays at most 64",
        ),
    ],
)
def test_why_not(ruleset: str, spec: dict[str, Any], policies: dict[str, str], reason: str) -> None:
    found = kernel.why_not(ruleset, spec, policies)
    assert found is not None and reason in found
    if "plays" in reason:  # simulate takes every side to play the default
        return
    with pytest.raises(ValueError, match="the kernel cannot play this fight"):
        kernel.simulate(ruleset, spec, runner.seeds(1, 1))


def test_the_kernel_reads_the_policys_melee_range() -> None:
    assert kernel.MELEE_RANGE == MELEE_RANGE
