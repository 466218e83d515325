"""A Pymunk space of the 康樂棋 table, built from a board profile and piece positions.

Units inside the space: millimetres, grams, seconds (so forces are g·mm/s²).
Table friction lives inside Chipmunk, not in Python: each body is tied to the static
body by a pivot joint and a gear joint with ``max_bias = 0`` whose ``max_force`` is
the Coulomb friction force μ·m·g (and the matching torque) — Chipmunk's top-down
friction. A sliding piece therefore decelerates at exactly μ·g whatever its speed.

Chipmunk sees a contact only where two shapes overlap at the end of a step, so two
discs whose paths overlap for less than a step's travel (a graze) would pass through
each other unseen. Each piece therefore carries a sensor reaching ``step_len`` (one
step's longest travel) beyond it; Chipmunk keeps the pairs whose sensors overlap —
the only pairs that can meet within the next step — and ``next_step`` shortens a
step to the deepest moment of any graze among them, worked out in closed form
(rules/impact.py), so that the step ends with the two discs overlapping. Between
contacts only friction acts, which never speeds a body up, so each reading of the bodies
bounds the time before which no near pair can touch (``settle``); until then, and while
nothing touches, the pairs are not looked at (the same steps, about three in five fewer
looks in a break).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pymunk
import pymunk.batch as batch

from physics.profile import PhysicsProfile
from rules.board import CORNERS, Board
from rules.impact import overlap

GRAVITY_MM = 9810.0  # g in mm/s²
PIECE, CUSHION, HOLE, NEAR = 1, 2, 3, 4  # collision types (NEAR: the proximity sensors)
# the proximity sensors meet only each other, so Chipmunk never pairs them with a piece,
# a cushion or a hole (the filters reject those pairs before any test)
TABLE = pymunk.ShapeFilter(categories=0b01, mask=0b01)
SENSORS = pymunk.ShapeFilter(categories=0b10, mask=0b10)
_STILL = (0.0, 0.0)  # mm/s: a body at rest
_FIELDS = batch.BodyFields.BODY_ID | batch.BodyFields.POSITION | batch.BodyFields.VELOCITY
_SLACK = 1e-3  # mm taken off every gap in ``settle``: rounding never makes a bound late


class _SetDirectly:
    """pymunk's objects inherit a ``__setattr__`` (its TypingAttrMixing, a help for
    mypy) that only hands each attribute to ``object.__setattr__``, in Python: building
    a piece's body, two shapes and two joints sets about 36 attributes, and the detour
    was a sixth of building a table. The pieces' objects set theirs directly."""

    __setattr__ = object.__setattr__


class _Body(_SetDirectly, pymunk.Body):
    pass


class _Circle(_SetDirectly, pymunk.Circle):
    pass


class _PivotJoint(_SetDirectly, pymunk.PivotJoint):
    pass


class _GearJoint(_SetDirectly, pymunk.GearJoint):
    pass


