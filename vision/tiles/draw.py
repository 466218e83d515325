"""A tile photo with what was read drawn over it, for a person to check."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.read import TileReading

INK = {"red": (40, 40, 220), "blue": (200, 110, 20), "black": (40, 40, 40),
       "orange": (0, 140, 255), None: (160, 40, 160)}


def annotate(image: np.ndarray, readings: list[TileReading]) -> np.ndarray:
    """The photo with every tile outlined in its colour and labelled; doubtful tiles
    in magenta with a question mark, cut tiles dashed grey."""
    out = image.copy()
    thick = max(2, round(max(image.shape[:2]) / 500))
    for r in readings:
        pts = np.round(r.corners).astype(np.int32)
        colour = (150, 150, 150) if r.cut else INK[r.tile.colour] if r.sure else (255, 0, 255)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        label = str(r.tile) + ("" if r.sure else "?")  # R7, B13, K1 (black), O5, J
        org = tuple(int(v) for v in pts[0])
        scale = thick * 0.45
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255),
                    thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick,
                    cv2.LINE_AA)
    return out
