"""The game master's access: one GM token, kept as a hash across restarts, and the GM's
sessions, kept in the store so that every server process (and the next start) honours
them.

The token opens the GM link (``/gm/login?token=…``); signing in with it starts a
session, whose random id goes in the GM's cookie (never the token itself) and whose
CSRF token every GM form carries. The store keeps only the SHA-256 of the token and of
each session id, so a copy of the database opens nothing.

A session ends when the GM signs out, after :data:`IDLE` without a GM page (each use
slides that window: sliding expiry), :data:`LIFETIME` after signing in at the latest
(fixed; the cookie's own expiry), or when the token is replaced (``fracas gm-link
--new``, or ``--gm-token`` with another token), which ends every session.

>>> from fracas.table.store import Store
>>> access = GmAccess(Store.open("sqlite://"))
>>> token = access.first_token()
>>> access.first_token() is None  # made once; later starts keep it
True
>>> session_id, session = access.sign_in(token)
>>> session_id != token, access.session(session_id).csrf == session.csrf
(True, True)
>>> access.sign_in("a guess") is None
True
>>> new = access.new_token()  # revokes the old token and ends every session
>>> access.check(token), access.check(new), access.session(session_id)
(False, True, None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, Integer, String, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from fracas.table.store import Base, Store, StoreError, aware, utc_now

__all__ = ["IDLE", "LIFETIME", "GmAccess", "GmSession", "digest"]

#: Random bytes in a GM token or a session id: 256 bits, far beyond any search.
TOKEN_BYTES = 32
#: Longest token or session id looked up: anything longer is none of ours.
MAX_TOKEN = 200
#: Shortest GM token that may be set by hand.
MIN_TOKEN = 16
#: A session unused this long has ended (each use slides it).
IDLE = timedelta(days=30)
#: A session ends this long after signing in, however much it is used.
LIFETIME = timedelta(days=365)
#: A session's last use is written at most this often (not at every page).
SEEN_EVERY = timedelta(hours=1)
#: The row of :class:`ServerRow` holding the GM token's hash, and the address last served.
GM_TOKEN = "gm_token_sha256"
SERVED_AT = "served_at"


class ServerRow(Base):
    """What the server keeps between starts: the GM token's hash, the address it served."""

    __tablename__ = "fracas_server"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(400))
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GmSessionRow(Base):
    __tablename__ = "fracas_gm_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    id_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class GmSession:
    """A GM's open session: its CSRF token and when it ends unless used again."""

    id: int
    csrf: str
    created: datetime
    ends: datetime