@dataclass
class World:
    """The space and the bookkeeping that maps Pymunk objects to piece ids."""

    space: pymunk.Space
    board: Board
    physics: PhysicsProfile
    bodies: dict[str, pymunk.Body] = field(default_factory=dict)
    piece_of_shape: dict[pymunk.Shape, str] = field(default_factory=dict)
    cushion_of_shape: dict[pymunk.Shape, str] = field(default_factory=dict)
    hole_of_shape: dict[pymunk.Shape, str] = field(default_factory=dict)
    step_len: float = 0.0  # mm: a piece's longest travel in one step, and how far its
    # proximity sensor reaches beyond it (see PhysicsProfile.max_step_fraction)
    # the pieces whose sensors overlap each body's, with the sum of the two radii
    near: dict[pymunk.Body, dict[pymunk.Body, float]] = field(default_factory=dict)
    _attached: dict[str, tuple] = field(default_factory=dict)
    # each proximity sensor's body and the radius of the piece it surrounds (mm), read in
    # the sensors' callbacks without going through pymunk's properties
    _sensed: dict[pymunk.Shape, tuple[pymunk.Body, float]] = field(default_factory=dict)
    # s: before this time no moving body can touch another piece (``settle``); minus
    # infinity once something may have changed a velocity since (``stir``)
    clear_until: float = -math.inf
    # the rows of the last ``read``: each row's body, and each body's row
    awake: list[pymunk.Body | None] = field(default_factory=list)
    row_of: dict[pymunk.Body, int] = field(default_factory=dict)
    _by_id: dict[int, pymunk.Body] = field(default_factory=dict)
    _buffer: batch.Buffer = field(default_factory=batch.Buffer)
    _rows: bytes = b""

    def add_piece(self, piece: str, pos: tuple[float, float]) -> pymunk.Body:
        r = self.board.radius_of(piece)
        m = self.board.mass_of(piece)
        body = _Body(m, pymunk.moment_for_circle(m, 0, r))
        body.position = pos
        shape = _Circle(body, r)
        shape.collision_type = PIECE
        shape.filter = TABLE
        shape.elasticity = math.sqrt(self.physics.piece_restitution)
        shape.friction = math.sqrt(self.physics.piece_friction)
        static = self.space.static_body
        slide = _PivotJoint(static, body, (0, 0), (0, 0))
        slide.max_bias = 0
        slide.max_force = self.physics.sliding_friction * m * GRAVITY_MM
        spin = _GearJoint(static, body, 0.0, 1.0)
        spin.max_bias = 0
        spin.max_force = self.physics.spin_friction * m * GRAVITY_MM * r * 2 / 3
        sensor = _Circle(body, r + self.step_len)
        sensor.sensor = True
        sensor.collision_type = NEAR
        sensor.filter = SENSORS
        self.space.add(body, shape, slide, spin, sensor)
        self.bodies[piece] = body
        self.piece_of_shape[shape] = piece
        self._attached[piece] = (body, shape, slide, spin, sensor)
        self._sensed[sensor] = (body, r)
        self._by_id[body.id] = body
        return body

    def remove_piece(self, piece: str) -> None:
        """Take a piece out of the space (pocketed or off the table)."""
        parts = self._attached.pop(piece)
        self.space.remove(*parts)
        del self.bodies[piece]
        del self.piece_of_shape[parts[1]]
        del self._sensed[parts[4]]
        del self._by_id[parts[0].id]
        for other in self.near.pop(parts[0], {}):
            self.near[other].pop(parts[0], None)

    def read(self) -> list[float]:
        """Every awake body's x, y (mm), vx, vy (mm/s), four to a row, in one batch call;
        ``awake`` holds each row's body and ``row_of`` each body's row (sleeping bodies are
        left out, so the rows change as bodies fall asleep and wake). Plain lists, not
        arrays: a table holds a few dozen bodies, and this runs at many steps, where
        numpy's cost per call outweighed its speed per element."""
        buffer = self._buffer
        buffer.clear()
        batch.get_space_bodies(self.space, _FIELDS, buffer)
        ids = bytes(buffer.int_buf())
        if ids != self._rows:
            self.awake = [self._by_id.get(i) for i in memoryview(ids).cast("Q").tolist()]
            self.row_of = {body: k for k, body in enumerate(self.awake) if body is not None}
            self._rows = ids
        return memoryview(buffer.float_buf()).cast("d").tolist()

    def motion(self, body: pymunk.Body, now: list[float]):
        """A body's position (mm) and velocity (mm/s) in the reading ``now``; a sleeping
        body's, which has no row, from pymunk."""
        k = self.row_of.get(body)
        if k is None:
            return body.position, body.velocity
        k *= 4
        return now[k:k + 2], now[k + 2:k + 4]

    def next_step(self, dt: float, moving: set[pymunk.Body] | None = None,
                  at: float | None = None, now: list[float] | None = None) -> float:
        """The step to take instead of ``dt`` s: shortened to the deepest moment of the
        earliest graze it would otherwise step over. Each body moves in a straight line
        at its present velocity within a step (Chipmunk moves positions before it solves
        velocities); ``dt`` must move no body more than ``step_len``. ``moving``: the
        bodies that may be moving (every body if not given); the rest stand still.
        ``at``: the time of the step's start (s), for the bound ``settle`` noted; with
        none, every pair is looked at. ``now``: the bodies as ``read`` since the last
        step, if they were."""
        if at is not None and at + dt < self.clear_until:
            return dt  # no pair can touch within the step
        if moving is None:
            moving = {b for b in self.bodies.values() if b.velocity != (0, 0)}
        near = self.near
        pairs = [(a, around) for a in moving if (around := near.get(a))]
        if not pairs:
            return dt
        if now is None:
            now = self.read()  # (one batch call: a pack's pairs read dozens of bodies)
        motion = self.motion
        for a, around in pairs:
            pa, va = motion(a, now)
            for b, reach in around.items():
                if b in moving:
                    if id(b) < id(a):
                        continue  # the pair is looked at once, from its other body
                    pb, vb = motion(b, now)
                else:
                    pb, vb = motion(b, now)[0], _STILL
                window = overlap(pa, va, pb, vb, reach)
                if window is not None and window[0] > 0.0 and window[1] < dt:
                    dt = (window[0] + window[1]) / 2
        return dt

    def settle(self, t: float, moving: set[pymunk.Body], now: list[float]) -> None:
        """Note the earliest time (s) at which a moving body could touch a piece near it,
        from ``now``, the bodies as ``read`` at ``t``, and this: while nothing touches,
        only friction acts, which slows a body and never turns it, so two bodies close
        on each other no faster than the sum of their present speeds. A moving body
        touching a piece or a cushion now (whose overlap Chipmunk is about to push out,
        faster than the body moves) leaves no time clear; a touch or a new near pair
        since the reading ends it (``stir``)."""
        self.clear_until = self._soonest_touch(t, moving, now)

    def _soonest_touch(self, t: float, moving: set[pymunk.Body], now: list[float]) -> float:
        soonest = math.inf
        inside = self.board.half - max(self.board.piece_radius, self.board.striker_radius)
        for a in moving:
            (ax, ay), va = self.motion(a, now)
            if abs(ax) >= inside or abs(ay) >= inside:
                return -math.inf  # (on or near a cushion)
            around = self.near.get(a)
            if not around:
                continue
            sa = math.hypot(*va)
            for b, reach in around.items():
                (bx, by), vb = self.motion(b, now)
                gap = math.hypot(bx - ax, by - ay) - reach - _SLACK
                if gap <= 0.0:
                    return -math.inf
                soonest = min(soonest, t + gap / (sa + math.hypot(*vb)))
        return soonest

    def stir(self) -> None:
        """Something may have changed a velocity: ``settle``'s bound is void."""
        self.clear_until = -math.inf

    def _near_begin(self, arbiter: pymunk.Arbiter, space, data) -> None:
        self.stir()  # (a pair the bound did not look at)
        sa, sb = arbiter.shapes
        (a, ra), (b, rb) = self._sensed[sa], self._sensed[sb]
        reach = ra + rb
        self.near.setdefault(a, {})[b] = reach
        self.near.setdefault(b, {})[a] = reach

    def _near_end(self, arbiter: pymunk.Arbiter, space, data) -> None:
        sa, sb = arbiter.shapes
        sensed = self._sensed
        if sa in sensed and sb in sensed:  # (not a sensor taken out with its piece)
            (a, _), (b, _) = sensed[sa], sensed[sb]
            self.near.get(a, {}).pop(b, None)
            self.near.get(b, {}).pop(a, None)


