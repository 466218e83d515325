"""League with placement points and a final (Ticket to Ride, Monopoly Deal, Blokus,
Pictionary; seed 002 / game-scoring.md §4-7).

Every league game is scored by its game's scorer; a player's league total is the sum
of the points it awards (placement points, Pictionary's 5/3/4, or Blokus' score).
The top ``finalists`` by league total play the final (``final_games`` games, a
setting: Blokus' sheet says both 1 and 3); ties in the league go to the higher total
in-game score.

Rounds: league game N of every player is round N (1 to ``games_each``), its tables
the players still in, four to a table (two teams at Pictionary), seated so that they
meet new opponents (``_league_rounds``); the final's games are the rounds after, once
every league game is in.
Each table's result can be entered through its own link (``tables``).

Entries: ``register`` {name}, ``withdraw`` {name, from_round}, ``game`` {stage:
"league" | "final", result: the game's result JSON, and — entered for a table of a
round, as its link does — round, table}.
"""

from __future__ import annotations

import functools
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
    whole,
)
from rules.events.store import Entry
from rules.games.registry import game as game_module

NAME = "league"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "withdraw", "game")
TABLE_ENTRY = "game"  # what a table's own link enters (``tables``): its game's result
GAMES = ("tickettoride", "monopolydeal", "blokus", "pictionary")
DEFAULTS = {"game": "tickettoride", "games_each": 3, "finalists": 4, "final_games": 1}
# the values each number setting may take (rules.events.formats checks them)
RANGES = {"games_each": (1, 30), "finalists": (2, 64), "final_games": (1, 9)}


def _scored(settings: dict[str, Any], result: Any) -> dict[str, tuple[float, float]]:
    """{name: (league points, in-game score)} of one game's result (of the event's game:
    a result that names another is refused)."""
    if isinstance(result, dict) and result.get("game", settings["game"]) != settings["game"]:
        raise KangleError(f"this result is of {result['game']!r}, not of the event's game "
                          f"{settings['game']!r}")
    module = game_module(settings["game"])
    profile = module.load_profile(None)
    sheet = module.score(module.read(result, profile), profile)
    return {line.name: (line.points if line.points is not None else line.score, line.score)
            for line in sheet.lines}


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new)
    if new.kind != "game":
        return
    stage = new.data.get("stage")
    if stage not in ("league", "final"):
        raise KangleError("a game's stage is \"league\" or \"final\"")
    scored = _scored(settings, new.data.get("result"))
    people = roster(entries)
    unknown = [n for n in scored if n not in people.order]
    if unknown:
        raise KangleError(f"{', '.join(unknown)} is not registered in this event")
    live = [e for e in entries if e.seq != new.supersedes]
    if "round" in new.data or "table" in new.data:
        _check_table(settings, live, new, set(scored))
    if stage == "league":
        played = _played(settings, live)
        full = [n for n in scored if played.get(n, 0) >= settings["games_each"]]
        if full:
            raise KangleError(f"{', '.join(full)} already played {settings['games_each']} "
                              "league games")
    else:
        finalists = _finalists(settings, live)
        outsiders = [n for n in scored if n not in finalists]
        if outsiders:
            raise KangleError(f"{', '.join(outsiders)} did not qualify for the final "
                              f"(finalists: {', '.join(finalists)})")
        if sum(e.data.get("stage") == "final" for e in live if e.kind == "game") >= settings[
                "final_games"]:
            raise KangleError(f"the final has {settings['final_games']} game(s), all entered")


