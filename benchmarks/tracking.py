"""Tracking and the camera referee on rendered videos of simulated shots.

    python benchmarks/tracking.py [--shots 200] [--fps 60]

Shots of varied kinds are drawn at random — breaks into the starting rows, cuts
into scattered pieces, shots off a cushion, shots near the shooter's own pieces, and
(with the fly-off model on) pieces sent over the rim — simulated, filmed with motion
blur and noise by the renderer, and followed by the tracker from the frames alone.
The simulator's own records are the truth. Speed: detection plus tracking per frame,
against detection alone in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from dataclasses import replace

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
cv2.setNumThreads(1)  # the targets are for one core

from calibration.venue import calibrate_board, setup_positions  # noqa: E402
from physics.profile import PhysicsProfile  # noqa: E402
from physics.simulate import Stroke, simulate  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.errors import KangleError  # noqa: E402
from rules.referee import judge  # noqa: E402
from rules.rule_profile import RuleProfile  # noqa: E402
from tests.kit import started  # noqa: E402
from tests.test_simulator import scattered  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.render import Look, Renderer, random_camera  # noqa: E402
from vision.track import ShotTracker  # noqa: E402
from vision.video import film_shot  # noqa: E402

BOARD = load_board()


def random_shot(rng: random.Random):
    kind = rng.choice(["break", "cut", "cushion", "own", "flyoff"])
    physics = replace(PhysicsProfile(), trajectory_rate=240)
    circle = rng.choice(["SW", "SE"])
    if kind == "break":
        state = started("red")
        stroke = Stroke("red", circle, rng.uniform(70, 110), rng.uniform(3, 6))
    else:
        state = scattered(rng, rng.randint(4, 14))
        angle = rng.uniform(20, 160) if kind != "cushion" else rng.choice(
            [rng.uniform(150, 200), rng.uniform(-20, 30)])
        stroke = Stroke("red", circle, angle, rng.uniform(1.5, 5))
        if kind == "flyoff":
            physics = physics.with_fly_off(True, probability=0.6, min_speed=1.5,
                                           seed=rng.randint(0, 999))
    return kind, state, stroke, physics


def _resident_bytes() -> int:
    """The process's resident memory now (Linux /proc; elsewhere its peak so far).
    Not tracemalloc: tracing every allocation would slow the frames being timed."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _calls(calls) -> list[tuple[str, str, frozenset]]:
    """What a call decides — its rule, its kind, the pieces it names — leaving out the
    order the pieces are named in (the order they dropped, which the camera may see
    differently within a frame) and whether the referee is asked to confirm (counted
    apart)."""
    return [(c.rule, c.kind, frozenset(c.pieces)) for c in calls]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=200)
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    nrng = np.random.default_rng(args.seed)
    render = Renderer(BOARD)
    counts = dict(first=0, cushion_first=0, holes=0, calls=0, confirm=0, shots=0)
    final_err, frame_times, detect_times = [], [], []
    memory = []
    detector = camera = look = None
    for k in range(args.shots):
        if k % 10 == 0:  # a new venue every ten shots
            camera, look = random_camera(nrng), Look.random(nrng, occluders=False)
            setup = render.render(camera, setup_positions(BOARD), look).image
            detector = Detector(calibrate_board(setup, camera, BOARD))
        kind, state, stroke, physics = random_shot(rng)
        try:
            truth = simulate(state, stroke, BOARD, physics)
        except KangleError:
            continue
        tracker = ShotTracker(state, "red", BOARD)
        for t, image in film_shot(render, camera, truth, args.fps, replace(look, seed=k)):
            start = time.perf_counter()
            found = detector.detect(image)
            mid = time.perf_counter()
            tracker.update(t, found)
            frame_times.append(time.perf_counter() - start)
            detect_times.append(mid - start)
        try:
            seen = tracker.record()
        except ValueError:
            seen = None
        counts["shots"] += 1
        memory.append(_resident_bytes())
        if seen is None:
            continue
        tf = truth.contacts_of("RS")
        sf = seen.contacts_of("RS")
        t_first = tf[0].other("RS") if tf else None
        s_first = sf[0].other("RS") if sf else None
        counts["first"] += t_first == s_first
        counts["cushion_first"] += (bool(t_first) and t_first.startswith("cushion")) == (
            bool(s_first) and s_first.startswith("cushion"))
        gone_t = {(p.piece, "pocket") for p in truth.pockets} | {(e.piece, e.where)
                                                                 for e in truth.exits}
        gone_s = {(p.piece, "pocket") for p in seen.pockets} | {(e.piece, e.where)
                                                                for e in seen.exits}
        counts["holes"] += gone_t == gone_s
        for piece, (x, y) in truth.final.items():
            if piece in seen.final:
                final_err.append(float(np.hypot(seen.final[piece][0] - x,
                                                 seen.final[piece][1] - y)))
        rules = RuleProfile()
        try:
            said = judge(state, seen, BOARD, rules)[1].calls
            same = _calls(judge(state, truth, BOARD, rules)[1].calls) == _calls(said)
        except KangleError:
            same, said = False, ()
        counts["calls"] += same
        counts["confirm"] += same and any(c.confirm for c in said)
    n = counts["shots"]
    e = np.array(final_err)
    print(f"{n} shots at {args.fps:g} fps (motion blur, noise, random venues)")
    print(f"  striker's first contact right      {counts['first'] / n:.3f}  (target >= 0.98)")
    print(f"  cushion-before-contact right       {counts['cushion_first'] / n:.3f}  "
          "(target >= 0.98)")
    print(f"  holes and off-table events right   {counts['holes'] / n:.3f}  (target >= 0.995)")
    print(f"  final positions: median {np.median(e):.2f} mm, 95th percentile "
          f"{np.percentile(e, 95):.2f} mm  (target within 3 mm)")
    asked = counts["confirm"] / max(counts["calls"], 1)
    print(f"  referee's calls equal to the truth {counts['calls'] / n:.3f}  (target >= 0.97); "
          f"of those, asking the referee to confirm {asked:.3f}")
    per = statistics.median(frame_times)
    print(f"  per frame: detection + tracking {per * 1000:.1f} ms median ({1 / per:.0f} fps), "
          f"detection alone {statistics.median(detect_times) * 1000:.1f} ms")
    print(f"  resident memory after each shot: first {memory[0] / 1e6:.1f} MB, last "
          f"{memory[-1] / 1e6:.1f} MB, highest {max(memory) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
