"""Rank-point rounds: 找朋友 (seed 004 / game-scoring.md §8).

2 rounds of 10 games at tables of 5, seats drawn per round (reproducibly, logged, or
entered by a referee). After each round each table's players are ranked by levels
gained and score 5, 4, 3, 2, 1 by rank position (shared ranks), minus 0.5 per
misplay. Final: the sum of rank points; ties by total levels gained, then by number
of games as dealer. The top 8 are ranked. Lateness penalties are separate entries.

Entries: ``register`` {name}, ``seating`` {round, tables: [[5 names], …]},
``table_round`` {round, table, result: a 找朋友 round result at that table},
``penalty`` {name, round, points, reason}, ``withdraw`` {name, from_round}.
"""

from __future__ import annotations

from typing import Any

from rules.errors import KangleError
from rules.events.common import (
    Row,
    ScoreSheet,
    Standings,
    Table,
    check_register,
    ranked,
    roster,
    seeded_draw,
    whole,
)
from rules.events.store import Entry
from rules.games import zhaopengyou

NAME = "rankrounds"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "seating", "table_round", "penalty", "withdraw")
TABLE_ENTRY = "table_round"  # what a table's own link enters (``tables``)
GAMES = ("zhaopengyou",)
DEFAULTS = {"game": "zhaopengyou", "rounds": 2, "table_size": 5, "ranked": 8, "seed": 0}
# the values each number setting may take (rules.events.formats checks them)
RANGES = {"rounds": (1, 30), "table_size": (4, 10), "ranked": (1, 1000), "seed": (0, 2**31 - 1)}


def draw_seating(settings: dict[str, Any], entries: list[Entry], round_no: int) -> dict:
    players = roster(entries).active(round_no)
    size = settings["table_size"]
    if len(players) % size:
        raise KangleError(f"{len(players)} players do not make tables of {size}: register or "
                          "withdraw players, or enter the seating by hand")
    cards = seeded_draw(settings["seed"], players, "seats", round_no)
    order = sorted(players, key=lambda p: cards[p])
    return {"round": round_no, "tables": [order[i:i + size] for i in range(0, len(order), size)],
            "how": "seeded draw"}


def seating(entries: list[Entry], round_no: int) -> list[list[str]] | None:
    found = [e for e in entries if e.kind == "seating" and e.data["round"] == round_no]
    return found[-1].data["tables"] if found else None


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new)
    live = [e for e in entries if e.seq != new.supersedes]
    if new.kind == "seating":
        r = new.data.get("round")
        seated = next((e.seq for e in live if e.kind == "seating" and e.data["round"] == r),
                      None)
        if seated is not None:
            raise KangleError(f"round {r} is already seated (entry {seated}): to change its "
                              f"seating, correct entry {seated}")
        tables = new.data.get("tables", [])
        seated = sorted(p for t in tables for p in t)
        if seated != sorted(roster(live).active(r)) or any(len(t) != settings["table_size"]
                                                           for t in tables):
            raise KangleError(f"round {r}'s seating must put every active player at a table of "
                              f"{settings['table_size']}, once")
    if new.kind == "table_round":
        r, t = new.data.get("round"), new.data.get("table")
        tables = seating(live, r) if whole(r) else None
        if not tables:
            raise KangleError(f"round {r} has no seating yet")
        if not whole(t) or not 1 <= t <= len(tables):
            raise KangleError(f"round {r} has tables 1-{len(tables)}")
        profile = zhaopengyou.load_profile(None)
        rnd = zhaopengyou.read(new.data.get("result"), profile)
        if set(rnd.seats) != set(tables[t - 1]):
            raise KangleError(f"round {r} table {t} seats {', '.join(tables[t - 1])}")
        for e in live:
            if (e.kind == "table_round" and (e.data["round"], e.data["table"]) == (r, t)):
                raise KangleError(f"round {r} table {t} is already entered (entry {e.seq})")


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """Every table seated so far, open while its round there is not entered."""
    done = {(e.data["round"], e.data["table"]) for e in entries if e.kind == "table_round"}
    rounds = sorted({e.data["round"] for e in entries if e.kind == "seating"})
    return [Table(r, t, list(seats), (r, t) not in done) for r in rounds
            for t, seats in enumerate(seating(entries, r), start=1)]


def at_table(settings: dict[str, Any], entries: list[Entry], table: Table
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a table's link fixes of its entry (its round and table), and what the
    form starts from: its players as seated, for the table to put in its own order
    (counter-clockwise) before the games."""
    return {"round": table.round, "table": table.number}, {"result": {"seats": table.seats}}


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    people = roster(entries)
    profile = zhaopengyou.load_profile(None)
    pts = dict.fromkeys(people.order, 0.0)
    levels = dict.fromkeys(people.order, 0)
    dealt = dict.fromkeys(people.order, 0)
    src: dict[str, list[int]] = {p: [] for p in people.order}
    for e in entries:
        if e.kind == "table_round":
            sheet = zhaopengyou.score(zhaopengyou.read(e.data["result"], profile), profile)
            for line in sheet.lines:
                pts[line.name] += line.points
                levels[line.name] += line.extra["levels"]
                dealt[line.name] += line.extra["games_as_dealer"]
                src[line.name].append(e.seq)
        if e.kind == "penalty":
            pts[e.data["name"]] += e.data["points"]
            src[e.data["name"]].append(e.seq)
    place = ranked({p: (pts[p], levels[p], dealt[p]) for p in people.order})
    rows = tuple(Row(place[p], p, {"rank points": pts[p], "levels": levels[p],
                                   "as dealer": dealt[p]}, tuple(src[p]))
                 for p in sorted(people.order, key=lambda p: (place[p], p)))
    return Standings("找朋友 — rank points", ("rank points", "levels", "as dealer"), rows,
                     (f"the top {settings['ranked']} are ranked",))


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    tables = seating(entries, round_no)
    if not tables:
        raise KangleError(f"round {round_no} has no seating yet")
    return [ScoreSheet(f"Round {round_no} — table {t}", tuple(seats),
                       ("game 1", "game 2", "game 3", "game 4", "game 5", "game 6", "game 7",
                        "game 8", "game 9", "game 10", "levels gained", "misplays"),
                       ("Per game: dealer, friend card, defenders' points, bottom x2/x4.",
                        "Referee's signature: ____________"))
            for t, seats in enumerate(tables, start=1)]
