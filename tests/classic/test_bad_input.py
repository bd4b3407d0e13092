"""Bad input is refused with one clear message: never another exception."""

from __future__ import annotations

import random

from fracas.engine import EngineError, RandomDice

from classic_builders import encounter, sheet

WORDS = {
    "actor": ["gm", "ylva", "orc", "bob", ""],
    "verb": ["attack", "move", "guard", "cast", "power", "draw", "sheathe", "drop", "pick",
             "tactic", "hero", "willpower", "after", "dodge", "done", "retract", "close",
             "open", "condition", "lift", "heal", "wait", "speak", "crawl", "stand", "prone",
             "taunt", "fly"],
    "target": ["", "orc", "ylva", "bob", "Street", "Pub", "arrow", "Sword", "Rope", "mobile",
               "nowhere"],
    "option": ["", "else=orc", "else='move Street'", "else=bob", "trigger='orc move'",
               "trigger=bob", "trigger='orc fly'", "willpower=x", "willpower=3",
               "spend=20", "spend=1 roll=dodge", "use=hits", "use=best", "use=initiative",
               "guard=Street", "guard=Moon", "block=orc", "block=ylva", "cost=full",
               "cost=lots", "name=prone", "name=fear source=orc", "name=fear", "hp=x",
               "seconds=-1", "seconds=12", "with=off", "with=tail", "move=Street"],
}  # fmt: skip


def test_random_actions_are_played_or_refused_clearly() -> None:
    rng = random.Random(7)
    ylva = sheet("ylva", "north", weapons={"Sword": "one-handed", "Bow": "bow"}, main="Sword",
                 carried=["Rope", "Bow"], hero=2)  # fmt: skip
    orc = sheet("orc", "orcs", npc=True)
    enc = encounter([ylva, orc], positions={"Pub": ["Street"], "Street": []})
    enc.dice = RandomDice(3)
    played = 0
    for _ in range(3000):
        words = [rng.choice(WORDS[k]) for k in ("actor", "verb", "target", "option")]
        text = " ".join(w for w in words if w)
        try:
            enc.push(text)
            played += 1
        except EngineError as err:
            assert str(err)
        if enc.is_over():
            enc = encounter([ylva, orc], positions={"Pub": ["Street"], "Street": []})
            enc.dice = RandomDice(played)
    assert played > 100
