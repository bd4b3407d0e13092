"""Downloads under any name: a table, campaign or side named outside Latin-1 is saved under
its own name (RFC 6266's ``filename*``), with an ASCII stand-in for old browsers."""

from __future__ import annotations

from pathlib import Path

from tests.web.webtools import Web


def test_a_table_named_outside_latin_1_downloads_under_its_name(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'tables.db'}")
    web.start("heimr/duel.yaml", name="ńame")
    web.page("ńame")
    save = web.gm.get("/gm/t/ńame/export.json")
    assert save.status_code == 200
    assert save.headers["content-disposition"] == (
        "attachment; filename=\"name.json\"; filename*=UTF-8''%C5%84ame.json"
    )
    assert save.json()["ruleset"] == "heimr"
    link = web.link("raiders", name="ńame")
    side = web.client().get(f"{link}/export.json")
    assert side.status_code == 200
    assert "filename*=UTF-8''%C5%84ame-raiders.json" in side.headers["content-disposition"]


def test_a_plain_name_keeps_the_plain_header(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'tables.db'}")
    web.start("heimr/duel.yaml", name="duel")
    web.page("duel")
    save = web.gm.get("/gm/t/duel/export.json")
    assert save.headers["content-disposition"] == 'attachment; filename="duel.json"'
