"""``make run``'s demo: a table for every example, each page served."""

from __future__ import annotations

from pathlib import Path

from tests.web.webtools import EXAMPLES, Web

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.web.demo import demo_campaigns, demo_tables


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


def test_every_example_campaign_is_in_the_books_with_its_encounters_prepared(
    tmp_path: Path,
) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    made = demo_campaigns(web.store, EXAMPLES)
    campaigns = sorted(path.parent.name for path in EXAMPLES.glob("*/campaign.yaml"))
    assert [name for name in made if "-" not in name] == campaigns
    assert demo_campaigns(web.store, EXAMPLES) == []
    for name in made:
        page = f"/gm/c/{name}" if "-" not in name else f"/gm/prep/encounters/{name}"
        response = web.gm.get(page)
        assert response.status_code == 200, (page, response.text[:200])
    # Every prepared encounter starts as a live table from the sheets as they stand.
    library = Library(web.store, Ledger(web.store))
    for name in made:
        if "-" in name:
            table = library.start(name, f"live-{name}")
            assert table.sides()
