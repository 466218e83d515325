"""Shot suggestions: candidate strokes from geometry, each played in the simulator under
a player's execution noise and judged by the rules, ranked by what they are worth.

Candidates are ghost-disc aims: for each opponent piece and each hole, the striker is
sent from the centre of each of the shooter's circles (and a 自由子, an own piece lying in
one of them, from where it lies) to the place it must touch the piece so that the piece
runs straight to the hole (the line of centres turned back by the throw that friction
between the two gives a cut: ``_ghost``), at a few speeds — straight there, or off one
cushion (a bank shot, its meeting point with the cushion found from the cushion's
restitution and friction: ``_bank``). Each is played once without noise; of those whose
first piece contact is the intended piece (after the cushion, for a bank shot), the best
so played (the easier first among equals) are then played up to ``tries`` times, in
rounds that drop the worse half (``suggest``), with the angle and speed spread as the
player's profile says (one standard deviation), and judged by the referee engine. Worth
of one try: +1 for each opponent piece pocketed, +0.5 for the extra shot it earns, -1
for each foul and each own piece lost (廢子, pocketed or off the table). Ranked by the
mean worth; ties by the chance of pocketing the intended piece.
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, replace

from physics.profile import PhysicsProfile
from physics.simulate import Stroke, simulate
from rules.board import CORNERS, Board
from rules.errors import KangleError
from rules.pieces import colour_of, opponent
from rules.referee import judge
from rules.rule_profile import RuleProfile
from rules.ruling import BONUS, FORFEIT, FOUL
from rules.shot import cushion, is_cushion
from rules.state import TableState

SPEEDS = (2.0, 3.5, 5.0)  # m/s: a soft, a firm and a hard stroke
SCREEN = 4  # candidates that meet their target played once clean, per suggestion asked for


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
    cushion: str | None  # the cushion a bank shot comes off first (N, E, S, W), or None
    worth: float  # mean worth of the tries (see the module's docstring)
    pocketed: float  # share of tries that pocketed the target
    fouled: float  # share of tries with a foul


def candidates(state: TableState, board: Board,
               physics: PhysicsProfile) -> list[tuple[Stroke, str, str, str | None]]:
    """(stroke, target piece, hole, cushion or None) for every ghost-disc aim of the player
    to shoot, straight and off each cushion (see ``_bank``): with the striker from the
    centre of each of the player's circles, and with each 自由子 (an own piece lying in
    one of them, rules' 自由子 interpretation) from where it lies. Easiest first: straight
    before off a cushion, then by the way the pieces run (shot piece to the ghost disc,
    target to the hole) over the cosine of the cut (the angle between the shot piece's
    arrival and the target's way to the hole): a thin cut or a long way magnifies a
    stroke's error."""
    me = state.turn
    if me is None:
        raise KangleError("nobody holds the shot in this state")
    standing = {p: state.pos(p) for c in ("red", "black") for p in state.left(c)}
    shooters = [(None, circle, board.circle_centre(circle), board.striker_radius)
                for circle in board.circles_of(me)]
    shooters += [(p, board.circle_at(*state.pos(p)), state.pos(p), board.piece_radius)
                 for p in state.left(me) if board.circle_at(*state.pos(p)) in board.circles_of(me)]
    out = []
    for target in state.left(opponent(me)):
        tx, ty = state.pos(target)
        for hole in CORNERS:
            hx, hy = board.hole_centre(hole)
            d = math.hypot(hx - tx, hy - ty)
            if d < 1e-6:
                continue
            for free, circle, (cx, cy), radius in shooters:
                reach = board.piece_radius + radius
                others = [xy for p, xy in standing.items() if p not in (target, free)]
                way = ((hx - tx) / d, (hy - ty) / d)
                straight = _ghost((tx, ty), way, (cx, cy), reach, physics)
                paths = [(None, straight, (cx, cy), straight)]  # (cushion, aim, whence it
                # comes at the ghost disc, the ghost disc)
                for side in _CUSHIONS:
                    for b in _bank((cx, cy), straight, side, board, physics, radius):
                        # the ghost disc as the piece comes off the cushion, and the
                        # meeting with the cushion again for it (the nearest such)
                        ghost = _ghost((tx, ty), way, b, reach, physics)
                        again = _bank((cx, cy), ghost, side, board, physics, radius)
                        if again:
                            b = min(again, key=lambda p, b=b: math.dist(p, b))
                            paths.append((side, b, b, ghost))
                for side, (ax, ay), (fx, fy), (gx, gy) in paths:
                    # the shot piece must come at the target from behind its line to the hole
                    if (gx - fx) * (hx - tx) + (gy - fy) * (hy - ty) <= 0:
                        continue
                    if _blocked((cx, cy), (ax, ay), others, reach):
                        continue  # it would meet another piece first: no need to play it
                    angle = math.degrees(math.atan2(ay - cy, ax - cx))
                    arrive = math.hypot(gx - fx, gy - fy)
                    cut = ((gx - fx) * (hx - tx) + (gy - fy) * (hy - ty)) / (arrive * d)
                    run = math.hypot(ax - cx, ay - cy) + (arrive if side else 0.0) + d
                    out.extend(((side is not None, run / max(cut, 0.05), k),
                                (Stroke(me, circle, angle, v, piece=free), target, hole, side))
                               for k, v in enumerate(SPEEDS))
    out.sort(key=lambda c: c[0])
    return [c for _, c in out]


def _ghost(target, way, whence, reach: float, physics: PhysicsProfile) -> tuple[float, float]:
    """Where the shot piece's centre must be when it touches ``target`` (a piece at rest,
    mm) so that the target runs off along ``way`` (a unit vector), the shot piece coming
    straight from ``whence``. Not quite on the line through the target: friction
    between the two throws the target off the line of centres towards the shot piece's
    run, by tan θ = min(μ, tan φ / (3 (1 + e))) at a cut of φ (μ, e: piece friction and
    restitution; 3: two discs' linear and spinning inertia against the sideways push
    that stops their rims slipping), so the line of centres is turned back by θ. Found
    by a few rounds from the plain ghost disc (θ moves with the cut it turns)."""
    (tx, ty), (ux, uy) = target, way
    nx, ny = ux, uy
    for _ in range(3):
        gx, gy = tx - nx * reach, ty - ny * reach
        wx, wy = gx - whence[0], gy - whence[1]
        length = math.hypot(wx, wy)
        if length == 0.0:
            break
        along = (wx * nx + wy * ny) / length  # cos φ
        sx, sy = wx / length - along * nx, wy / length - along * ny  # sin φ · sideways
        side = math.hypot(sx, sy)
        if along <= 0.0 or side == 0.0:
            break
        throw = min(physics.piece_friction,
                    side / along / (3 * (1 + physics.piece_restitution)))  # tan θ
        # the target leaves along n + tan θ · (sideways unit): turn n back by as much
        nx, ny = ux - throw * sx / side, uy - throw * sy / side
        norm = math.hypot(nx, ny)
        nx, ny = nx / norm, ny / norm
    return tx - nx * reach, ty - ny * reach


_CUSHIONS = {"N": (1, 1), "E": (0, 1), "S": (1, -1), "W": (0, -1)}  # axis, sign
CLEAR = 1.0  # mm a piece must lie inside the striker's corridor to be surely in its way


def _blocked(start, end, pieces, reach: float) -> bool:
    """Whether the striker, running straight from ``start`` to ``end`` (its centre, mm),
    surely meets one of the ``pieces`` (centres) on the way: one lies more than CLEAR
    inside the corridor ``reach`` (a piece's and the striker's radius) wide either side.
    The first leg of any stroke is straight, so such a candidate cannot meet its target
    first and is not worth simulating. (Named for the striker; a 自由子 runs the same
    way.)"""
    (sx, sy), (ex, ey) = start, end
    dx, dy = ex - sx, ey - sy
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    for px, py in pieces:
        u = min(1.0, max(0.0, ((px - sx) * dx + (py - sy) * dy) / length2))
        if math.hypot(px - sx - u * dx, py - sy - u * dy) < reach - CLEAR:
            return True
    return False


def _bank(start, ghost, side: str, board: Board, physics: PhysicsProfile,
          radius: float) -> list:
    """The points (mm) on cushion ``side`` where the shot piece's centre (``radius`` mm)
    must meet it, coming straight from ``start``, to leave it straight through
    ``ghost``. The cushion returns the normal part of the velocity times its restitution
    e and takes from the part along it μ(1 + e) times the normal part, or a third of it
    at most (then the rim rolls: a disc's contact point stops sliding once a third of
    the speed along has gone into spin). The meeting point is found by bisection along
    the cushion."""
    axis, sign = _CUSHIONS[side]
    line = board.half - radius
    e, mu = physics.cushion_restitution, physics.cushion_friction
    if sign * ghost[axis] >= line or sign * start[axis] >= line:
        return []

    def at(u: float) -> tuple[float, float]:  # the point u along the cushion
        b = [0.0, 0.0]
        b[axis], b[1 - axis] = sign * line, u
        return b[0], b[1]

    def miss(u: float) -> float:  # which side of the ghost the rebound from there passes
        b = at(u)
        vin = (b[0] - start[0], b[1] - start[1])
        vn, vt = sign * vin[axis], vin[1 - axis]  # towards the cushion, along it
        vt_out = vt - math.copysign(min(mu * (1 + e) * vn, abs(vt) / 3), vt)
        out = [0.0, 0.0]
        out[axis], out[1 - axis] = -sign * e * vn, vt_out
        return out[0] * (ghost[1] - b[1]) - out[1] * (ghost[0] - b[0])

    edge = board.half - board.hole_diameter  # stay clear of the holes' mouths
    grid = [-edge + 2 * edge * k / 64 for k in range(65)]
    values = [miss(u) for u in grid]
    found = []
    for k in range(64):
        if values[k] * values[k + 1] > 0:
            continue
        lo, hi, low = grid[k], grid[k + 1], values[k]
        for _ in range(40):
            mid = (lo + hi) / 2
            here = miss(mid)
            if low * here > 0:
                lo, low = mid, here
            else:
                hi = mid
        b = at((lo + hi) / 2)
        if sign * (ghost[axis] - b[axis]) < 0:  # leaving the cushion, not a root behind it
            found.append(b)
    return found


def suggest(state: TableState, board: Board, physics: PhysicsProfile, rules: RuleProfile,
            player: Player, top: int = 3, tries: int = 50, seed: int = 0,
            workers: int = 1) -> list[Suggestion]:
    """The ``top`` best strokes for the player to shoot (see the module's docstring).

    With ``top`` taken as three at least (asked for one or two shots, it still chooses
    among as many, so that they are the first of the three it would list): the easiest
    candidates are played once without noise until SCREEN × ``top`` have met their
    target first; the 3 × ``top`` best so played are tried in rounds (successive
    halving): a tenth of ``tries`` each, then the better 1.5 × ``top`` up to two
    fifths, then the best ``top`` up to ``tries``. Every suggestion
    returned has had all its tries, and a candidate far behind after a few is not tried
    fifty times. Try i of every candidate draws from one seeded stream (``seed`` and
    i): the candidates are compared under the same errors of the player's hand (common
    random numbers), so that a round ranks the strokes rather than the luck of their
    draws; and ``workers`` processes (candidates side by side, one pool for all the
    rounds) give the same answer as one."""
    chosen_among = max(top, 3)
    screened = screen(state, board, physics, rules, limit=SCREEN * chosen_among)
    alive = list(range(min(len(screened), 3 * chosen_among)))
    sums = {k: (0.0, 0.0, 0.0) for k in alive}
    done = 0
    with ProcessPoolExecutor(max_workers=min(workers, len(alive))) \
            if workers > 1 and len(alive) > 1 else nullcontext() as executor:
        for upto, keep in ((max(1, tries // 10), math.ceil(1.5 * chosen_among)),
                           (max(1, tries * 2 // 5), chosen_among), (tries, chosen_among)):
            jobs = [(state, screened[k][1], screened[k][2], board, physics, rules, player,
                     range(done, upto), seed) for k in alive]
            outcomes = (list(executor.map(_tried, *zip(*jobs, strict=True)))
                        if executor is not None and jobs else [_tried(*job) for job in jobs])
            for k, outcome in zip(alive, outcomes, strict=True):
                sums[k] = tuple(a + b for a, b in zip(sums[k], outcome, strict=True))
            done = upto
            alive.sort(key=lambda k: (-sums[k][0], -sums[k][1], k))
            alive = alive[:keep]
    return [Suggestion(stroke, target, hole, side, *(v / tries for v in sums[k]))
            for k in alive[:top] for _, stroke, target, hole, side in [screened[k]]]


def noisy(stroke: Stroke, player: Player, rng: random.Random) -> Stroke:
    """``stroke`` as ``player`` strikes it: the angle off by a normal error of
    ``angle_sd`` degrees, the speed by one of ``speed_sd`` of itself (0.3 m/s at least)."""
    angle = (stroke.angle + rng.gauss(0, player.angle_sd) + 180.0) % 360.0 - 180.0
    return replace(stroke, angle=angle,
                   speed=max(0.3, stroke.speed * (1 + rng.gauss(0, player.speed_sd))))


def screen(state: TableState, board: Board, physics: PhysicsProfile, rules: RuleProfile,
           limit: int | None = None) -> list[tuple[tuple, Stroke, str, str, str | None]]:
    """The candidates played once without noise, easiest first, until ``limit`` of them
    (or all) have met their target first (off the cushion they were aimed at); those,
    best first: (sort key, stroke, target, hole, cushion); among strokes worth as much
    played clean, the easier first (``candidates``' order)."""
    screened = []
    for k, (stroke, target, hole, side) in enumerate(candidates(state, board, physics)):
        if limit is not None and len(screened) >= limit:
            break
        try:
            record = simulate(state, stroke, board, physics, trajectory=False)
        except KangleError:
            continue  # the circle is covered
        met = [c.other(record.shot_piece) for c in record.contacts_of(record.shot_piece)]
        first_piece = next((m for m in met if not is_cushion(m)), None)
        came_off = met[:met.index(first_piece)] if first_piece else []
        if first_piece == target and came_off == ([] if side is None else [cushion(side)]):
            worth = _worth(state, record, board, rules, target)[0]
            screened.append(((-worth, k), stroke, target, hole, side))
    screened.sort(key=lambda c: c[0])
    return screened


def greedy(state: TableState, board: Board, physics: PhysicsProfile,
           rules: RuleProfile) -> Stroke | None:
    """The baseline planner: the candidate worth most played once without noise (no
    thought for how the player's error spreads it), or None where there is none."""
    screened = screen(state, board, physics, rules)
    return screened[0][1] if screened else None


def _tried(state, stroke, target, board, physics, rules, player, which: range,
           seed: int) -> tuple[float, float, float]:
    """(summed worth, tries pocketing the target, tries fouling) of tries ``which`` of
    the strokes spread about ``stroke`` as ``player`` strikes; try i draws from the
    random stream of ``seed`` and i, whichever process plays it."""
    worth = pocketed = fouled = 0.0
    for i in which:
        tried = noisy(stroke, player, random.Random(seed * 1000 + i))
        record = simulate(state, tried, board, physics, trajectory=False)
        w, hit, foul = _worth(state, record, board, rules, target)
        worth, pocketed, fouled = worth + w, pocketed + hit, fouled + foul
    return worth, pocketed, fouled


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
