"""Groups, round robin, then knockout with a third-place match and best-of-3 finals
(三国杀 3v3, 16 teams; seed 002 / game-scoring.md §3).

The groups are drawn reproducibly (seeded, logged; by pots of rating with seeding =
"rating") or entered by a referee. Group
table: 3/1/0 points, then head-to-head among the tied teams, then a referee decision
entered in the log. Quarter-finals A1-B2, B1-A2, C1-D2, D1-C2; semi-finals QF1 v QF2
winners and QF3 v QF4 winners; the losers play for third place. The final and the
third-place match are best of 3 (first to 2 wins).

Entries: ``register`` {name}, ``groups`` {groups: {"A": [...], …}}, ``match``
{stage: "group" | "qf1"… | "sf1" | "sf2" | "third" | "final", teams: [a, b],
result: a 三国杀 match result, or winner: a | b | null (a draw)}, ``decision``
{group, order: [...]}.
"""

from __future__ import annotations

from typing import Any

from rules.errors import KangleError
from rules.events.common import (
    Roster,
    Row,
    ScoreSheet,
    Standings,
    Table,
    check_register,
    rating_of,
    roster,
    seeded_draw,
)
from rules.events.store import Entry
from rules.games import sanguosha

NAME = "knockout"
# the entry kinds this format takes (besides "void")
ENTRIES = ("register", "groups", "match", "decision")
TABLE_ENTRY = "match"  # what a match's own link enters (``tables``)
GAMES = ("sanguosha",)
DEFAULTS = {"game": "sanguosha", "groups": 4, "advance": 2, "best_of": 3, "seed": 0,
            "seeding": "draw"}
# the values each number setting may take (rules.events.formats checks them): the sheet's
# bracket is quarter-finals of four groups' top two
RANGES = {"groups": (4, 4), "advance": (2, 2), "best_of": (1, 9), "seed": (0, 2**31 - 1)}
# the values each text setting may take: "draw" draws every team into the groups at
# random (seeded); "rating" puts the teams in pots by rating (the top four, the next
# four, …) and draws one team of each pot into each group, so the strongest meet later
CHOICES = {"seeding": ("draw", "rating")}
LETTERS = "ABCDEFGH"
BRACKET = {"qf1": (("A", 1), ("B", 2)), "qf2": (("B", 1), ("A", 2)),
           "qf3": (("C", 1), ("D", 2)), "qf4": (("D", 1), ("C", 2))}
LATER = {"sf1": ("qf1", "qf2"), "sf2": ("qf3", "qf4")}


def related(settings: dict[str, Any]) -> list[str]:
    """What the settings' values must make together: the problems, if any."""
    if settings["best_of"] % 2 == 0:
        return [f"best_of = {settings['best_of']} must be odd (a series that cannot be tied)"]
    return []


def draw_groups(settings: dict[str, Any], people: Roster) -> dict[str, list[str]]:
    """The seeded draw of the registered teams into the groups (by pots of rating with
    ``seeding = "rating"``), refused where the group games would decide nothing (a
    group no larger than the number that advance from it)."""
    teams = people.order
    n, advance = settings["groups"], settings["advance"]
    if len(teams) < n * (advance + 1):
        raise KangleError(f"{len(teams)} teams in {n} groups with {advance} advancing from "
                          f"each: some group would have no more than {advance} teams and "
                          f"its games would decide nothing; this format needs at least "
                          f"{n * (advance + 1)} teams")
    cards = seeded_draw(settings["seed"], teams, "groups")
    order = sorted(teams, key=lambda t: cards[t])
    if settings.get("seeding") == "rating":
        strongest = sorted(teams, key=lambda t: (-rating_of(t, people.info[t]), -cards[t]))
        pots = [strongest[k:k + n] for k in range(0, len(teams), n)]
        order = [t for pot in pots for t in sorted(pot, key=lambda t: cards[t])]
    return {LETTERS[g]: order[g::n] for g in range(n)}


def groups_of(entries: list[Entry]) -> dict[str, list[str]] | None:
    found = [e for e in entries if e.kind == "groups"]
    return found[-1].data["groups"] if found else None


