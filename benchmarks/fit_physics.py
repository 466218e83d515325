"""Physics fitted to filmed shots: how close `kangle fit-physics` comes to the values the
shots were played with, venue after venue.

    python benchmarks/fit_physics.py [--venues 6] [--start 0] [--write-examples DIR]

Each venue draws from its own seed (HELD_OUT + k) a camera, a light, and the five
fitted values of its table — sliding friction 0.10–0.30, piece restitution 0.70–0.95,
piece friction 0.05–0.20, cushion restitution 0.50–0.80, cushion friction 0.10–0.40 —
none of them the test's venue (the camera of seed 4, the values 0.2/0.75/0.05/0.7/0.3).
The five strokes of tests/kit.py's ``fitting_shots`` (two cuts, a near-full hit, two off
the cushions) are played with those values, filmed with motion blur and noise by the
renderer and tracked from the frames alone (the tracker given the table, as `kangle
referee` is); then the standard profile is fitted to the tracked records. Reported per
value: the median and the worst error, the share of venues within 5 %, how many
times the error was more than two of the fit's own standard deviations, and how many
times the fit gave a friction only as a floor ("at least": every contact that shows it
stops slipping) and the true value lay above it; the replays'
RMS distance from what was seen with the standard profile and with the fitted one; the
time to film and track, and to fit. ``--write-examples DIR`` keeps the first venue's
tracked records (the README's example).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from calibration.venue import calibrate_board, setup_positions  # noqa: E402
from physics.fit import VALUES, fit_physics  # noqa: E402
from physics.profile import PhysicsProfile  # noqa: E402
from physics.simulate import simulate  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.jsonfile import write_json  # noqa: E402
from tests.kit import fitting_shots  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.render import Look, Renderer, random_camera  # noqa: E402
from vision.track import ShotTracker  # noqa: E402
from vision.video import film_shot  # noqa: E402

HELD_OUT = 7_300_000
RANGES = {"sliding_friction": (0.10, 0.30), "piece_restitution": (0.70, 0.95),
          "piece_friction": (0.05, 0.20), "cushion_restitution": (0.50, 0.80),
          "cushion_friction": (0.10, 0.40)}


def venue(k: int, board, renderer):
    rng = np.random.default_rng(HELD_OUT + k)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    truth = replace(PhysicsProfile(), trajectory_rate=240,
                    **{name: round(float(rng.uniform(*span)), 3)
                       for name, span in RANGES.items()})
    setup = renderer.render(camera, setup_positions(board), look).image
    return camera, look, calibrate_board(setup, camera, board), truth


def tracked_shots(board, renderer, camera, look, cal, truth):
    records = []
    for state, stroke in fitting_shots():
        record = simulate(state, stroke, board, truth)
        tracker = ShotTracker(state, stroke.shooter, board)
        detector = Detector(cal)
        for t, image in film_shot(renderer, camera, record, 60, look, moments=2):
            tracker.update(t, detector.detect(image, rim_too=tracker.wants_rim))
        records.append(tracker.record())
    return records


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venues", type=int, default=6)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--write-examples", metavar="DIR")
    args = ap.parse_args()
    board = load_board()
    renderer = Renderer(board)
    errors = {name: [] for name, *_ in VALUES}
    beyond = dict.fromkeys(errors, 0)
    floors = {name: [0, 0] for name in errors}  # floors given, of them with the truth above
    before, after, filming, fitting = [], [], [], []
    for k in range(args.start, args.start + args.venues):
        camera, look, cal, truth = venue(k, board, renderer)
        t0 = time.perf_counter()
        records = tracked_shots(board, renderer, camera, look, cal, truth)
        t1 = time.perf_counter()
        fit = fit_physics(records, board, PhysicsProfile())
        t2 = time.perf_counter()
        filming.append(t1 - t0)
        fitting.append(t2 - t1)
        before.append(fit.before_mm)
        after.append(fit.after_mm)
        line = []
        for v in fit.values:
            true = getattr(truth, v.name)
            errors[v.name].append(abs(v.value / true - 1))
            if v.sd is not None and abs(v.value - true) > 2 * v.sd:
                beyond[v.name] += 1
            short = f"{v.name.split('_')[0][0]}{v.name.split('_')[1][0]}"
            if v.at_least is not None:
                floors[v.name][0] += 1
                floors[v.name][1] += true >= v.at_least * 0.995
                line.append(f"{short} ≥{v.at_least:.3f}/{true:.3f}")
            else:
                line.append(f"{short} {v.value:.3f}/{true:.3f}")
        print(f"venue {k}: {'  '.join(line)}  RMS {fit.before_mm:.1f} → {fit.after_mm:.1f} mm  "
              f"{len(fit.free_runs)} free runs  "
              f"({t1 - t0:.0f} s filming and tracking, {t2 - t1:.0f} s fitting)", flush=True)
        if args.write_examples and k == args.start:
            folder = Path(args.write_examples)
            folder.mkdir(parents=True, exist_ok=True)
            for i, record in enumerate(records, 1):
                write_json(folder / f"shot-{i}.json", record.to_json())
    n = args.venues
    print(f"\n{n} venues (seeds {HELD_OUT + args.start}–{HELD_OUT + args.start + n - 1}), "
          "5 filmed shots each, fitted from the standard profile")
    print(f"{'value':<20} {'median error':>12} {'worst':>7} {'within 5 %':>11} "
          f"{'> 2 sd off':>11} {'floors (true above)':>20}")
    for name, errs in errors.items():
        within = sum(e <= 0.05 for e in errs)
        given, above = floors[name]
        print(f"{name:<20} {statistics.median(errs):>11.1%} {max(errs):>7.1%} "
              f"{within:>6}/{n:<4} {beyond[name]:>6}/{n:<4} {given:>13} ({above})")
    print("(a floor: every contact that shows the friction stops slipping, so the fit says "
          "'at least'; its error is that of the profile's value, the start or the floor)")
    print(f"replays' RMS distance from what was seen: standard {statistics.median(before):.1f} "
          f"mm, fitted {statistics.median(after):.1f} mm (medians)")
    print(f"time per venue: filming and tracking {statistics.mean(filming):.0f} s, fitting "
          f"{statistics.mean(fitting):.0f} s (one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
