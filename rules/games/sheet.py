"""What every game's scorer returns: a score sheet, one line per player or team, each
saying how its score was made up; and the placement-point helper several games share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.profile_files import read_profile

PROFILES = Path(__file__).parent / "profiles"


@dataclass(frozen=True)
class Line:
    """One player's or team's result: ``score`` (the game's own unit), ``rank`` (1 =
    best, shared on ties), the ``parts`` that add up to it, and ``points``: placement
    or league points where the game awards them."""

    name: str
    score: float
    parts: tuple[str, ...] = ()
    rank: int | None = None
    points: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "score": _num(self.score), "rank": self.rank,
               "parts": list(self.parts)}
        if self.points is not None:
            out["points"] = _num(self.points)
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Sheet:
    game: str
    lines: tuple[Line, ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"schema": "kangle.scores/1", "game": self.game,
                "lines": [line.to_json() for line in self.lines], "notes": list(self.notes)}

    def line(self, name: str) -> Line:
        return next(line for line in self.lines if line.name == name)


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


def ranks(values: dict[str, float], higher_is_better: bool = True) -> dict[str, int]:
    """Competition ranking (1, 2, 2, 4): equal values share the better rank."""
    order = sorted(values.values(), reverse=higher_is_better)
    return {name: order.index(v) + 1 for name, v in values.items()}


def placement_points(
    values: dict[str, float], table: Sequence[float], ties: str = "average",
    higher_is_better: bool = True,
) -> dict[str, float]:
    """Points by place from ``table`` (1st, 2nd, …; places past its end score 0).

    ``ties``: ``average`` — tied players share the points of the places they span,
    averaged (two tied 2nds of 10/7/5/3 get (7+5)/2 = 6 each); ``top`` — each gets
    the points of the best place they span (two tied 2nds get 7 each)."""
    place = ranks(values, higher_is_better)
    worth = list(table) + [0] * len(values)
    out = {}
    for name, r in place.items():
        tied = sum(1 for q in place.values() if q == r)
        span = worth[r - 1: r - 1 + tied]
        out[name] = sum(span) / tied if ties == "average" else span[0]
    return out


def load_game_profile(game: str, name_or_path: str | Path | None) -> tuple[Fields, str]:
    """A game's profile table (``rules/games/profiles/GAME.toml`` by default)."""
    data, source = read_profile(name_or_path or game, f"{game} scoring", PROFILES)
    return Fields(data, game), source


def whole_number_profile(game: str, cls: type, name_or_path: str | Path | None):
    """A profile whose settings are all whole numbers, each defaulting to ``cls``'s."""
    f, _ = load_game_profile(game, name_or_path)
    f.text("name", game)
    default = cls()
    profile = cls(**{k: f.count(k, getattr(default, k)) for k in cls.__dataclass_fields__})
    f.done()
    return profile


def names_of(players: list[Any], where: str) -> list[str]:
    """The ``name`` of each entry, checked present and unique."""
    names = []
    for i, p in enumerate(players):
        name = Fields(p, f"{where}[{i}]").text("name") if isinstance(p, dict) else None
        if not name:
            raise KangleError(f"{where}[{i}] needs a \"name\"")
        if name in names:
            raise KangleError(f"{where}: the name {name!r} appears twice")
        names.append(name)
    return names
