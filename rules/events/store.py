"""The append-only event store, through SQLAlchemy Core.

SQLite by default (one file per event); a PostgreSQL URL works the same way for a
venue with several scoring stations. Entries are only ever added: a correction or a
withdrawal is a new entry (a correction names the entry it ``supersedes``), and
every standing is recomputed from the entries in force. Database triggers refuse
UPDATE and DELETE, so nothing confirmed can be changed behind the store's back.

Writers take a lock on the event first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT …
FOR UPDATE`` on PostgreSQL), so the checks made against the entries already stored
and the new entry are one atomic step, and two stations entering at once lose nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
)

from rules.errors import KangleError

metadata = sa.MetaData()
events_table = sa.Table(
    "kangle_events", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("format", sa.String(40), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
entries_table = sa.Table(
    "kangle_entries", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("kangle_events.id"), nullable=False,
              index=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("entered_by", sa.String(100), nullable=False),
    sa.Column("entered_at", sa.String(40), nullable=False),
    sa.Column("supersedes", sa.Integer, nullable=True),
)

keys_table = sa.Table(  # each event's secret: the web station's table links derive from it
    "kangle_keys", metadata,
    sa.Column("event_id", sa.Integer, sa.ForeignKey("kangle_events.id"), primary_key=True),
    sa.Column("key", sa.String(64), nullable=False),
)

photos_table = sa.Table(  # photos behind entries (tiles left in a hand), kept as sent
    "kangle_photos", metadata,
    sa.Column("event_id", sa.Integer, sa.ForeignKey("kangle_events.id"), primary_key=True),
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("kept_at", sa.String(40), nullable=False),
)

_SETUP_LOCK = 0x6B616E67  # PostgreSQL advisory lock key held while the schema is set up
_TRIGGERS = {
    "sqlite": [
        "CREATE TRIGGER IF NOT EXISTS kangle_entries_no_update BEFORE UPDATE ON kangle_entries "
        "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
        "CREATE TRIGGER IF NOT EXISTS kangle_entries_no_delete BEFORE DELETE ON kangle_entries "
        "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
        "CREATE TRIGGER IF NOT EXISTS kangle_photos_no_update BEFORE UPDATE ON kangle_photos "
        "BEGIN SELECT RAISE(ABORT, 'kept photos are never changed'); END",
        "CREATE TRIGGER IF NOT EXISTS kangle_photos_no_delete BEFORE DELETE ON kangle_photos "
        "BEGIN SELECT RAISE(ABORT, 'kept photos are never changed'); END",
    ],
    "postgresql": [
        "CREATE OR REPLACE FUNCTION kangle_append_only() RETURNS trigger AS $$ BEGIN "
        "RAISE EXCEPTION 'the event log is append-only'; END $$ LANGUAGE plpgsql",
        "DROP TRIGGER IF EXISTS kangle_entries_append_only ON kangle_entries",
        "CREATE TRIGGER kangle_entries_append_only BEFORE UPDATE OR DELETE ON kangle_entries "
        "FOR EACH ROW EXECUTE FUNCTION kangle_append_only()",
        "DROP TRIGGER IF EXISTS kangle_photos_append_only ON kangle_photos",
        "CREATE TRIGGER kangle_photos_append_only BEFORE UPDATE OR DELETE ON kangle_photos "
        "FOR EACH ROW EXECUTE FUNCTION kangle_append_only()",
    ],
}


@dataclass(frozen=True)
class Entry:
    """One entry of an event's log."""

    seq: int
    kind: str
    data: dict[str, Any]
    by: str
    at: str
    supersedes: int | None = None


@dataclass(frozen=True)
class EventInfo:
    id: int
    name: str
    format: str
    settings: dict[str, Any]


def database_url(where: str) -> tuple[str, str]:
    """``where`` is a SQLite file (``cup.db``: the event is named after the file) or a
    database URL with the event name after ``#`` (``postgresql+psycopg://…/db#cup``)."""
    if "://" in where:
        url, _, name = where.partition("#")
        if not name:
            raise KangleError("name the event after the URL: …/database#event-name")
        _check_url(url)
        return url, name
    return f"sqlite:///{Path(where)}", Path(where).stem


