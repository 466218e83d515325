"""Rotating tables (Rummikub, seed 000 / game-scoring.md §1 Tournament).

Round 1: the players are seated by a seeded draw (the event's seed; or, with
first_seating = "list", table k seats the 4k-3th … 4kth registered; with "rating", the
highest-rated four at table 1 and so on down). After each game the
top 2 of each table (highest score) move to the next table; the last table's top 2
move to table 1. A tie for a moving place is decided by drawing numbered cards
(highest moves): kangle draws them reproducibly and logs the draw, or a referee
enters the physical draw. Final order: most games won, then highest average score
(a round that could not be finished counts on the games played). Players still
tied for a top-4 place play one deciding game.

Entries: ``register`` {name}, ``withdraw`` {name, from_round}, ``result`` {round,
table, scores: {name: score}}, ``draw`` {round, table, cards: {name: number}}; with
double entry, ``report`` {round, table, scores} (a table's result as one person entered
it: the result is recorded when two reports agree).
A player count that does not divide by 4 gives tables of 3; a withdrawal leaves a
smaller table; a late entry joins the smallest table of the next round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.events.common import (
    Roster,
    Row,
    ScoreSheet,
    Standings,
    Table,
    check_register,
    ranked,
    rating_of,
    remembered,
    roster,
    seeded_draw,
    whole,
)
from rules.events.store import Entry
from rules.fields import is_number

NAME = "rotating"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "withdraw", "result", "draw", "report")
TABLE_ENTRY = "result"  # what a table's own link enters (``tables``): its scores
GAMES = ("rummikub",)
# first_seating: "draw" seats round 1 by a seeded draw (the list's order favours nobody);
# "list" seats the players in the order registered (an organiser's seeded list);
# "rating" by each registration's rating, highest at table 1 (equal ratings by the draw)
DEFAULTS = {"game": "rummikub", "rounds": 3, "table_size": 4, "movers": 2, "top": 4,
            "seed": 0, "zero_sum": True, "first_seating": "draw", "double_entry": False}
# the values each number setting may take (rules.events.formats checks them)
RANGES = {"rounds": (1, 30), "table_size": (2, 8), "movers": (1, 7), "top": (1, 1000),
          "seed": (0, 2**31 - 1)}
# the values each text setting may take (rules.events.formats checks them)
CHOICES = {"first_seating": ("draw", "list", "rating")}


def related(settings: dict[str, Any]) -> list[str]:
    """What the settings' values must make together: the problems, if any."""
    if settings["movers"] >= settings["table_size"]:
        return [f"movers = {settings['movers']} must be fewer than the {settings['table_size']} "
                "players of a table"]
    return []


@dataclass
class Progress:
    """Seatings of every round that can be seated, results and draws so far."""

    seatings: dict[int, list[list[str]]]
    results: dict[tuple[int, int], Entry]
    draws: dict[tuple[int, int], Entry]
    blocked: list[tuple[int, int, list[str]]]  # (round, table, tied) waiting for a draw


@remembered(8)
def progress(settings: dict[str, Any], entries: list[Entry]) -> Progress:
    """Who sits where in every round that can be seated, from the log's entries in force
    (remembered: a station's page, check and draws ask it for the same log)."""
    people, seated = _first_round(settings, [e for e in entries
                                             if e.kind in ("register", "withdraw")])
    results = {(e.data["round"], e.data["table"]): e for e in entries if e.kind == "result"}
    draws = {(e.data["round"], e.data["table"]): e for e in entries if e.kind == "draw"}
    seatings = {1: seated}
    blocked: list[tuple[int, int, list[str]]] = []
    for r in range(1, settings["rounds"]):
        tables = seatings[r]
        if not all((r, t) in results for t in range(1, len(tables) + 1)):
            break
        movers, stayers = [], []
        for t in range(1, len(tables) + 1):
            scores = results[(r, t)].data["scores"]
            up, down, tied = split(scores, settings["movers"],
                                   draws[(r, t)].data["cards"] if (r, t) in draws else None)
            if tied:
                blocked.append((r, t, tied))
            movers.append(up)
            stayers.append(down)
        if blocked:
            break
        nxt = [stayers[t] + movers[t - 1] for t in range(len(tables))]
        seatings[r + 1] = reseat(nxt, people, r + 1)
    return Progress(seatings, results, draws, blocked)