def winner_of(settings: dict[str, Any], e: Entry) -> str | None:
    data = e.data
    if "result" in data:
        profile = sanguosha.load_profile(None)
        match = sanguosha.read(data["result"], profile)
        names = {c.name for c in match.camps}
        if names != set(data["teams"]):
            raise KangleError(f"the result's camps ({', '.join(sorted(names))}) are not the "
                              f"match's teams ({', '.join(data['teams'])})")
        return sanguosha.decide(match, profile)[0]
    w = data.get("winner")
    if w is not None and w not in data["teams"]:
        raise KangleError(f"the winner must be one of {', '.join(data['teams'])}")
    return w


def group_table(settings, entries, letter, teams) -> tuple[list[str], dict, list[str]]:
    """Teams in order, their records, and notes on ties still open."""
    rec = {t: {"P": 0, "W": 0, "D": 0, "L": 0, "Pts": 0, "src": []} for t in teams}
    results = []
    for e in entries:
        if e.kind == "match" and e.data.get("stage") == "group" and e.data.get("group") == letter:
            a, b = e.data["teams"]
            w = winner_of(settings, e)
            results.append((a, b, w))
            for t in (a, b):
                rec[t]["P"] += 1
                rec[t]["src"].append(e.seq)
                if w is None:
                    rec[t]["D"] += 1
                    rec[t]["Pts"] += 1
                elif w == t:
                    rec[t]["W"] += 1
                    rec[t]["Pts"] += 3
                else:
                    rec[t]["L"] += 1

    def h2h(team: str, among: set[str]) -> int:
        pts = 0
        for a, b, w in results:
            if {a, b} <= among and team in (a, b):
                pts += 1 if w is None else 3 if w == team else 0
        return pts

    decision = next((e.data["order"] for e in reversed(entries)
                     if e.kind == "decision" and e.data.get("group") == letter), None)
    order, notes = [], []
    for pts in sorted({r["Pts"] for r in rec.values()}, reverse=True):
        tied = [t for t in teams if rec[t]["Pts"] == pts]
        tied.sort(key=lambda t: -h2h(t, set(tied)))
        still = len({h2h(t, set(tied)) for t in tied}) < len(tied)
        if still and decision and set(tied) <= set(decision):
            tied.sort(key=decision.index)
        elif still and len(tied) > 1 and len(results) == len(teams) * (len(teams) - 1) // 2:
            # a tie is only a tie once every game of the group is played
            notes.append(f"group {letter}: {', '.join(tied)} tied on points and head-to-head: "
                         "enter a referee decision")
        order.extend(tied)
    return order, rec, notes


