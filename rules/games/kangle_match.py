"""The 康樂棋 match result (game-scoring.md §9): one game, won by the first player to
have all the opponent's pieces pocketed; a drawn game is decided by a new lag game.

Result: a game log (``kangle game`` .db file) — the result is read from it — or JSON
``{"game": "kangle", "red": "Ann", "black": "Bo", "winner": "red" | "black" | null,
"decided_by": "black", "left": {"red": 0, "black": 3}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.game import replay
from rules.gamelog import GameLog
from rules.games.sheet import Line, Sheet, load_game_profile

GAME = "kangle"


@dataclass(frozen=True)
class Profile:
    win_points: float = 1
    loss_points: float = 0
    draw: str = "decided_by_lag"
    draw_points: float = 0.5


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    p = Profile(win_points=f.nonneg("win_points", d.win_points),
                loss_points=f.nonneg("loss_points", d.loss_points),
                draw=f.choice("draw", ("decided_by_lag", "draw"), d.draw),
                draw_points=f.nonneg("draw_points", d.draw_points))
    f.done()
    return p


@dataclass(frozen=True)
class Result:
    names: dict[str, str]  # colour -> player
    winner: str | None
    decided_by: str | None
    left: dict[str, int]
    how: str


def read(data: Any, profile: Profile) -> Result:
    f = Fields(data, GAME)
    f.text("game", GAME)
    names = {"red": f.text("red"), "black": f.text("black")}
    winner = f.choice("winner", ("red", "black", None))
    decided = f.choice("decided_by", ("red", "black", None), None)
    lf = f.table("left", {"red": 0, "black": 0})
    left = {"red": lf.count("red", 0), "black": lf.count("black", 0)}
    lf.done()
    f.done()
    if winner is None and decided is None and profile.draw == "decided_by_lag":
        raise KangleError("the game was drawn: a new lag game decides it — enter its winner "
                          "as \"decided_by\"")
    return Result(names, winner, decided, left, "entered")


def read_log(path: str | Path) -> Result:
    """The result of a finished game, from its game log."""
    log = GameLog(path)
    try:
        view = replay(log.entries())
    finally:
        log.close()
    state = view.state
    if state.result is None:
        raise KangleError(f"the game in {path} is not finished yet")
    names = {"red": view.setup.red, "black": view.setup.black}
    left = {c: len(state.left(c)) for c in ("red", "black")}
    return Result(names, state.result.winner, None, left, state.result.text)


def score(result: Result, profile: Profile) -> Sheet:
    winner = result.winner or result.decided_by
    lines = []
    for colour in ("red", "black"):
        if winner is None:
            pts, what = profile.draw_points, "draw"
        elif colour == winner:
            pts, what = profile.win_points, "win" + (" (new lag game)" if result.winner is None
                                                     else "")
        else:
            pts, what = profile.loss_points, "loss"
        lines.append(Line(result.names[colour], pts,
                          (f"{colour}: {what}", f"own pieces left on the table: "
                                                f"{result.left[colour]}"),
                          1 if what != "loss" else 2, pts))
    return Sheet(GAME, tuple(sorted(lines, key=lambda x: x.rank)), (result.how,))
