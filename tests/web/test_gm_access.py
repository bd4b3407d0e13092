"""The game master's access: a session cookie that is not the token and expires, kept in
the store across restarts, a CSRF token per session, sign-out, a new GM link revoking
the old one and every session, and what a server start prints."""

from __future__ import annotations

import re
import warnings
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update
from tests.web.servers import GM_TOKEN, running
from tests.web.webtools import EXAMPLES, csrf_of
from typer.testing import CliRunner

from fracas.cli import app as cli
from fracas.table import encounterfile
from fracas.table.access import IDLE, LIFETIME, GmAccess, GmSessionRow
from fracas.table.store import Store, utc_now
from fracas.table.table import Table
from fracas.web.app import create_app
from fracas.web.deps import GM_COOKIE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2; httpx works
    from fastapi.testclient import TestClient


@pytest.fixture
def store(db_url: str) -> Store:
    store = Store.open(db_url)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    return store


def signed_in(client: TestClient, token: str = GM_TOKEN) -> httpx.Response:
    response = client.get(f"/gm/login?token={token}", follow_redirects=False)
    assert response.status_code == 303, response.text
    return response


def test_the_cookie_is_a_session_not_the_token_and_expires(store: Store) -> None:
    client = TestClient(create_app(store, GM_TOKEN))
    cookie = signed_in(client).headers["set-cookie"]
    session_id = client.cookies[GM_COOKIE]
    assert GM_TOKEN not in cookie and len(session_id) >= 43
    attributes = cookie.lower()
    assert "httponly" in attributes and "samesite=strict" in attributes
    assert "secure" not in attributes  # plain http: a Secure cookie would never come back
    assert f"max-age={int(LIFETIME.total_seconds())}" in attributes
    assert "expires=" in attributes
    assert client.get("/gm/").status_code == 200
    # The store keeps neither the token nor the session id, only their hashes.
    with store.engine.connect() as connection:
        dumped = "\n".join(
            str(row)
            for table in ("fracas_server", "fracas_gm_sessions")
            for row in connection.exec_driver_sql(f"SELECT * FROM {table}")
        )
    assert GM_TOKEN not in dumped and session_id not in dumped


def test_the_cookie_is_secure_under_an_https_public_url(store: Store) -> None:
    web = create_app(store, GM_TOKEN, public="https://table.example.org")
    client = TestClient(web, base_url="https://table.example.org")
    assert "secure" in signed_in(client).headers["set-cookie"].lower()


def test_an_expired_session_is_refused_with_a_page_saying_what_to_open(store: Store) -> None:
    client = TestClient(create_app(store, GM_TOKEN))
    signed_in(client)
    assert client.get("/gm/t/t").status_code == 200
    with store.session() as s:
        s.execute(update(GmSessionRow).values(seen=utc_now() - IDLE - timedelta(minutes=1)))
    refused = client.get("/gm/t/t")
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("text/html")
    assert "GM link" in refused.text and "gm-link --new" in refused.text
    # Signing in again opens a new session (and clears those that ended unseen); one
    # used every day still ends after LIFETIME.
    other = TestClient(client.app)
    signed_in(other)
    with store.session() as s:
        s.execute(update(GmSessionRow).values(seen=utc_now() - IDLE - timedelta(minutes=1)))
    signed_in(client)
    with store.engine.connect() as connection:
        count = connection.exec_driver_sql("SELECT COUNT(*) FROM fracas_gm_sessions").scalar()
    assert count == 1
    assert client.get("/gm/").status_code == 200
    with store.session() as s:
        s.execute(
            update(GmSessionRow).values(
                created=utc_now() - LIFETIME - timedelta(minutes=1), seen=utc_now()
            )
        )
    assert client.get("/gm/").status_code == 403


def test_a_session_slides_with_use(store: Store) -> None:
    access = GmAccess(store)
    access.set_token(GM_TOKEN)
    signed = access.sign_in(GM_TOKEN)
    assert signed is not None
    session_id, session = signed
    later = utc_now() + IDLE - timedelta(days=1)
    used = access.session(session_id, now=later)
    assert used is not None and used.ends > session.ends
    assert access.session(session_id, now=later + IDLE - timedelta(days=1)) is not None
    assert access.session(session_id, now=later + 2 * IDLE) is None


def test_every_session_has_its_own_csrf_token(store: Store) -> None:
    web = create_app(store, GM_TOKEN)
    first, second = TestClient(web), TestClient(web)
    signed_in(first)
    signed_in(second)
    first_csrf = csrf_of(first.get("/gm/t/t").text)
    second_csrf = csrf_of(second.get("/gm/t/t").text)
    assert first_csrf and second_csrf and first_csrf != second_csrf
    fields = {"action": "gm begin", "version": "0"}
    crossed = second.post("/gm/t/t/act", data={**fields, "csrf": first_csrf})
    assert crossed.status_code == 403
    done = second.post("/gm/t/t/act", data={**fields, "csrf": second_csrf}, follow_redirects=False)
    assert done.status_code == 303