def _check_table(settings: dict[str, Any], live: list[Entry], new: Entry,
                 players: set[str]) -> None:
    """A game entered for a table of a round: the table must be seated, its stage the
    round's, its players the table's, and its result not yet in."""
    r, t = new.data.get("round"), new.data.get("table")
    if not whole(r) or not whole(t):
        raise KangleError("a game entered for a table gives both its round and its table "
                          "as whole numbers")
    seated = [table for table in tables(settings, live) if table.round == r]
    if not seated:
        raise KangleError(f"round {r} is not seated: {_rounds_said(settings)}")
    if not 1 <= t <= len(seated):
        raise KangleError(f"round {r} has tables 1-{len(seated)}")
    stage = "league" if r <= settings["games_each"] else "final"
    if new.data["stage"] != stage:
        raise KangleError(f"round {r} is a {stage} game")
    seats = seated[t - 1].seats
    if players != set(seats):
        raise KangleError(f"round {r} table {t} seats {', '.join(seats)}")
    for e in live:
        if e.kind == "game" and (e.data.get("round"), e.data.get("table")) == (r, t):
            raise KangleError(f"round {r} table {t} is already entered (entry {e.seq})")


def _rounds_said(settings: dict[str, Any]) -> str:
    n, f = settings["games_each"], settings["final_games"]
    final = f"round {n + 1}" if f == 1 else f"rounds {n + 1}-{n + f}"
    return f"the league games are rounds 1-{n}, the final {final}, once every league game is in"


def _seating(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[list[str]]:
    """The tables of a round: a league round's players still in, four to a table (two
    teams at Pictionary; ``_league_rounds``); a final round's one table, the finalists,
    once every player still in has played all their league games, or every league
    table's game is in (a player who joined late plays fewer). KangleError for a round
    that is neither (yet)."""
    n = settings["games_each"]
    if not whole(round_no) or not 1 <= round_no <= n + settings["final_games"]:
        raise KangleError(f"no round {round_no}: {_rounds_said(settings)}")
    if round_no <= n:
        people = roster(entries)
        size = 2 if settings["game"] == "pictionary" else 4
        return list(map(list, _league_rounds(
            tuple(tuple(people.active(r)) for r in range(1, round_no + 1)), size)[-1]))
    played = _played(settings, entries)
    if any(played.get(p, 0) < n for p in roster(entries).active(n)) and any(
            t.open for r in range(1, n + 1) for t in _tables_of(settings, entries, r, played)):
        raise KangleError(f"round {round_no} is the final, seated once every league game "
                          "is in")
    return [_finalists(settings, entries)]


@functools.lru_cache(maxsize=256)  # every page and every entry asks for the rounds
def _league_rounds(active: tuple[tuple[str, ...], ...], size: int
                   ) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The tables of each league round, given who is still in each (in the roster's
    order). As many tables as ``size`` a table needs, as even as can be, and no one
    alone: nine players at four a table sit 3, 3, 3 (never 4, 4, 1), five teams at two
    a table 3, 2. Each table is filled from its first player still unseated with whoever
    has met those already there least often in the rounds before (the earliest in the
    roster on a tie): players meet new opponents round after round (16 players, three
    rounds at four a table: no two meet twice), and a round's seating changes only with
    who is in it and in the rounds before."""
    met: dict[frozenset[str], int] = {}
    rounds = []
    for people in active:
        if not people:
            rounds.append(())
            continue
        count = max(1, min(-(-len(people) // size), len(people) // 2))  # none alone
        sizes = [len(people) // count + (k < len(people) % count) for k in range(count)]
        left, seated = list(people), []
        for n in sizes:
            table = left[:1]
            del left[:1]
            while len(table) < n:
                best = min(left, key=lambda p: sum(met.get(frozenset((p, q)), 0)
                                                    for q in table))
                left.remove(best)
                table.append(best)
            seated.append(tuple(table))
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    met[frozenset((p, q))] = met.get(frozenset((p, q)), 0) + 1
        rounds.append(tuple(seated))
    return tuple(rounds)


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """Every table of every round seated so far, open while its game may still be
    entered: not entered for it, no player there through with the stage's games (a
    game typed at the desk without its table counts too)."""
    played = _played(settings, entries)
    out = []
    for r in range(1, settings["games_each"] + settings["final_games"] + 1):
        try:
            out += _tables_of(settings, entries, r, played)
        except KangleError:
            break
    return out


def _tables_of(settings: dict[str, Any], entries: list[Entry], round_no: int,
               played: dict[str, int]) -> list[Table]:
    """The tables of one round (``tables``), given the league games each has played."""
    done = {(e.data.get("round"), e.data.get("table")) for e in entries if e.kind == "game"}
    final_in = sum(e.data["stage"] == "final" for e in entries if e.kind == "game") >= \
        settings["final_games"]

    def through(seats: list[str]) -> bool:  # no more games of the round's stage for them
        if round_no > settings["games_each"]:
            return final_in
        return any(played.get(p, 0) >= settings["games_each"] for p in seats)
    return [Table(round_no, t, list(seats), (round_no, t) not in done and not through(seats))
            for t, seats in enumerate(_seating(settings, entries, round_no), start=1)]


def at_table(settings: dict[str, Any], entries: list[Entry], table: Table
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a table's link fixes of its game (its stage, round and table); its form
    starts empty (the game's result, its players the table's)."""
    stage = "league" if table.round <= settings["games_each"] else "final"
    return {"stage": stage, "round": table.round, "table": table.number}, {}


