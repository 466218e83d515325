"""Shot suggestions: candidate strokes from geometry, each played in the simulator under
a player's execution noise and judged by the rules, ranked by what they are worth.

Candidates are ghost-disc aims: for each opponent piece and each hole, the striker is
sent from the centre of each of the shooter's circles to the place it must touch the
piece so that the piece runs straight to the hole, at a few speeds. Each is played once
without noise; those whose first contact is the intended piece are then played
``tries`` times with the angle and speed spread as the player's profile says (one
standard deviation), and judged by the referee engine. Worth of one try: +1 for each
opponent piece pocketed, +0.5 for the extra shot it earns, -1 for each foul and each own
piece lost (廢子, pocketed or off the table). Ranked by the mean worth; ties by the
chance of pocketing the intended piece.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from physics.profile import PhysicsProfile
from physics.simulate import Stroke, simulate
from rules.board import CORNERS, Board
from rules.errors import KangleError
from rules.pieces import STRIKERS, colour_of, opponent
from rules.referee import judge
from rules.rule_profile import RuleProfile
from rules.ruling import BONUS, FORFEIT, FOUL
from rules.state import TableState

SPEEDS = (2.0, 3.5, 5.0)  # m/s: a soft, a firm and a hard stroke


@dataclass(frozen=True)
class Player:
    """How precisely a player strikes: one standard deviation of the angle (degrees) and
    of the speed (a fraction of it)."""

    name: str
    angle_sd: float
    speed_sd: float


PLAYERS = {p.name: p for p in (Player("beginner", 2.0, 0.15), Player("club", 1.0, 0.08),
                               Player("expert", 0.4, 0.04))}


@dataclass(frozen=True)
class Suggestion:
    stroke: Stroke
    target: str
    hole: str
    worth: float  # mean worth of the tries (see the module's docstring)
    pocketed: float  # share of tries that pocketed the target
    fouled: float  # share of tries with a foul


def candidates(state: TableState, board: Board) -> list[tuple[Stroke, str, str]]:
    """(stroke, target piece, hole) for every ghost-disc aim of the player to shoot."""
    me = state.turn
    if me is None:
        raise KangleError("nobody holds the shot in this state")
    reach = board.piece_radius + board.striker_radius
    out = []
    for target in state.left(opponent(me)):
        tx, ty = state.pos(target)
        for hole in CORNERS:
            hx, hy = board.hole_centre(hole)
            d = math.hypot(hx - tx, hy - ty)
            if d < 1e-6:
                continue
            gx, gy = tx - (hx - tx) / d * reach, ty - (hy - ty) / d * reach
            for circle in board.circles_of(me):
                cx, cy = board.circle_centre(circle)
                # the striker must come at the piece from behind its line to the hole
                approach = ((gx - cx) * (hx - tx) + (gy - cy) * (hy - ty)) / d
                if approach <= 0:
                    continue
                angle = math.degrees(math.atan2(gy - cy, gx - cx))
                out.extend((Stroke(me, circle, angle, v), target, hole) for v in SPEEDS)
    return out


def suggest(state: TableState, board: Board, physics: PhysicsProfile, rules: RuleProfile,
            player: Player, top: int = 3, tries: int = 20, seed: int = 0) -> list[Suggestion]:
    """The ``top`` best strokes for the player to shoot (see the module's docstring)."""
    me = state.turn
    screened = []
    for stroke, target, hole in candidates(state, board):
        try:
            record = simulate(state, stroke, board, physics, trajectory=False)
        except KangleError:
            continue  # the circle is covered
        first = record.contacts_of(STRIKERS[me])
        if first and first[0].other(STRIKERS[me]) == target:
            screened.append((_worth(state, record, board, rules, target)[0], stroke, target,
                             hole))
    screened.sort(key=lambda c: -c[0])
    rng = random.Random(seed)
    found = []
    for _, stroke, target, hole in screened[:3 * top]:
        worth = pocketed = fouled = 0.0
        for _ in range(tries):
            tried = Stroke(me, stroke.circle, stroke.angle + rng.gauss(0, player.angle_sd),
                           max(0.3, stroke.speed * (1 + rng.gauss(0, player.speed_sd))))
            record = simulate(state, tried, board, physics, trajectory=False)
            w, hit, foul = _worth(state, record, board, rules, target)
            worth, pocketed, fouled = worth + w, pocketed + hit, fouled + foul
        found.append(Suggestion(stroke, target, hole, worth / tries, pocketed / tries,
                                fouled / tries))
    found.sort(key=lambda s: (-s.worth, -s.pocketed))
    return found[:top]


def _worth(state, record, board, rules, target) -> tuple[float, bool, bool]:
    """(worth, target pocketed, any foul) of one played stroke."""
    _, ruling = judge(state, record, board, rules)
    me = state.turn
    taken = sum(1 for p in record.pockets if colour_of(p.piece) == opponent(me))
    fouls = sum(1 for c in ruling.calls if c.kind == FOUL)
    lost = sum(len(c.pieces) for c in ruling.calls if c.kind == FORFEIT)
    bonus = any(c.kind == BONUS for c in ruling.calls)
    worth = taken + 0.5 * bonus - fouls - lost
    return worth, any(p.piece == target for p in record.pockets), fouls > 0
