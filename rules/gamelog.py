"""The append-only SQLite game log.

Every entry is committed (synchronous=FULL, so it survives a crash or power cut)
before its ruling is shown. Triggers refuse UPDATE and DELETE, so nothing confirmed
is ever changed; corrections and undos are new entries.

Several stations may keep one game (a referee's laptop and a camera station): every
write reads the log, judges what is to be added against the game the log holds at that
moment and appends it inside one write transaction (``BEGIN IMMEDIATE``, which SQLite
grants to one connection at a time), so an entry is never judged against a table that
another station has already changed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rules.errors import KangleError
from rules.game import ENTRY_KINDS, Entry, GameView, replay

FORMAT = "kangle.game-log/1"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    entered_at TEXT NOT NULL
);
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
"""


Proposal = Callable[[GameView], list[tuple[str, dict[str, Any]]]]


@dataclass(frozen=True)
class Written:
    """One write transaction's outcome: the entries it stored (in order), and the game as
    the log held it just before them and just after."""

    entries: list[Entry]
    before: GameView
    after: GameView


class GameLog:
    """One game's log in one SQLite file."""

    def __init__(self, path: str | Path, _create: bool = False, wait_s: float = 10.0):
        """Open the log at ``path``; a write waits up to ``wait_s`` seconds while another
        station is writing before it gives up (nothing recorded, exit code 3)."""
        self.path = Path(path)
        if not _create and not self.path.exists():
            raise KangleError(f"no game log at {self.path}: start one with `kangle game new`")
        try:
            self._db = sqlite3.connect(self.path, timeout=wait_s, isolation_level=None)
            self._db.execute("PRAGMA synchronous=FULL")
            if not _create:
                self._check_format()
        except sqlite3.DatabaseError as exc:
            raise _busy(self.path, exc) or KangleError(
                f"{self.path} is not a kangle game log ({exc})") from None

    @classmethod
    def create(cls, path: str | Path, new_entry: dict[str, Any], by: str = "referee") -> GameLog:
        """Create a new log holding its ``new`` entry; refuses to overwrite a file."""
        path = Path(path)
        if path.exists():
            raise KangleError(f"{path} already exists: choose another file name (a game log "
                              "is never overwritten)")
        log = cls(path, _create=True)
        with log._transaction():
            for statement in _SCHEMA.split(";\n"):
                if statement.strip():
                    log._db.execute(statement)
            log._db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            log._insert("new", new_entry, by)
        return log

    def _check_format(self) -> None:
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.DatabaseError as exc:
            busy = _busy(self.path, exc)
            if busy:
                raise busy from None
            row = None
        if row is None or row[0] != FORMAT:
            raise KangleError(f"{self.path} is not a kangle game log")

    def _transaction(self):
        return _Transaction(self._db)

    def _insert(self, kind: str, data: dict[str, Any], by: str) -> Entry:
        if kind not in ENTRY_KINDS:
            raise KangleError(f"unknown entry kind {kind!r}")
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        cur = self._db.execute(
            "INSERT INTO entries (kind, data, entered_by, entered_at) VALUES (?, ?, ?, ?)",
            (kind, text, by, at),
        )
        return Entry(cur.lastrowid, kind, data, by, at)

    def write(self, propose: Proposal, by: str = "referee", seen: int | None = None) -> Written:
        """Read the game, decide what to add, check it and store it, as one transaction.

        ``propose(view)`` gets the game as the log holds it inside the transaction and
        returns the ``(kind, data)`` entries to add (it may raise KangleError to refuse).
        They are stored only if the log still replays with them — a shot out of turn or a
        discard of a piece already gone is refused and nothing is written. ``seen`` is the
        newest sequence number this station had read before; a refusal names the entries
        another station added since, so the station that lost a race is told why."""
        try:
            with self._transaction():
                stored = self._entries()
                before = replay(stored, tolerant=True)
                try:
                    proposed = propose(before)
                except KangleError as exc:  # say what another station did meanwhile
                    if seen is None:
                        raise
                    raise KangleError(f"{exc}{_since(stored, seen)}", exc.exit_code) from None
                if before.fault and any(kind != "void" for kind, _ in proposed):
                    seq, why = before.fault
                    raise KangleError(f"log entry #{seq} cannot be applied ({why}): the game "
                                      f"stops there until it is voided — kangle game void "
                                      f"{self.path} {seq}; nothing was recorded")
                added = [self._insert(kind, data, by) for kind, data in proposed]
                try:
                    after = replay(stored + added)
                except KangleError as exc:
                    raise KangleError(f"nothing was recorded: {exc}"
                                      f"{_since(stored, seen)}") from None
        except sqlite3.OperationalError as exc:
            raise _busy(self.path, exc) or KangleError(
                f"could not write to {self.path}: {exc}; nothing was recorded, try again",
                exit_code=3) from None
        return Written(added, before, after)

    def append(self, kind: str, data: dict[str, Any], by: str = "referee") -> Entry:
        """Store one entry, judged against the log as it is when the write begins."""
        return self.write(lambda view: [(kind, data)], by).entries[0]

    def entries(self) -> list[Entry]:
        """Every entry, oldest first."""
        try:
            return self._entries()
        except sqlite3.DatabaseError as exc:
            raise _busy(self.path, exc) or KangleError(f"cannot read {self.path}: {exc}") \
                from None

    def _entries(self) -> list[Entry]:
        rows = self._db.execute(
            "SELECT seq, kind, data, entered_by, entered_at FROM entries ORDER BY seq"
        ).fetchall()
        return [Entry(seq, kind, json.loads(data), by, at) for seq, kind, data, by, at in rows]

    def close(self) -> None:
        self._db.close()


def _busy(path: Path, exc: sqlite3.DatabaseError) -> KangleError | None:
    """The error to give when another station held the log past our wait (exit 3:
    nothing was recorded, and trying again will do), or None for any other failure."""
    if "locked" in str(exc) or "busy" in str(exc):
        return KangleError(f"{path} is busy: another station is writing to it; nothing was "
                           "recorded here, try again in a moment", exit_code=3)
    return None


def _since(stored: list[Entry], seen: int | None) -> str:
    """Words naming the entries another station stored after ``seen``."""
    if seen is None:
        last = stored[-1]
        return f" (the log's newest entry is #{last.seq}, {last.kind}, by {last.by} at {last.at})"
    newer = [e for e in stored if e.seq > seen]
    if not newer:
        return ""
    names = ", ".join(f"#{e.seq} {e.kind} by {e.by} at {e.at}" for e in newer)
    return (f" — another station recorded {names} after this one last read the log; "
            "the table has changed, see `kangle game show`")


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self):
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
