"""Monopoly Deal: value of each player's bank and properties, placement points
(game-scoring.md §6).

Result JSON: ``{"game": "monopolydeal", "players": [{"name": "Ann", "bank": [5, 2, 1],
"properties": [4, 4, 2], "complete_sets": 3}, …]}`` — ``bank`` and ``properties`` list
the card values (or give totals as single numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields, is_number
from rules.games.sheet import Line, Sheet, load_game_profile, names_of, placement_points, ranks

GAME = "monopolydeal"


@dataclass(frozen=True)
class Profile:
    players_min: int = 2
    players_max: int = 5
    placement_points: tuple[float, ...] = (10, 7, 5, 3)
    ties: str = "average"
    sets_to_win: int = 3


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    p = Profile(players_min=f.count("players_min", d.players_min),
                players_max=f.count("players_max", d.players_max),
                placement_points=tuple(f.items("placement_points", list(d.placement_points))),
                ties=f.choice("ties", ("average", "top"), d.ties),
                sets_to_win=f.count("sets_to_win", d.sets_to_win))
    f.done()
    return p


@dataclass(frozen=True)
class Holding:
    name: str
    bank: int
    properties: int
    complete_sets: int


def _money(value: Any, where: str) -> int:
    values = value if isinstance(value, list) else [value]
    if not all(is_number(v) and v >= 0 and float(v).is_integer() for v in values):
        raise KangleError(f"{where} must be card values in M (whole numbers ≥ 0)")
    return int(sum(values))


def read(data: Any, profile: Profile) -> list[Holding]:
    f = Fields(data, GAME)
    f.text("game", GAME)
    players = f.items("players")
    names_of(players, "monopolydeal.players")
    if not profile.players_min <= len(players) <= profile.players_max:
        raise KangleError(f"a Monopoly Deal game has {profile.players_min}-"
                          f"{profile.players_max} players, not {len(players)}")
    out = []
    for i, p in enumerate(players):
        pf = Fields(p, f"monopolydeal.players[{i}]")
        out.append(Holding(pf.text("name"), _money(pf.raw("bank", 0), f"{pf.where}.bank"),
                           _money(pf.raw("properties", 0), f"{pf.where}.properties"),
                           pf.count("complete_sets", 0)))
        pf.done()
    f.done()
    if not any(h.complete_sets >= profile.sets_to_win for h in out):
        raise KangleError(f"the game ends when a player has {profile.sets_to_win} complete "
                          "sets of different colours; nobody here has: finish the game first")
    return out


def score(holdings: list[Holding], profile: Profile) -> Sheet:
    values = {h.name: h.bank + h.properties for h in holdings}
    points = placement_points(values, profile.placement_points, profile.ties)
    place = ranks(values)
    return Sheet(GAME, tuple(
        Line(h.name, values[h.name],
             (f"bank {h.bank} + properties {h.properties} = {values[h.name]}",
              f"place {place[h.name]}: {points[h.name]:g} points"), place[h.name], points[h.name])
        for h in sorted(holdings, key=lambda h: place[h.name])))
