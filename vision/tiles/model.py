"""The tile reader's classes and its shipped models (``vision/tiles/models/``).

The face network names a tile's number (``1``…``13``) or ``J`` for a joker,
together with which way up it was seen (``^`` upright, ``v`` upside down) — so a 6
and an upside-down 9 are different classes — or ``none`` for a candidate that is not
a tile; the same network's second head names the ink's colour, one of the four.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2

from rules.errors import KangleError
from rules.games.rummitiles import COLOURS, Tile
from vision.tiles.cnn import ConvNet
from vision.tiles.segment import PixelNet

MODELS = Path(__file__).parent / "models"
FACES = [str(n) for n in range(1, 14)] + ["J"]
FACE_CLASSES = tuple(f"{f}{w}" for f in FACES for w in "^v") + ("none",)
__all__ = ["COLOURS", "FACE_CLASSES", "MODELS", "face_class", "models"]


def face_class(tile: Tile | None, up: bool) -> str:
    """The face class of a tile seen upright (``up``) or upside down; None → none."""
    if tile is None:
        return "none"
    return ("J" if tile.joker else str(tile.number)) + ("^" if up else "v")


@cache
def models(folder: Path = MODELS) -> tuple[PixelNet, ConvNet]:
    """The pixel network (``pixels.onnx``) and the face network (``faces.npz``), loaded
    once."""
    try:
        return PixelNet(folder / "pixels.onnx"), ConvNet.load(folder / "faces.npz")
    except (OSError, cv2.error) as e:
        raise KangleError(f"the tile reader's models are missing from {folder} ({e}); "
                          "train them with: python -m vision.tiles.train_segment DATA --out "
                          "FOLDER (the pixel network), then python -m vision.tiles.train "
                          "DATA (the face network)") from e
