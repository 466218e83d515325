"""Blokus scoring per colour: minus the squares left unplaced, +15 for placing all 21
pieces, +20 instead when the last one placed was the monomino (game-scoring.md §7).

Result JSON: ``{"game": "blokus", "colours": [{"colour": "blue", "player": "Ann",
"left": ["I1", "V5"]}, {"colour": "red", "player": "Bo", "left": [], "last": "I1"}, …]}``.
Piece names: rules/games/data/blokus_pieces.toml. A player with two colours (the
two-player game) scores their sum.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, ranks, whole_number_profile

GAME = "blokus"
COLOURS = ("blue", "yellow", "red", "green")
MONOMINO = "I1"


@cache
def pieces() -> dict[str, frozenset[tuple[int, int]]]:
    """The 21 shapes as sets of (row, column) squares."""
    data = tomllib.loads((Path(__file__).parent / "data" / "blokus_pieces.toml").read_text())
    return {name: frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                            if ch == "#") for name, rows in data.items()}


@dataclass(frozen=True)
class Profile:
    all_placed_bonus: int = 15
    monomino_last_bonus: int = 20


def load_profile(name_or_path=None) -> Profile:
    return whole_number_profile(GAME, Profile, name_or_path)


@dataclass(frozen=True)
class Colour:
    colour: str
    player: str
    left: tuple[str, ...]
    last: str | None


def read(data: Any, profile: Profile) -> list[Colour]:
    f = Fields(data, GAME)
    f.text("game", GAME)
    out = []
    for i, entry in enumerate(f.items("colours")):
        cf = Fields(entry, f"blokus.colours[{i}]")
        colour = cf.choice("colour", COLOURS)
        left = [str(p).upper() for p in cf.items("left")]
        unknown = [p for p in left if p not in pieces()]
        if unknown:
            raise KangleError(f"{colour}: {', '.join(unknown)} is not a Blokus piece; the 21 "
                              f"are {', '.join(pieces())}")
        if len(set(left)) != len(left) or len(left) > len(pieces()):
            raise KangleError(f"{colour}: {len(left)} pieces left with repeats; a colour has "
                              f"one each of the {len(pieces())} pieces")
        last = cf.text("last", None)
        if last is not None and (last.upper() not in pieces() or last.upper() in left):
            raise KangleError(f"{colour}: the last piece placed must be a piece that was placed")
        out.append(Colour(colour, cf.text("player", colour), tuple(left),
                          last.upper() if last else None))
        cf.done()
    f.done()
    if len({c.colour for c in out}) != len(out):
        raise KangleError("a colour is listed twice")
    return out


def colour_score(c: Colour, profile: Profile) -> tuple[int, str]:
    if c.left:
        squares = sum(len(pieces()[p]) for p in c.left)
        return -squares, f"{c.colour}: {len(c.left)} pieces left, {squares} squares: -{squares}"
    if c.last == MONOMINO:
        return profile.monomino_last_bonus, (f"{c.colour}: all placed, the monomino last: "
                                             f"+{profile.monomino_last_bonus}")
    return profile.all_placed_bonus, f"{c.colour}: all placed: +{profile.all_placed_bonus}"


def score(colours: list[Colour], profile: Profile) -> Sheet:
    totals: dict[str, int] = {}
    parts: dict[str, list[str]] = {}
    for c in colours:
        value, why = colour_score(c, profile)
        totals[c.player] = totals.get(c.player, 0) + value
        parts.setdefault(c.player, []).append(why)
    place = ranks(totals)
    return Sheet(GAME, tuple(Line(p, totals[p], tuple(parts[p]), place[p])
                             for p in sorted(totals, key=lambda p: place[p])))
