"""UNO scoring: hand totals from the cards held, elimination, day totals and house-league
points (seed 001 / game-scoring.md §2).

Result JSON: ``{"game": "uno", "players": [{"name": "Ann", "day": "Day 1"}, …],
"hands": [{"out": "Ann", "held": {"Bo": ["7", "skip", "wild"], …}}, …],
"supporters": {"Day 1": 3}}``. Cards: ``0``-``9``, ``skip``, ``reverse``, ``draw2``,
``wild``, ``wild4``. Every player still in the game and not going out must appear in
``held`` of each hand (an empty list if they somehow hold nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, load_game_profile, names_of, placement_points, ranks

GAME = "uno"
ACTIONS = {"skip", "reverse", "draw2"}
WILDS = {"wild", "wild4"}
_ALIASES = {"+2": "draw2", "d2": "draw2", "draw-two": "draw2", "+4": "wild4",
            "w4": "wild4", "w": "wild", "s": "skip", "r": "reverse"}


@dataclass(frozen=True)
class Profile:
    action_card: int = 20
    wild_card: int = 50
    elimination_score: int = -200
    cap_eliminated: bool = True
    eliminated_per_round: int = 3
    placement_points: tuple[int, ...] = (60, 50, 40, 30, 20, 10)
    supporter_points: int = 5


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    points = f.items("placement_points", list(d.placement_points))
    p = Profile(action_card=f.count("action_card", d.action_card),
                wild_card=f.count("wild_card", d.wild_card),
                elimination_score=int(f.number("elimination_score", d.elimination_score)),
                cap_eliminated=f.flag("cap_eliminated", d.cap_eliminated),
                eliminated_per_round=f.count("eliminated_per_round", d.eliminated_per_round),
                placement_points=tuple(int(x) for x in points),
                supporter_points=f.count("supporter_points", d.supporter_points))
    f.done()
    return p


def card_value(card: object, profile: Profile) -> int:
    name = str(card).strip().lower()
    name = _ALIASES.get(name, name)
    if name.isdigit() and len(name) == 1:
        return int(name)
    if name in ACTIONS:
        return profile.action_card
    if name in WILDS:
        return profile.wild_card
    raise KangleError(f"{card!r} is not an UNO card: use 0-9, skip, reverse, draw2, wild "
                      "or wild4")


@dataclass(frozen=True)
class Event:
    days: dict[str, str]  # player -> day
    hands: tuple[tuple[str, dict[str, int]], ...]  # (who went out, {player: hand total})
    supporters: dict[str, int]


def read(data: Any, profile: Profile) -> Event:
    f = Fields(data, GAME)
    f.text("game", GAME)
    players = f.items("players")
    names = names_of(players, "uno.players")
    days = {}
    for i, p in enumerate(players):
        pf = Fields(p, f"uno.players[{i}]")
        pf.text("name")
        days[names[i]] = pf.text("day", names[i])
        pf.done()
    for day in set(days.values()):
        members = [n for n, d in days.items() if d == day]
        if len(members) > 2:
            raise KangleError(f"{day} has {len(members)} players; a day sends two")
    hands = []
    for h, entry in enumerate(f.items("hands")):
        hf = Fields(entry, f"uno.hands[{h}]")
        out = hf.text("out")
        held = hf.table("held")
        totals = {}
        for name in held.names():
            if name not in days:
                raise KangleError(f"uno.hands[{h}]: {name!r} is not a player of this event")
            cards = held.items(name)
            totals[name] = sum(card_value(c, profile) for c in cards)
        if out not in days:
            raise KangleError(f"uno.hands[{h}]: {out!r} went out but is not a player")
        if out in totals:
            raise KangleError(f"uno.hands[{h}]: {out} went out, so holds no cards")
        held.done()
        hf.done()
        hands.append((out, totals))
    supporters = {}
    sf = f.table("supporters", {})
    for day in sf.names():
        if day not in set(days.values()):
            raise KangleError(f"uno.supporters: {day!r} is not a day of this event")
        supporters[day] = sf.count(day)
    sf.done()
    f.done()
    return Event(days, tuple(hands), supporters)


def score(event: Event, profile: Profile) -> Sheet:
    """Running totals hand by hand, eliminations, then day totals and league points."""
    totals = {n: 0 for n in event.days}
    eliminated: dict[str, int] = {}  # player -> hand number that eliminated them
    for h, (out, held) in enumerate(event.hands, start=1):
        for name in [out, *held]:
            if name in eliminated:
                raise KangleError(f"hand {h}: {name} was eliminated in hand {eliminated[name]} "
                                  "and cannot play on")
        for name, value in held.items():
            totals[name] -= value
            if totals[name] <= profile.elimination_score:
                eliminated[name] = h
    counted = {n: (max(t, profile.elimination_score) if profile.cap_eliminated else t)
               for n, t in totals.items()}
    day_total: dict[str, int] = {}
    for name, day in event.days.items():
        day_total[day] = day_total.get(day, 0) + counted[name]
    late = {day: max((eliminated.get(n, len(event.hands) + 1) for n, d in event.days.items()
                      if d == day)) for day in day_total}
    # ties on the day total go to the day whose player was eliminated later
    keyed = {day: (day_total[day], late[day]) for day in day_total}
    order = sorted(keyed, key=lambda d: keyed[d], reverse=True)
    place = {d: order.index(d) + 1 for d in order}
    for d in order:  # still level on both counts: share the place
        same = [e for e in order if keyed[e] == keyed[d]]
        place[d] = min(place[e] for e in same)
    points = placement_points({d: -place[d] for d in order}, profile.placement_points)
    lines = []
    for day in order:
        members = [n for n, d in event.days.items() if d == day]
        parts = []
        for n in members:
            note = f" (eliminated in hand {eliminated[n]}" + (
                f", counted as {profile.elimination_score})" if profile.cap_eliminated and
                totals[n] < profile.elimination_score else ")") if n in eliminated else ""
            parts.append(f"{n}: {totals[n]}{note}")
        fans = event.supporters.get(day, 0)
        league = points[day] + profile.supporter_points * fans
        parts.append(f"league: {points[day]:g} for place {place[day]} + "
                     f"{profile.supporter_points} x {fans} supporters = {league:g}")
        lines.append(Line(day, day_total[day], tuple(parts), place[day], league,
                          {"players": {n: counted[n] for n in members}}))
    player_rank = ranks(counted)
    notes = tuple(f"{n}: {counted[n]} (rank {player_rank[n]})"
                  for n in sorted(counted, key=lambda n: player_rank[n]))
    return Sheet(GAME, tuple(lines), notes)
