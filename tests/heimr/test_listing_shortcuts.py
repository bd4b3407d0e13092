"""The shortcuts of listing legal actions list what the long way does: the Heimr rules'
quick refusals (attacks, brawls and charges out of reach, steps and charges up or down
more than one height, climbs and draws with no free hand, defences with nothing to
defend with, standing up when not prone or fallen; and a verb left out of a listing whole: attacks
and brawls with no foe in the square, attacks with no weapon that can strike, charges
with no foe bordering within one height or no melee weapon, climbs with no free hand)
refuse only what the check refuses, in listing and in ``is_legal``, and the quick
acceptances of plain melee attacks, punches and charges accept only what the check
accepts; the offer of one verb is that verb's part of the whole offer; ``legal_where`` /
``Legal.where`` give the legal actions a test keeps, in their order, whichever
candidates they skip checking, and ``Legal.first`` the first; and a
``Ruleset.checking`` of one state answers as the ruleset does, whatever it was asked
before; and the default policy leaves out asking for steps toward its enemies only
when the rules would refuse every one of them."""

from __future__ import annotations

import glob
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.engine import Action, Encounter, EngineError, IllegalAction, RandomDice, Ruleset
from fracas.engine.legal import Legal, first_of, verb_where
from fracas.lab.playout import LazyView
from fracas.rules.heimr import policies, quick
from fracas.rules.heimr import ruleset as heimr_ruleset
from fracas.rules.heimr.state import ActiveEffect, HeimrState
from fracas.rules.heimr.verbs import VERBS as VERBS_CHECKED
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
HEIMR = sorted(
    p
    for p in glob.glob(str(ROOT / "examples/heimr/*.yaml"))
    if "\nruleset: heimr" in "\n" + Path(p).read_text()
)
#: The verbs the quick refusals cover, and those the default policy asks ``where`` of.
VERBS = ("attack", "brawl", "charge", "defend", "move", "run", "crawl", "climb", "jump")
VERBS += ("draw", "stand")


def checked(ruleset: Ruleset[object], state: object, action: Action) -> bool:
    """Whether the rules' full check (which builds every refusal) accepts ``action``."""
    try:
        ruleset.check(state, action)
    except EngineError:
        return False
    return True


def keep_some(action: Action) -> bool:
    """A test of the action alone, keeping about half of any verb's candidates."""
    return hash(str(action)) % 2 == 0


