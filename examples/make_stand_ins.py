"""Renders the example files that stand in for the reader's own, so that every command
of the README runs as written (tests/test_readme.py):

- ``chessboard/01.jpg`` … ``08.jpg``: photos of a printed 9×6 chessboard (25 mm
  squares) through a 1280×720 webcam lens with barrel distortion, for
  ``kangle calibrate camera``;
- ``midgame-frame.jpg``: an overhead frame of a game under way, for calibrating a board
  from any frame (``--red-side``);
- ``carrom-photo.jpg``: a phone's photo of a standard carrom board (its lens corrected,
  as phones do), the set-up rosette and the striker;
- ``mid-game.json``: a table state mid-game, for ``kangle suggest``.

    .venv/bin/python examples/make_stand_ins.py

Fixed seeds: running it again writes the same pictures.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from calibration.camera import Camera  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.pieces import STRIKERS  # noqa: E402
from rules.state import ON_TABLE, POCKETED, Piece, initial_state  # noqa: E402
from vision.render import (  # noqa: E402
    Look,
    Renderer,
    carrom_setup,
    random_camera,
    render_chessboard,
)

LENS = (-0.12, 0.03, 0, 0, 0)
JPEG = [cv2.IMWRITE_JPEG_QUALITY, 88]
# pieces of a game under way (board mm): nine lone pieces of each colour and a few pairs
MIDGAME = {
    "R01": (-220.0, -120.0), "R02": (-90.0, -210.0), "R03": (60.0, -160.0),
    "R04": (200.0, -60.0), "R05": (-160.0, 40.0), "R06": (120.0, 90.0),
    "R07": (-40.0, 180.0), "R08": (230.0, 210.0), "R09": (-250.0, 250.0),
    "B01": (-180.0, -240.0), "B02": (10.0, -60.0), "B03": (150.0, -250.0),
    "B04": (260.0, 40.0), "B05": (-60.0, 60.0), "B06": (40.0, 230.0),
    "B07": (-230.0, 150.0), "B08": (180.0, 260.0), "B09": (-120.0, -40.0),
}


def chessboards(folder: Path) -> None:
    rng = np.random.default_rng(0)
    folder.mkdir(exist_ok=True)
    for i in range(8):
        camera = Camera.looking_down(
            size=(1280, 720), fov_deg=68, height_mm=rng.uniform(300, 450),
            tilt_deg=rng.uniform(-25, 25), yaw_deg=rng.uniform(-30, 30),
            shift_mm=(125 + rng.uniform(-120, 120), 87 + rng.uniform(-80, 80)), dist=LENS)
        photo = render_chessboard(camera, (9, 6), 25.0, seed=i)
        cv2.imwrite(str(folder / f"{i + 1:02d}.jpg"), photo, JPEG)


def midgame_frame(path: Path) -> None:
    board = load_board()
    rng = np.random.default_rng(11)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    pieces = dict(MIDGAME, RS=board.circle_centre("SW"))
    cv2.imwrite(str(path), Renderer(board).render(camera, pieces, look).image, JPEG)


def carrom_photo(path: Path) -> None:
    board = load_board("carrom")
    rng = np.random.default_rng(12)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    camera = replace(camera, dist=np.zeros(5))  # a phone corrects its lens itself
    pieces = dict(carrom_setup(board, 20.0, 0.6))
    pieces["white-striker-1"] = (40.0, -board.half + 110.0)
    cv2.imwrite(str(path), Renderer(board).render(camera, pieces, look).image, JPEG)


def mid_game_state(path: Path) -> None:
    """Red to play; the pieces of MIDGAME on the table, the others pocketed."""
    start = initial_state(load_board())
    pieces = {pid: (Piece(pid, ON_TABLE, MIDGAME[pid]) if pid in MIDGAME else
                    replace(p, status=POCKETED, pos=None))
              for pid, p in start.pieces.items() if pid not in STRIKERS.values()}
    state = replace(start.with_pieces(**pieces), phase="play", turn="red", first="red")
    state.check()
    path.write_text(json.dumps(state.to_json(), indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    chessboards(HERE / "chessboard")
    midgame_frame(HERE / "midgame-frame.jpg")
    carrom_photo(HERE / "carrom-photo.jpg")
    mid_game_state(HERE / "mid-game.json")
