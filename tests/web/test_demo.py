"""``make run``'s demo: a table for every example, each page served."""

from __future__ import annotations

from pathlib import Path

from tests.web.webtools import EXAMPLES, Web

from fracas.web.demo import demo_tables


def test_every_example_becomes_a_table_once_and_its_page_renders(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    made = demo_tables(web.store, EXAMPLES)
    encounters = list(EXAMPLES.glob("*/*.script"))
    assert len(made) == len(encounters)
    assert demo_tables(web.store, EXAMPLES) == []
    index = web.gm.get("/gm/").text
    for name in made:
        assert f'href="/gm/t/{name}"' in index
        page = web.page(name)
        assert 'id="live"' in page
        assert web.act("gm begin", name=name)[0] in (303, 400)
        web.page(name)
