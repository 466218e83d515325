"""Simulating one shot: from a table state and a cue stroke to a shot record.

Stepping adapts to the fastest piece: no piece moves more than
``max_step_fraction`` of the smallest radius in one step, so nothing tunnels, and a
step that would pass over a graze ends in it (physics/world.py), so no contact is
missed however shallow.
Contacts that begin within a step are put in order by their exact time of impact
on the straight-line motion Chipmunk integrated over that step (rules/impact.py);
contacts of one piece closer in time than ``order_tolerance`` are marked ambiguous.
Two pieces are pushed along their line of centres at that time of impact, not where
the step left them overlapping, so a cut obeys the impulse laws with Coulomb friction
between the rims (tests/test_physics_laws.py). And a piece that met one thing in a
step — a cushion or a piece — leaves the step where the bounce puts it: from the
instant of the touch on, moving as Chipmunk solved it (``_Run._mend_touches``), not
from where the step left it, up to a step's travel into what it met.
Board millimetres throughout; speeds on the command line in m/s, angles in degrees
(0° = +x, 90° = +y, towards black).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pymunk

from physics.profile import PhysicsProfile
from physics.world import CUSHION, GRAVITY_MM, HOLE, PIECE, World, build_world, spread_stack
from rules.board import Board
from rules.errors import KangleError
from rules.impact import disc_disc, disc_wall
from rules.pieces import STRIKERS, colour_of
from rules.shot import Contact, Exit, Pocketed, ShotRecord, cushion, is_cushion
from rules.state import TableState

_READ_EVERY = 8  # read the speeds back at least every this many steps
_PARTING = 1.0  # mm/s: overlapping discs parting faster than this are left alone
_MEND_SLACK = 1e-6  # mm: a piece mended off a cushion ends this near it at most


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
    if not -360 <= stroke.angle <= 360:
        raise KangleError(f"the angle {stroke.angle} is no direction: give degrees from -360 "
                          "to 360 (0 = east, 90 = towards black)")
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
    if not all(map(math.isfinite, stroke.offset)):
        raise KangleError(f"the striker's offset {stroke.offset} is no place: give two numbers "
                          "of mm from the circle's centre")
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
    return play(spread_stack(positions, state.stack, board), shot_piece, start, stroke, board,
                physics, trajectory)


def play(positions: dict[str, tuple[float, float]], shot_piece: str, start: tuple[float, float],
         stroke: Stroke, board: Board, physics: PhysicsProfile,
         trajectory: bool = True, sample_at: Sequence[float] | None = None) -> ShotRecord:
    """Play ``stroke`` with the pieces standing at ``positions`` (board mm) and the shot
    piece struck from ``start``, unchecked: a table seen by the camera (a tracked record's
    ``table``) replayed as it stood. ``simulate`` is the checked way in from a state.
    ``sample_at``: the trajectory's sample times (s after the strike, ascending) instead
    of the profile's ``trajectory_rate`` — a fit compares a replay with a record at the
    record's own times."""
    positions = {**positions, shot_piece: start}
    run = _Run(build_world(board, physics, positions), shot_piece, stroke, start, trajectory,
               sample_at)
    return run.play()