@pytest.mark.rule("H-ATK-1")
@pytest.mark.rule("H-ACT-8")
@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_listing_with_shortcuts_lists_what_checking_each_candidate_does(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    encounter = Encounter(ruleset, setup, RandomDice(7), record=False)
    rng = random.Random(7)
    for _ in range(30):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        state = encounter.state
        mine = [a for a in ruleset.candidates(state, actor) if a.actor == actor]
        every = [a for a in mine if checked(ruleset, state, a)]
        for action in mine:  # a quick acceptance only where the verb's check accepts
            accept = quick.IN_HAND.get(action.verb)
            if accept is not None and accept(state, action):
                VERBS_CHECKED.check(state, action)
        assert [a for a in mine if ruleset.is_legal(state, a)] == every
        for verb in heimr_ruleset._OFFERED_ONE:  # one verb's offer: the whole offer's
            whole = list(ruleset._offer(state, actor, {verb}))  # type: ignore[attr-defined]
            assert ruleset._offer_one(state, actor, {verb}) == whole  # type: ignore[attr-defined]
        assert list(ruleset.legal(state, actor)) == every
        for verb in VERBS:
            of_verb = [a for a in every if a.verb == verb]
            assert list(ruleset.legal(state, actor, {verb})) == of_verb
            kept = [a for a in of_verb if keep_some(a)]
            assert list(ruleset.legal_where(state, actor, {verb}, keep_some)) == kept
            legal = Legal(encounter, actor, {"attack"}, ("end",))
            assert verb_where(legal, verb, keep_some) == kept
            assert all(legal.listed(a) for a in kept)  # pushed without a second check
            legal = Legal(encounter, actor, {"attack"}, ("end",))
            found = first_of(legal, verb)
            assert found == (of_verb[0] if of_verb else None)
            assert found is None or legal.listed(found)
            assert legal.verb(verb) == of_verb  # a verb with none is listed empty
        # One state's questions, asked in any order of one Checking, which works out
        # once what they share: the same answers.
        checks = ruleset.checking(state)
        asked: list[object] = [*VERBS, *mine, None]
        rng.shuffle(asked)
        for question in asked:
            if question is None:
                assert list(checks.legal(actor)) == every
            elif isinstance(question, Action):
                assert checks.is_legal(question) == (question in every)
            else:
                of_verb = [a for a in every if a.verb == question]
                assert list(checks.legal(actor, {question})) == of_verb
                kept = [a for a in of_verb if keep_some(a)]
                assert list(checks.legal_where(actor, {question}, keep_some)) == kept
        encounter.push_legal(rng.choice(every))


@pytest.mark.rule("H-GRID-5")
@pytest.mark.rule("H-GRID-6")
@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_default_policy_skips_asking_for_steps_only_when_every_one_is_refused(
    path: str,
) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    encounter = Encounter(ruleset, setup, RandomDice(11), record=False)
    rng = random.Random(11)
    skipped = 0
    for _ in range(30):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        state = encounter.state
        c = state.combatants.get(actor)
        if c is not None:
            kept = c.square, c.height
            # Random positions: the actor anywhere on the field, at any height.
            for square in rng.sample(sorted(state.battlefield.squares), 3):
                c.square, c.height = square, rng.randrange(6)
                skipped += _steps_agree(encounter, actor)
            c.square, c.height = kept
        encounter.push_legal(rng.choice(list(ruleset.legal(state, actor))))
    assert skipped or "castle-wall" not in path  # the wall is where it is tried


def _begun(example: str, seed: int) -> HeimrState:
    """The state of ``examples/heimr/EXAMPLE.yaml`` once the fight has begun (dice of
    ``seed``), for a test to place its fighters in."""
    ruleset, setup, _ = encounterfile.load(ROOT / "examples" / "heimr" / f"{example}.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(seed), record=False)
    encounter.push(Action("gm", "begin"))
    state: HeimrState = encounter.state
    return state


def _quick_and_check(test: quick.Quick, state: HeimrState, action: Action) -> tuple[bool, bool]:
    """Whether the quick ``test`` accepts ``action``, and whether the verb's check does;
    asserted: the quick test never accepts what the check refuses."""
    quick_accepts = test(state, action)
    try:
        VERBS_CHECKED.check(state, action)
        accepted = True
    except EngineError:
        accepted = False
    assert accepted or not quick_accepts
    return quick_accepts, accepted


def _steps_agree(encounter: Encounter[object], actor: str) -> int:
    """That the rules refuse every closer step when the policy skips asking: 1 when it
    skips them, else 0."""
    side = encounter.state.combatants[actor].side  # type: ignore[attr-defined]
    view = LazyView(encounter, side)
    people = view["state"]["combatants"]
    me = people[actor]
    enemies = policies._enemies(me, people)
    if not enemies or me["square"] in {e["square"] for e in enemies}:
        return 0
    graph = policies.grid_graph(view["state"]["battlefield"])
    away = policies.turns_to(graph, sorted({str(e["square"]) for e in enemies}))
    now = away.get(str(me["square"]), 1 << 30)
    if policies._may_step_closer(view, me, graph, away, now):
        return 0

    def closer(a: Action) -> bool:
        return a.target in graph and away.get(a.target, now) < now

    for verb in ("move", "run"):
        assert list(encounter.ruleset.legal_where(encounter.state, actor, {verb}, closer)) == []
    return 1


class _NoEnding(heimr_ruleset.HeimrRules):
    """A house rule refusing the end of a turn (a subclass's own turn refusal)."""

    def _turn_refusal(
        self,
        state: HeimrState,
        action: Action,
        over: bool,
        able: dict[str, bool] | None = None,
    ) -> Callable[[], EngineError] | None:
        if action.verb == "end":
            return lambda: IllegalAction("H-INIT-2", "no ending here")
        return super()._turn_refusal(state, action, over, able)


@pytest.mark.rule("H-INIT-2")
def test_a_subclass_refusing_the_turn_its_own_way_is_not_short_cut() -> None:
    _, setup, _ = encounterfile.load(ROOT / "examples" / "heimr" / "duel.yaml")
    encounter = Encounter(_NoEnding(), setup, RandomDice(0))
    encounter.push(Action("gm", "begin"))
    actor = encounter.to_move
    assert actor is not None
    end = Action(actor, "end")
    assert not encounter.is_legal(end)
    assert end not in list(encounter.legal_actions(actor, {"end", "attack"}))
    legal = Legal(encounter, actor, (), ("end",))
    assert legal.one(end) is None and legal.verb("attack")  # it may still attack


@pytest.mark.rule("H-ATK-6")
@pytest.mark.rule("H-ACT-8")
@pytest.mark.rule("H-POS-4")
def test_a_quick_shot_accepts_a_plain_shot_exactly_where_the_check_does() -> None:
    """``quick.shot_in_reach`` against the attack's check, over an archer and targets
    placed anywhere at any height (in range or beyond it), dead or alive, hidden or not,
    with the counted arrows drawn or not: what it accepts the check accepts, and of plain
    shots by one under no effect it accepts all the check accepts."""
    state = _begun("night", 3)
    archer = state.combatants["eirik"]
    squares = sorted(state.battlefield.squares)
    rng = random.Random(3)
    found = {True: 0, False: 0}
    for _ in range(400):
        archer.square, archer.height = rng.choice(squares), rng.randrange(3)
        archer.ammunition = rng.choice([{}, {"Arrow": 2}])
        archer.drawn_ammunition = rng.choice([None, "Arrow"])
        target = state.combatants[rng.choice(["ylva", "hrolf", "gunnar", "eirik"])]
        if target is not archer:
            target.square, target.height = rng.choice(squares), rng.randrange(8)
            target.dead = rng.random() < 0.1
            target.hide_cr = rng.choice([None, None, 3])
            target.hidden_from = {archer.side: rng.choice(["unaware", "aware"])}
        options = rng.choice([(), (("part", "head"),)])
        action = Action("eirik", "attack", target.id, options)
        quick_accepts, accepted = _quick_and_check(quick.shot_in_reach, state, action)
        if not options:
            assert quick_accepts == accepted
            found[accepted] += 1
    assert found[True] and found[False]  # both asked


@pytest.mark.rule("H-GRID-2")
@pytest.mark.rule("H-GRID-3")
@pytest.mark.rule("H-GRID-5")
@pytest.mark.rule("H-EFF-7")
@pytest.mark.parametrize("example", ["castle-wall", "doorway"])
def test_a_quick_step_accepts_a_plain_step_exactly_where_the_check_does(example: str) -> None:
    """``quick.step_in_reach`` against the move's and run's check, over a fighter placed
    anywhere at any height, prone or not, bound or not, stepping into any square (the
    field's walls, doors and heights): what it accepts the check accepts, and of steps by
    one neither prone nor under any effect into a bordering square with no border between,
    it accepts all the check accepts."""
    state = _begun(example, 5)
    field = state.battlefield
    squares = sorted(field.squares)
    rng = random.Random(5)
    found = {True: 0, False: 0}
    for _ in range(300):
        mover = state.combatants[rng.choice(sorted(state.combatants))]
        mover.square, mover.height = rng.choice(squares), rng.randrange(3)
        mover.prone = rng.random() < 0.2
        mover.effects = [ActiveEffect("Bind", 1, 1, part="leg")] if rng.random() < 0.2 else []
        near = field.neighbours(mover.square)
        to = rng.choice([*near, *near, rng.choice(squares), "out"])
        action = Action(mover.id, rng.choice(["move", "run"]), to.lower())
        quick_accepts, accepted = _quick_and_check(quick.step_in_reach, state, action)
        plain = not mover.prone and not mover.effects and to in near
        if plain and field.border(mover.square, to) is None:
            assert quick_accepts == accepted
            found[accepted] += 1
    assert found[True] and found[False]  # both asked


@pytest.mark.rule("H-ACT-4")
@pytest.mark.rule("H-ACT-5")
@pytest.mark.rule("H-GRID-2")
@pytest.mark.rule("H-GRID-3")
@pytest.mark.rule("H-GRID-5")
@pytest.mark.rule("H-POS-4")
@pytest.mark.parametrize("example", ["castle-wall", "doorway"])
def test_a_quick_charge_accepts_a_plain_charge_exactly_where_the_check_does(
    example: str,
) -> None:
    """``quick.charge_in_reach`` against the charge's check, over a charger placed
    anywhere at any height, prone or not, stumbling or not, armed or not, on a target
    placed anywhere at any height, hidden or not, having run from the charger's square or
    not (the field's walls, doors and heights): what it accepts the check accepts, and of
    plain charges by one neither prone nor under any effect, wielding a melee weapon, on a
    target it knows is there in a bordering square with no border between, that did not
    run from its square, it accepts all the check accepts."""
    state = _begun(example, 9)
    field = state.battlefield
    squares = sorted(field.squares)
    ids = sorted(state.combatants)
    rng = random.Random(9)
    found = {True: 0, False: 0}
    for _ in range(400):
        charger = state.combatants[rng.choice(ids)]
        target = state.combatants[rng.choice([i for i in ids if i != charger.id])]
        charger.square, charger.height = rng.choice(squares), rng.randrange(3)
        charger.prone = rng.random() < 0.15
        charger.effects = [ActiveEffect("Stumble", 1, 1)] if rng.random() < 0.15 else []
        near = field.neighbours(charger.square)
        target.square = rng.choice([*near, *near, rng.choice(squares)])
        target.height = field.squares[target.square].height + rng.choice([0, 0, 1, 2])
        target.ran_from = charger.square if rng.random() < 0.1 else None
        target.hide_cr = rng.choice([None, None, None, 3])
        target.hidden_from = {charger.side: rng.choice(["unaware", "aware"])}
        options = rng.choice([(), (), (("brawl", "hit"),)])
        action = Action(charger.id, "charge", target.id, options)
        quick_accepts, accepted = _quick_and_check(quick.charge_in_reach, state, action)
        plain = (
            not options
            and not charger.prone
            and not charger.effects
            and any(w.melee for w in charger.weapons())
            and target.square in near
            and field.border(charger.square, target.square) is None
            and target.ran_from != charger.square
            and not (target.hide_cr is not None and target.hidden_from[charger.side] == "unaware")
        )
        if plain:
            assert quick_accepts == accepted
            found[accepted] += 1
    assert found[True] and found[False]  # both asked
