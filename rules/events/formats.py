"""Every competition format by name, and the default format of each game."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from rules.errors import KangleError
from rules.events import elimination, kinghill, knockout, league, rankrounds, rotating

FORMATS: dict[str, ModuleType] = {m.NAME: m for m in (
    rotating, league, knockout, elimination, rankrounds, kinghill)}
DEFAULT_FORMAT = {"rummikub": "rotating", "tickettoride": "league", "monopolydeal": "league",
                  "blokus": "league", "pictionary": "league", "sanguosha": "knockout",
                  "uno": "elimination", "zhaopengyou": "rankrounds", "kangle": "kinghill"}
# Per-game defaults the sheets give (game-scoring.md).
GAME_DEFAULTS = {"monopolydeal": {"games_each": 4}, "blokus": {"games_each": 4},
                 "pictionary": {"games_each": 3, "finalists": 2}}


def format_for(name: str) -> ModuleType:
    try:
        return FORMATS[name]
    except KeyError:
        raise KangleError(f"unknown format {name!r}: one of {', '.join(FORMATS)}") from None


def settings_for(game: str, fmt: str | None, overrides: dict[str, Any]) -> tuple[str, dict]:
    """The format and its settings: the format's defaults, the game's, then overrides."""
    fmt = fmt or DEFAULT_FORMAT.get(game)
    if fmt is None:
        raise KangleError(f"no competition format for game {game!r}")
    module = format_for(fmt)
    if game not in module.GAMES:
        raise KangleError(f"the {fmt} format runs {', '.join(module.GAMES)}, not {game}")
    settings = {**module.DEFAULTS, **GAME_DEFAULTS.get(game, {}), "game": game}
    for key, value in overrides.items():
        if key not in settings:
            raise KangleError(f"the {fmt} format has no setting {key!r}; its settings: "
                              f"{', '.join(sorted(settings))}")
        if type(value) is not type(settings[key]):
            raise KangleError(f"setting {key} must be like {settings[key]!r}")
        settings[key] = value
    _check(fmt, module, settings)
    return fmt, settings


def _check(fmt: str, module: ModuleType, settings: dict[str, Any]) -> None:
    """Every text setting one of the format's CHOICES, every number within its RANGES,
    and the settings' relations (the format's ``related``), all problems said at once —
    before anything is written."""
    problems = [f"{key} = {settings[key]!r} (it must be one of {', '.join(choices)})"
                for key, choices in getattr(module, "CHOICES", {}).items()
                if settings[key] not in choices]
    for key, (low, high) in getattr(module, "RANGES", {}).items():
        if not low <= settings[key] <= high:
            allowed = f"{low}" if low == high else f"{low} to {high}"
            problems.append(f"{key} = {settings[key]} (it must be {allowed})")
    if not problems and hasattr(module, "related"):
        problems = module.related(settings)
    if problems:
        raise KangleError(f"the {fmt} format cannot run with " + "; ".join(problems))
