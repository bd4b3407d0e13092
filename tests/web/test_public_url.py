"""Players anywhere: links carry ``--public-url``, a form's Origin must be that address,
and a reverse proxy's forwarded headers are believed from ``--trusted-proxy`` only."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from tests.web.servers import GM_TOKEN, running
from tests.web.webtools import EXAMPLES, csrf_of

from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2; httpx works
    from fastapi.testclient import TestClient

PUBLIC = "https://table.example.org"
PROXY = ("10.0.0.5", 41000)
STRANGER = ("192.0.2.9", 41000)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store.open(f"sqlite:///{tmp_path / 'tables.db'}")
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    return store


def gm_client(
    store: Store,
    public: str | None = None,
    trusted: Sequence[str] = (),
    client: tuple[str, int] = ("testclient", 50000),
    headers: dict[str, str] | None = None,
    base: str = "http://testserver",
) -> TestClient:
    web = create_app(store, GM_TOKEN, public=public, trusted_proxies=trusted)
    base = public.rstrip("/") if public else base
    gm = TestClient(web, base_url=base, client=client, headers=headers)
    assert gm.get(f"/gm/login?token={GM_TOKEN}", follow_redirects=False).status_code == 303
    return gm


def new_link(gm: TestClient) -> str:
    csrf = csrf_of(gm.get("/gm/t/t").text)
    page = gm.post("/gm/t/t/seats", data={"csrf": csrf, "side": "raiders"})
    assert page.status_code == 200, page.text
    found = re.search(r'id="new-link" href="([^"]+)"', page.text)
    assert found
    return found.group(1)


def test_player_links_carry_the_public_url(store: Store) -> None:
    link = new_link(gm_client(store, public=PUBLIC + "/"))
    assert link.startswith(f"{PUBLIC}/p/")
    assert new_link(gm_client(store)).startswith("http://testserver/p/")


def test_a_form_must_come_from_the_public_url(store: Store) -> None:
    gm = gm_client(store, public=PUBLIC)
    csrf = csrf_of(gm.get("/gm/t/t").text)
    fields = {"csrf": csrf, "version": "0", "action": "gm begin"}
    for origin in ("http://testserver", "https://evil.example", "http://table.example.org"):
        refused = gm.post("/gm/t/t/act", data=fields, headers={"Origin": origin})
        assert refused.status_code == 403, origin
    assert store.table("t").version == 0
    done = gm.post(
        "/gm/t/t/act",
        data=fields,
        headers={"Origin": "https://TABLE.example.org:443"},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert store.table("t").version == 1


FORWARDED_X = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "table.example.org"}
FORWARDED = {"Forwarded": 'for="198.51.100.7:5000";proto=https;host=table.example.org'}


@pytest.mark.parametrize("headers", [FORWARDED_X, FORWARDED], ids=["x-forwarded", "forwarded"])
def test_forwarded_headers_are_believed_from_a_trusted_proxy_only(
    store: Store, headers: dict[str, str]
) -> None:
    # (The clients reach the app over https themselves: the GM's cookie is Secure when
    # the trusted proxy says https, and would not come back over plain http.)
    over = {"headers": headers, "base": "https://testserver"}
    trusted = gm_client(store, trusted=["10.0.0.0/8"], client=PROXY, **over)  # type: ignore[arg-type]
    assert new_link(trusted).startswith(f"{PUBLIC}/p/")
    stranger = gm_client(store, trusted=["10.0.0.0/8"], client=STRANGER, **over)  # type: ignore[arg-type]
    assert new_link(stranger).startswith("https://testserver/p/")
    nobody = gm_client(store, client=PROXY, **over)  # type: ignore[arg-type]
    assert new_link(nobody).startswith("https://testserver/p/")


def test_behind_a_trusted_https_proxy_the_cookie_is_secure_and_origin_is_the_forwarded_host(
    store: Store,
) -> None:
    web = create_app(store, GM_TOKEN, trusted_proxies=["10.0.0.5"])
    proxy = TestClient(web, base_url="https://testserver", client=PROXY, headers=FORWARDED_X)
    login = proxy.get(f"/gm/login?token={GM_TOKEN}", follow_redirects=False)
    assert "secure" in login.headers["set-cookie"].lower()
    found = re.match(r"fracas_gm=([^;]+);", login.headers["set-cookie"])
    assert found
    session = found.group(1)
    gm = TestClient(
        web,
        base_url="https://testserver",
        client=PROXY,
        headers=FORWARDED_X,
        cookies={"fracas_gm": session},
    )
    csrf = csrf_of(gm.get("/gm/t/t").text)
    fields = {"csrf": csrf, "version": "0", "action": "gm begin"}
    assert (
        gm.post("/gm/t/t/act", data=fields, headers={"Origin": "http://testserver"}).status_code
        == 403
    )
    done = gm.post("/gm/t/t/act", data=fields, headers={"Origin": PUBLIC}, follow_redirects=False)
    assert done.status_code == 303


def test_a_forged_chain_names_the_address_the_trusted_proxy_saw(store: Store) -> None:
    """A client may prepend anything to X-Forwarded-For; the address the trusted proxy
    appended is the one believed."""
    web = create_app(store, GM_TOKEN, trusted_proxies=["10.0.0.0/8"])

    @web.get("/whoami")
    def whoami(request: Request) -> PlainTextResponse:  # a probe for this test only
        return PlainTextResponse(request.client.host if request.client else "")

    proxy, stranger = TestClient(web, client=PROXY), TestClient(web, client=STRANGER)
    chain = {"X-Forwarded-For": "127.0.0.1, 203.0.113.4, 10.0.0.9"}
    assert proxy.get("/whoami", headers=chain).text == "203.0.113.4"
    forwarded = {"Forwarded": 'for=127.0.0.1, for="203.0.113.4:443"'}
    assert proxy.get("/whoami", headers=forwarded).text == "203.0.113.4"
    assert stranger.get("/whoami", headers={"X-Forwarded-For": "10.0.0.1"}).text == STRANGER[0]


def test_a_real_server_believes_forwarded_headers_from_its_trusted_proxy_only(
    tmp_path: Path,
) -> None:
    """uvicorn's own reading of the headers (which trusts 127.0.0.1 by default) is off."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    store.engine.dispose()

    def link(url: str) -> str:
        login = httpx.get(f"{url}/gm/login?token={GM_TOKEN}", headers=FORWARDED_X)
        found = re.match(r"fracas_gm=([^;]+);", login.headers["set-cookie"])
        assert found  # sent back by hand: a Secure cookie (https, said the proxy) over http
        cookie = {"Cookie": f"fracas_gm={found.group(1)}"}
        gm = httpx.Client(base_url=url, timeout=30, headers={**FORWARDED_X, **cookie})
        csrf = csrf_of(gm.get("/gm/t/t").text)
        page = gm.post("/gm/t/t/seats", data={"csrf": csrf, "side": "raiders"})
        found = re.search(r'id="new-link" href="([^"]+)"', page.text)
        assert found, page.text[:300]
        return found.group(1)

    with running(db) as server:
        assert link(server.url).startswith(f"{server.url}/p/")
    with running(db, "--trusted-proxy", "127.0.0.1") as server:
        assert link(server.url).startswith(f"{PUBLIC}/p/")
    with running(db, "--public-url", "http://192.168.1.20:8000") as server:
        gm = server.gm()
        page = gm.get("/gm/t/t")
        csrf = csrf_of(page.text)
        made = gm.post(
            "/gm/t/t/seats",
            data={"csrf": csrf, "side": "raiders"},
            headers={"Origin": "http://192.168.1.20:8000"},
        )
        assert 'href="http://192.168.1.20:8000/p/' in made.text