def _played(settings, entries) -> dict[str, int]:
    played: dict[str, int] = {}
    for e in entries:
        if e.kind == "game" and e.data["stage"] == "league":
            for n in _scored(settings, e.data["result"]):
                played[n] = played.get(n, 0) + 1
    return played


def _table(settings, entries, stage):
    points: dict[str, float] = {}
    score: dict[str, float] = {}
    games: dict[str, int] = {}
    sources: dict[str, list[int]] = {}
    for e in entries:
        if e.kind == "game" and e.data["stage"] == stage:
            for n, (p, s) in _scored(settings, e.data["result"]).items():
                points[n] = points.get(n, 0) + p
                score[n] = score.get(n, 0) + s
                games[n] = games.get(n, 0) + 1
                sources.setdefault(n, []).append(e.seq)
    return points, score, games, sources


def _finalists(settings, entries) -> list[str]:
    points, score, _, _ = _table(settings, entries, "league")
    order = sorted(points, key=lambda n: (-points[n], -score[n], n))
    return order[:settings["finalists"]]


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    people = roster(entries)
    points, score, games, sources = _table(settings, entries, "league")
    for n in people.order:
        points.setdefault(n, 0)
        score.setdefault(n, 0)
    place = ranked({n: (points[n], score[n]) for n in people.order})
    rows = tuple(Row(place[n], n, {"points": points[n], "games": games.get(n, 0),
                                   "game score": score[n]}, tuple(sources.get(n, ())))
                 for n in sorted(people.order, key=lambda n: (place[n], n)))
    league = Standings(f"League ({settings['game']})", ("points", "games", "game score"), rows,
                       (f"top {settings['finalists']} play the final",))
    fp, fs, fg, fsrc = _table(settings, entries, "final")
    if not fg:
        return league
    fplace = ranked({n: (fp[n], fs[n]) for n in fp})
    final = Standings("Final", ("points", "game score"), tuple(
        Row(fplace[n], n, {"points": fp[n], "game score": fs[n]}, tuple(fsrc[n]))
        for n in sorted(fp, key=lambda n: (fplace[n], n))))
    return Standings(f"{settings['game']} — final standings", final.columns, final.rows,
                     league.notes, (league,))


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    """A sheet for each table of the round (``_seating``)."""
    n = settings["games_each"]
    title = (f"game {round_no}" if round_no <= n else
             "final" if settings["final_games"] == 1 else f"final, game {round_no - n}")
    return [ScoreSheet(f"{settings['game']} — {title}, table {t}", tuple(seats),
                       ("in-game score", "place", "placement points"),
                       ("Ties in one game share the points of their places, averaged.",
                        "Referee's signature: ____________"))
            for t, seats in enumerate(_seating(settings, entries, round_no), start=1)]
