"""Where players reach the server: the public address its links carry, the origin a
form must come from, and the forwarded headers of a trusted reverse proxy.

``--public-url`` (``https://table.example.org``) is the address every link carries and
the only ``Origin`` a GM form is taken from. Without it, links carry the address the
request came to, and a form's ``Origin`` must name the request's host.

A reverse proxy says which address and scheme the browser used (``Forwarded``, or
``X-Forwarded-For``/``-Proto``/``-Host``); anyone can send those headers, so they are
read only from the client addresses given with ``--trusted-proxy`` (IPs or networks),
and ignored from everyone else. uvicorn's own reading of them is turned off.

>>> public_url("https://Table.example.org/")
'https://table.example.org'
>>> public_url("ftp://x")
Traceback (most recent call last):
...
ValueError: --public-url: give an http:// or https:// address, such as https://table.example.org
>>> origin_of("https://table.example.org:443")
'https://table.example.org'
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "ForwardedHeaders",
    "link_base",
    "origin_allowed",
    "origin_of",
    "public_url",
    "secure",
    "trusted_networks",
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: What a forwarded host may be: a name or an address, and a port.
HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
DEFAULT_PORTS = {"http": 80, "https": 443}


def public_url(text: str) -> str:
    """The public address, checked and written the one way origins are compared: scheme
    and host in lower case, no default port, no path (fracas is served at a root)."""
    parts = urlsplit(text.strip())
    if parts.scheme.lower() not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(
            "--public-url: give an http:// or https:// address, such as https://table.example.org"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(
            "--public-url: give the address alone (fracas is served at the root of a host, "
            "not under a path)"
        )
    return origin_of(text)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower case, without the scheme's default port."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return ""
    shown = "" if port is None or port == DEFAULT_PORTS.get(scheme) else f":{port}"
    return f"{scheme}://{host}{shown}"


def link_base(request: Request) -> str:
    """The address links carry: ``--public-url``, or the one the request came to."""
    given: str | None = getattr(request.app.state, "public_url", None)
    return given or str(request.base_url).rstrip("/")


def secure(request: Request) -> bool:
    """Whether the browser reaches the server over https (the cookie is then Secure)."""
    return link_base(request).startswith("https://") or request.url.scheme == "https"


def origin_allowed(request: Request) -> bool:
    """Whether a POST's ``Origin`` (when the browser sends one) is this site's: the public
    address when given, else the host the request came to."""
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return True
    given: str | None = getattr(request.app.state, "public_url", None)
    if given:
        return origin_of(origin) == given
    return origin.split("://", 1)[-1] == request.headers.get("host")


def trusted_networks(addresses: Iterable[str]) -> list[Network]:
    """The networks of ``--trusted-proxy`` (an address alone is its own network).

    >>> [str(n) for n in trusted_networks(["127.0.0.1", "10.0.0.0/8", "::1"])]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    """
    networks = []
    for address in addresses:
        try:
            networks.append(ipaddress.ip_network(address.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"--trusted-proxy: {address[:60]!r} is not an IP address or network "
                "(such as 127.0.0.1 or 10.0.0.0/8)"
            ) from None
    return networks


class ForwardedHeaders:
    """ASGI middleware: from a trusted proxy, the client's address, scheme and host as the
    proxy forwards them; from anyone else, the headers are dropped."""

    def __init__(self, app: ASGIApp, trusted: Sequence[Network] = ()) -> None:
        self.app = app
        self.trusted = list(trusted)

    def is_trusted(self, address: str | None) -> bool:
        if not address or not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = dict(scope)
            client = scope.get("client")
            headers = [
                (k, v)
                for k, v in scope["headers"]
                if k not in (b"forwarded", b"x-forwarded-for", b"x-forwarded-proto")
                and k != b"x-forwarded-host"
            ]
            if client and self.is_trusted(client[0]):
                self._apply(scope, headers, _forwarded(scope["headers"]))
            scope["headers"] = headers
        await self.app(scope, receive, send)

    def _apply(
        self, scope: dict[str, Any], headers: list[tuple[bytes, bytes]], hops: list[_Hop]
    ) -> None:
        """Take the hop the nearest untrusted address made: the browser's request as the
        outermost trusted proxy received it."""
        if not hops:
            return
        hop = hops[0]
        for candidate in reversed(hops):
            hop = candidate
            if not self.is_trusted(candidate.client):
                break
        if hop.client:
            scope["client"] = (hop.client, 0)
        if hop.proto in ("http", "https"):
            ws = scope["type"] == "websocket"
            scope["scheme"] = {"http": "ws", "https": "wss"}[hop.proto] if ws else hop.proto
        if hop.host and HOST.fullmatch(hop.host):
            headers[:] = [(k, v) for k, v in headers if k != b"host"]
            headers.append((b"host", hop.host.encode("latin-1")))


class _Hop:
    """One proxy's word: who connected to it, over which scheme, asking for which host."""

    def __init__(self, client: str = "", proto: str = "", host: str = "") -> None:
        self.client, self.proto, self.host = _address(client), proto.lower(), host


def _forwarded(raw: Iterable[tuple[bytes, bytes]]) -> list[_Hop]:
    """The hops of ``Forwarded`` (RFC 7239) when present, else of ``X-Forwarded-*``:
    first the browser's, last the nearest proxy's."""
    headers: dict[bytes, list[str]] = {}
    for name, raw_value in raw:
        headers.setdefault(name, []).append(raw_value.decode("latin-1")[:2000])
    if b"forwarded" in headers:
        hops = []
        for element in ",".join(headers[b"forwarded"]).split(","):
            fields: dict[str, str] = {}
            for pair in element.split(";"):
                key, _, value = pair.partition("=")
                fields[key.strip().lower()] = value.strip().strip('"')
            get = fields.get
            hops.append(_Hop(get("for", ""), get("proto", ""), get("host", "")))
        return hops[:50]

    def listed(name: bytes) -> list[str]:
        return [v.strip() for v in ",".join(headers.get(name, [])).split(",") if v.strip()][:50]

    clients = listed(b"x-forwarded-for")
    protos, hosts = listed(b"x-forwarded-proto"), listed(b"x-forwarded-host")
    if not (clients or protos or hosts):
        return []
    count = max(len(clients), 1)
    hops = [_Hop(client) for client in clients] or [_Hop()]
    # A proxy that sets (not appends) -Proto and -Host speaks for the whole chain.
    for values, attr in ((protos, "proto"), (hosts, "host")):
        for i, hop in enumerate(hops):
            if len(values) == count:
                setattr(hop, attr, values[i].lower() if attr == "proto" else values[i])
            elif values:
                setattr(hop, attr, values[-1].lower() if attr == "proto" else values[-1])
    return hops


def _address(text: str) -> str:
    """The IP address in a forwarded ``for`` (without its port), or ``""`` when it is
    none (``unknown``, an obfuscated name).

    >>> _address('"[2001:db8::1]:4711"'), _address("192.0.2.43:47011"), _address("unknown")
    ('2001:db8::1', '192.0.2.43', '')
    """
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return ""