_URL_FORM = "postgresql+psycopg://user:password@host:5432/database#event, or a file: cup.db"


def _check_url(url: str) -> None:
    """Refuse a database URL kangle cannot keep an event in, saying what to write."""
    try:
        parsed = sa.engine.make_url(url)
    except (ArgumentError, ValueError) as exc:
        raise KangleError(f"not a database URL ({exc}): write {_URL_FORM}") from None
    try:
        parsed.get_dialect()
    except NoSuchModuleError:
        raise KangleError(f"kangle cannot keep an event in a {parsed.drivername!r} database: "
                          f"write {_URL_FORM}") from None
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise KangleError("a SQLite event store must be a file (an event kept in memory is "
                          "lost when the command ends): give the file, e.g. cup.db")


class EventStore:
    def __init__(self, url: str, wait_s: float = 30.0):
        """Open (and set up, the first time) the store at ``url``; a SQLite writer waits
        up to ``wait_s`` seconds for another station's write to finish."""
        self.url = url
        self._read: dict[int, list[Entry]] = {}  # event id -> its entries read so far
        self._read_lock = threading.Lock()  # a web station reads from many threads
        # this process's threads take turns at a SQLite file (_using); a database server
        # waits its clients without sleeping, and serves their reads side by side
        self._turn = threading.RLock() if url.startswith("sqlite") else nullcontext()
        try:
            if url.startswith("sqlite"):
                self.engine = sa.create_engine(url, connect_args={"timeout": wait_s})
                _serialise_sqlite_writers(self.engine)
                self.reader = sa.create_engine(url, connect_args={"timeout": wait_s})
                _read_sqlite_without_locking_writers_out(self.reader)
            else:
                self.engine = sa.create_engine(url, pool_pre_ping=True)
                # a read is one statement: run on its own (autocommit), it is one round
                # trip, without the BEGIN before it and the ROLLBACK that hands its
                # connection back (0.71 → 0.47 ms a read of the log on loopback)
                self.reader = sa.create_engine(url, pool_pre_ping=True,
                                               isolation_level="AUTOCOMMIT")
        except ModuleNotFoundError as exc:
            raise KangleError(f"cannot open {_safe(url)}: the database driver is missing "
                              f"({exc})") from None
        with self._using("open", "nothing was changed"), self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # several scoring stations may open the store at once: one at a time
                # sets up the tables and triggers (else "tuple concurrently updated")
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_SETUP_LOCK})")
            metadata.create_all(conn)
            for statement in _TRIGGERS.get(self.engine.dialect.name, []):
                conn.exec_driver_sql(statement)

    def close(self) -> None:
        self.engine.dispose()
        self.reader.dispose()

    @contextmanager
    def _using(self, doing: str, kept: str):
        """One use of the database: a read, or a write transaction opened inside this.
        This process's threads use a SQLite file one at a time: SQLite makes a
        connection that finds the file locked sleep and try again (1 ms, then 2, 5, 10,
        … up to 100 ms between tries), so threads reading and writing at once would wait
        far longer than the work takes; taking turns here, each starts the moment the one
        before is done, and the file's own locks are left to arbitrate between processes.
        Database failures come out as KangleErrors: another station holding the store
        past our wait is "busy, try again" (exit 3), never a broken store; ``kept`` says
        what became of the user's entry."""
        try:
            with self._turn:
                yield
        except IntegrityError:
            raise  # a constraint two stations raced for: the caller reads again
        except (OperationalError, DBAPIError) as exc:
            reason = _reason(exc)
            if "locked" in reason or "busy" in reason:
                raise KangleError(f"the event store {_safe(self.url)} is busy: another station "
                                  f"is writing to it; {kept}, try again in a moment",
                                  exit_code=3) from None
            raise KangleError(f"could not {doing} {_safe(self.url)} ({reason}); {kept}",
                              exit_code=3 if doing == "write to" else 2) from None

    # -- events --------------------------------------------------------------------------
    def create_event(self, name: str, format: str, settings: dict[str, Any],
                     first: list[tuple[str, dict[str, Any]]] = (), by: str = "",
                     alone: bool = False) -> EventInfo:
        """Create the event with its ``first`` entries (kind, data: the registrations),
        all in one transaction: a failure leaves no half-made event behind. ``alone``:
        the store holds no other event (a SQLite file is one event's, whatever its name)."""
        try:
            with self._using("write to", "no event was created"), self.engine.begin() as conn:
                found = conn.execute(sa.select(events_table.c.name).where(
                    (events_table.c.name == name) if not alone else sa.true())).first()
                if found and found.name != name:
                    raise KangleError(f"this file already holds the event {found.name!r}: "
                                      "open it by this file's name, or make a new event in "
                                      "a new file")
                if found:
                    raise KangleError(f"an event named {name!r} already exists there")
                now = _now()
                result = conn.execute(events_table.insert().values(
                    name=name, format=format, settings=json.dumps(settings, ensure_ascii=False),
                    created_at=now))
                event_id = result.inserted_primary_key[0]
                if first:
                    conn.execute(entries_table.insert(), [
                        dict(event_id=event_id, kind=kind, entered_by=by, entered_at=now,
                             supersedes=None,
                             data=json.dumps(data, ensure_ascii=False, sort_keys=True))
                        for kind, data in first])
                return EventInfo(event_id, name, format, settings)
        except IntegrityError:  # another station made it between our look and our write
            raise KangleError(f"an event named {name!r} already exists there") from None

    def event(self, name: str, or_only: bool = False) -> EventInfo:
        """The event called ``name``; with ``or_only``, else the store's one event, if it
        holds just one (a SQLite file copied or renamed keeps the name it was made with)."""
        with self._using("read", "nothing was changed"), self.reader.connect() as conn:
            row = conn.execute(sa.select(events_table).where(events_table.c.name == name)).first()
            if row is None and or_only:
                rows = conn.execute(sa.select(events_table).limit(2)).all()
                row = rows[0] if len(rows) == 1 else None
        if row is None:
            raise KangleError(f"no event named {name!r} there: create it with `kangle event new`")
        return EventInfo(row.id, row.name, row.format, json.loads(row.settings))

    def secret(self, event: EventInfo) -> bytes:
        """The event's secret key (made the first time it is asked for, kept in the
        store): what the web station's private table links are signed with. Never shown
        in any page, entry or report."""
        for _ in range(2):  # a second station may make it at the same moment: then read it
            try:
                with self._using("write to", "nothing was changed"), \
                        self.engine.begin() as conn:
                    found = conn.execute(sa.select(keys_table.c.key).where(
                        keys_table.c.event_id == event.id)).scalar()
                    if found is None:
                        found = secrets.token_hex(32)
                        conn.execute(keys_table.insert().values(event_id=event.id, key=found))
                    return bytes.fromhex(found)
            except IntegrityError:
                continue
        raise KangleError("could not read the event's secret key: try again", exit_code=3)

    # -- photos --------------------------------------------------------------------------
    def keep_photo(self, event: EventInfo, data: bytes) -> str:
        """Keep a photo an entry will name (by its SHA-256, hex, returned); the same photo
        sent twice is kept once. Photos, like entries, are never changed or deleted."""
        digest = hashlib.sha256(data).hexdigest()
        try:
            with self._using("write to", "the photo was not kept"), self.engine.begin() as conn:
                kept = conn.execute(sa.select(photos_table.c.sha256).where(
                    (photos_table.c.event_id == event.id) &
                    (photos_table.c.sha256 == digest))).first()
                if kept is None:
                    conn.execute(photos_table.insert().values(
                        event_id=event.id, sha256=digest, data=data, kept_at=_now()))
        except IntegrityError:
            pass  # another station kept the same photo at the same moment
        return digest

    def photo(self, event: EventInfo, digest: str) -> bytes | None:
        return self._photo(event, digest, photos_table.c.data)

    def has_photo(self, event: EventInfo, digest: str) -> bool:
        """Whether a photo of that SHA-256 is kept (without reading it)."""
        return self._photo(event, digest, photos_table.c.sha256) is not None

    def _photo(self, event: EventInfo, digest: str, column) -> Any:
        with self._using("read", "nothing was changed"), self.reader.connect() as conn:
            return conn.execute(sa.select(column).where(
                (photos_table.c.event_id == event.id) &
                (photos_table.c.sha256 == digest))).scalar()

    # -- entries -------------------------------------------------------------------------
    def entries(self, event: EventInfo) -> list[Entry]:
        with self._using("read", "nothing was changed"), self.reader.connect() as conn:
            return self._entries(conn, event)

    def _entries(self, conn, event: EventInfo) -> list[Entry]:
        """The event's entries in order. The log is append-only and one event's entries
        are numbered in the order they are written (writers take the event's lock), so
        those read before are kept parsed and only later ones are read: a station that
        reads the log on every page reads each entry once."""
        with self._read_lock:
            known = self._read.get(event.id, [])
        last = known[-1].seq if known else 0
        rows = conn.execute(sa.select(entries_table).where(
            (entries_table.c.event_id == event.id) & (entries_table.c.seq > last))
            .order_by(entries_table.c.seq)).all()
        out = known + [Entry(r.seq, r.kind, json.loads(r.data), r.entered_by, r.entered_at,
                             r.supersedes) for r in rows]
        with self._read_lock:
            if len(out) > len(self._read.get(event.id, [])):
                self._read[event.id] = out
        return list(out)

    def append(self, event: EventInfo, kind: str, data: dict[str, Any], by: str,
               supersedes: int | None = None,
               check: Callable[[list[Entry], Entry], None] | None = None) -> Entry:
        """Add one entry. ``check(entries_so_far, new_entry)`` runs inside the same locked
        transaction and may refuse the entry (KangleError); nothing is then written."""
        with self._using("write to", "nothing was recorded"), self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                conn.execute(sa.select(events_table.c.id).where(
                    events_table.c.id == event.id).with_for_update())
            existing = self._entries(conn, event)
            if supersedes is not None and supersedes not in {e.seq for e in existing}:
                raise KangleError(f"there is no entry {supersedes} to correct")
            later = next((e.seq for e in existing if e.supersedes == supersedes), None)
            if supersedes is not None and later is not None:
                raise KangleError(f"entry {supersedes} was already replaced by entry {later}:"
                                  f" correct entry {later} instead (see `kangle event log`)")
            draft = Entry(0, kind, data, by, _now(), supersedes)
            if check:
                check(existing, draft)
            text = json.dumps(data, ensure_ascii=False, sort_keys=True)
            result = conn.execute(entries_table.insert().values(
                event_id=event.id, kind=kind, data=text, entered_by=by, entered_at=draft.at,
                supersedes=supersedes))
            new = Entry(result.inserted_primary_key[0], kind, json.loads(text), by, draft.at,
                        supersedes)
        # committed, with every other writer of the event kept out: the log is what this
        # write read and its entry, as a read would parse it. Kept so, the next read
        # finds this very entry (the formats remember their answers by the entries' identities)
        with self._read_lock:
            if len(self._read.get(event.id, [])) == len(existing):
                self._read[event.id] = [*existing, new]
        return new


