"""Elimination rounds with merged survivors and team totals: UNO 拉超聯 (seed 001 /
game-scoring.md §2).

Each day (team) sends one player to group A and one to group B. Round 1: each group
plays hands until 3 of its players have reached -200; round 2: the 3 survivors of
each group play together until 3 more are out. A day's score is its two players'
total (an eliminated player counted at -200); ties go to the day whose player was
eliminated later; house-league points = placement points + 5 per supporter.

Entries: ``register`` {name, day, group: "A" | "B"}, ``hand`` {round: 1 | 2, group:
"A" | "B" (round 1), out, held: {player: [cards]}}, ``supporters`` {day, count}.
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
    roster,
    whole,
)
from rules.events.store import Entry
from rules.games import uno

NAME = "elimination"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "hand", "supporters")
GAMES = ("uno",)
DEFAULTS = {"game": "uno", "per_round": 3}
# the values each number setting may take (rules.events.formats checks them)
RANGES = {"per_round": (1, 100)}
TABLE_ENTRY = "hand"  # what a group's link enters (``tables``): each hand it plays
REGISTER_UNIQUE = (("day", "group"),)  # one player per day and group


def _run(settings, entries):
    """Replay the hands: totals, who is out (and at which entry), who plays where."""
    profile = uno.load_profile(None)
    people = roster(entries)
    totals = dict.fromkeys(people.order, 0)
    out_at: dict[str, int] = {}
    out_round: dict[str, int] = {}
    for e in entries:
        if e.kind != "hand":
            continue
        for name, cards in e.data["held"].items():
            totals[name] -= sum(uno.card_value(c, profile) for c in cards)
            if totals[name] <= profile.elimination_score and name not in out_at:
                out_at[name] = e.seq
                out_round[name] = e.data["round"]
    return people, totals, out_at, out_round, profile


def players_of(settings, entries, round_no: int, group: str | None) -> list[str]:
    return _seated(settings, _run(settings, entries), round_no, group)


def _seated(settings, run, round_no: int, group: str | None) -> list[str]:
    """Who plays in a round (and group, in round 1), from the hands replayed (``_run``)."""
    people, _, _, out_round, _ = run
    if round_no == 1:
        return [p for p in people.order if people.info[p].get("group") == group]
    survivors = []
    for g in ("A", "B"):
        members = [p for p in people.order if people.info[p].get("group") == g]
        gone = [p for p in members if out_round.get(p) == 1]
        if len(gone) < settings["per_round"]:
            raise KangleError(f"round 2 starts when {settings['per_round']} players of group "
                              f"{g} are out (so far {len(gone)})")
        survivors += [p for p in members if p not in gone]
    return survivors


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new)
    if new.kind == "register" and new.data.get("group") not in ("A", "B"):
        raise KangleError("each day's player is in group \"A\" or \"B\"")
    if new.kind == "register":
        same = [p for p, i in roster(entries).info.items()
                if i.get("day") == new.data.get("day") and i.get("group") == new.data["group"]]
        if same:
            raise KangleError(f"{new.data.get('day')} already has {same[0]} in group "
                              f"{new.data['group']}")
    if new.kind != "hand":
        return
    live = [e for e in entries if e.seq != new.supersedes and e.seq < (new.supersedes or 10**12)]
    r, g = new.data.get("round"), new.data.get("group")
    if not whole(r) or r not in (1, 2):
        raise KangleError("a hand is in round 1 or 2")
    run = _run(settings, live)
    seated = _seated(settings, run, r, g if r == 1 else None)
    _, _, out_at, out_round, profile = run
    out = [p for p in seated if p in out_at]
    if len([p for p in out if out_round[p] == r]) >= settings["per_round"]:
        raise KangleError(f"round {r}{' group ' + g if r == 1 else ''} is over: "
                          f"{settings['per_round']} players are out")
    playing = [p for p in seated if p not in out_at]
    names = {new.data.get("out"), *new.data.get("held", {})}
    wrong = sorted(n for n in names if n not in playing)
    if wrong:
        raise KangleError(f"{', '.join(map(str, wrong))} is not playing in this round and "
                          f"group (playing: {', '.join(playing)})")
    for name, cards in new.data["held"].items():
        if not isinstance(cards, list):
            raise KangleError(f"held.{name}: the cards {name} held are a list, like "
                              "[\"7\", \"skip\", \"wild\"]")
        for c in cards:
            uno.card_value(c, profile)


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """Round 1's groups (table 1 is group A, table 2 group B), then round 2's merged
    table once both groups are through: each open, for its hands, until per_round of
    its players are out."""
    run = _run(settings, entries)
    _, _, _, out_round, _ = run
    out = []
    for round_no, groups in ((1, ("A", "B")), (2, (None,))):
        for number, g in enumerate(groups, start=1):
            try:
                seats = _seated(settings, run, round_no, g)
            except KangleError:
                return out  # round 2 is not seated yet
            gone = sum(out_round.get(p) == round_no for p in seats)
            out.append(Table(round_no, number, seats, gone < settings["per_round"]))
    return out


def at_table(settings: dict[str, Any], entries: list[Entry], table: Table
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a group's link fixes of each hand it enters (its round, and its group in
    round 1); the form starts from the players still in, a line each for their cards."""
    _, _, out_at, _, _ = _run(settings, entries)
    fixed = {"round": table.round} | ({"group": "AB"[table.number - 1]}
                                       if table.round == 1 else {})
    return fixed, {"held": {p: [] for p in table.seats if p not in out_at}}


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    people = roster(entries)
    hands = [e for e in entries if e.kind == "hand"]
    fans = {e.data["day"]: e.data["count"] for e in entries if e.kind == "supporters"}
    event = uno.Event({p: people.info[p].get("day", p) for p in people.order},
                      tuple((e.data["out"], {n: sum(uno.card_value(c, uno.Profile()) for c in cs)
                                             for n, cs in e.data["held"].items()})
                            for e in hands), fans)
    profile = uno.load_profile(None)
    sheet = uno.score(event, profile)
    rows = tuple(Row(line.rank, line.name, {"total": line.score, "league points": line.points,
                                            "players": ", ".join(f"{n} {v}" for n, v in
                                                                  line.extra["players"].items())},
                     tuple(e.seq for e in hands)) for line in sheet.lines)
    return Standings("UNO 拉超聯 — days", ("total", "league points", "players"), rows,
                     sheet.notes)


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    groups = ("A", "B") if round_no == 1 else (None,)
    out = []
    for g in groups:
        seats = players_of(settings, entries, round_no, g)
        out.append(ScoreSheet(f"Round {round_no}" + (f" — group {g}" if g else " — merged"),
                              tuple(seats), ("hand 1", "hand 2", "hand 3", "hand 4", "hand 5",
                                             "running total", "out at hand"),
                              ("Number cards face value; Draw Two, Reverse, Skip 20; "
                               "Wild, Wild Draw Four 50.",
                               "A player is out at -200.", "Referee's signature: ____________")))
    return out
