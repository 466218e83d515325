"""The second half of `kangle demo`: a simulated game filmed to video and refereed from the
video alone, its calls printed beside what really happened."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.venue import calibrate_board, setup_positions
from kangle.filming import film_game
from kangle.present import ruling_lines
from kangle.refereecmd import referee
from rules.board import load_board
from rules.game import lag
from rules.gamelog import GameLog
from rules.ruling import CHECK
from rules.state import initial_state
from vision.render import Look, Renderer, random_camera

# (which circle, angle as seen from red's side, speed m/s)
STROKES = [(0, 80.0, 4.5), (1, 70.0, 3.0), (0, 100.0, 3.5)]


def video_demo(new_entry, keep: Path | None = None) -> None:
    """``keep``: a folder to write the film (game.avi) and the set-up frame (setup.jpg)
    into, for the reader to referee themselves; by default both are thrown away."""
    board = load_board()
    rng = np.random.default_rng(4)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    print("Part 2 — the camera referee")
    print("  calibrating from a rendered frame of the set-up position ...", flush=True)
    setup = Renderer(board).render(camera, setup_positions(board), look).image
    cal = calibrate_board(setup, camera, board)
    print(f"  board found (residual {cal.residual_mm:.2f} mm); filming {len(STROKES)} "
          "simulated shots at 60 fps with motion blur ...", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(keep / "setup.jpg"), setup)
        video = (keep or Path(tmp)) / "game.avi"
        state, _ = lag(initial_state(board), {"first": "red"})
        truth = film_game(state, STROKES, board, camera, look, video)
        log = GameLog.create(Path(tmp) / "game.db", new_entry("Red", "Black", "goma",
                                                              "standard"))
        log.append("lag", {"first": "red"})
        seen = []
        start = time.perf_counter()
        referee(cv2.VideoCapture(str(video)), cal, log, 60.0,
                lambda seq, ruling, state, record: seen.append(ruling))
        took = time.perf_counter() - start
        log.close()
    rulings = [r for r in seen if not isinstance(r, str)]
    print(f"  refereed the video in {took:.1f} s; calls from the camera beside the truth:\n")
    agree = asked = 0
    for k, shot in enumerate(truth):
        got = rulings[k] if k < len(rulings) else None
        true_calls = [f"{c.rule} {c.kind}" for c in shot.ruling.calls]
        cam_calls = [f"{c.rule} {c.kind}" for c in got.calls] if got else ["(no shot seen)"]
        same = got is not None and _decided(got.calls) == _decided(shot.ruling.calls)
        agree += same
        asked += got is not None and any(c.kind == CHECK or c.confirm for c in got.calls)
        print(f"  shot {k + 1} ({shot.record.shooter} from {shot.record.circle}):")
        print(f"    truth : {'; '.join(true_calls) or 'no call'}")
        print(f"    camera: {'; '.join(cam_calls) or 'no call'}"
              f"   {'= same' if same else '!= differs'}")
        if got is not None:  # what the referee reads on screen for the camera's calls
            print("\n".join("      " + line for line in ruling_lines(got, "")[1:]))
    print(f"\n  {agree} of {len(truth)} shots called as the simulator's own records"
          + (f"; on {asked} the camera asked the referee to look again" if asked else "")
          + ".")


def _decided(calls) -> list[tuple[str, str]]:
    """What the calls decide, rule and kind in order: a CHECK is the camera asking the
    referee to look at something no call rests on, a question rather than a call, so it
    is left out (as benchmarks/tracking.py counts calls)."""
    return [(c.rule, c.kind) for c in calls if c.kind != CHECK]
