"""Ticket to Ride scoring: route points, destination tickets over the player's own
routes, and the exact longest continuous path (game-scoring.md §5).

Result JSON: ``{"game": "tickettoride", "players": [{"name": "Ann", "routes":
[["Seattle", "Portland"], ["Denver", "Kansas City", "orange"], …], "tickets":
[["Denver", "El Paso"], …]}, …]}`` — a route by its two cities, and its colour where
the two cities have a double route; a ticket by its two cities (its value is looked
up on the map) or with its value as a third entry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, load_game_profile, names_of, placement_points, ranks

GAME = "tickettoride"
DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Route:
    id: int
    a: str
    b: str
    length: int
    colour: str

    def label(self) -> str:
        return f"{self.a}-{self.b} ({self.length}, {self.colour})"


@dataclass(frozen=True)
class Map:
    name: str
    trains: int
    routes: tuple[Route, ...]
    tickets: dict[frozenset, int]

    @property
    def cities(self) -> set[str]:
        return {c for r in self.routes for c in (r.a, r.b)}


@cache
def load_map(name: str) -> Map:
    path = DATA / f"ttr_{name}.toml"
    if not path.exists():
        raise KangleError(f"no Ticket to Ride map {name!r}: ship rules/games/data/ttr_{name}.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    routes = tuple(Route(i, a, b, n, c) for i, (a, b, n, c) in enumerate(data["routes"]))
    tickets = {frozenset((a, b)): v for a, b, v in data["tickets"]}
    return Map(data["name"], data["trains"], routes, tickets)


@dataclass(frozen=True)
class Profile:
    map: str = "usa"
    players_min: int = 2
    players_max: int = 5
    route_points: tuple[int, ...] = (1, 2, 4, 7, 10, 15, 18, 21)
    longest_path_bonus: int = 10
    end_trains: int = 3
    double_routes_min_players: int = 4
    placement_points: tuple[float, ...] = (10, 7, 5, 3)
    ties: str = "average"


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    p = Profile(map=f.text("map", d.map),
                players_min=f.count("players_min", d.players_min),
                players_max=f.count("players_max", d.players_max),
                route_points=tuple(f.items("route_points", list(d.route_points))),
                longest_path_bonus=f.count("longest_path_bonus", d.longest_path_bonus),
                end_trains=f.count("end_trains", d.end_trains),
                double_routes_min_players=f.count("double_routes_min_players",
                                                  d.double_routes_min_players),
                placement_points=tuple(f.items("placement_points", list(d.placement_points))),
                ties=f.choice("ties", ("average", "top"), d.ties))
    f.done()
    return p


@dataclass(frozen=True)
class Player:
    name: str
    routes: tuple[Route, ...]
    tickets: tuple[tuple[str, str, int], ...]


def read(data: Any, profile: Profile) -> tuple[Map, list[Player]]:
    f = Fields(data, GAME)
    f.text("game", GAME)
    board = load_map(f.text("map", profile.map).lower())
    entries = f.items("players")
    names = names_of(entries, "tickettoride.players")
    if not profile.players_min <= len(entries) <= profile.players_max:
        raise KangleError(f"Ticket to Ride is played by {profile.players_min}-"
                          f"{profile.players_max} players, not {len(entries)}")
    taken: dict[int, str] = {}
    players = []
    for i, (name, entry) in enumerate(zip(names, entries, strict=True)):
        pf = Fields(entry, f"tickettoride.players[{i}]")
        pf.text("name")
        routes = [_claim(board, r, name, taken) for r in pf.items("routes", [])]
        trains = sum(r.length for r in routes)
        if trains > board.trains:
            raise KangleError(f"{name}'s routes use {trains} trains; a player has "
                              f"{board.trains}")
        tickets = tuple(_ticket(board, t, name) for t in pf.items("tickets", []))
        pf.done()
        players.append(Player(name, tuple(routes), tickets))
    f.done()
    _check_doubles(board, players, profile)
    return board, players


def _claim(board: Map, spec: Any, who: str, taken: dict[int, str]) -> Route:
    if not (isinstance(spec, list) and len(spec) in (2, 3) and all(isinstance(x, str)
                                                                   for x in spec)):
        raise KangleError(f"{who}: a route is [city, city] or [city, city, colour], not {spec!r}")
    a, b = spec[0], spec[1]
    for city in (a, b):
        if city not in board.cities:
            raise KangleError(f"{who}: {city!r} is not a city of the {board.name} map")
    options = [r for r in board.routes if {r.a, r.b} == {a, b}
               and (len(spec) == 2 or r.colour == spec[2])]
    if not options:
        raise KangleError(f"{who}: there is no route {' '.join(spec)} on the {board.name} map")
    free = [r for r in options if r.id not in taken]
    if not free:
        raise KangleError(f"{who}: the route {a}-{b} is already claimed by "
                          f"{taken[options[0].id]}")
    route = free[0]
    taken[route.id] = who
    return route


def _ticket(board: Map, spec: Any, who: str) -> tuple[str, str, int]:
    if not (isinstance(spec, list) and len(spec) in (2, 3)):
        raise KangleError(f"{who}: a ticket is [city, city] or [city, city, value]")
    a, b = spec[0], spec[1]
    if not (isinstance(a, str) and isinstance(b, str)) or (
            a not in board.cities or b not in board.cities):
        raise KangleError(f"{who}: ticket {a}-{b} names a city not on the {board.name} map")
    value = spec[2] if len(spec) == 3 else board.tickets.get(frozenset((a, b)))
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise KangleError(f"{who}: {a}-{b} is not a ticket of the {board.name} map; give its "
                          "value as a third entry")
    return a, b, value


def _check_doubles(board: Map, players: list[Player], profile: Profile) -> None:
    owner = {r.id: p.name for p in players for r in p.routes}
    pairs: dict[frozenset, list[int]] = {}
    for r in board.routes:
        pairs.setdefault(frozenset((r.a, r.b)), []).append(r.id)
    for ids in pairs.values():
        held = [owner[i] for i in ids if i in owner]
        if len(held) == 2 and held[0] == held[1]:
            raise KangleError(f"{held[0]} claims both routes of a double route: not allowed")
        if len(held) == 2 and len(players) < profile.double_routes_min_players:
            r = board.routes[ids[0]]
            raise KangleError(f"with {len(players)} players only one route of a double route "
                              f"may be used: {r.a}-{r.b} is claimed twice")


def connected(routes: tuple[Route, ...], a: str, b: str) -> bool:
    """Are cities a and b joined by these routes?"""
    seen, todo = {a}, [a]
    while todo:
        city = todo.pop()
        for r in routes:
            for x, y in ((r.a, r.b), (r.b, r.a)):
                if x == city and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return b in seen


def longest_path(routes: tuple[Route, ...]) -> int:
    """Length in trains of the longest continuous path: a trail, each route used at
    most once, cities may repeat. Exact: depth-first search over every trail, with a
    bitmask of the routes used."""
    adjacency: dict[str, list[tuple[str, int, int]]] = {}
    for k, r in enumerate(routes):
        adjacency.setdefault(r.a, []).append((r.b, k, r.length))
        adjacency.setdefault(r.b, []).append((r.a, k, r.length))
    best = 0

    def walk(city: str, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for nxt, k, n in adjacency[city]:
            bit = 1 << k
            if not used & bit:
                walk(nxt, used | bit, length + n)

    # A longest open trail ends at cities of odd degree (at an even one an unused route
    # would lengthen it); a longest closed trail uses every route of a component whose
    # cities all have even degree. So start only from those.
    for city in _starts(adjacency):
        walk(city, 0, 0)
    return best


def _starts(adjacency: dict[str, list[tuple[str, int, int]]]) -> list[str]:
    starts, seen = [], set()
    for root in adjacency:
        if root in seen:
            continue
        component, todo = [], [root]
        seen.add(root)
        while todo:
            city = todo.pop()
            component.append(city)
            for nxt, _, _ in adjacency[city]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        odd = [c for c in component if len(adjacency[c]) % 2]
        starts.extend(odd or component[:1])
    return starts


def score(game: tuple[Map, list[Player]], profile: Profile) -> Sheet:
    board, players = game
    longest = {p.name: longest_path(p.routes) for p in players}
    top = max(longest.values(), default=0)
    totals, parts = {}, {}
    for p in players:
        route_pts = sum(profile.route_points[r.length - 1] for r in p.routes)
        lines = [f"routes: {route_pts} ({len(p.routes)} routes, "
                 f"{sum(r.length for r in p.routes)} trains)"]
        ticket_pts = 0
        for a, b, v in p.tickets:
            done = connected(p.routes, a, b)
            ticket_pts += v if done else -v
            lines.append(f"ticket {a}-{b}: {'+' if done else '-'}{v}")
        bonus = profile.longest_path_bonus if top and longest[p.name] == top else 0
        lines.append(f"longest path {longest[p.name]}" + (f": +{bonus}" if bonus else ""))
        totals[p.name] = route_pts + ticket_pts + bonus
        parts[p.name] = lines
    points = placement_points(totals, profile.placement_points, profile.ties)
    place = ranks(totals)
    return Sheet(GAME, tuple(Line(n, totals[n], tuple(parts[n]), place[n], points[n],
                                  {"longest_path": longest[n]})
                             for n in sorted(totals, key=lambda n: place[n])))
