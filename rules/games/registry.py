"""Every supported game by its command-line name, and scoring a result file."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from rules.errors import KangleError
from rules.games import (
    blokus,
    kangle_match,
    monopolydeal,
    pictionary,
    rummikub,
    sanguosha,
    tickettoride,
    uno,
    zhaopengyou,
)
from rules.games.sheet import Sheet
from rules.jsonfile import read_json

GAMES: dict[str, ModuleType] = {m.GAME: m for m in (
    rummikub, uno, sanguosha, pictionary, tickettoride, monopolydeal, blokus, zhaopengyou,
    kangle_match)}


def game(name: str) -> ModuleType:
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise KangleError(f"unknown game {name!r}: one of {', '.join(GAMES)}") from None


def score_file(name: str, path: str | Path, profile: str | None = None) -> Sheet:
    """Score one game's result file with the game's profile (default: the shipped one)."""
    module = game(name)
    settings = module.load_profile(profile)
    if module is kangle_match and str(path).endswith(".db"):
        return module.score(module.read_log(path), settings)
    return module.score(module.read(read_json(path, f"{name} result"), settings), settings)
