"""The web app in process for the fuzz harnesses and the suite's short fuzz pass (not a
harness itself): a store with every example's campaign, library and a table or two, the
game master's client, and every form its pages show, read from the pages themselves.

:func:`request` turns a seed into one request: a form of the pages (its fields kept,
dropped or filled with hostile values; an upload's file a mutated example), or a page
fetched under a hostile name. :func:`send` sends it; any answer of 500 or more, or any
exception the app raises, is a failure: a person's input is answered in one line.
"""

from __future__ import annotations

import random
import re
import tempfile
import warnings
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GM_TOKEN = "fuzz-the-game-master-token"

#: Values that once broke a page, or might: names in other scripts and confusables, huge
#: and odd numbers, markup, paths, control characters, long text.
HOSTILE = [
    "",
    " ",
    "ńame",
    "ŋorð",
    "ylv\u0430",
    "ｆｏｒｄ",
    "Ильва",
    "ユルヴァ",
    "🙂",
    "a\u200bb",
    "\u202eevil",
    "e\u0301",
    "-1",
    "0",
    str(10**6),
    str(10**9),
    str(10**30),
    "9" * 5000,
    "1e309",
    "NaN",
    "-0",
    "1.5",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%2e%2e%2f",
    "'; DROP TABLE fracas_tables; --",
    "\x00",
    "\x07\x1b[31m",
    "\r\nSet-Cookie: x=1",
    "a" * 300,
    "a " * 5000,
    "ylva attack astrid",
    "gm begin",
    "d20+5",
    "C1P3",
]


@dataclass
class Form:
    """One form of a page: where it posts, whether it uploads, its fields and values."""

    action: str
    method: str
    upload: bool
    fields: dict[str, list[str]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.current = Form(
                a.get("action", ""),
                a.get("method", "get").lower(),
                "multipart" in a.get("enctype", ""),
            )
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag in ("input", "textarea", "button") and a.get("name"):
            if a.get("type") == "file":
                self.current.files.append(a["name"])
            else:
                self.current.fields.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
            self.current.fields.setdefault(self.select, [])
        elif tag == "option" and self.select:
            self.current.fields[self.select].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


def forms_of(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return [
        f
        for f in parser.forms
        if f.method == "post" and f.action.startswith("/") and not f.action.endswith("/logout")
    ]


@dataclass
class Site:
    """The app, the GM's client, a player's link, the forms found and the YAML to upload."""

    client: Any
    player: Any
    forms: list[Form]
    pages: list[str]
    uploads: list[tuple[str, str]]


def site() -> Site:
    """A fresh store in a temporary folder with the examples in it, and the app over it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from fracas.library import Library
    from fracas.table import encounterfile
    from fracas.table.seats import Seats
    from fracas.table.store import Store
    from fracas.table.table import Table
    from fracas.web.app import create_app
    from fracas.web.demo import demo_campaigns

    folder = Path(tempfile.mkdtemp(prefix="fuzz-web-"))
    store = Store.open(f"sqlite:///{folder / 'tables.db'}")
    app = create_app(store, GM_TOKEN)
    client = TestClient(app)
    client.get(f"/gm/login?token={GM_TOKEN}", follow_redirects=False)
    tables = {"duel": "heimr/duel.yaml", "ford": "classic/ford.yaml", "mace": "sides/mace.yaml"}
    for name, example in tables.items():
        ruleset, setup, title = encounterfile.load(EXAMPLES / example)
        Table.start(store, name, ruleset, setup, title, seed=1)
    demo_campaigns(store, EXAMPLES)
    token = Seats(store).open(store.table("duel").id, "raiders", may_act=True)
    player = TestClient(app)
    pages = ["/gm/", "/gm/campaigns", "/gm/prep/", "/gm/prep/battlefields", "/gm/prep/encounters"]
    pages += ["/gm/prep/encounters/new", *(f"/gm/t/{name}" for name in tables)]
    library = Library(store)
    pages += [f"/gm/prep/encounters/{e.name}" for e in library.encounters()[:4]]
    pages += [f"/gm/prep/battlefields/{b.name}" for b in library.battlefields()[:2]]
    for campaign in sorted(p.parent.name for p in EXAMPLES.glob("*/campaign.yaml")):
        pages += [f"/gm/c/{campaign}", f"/gm/c/{campaign}/character"]
    forms: list[Form] = []
    for page in pages:
        response = client.get(page)
        if response.status_code == 200:
            forms += forms_of(response.text)
    player_page = player.get(f"/p/{token}")
    forms += forms_of(player_page.text)
    uploads = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*/*.yaml"))]
    pages += [f"/p/{token}", f"/p/{token}/export.json", "/gm/t/duel/export.json"]
    return Site(client, player, forms, pages, uploads)


def _value(rng: random.Random, given: list[str]) -> str:
    roll = rng.random()
    if given and roll < 0.45:
        return rng.choice(given)
    if roll < 0.8:
        return rng.choice(HOSTILE)
    base = rng.choice(given) if given and given[0] else rng.choice(HOSTILE)
    return base + rng.choice(HOSTILE)


def request(place: Site, seed: int) -> tuple[str, str, dict[str, str], dict[str, Any]]:
    """The request ``seed`` stands for: method, path, form fields and files."""
    from _harness import YAML_SNIPPETS, mutate_text

    rng = random.Random(seed)
    if rng.random() < 0.15 or not place.forms:
        path = rng.choice(place.pages)
        name = quote(rng.choice(HOSTILE), safe="") if rng.random() < 0.9 else rng.choice(HOSTILE)
        name = name if name.isprintable() else quote(name, safe="")
        path = re.sub(r"/(duel|ford|mace|heimr|sides|classic|tempo|diestep)\b", f"/{name}", path)
        return "GET", path, {}, {}
    form = rng.choice(place.forms)
    fields: dict[str, str] = {}
    for key, given in form.fields.items():
        if key == "csrf" and rng.random() < 0.97:
            fields[key] = given[0] if given else ""
        elif rng.random() < 0.9:
            fields[key] = _value(rng, given)
    if rng.random() < 0.1:
        fields[rng.choice(HOSTILE)[:20] or "x"] = rng.choice(HOSTILE)
    files: dict[str, Any] = {}
    for key in form.files:
        filename, text = rng.choice(place.uploads)
        if rng.random() < 0.8:
            text = mutate_text(rng, text, YAML_SNIPPETS + HOSTILE)
        if rng.random() < 0.1:
            filename = rng.choice(HOSTILE)[:60] + ".yaml"
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.05:
            data = b"\xff\xfe" + data
        files[key] = (filename, data, "application/x-yaml")
    return "POST", form.action, fields, files


def send(place: Site, seed: int) -> int:
    """Send the request ``seed`` stands for; ``AssertionError`` on an answer of 500 or more."""
    method, path, fields, files = request(place, seed)
    client = place.player if path.startswith("/p/") else place.client
    if method == "GET":
        response = client.get(path, follow_redirects=False)
    else:
        response = client.post(path, data=fields, files=files or None, follow_redirects=False)
    assert response.status_code < 500, (
        f"{method} {path} {sorted(fields)} answered {response.status_code}: {response.text[:300]}"
    )
    return int(response.status_code)