def in_force(entries: list[Entry]) -> list[Entry]:
    """The entries that count: a correction replaces the entry it supersedes (a chain of
    corrections ends with the latest), at the superseded entry's place in the order."""
    replaced = {e.supersedes: e for e in entries if e.supersedes is not None}
    out = []
    for e in entries:
        if e.supersedes is not None:
            continue
        latest = e
        while latest.seq in replaced:
            latest = replaced[latest.seq]
        if latest.kind != "void":
            out.append(latest)
    return out


def _serialise_sqlite_writers(engine: sa.Engine) -> None:
    """pysqlite's own transaction handling defers the lock; take it at BEGIN instead
    (the SQLAlchemy documentation's recipe), so check-then-insert is atomic."""

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_connection, record):
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA synchronous=FULL")

    @sa_event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _read_sqlite_without_locking_writers_out(engine: sa.Engine) -> None:
    """The engine the store reads with: each SELECT reads on its own (no BEGIN), taking
    the file's shared lock only while it runs. Begun as a writer's transaction (BEGIN
    IMMEDIATE), a read would hold the write lock, queueing readers behind each other and
    behind every writer, each wait slept out by SQLite's retry back-off."""

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_connection, record):
        dbapi_connection.isolation_level = None


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", exc)).strip()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _safe(url: str) -> str:
    return sa.engine.make_url(url).render_as_string(hide_password=True)