def build_world(
    board: Board, physics: PhysicsProfile, positions: dict[str, tuple[float, float]]
) -> World:
    """A space with the four cushions and a body for every piece in ``positions`` (mm)."""
    space = pymunk.Space()
    space.collision_slop = 0.05
    # of two shapes' overlap, the share left after a second: about 7 % of it pushed out
    # in a 2 ms step (Chipmunk's default, 10 % in a 1/60 s frame, 1.3 % in such a step,
    # left a pack's pieces, a step's travel into each other at a break, falling asleep
    # up to 1.7 mm in; now at most 0.12 mm in 400 held-out shots of benchmarks/tracking.py)
    space.collision_bias = 1e-16
    space.sleep_time_threshold = 0.05
    space.idle_speed_threshold = physics.rest_speed * 1000
    world = World(space, board, physics, step_len=physics.max_step_fraction * min(
        board.piece_radius, board.striker_radius))
    space.on_collision(NEAR, NEAR, begin=world._near_begin, separate=world._near_end)
    h = board.half
    corners = {"S": ((-h, -h), (h, -h)), "N": ((-h, h), (h, h)),
               "W": ((-h, -h), (-h, h)), "E": ((h, -h), (h, h))}
    piece_e = math.sqrt(physics.piece_restitution)
    piece_f = math.sqrt(physics.piece_friction)
    for side, (a, b) in corners.items():
        seg = pymunk.Segment(space.static_body, a, b, 0)
        seg.collision_type = CUSHION
        seg.filter = TABLE
        seg.elasticity = physics.cushion_restitution / piece_e
        seg.friction = physics.cushion_friction / piece_f if piece_f else 0.0
        space.add(seg)
        world.cushion_of_shape[seg] = side
    for corner in CORNERS:
        # a sensor over each hole: Chipmunk tells us which pieces are over a hole, so
        # only those are checked in Python
        hole = pymunk.Circle(space.static_body, board.hole_diameter / 2,
                             board.hole_centre(corner))
        hole.sensor = True
        hole.collision_type = HOLE
        hole.filter = TABLE
        space.add(hole)
        world.hole_of_shape[hole] = corner
    for piece, pos in sorted(positions.items()):
        world.add_piece(piece, pos)
    return world


def spread_stack(
    positions: dict[str, tuple[float, float]], stack: tuple[str, ...], board: Board
) -> dict[str, tuple[float, float]]:
    """小回 are stacked at the centre (9.2), which two dimensions cannot hold: keep the
    bottom one at the centre and set each further one at the nearest free spot."""
    out = {p: xy for p, xy in positions.items() if p not in stack}
    for piece in stack:
        out[piece] = nearest_free_spot((0.0, 0.0), piece, out, board)
    return out


def nearest_free_spot(
    target: tuple[float, float], piece: str, placed: dict[str, tuple[float, float]],
    board: Board,
) -> tuple[float, float]:
    """The free point nearest ``target`` (searched on rings 1 mm apart) where ``piece``
    touches nothing already ``placed``."""
    r = board.radius_of(piece)

    def free(x: float, y: float) -> bool:
        return all(math.hypot(x - px, y - py) >= r + board.radius_of(q) + 0.5
                   for q, (px, py) in placed.items())

    if free(*target):
        return target
    for ring in range(1, int(board.half)):
        steps = max(8, int(2 * math.pi * ring))
        for k in range(steps):
            a = 2 * math.pi * k / steps + math.pi / 2
            x, y = target[0] + ring * math.cos(a), target[1] + ring * math.sin(a)
            if abs(x) < board.half - r and abs(y) < board.half - r and free(x, y):
                return (round(x, 3), round(y, 3))
    return target

