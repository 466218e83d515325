"""The camera referee's resident memory over a long video (issue #26: flat, under 300 MB).

    python benchmarks/referee_memory.py [--shots 40] [--fps 60]

A game of ``--shots`` strokes is simulated, filmed to one MJPG video (as a webcam
recording would be read back), and refereed from the video alone by the same loop
``kangle referee --headless`` runs (kangle.refereecmd.referee), with a game log on disk.
The process's resident memory is read every 300 frames and after every ruling; the
report gives it at the first and last reading, its highest, and its growth per thousand
frames over the second half (a leak shows there, while start-up costs — the camera
tables, the first frames' buffers — show in the first readings). Memory of the filming
itself is released before refereeing starts (it runs in a child process).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
cv2.setNumThreads(1)  # one core, as the per-frame targets are

from calibration.venue import calibrate_board, setup_positions  # noqa: E402
from kangle.filming import film_game  # noqa: E402
from kangle.gamecmd import new_entry  # noqa: E402
from kangle.refereecmd import referee  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.game import lag  # noqa: E402
from rules.gamelog import GameLog  # noqa: E402
from rules.state import initial_state  # noqa: E402
from vision.render import Look, Renderer, random_camera  # noqa: E402

SEED = 26


def resident_bytes() -> int:
    """The process's resident memory now (Linux /proc; elsewhere its peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def strokes(n: int) -> list[tuple[int, float, float]]:
    """``n`` strokes of a club game: either circle, angles across the table, 2–5 m/s."""
    rng = np.random.default_rng(SEED)
    return [(int(rng.integers(0, 2)), float(rng.uniform(45, 135)), float(rng.uniform(2, 5)))
            for _ in range(n)]


def venue():
    board = load_board()
    rng = np.random.default_rng(SEED)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    return board, camera, look


def film(video: str, shots: int, fps: float) -> int:
    """Film the game (in a child process); the number of shots filmed."""
    board, camera, look = venue()
    state, _ = lag(initial_state(board), {"first": "red"})
    return len(film_game(state, strokes(shots), board, camera, look, video, fps))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=40)
    parser.add_argument("--fps", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        video = str(Path(tmp) / "game.avi")
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            filmed = pool.apply(film, (video, args.shots, args.fps))
        board, camera, look = venue()
        setup = Renderer(board).render(camera, setup_positions(board), look).image
        cal = calibrate_board(setup, camera, board)
        log = GameLog.create(Path(tmp) / "game.db", new_entry("Red", "Black", "goma",
                                                              "standard"))
        log.append("lag", {"first": "red"})
        readings: list[tuple[int, int]] = []  # (frame, bytes)
        frames = [0]
        rulings = []

        def on_frame(frame, step, state, cal):
            frames[0] += 1
            if frames[0] % 300 == 0:
                readings.append((frames[0], resident_bytes()))

        def on_ruling(seq, ruling, state, record):
            rulings.append(ruling)
            readings.append((frames[0], resident_bytes()))

        readings.append((0, resident_bytes()))
        start = time.perf_counter()
        referee(cv2.VideoCapture(video), cal, log, args.fps, on_ruling, on_frame)
        took = time.perf_counter() - start
        log.close()
    n = frames[0]
    mb = np.array([b for _, b in readings]) / 1e6
    half = [(f, b / 1e6) for f, b in readings if f >= n / 2]
    slope = (np.polyfit([f for f, _ in half], [b for _, b in half], 1)[0] * 1000
             if len(half) > 2 else float("nan"))
    print(f"{filmed} shots filmed at {args.fps:g} fps: {n} frames ({n / args.fps / 60:.1f} "
          f"minutes of video), refereed in {took:.0f} s; {len(rulings)} rulings")
    print(f"  resident memory: before the first frame {mb[0]:.1f} MB, first reading "
          f"{mb[1]:.1f} MB, last {mb[-1]:.1f} MB, highest {mb.max():.1f} MB  "
          "(target: flat, under 300 MB)")
    print(f"  growth over the second half: {slope:+.2f} MB per 1000 frames")


if __name__ == "__main__":
    main()
