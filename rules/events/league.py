"""League with placement points and a final (Ticket to Ride, Monopoly Deal, Blokus,
Pictionary; seed 002 / game-scoring.md §4-7).

Every league game is scored by its game's scorer; a player's league total is the sum
of the points it awards (placement points, Pictionary's 5/3/4, or Blokus' score).
The top ``finalists`` by league total play the final (``final_games`` games, a
setting: Blokus' sheet says both 1 and 3); ties in the league go to the higher total
in-game score.

Entries: ``register`` {name}, ``withdraw`` {name, from_round}, ``game`` {stage:
"league" | "final", result: the game's result JSON}.
"""

from __future__ import annotations

from typing import Any

from rules.errors import KangleError
from rules.events.common import Row, ScoreSheet, Standings, check_register, ranked, roster
from rules.events.store import Entry
from rules.games.registry import game as game_module

NAME = "league"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "withdraw", "game")
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
    people = roster(entries).active(round_no)
    size = 2 if settings["game"] == "pictionary" else 4
    tables = [people[i:i + size] for i in range(0, len(people), size)]
    return [ScoreSheet(f"{settings['game']} — game {round_no}, table {t}", tuple(seats),
                       ("in-game score", "place", "placement points"),
                       ("Ties in one game share the points of their places, averaged.",
                        "Referee's signature: ____________"))
            for t, seats in enumerate(tables, start=1)]
