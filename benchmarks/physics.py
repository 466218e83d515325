"""Simulator speed: full-table shots per second on one core, against a naive baseline
and, where it is installed, pooltool.

    python benchmarks/physics.py [--shots N]

The full-table shot: all 32 pieces in their set-up rows, red's striker from SW at
6 m/s into black's row (angles spread over 70°-100°). The naive baseline runs the
same shots in pymunk the way a first attempt would: table friction by a Python
velocity function on every body every step, fixed step 1/960 s (the step a
fixed-step simulation needs to keep overlaps under about 7 mm at 6 m/s), and a
Python loop over the bodies each step to see whether everything is at rest.

pooltool (the billiards simulator ``pooltool-billiards``, event-based: it solves each
pair's next collision in closed form) plays the same break when it can be imported:
the same places and striker velocity on a square pocket table the board's size (a
carrom board's four holes as corner pockets, the side pockets shut), each piece a ball
of the piece's radius whose rolling resistance is the board's sliding friction (a
disc slides to rest; a pool ball would roll on). pooltool gives every ball one radius
and mass, so there the striker is a piece. It solves a different game's physics, so
each simulator's count of what it worked through is printed beside its time.

Every shot is played by each simulator in turn before the next angle (interleaved),
so a slow spell of the machine weighs on all of them alike, and which goes first turns
with each angle; what the imports and the warm-up left is frozen out of the garbage
collector before timing. The ratios are what to compare across machines: the ratio of
the means, and the median of the shot-by-shot ratios, which one slow spell or one shot
a solver labours over moves far less.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import sys
import time
from collections.abc import Callable

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
SPEED = 6.0  # the striker's speed, m/s


def table_with(n: int):
    """The set-up position keeping ``n`` pieces: black's row first, then red's."""
    state, _ = lag(initial_state(BOARD), {"first": "red"})
    keep = set((BLACK_PIECES + RED_PIECES)[:n])
    return state.with_pieces(**{p: Piece(p, POCKETED) for p in RED_PIECES + BLACK_PIECES
                                if p not in keep})


def angles(count: int) -> list[float]:
    return [70 + 30 * k / max(1, count - 1) for k in range(count)]


def starting_places(state) -> dict[str, tuple[float, float]]:
    """Every piece on the table and red's striker in SW, board mm."""
    places = {p: state.pos(p) for p in state.left("red") + state.left("black")}
    places["RS"] = BOARD.circle_centre("SW")
    return places


def ours(state, angle: float, trajectory: bool) -> int:
    """kangle's shot; returns the contacts it recorded."""
    record = simulate(state, Stroke("red", "SW", angle, SPEED), BOARD, PHYSICS,
                      trajectory=trajectory)
    return len(record.contacts)


def naive(state, angle: float) -> int:
    """The first attempt's shot; returns the steps it took."""
    mu_g = PHYSICS.sliding_friction * GRAVITY_MM

    def friction(body, gravity, damping, dt):
        v = body.velocity
        speed = v.length
        body.velocity = v * (max(0.0, speed - mu_g * dt) / speed) if speed > 0 else v

    space = pymunk.Space()
    h = BOARD.half
    for a, b in (((-h, -h), (h, -h)), ((-h, h), (h, h)), ((-h, -h), (-h, h)),
                 ((h, -h), (h, h))):
        seg = pymunk.Segment(space.static_body, a, b, 0)
        seg.elasticity = PHYSICS.cushion_restitution / math.sqrt(PHYSICS.piece_restitution)
        seg.friction = PHYSICS.cushion_friction / math.sqrt(PHYSICS.piece_friction)
        space.add(seg)
    bodies = []
    for piece, pos in starting_places(state).items():
        r, m = BOARD.radius_of(piece), BOARD.mass_of(piece)
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
        body.position = pos
        body.velocity_func = friction
        shape = pymunk.Circle(body, r)
        shape.elasticity = math.sqrt(PHYSICS.piece_restitution)
        shape.friction = math.sqrt(PHYSICS.piece_friction)
        space.add(body, shape)
        bodies.append(body)
    bodies[-1].velocity = (SPEED * 1000 * math.cos(math.radians(angle)),
                           SPEED * 1000 * math.sin(math.radians(angle)))
    steps = 0
    while steps / 960 < PHYSICS.max_duration:
        space.step(1 / 960)
        steps += 1
        if all(b.velocity.length < PHYSICS.rest_speed * 1000 for b in bodies):
            break
    return steps