def digest(token: str) -> str:
    """What the store keeps of a token or a session id: its SHA-256.

    A plain (unsalted, fast) hash is enough here: the tokens fracas makes and every
    session id carry 256 random bits, so no search over them can find one from its hash
    (a slow hash such as scrypt only helps secrets a person could guess). A token set
    by hand (``--gm-token``) must have 16 characters or more, and should be as random.

    >>> len(digest("x"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class GmAccess:
    """The GM token and the GM sessions of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- the token ----------------------------------------------------------------------

    def has_token(self) -> bool:
        return self._value(GM_TOKEN) is not None

    def check(self, token: str) -> bool:
        """Whether ``token`` is the GM token (compared in constant time, by hash)."""
        kept = self._value(GM_TOKEN)
        if kept is None or not token or len(token) > MAX_TOKEN:
            return False
        return hmac.compare_digest(digest(token).encode(), kept.encode())

    def first_token(self) -> str | None:
        """A new random token if the store has none yet (the first start), else ``None``:
        two servers starting at once on a new store make one token, not two."""
        if self.has_token():
            return None
        token = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            with self.store.session() as s:
                s.add(ServerRow(name=GM_TOKEN, value=digest(token), changed=utc_now()))
        except IntegrityError:
            return None  # another process made it first: that one is the token
        return token

    def set_token(self, token: str) -> bool:
        """Make ``token`` the GM token; whether it changed. Another token than the one
        kept revokes it and ends every session; the same one changes nothing.
        :class:`StoreError` for a token shorter than :data:`MIN_TOKEN` or longer than
        :data:`MAX_TOKEN` characters."""
        if not MIN_TOKEN <= len(token) <= MAX_TOKEN:
            raise StoreError(
                f"a GM token has {MIN_TOKEN} to {MAX_TOKEN} characters, not {len(token)}"
            )
        if self.check(token):
            return False
        self._replace(token)
        return True

    def new_token(self) -> str:
        """A new random GM token: the old one opens nothing and every session ends."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._replace(token)
        return token

    def _replace(self, token: str) -> None:
        self._put(GM_TOKEN, digest(token), end_sessions=True)

    # -- the address (for the link ``fracas gm-link`` prints) ---------------------------

    def served_at(self) -> str | None:
        """The address the last server started on this store gave its links."""
        return self._value(SERVED_AT)

    def serve_at(self, base: str) -> None:
        self._put(SERVED_AT, base[:400])

    def _put(self, name: str, value: str, end_sessions: bool = False) -> None:
        """Keep ``value`` under ``name`` (ending every session in the same transaction):
        an insert, or an update when the row exists (also when another process inserted
        it meanwhile: servers starting at once)."""
        for _ in range(2):
            try:
                with self.store.session() as s:
                    if end_sessions:
                        s.execute(delete(GmSessionRow))
                    s.merge(ServerRow(name=name, value=value, changed=utc_now()))
                return
            except IntegrityError:
                continue  # inserted by another process since the merge looked: update it
        raise StoreError(f"could not keep the server's {name}: try again")

    def _value(self, name: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(ServerRow.value).where(ServerRow.name == name))

    # -- sessions -----------------------------------------------------------------------

    def sign_in(self, token: str) -> tuple[str, GmSession] | None:
        """A new session if ``token`` is the GM token: its id (for the cookie, shown
        once, kept only as a hash) and the session; ``None`` for any other token."""
        if not self.check(token):
            return None
        session_id = secrets.token_urlsafe(TOKEN_BYTES)
        now = utc_now()
        with self.store.session() as s:
            # Sessions that ended unseen (a browser that never came back) go now.
            s.execute(
                delete(GmSessionRow).where(
                    or_(GmSessionRow.seen <= now - IDLE, GmSessionRow.created <= now - LIFETIME)
                )
            )
            row = GmSessionRow(
                id_hash=digest(session_id), csrf=secrets.token_hex(32), created=now, seen=now
            )
            s.add(row)
            s.flush()
            return session_id, _session(row)

    def session(self, session_id: str, now: datetime | None = None) -> GmSession | None:
        """The open session with this id, or ``None`` (unknown, signed out, expired).
        Its use is written (sliding the idle expiry) at most once per :data:`SEEN_EVERY`."""
        if not session_id or len(session_id) > MAX_TOKEN:
            return None
        now = now or utc_now()
        with self.store.session() as s:
            row = s.scalar(select(GmSessionRow).where(GmSessionRow.id_hash == digest(session_id)))
            if row is None:
                return None
            created, seen = aware(row.created), aware(row.seen)
            if now >= min(seen + IDLE, created + LIFETIME):
                s.delete(row)
                return None
            if now - seen >= SEEN_EVERY:
                s.execute(update(GmSessionRow).where(GmSessionRow.id == row.id).values(seen=now))
                row.seen = now
            return _session(row)

    def sign_out(self, session_id: str) -> None:
        """End this session (nothing if it has already ended)."""
        if session_id and len(session_id) <= MAX_TOKEN:
            with self.store.session() as s:
                s.execute(delete(GmSessionRow).where(GmSessionRow.id_hash == digest(session_id)))

    def end_sessions(self) -> None:
        """End every GM session."""
        with self.store.session() as s:
            s.execute(delete(GmSessionRow))


def _session(row: GmSessionRow) -> GmSession:
    created, seen = aware(row.created), aware(row.seen)
    return GmSession(row.id, row.csrf, created, min(seen + IDLE, created + LIFETIME))
