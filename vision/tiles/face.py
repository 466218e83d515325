"""A tile's face, cut out upright, and what the classifiers read from it.

``patch`` warps the tile's four corners to a PATCH_W × PATCH_H image with the tile's
long side vertical; which end is up is left to the face network (it names the way up). The
ink — the printed number or joker face — is what differs from the ivory face. Colour
is judged against that face: dividing by the face's own colour cancels the light's
colour (warm or cold), so red, orange, blue and black are told apart by the ink's hue
and darkness relative to the tile, not by fixed thresholds.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH_W, PATCH_H = 36, 52  # pixels


def tall_order(corners: np.ndarray, turned: bool = False) -> np.ndarray:
    """(4, 2) corners clockwise on screen starting so that the first side is a short
    one (a long one when ``turned``, for a tile so foreshortened that it looks square):
    the order in which ``patch`` maps them to its top-left, top-right, bottom-right and
    bottom-left. ``corners`` go round the tile in either direction."""
    c = np.asarray(corners, np.float32)
    (ax, ay), (bx, by) = c[1] - c[0], c[2] - c[1]
    if ax * by - ay * bx < 0:
        c = c[::-1].copy()
    if np.linalg.norm(c[1] - c[0]) > np.linalg.norm(c[2] - c[1]):
        c = np.roll(c, -1, axis=0)
    return np.roll(c, -1, axis=0) if turned else c


def patch(image: np.ndarray, corners: np.ndarray, turned: bool = False) -> np.ndarray:
    """The tile as a PATCH_H × PATCH_W BGR image, long side vertical (``tall_order``).

    ``corners``: (4, 2) image pixels in order around the tile (either direction).
    """
    c = tall_order(corners, turned)
    target = np.float32([[0, 0], [PATCH_W, 0], [PATCH_W, PATCH_H], [0, PATCH_H]])
    side = max(np.linalg.norm(c[1] - c[0]), 1.0)
    if side > 2 * PATCH_W:  # shrink first so the warp does not alias
        f = 2 * PATCH_W / side
        x0, y0 = np.floor(c.min(axis=0)).astype(int).clip(0)
        x1, y1 = np.ceil(c.max(axis=0)).astype(int) + 1
        crop = image[y0:y1, x0:x1]
        if crop.size == 0:
            return np.zeros((PATCH_H, PATCH_W, 3), np.uint8)
        crop = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        c = ((c - (x0, y0)) * f).astype(np.float32)
        image = crop
    m = cv2.getPerspectiveTransform(c, target)
    return cv2.warpPerspective(image, m, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def face_colours(patches: np.ndarray) -> np.ndarray:
    """(n, 3) BGR colour of each patch's ivory face, from (n, H, W, 3) patches: each
    channel's 75th percentile (the face fills most of a patch; ink, seams and shadow
    are darker), plus one so that it never divides by zero."""
    flat = patches.reshape(len(patches), -1, 3).astype(np.float32)
    return np.percentile(flat, 75, axis=1) + 1.0


def balanced(p: np.ndarray) -> np.ndarray:
    """The patch divided by its face colour (float, the face ≈ 1 in every channel)."""
    return p.astype(np.float32) / face_colours(p[None])[0]


def ink(patches: np.ndarray) -> np.ndarray:
    """What the face classifier sees: (n, H, W, 3) float32 darkness of each channel
    against the patch's own face colour, 0 (face) to 1 (black)."""
    face = face_colours(patches)[:, None, None, :]
    return np.clip(1.0 - patches.astype(np.float32) / face, 0.0, 1.0)
