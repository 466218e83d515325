"""Pictionary: one 40-minute game between two teams (game-scoring.md §4).

Result JSON: ``{"game": "pictionary", "teams": [{"name": "Team A", "squares": 31,
"finished": false}, {"name": "Team B", "squares": 28, "finished": false}]}``.
The team that reached Finish wins; if neither did, the one that covered more squares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, names_of, whole_number_profile

GAME = "pictionary"


@dataclass(frozen=True)
class Profile:
    winner_points: int = 5
    loser_points: int = 3
    equal_squares_points: int = 4


def load_profile(name_or_path=None) -> Profile:
    return whole_number_profile(GAME, Profile, name_or_path)


@dataclass(frozen=True)
class Team:
    name: str
    squares: int
    finished: bool


def read(data: Any, profile: Profile) -> tuple[Team, Team]:
    f = Fields(data, GAME)
    f.text("game", GAME)
    teams = f.items("teams")
    names_of(teams, "pictionary.teams")
    if len(teams) != 2:
        raise KangleError(f"a Pictionary game is between 2 teams, not {len(teams)}")
    out = []
    for i, t in enumerate(teams):
        tf = Fields(t, f"pictionary.teams[{i}]")
        out.append(Team(tf.text("name"), tf.count("squares"), tf.flag("finished", False)))
        tf.done()
    f.done()
    if out[0].finished and out[1].finished:
        raise KangleError("only one team can reach Finish first: mark the other unfinished")
    return out[0], out[1]


def score(teams: tuple[Team, Team], profile: Profile) -> Sheet:
    a, b = teams
    if a.finished or b.finished:
        win, lose = (a, b) if a.finished else (b, a)
        how = f"{win.name} reached Finish"
    elif a.squares != b.squares:
        win, lose = (a, b) if a.squares > b.squares else (b, a)
        how = f"time: {win.name} covered more squares ({win.squares} v {lose.squares})"
    else:
        p = profile.equal_squares_points
        return Sheet(GAME, tuple(Line(t.name, p, (f"time, equal squares ({t.squares}): {p}",),
                                      1, p) for t in teams))
    return Sheet(GAME, (
        Line(win.name, profile.winner_points, (f"{how}: win {profile.winner_points}",), 1,
             profile.winner_points),
        Line(lose.name, profile.loser_points, (f"loss {profile.loser_points}",), 2,
             profile.loser_points)))