class _Run:
    """One simulation: the stepping loop and the bookkeeping of what happened.

    Per step, Python touches only what Chipmunk reports: one batch read of the awake
    bodies (positions and velocities), the contacts that began, the pieces over a
    hole. Everything else happens inside Chipmunk."""

    def __init__(self, world: World, shot_piece: str, stroke: Stroke,
                 start: tuple[float, float], want_trajectory: bool,
                 sample_at: Sequence[float] | None = None):
        self.w = world
        self.board, self.physics = world.board, world.physics
        self.sp, self.stroke, self.start = shot_piece, stroke, start
        self.ids = sorted(world.bodies)
        self.row_of = {p: i for i, p in enumerate(self.ids)}
        self.piece_of = {body: p for p, body in world.bodies.items()}
        self._radius = {body: world.board.radius_of(p) for p, body in world.bodies.items()}
        self._holes = {shape: (hole, world.board.hole_centre(hole))
                       for shape, hole in world.hole_of_shape.items()}
        self.raw_row: dict[str, int] = {}  # each awake piece's row in a reading
        self._rows: list[pymunk.Body | None] | None = None  # the rows raw_row was made for
        # the bodies that may be moving: those moving at the last reading and those a
        # contact has begun on since (a reading follows every step in which one began,
        # so a piece knocked on by one already touching it is counted from the next
        # step; one set moving otherwise, at most _READ_EVERY steps later)
        self.moving: set[pymunk.Body] = set()
        self.top_speed = 0.0  # mm/s, the fastest at the last reading
        self._still2 = (self.physics.rest_speed * 1000) ** 2
        self.origin = np.array([world.bodies[p].position for p in self.ids], dtype=float)
        self.rng = random.Random(self.physics.fly_off.seed)
        self.pending: list[tuple[float, str, str]] = []
        self.fresh_contacts = False
        self.t = self.dt = 0.0
        self.leaving: dict[str, str] = {}
        self.dropping: dict[str, str] = {}
        self.contacts: list[Contact] = []
        self.pockets: list[Pocketed] = []
        self.exits: list[Exit] = []
        self.left_circle = False
        self.want_trajectory = want_trajectory
        self.samples: dict[str, list[tuple[float, float, float]]] = {}
        self._times = _sample_times(self.physics.trajectory_rate, sample_at)
        self.next_sample = next(self._times)
        self.last_sample: float | None = None  # s: the sample time before next_sample
        # the contacts begun in this step at a time of impact within it: τ (s into the
        # step) and each body's place at the step's start and velocity it moved with
        # (and a cushion's normal, towards it; None for two pieces)
        self.touches: list[tuple[float, tuple[tuple[pymunk.Body, tuple, tuple], ...],
                                 pymunk.Vec2d | None]] = []
        # each piece a contact began on in the last step: its first touch's time (s) and
        # its place and velocity before it, for the trajectory's samples within the step
        self.kinks: dict[str, tuple[float, float, float, float, float]] = {}
        # the line of centres at each contact's first touch, by the pair of shapes (kept
        # until the pair next touches)
        self.normals: dict[tuple[pymunk.Shape, pymunk.Shape], pymunk.Vec2d] = {}
        world.space.on_collision(PIECE, PIECE, begin=self._begin_pieces,
                                 pre_solve=self._along_first_touch)
        world.space.on_collision(PIECE, CUSHION, begin=self._begin_cushion,
                                 pre_solve=self._against_cushion)
        world.space.on_collision(PIECE, HOLE, pre_solve=self._over_hole)

    # -- collision callbacks ---------------------------------------------------------------
    # Chipmunk calls these after it has moved every body by velocity × dt and before it
    # solves the step, so a body's velocity is still the one it moved with: its
    # position at the start of the step is position − velocity·dt, and the exact time
    # of impact on that straight-line motion follows in closed form.
    def _start_of_step(self, body: pymunk.Body) -> tuple[tuple[float, float], tuple[float, float]]:
        (x, y), (vx, vy) = body.position, body.velocity
        return (x - vx * self.dt, y - vy * self.dt), (vx, vy)

    def _impact(self, tau: float | None) -> float:
        return self.t + (tau if tau is not None else self.dt)

    def _begin_pieces(self, arbiter: pymunk.Arbiter, space, data) -> None:
        sa, sb = shapes = arbiter.shapes
        a, b = self.w.piece_of_shape[sa], self.w.piece_of_shape[sb]
        bodies = sa.body, sb.body
        self.moving.update(bodies)
        (pa, va), (pb, vb) = (self._start_of_step(body) for body in bodies)
        reach = self._radius[bodies[0]] + self._radius[bodies[1]]
        tau = disc_disc(pa, va, pb, vb, reach, self.dt)
        self.pending.append((self._impact(tau), a, b))
        # (a pair's normal from an earlier touch is no longer theirs: Chipmunk may hand
        # the pair over in the other order this time)
        self.normals.pop((sb, sa), None)
        if tau:
            self.normals[shapes] = _line_of_centres((pa, va), (pb, vb), tau)
            self.touches.append((tau, ((bodies[0], pa, va), (bodies[1], pb, vb)), None))
        else:
            self.normals.pop(shapes, None)

    def _along_first_touch(self, arbiter: pymunk.Arbiter, space, data) -> None:
        """Solve a contact along the line of centres where the two discs first touched
        (``normals``), not where the step left them: a piece moves up to half its
        radius in a step, and 7 mm into a 20° cut the line of centres is 3° off, more
        than a piece friction of 0.05 throws a cut (at a graze's deepest moment it is a
        right angle off, and the push is lost). The contact points stay on each disc's
        rim along it.

        Once pushed, discs that still overlap but part along it are left alone until
        they have parted: Chipmunk would push them again along the normal it takes
        from the overlap, and it starts each step from the push it last solved, scaled
        by the ratio of the two steps' lengths, taking back no more than that push — a
        shorter step (a struck piece faster than the striker) took a sixth of a 20°
        cut's bounce away. Discs pushed together again while they overlap (in a pack)
        are Chipmunk's to solve as it finds them. Chipmunk keeps an arbiter's
        ``process_collision`` from one step to the next and may give a pair's shapes
        in either order, step to step: both are set and read afresh at every step
        (until session 35 a pair once left alone stayed so while pushed together
        again, and passed through each other: 6 of 50 breaks came to rest with two
        pieces 3-8 mm apart, centre to centre). Discs at rest overlapping are not
        parting: Chipmunk pushes them apart."""
        self.w.stir()  # (a touch: velocities change; pre_solve follows every begin)
        shapes = arbiter.shapes
        normal = self.normals.get(shapes)
        if normal is None:
            turned = self.normals.get(shapes[::-1])
            if turned is None:
                return  # (no first touch worked out: Chipmunk's contact throughout)
            normal = -turned
        sa, sb = shapes
        a, b = sa.body, sb.body
        if not arbiter.is_first_contact:
            # parting: left alone; pushed together again (a pack), or come to rest
            # overlapping: Chipmunk's normal, from the overlap, and its push apart
            (ax, ay), (bx, by), (nx, ny) = a.velocity, b.velocity, normal
            arbiter.process_collision = (bx - ax) * nx + (by - ay) * ny < _PARTING
            return
        # (Chipmunk works the depth out afresh: the 0 is not read)
        point = pymunk.ContactPoint(a.position + normal * sa.radius,
                                    b.position - normal * sb.radius, 0.0)
        arbiter.contact_point_set = pymunk.ContactPointSet(normal, [point])

    def _begin_cushion(self, arbiter: pymunk.Arbiter, space, data) -> None:
        self.w.stir()
        sa, sb = arbiter.shapes
        piece, side = self.w.piece_of_shape[sa], self.w.cushion_of_shape[sb]
        body = sa.body
        p, v = self._start_of_step(body)
        tau = disc_wall(p, v, self._radius[body], side, self.board.half, self.dt)
        self.pending.append((self._impact(tau), piece, cushion(side)))
        fly = self.physics.fly_off
        if fly.enabled and piece not in self.leaving:
            normal = {"N": v[1], "S": -v[1], "E": v[0], "W": -v[0]}[side] / 1000
            if normal > fly.min_speed and self.rng.random() < fly.probability:
                self.leaving[piece] = "rim" if self.rng.random() < fly.rim_share else "off"
                arbiter.process_collision = False
        if tau and piece not in self.leaving:
            self.touches.append((tau, ((body, p, v),), arbiter.normal))

    def _against_cushion(self, arbiter: pymunk.Arbiter, space, data) -> None:
        """A piece's first step against a cushion, touching nothing else, is solved as
        if it only touched it: Chipmunk would also push the step's depth out of it (a
        ninth of it in a 4 ms step, added to its path at the next), where
        ``_mend_touches`` sets the piece where the bounce puts it. (A piece in a pack
        keeps Chipmunk's push: left in the cushion, a row of pieces beside it chattered
        against one another, a third more contacts in a break.)"""
        self.w.stir()
        if arbiter.is_first_contact and self._alone(body := arbiter.bodies[0], (), 1):
            normal = arbiter.normal
            rim = body.position + normal * self._radius[body]
            arbiter.contact_point_set = pymunk.ContactPointSet(
                normal, [pymunk.ContactPoint(rim, rim, 0.0)])

    def _over_hole(self, arbiter: pymunk.Arbiter, space, data) -> None:
        """A piece overlaps a hole: it drops once its centre is over the opening, unless
        it is fast enough to run over."""
        a, b = arbiter.shapes
        body = a.body
        hole, (hx, hy) = self._holes[b]
        x, y = body.position
        if math.hypot(x - hx, y - hy) <= self.board.hole_diameter / 2 and (
                body.velocity.length <= self.physics.capture_speed * 1000):
            self.dropping[self.w.piece_of_shape[a]] = hole

    # -- the loop ------------------------------------------------------------------------------
    def play(self) -> ShotRecord:
        """Step until everything rests. While any piece is fast, each step is sized to the
        fastest one (no piece moves more than step_len); once all are slower than
        step_len / max_step, steps are max_step long. The speeds are read back in one
        batch call only when something happens (a contact, a hole, a trajectory sample)
        or every ``_READ_EVERY`` steps: in between, friction alone acts, which can only
        slow everything, so the top speed is bounded by the last reading minus μ·g·t —
        exactly so for a piece sliding free, so the steps are as long as a reading at
        every step would make them."""
        body = self.w.bodies[self.sp]
        a = math.radians(self.stroke.angle)
        v0 = self.stroke.speed * 1000
        body.velocity = (v0 * math.cos(a), v0 * math.sin(a))
        # the pieces at rest sleep until something touches them: Chipmunk puts them to
        # sleep after sleep_time_threshold anyway, and until then it solved every idle
        # body's friction joints at every step (a tenth of a break's work)
        for other in self.w.bodies.values():
            if other is not body:
                other.sleep()
        step_len = self.w.step_len
        max_step, rest = self.physics.max_step, self.physics.rest_speed * 1000
        slow = step_len / max_step
        braking = self.physics.sliding_friction * GRAVITY_MM
        step = self.w.space.step
        vmax, unread = v0, 0
        now: list[float] | None = self._read()  # (the bodies as read since the last step)
        while self.t < self.physics.max_duration and vmax >= rest:
            self.dt = dt = self.w.next_step(max_step if vmax <= slow else step_len / vmax,
                                            self.moving, self.t, now)
            step(dt)
            now = None
            if self.touches:
                now = self._mend_touches(dt)
            elif self.kinks:
                self.kinks.clear()
            self.t += dt
            unread += 1
            if self.pending:
                self._log_contacts()
            if self.dropping or self.leaving:
                self._holes_and_exits(self.t)
                now = self._read()
            if not self.left_circle:
                self._check_circle()
            sample = self.want_trajectory and self.next_sample <= self.t
            if (unread >= _READ_EVERY or sample or vmax - braking * dt < rest
                    or self.fresh_contacts):
                now = self._read(now)
                vmax = self.top_speed
                unread, self.fresh_contacts = 0, False
                if sample:
                    self._sample(now)
            else:
                vmax -= braking * dt
        return self._record(self.t)

    def _mend_touches(self, dt: float) -> list[float]:
        """Chipmunk moves each body a whole step before it looks for contacts, and
        solves a bounce where the step left the body, up to a step's travel into what
        it met: from there the path after the bounce runs up to (1 + e) times that depth
        from the true one (a cushion bounce left a piece up to 5 mm from where the laws
        put it, by where the step happened to end). A contact that began ``τ`` into the
        step, whose bodies touched nothing else in it, is mended: each body is set where
        it was at the touch, moved on at its solved velocity for the rest of the step.
        Pieces in a pack, touching more than one thing, stay Chipmunk's.

        Against a cushion, Chipmunk's bounce holds the speed into it to exactly −e times
        the speed it came in with at the step's start: the table's friction over the
        step is lost from it. The speed away is set to what the laws give: −e times the
        speed in at the touch, then slowed at μ·g for the rest of the step.

        Returns the bodies as they stand after it, read in one batch call (``_read``)."""
        self.kinks.clear()
        now = self.w.read()
        braking = self.physics.sliding_friction * GRAVITY_MM
        for tau, bodies, normal in sorted(self.touches, key=lambda touch: touch[0]):
            for body, (x, y), (vx, vy) in bodies:  # (until its first touch, each body
                piece = self.piece_of[body]  # went straight on: the samples before it)
                if piece not in self.kinks:
                    self.kinks[piece] = (self.t + tau, x + vx * tau, y + vy * tau, vx, vy)
            walls = 0 if normal is None else 1
            if not all(self._alone(body, bodies, walls, now) for body, _, _ in bodies):
                continue
            rest = dt - tau
            mended = []
            for body, (x, y), (vx, vy) in bodies:
                ux, uy = self.w.motion(body, now)[1]
                if normal is not None and (out := ux * normal.x + uy * normal.y) < 0.0:
                    lost = out * braking * (tau / math.hypot(vx, vy) + rest / math.hypot(ux, uy))
                    ux, uy = ux - normal.x * lost, uy - normal.y * lost
                mended.append((body, (x + vx * tau + ux * rest, y + vy * tau + uy * rest),
                               (ux, uy)))
            if all(self._clear(body, place, mended, now) for body, place, _ in mended):
                for body, place, velocity in mended:
                    body.velocity, body.position = velocity, place
                    k = self.w.row_of.get(body)
                    if k is not None:
                        now[4 * k:4 * k + 4] = [*place, *velocity]
        self.touches.clear()
        return now

    def _alone(self, body: pymunk.Body, touch: tuple, walls: int,
               now: list[float] | None = None) -> bool:
        """Whether ``body``, where the step left it (as read in ``now``, or from pymunk),
        overlaps (so touches, for Chipmunk) nothing but the others in ``touch`` and
        ``walls`` cushions."""
        x, y = self.w.motion(body, now)[0] if now else body.position
        line = self.board.half - self._radius[body]
        if (abs(x) > line) + (abs(y) > line) > walls:
            return False
        return not self._meets_piece(body, (x, y), now, {other: None for other, _, _ in touch})

    def _clear(self, body: pymunk.Body, place: tuple[float, float], mended: list,
               now: list[float]) -> bool:
        """Whether ``body``, moved on from its touch to ``place`` (mm) in a straight line,
        meets nothing on the way there: no cushion, and no piece near it where that
        piece stands (the others mended with it where they are set). A second touch
        within the step is Chipmunk's to find: a piece a millimetre from the cushion,
        struck towards it, would be set beyond it."""
        line = self.board.half - self._radius[body] + _MEND_SLACK
        if abs(place[0]) > line or abs(place[1]) > line:  # (it starts within: the way
            return False  # there is too)
        return not self._meets_piece(body, place, now,
                                     {other: where for other, where, _ in mended})

    def _meets_piece(self, body: pymunk.Body, place, now: list[float] | None,
                     placed: dict) -> bool:
        """Whether ``body`` at ``place`` (mm) overlaps a piece near it: each where
        ``placed`` puts it (None: left out), the others where ``now`` (or pymunk) has
        them."""
        x, y = place
        for other, reach in self.w.near.get(body, {}).items():
            if other in placed:
                if (where := placed[other]) is None:
                    continue
                ox, oy = where
            else:
                ox, oy = self.w.motion(other, now)[0] if now else other.position
            if (ox - x) ** 2 + (oy - y) ** 2 < reach * reach:
                return True
        return False

    def _read(self, now: list[float] | None = None) -> list[float]:
        """Every awake body's x, y, vx, vy (mm, mm/s), four to a row (World.read), or
        ``now`` if the bodies were read since the step; ``raw_row`` says which row holds
        which piece. Notes the top speed and which bodies move, and the time before
        which nothing can touch (World.settle)."""
        if now is None:
            now = self.w.read()
        if self.w.awake is not self._rows:
            self._rows = self.w.awake
            self.raw_row = {self.piece_of[body]: k for k, body in enumerate(self._rows)
                            if body is not None}
        speed2 = [vx * vx + vy * vy for vx, vy in zip(now[2::4], now[3::4], strict=True)]
        self.top_speed = math.sqrt(max(speed2)) if speed2 else 0.0
        # (slower than rest_speed, a body moves too little in a step to pass over a graze)
        still = self._still2
        self.moving = {body for body, s in zip(self._rows, speed2, strict=True)
                       if s > still and body is not None}
        self.w.settle(self.t, self.moving, now)
        return now

    def _log_contacts(self) -> None:
        """The contacts that began in this step, in the order of their times of impact."""
        self.pending.sort(key=lambda c: c[0])
        self.contacts.extend(Contact(round(float(t), 7), a, b) for t, a, b in self.pending)
        self.pending.clear()
        self.fresh_contacts = True

    def _holes_and_exits(self, t: float) -> None:
        for piece, where in sorted(self.leaving.items()):
            self.exits.append(Exit(round(t, 7), piece, where))
            self._take_out(piece)
        for piece, hole in sorted(self.dropping.items()):
            if piece not in self.leaving:
                self.pockets.append(Pocketed(round(t, 7), piece, hole))
                self._take_out(piece)
        self.leaving.clear()
        self.dropping.clear()

    def _take_out(self, piece: str) -> None:
        self.w.remove_piece(piece)

    def _check_circle(self) -> None:
        """Rule 4.4 needs to know whether the shot piece's centre left its circle."""
        body = self.w.bodies.get(self.sp)
        cx, cy = self.board.circle_centre(self.stroke.circle)
        if body is None or math.hypot(body.position.x - cx, body.position.y - cy) > (
                self.board.circle_diameter / 2):
            self.left_circle = True

    def _sample(self, now: list[float]) -> None:
        """Trajectory samples at their times (``_sample_times``): each moving piece's
        position at the sample time, taken back along its current velocity from the end
        of the step. A piece that starts moving after resting gets a sample of where it
        rested at the sample time before, so that a path interpolated between samples
        does not creep."""
        while self.next_sample <= self.t:
            at, before = self.next_sample, self.last_sample
            back = self.t - at
            for piece, k in self.raw_row.items():
                x, y, vx, vy = now[4 * k:4 * k + 4]
                kink = self.kinks.get(piece)
                if kink is not None and at < kink[0]:  # before its first touch in the step
                    x, y, vx, vy = kink[1:]
                    back = kink[0] - at
                if vx or vy:
                    samples = self.samples.setdefault(piece, [])
                    if before is not None and before > 1e-9 and (
                            not samples or samples[-1][0] < round(before, 6)):
                        rested = samples[-1][1:] if samples else self.origin[self.row_of[piece]]
                        samples.append((round(before, 6), *map(float, rested)))
                    samples.append((round(at, 6), x - vx * back, y - vy * back))
            self.last_sample, self.next_sample = at, next(self._times)

    def _record(self, t_end: float) -> ShotRecord:
        contacts = _mark_ambiguous(self.contacts, self.physics.order_tolerance)
        final = {}
        for piece, body in sorted(self.w.bodies.items()):
            x, y = body.position
            x0, y0 = self.origin[self.row_of[piece]]
            if piece == self.sp or math.hypot(x - x0, y - y0) > 0.01:
                final[piece] = (round(float(x), 3), round(float(y), 3))
        traj = None
        if self.want_trajectory:
            traj = {}
            for piece, samples in self.samples.items():
                x0, y0 = self.origin[self.row_of[piece]]
                tail = [(round(t_end, 6), *final[piece])] if piece in final else []
                traj[piece] = tuple([(0.0, float(x0), float(y0))] +
                                    [s for s in samples if s[0] > 0] + tail)
        return ShotRecord(
            shooter=self.stroke.shooter, circle=self.stroke.circle, shot_piece=self.sp,
            start=self.start, left_circle=self.left_circle, contacts=tuple(contacts),
            pockets=tuple(self.pockets), exits=tuple(self.exits), final=final,
            source="sim", duration=round(t_end, 6), trajectory=traj,
            table={p: (float(x), float(y)) for p, (x, y) in zip(self.ids, self.origin,
                                                                   strict=True)})


def _sample_times(rate: int, given: Sequence[float] | None) -> Iterator[float]:
    """The trajectory's sample times, s: those ``given`` (the first after the strike on),
    then infinity; or every 1/``rate`` s from the strike."""
    if given is None:
        return itertools.accumulate(itertools.repeat(1.0 / rate), initial=0.0)
    return itertools.chain((t for t in given if t > 0.0), itertools.repeat(math.inf))


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


def _line_of_centres(a, b, tau: float) -> pymunk.Vec2d:
    """The unit vector from disc a's centre to disc b's ``tau`` s into a step; ``a``,
    ``b``: each disc's centre at the start of the step (mm) and velocity (mm/s)."""
    (pa, va), (pb, vb) = a, b
    return pymunk.Vec2d(pb[0] + vb[0] * tau - pa[0] - va[0] * tau,
                        pb[1] + vb[1] * tau - pa[1] - va[1] * tau).normalized()
