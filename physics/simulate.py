"""Simulating one shot: from a table state and a cue stroke to a shot record.

Stepping adapts to the fastest piece: no piece moves more than
``max_step_fraction`` of the smallest radius in one step, so nothing tunnels.
Contacts that begin within a step are put in order by their exact time of impact
on the straight-line motion Chipmunk integrated over that step (rules/impact.py);
contacts of one piece closer in time than ``order_tolerance`` are marked ambiguous.
Board millimetres throughout; speeds on the command line in m/s, angles in degrees
(0° = +x, 90° = +y, towards black).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import numpy as np
import pymunk
import pymunk.batch as batch

from physics.profile import PhysicsProfile
from physics.world import CUSHION, PIECE, World, build_world, spread_stack
from rules.board import Board
from rules.errors import KangleError
from rules.impact import disc_disc, disc_wall
from rules.pieces import STRIKERS, colour_of
from rules.shot import Contact, Exit, Pocketed, ShotRecord, cushion, is_cushion
from rules.state import TableState

_FIELDS = batch.BodyFields.BODY_ID | batch.BodyFields.POSITION | batch.BodyFields.VELOCITY


@dataclass(frozen=True)
class Stroke:
    """A cue stroke: who shoots, from which circle, where in it the shot piece stands
    (``offset`` mm from the circle's centre; ignored for a 自由子, which is shot from
    where it lies), the direction in degrees and the speed in m/s."""

    shooter: str
    circle: str
    angle: float
    speed: float
    offset: tuple[float, float] = (0.0, 0.0)
    piece: str | None = None


def placement(state: TableState, stroke: Stroke, board: Board) -> tuple[str, tuple[float, float]]:
    """The shot piece and where it stands; refuses a stroke that cannot be played."""
    if board.circle_owner(stroke.circle) != stroke.shooter:
        raise KangleError(
            f"circle {stroke.circle} is {board.circle_owner(stroke.circle)}'s: {stroke.shooter} "
            f"shoots only from {' or '.join(board.circles_of(stroke.shooter))} (rule 2.1)")
    if not (0 < stroke.speed <= 15):
        raise KangleError(f"speed {stroke.speed} m/s is not a cue stroke: give 0 < speed ≤ 15")
    if not math.isfinite(stroke.angle):
        raise KangleError("the angle must be a number of degrees")
    cx, cy = board.circle_centre(stroke.circle)
    if stroke.piece:
        piece = stroke.piece
        if colour_of(piece) != stroke.shooter or not state.on_table(piece):
            raise KangleError(f"{piece} is not one of {stroke.shooter}'s pieces on the table")
        pos = state.pos(piece)
        if board.circle_at(*pos) != stroke.circle:
            raise KangleError(f"{piece} is not in circle {stroke.circle}, so it is no 自由子 there")
        return piece, pos
    piece = STRIKERS[stroke.shooter]
    pos = (cx + stroke.offset[0], cy + stroke.offset[1])
    if math.hypot(*stroke.offset) > board.circle_diameter / 2:
        raise KangleError(f"the striker must stand in circle {stroke.circle}: offset "
                          f"{stroke.offset} mm is more than {board.circle_diameter / 2} mm "
                          "from its centre")
    for other in state.left("red") + state.left("black"):
        ox, oy = state.pos(other)
        if math.hypot(pos[0] - ox, pos[1] - oy) < board.striker_radius + board.piece_radius:
            raise KangleError(f"the striker at ({pos[0]:.0f}, {pos[1]:.0f}) mm would overlap "
                              f"{other}: place it elsewhere in the circle")
    return piece, pos


def simulate(state: TableState, stroke: Stroke, board: Board, physics: PhysicsProfile,
             trajectory: bool = True) -> ShotRecord:
    """Play one stroke from ``state`` and return what happened as a shot record."""
    shot_piece, start = placement(state, stroke, board)
    positions = {p: state.pos(p) for p in state.left("red") + state.left("black")}
    positions = spread_stack(positions, state.stack, board)
    positions[shot_piece] = start
    run = _Run(build_world(board, physics, positions), shot_piece, stroke, start, trajectory)
    return run.play()


class _Run:
    def __init__(self, world: World, shot_piece: str, stroke: Stroke,
                 start: tuple[float, float], want_trajectory: bool):
        self.w = world
        self.board, self.physics = world.board, world.physics
        self.sp, self.stroke, self.start = shot_piece, stroke, start
        self.ids = sorted(world.bodies)
        body_ids = np.array([world.bodies[p].id for p in self.ids], dtype=np.int64)
        order = np.argsort(body_ids)
        self.sorted_ids, self.sorted_rows = body_ids[order], order
        self.radius = np.array([self.board.radius_of(p) for p in self.ids])
        n = len(self.ids)
        self.pos = np.array([world.bodies[p].position for p in self.ids], dtype=float)
        self.vel = np.zeros((n, 2))
        self.active = np.ones(n, dtype=bool)
        self.origin = self.pos.copy()
        self.rng = random.Random(self.physics.fly_off.seed)
        self.pending: list[tuple[str, str]] = []
        self.leaving: dict[str, str] = {}
        self.contacts: list[Contact] = []
        self.pockets: list[Pocketed] = []
        self.exits: list[Exit] = []
        self.left_circle = False
        self.want_trajectory = want_trajectory
        self.samples: dict[str, list[tuple[float, float, float]]] = {}
        self.next_sample = 0.0
        self.buffer = batch.Buffer()
        self.holes = np.array([self.board.hole_centre(h) for h in ("SW", "SE", "NW", "NE")])
        world.space.on_collision(PIECE, PIECE, begin=self._begin_pieces)
        world.space.on_collision(PIECE, CUSHION, begin=self._begin_cushion)

    # -- collision callbacks (Chipmunk calls them before it solves the step) ---------------
    def _begin_pieces(self, arbiter: pymunk.Arbiter, space, data) -> None:
        a, b = arbiter.shapes
        self.pending.append((self.w.piece_of_shape[a], self.w.piece_of_shape[b]))

    def _begin_cushion(self, arbiter: pymunk.Arbiter, space, data) -> None:
        a, b = arbiter.shapes
        piece, side = self.w.piece_of_shape[a], self.w.cushion_of_shape[b]
        self.pending.append((piece, cushion(side)))
        fly = self.physics.fly_off
        if fly.enabled and piece not in self.leaving:
            v = arbiter.bodies[0].velocity
            normal = {"N": v.y, "S": -v.y, "E": v.x, "W": -v.x}[side] / 1000
            if normal > fly.min_speed and self.rng.random() < fly.probability:
                self.leaving[piece] = "rim" if self.rng.random() < fly.rim_share else "off"
                arbiter.process_collision = False

    # -- the loop ------------------------------------------------------------------------------
    def play(self) -> ShotRecord:
        body = self.w.bodies[self.sp]
        a = math.radians(self.stroke.angle)
        body.velocity = (self.stroke.speed * 1000 * math.cos(a),
                         self.stroke.speed * 1000 * math.sin(a))
        self.vel[self.ids.index(self.sp)] = body.velocity
        step_len = self.physics.max_step_fraction * float(self.radius.min())
        rest = self.physics.rest_speed * 1000
        t = 0.0
        while t < self.physics.max_duration:
            speeds = np.hypot(self.vel[:, 0], self.vel[:, 1]) * self.active
            vmax = float(speeds.max()) if len(speeds) else 0.0
            if vmax < rest:
                break
            dt = min(self.physics.max_step, step_len / vmax)
            before_pos, before_vel = self.pos.copy(), self.vel.copy()
            self.pending.clear()
            self.w.space.step(dt)
            self._read_bodies()
            self._order_contacts(t, dt, before_pos, before_vel)
            t += dt
            self._holes_and_exits(t)
            if not self.left_circle:
                self._check_circle()
            if self.want_trajectory:
                self._sample(t - dt, dt, before_pos)
        return self._record(t)

    def _read_bodies(self) -> None:
        self.buffer.clear()
        batch.get_space_bodies(self.w.space, _FIELDS, self.buffer)
        data = np.frombuffer(self.buffer.float_buf(), dtype=np.float64).reshape(-1, 4)
        ids = np.frombuffer(self.buffer.int_buf(), dtype=np.int64)
        # the space may hold bodies of its own (its static body): keep ours only
        at = np.searchsorted(self.sorted_ids, ids).clip(0, len(self.sorted_ids) - 1)
        ours = self.sorted_ids[at] == ids
        rows = self.sorted_rows[at[ours]]
        self.pos[rows] = data[ours, :2]
        self.vel[rows] = data[ours, 2:]

    def _order_contacts(self, t0: float, dt: float, pos: np.ndarray, vel: np.ndarray) -> None:
        """Time every contact that began in this step on the straight-line motion of the
        step, and append them in that order."""
        timed = []
        for a, b in self.pending:
            i = self.ids.index(a)
            if is_cushion(b):
                tau = disc_wall(tuple(pos[i]), tuple(vel[i]), self.radius[i], b[-1],
                                self.board.half, dt)
            else:
                j = self.ids.index(b)
                tau = disc_disc(tuple(pos[i]), tuple(vel[i]), tuple(pos[j]), tuple(vel[j]),
                                self.radius[i] + self.radius[j], dt)
            timed.append((t0 + float(tau if tau is not None else dt), a, b))
        timed.sort(key=lambda c: c[0])
        self.contacts.extend(Contact(round(tc, 7), a, b) for tc, a, b in timed)

    def _holes_and_exits(self, t: float) -> None:
        for piece, where in sorted(self.leaving.items()):
            i = self.ids.index(piece)
            self.exits.append(Exit(round(t, 7), piece, where))
            self._take_out(i)
        self.leaving.clear()
        live = np.flatnonzero(self.active)
        if not len(live):
            return
        d = np.linalg.norm(self.pos[live, None, :] - self.holes[None, :, :], axis=2)
        near = d.min(axis=1) <= self.board.hole_diameter / 2
        for k in np.flatnonzero(near):
            i = live[k]
            speed = math.hypot(*self.vel[i]) / 1000
            if speed <= self.physics.capture_speed:
                hole = ("SW", "SE", "NW", "NE")[int(d[k].argmin())]
                self.pockets.append(Pocketed(round(t, 7), self.ids[i], hole))
                self._take_out(i)

    def _take_out(self, i: int) -> None:
        self.active[i] = False
        self.vel[i] = 0
        self.w.remove_piece(self.ids[i])

    def _check_circle(self) -> None:
        i = self.ids.index(self.sp)
        cx, cy = self.board.circle_centre(self.stroke.circle)
        if not self.active[i] or math.hypot(self.pos[i][0] - cx, self.pos[i][1] - cy) > (
                self.board.circle_diameter / 2):
            self.left_circle = True

    def _sample(self, t0: float, dt: float, before: np.ndarray) -> None:
        rate = self.physics.trajectory_rate
        if not rate:
            return
        while self.next_sample <= t0 + dt:
            f = (self.next_sample - t0) / dt if dt else 1.0
            f = min(max(f, 0.0), 1.0)
            moving = np.flatnonzero(np.any(before != self.pos, axis=1))
            for i in moving:
                x, y = before[i] + (self.pos[i] - before[i]) * f
                self.samples.setdefault(self.ids[i], []).append(
                    (round(self.next_sample, 6), float(x), float(y)))
            self.next_sample += 1.0 / rate

    def _record(self, t_end: float) -> ShotRecord:
        contacts = _mark_ambiguous(self.contacts, self.physics.order_tolerance)
        gone = {p.piece for p in self.pockets} | {e.piece for e in self.exits}
        final = {}
        for i, piece in enumerate(self.ids):
            if piece in gone:
                continue
            if piece == self.sp or np.hypot(*(self.pos[i] - self.origin[i])) > 0.01:
                final[piece] = (round(float(self.pos[i][0]), 3), round(float(self.pos[i][1]), 3))
        traj = None
        if self.want_trajectory:
            traj = {}
            for piece, samples in self.samples.items():
                i = self.ids.index(piece)
                head = [(0.0, float(self.origin[i][0]), float(self.origin[i][1]))]
                body = [s for s in samples if s[0] > 0]
                tail = [] if piece in gone or piece not in final else [
                    (round(t_end, 6), *final[piece])]
                traj[piece] = tuple(head + body + tail)
        return ShotRecord(
            shooter=self.stroke.shooter, circle=self.stroke.circle, shot_piece=self.sp,
            start=self.start, left_circle=self.left_circle, contacts=tuple(contacts),
            pockets=tuple(self.pockets), exits=tuple(self.exits), final=final,
            source="sim", duration=round(t_end, 6), trajectory=traj,
            table={p: (float(x), float(y)) for p, (x, y) in zip(self.ids, self.origin,
                                                                   strict=True)})


def _mark_ambiguous(contacts: list[Contact], tolerance: float) -> list[Contact]:
    """Contacts of one piece closer in time than ``tolerance`` cannot be ordered."""
    flagged = set()
    for i, c in enumerate(contacts):
        for j in range(i + 1, len(contacts)):
            d = contacts[j]
            if d.t - c.t >= tolerance:
                break
            shared = {c.a, c.b} & {d.a, d.b}
            if any(not is_cushion(x) for x in shared):  # one piece, not just one cushion
                flagged.update((i, j))
    return [replace(c, ambiguous=True) if i in flagged else c
            for i, c in enumerate(contacts)]
