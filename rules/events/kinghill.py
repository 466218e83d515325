"""King of the hill, 擂台 (康樂棋, seed 003 / game-scoring.md §9): the holder (擂主)
plays each challenger in turn and the winner holds the stage. A match is one game;
the record keeps each holder's run of wins.

Entries: ``register`` {name}, ``match`` {holder, challenger, winner} (the first
match names the first holder; a game log's result can be entered with
`kangle event record … --from-game GAME.db`).
"""

from __future__ import annotations

from typing import Any

from rules.errors import KangleError
from rules.events.common import Row, ScoreSheet, Standings, Table, check_register, ranked, roster
from rules.events.store import Entry

NAME = "kinghill"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "match")
GAMES = ("kangle",)
DEFAULTS = {"game": "kangle"}
TABLE_ENTRY = "match"  # what the stage's link for a match enters (``tables``)


def holder(entries: list[Entry]) -> str | None:
    matches = [e for e in entries if e.kind == "match"]
    return matches[-1].data["winner"] if matches else None


def match_from_game(entries: list[Entry], red: str, black: str, winner: str | None,
                    source: str) -> dict[str, Any]:
    """A finished 康樂棋 game (its players' names and the winner's, from its game log
    ``source``) as a match entry: the player who holds the stage is the holder. The
    first match of the event has no holder yet: red (who shot first or won the lag's
    choice) is taken as the holder and the caller says so."""
    if winner is None:
        raise KangleError(f"the game in {source} ended in a draw: a match on the stage needs "
                          "a winner (play the deciding game and enter that log)")
    now = holder(entries)
    if now is not None and now not in (red, black):
        raise KangleError(f"{now} holds the stage but the game in {source} is {red} v "
                          f"{black}: enter the game {now} played")
    first = now or red
    return {"holder": first, "challenger": black if first == red else red, "winner": winner,
            "game": source}


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new)
    if new.kind != "match":
        return
    live = [e for e in entries if e.seq != new.supersedes and e.seq < (new.supersedes or 10**12)]
    d = new.data
    people = roster(live).order
    for role in ("holder", "challenger"):
        if d.get(role) not in people:
            raise KangleError(f"the {role} {d.get(role)!r} is not registered")
    if d["holder"] == d["challenger"]:
        raise KangleError("the holder cannot challenge themself")
    now = holder(live)
    if now is not None and d["holder"] != now:
        raise KangleError(f"{now} holds the stage, not {d['holder']}")
    if d.get("winner") not in (d["holder"], d["challenger"]):
        raise KangleError("the winner is the holder or the challenger")


def runs(entries: list[Entry]) -> list[tuple[str, int, list[int]]]:
    """Each holder's reign: (holder, matches won while holding, entries)."""
    out: list[tuple[str, int, list[int]]] = []
    for e in entries:
        if e.kind != "match":
            continue
        d = e.data
        if not out or out[-1][0] != d["holder"]:
            out.append((d["holder"], 0, []))
        name, wins, src = out[-1]
        if d["winner"] == d["holder"]:
            out[-1] = (name, wins + 1, src + [e.seq])
        else:
            out[-1] = (name, wins, src + [e.seq])
            out.append((d["challenger"], 0, [e.seq]))
    return out


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    people = roster(entries).order
    wins = dict.fromkeys(people, 0)
    losses = dict.fromkeys(people, 0)
    best = dict.fromkeys(people, 0)
    src: dict[str, list[int]] = {p: [] for p in people}
    for e in entries:
        if e.kind == "match":
            d = e.data
            loser = d["challenger"] if d["winner"] == d["holder"] else d["holder"]
            wins[d["winner"]] += 1
            losses[loser] += 1
            for p in (d["winner"], loser):
                src[p].append(e.seq)
    reigns = runs(entries)
    for name, n, _ in reigns:
        best[name] = max(best[name], n)
    place = ranked({p: (best[p], wins[p], -losses[p]) for p in people})
    rows = tuple(Row(place[p], p, {"longest run": best[p], "won": wins[p], "lost": losses[p]},
                     tuple(src[p])) for p in sorted(people, key=lambda p: (place[p], p)))
    notes = [f"holds the stage now: {holder(entries) or 'nobody yet'}"]
    notes += [f"reign {i + 1}: {name}, {n} defence(s) won" for i, (name, n, _) in
              enumerate(reigns)]
    return Standings("擂台 — 康樂棋", ("longest run", "won", "lost"), rows, tuple(notes))


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """The stage's matches as rounds of one table each: every match played (its holder
    and challenger), and the next, open, with the stage's holder (nobody before the
    first match). Each match's sheet carries its own link."""
    played = [e for e in entries if e.kind == "match"]
    now = holder(entries)
    return [Table(n, 1, [e.data["holder"], e.data["challenger"]], False)
            for n, e in enumerate(played, start=1)] + [
        Table(len(played) + 1, 1, [now] if now else [], True)]


def at_table(settings: dict[str, Any], entries: list[Entry], table: Table
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the next match's link fixes: the holder (who holds the stage); the
    challenger and the winner are typed."""
    now = holder(entries)
    return ({"holder": now} if now else {}), {}


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    """Match ``round_no``'s sheet: a match played names its holder and challenger,
    the next one the stage's holder."""
    played = [e for e in entries if e.kind == "match"]
    if round_no > len(played) + 1:
        raise KangleError(f"match {round_no} is not known yet: match {len(played) + 1} is next")
    seats = ((played[round_no - 1].data["holder"], played[round_no - 1].data["challenger"])
             if round_no <= len(played) else (holder(entries) or "holder", "challenger"))
    return [ScoreSheet(f"擂台 match {round_no}", seats,
                       ("lag distance (mm)", "pieces left", "winner"),
                       ("The winner holds the stage.", "Referee's signature: ____________"))]
