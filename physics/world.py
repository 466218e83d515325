"""A Pymunk space of the 康樂棋 table, built from a board profile and piece positions.

Units inside the space: millimetres, grams, seconds (so forces are g·mm/s²).
Table friction lives inside Chipmunk, not in Python: each body is tied to the static
body by a pivot joint and a gear joint with ``max_bias = 0`` whose ``max_force`` is
the Coulomb friction force μ·m·g (and the matching torque) — Chipmunk's top-down
friction. A sliding piece therefore decelerates at exactly μ·g whatever its speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pymunk

from physics.profile import PhysicsProfile
from rules.board import CORNERS, Board

GRAVITY_MM = 9810.0  # g in mm/s²
PIECE, CUSHION, HOLE = 1, 2, 3  # collision types


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
    _attached: dict[str, tuple] = field(default_factory=dict)

    def add_piece(self, piece: str, pos: tuple[float, float]) -> pymunk.Body:
        r = self.board.radius_of(piece)
        m = self.board.mass_of(piece)
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
        body.position = pos
        shape = pymunk.Circle(body, r)
        shape.collision_type = PIECE
        shape.elasticity = math.sqrt(self.physics.piece_restitution)
        shape.friction = math.sqrt(self.physics.piece_friction)
        static = self.space.static_body
        slide = pymunk.PivotJoint(static, body, (0, 0), (0, 0))
        slide.max_bias = 0
        slide.max_force = self.physics.sliding_friction * m * GRAVITY_MM
        spin = pymunk.GearJoint(static, body, 0.0, 1.0)
        spin.max_bias = 0
        spin.max_force = self.physics.spin_friction * m * GRAVITY_MM * r * 2 / 3
        self.space.add(body, shape, slide, spin)
        self.bodies[piece] = body
        self.piece_of_shape[shape] = piece
        self._attached[piece] = (body, shape, slide, spin)
        return body

    def remove_piece(self, piece: str) -> None:
        """Take a piece out of the space (pocketed or off the table)."""
        parts = self._attached.pop(piece)
        self.space.remove(*parts)
        del self.bodies[piece]
        del self.piece_of_shape[parts[1]]


def build_world(
    board: Board, physics: PhysicsProfile, positions: dict[str, tuple[float, float]]
) -> World:
    """A space with the four cushions and a body for every piece in ``positions`` (mm)."""
    space = pymunk.Space()
    space.collision_slop = 0.05
    space.sleep_time_threshold = 0.05
    space.idle_speed_threshold = physics.rest_speed * 1000
    world = World(space, board, physics)
    h = board.half
    corners = {"S": ((-h, -h), (h, -h)), "N": ((-h, h), (h, h)),
               "W": ((-h, -h), (-h, h)), "E": ((h, -h), (h, h))}
    piece_e = math.sqrt(physics.piece_restitution)
    piece_f = math.sqrt(physics.piece_friction)
    for side, (a, b) in corners.items():
        seg = pymunk.Segment(space.static_body, a, b, 0)
        seg.collision_type = CUSHION
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