def pooltool_break():
    """pooltool's play of the same shot, or None where pooltool is not installed."""
    try:
        import pooltool as pt
        from pooltool.objects.table.specs import PocketTableSpecs
    except ImportError:
        return None
    metres = 1 / 1000
    radius = BOARD.piece_radius * metres
    specs = PocketTableSpecs(
        l=2 * BOARD.half * metres, w=2 * BOARD.half * metres,
        cushion_height=0.64 * 2 * radius,  # pool's cushion nose at 64 % of a ball's height
        corner_pocket_width=BOARD.hole_diameter * math.sqrt(2) * metres,
        corner_pocket_radius=BOARD.hole_diameter / 2 * metres,
        corner_pocket_depth=BOARD.hole_inset * metres, corner_jaw_radius=0.005,
        side_pocket_width=0.001, side_pocket_radius=0.001, side_pocket_depth=0.001,
        side_jaw_radius=0.0005)

    def play(state, angle: float) -> int | None:
        """Returns the events pooltool solved, or None where its solver gave up (an
        assertion in its cushion model fails on some of these shots)."""
        balls = {}
        for piece, (x, y) in starting_places(state).items():
            balls[piece] = pt.Ball.create(
                piece, xy=((x + BOARD.half) * metres, (y + BOARD.half) * metres),
                R=radius, m=BOARD.piece_mass / 1000, u_s=PHYSICS.sliding_friction,
                u_r=PHYSICS.sliding_friction, e_b=PHYSICS.piece_restitution,
                e_c=PHYSICS.cushion_restitution, f_c=PHYSICS.cushion_friction)
        a = math.radians(angle)
        balls["RS"].state.rvw[1] = [SPEED * math.cos(a), SPEED * math.sin(a), 0.0]
        balls["RS"].state.s = 2  # sliding
        system = pt.System(table=pt.Table.from_table_specs(specs), balls=balls,
                           cue=pt.Cue(cue_ball_id="RS", V0=0.0))
        try:
            pt.simulate(system, inplace=True)
        except AssertionError:
            return None
        return len(system.events)

    return play


def timed(run: Callable[..., int | None], *args) -> tuple[float, int | None]:
    """Seconds one call of ``run(*args)`` takes, and what it returned."""
    t = time.perf_counter()
    count = run(*args)
    return time.perf_counter() - t, count


def paired(slow: list[float], fast: list[float]) -> float:
    """The median over the shots of one simulator's time over the other's on the same
    shot, played within moments of each other: a slow spell of the machine, or one shot
    a solver labours over (pooltool took 3.6 s over one break of 100 that it played in
    0.2 s otherwise), moves it far less than it moves a ratio of means."""
    return statistics.median(s / f for s, f in zip(slow, fast, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=100, help="shots per figure")
    args = parser.parse_args()
    full = table_with(32)
    players: dict[str, Callable[[float], int]] = {
        "kangle (record only)": lambda angle: ours(full, angle, False),
        "kangle (record + trajectory)": lambda angle: ours(full, angle, True),
        "naive baseline": lambda angle: naive(full, angle),
    }
    pool = pooltool_break()
    if pool is not None:
        players["pooltool"] = lambda angle: pool(full, angle)
    for angle in angles(3):  # warm up (pooltool compiles its solvers on first use)
        for play in players.values():
            play(angle)
    # what the imports and the warm-up left (numba's compiled solvers: about 190,000
    # objects) is set aside from the garbage collector: otherwise a full collection
    # scans it all, 100-200 ms charged at random to whichever simulator's call set it off
    # (each still pays for collecting its own garbage)
    gc.collect()
    gc.freeze()
    times: dict[str, list[float]] = {name: [] for name in players}
    counts: dict[str, list[int]] = {name: [] for name in players}
    failed = 0
    names = list(players)
    for k, angle in enumerate(angles(args.shots)):
        # each in turn goes first: whoever follows another finds the processor's caches
        # full of the other's data (pooltool's the most), and none should always pay it
        turn = names[k % len(names):] + names[:k % len(names)]
        played = {name: timed(players[name], angle) for name in turn}
        if any(count is None for _, count in played.values()):
            failed += 1  # a shot one simulator could not play is left out of every figure
            continue
        for name, (seconds, count) in played.items():
            times[name].append(seconds)
            counts[name].append(count)
    print(f"full-table shot (32 pieces, striker {SPEED:g} m/s), {len(times['naive baseline'])} "
          "shots, one core, interleaved")
    if failed:
        print(f"  ({failed} of {args.shots} shots left out: pooltool's solver gave up on them)")
    what = {"naive baseline": "steps", "pooltool": "events"}
    for name, spent in times.items():
        mean = statistics.fmean(spent)
        print(f"  {name:30s} {1 / mean:8.1f} shots/s   mean {mean * 1000:7.2f} ms   "
              f"median {statistics.median(spent) * 1000:7.2f} ms   "
              f"worst {max(spent) * 1000:7.2f} ms   "
              f"{statistics.fmean(counts[name]):7.1f} {what.get(name, 'contacts')} a shot")
    fast = statistics.fmean(times["kangle (record only)"])
    slow = statistics.fmean(times["kangle (record + trajectory)"])
    for other in ("naive baseline", "pooltool"):
        if other in times:
            base = statistics.fmean(times[other])
            print(f"  ratio {other}/kangle: {base / fast:.1f}x (with trajectory "
                  f"{base / slow:.1f}x); shot by shot, median "
                  f"{paired(times[other], times['kangle (record only)']):.1f}x "
                  f"({paired(times[other], times['kangle (record + trajectory)']):.1f}x)")
    if pool is None:
        print("  pooltool not installed: docs/benchmarks.md says how to install it beside "
              "kangle for this comparison")
    print("time per shot by pieces on the table (record only):")
    for n in (1, 8, 16, 32):
        table = table_with(n)
        spent = [timed(ours, table, angle, False)[0]
                 for angle in angles(max(10, args.shots // 4))]
        print(f"  {n:2d} pieces  {statistics.fmean(spent) * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
