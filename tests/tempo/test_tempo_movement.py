"""Movement and threatened areas (T-MOVE-1) and the turn order rolled (T-ROUND-1), worked
by hand from seed 003.

Ylva (north) against Astrid and Brand (south), melee 2, Arming swords (d6+2). Reach is
the abstract "area threatened": with ``reach`` in the encounter file only the pairs it
names start within each other's reach (docs/decisions.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from fracas.cli import app

from tempo_builders import State, encounter, kinds, pool, refused, setup, sheet, who

YLVA = sheet("ylva", "north", melee=2, movement=1)
ASTRID = sheet("astrid", "south", melee=2)
BRAND = sheet("brand", "south", melee=2, movement=1)
#: Ylva within Astrid's reach; Brand further off.
APART = {"ylva": {"reach": ["astrid"]}, "brand": {"reach": []}}


def three(faces: list[int] | None = None, **ylva: object) -> State:
    return encounter([{**YLVA, **ylva}, ASTRID, BRAND], faces or [], place=APART)


def reach(enc: State, cid: str) -> set[str]:
    return set(who(enc, cid).reach)


@pytest.mark.rule("T-MOVE-1")
def test_a_melee_attack_and_a_counter_attack_need_reach() -> None:
    enc = three()
    err = refused(enc, "ylva melee-attack brand")
    assert err.rule == "T-MOVE-1" and "not within Ylva's reach" in str(err)
    enc.push("ylva move")  # moving about, closing with nobody
    err = refused(enc, "brand counter-attack")
    assert err.rule == "T-MOVE-1" and "only an opponent within reach" in str(err)
    enc.push("astrid pass")  # Astrid threatens Ylva's square: she could have struck
    assert kinds(enc, "outcome")[0]["outcome"] == "Success"


@pytest.mark.rule("T-MOVE-1")
def test_an_unopposed_move_closes_and_leaves_as_declared() -> None:
    enc = three()
    enc.push("ylva move to=brand from=astrid")
    enc.push("astrid pass")
    enc.push("brand pass")  # the one closed upon threatens the area it enters
    assert reach(enc, "ylva") == {"brand"}
    assert reach(enc, "astrid") == set() and reach(enc, "brand") == {"ylva"}
    assert refused(enc, "ylva move to=brand").rule == "T-MOVE-1"  # within reach already


@pytest.mark.rule("T-MOVE-1", "T-ACT-2")
def test_a_move_hit_on_its_way_stops_at_the_first_valid_square() -> None:
    # Astrid's Counter-Attack: pool 1 + 2 = 3 against the Move's 0: Critical Hit, d6 4 + 2.
    # The Move fails and Ylva is hit: she stops at once, still within Astrid's reach and
    # not reaching Brand.
    enc = three(pool(1) + [4])
    enc.push("ylva move to=brand from=astrid")
    enc.push("astrid counter-attack")
    assert who(enc, "ylva").hp == 12 - 6
    assert reach(enc, "ylva") == {"astrid"}
    assert any(e.kind == "stopped" for e in enc.log[-1].events)


@pytest.mark.rule("T-MOVE-1")
def test_a_failed_move_not_hit_goes_on_freely() -> None:
    # Ylva's Combat Defence 5: Astrid's 3 misses; the Move still fails (0 - 3) but no hit
    # stops her: she moves freely up to her Base Combat Movement.
    enc = three(pool(1), combat_defence=5)
    enc.push("ylva move to=brand from=astrid")
    enc.push("astrid counter-attack")
    assert [o["outcome"] for o in kinds(enc, "outcome")] == ["Failure", "Miss"]
    assert reach(enc, "ylva") == {"brand"} and who(enc, "ylva").hp == 12


@pytest.mark.rule("T-MOVE-1")
def test_a_combat_move_edges_one_way_and_surges_past_on_a_critical() -> None:
    # Success (pool 0 + movement 1 = 1): one square, so only to= applies.
    enc = three(pool(0))
    enc.push("ylva combat-move to=brand from=astrid")
    enc.push("astrid pass")
    enc.push("brand pass")
    assert kinds(enc, "outcome")[0]["outcome"] == "Success"
    assert reach(enc, "ylva") == {"astrid", "brand"}
    # Critical Success (pool 9 + 1 = 10): she surges past Astrid's guard to Brand.
    enc = three(pool(9))
    enc.push("ylva combat-move to=brand from=astrid")
    enc.push("astrid pass")
    enc.push("brand pass")
    assert kinds(enc, "outcome")[0]["outcome"] == "Critical Success"
    assert reach(enc, "ylva") == {"brand"}
    # Failure (no movement skill, pool 0): she does not move.
    enc = encounter([YLVA | {"skills": {}}, ASTRID, BRAND], pool(0), place=APART)
    enc.push("ylva combat-move to=brand")
    enc.push("astrid pass")
    enc.push("brand pass")
    assert reach(enc, "ylva") == {"astrid"}


@pytest.mark.rule("T-MOVE-1", "T-ACT-2")
def test_retreat_edges_away_or_makes_a_hasty_withdrawal() -> None:
    hrolf = sheet("hrolf", "north", melee=2)
    place = {"ylva": {"reach": []}, "hrolf": {"reach": ["brand"]}, "brand": {"reach": []}}
    # Brand retreats (pool 0 + 1 = 1: Success) as Ylva closes: out of her reach only.
    enc = encounter([YLVA, hrolf, BRAND], pool(0), place=place)
    enc.push("ylva move to=brand")
    enc.push("brand retreat")
    assert reach(enc, "brand") == {"hrolf"} and reach(enc, "ylva") == set()
    # Pool 9 + 1 = 10: a hasty withdrawal, out of every opponent's reach.
    enc = encounter([YLVA, hrolf, BRAND], pool(9), place=place)
    enc.push("ylva move to=brand")
    enc.push("brand retreat")
    assert reach(enc, "brand") == set() and reach(enc, "hrolf") == set()
    # Only an opponent threatening the area retreats: Brand is neither closed upon nor near.
    enc = encounter(
        [YLVA, hrolf, ASTRID, BRAND], [], place={**place, "astrid": {"reach": ["ylva"]}}
    )
    enc.push("ylva move from=astrid")
    assert refused(enc, "brand retreat").rule == "T-MOVE-1"


@pytest.mark.rule("T-MOVE-1")
def test_movement_options_are_checked() -> None:
    enc = three()
    assert "belong to a movement" in str(refused(enc, "ylva melee-attack astrid to=brand"))
    assert "should be an opponent" in str(refused(enc, "ylva move to=ylva"))
    assert "not within Brand's reach" in str(refused(enc, "ylva move from=brand"))
    with pytest.raises(Exception, match="is on its side"):
        encounter([YLVA, ASTRID, BRAND], place={"astrid": {"reach": ["brand"]}})


@pytest.mark.rule("T-ROUND-1")
def test_the_turn_order_rolled() -> None:
    rolled = {"round": {"initiative": "rolled"}}
    # Written order Astrid (initiative 2), Ylva, Brand; rolled in that order: Astrid pool
    # 3 + 2 = 5, Ylva pool 0, Brand pool 5: a tie keeps the written order.
    enc = encounter(
        [YLVA, ASTRID, BRAND],
        pool(3) + pool(0) + pool(5),
        place={"astrid": {"initiative": 2}},
        campaign=rolled,
    )
    assert enc.ruleset.to_move(enc.state) == "gm"
    assert refused(enc, "ylva move").rule == "T-ROUND-1"
    enc.push("gm initiative")
    assert enc.state.order == ["astrid", "brand", "ylva"]
    assert enc.ruleset.to_move(enc.state) == "astrid"
    assert refused(enc, "gm initiative").rule == "T-ROUND-1"  # once, before the first turn
    written = encounter([YLVA, ASTRID])
    assert refused(written, "gm initiative").rule == "T-ROUND-1"  # the file's order stands


def _file(tmp_path: Path) -> Path:
    data = setup([YLVA, ASTRID, BRAND], APART, {"round": {"initiative": "rolled"}})
    campaign = tmp_path / "campaign.yaml"
    campaign.write_text(yaml.safe_dump(data["campaign"]), encoding="utf-8")
    data.update(ruleset="tempo", campaign="campaign.yaml")
    path = tmp_path / "skirmish.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.rule("T-MOVE-1", "T-ROUND-1")
def test_rolled_order_and_movement_at_the_terminal(tmp_path: Path) -> None:
    script = tmp_path / "play.script"
    script.write_text("gm initiative\nastrid move from=ylva\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["play", str(_file(tmp_path)), "--script", str(script), "--seed", "3"]
    )
    assert result.exit_code == 0, result.stdout
    assert "the turn order: Astrid 9, Ylva 7, Brand 2" in result.stdout
    assert "Astrid declares Move away from Ylva" in result.stdout
