"""A table whose ruleset is no longer installed, or was made with another major version
of it, says so in one line on every page (409), for the GM and the players alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import update
from tests.web.webtools import Web, text_of

from fracas.table.store import TableRow


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"ruleset": "gone"}, "table 't': unknown ruleset 'gone'"),
        ({"ruleset_version": "9.0"}, "table 't': made with heimr 9.0, but heimr"),
    ],
)
def test_a_table_whose_rules_went_or_changed_says_so(
    change: dict[str, str], says: str, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    web = Web(url)
    web.start("heimr/duel.yaml")
    link = web.link("raiders")
    with web.store.session() as s:
        s.execute(update(TableRow).values(**change))
    fresh = Web(url)  # a server started afresh, with no table held in memory
    player = fresh.client()
    for client, path in [
        (fresh.gm, "/gm/t/t"),
        (fresh.gm, "/gm/t/t/screen.json"),
        (fresh.gm, "/gm/t/t/export.json"),
        (player, link),
        (player, link + "/screen.json"),
        (player, link + "/live?v=-1"),
    ]:
        response = client.get(path)
        assert response.status_code == 409, (path, response.text[:200])
        assert says in text_of(response.text), (path, response.text[:300])
