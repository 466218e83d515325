"""Simulator speed: full-table shots per second on one core, against a naive baseline.

    python benchmarks/physics.py [--shots N]

The full-table shot: all 32 pieces in their set-up rows, red's striker from SW at
6 m/s into black's row (angles spread over 70°-100°). The naive baseline runs the
same shots in pymunk the way a first attempt would: table friction by a Python
velocity function on every body every step, fixed step 1/960 s (the step a
fixed-step simulation needs to keep overlaps under about 7 mm at 6 m/s), and a
Python loop over the bodies each step to see whether everything is at rest.
Both are timed in this same run; the ratio is what to compare across machines.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pymunk  # noqa: E402

from physics.profile import PhysicsProfile  # noqa: E402
from physics.simulate import Stroke, simulate  # noqa: E402
from physics.world import GRAVITY_MM  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.game import lag  # noqa: E402
from rules.pieces import BLACK_PIECES, RED_PIECES  # noqa: E402
from rules.state import POCKETED, Piece, initial_state  # noqa: E402

BOARD = load_board()
PHYSICS = PhysicsProfile()


def table_with(n: int):
    """The set-up position keeping ``n`` pieces: black's row first, then red's."""
    state, _ = lag(initial_state(BOARD), {"first": "red"})
    keep = set((BLACK_PIECES + RED_PIECES)[:n])
    return state.with_pieces(**{p: Piece(p, POCKETED) for p in RED_PIECES + BLACK_PIECES
                                if p not in keep})


def angles(count: int) -> list[float]:
    return [70 + 30 * k / max(1, count - 1) for k in range(count)]


def ours(state, count: int, trajectory: bool) -> list[float]:
    times = []
    for angle in angles(count):
        t = time.perf_counter()
        simulate(state, Stroke("red", "SW", angle, 6.0), BOARD, PHYSICS, trajectory=trajectory)
        times.append(time.perf_counter() - t)
    return times


def naive(state, count: int) -> list[float]:
    times = []
    mu_g = PHYSICS.sliding_friction * GRAVITY_MM

    def friction(body, gravity, damping, dt):
        v = body.velocity
        speed = v.length
        body.velocity = v * (max(0.0, speed - mu_g * dt) / speed) if speed > 0 else v

    for angle in angles(count):
        t = time.perf_counter()
        space = pymunk.Space()
        h = BOARD.half
        for a, b in (((-h, -h), (h, -h)), ((-h, h), (h, h)), ((-h, -h), (-h, h)),
                     ((h, -h), (h, h))):
            seg = pymunk.Segment(space.static_body, a, b, 0)
            seg.elasticity = PHYSICS.cushion_restitution / math.sqrt(PHYSICS.piece_restitution)
            seg.friction = PHYSICS.cushion_friction / math.sqrt(PHYSICS.piece_friction)
            space.add(seg)
        bodies = []
        positions = {p: state.pos(p) for p in state.left("red") + state.left("black")}
        positions["RS"] = BOARD.circle_centre("SW")
        for piece, pos in positions.items():
            r, m = BOARD.radius_of(piece), BOARD.mass_of(piece)
            body = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
            body.position = pos
            body.velocity_func = friction
            shape = pymunk.Circle(body, r)
            shape.elasticity = math.sqrt(PHYSICS.piece_restitution)
            shape.friction = math.sqrt(PHYSICS.piece_friction)
            space.add(body, shape)
            bodies.append(body)
        bodies[-1].velocity = (6000 * math.cos(math.radians(angle)),
                               6000 * math.sin(math.radians(angle)))
        elapsed = 0.0
        while elapsed < PHYSICS.max_duration:
            space.step(1 / 960)
            elapsed += 1 / 960
            if all(b.velocity.length < PHYSICS.rest_speed * 1000 for b in bodies):
                break
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=100, help="shots per figure")
    args = parser.parse_args()
    full = table_with(32)
    ours(full, 3, False)  # warm up
    fast = ours(full, args.shots, False)
    with_traj = ours(full, args.shots, True)
    base = naive(full, max(5, args.shots // 10))
    print(f"full-table shot (32 pieces, striker 6 m/s), {args.shots} shots, one core")
    for name, times in (("kangle (record only)", fast), ("kangle (record + trajectory)",
                                                         with_traj), ("naive baseline", base)):
        mean = statistics.fmean(times)
        print(f"  {name:30s} {1 / mean:8.1f} shots/s   mean {mean * 1000:7.2f} ms   "
              f"worst {max(times) * 1000:7.2f} ms")
    print(f"  ratio kangle/naive: {statistics.fmean(base) / statistics.fmean(fast):.1f}x "
          f"(with trajectory {statistics.fmean(base) / statistics.fmean(with_traj):.1f}x)")
    print("time per shot by pieces on the table (record only):")
    for n in (1, 8, 16, 32):
        times = ours(table_with(n), max(10, args.shots // 4), False)
        print(f"  {n:2d} pieces  {statistics.fmean(times) * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