def _slots(settings, entries) -> tuple[dict[str, tuple[str, str] | None], dict[str, str]]:
    """Teams of each knockout match (None while unknown) and each series' winner."""
    groups = groups_of(entries)
    slots: dict[str, tuple[str, str] | None] = {}
    winners: dict[str, str] = {}
    complete = groups and all(
        sum(1 for e in entries if e.kind == "match" and e.data.get("stage") == "group"
            and e.data.get("group") == g) == len(ts) * (len(ts) - 1) // 2
        for g, ts in groups.items())
    tables = {g: group_table(settings, entries, g, ts) for g, ts in (groups or {}).items()}
    for slot, ((g1, p1), (g2, p2)) in BRACKET.items():
        ok = complete and g1 in tables and g2 in tables and not tables[g1][2] and not tables[
            g2][2]
        slots[slot] = (tables[g1][0][p1 - 1], tables[g2][0][p2 - 1]) if ok else None
    for slot in LATER:
        slots[slot] = None
    series: dict[str, dict[str, int]] = {}
    for e in entries:
        if e.kind == "match" and e.data.get("stage") in {*BRACKET, *LATER, "third", "final"}:
            w = winner_of(settings, e)
            if w:
                series.setdefault(e.data["stage"], {}).setdefault(w, 0)
                series[e.data["stage"]][w] += 1
    need = {"third": settings["best_of"] // 2 + 1, "final": settings["best_of"] // 2 + 1}

    def settle(slot: str) -> None:
        if slots.get(slot) is None:
            return
        wins = series.get(slot, {})
        for team, n in wins.items():
            if n >= need.get(slot, 1):
                winners[slot] = team

    for slot in BRACKET:
        settle(slot)
    for slot, (x, y) in LATER.items():
        if x in winners and y in winners:
            slots[slot] = (winners[x], winners[y])
            settle(slot)
    if "sf1" in winners and "sf2" in winners:
        losers = [next(t for t in slots[s] if t != winners[s]) for s in ("sf1", "sf2")]
        slots["third"] = (losers[0], losers[1])
        slots["final"] = (winners["sf1"], winners["sf2"])
        settle("third")
        settle("final")
    else:
        slots["third"] = slots["final"] = None
    return slots, winners


def check(settings: dict[str, Any], entries: list[Entry], new: Entry) -> None:
    check_register(entries, new, rated=settings.get("seeding") == "rating")
    live = [e for e in entries if e.seq != new.supersedes]
    if new.kind == "groups":
        drawn = next((e.seq for e in live if e.kind == "groups"), None)
        if drawn is not None:
            raise KangleError(f"the groups are already drawn (entry {drawn}): to change them, "
                              f"correct entry {drawn}")
        teams = sorted(t for ts in new.data.get("groups", {}).values() for t in ts)
        if teams != sorted(roster(live).order):
            raise KangleError("the groups must hold every registered team exactly once")
        if any(e.data.get("stage") == "group" for e in live if e.kind == "match"):
            raise KangleError("group matches are already entered: the groups are fixed")
    if new.kind != "match":
        return
    stage, teams = new.data.get("stage"), new.data.get("teams")
    if not (isinstance(teams, list) and len(teams) == 2 and teams[0] != teams[1]):
        raise KangleError("a match has two different teams: \"teams\": [a, b]")
    if "result" not in new.data and "winner" not in new.data:
        raise KangleError("a match says how it ended: \"result\" (a 三国杀 result) or "
                          "\"winner\" (a team, or null for a draw)")
    if stage == "group":
        groups = groups_of(live)
        g = new.data.get("group")
        if not groups or g not in groups or not set(teams) <= set(groups[g]):
            raise KangleError(f"{' and '.join(teams)} are not both in group {g}")
        for e in live:
            if (e.kind == "match" and e.data.get("stage") == "group" and
                    set(e.data["teams"]) == set(teams)):
                raise KangleError(f"{' v '.join(teams)} is already entered (entry {e.seq}); "
                                  "correct it instead")
    else:
        slots, winners = _slots(settings, live)
        if stage not in slots:
            raise KangleError(f"unknown stage {stage!r}: group, qf1-qf4, sf1, sf2, third, final")
        if slots[stage] is None or set(slots[stage]) != set(teams):
            expected = " v ".join(slots[stage]) if slots[stage] else "not known yet"
            raise KangleError(f"{stage} is {expected}, not {' v '.join(teams)}")
        if stage in winners:
            raise KangleError(f"{stage} is already decided: {winners[stage]} won")
    winner_of(settings, new)


def standings(settings: dict[str, Any], entries: list[Entry]) -> Standings:
    groups = groups_of(entries) or {}
    sections, notes = [], []
    for g, teams in groups.items():
        order, rec, open_ties = group_table(settings, entries, g, teams)
        notes.extend(open_ties)
        rows = tuple(Row(i + 1, t, {k: rec[t][k] for k in ("P", "W", "D", "L", "Pts")},
                         tuple(rec[t]["src"])) for i, t in enumerate(order))
        sections.append(Standings(f"Group {g}", ("P", "W", "D", "L", "Pts"), rows))
    slots, winners = _slots(settings, entries)
    bracket = []
    for slot in (*BRACKET, *LATER, "third", "final"):
        teams = " v ".join(slots[slot]) if slots.get(slot) else _pending(slot)
        bracket.append(f"{slot}: {teams}" + (f" — won by {winners[slot]}" if slot in winners
                                              else ""))
    rows = ()
    if "final" in winners and "third" in winners:
        champion = winners["final"]
        second = next(t for t in slots["final"] if t != champion)
        third = winners["third"]
        fourth = next(t for t in slots["third"] if t != third)
        rows = tuple(Row(i + 1, t, {}) for i, t in enumerate((champion, second, third, fourth)))
    if not groups:
        notes.append("the groups are not drawn yet")
    if not rows:
        notes.append("final placings come with the final and the third-place match")
    return Standings("三国杀 3v3 — final placings", (), rows, (*notes, *bracket),
                     tuple(sections))


ROUNDS = (("Quarter-finals", tuple(BRACKET)), ("Semi-finals", tuple(LATER)),
          ("Final", ("final",)), ("Third place", ("third",)))


def bracket(settings: dict[str, Any], entries: list[Entry]) -> list[tuple[str, list[dict]]]:
    """The knockout tree by round: each match's slot, its teams (or where they will come
    from) and its winner once decided."""
    slots, winners = _slots(settings, entries)
    return [(title, [{"slot": slot, "teams": list(slots[slot]) if slots.get(slot) else None,
                      "pending": _pending(slot), "winner": winners.get(slot)}
                     for slot in names])
            for title, names in ROUNDS]


def _pending(slot: str) -> str:
    """Who will play a knockout match not yet known: where its teams come from."""
    if slot in BRACKET:
        (g1, p1), (g2, p2) = BRACKET[slot]
        return f"{g1}{p1} v {g2}{p2} (group places, once the groups are complete)"
    if slot in LATER:
        return " v ".join(f"winner of {x}" for x in LATER[slot])
    return f"the {'winners' if slot == 'final' else 'losers'} of sf1 and sf2"


# the event's rounds as its sheets are printed and its matches' links made: 1 the groups'
# matches, then the knockout's rounds, their matches in this order
STAGES = {2: tuple(BRACKET), 3: tuple(LATER), 4: ("final", "third")}
TITLES = {"qf1": "Quarter-final 1", "qf2": "Quarter-final 2", "qf3": "Quarter-final 3",
          "qf4": "Quarter-final 4", "sf1": "Semi-final 1", "sf2": "Semi-final 2",
          "final": "Final", "third": "Third place"}


def _matches(settings: dict[str, Any], entries: list[Entry], round_no: int
             ) -> list[tuple[dict[str, Any], bool]]:
    """The matches of a round (its entry's fixed part: stage, group, teams) and whether
    each is still to be decided; KangleError where the round cannot be played yet."""
    groups = groups_of(entries)
    if not groups:
        raise KangleError("the groups are not drawn yet: make the group draw first")
    if round_no == 1:
        played = [set(e.data["teams"]) for e in entries
                  if e.kind == "match" and e.data.get("stage") == "group"]
        return [({"stage": "group", "group": g, "teams": [a, b]}, {a, b} not in played)
                for g, teams in groups.items()
                for i, a in enumerate(teams) for b in teams[i + 1:]]
    if round_no not in STAGES:
        raise KangleError("a knockout event has rounds 1-4: 1 the group matches, 2 the "
                          "quarter-finals, 3 the semi-finals, 4 the final and third place")
    slots, winners = _slots(settings, entries)
    waiting = [s for s in STAGES[round_no] if slots.get(s) is None]
    if waiting:
        raise KangleError(f"round {round_no} is not known yet: {TITLES[waiting[0]]} is "
                          f"{_pending(waiting[0])}")
    return [({"stage": s, "teams": list(slots[s])}, s not in winners)
            for s in STAGES[round_no]]


def tables(settings: dict[str, Any], entries: list[Entry]) -> list[Table]:
    """Every match known so far, round by round, open until it is decided (a final's
    series until a team has won enough of it)."""
    out = []
    for round_no in (1, *STAGES):
        try:
            matches = _matches(settings, entries, round_no)
        except KangleError:
            break
        out += [Table(round_no, n, fixed["teams"], undecided)
                for n, (fixed, undecided) in enumerate(matches, start=1)]
    return out


def at_table(settings: dict[str, Any], entries: list[Entry], table: Table
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a match's link fixes of its entry (its stage, group and teams); its form
    starts empty (the winner, or how the match ended)."""
    return _matches(settings, entries, table.round)[table.number - 1][0], {}


def sheets(settings: dict[str, Any], entries: list[Entry], round_no: int) -> list[ScoreSheet]:
    """A sheet for each match of the round (``_matches``)."""
    out = []
    for fixed, _ in _matches(settings, entries, round_no):
        a, b = fixed["teams"]
        stage = fixed["stage"]
        title = f"Group {fixed['group']}" if stage == "group" else TITLES[stage]
        series = (f"Best of {settings['best_of']}: first to "
                  f"{settings['best_of'] // 2 + 1} wins.",) if stage in ("final", "third") else ()
        out.append(ScoreSheet(f"{title}: {a} v {b}", (a, b),
                              ("commander alive (Y/N)", "surviving generals",
                               "lost HP of survivors", "technical penalty points",
                               "overtime periods", "winner"),
                              (*series, "Time up: more survivors, then fewer lost HP, then "
                               "fewer penalty points, else 5-minute overtime.",
                               "Referee's signature: ____________")))
    return out