def test_a_gm_link_opened_from_another_site_moves_on_from_a_page_of_this_one(
    store: Store,
) -> None:
    """A redirect would stay cross-site, and the SameSite=Strict cookie would not follow."""
    client = TestClient(create_app(store, GM_TOKEN))
    opened = client.get(
        f"/gm/login?token={GM_TOKEN}",
        headers={"Sec-Fetch-Site": "cross-site"},
        follow_redirects=False,
    )
    assert opened.status_code == 200 and 'http-equiv="refresh"' in opened.text
    assert GM_COOKIE in opened.headers["set-cookie"]
    assert client.get("/gm/").status_code == 200


def test_signing_in_by_form_and_out(store: Store) -> None:
    web = create_app(store, GM_TOKEN)
    client = TestClient(web)
    form = client.get("/gm/login")
    assert form.status_code == 200 and 'name="token"' in form.text
    assert client.post("/gm/login", data={"token": "a wrong guess"}).status_code == 403
    signed = client.post("/gm/login", data={"token": GM_TOKEN}, follow_redirects=False)
    assert signed.status_code == 303
    session_id = client.cookies[GM_COOKIE]
    csrf = csrf_of(client.get("/gm/").text)
    assert 'action="/gm/logout"' in client.get("/gm/").text
    assert client.post("/gm/logout", data={"csrf": "forged"}).status_code == 403
    out = client.post("/gm/logout", data={"csrf": csrf})
    assert out.status_code == 200 and "signed out" in out.text
    # The old cookie, sent again, opens nothing: the session ended in the store.
    again = TestClient(web, cookies={GM_COOKIE: session_id})
    assert again.get("/gm/").status_code == 403
    # A form posted from another site cannot sign anyone in.
    foreign = client.post(
        "/gm/login", data={"token": GM_TOKEN}, headers={"Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403


def test_a_new_gm_link_revokes_the_old_token_and_every_session(store: Store) -> None:
    web = create_app(store)  # the store's own token, set below by --gm-token's hash
    GmAccess(store).set_token(GM_TOKEN)
    client = TestClient(web)
    signed_in(client)
    assert client.get("/gm/").status_code == 200
    url = str(store.engine.url)
    result = CliRunner().invoke(cli, ["gm-link", "--new", "--db", url])
    assert result.exit_code == 0, result.output
    found = re.search(r"/gm/login\?token=(\S+)", result.stdout)
    assert found and found.group(1) != GM_TOKEN
    assert client.get("/gm/").status_code == 403  # the session ended
    assert client.get(f"/gm/login?token={GM_TOKEN}").status_code == 403  # the old token
    signed_in(client, found.group(1))
    assert client.get("/gm/").status_code == 200
    # Without --new, it says why it cannot show the link, and what to do.
    shown = CliRunner().invoke(cli, ["gm-link", "--db", url])
    assert shown.exit_code != 0
    assert "only as a hash" in shown.stderr and "gm-link --new" in shown.stderr


def test_the_first_start_prints_the_link_and_later_ones_keep_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(options))
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    runner = CliRunner()
    first = runner.invoke(cli, ["serve", "--db", url, "--port", "8123"])
    assert first.exit_code == 0, first.output
    found = re.search(r"http://127\.0\.0\.1:8123/gm/login\?token=(\S+)", first.stdout)
    assert found
    token = found.group(1)
    second = runner.invoke(cli, ["serve", "--db", url, "--public-url", "https://t.example.org"])
    assert second.exit_code == 0, second.output
    assert token not in second.stdout and "unchanged" in second.stdout
    assert served and all(options["proxy_headers"] is False for options in served)  # type: ignore[index]
    assert GmAccess(Store.open(url)).check(token)
    # gm-link --new gives the address the last start served at.
    renewed = runner.invoke(cli, ["gm-link", "--new", "--db", url])
    assert "https://t.example.org/gm/login?token=" in renewed.stdout
    # --gm-token sets it (its hash) and shows it, being given.
    chosen = runner.invoke(cli, ["serve", "--db", url, "--gm-token", GM_TOKEN])
    assert f"token={GM_TOKEN}" in chosen.stdout
    assert GmAccess(Store.open(url)).check(GM_TOKEN)
    assert runner.invoke(cli, ["serve", "--db", url, "--gm-token", "short"]).exit_code != 0
    bad = runner.invoke(cli, ["serve", "--db", url, "--public-url", "ftp://x"])
    assert bad.exit_code != 0 and "--public-url" in bad.stderr
    bad = runner.invoke(cli, ["serve", "--db", url, "--trusted-proxy", "proxy.lan"])
    assert bad.exit_code != 0 and "--trusted-proxy" in bad.stderr


def test_a_restart_keeps_the_game_master_signed_in(db_url: str) -> None:
    db = db_url
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    store.engine.dispose()
    with running(db) as server:
        gm = server.gm()
        assert gm.get("/gm/t/t").status_code == 200
        session_id = gm.cookies[GM_COOKIE]
        csrf = csrf_of(gm.get("/gm/t/t").text)
    with running(db) as server:
        client = httpx.Client(base_url=server.url, timeout=30, cookies={GM_COOKIE: session_id})
        page = client.get("/gm/t/t")
        assert page.status_code == 200
        assert csrf_of(page.text) == csrf  # the session's own, kept in the store
        done = client.post("/gm/t/t/act", data={"csrf": csrf, "version": "0", "action": "gm begin"})
        assert done.status_code in (200, 303)
        assert Store.open(db).table("t").version == 1


def test_servers_starting_at_once_on_a_new_store_agree_on_one_token(tmp_path: Path) -> None:
    import threading

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    Store.open(url).engine.dispose()
    start = threading.Barrier(4)
    made: list[str | None] = []
    errors: list[BaseException] = []

    def serve(given: str | None) -> None:
        access = GmAccess(Store.open(url, migrate=False))
        start.wait()
        try:
            made.append(access.set_token(given) and given if given else access.first_token())
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=serve, args=(g,)) for g in (GM_TOKEN, GM_TOKEN, None, None)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    access = GmAccess(Store.open(url))
    first = [token for token in made if token and token != GM_TOKEN]
    assert access.check(GM_TOKEN) or any(access.check(token) for token in first)


