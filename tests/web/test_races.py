"""A change that loses the race to another process (the store's ConflictError) answers 409
with the same "already applied or changed meanwhile" words as a stale form, never 400:
an action, an undo, a redo, and opening or closing a posted round. The other process's
change is kept, and nothing of the loser's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.web.webtools import Web, error_of, text_of

from fracas.engine import Action
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.deps import ALREADY

ELSEWHERE = "gm note text='from another process'"
STORED = str(Action.parse(ELSEWHERE))  # as the store keeps it


def race(web: Web, url: str, method: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the web's store lose its next ``method`` call: another process (another store
    on the same database) pushes an action between the page's hold and its commit. The
    list says what the other process pushed."""
    real: Callable[..., Any] = getattr(web.store, method)
    pushed: list[str] = []

    def losing(*args: Any, **kwargs: Any) -> Any:
        if not pushed:
            other = Table.resume(Store.open(url, migrate=False), "t")
            other.push(ELSEWHERE)
            pushed.append(ELSEWHERE)
        return real(*args, **kwargs)

    monkeypatch.setattr(web.store, method, losing)
    return pushed


def stored(web: Web) -> list[str]:
    record = web.store.table("t")
    return [a.action for a in web.store.actions(record.id, upto=record.head)]


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    web.start("heimr/duel.yaml")
    return web


def test_an_action_that_loses_the_race_answers_409(
    web: Web, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    race(web, db_url, "append", monkeypatch)
    status, page = web.act("gm begin")
    assert status == 409
    assert error_of(page, "action") == ALREADY
    assert "changed meanwhile" in ALREADY and "already applied" in ALREADY
    assert stored(web) == [STORED]
    assert web.act("gm begin")[0] == 303  # drawn again, it goes through


def test_an_undo_and_a_redo_that_lose_the_race_answer_409(
    web: Web, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert web.act("gm begin")[0] == 303
    assert web.act("end")[0] == 303
    version = str(web.store.table("t").version)
    with monkeypatch.context() as patch:
        race(web, db_url, "move_head", patch)
        status, page = web.post("/gm/t/t/undo", version=version)
    assert status == 409 and ALREADY in text_of(page)
    assert stored(web)[-1] == STORED
    assert web.post("/gm/t/t/undo", version=str(web.store.table("t").version))[0] == 200
    version = str(web.store.table("t").version)
    with monkeypatch.context() as patch:
        race(web, db_url, "move_head", patch)  # the other process's push drops the undone
        status, page = web.post("/gm/t/t/redo", version=version)
    assert status == 409 and ALREADY in text_of(page)
    assert len(stored(web)) == 3 and stored(web)[-1] == STORED


def test_a_posted_round_opened_or_closed_in_a_lost_race_answers_409(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = Web(db_url)
    web.start("classic/ford.yaml", seed=14)
    with monkeypatch.context() as patch:
        race(web, db_url, "append", patch)  # opening the round pushes its opening action
        status, page = web.post("/gm/t/t/round/open", hours="")
    assert status == 409 and error_of(page, "round") == ALREADY
    assert web.post("/gm/t/t/round/open", hours="")[0] == 303
    page = web.page()
    closing = page.split('name="round" value="', 1)[1].split('"', 1)[0]
    with monkeypatch.context() as patch:
        race(web, db_url, "append", patch)
        status, page = web.post("/gm/t/t/round/close", round=closing)
    assert status == 409 and error_of(page, "round") == ALREADY


def test_a_player_s_action_that_loses_the_race_answers_409(
    web: Web, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert web.act("gm begin")[0] == 303
    table = Table.resume(web.store, "t")
    mover = table.encounter.to_move
    assert mover is not None
    link = web.link(str(table._owner(mover)), may_act=True)
    player = web.client()
    version = str(web.store.table("t").version)
    race(web, db_url, "append", monkeypatch)
    answer = player.post(f"{link}/act", data={"action": "end", "version": version})
    assert answer.status_code == 409, error_of(answer.text, "action")
    assert (error_of(answer.text, "action") or "").startswith(ALREADY)
    assert stored(web)[-1] == STORED