@remembered(8)
def _first_round(settings: dict[str, Any], joined: list[Entry]
                 ) -> tuple[Roster, list[list[str]]]:
    """Who is in the event, and round one's seating, from the log's registrations and
    withdrawals (``joined``) alone: remembered apart from ``progress``, which each
    result makes new (a 64-table round's results come in one by one; its roster and
    seeded draw are the same each time)."""
    people = roster(joined)
    first = people.active(1)
    how = settings.get("first_seating", "draw")
    if how != "list":
        cards = seeded_draw(settings["seed"], first, "first seating")
        rating = {p: rating_of(p, people.info[p]) if how == "rating" else 0.0 for p in first}
        first = sorted(first, key=lambda p: (-rating[p], -cards[p]))
    return people, first_seating(first, settings["table_size"])


def first_seating(players: list[str], size: int) -> list[list[str]]:
    """Tables of ``size`` in the players' order (drawn or as listed); when the count
    does not divide, the last tables get one fewer."""
    if not players:
        return []
    count = math.ceil(len(players) / size)
    sizes = [size] * count
    for k in range(count * size - len(players)):
        sizes[-1 - k % count] -= 1
    out, i = [], 0
    for n in sizes:
        out.append(players[i:i + n])
        i += n
    return out


def split(scores: dict[str, float], movers: int, cards: dict[str, int] | None):
    """Top ``movers`` by score move; a tie across the boundary is settled by the
    draw's cards (highest moves), else reported as ``tied``."""
    order = sorted(scores, key=lambda n: -scores[n])
    if len(order) <= movers:
        return order, [], []
    edge = scores[order[movers - 1]]
    if edge != scores[order[movers]]:
        return order[:movers], order[movers:], []
    tied = [n for n in order if scores[n] == edge]
    if cards is None or not set(tied) <= set(cards):
        return [], [], tied
    order = sorted(scores, key=lambda n: (-scores[n], -cards.get(n, 0)))
    return order[:movers], order[movers:], []


def reseat(tables: list[list[str]], people: Roster, round_no: int) -> list[list[str]]:
    """Drop players who withdrew before this round; seat late entries at the smallest
    tables; fold a table left with one player into the next smallest."""
    active = set(people.active(round_no))
    tables = [[p for p in t if p in active] for t in tables]
    seated = {p for t in tables for p in t}
    for p in people.active(round_no):
        if p not in seated:
            min(tables, key=len).append(p)
    while len(tables) > 1 and min(len(t) for t in tables) < 2:
        lone = min(tables, key=len)
        tables.remove(lone)
        min(tables, key=len).extend(lone)
    return [t for t in tables if t]


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new, rated=settings.get("first_seating") == "rating")
    state = progress(settings, [e for e in entries if e.seq != new.supersedes])
    if new.kind == "report" and not settings.get("double_entry"):
        raise KangleError("reports are for double entry (--set double_entry=true): enter the "
                          "result itself")
    if new.kind in ("result", "report"):
        r, t, scores = new.data.get("round"), new.data.get("table"), new.data.get("scores")
        if not whole(r) or r not in state.seatings:
            raise KangleError(f"round {r} cannot be seated yet: finish round {r - 1} first"
                              if whole(r) and r > 1 else f"there is no round {r}")
        tables = state.seatings[r]
        if not whole(t) or not 1 <= t <= len(tables):
            raise KangleError(f"round {r} has tables 1-{len(tables)}, not {t}")
        if not isinstance(scores, dict):
            raise KangleError("a result needs \"scores\": {player: score}")
        if set(scores) != set(tables[t - 1]):
            raise KangleError(f"round {r} table {t} seats {', '.join(tables[t - 1])}; the result "
                              f"names {', '.join(scores)}")
        odd = [f"{n}'s {v!r:.24}" for n, v in scores.items() if not is_number(v)]
        if odd:
            raise KangleError(f"round {r} table {t}: {', '.join(odd)} is no score: a score is "
                              "a finite number")
        if settings.get("zero_sum") and abs(sum(scores.values())) > 1e-9:
            raise KangleError(f"round {r} table {t}: the scores sum to {sum(scores.values()):g}, "
                              "not 0 — a Rummikub table's scores always cancel out")
        if (r, t) in state.results and new.supersedes is None:
            raise KangleError(f"round {r} table {t} is already entered (entry "
                              f"{state.results[(r, t)].seq}); correct it instead")
    if new.kind == "draw":
        key = (new.data.get("round"), new.data.get("table"))
        if key in state.draws and new.supersedes is None:
            raise KangleError(f"the draw of round {key[0]} table {key[1]} is already entered")


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """Every table seated so far, open while its result is not in."""
    state = progress(settings, entries)
    return [Table(r, t, seats, (r, t) not in state.results)
            for r, seated in sorted(state.seatings.items())
            for t, seats in enumerate(seated, start=1)]


