"""Calibrating from a late-game frame: few pieces left, few of them apart.

    python benchmarks/late_calibration.py [--venues 30] [--board goma|carrom]

Each venue (random camera and light, as benchmarks/detection.py) is calibrated from one
rendered frame of 4-9 pieces, about a third of them touching another (a board late in a
game: of some colour one lone piece, or none), red's side given as a referee would give
it (--red-side). Then three fuller frames of the same venue (8 pieces to the whole set)
are detected with that calibration, and each frame's pieces are counted by colour
against the renderer's truth. Printed: the venues calibrated and refused (with why), and
of the frames detected those whose every colour's count is exact and within one — also
over the colours the calibration looks for (a colour not in its frame, carrom's queen
often, is not looked for, and `kangle calibrate board` says so).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
cv2.setNumThreads(1)

from detection import scatter  # noqa: E402

from calibration.venue import calibrate_board  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.errors import KangleError  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.render import Look, Renderer, part_of, random_camera, set_ids  # noqa: E402

SEED = 10_000  # venue k: np.random.default_rng(SEED + k)
FRAMES = 3  # fuller frames detected per venue


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--venues", type=int, default=30)
    parser.add_argument("--board", default="goma", help="goma (康樂棋) or carrom")
    args = parser.parse_args()
    board = load_board(args.board)
    ids, render = set_ids(board), Renderer(board)
    refused: list[str] = []
    calibrated = frames = exact = within_one = exact_known = unseen = 0
    missed: Counter = Counter()  # colour -> pieces short (or over, negative) in all frames
    for venue in range(args.venues):
        rng = np.random.default_rng(SEED + venue)
        camera, look = random_camera(rng), Look.random(rng, occluders=False)
        late = scatter(rng, board, int(rng.integers(4, 10)), 0.3)
        image = render.render(camera, late, look).image
        try:
            cal = calibrate_board(image, camera, board, red_side=_red_side(camera, board)
                                  if board.design == "goma" else None)
        except KangleError as exc:
            refused.append(str(exc).split(":")[0])
            continue
        calibrated += 1
        known = set(cal.colours.classes)
        unseen += len(set(board.set_colours) - known)
        detector = Detector(cal)
        for _ in range(FRAMES):
            truth = scatter(rng, board, int(rng.integers(8, len(ids) + 1)), 0.25)
            frame = render.render(camera, truth, replace(
                look, noise=float(rng.uniform(0.5, 4)), seed=int(rng.integers(1 << 30))))
            want = Counter(part_of(p)[0] for p in truth if p not in frame.hidden)
            got = Counter(d.colour for d in detector.detect(frame.image, rim_too=False))
            off = {c: want[c] - got[c] for c in set(want) | set(got)}
            missed.update(off)
            frames += 1
            exact += not any(off.values())
            exact_known += not any(off.get(c, 0) for c in known)
            within_one += max(map(abs, off.values()), default=0) <= 1
    print(f"{args.board}: {args.venues} venues calibrated from a late-game frame "
          f"(4-9 pieces, a third touching)")
    print(f"  calibrated             {calibrated}")
    print(f"  refused                {len(refused)}" + (
        f", as: {'; '.join(sorted(set(refused))[:2])}" if refused else ""))
    print(f"  a colour not in the frame, so not looked for: {unseen} of {calibrated} venues")
    if frames:
        print(f"  fuller frames counted  {frames}: every colour exact {exact / frames:.3f}, "
              f"within one {within_one / frames:.3f}; every colour looked for exact "
              f"{exact_known / frames:.3f}")
        print("  pieces missed, by colour (negative: found too many) "
              + ", ".join(f"{c} {n}" for c, n in sorted(missed.items()) if n))


def _red_side(camera, board) -> str:
    """Where red's cushion (y < 0) is in the image, as a referee says it (--red-side)."""
    centre, red = camera.project(np.array([(0.0, 0.0, 0.0), (0.0, -board.half, 0.0)]))
    dx, dy = red - centre
    return ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else (
        "bottom" if dy > 0 else "top")


if __name__ == "__main__":
    main()
