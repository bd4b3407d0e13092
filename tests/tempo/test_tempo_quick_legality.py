"""The quick legality of the tempo rules answers exactly as the full check does.

The listing (:meth:`TempoRules.legal`, :meth:`TempoRules.checking`) and the reaction and
counter-tempo windows (:func:`legality.reactions`, :func:`legality.affordable_replacements`)
ask predicates that build no refusal; here each answer is compared with the explaining
functions and :meth:`TempoRules.check`, on positions of seeded random legal play, each
also stirred (AP, statuses, hit points, weapons, reach, the exchange's fields) so that
every refusal is met. And the default policy's draw of a blow's answer is NumPy's.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator
from itertools import permutations, product
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, EngineError, IllegalAction, RandomDice
from fracas.rules import find
from fracas.rules.tempo import legality
from fracas.rules.tempo.policies import BLOW_ANSWERS, weighted
from fracas.rules.tempo.ruleset import TempoRules
from fracas.rules.tempo.state import Combatant, Declared, Exchange, TempoState
from fracas.table import encounterfile

from tempo_builders import setup, sheet

ROOT = Path(__file__).resolve().parents[2]
WEAPONS = ["Dagger", "Arming sword", "Longsword", "Throwing knife", "Short bow", "Crossbow"]
#: What a stirred exchange's actor may be made to have declared.
STIRRED = ["Ranged Attack", "Melee Attack", "Feint", "Move", "Press", "Aim"]


def _skirmish() -> dict[str, Any]:
    """Two a side, melee and ranged weapons, armour, one unprepared, reach in part."""
    sheets = [
        sheet("ylva", "north", weapons=["Arming sword", "Short bow"], melee=2, ranged=1),
        sheet("bjorn", "north", weapons=["Dagger"], armour="Mail", melee=1),
        sheet("astrid", "south", weapons=["Longbow"], ranged=2, evasion=1),
        sheet("hakon", "south", weapons=["Longsword", "Throwing knife"], melee=2),
    ]
    place = {"bjorn": {"prepared": False, "reach": ["hakon"]}, "ylva": {"reach": ["astrid"]}}
    # T-MOVE-1 for an action at the opponent engaged with: no row of the seed's asks it.
    return setup(sheets, place, campaign={"actions": {"Press": {"reach": True}}})


def _encounters() -> Iterator[Encounter[TempoState]]:
    for name in ("feint", "binds"):
        ruleset, start, _ = encounterfile.load(ROOT / "examples" / "tempo" / f"{name}.yaml")
        yield Encounter(ruleset, start, RandomDice(0))
    yield Encounter(find("tempo"), _skirmish(), RandomDice(0))


def _slow_reactions(state: TempoState, ex: Exchange, who: Combatant) -> list[str]:
    """The reactions open to ``who``, asked of the functions that explain a refusal."""
    if legality.window_refusal(state, ex, who) is not None:
        return []
    found = []
    for name, spec in state.tables.actions.items():
        if spec.kind != "reactive":
            continue
        try:
            chosen = legality.weapon_for(state, who, name, None)
        except IllegalAction:
            continue
        if legality.reaction_refusal(state, ex, who, name, chosen) is None:
            found.append(name)
    return found


def _slow_replacements(state: TempoState, ex: Exchange) -> dict[str, int]:
    assert ex.reaction is not None
    actor = state.combatants[ex.proactive.who]
    found = {}
    options = legality.replacement_options(state, ex.proactive.action, ex.reaction.action)
    for name, bonus in options.items():
        try:
            chosen = legality.weapon_for(state, actor, name, None)
        except IllegalAction:
            continue
        if legality.refusal(state, actor, name, chosen, ex.paid) is None:
            found[name] = bonus
    return found


def _checked(rules: TempoRules, state: TempoState, action: Action) -> bool:
    try:
        rules.check(state, action)
    except EngineError:
        return False
    return True


def _asked(state: TempoState, rules: TempoRules, pick: random.Random) -> list[Action]:
    """The candidates, and actions no listing proposes: every verb of everyone, bare,
    at a combatant and with a weapon."""
    asked = list(rules.candidates(state, None))
    verbs = [*state.tables.verbs, legality.PASS]
    ids = list(state.combatants)
    for cid in ids:
        for verb in verbs:
            asked.append(Action(cid, verb))
            asked.append(Action(cid, verb, pick.choice(ids)))
            asked.append(Action(cid, verb, None, (("with", pick.choice(WEAPONS)),)))
    return asked


def _assert_same(rules: TempoRules, state: TempoState, pick: random.Random) -> None:
    ex = state.exchange
    if ex is not None and not state.over:
        for who in state.combatants.values():
            assert legality.reactions(state, ex, who) == _slow_reactions(state, ex, who)
        if ex.reaction is not None:
            assert legality.affordable_replacements(state, ex) == _slow_replacements(state, ex)
            looks = legality.shown(state, ex.proactive)
            opens = any(
                legality.replacement_options(state, name, ex.reaction.action)
                for name, spec in state.tables.actions.items()
                if (spec.declared_as or name) == looks
            )
            assert legality.counter_window(state, ex) == opens
    candidates = list(rules.candidates(state, None))
    every_verb = sorted({*state.tables.verbs, legality.PASS})
    checking = rules.checking(state)
    for actor in (None, *state.combatants):
        verbs: Collection[str] | None
        for verbs in (None, frozenset(pick.sample(every_verb, 3))):
            accepted = [
                a
                for a in candidates
                if (actor is None or a.actor == actor)
                and (verbs is None or a.verb in verbs)
                and _checked(rules, state, a)
            ]
            assert list(rules.legal(state, actor, verbs)) == accepted, (actor, verbs)
            assert list(checking.legal(actor, verbs)) == accepted, (actor, verbs)
            keep = [a for a in accepted if a.target is None]
            assert list(checking.legal_where(actor, verbs, lambda a: a.target is None)) == keep
    for action in _asked(state, rules, pick):
        assert checking.is_legal(action) == _checked(rules, state, action), action


def _stirred(state: TempoState, pick: random.Random) -> TempoState:
    """A copy of ``state`` with its combatants' and exchange's fields drawn at random."""
    new = state.clone()
    statuses = list(new.tables.statuses)
    ids = list(new.combatants)
    for c in new.combatants.values():
        c.ap = pick.randint(0, 12)
        c.status = pick.choice(statuses)
        c.engaged_with = pick.choice([None, *ids])
        c.hp = pick.choice([-1, 0, 1, c.hp, c.max_hp])
        c.weapons = pick.sample(WEAPONS, pick.randint(0, 2))
        c.reach = {cid for cid in ids if pick.random() < 0.5}
    ex = new.exchange
    if ex is not None:
        actor = new.combatants[ex.proactive.who]
        name = pick.choice([ex.proactive.action, *STIRRED])
        ex.proactive = Declared(actor.id, name, pick.choice([None, *actor.weapons]))
        ex.target = pick.choice([ex.target, ex.target, None, *ids])
        if ex.reaction is not None:
            answer = pick.choice([ex.reaction.action, "Parry", "Counter-Attack", "Evade"])
            ex.reaction = Declared(ex.reaction.who, answer)
        ex.passed = [cid for cid in ids if pick.random() < 0.3]
        used = legality.weapon(new, ex.proactive.weapon)
        speed = used.speed if used is not None and used.speed is not None else 0
        ex.distance = max(0, speed + pick.choice([-1, 0, 0, 1, pick.randint(-12, 12)]))
        ex.paid = pick.randint(0, 6)
    return new


@pytest.mark.rule("T-ROUND-2", "T-ACT-1", "T-ACT-2", "T-ACT-3", "T-STAT-1", "T-MOVE-1")
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_lists_what_the_full_check_accepts(seed: int) -> None:
    rules = find("tempo")
    assert isinstance(rules, TempoRules)
    pick = random.Random(seed)
    for start in _encounters():
        enc = start.copy(stack=False, dice=RandomDice(seed))
        for _ in range(30):
            state = enc.state
            _assert_same(rules, state, pick)
            for _ in range(3):
                _assert_same(rules, _stirred(state, pick), pick)
            everyone = list(rules.legal(state, None))
            if not everyone:
                break
            enc.push_legal(pick.choice(everyone))


@pytest.mark.rule("T-ROUND-2", "T-STAT-1", "T-MOVE-1")
def test_a_turn_lists_what_the_full_check_accepts_in_every_status_weapons_and_ap() -> None:
    rules = find("tempo")
    assert isinstance(rules, TempoRules)
    start = Encounter(rules, _skirmish(), RandomDice(0)).state
    assert start.current == "ylva" and start.exchange is None
    for status, weapons, ap, engaged, reach in product(
        start.tables.statuses,
        ([], ["Dagger"], ["Short bow", "Dagger"], ["Crossbow"]),
        range(7),
        (None, "astrid", "bjorn"),
        (set(), {"astrid"}),
    ):
        state = start.clone()
        ylva = state.combatants["ylva"]
        ylva.status, ylva.weapons, ylva.ap, ylva.engaged_with = status, weapons, ap, engaged
        ylva.reach = set(reach)
        accepted = [a for a in rules.candidates(state, None) if _checked(rules, state, a)]
        assert list(rules.legal(state, None)) == accepted


def test_the_default_policy_draws_a_blows_answer_as_numpy_would() -> None:
    for n in (1, 2, 3):
        for verbs in permutations(BLOW_ANSWERS, n):
            weights = [BLOW_ANSWERS[v] for v in verbs]
            p = numpy.array(weights) / sum(weights)
            for seed in range(50):
                ours, theirs = numpy.random.default_rng(seed), numpy.random.default_rng(seed)
                assert weighted(ours, weights) == int(theirs.choice(n, p=p))
                assert ours.random() == theirs.random()  # the same draws taken


class _NoRecovery(TempoRules):
    """A house rule: no Recover action (refused by its own check)."""

    def check(self, state: TempoState, action: Action) -> None:
        if action.verb == "recover":
            raise IllegalAction("T-ACT-1", "no recovering in this house")
        super().check(state, action)


@pytest.mark.rule("T-ACT-1")
def test_a_subclass_with_checks_of_its_own_is_listed_by_them() -> None:
    _, start, _ = encounterfile.load(ROOT / "examples" / "tempo" / "feint.yaml")
    plain = Encounter(find("tempo"), start, RandomDice(0))
    house = Encounter(_NoRecovery(), start, RandomDice(0))
    actor = plain.to_move
    assert actor is not None and actor == house.to_move
    assert "recover" in {a.verb for a in plain.legal_actions(actor)}
    listed = list(house.legal_actions(actor))
    assert listed and "recover" not in {a.verb for a in listed}
    assert not house.ruleset.checking(house.state).is_legal(Action(actor, "recover"))
    assert [a for a in plain.legal_actions(actor) if a.verb != "recover"] == listed