def test_serve_hands_its_options_to_one_process_or_to_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process gets the app itself; with --workers each process makes its app from
    FRACAS_SERVE_CONFIG, and both carry the public URL, the trusted proxies and the
    bound on live pages from one address."""
    import uvicorn

    from fracas.cli import serve
    from fracas.web.app import CONFIG_ENV, ServeConfig

    served: list[tuple[object, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append((app, options)))

    def workers(config: uvicorn.Config) -> None:
        options = {k: getattr(config, k) for k in ("workers", "factory", "proxy_headers")}
        served.append((config.app, options))

    monkeypatch.setattr(serve, "_run_workers", workers)
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    common = ["--public-url", "https://t.example.org", "--trusted-proxy", "10.0.0.1"]
    common += ["--streams-per-address", "7"]
    runner = CliRunner()
    one = runner.invoke(cli, ["serve", "--db", url, *common])
    assert one.exit_code == 0, one.output
    app, options = served.pop()
    assert app.state.hub.settings.per_address == 7  # type: ignore[attr-defined]
    assert app.state.public_url == "https://t.example.org"  # type: ignore[attr-defined]
    many = runner.invoke(cli, ["serve", "--db", url, "--workers", "2", *common])
    assert many.exit_code == 0, many.output
    target, options = served.pop()
    assert target == "fracas.web.app:app_from_env" and options["workers"] == 2
    assert options["factory"] is True and options["proxy_headers"] is False
    import os

    config = ServeConfig.from_json(os.environ[CONFIG_ENV])
    assert config.gm_token is None  # settled once, by serve, before the processes start
    assert config.public == "https://t.example.org"
    assert config.trusted_proxies == ("10.0.0.1",)
    assert config.live.per_address == 7
    assert runner.invoke(cli, ["serve", "--db", url, "--streams-per-address", "0"]).exit_code


def test_serve_workers_share_a_socket_without_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    """With --workers the processes share one listening socket that uvicorn makes with
    protocol 0, so asyncio does not set TCP_NODELAY on its connections: serve sets it on
    the socket (its connections inherit it), or a reply written in two pieces would wait
    for the client's delayed acknowledgement."""
    import socket

    import uvicorn
    import uvicorn.supervisors

    from fracas.cli import serve

    shared: list[socket.socket] = []

    class Started:
        def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
            shared.extend(sockets)

        def run(self) -> None:
            pass

    monkeypatch.setattr(uvicorn.supervisors, "Multiprocess", Started)
    config = uvicorn.Config("fracas.web.app:app_from_env", host="127.0.0.1", port=0, workers=2)
    serve._run_workers(config)
    (sock,) = shared
    try:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        sock.close()
