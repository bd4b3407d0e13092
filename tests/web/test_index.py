"""The tables' index is paged (the last changed first, 50 a page, with links to the next
and previous pages) and filtered by name, whatever the number of tables."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.webtools import Web, text_of

from fracas.web.gm import PAGE_SIZE


def names(page: str) -> list[str]:
    return re.findall(r'<td><a href="/gm/t/([^"]+)">', page)


def link(page: str, rel: str) -> str | None:
    found = re.search(rf'<a rel="{rel}" href="([^"]+)"', page)
    return text_of(found.group(1)) if found else None


def test_the_index_pages_through_every_table_once(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'tables.db'}")
    for n in range(PAGE_SIZE + 12):
        web.store.create(f"duel-{n:03d}", "heimr", {}, title=f"Duel {n}")
    web.store.create("ford", "classic", {})
    first = web.gm.get("/gm/").text
    assert len(names(first)) == PAGE_SIZE
    assert names(first)[0] == "ford"  # the last changed first
    assert f"1–{PAGE_SIZE} of {PAGE_SIZE + 13} tables" in first
    assert link(first, "prev") is None
    following = link(first, "next")
    assert following == f"/gm/?start={PAGE_SIZE}"
    second = web.gm.get(following).text
    assert link(second, "next") is None and link(second, "prev") == "/gm/?start=0"
    seen = names(first) + names(second)
    assert sorted(seen) == sorted(t.name for t in web.store.tables()) and len(set(seen)) == 63
    filtered = web.gm.get("/gm/?name=DUEL-00").text
    assert names(filtered) == [f"duel-{n:03d}" for n in range(9, -1, -1)]
    assert web.gm.get("/gm/?name=nothing-like-it").status_code == 200
    assert "No table's name contains" in text_of(web.gm.get("/gm/?name=nothing-like-it").text)
    assert names(web.gm.get("/gm/?start=100000").text) == names(web.gm.get("/gm/?start=62").text)
    assert web.gm.get("/gm/?start=-5").status_code == 200
    assert web.gm.get("/gm/?start=many").status_code == 400