def result_entry(round_no: int, table: int, scores: dict[str, float]) -> dict[str, Any]:
    """The entry data of one table's result (checked when recorded, as any entry)."""
    return {"round": round_no, "table": table, "scores": scores}


def agreed(entries: list[Entry], round_no: int, table: int) -> dict[str, float] | None:
    """Double entry: the scores two reports of this table agree on, if two do."""
    seen: list[dict] = []
    for e in entries:
        if e.kind == "report" and (e.data.get("round"), e.data.get("table")) == (round_no,
                                                                                   table):
            if e.data["scores"] in seen:
                return e.data["scores"]
            seen.append(e.data["scores"])
    return None


def pending_draws(settings: dict[str, Any], entries: list[Entry]) -> list[dict[str, Any]]:
    """Seeded draws for the ties that block the next seating (to be logged as entries)."""
    state = progress(settings, entries)
    return [{"round": r, "table": t, "cards": seeded_draw(settings["seed"], tied, "move", r, t),
             "how": "seeded draw"} for r, t, tied in state.blocked]


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    state = progress(settings, entries)
    people = roster(entries)
    games: dict[str, list[float]] = {p: [] for p in people.order}
    wins = dict.fromkeys(people.order, 0)
    sources: dict[str, list[int]] = {p: [] for p in people.order}
    for e in state.results.values():
        scores = e.data["scores"]
        top = max(scores.values())
        for p, s in scores.items():
            games[p].append(s)
            wins[p] += s == top
            sources[p].append(e.seq)
    average = {p: (sum(g) / len(g) if g else 0.0) for p, g in games.items()}
    keys = {p: (wins[p], average[p]) for p in people.order}
    place = ranked(keys)
    rows = tuple(Row(place[p], p, {"won": wins[p], "played": len(games[p]),
                                   "average": round(average[p], 2)}, tuple(sources[p]))
                 for p in sorted(people.order, key=lambda p: (place[p], p)))
    notes = []
    top = settings["top"]
    done = max((r for r in state.seatings if all((r, t) in state.results for t in range(
        1, len(state.seatings[r]) + 1))), default=0)
    for rank in sorted({r.rank for r in rows if r.rank <= top}):
        same = [r.name for r in rows if r.rank == rank]
        if len(same) > 1 and done == settings["rounds"]:
            notes.append(f"{', '.join(same)} are tied at place {rank} (top {top}): they play "
                         "one deciding game")
    notes.append(f"rounds complete: {done} of {settings['rounds']}")
    for r, t, tied in state.blocked:
        notes.append(f"round {r} table {t}: {', '.join(tied)} tied for a moving place — "
                     "enter the draw (or let kangle draw)")
    return Standings(f"Rotating tables ({settings['game']})", ("won", "played", "average"),
                     rows, tuple(notes))


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    state = progress(settings, entries)
    if round_no not in state.seatings:
        raise KangleError(f"round {round_no} cannot be seated yet")
    return [ScoreSheet(f"Round {round_no} — table {t}", tuple(seats),
                       ("drawn number", "seat (highest number starts, clockwise)",
                        "initial meld made (Y/N)", "tiles left / penalty", "score"),
                       ("The four scores must add up to 0.",
                        "Ties for the top 2 (who move on): draw numbered cards, highest moves.",
                        "Referee's signature: ____________"))
            for t, seats in enumerate(state.seatings[round_no], start=1)]
