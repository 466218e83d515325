"""One competition: its event in a store, its format, and the operations on it.

Everything an organiser does goes through here: entries are checked by the format
inside the store's locked transaction, then stored; standings and score sheets are
always recomputed from the entries in force.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from rules.errors import KangleError
from rules.events import knockout, rankrounds, report, rotating
from rules.events.common import ScoreSheet, Standings, Table, check_registrations, roster
from rules.events.formats import FORMATS, format_for, settings_for
from rules.events.store import Entry, EventInfo, EventStore, database_url, in_force

# the files an event exports (`kangle event export`, the web station's desk)
EXPORTS = ("standings.txt", "standings.csv", "standings.json", "standings.html", "log.json")
# every entry kind some format takes, and void (cancels an entry, in any format)
KINDS = (*dict.fromkeys(kind for fmt in FORMATS.values() for kind in fmt.ENTRIES), "void")


class Competition:
    def __init__(self, store: EventStore, event: EventInfo):
        self.store, self.event = store, event
        self.format = format_for(event.format)
        self.settings = event.settings

    @classmethod
    def open(cls, where: str) -> Competition:
        url, name = database_url(where)
        if "://" not in where and not Path(where).exists():
            raise KangleError(f"no event file {where}: create it with `kangle event new`")
        store = EventStore(url)
        return cls(store, store.event(name, or_only="://" not in where))

    @classmethod
    def create(cls, where: str, game: str, fmt: str | None, overrides: dict[str, Any],
               players: list[dict[str, Any]], by: str) -> Competition:
        """A new event with its players registered, checked as one list first (so a
        list of 10,000 takes seconds) and stored in one transaction with the event."""
        url, name = database_url(where)
        fmt, settings = settings_for(game, fmt, overrides)
        module = format_for(fmt)
        check_registrations(lambda new: _check_entry(module, settings, [], new),
                            [Entry(0, "register", p, by, "", None) for p in players],
                            getattr(module, "REGISTER_UNIQUE", ()))
        store = EventStore(url)
        comp = cls(store, store.create_event(name, fmt, settings,
                                             [("register", p) for p in players], by,
                                             alone="://" not in where))
        comp.auto_draws()
        return comp

    def close(self) -> None:
        self.store.close()

    def entries(self) -> list[Entry]:
        return in_force(self.store.entries(self.event))

    def record(self, kind: str, data: dict[str, Any], by: str,
               supersedes: int | None = None) -> list[Entry]:
        """Check and store one entry; returns it and any draws kangle made because of it."""
        if kind not in KINDS:
            raise KangleError(f"unknown entry kind {kind!r}: one of {', '.join(KINDS)}")
        if kind != "void" and kind not in self.format.ENTRIES:
            raise KangleError(f"a {self.event.format} event takes {', '.join(self.format.ENTRIES)}"
                              f" or void entries, not {kind!r} (it would count for nothing): "
                              "see docs/formats.md")
        if not isinstance(data, dict):
            raise KangleError("an entry's data is a JSON object")

        seen: list[Entry] = []  # the log as the write found it (read once, in its lock)

        def check(existing: list[Entry], new: Entry) -> None:
            seen.extend(existing)
            if kind != "void":
                self._check(existing, new)

        stored = [self.store.append(self.event, kind, data, by, supersedes, check)]
        stored += self.auto_draws(in_force([*seen, *stored]))
        return stored

    def _check(self, existing: list[Entry], new: Entry) -> None:
        """The format's check of ``new`` against the log's entries so far (in force)."""
        _check_entry(self.format, self.settings, in_force(existing), new)

    def entry(self, seq: int) -> Entry:
        """Entry ``seq`` of the log, in force or not (KangleError if there is none)."""
        found = next((e for e in self.store.entries(self.event) if e.seq == seq), None)
        if found is None:
            raise KangleError(f"there is no entry {seq}")
        return found

    def correct(self, seq: int, data: dict[str, Any] | None, by: str,
                reason: str = "") -> list[Entry]:
        """Replace entry ``seq`` by ``data`` (an entry of the same kind, checked like any
        other), or void it when ``data`` is None (``reason`` kept). The old entry stays
        in the log, marked superseded: nothing is ever changed or deleted."""
        old = self.entry(seq)
        if data is None:
            return self.record("void", {"reason": reason or "entered by mistake"}, by,
                               supersedes=seq)
        return self.record(old.kind, data, by, supersedes=seq)

    def export(self, name: str) -> str:
        """The text of one export file (a name in EXPORTS): the standings as text, CSV,
        JSON or a web page, or the whole log."""
        if name == "log.json":
            return json.dumps(self.log(), indent=2, ensure_ascii=False) + "\n"
        s = self.standings()
        return {"standings.txt": lambda: report.text(s),
                "standings.csv": lambda: report.to_csv(s),
                "standings.json": lambda: report.to_json(s),
                "standings.html": lambda: report.to_html(s, self.event.name, self.bracket()),
                }[name]()

    def log(self) -> list[dict[str, Any]]:
        """Every entry ever stored, superseded ones included, as plain records (the
        ``log.json`` of an export): seq, kind, data, by, at (UTC), supersedes."""
        return [{"seq": e.seq, "kind": e.kind, "data": e.data, "by": e.by, "at": e.at,
                 "supersedes": e.supersedes} for e in self.store.entries(self.event)]

    def auto_draws(self, entries: list[Entry] | None = None) -> list[Entry]:
        """Ties that block the next round of a rotating event are drawn at once
        (seeded, so reproducible) and logged; a referee may correct such a draw.
        ``entries``: the log in force as just written (read afresh if not given)."""
        if self.format is not rotating:
            return []
        made = []
        for draw in rotating.pending_draws(self.settings, self.entries() if entries is None
                                           else entries):
            try:  # checked like any entry: a station finishing the round beside this one
                made.append(self.store.append(self.event, "draw", draw,  # may draw first
                                              "kangle (seeded draw)", check=self._check))
            except KangleError:  # drawn already, or the store busy: the entry that led
                continue  # here is in; the draw is made after the next entry, or by hand
        return made

    def draw(self, round_no: int | None) -> Entry:
        """Make the format's next draw: groups (knockout) or a round's seating."""
        entries = self.entries()
        if self.format is knockout:
            how = ("pots by rating, each drawn (seeded)"
                   if self.settings.get("seeding") == "rating" else "seeded draw")
            return self.record("groups", {"groups": knockout.draw_groups(self.settings,
                                                                         roster(entries)),
                                          "how": how}, "kangle (seeded draw)")[0]
        if self.format is rankrounds:
            if round_no is None:
                raise KangleError("say which round to seat: --round N")
            data = rankrounds.draw_seating(self.settings, entries, round_no)
            return self.record("seating", data, "kangle (seeded draw)")[0]
        raise KangleError(f"the {self.event.format} format has no draw to make by command "
                          "(rotating events draw ties by themselves)")

    @property
    def takes_table_results(self) -> bool:
        """Whether this format's results are entered table by table (``tables``)."""
        return self.table_entry is not None

    @property
    def table_entry(self) -> str | None:
        """The kind of entry a table's own link enters (None: results go in at the desk)."""
        return getattr(self.format, "TABLE_ENTRY", None)

    def tables(self) -> list[Table]:
        """Every table (a match, in a knockout) of every round so far, open or entered;
        empty for a format whose results are not entered table by table."""
        if not self.takes_table_results:
            return []
        return self.format.tables(self.settings, self.entries())

    def open_tables(self) -> list[tuple[int, int, list[str]]]:
        """(round, table, seats) whose result can be entered from the table now."""
        return [(t.round, t.number, t.seats) for t in self.tables() if t.open]

    def at_table(self, table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
        """What a table's link fixes of its entry, and what its form starts from (a
        format whose table entry is more than a score each: ``table_entry``)."""
        return self.format.at_table(self.settings, self.entries(), table)

    def record_table(self, round_no: int, table: int, scores: dict[str, float],
                     by: str, tiles: dict[str, Any] | None = None) -> list[Entry]:
        """Record one table's result, checked like any entry (the round and table must
        be seated and still open: a result entered twice is refused). With double entry it is a
        report, and the result is recorded once two reports agree; the entries stored
        are returned (a lone report: the result is not in yet). ``tiles``: what the
        scores were made from, kept in the entry (Rummikub: each seat's tiles left as a
        person checked them, and the SHA-256 of its photo kept in the store)."""
        data = self.format.result_entry(round_no, table, scores)
        if tiles:
            data["tiles"] = tiles
        if not self.settings.get("double_entry"):
            return self.record("result", data, by)
        stored = self.record("report", data, by)
        both = self.format.agreed(self.entries(), round_no, table)
        if both is not None:
            stored += self.record("result", self.format.result_entry(round_no, table, both),
                                  "double entry: two reports agreed")
        return stored

    def bracket(self) -> list[tuple[str, list[dict]]]:
        """The knockout tree by round, for a format that has one; else empty."""
        tree = getattr(self.format, "bracket", None)
        return tree(self.settings, self.entries()) if tree else []

    def standings(self) -> Standings:
        return self.format.standings(self.settings, self.entries())

    def sheets(self, round_no: int) -> list[ScoreSheet]:
        return self.format.sheets(self.settings, self.entries(), round_no)

    def trace(self, name: str) -> list[Entry]:
        """The entries behind a name's figures in the standings."""
        wanted = set()

        def walk(s: Standings) -> None:
            for row in s.rows:
                if row.name == name:
                    wanted.update(row.sources)
            for sub in s.sections:
                walk(sub)

        walk(self.standings())
        if not wanted and name not in {e.data.get("name") for e in self.entries()}:
            raise KangleError(f"{name!r} is not in this event")
        return [e for e in self.entries() if e.seq in wanted]


def _check_entry(fmt: ModuleType, settings: dict[str, Any], entries: list[Entry],
                 new: Entry) -> None:
    """The format's check of one entry against the entries in force; a field missing or
    of the wrong type is a KangleError like any other refusal."""
    try:
        fmt.check(settings, entries, new)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise KangleError(f"this {new.kind} entry is missing or misstates a field "
                          f"({exc!s}); see docs/formats.md") from None
