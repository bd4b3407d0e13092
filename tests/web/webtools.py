"""Helpers for the web tests: an app over a store of its own, a client logged in as the
game master, and reading the forms of a page."""

from __future__ import annotations

import html
import re
import warnings
from contextlib import ExitStack
from pathlib import Path

import anyio.from_thread

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2; httpx works
    from fastapi.testclient import TestClient

from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.app import create_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GM_TOKEN = "the-game-master-secret-for-tests"

#: The one event loop (in a thread of its own) the test clients send requests through,
#: opened on first use and closed at the end of the run (tests/conftest.py): a client
#: outside ``with`` would otherwise start a loop and its thread for every request.
_portal: list[anyio.from_thread.BlockingPortal] = []
_portal_stack = ExitStack()


def shared_portal() -> anyio.from_thread.BlockingPortal:
    if not _portal:
        _portal.append(_portal_stack.enter_context(anyio.from_thread.start_blocking_portal()))
    return _portal[0]


def close_portal() -> None:
    _portal.clear()
    _portal_stack.close()


def test_client(app: object) -> TestClient:
    """A client of ``app`` on the shared event loop (``with`` gives it one of its own)."""
    client = TestClient(app)  # type: ignore[arg-type]
    client.portal = shared_portal()
    return client


class Web:
    """An app over a fresh store, and a game master's client."""

    def __init__(self, url: str) -> None:
        self.store = Store.open(url)
        self.app = create_app(self.store, GM_TOKEN)
        self.gm = test_client(self.app)
        assert self.gm.get(f"/gm/login?token={GM_TOKEN}", follow_redirects=False).status_code == 303
        self.csrf = ""

    def start(self, example: str, name: str = "t", seed: int | None = 1) -> Table:
        ruleset, setup, title = encounterfile.load(EXAMPLES / example)
        return Table.start(self.store, name, ruleset, setup, title, seed=seed)

    def client(self) -> TestClient:
        """A client without the GM's cookie (a player's browser)."""
        return test_client(self.app)

    def page(self, name: str = "t") -> str:
        response = self.gm.get(f"/gm/t/{name}")
        assert response.status_code == 200, response.text
        self.csrf = csrf_of(response.text)
        return response.text

    def post(self, path: str, **fields: str | list[str]) -> tuple[int, str]:
        if not self.csrf:
            self.page()
        data = {"csrf": self.csrf, **fields}
        response = self.gm.post(path, data=data, follow_redirects=False)
        return response.status_code, response.text

    def act(self, action: str, name: str = "t", version: int | None = None) -> tuple[int, str]:
        if version is None:
            version = self.store.table(name).version
        return self.post(f"/gm/t/{name}/act", action=action, version=str(version))

    def link(self, side: str, may_act: bool = False, name: str = "t") -> str:
        """A new player link's path for ``side``, opened through the GM's page."""
        fields = {"side": side, **({"may_act": "on"} if may_act else {})}
        status, text = self.post(f"/gm/t/{name}/seats", **fields)
        assert status == 200, text
        found = re.search(r'id="new-link" href="https?://[^/"]+(/p/[^"]+)"', text)
        assert found, "no new link on the page"
        return found.group(1)


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]*)"', page)
    return found.group(1) if found else ""


def version_of(page: str) -> int:
    found = re.search(r'data-version="(\d+)"', page)
    assert found, "no version on the page"
    return int(found.group(1))


def text_of(page: str) -> str:
    """The page as a person reads it and as its markup holds it: tags kept, entities read."""
    return html.unescape(page)


def error_of(page: str, field: str) -> str | None:
    found = re.search(rf'id="{field}-error">([^<]*)<', page)
    return html.unescape(found.group(1)) if found else None


def roll_asked(page: str) -> tuple[str, str, list[int]] | None:
    """The roll a page asks for (its token, its question, the dice's sizes), or ``None``."""
    if 'id="faces-form"' not in page:
        return None
    token = re.search(r'name="pending" value="([^"]*)"', page)
    question = re.search(r'id="faces-form" class="pending">\s*<p>([^<]*)</p>', page)
    assert token and question, "a faces prompt without its token or question"
    text = html.unescape(question.group(1))
    dice = text.rsplit("(", 1)[1].split(")")[0].split(", ")
    return token.group(1), text, [int(m) for d in dice for m in re.findall(r"d(\d+)", d)[:1]]


def waiting_text(page: str) -> str | None:
    """What a page says while an action waits on another's roll."""
    found = re.search(r'<p id="waiting">([^<]*)', page)
    return html.unescape(found.group(1)).strip() if found else None


def rows(field: str, values: dict[str, str]) -> dict[str, str]:
    """A mapping's rows as the character form posts them."""
    found = {}
    for i, (key, value) in enumerate(values.items()):
        found[f"{field}.{i}.key"], found[f"{field}.{i}.value"] = key, value
    return found
