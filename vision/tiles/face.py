"""A tile's face, cut out upright, and what the classifiers read from it.

``patch`` warps the tile's four corners to a PATCH_W × PATCH_H image with the tile's
long side vertical; which end is up is left to the classifier (it sees both). The
ink — the printed number or joker face — is what differs from the ivory face. Colour
is judged against that face: dividing by the face's own colour cancels the light's
colour (warm or cold), so red, orange, blue and black are told apart by the ink's hue
and darkness relative to the tile, not by fixed thresholds.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH_W, PATCH_H = 36, 52  # pixels
HOG_CELL, HOG_BINS = 6, 9  # pixels a side, orientations over 180°


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


def face_colour(p: np.ndarray) -> np.ndarray:
    """The ivory face's BGR colour: the median of the patch's brighter half."""
    flat = p.reshape(-1, 3).astype(np.float32)
    lum = flat.sum(axis=1)
    return np.median(flat[lum >= np.median(lum)], axis=0) + 1.0


def balanced(p: np.ndarray) -> np.ndarray:
    """The patch divided by its face colour (float, the face ≈ 1 in every channel)."""
    return p.astype(np.float32) / face_colour(p)


def number_features(patches: list[np.ndarray]) -> np.ndarray:
    """What the number classifier sees, one row per patch: the HOG of the ink's
    darkness (9 orientations, 6 × 6 px cells, 2 × 2 cell blocks, L2-Hys — the same
    figures as scikit-image's ``hog``, computed for all patches at once) and a coarse
    image of it."""
    ink = np.array([np.clip(1.0 - balanced(p).min(axis=2), 0, 1) for p in patches])
    coarse = [cv2.resize(i, (PATCH_W // 3, PATCH_H // 3), interpolation=cv2.INTER_AREA)
              for i in ink]
    return np.concatenate([_hog(ink), np.array(coarse).reshape(len(ink), -1)],
                          axis=1).astype(np.float32)


def _hog(ink: np.ndarray) -> np.ndarray:
    """Histograms of oriented gradients of (n, H, W) images, (n, features)."""
    x = ink.astype(np.float64)
    n, h, w = x.shape
    g_row, g_col = np.zeros_like(x), np.zeros_like(x)
    g_row[:, 1:-1, :] = x[:, 2:, :] - x[:, :-2, :]
    g_col[:, :, 1:-1] = x[:, :, 2:] - x[:, :, :-2]
    rows, cols = h // HOG_CELL, w // HOG_CELL
    magnitude = np.hypot(g_col, g_row)[:, :rows * HOG_CELL, :cols * HOG_CELL]
    angle = (np.rad2deg(np.arctan2(g_row, g_col)) % 180)[:, :rows * HOG_CELL, :cols * HOG_CELL]
    bins = np.minimum((angle // (180 / HOG_BINS)).astype(int), HOG_BINS - 1)
    cell = ((np.arange(rows * HOG_CELL) // HOG_CELL)[:, None] * cols
            + (np.arange(cols * HOG_CELL) // HOG_CELL)[None, :])
    index = (np.arange(n)[:, None, None] * (rows * cols) + cell) * HOG_BINS + bins
    hist = np.bincount(index.ravel(), weights=magnitude.ravel(),
                       minlength=n * rows * cols * HOG_BINS)
    hist = hist.reshape(n, rows, cols, HOG_BINS) / HOG_CELL ** 2
    blocks = np.stack([np.stack([hist[:, r:r + 2, c:c + 2] for c in range(cols - 1)], 1)
                       for r in range(rows - 1)], 1)  # (n, rows-1, cols-1, 2, 2, bins)
    eps = 1e-5
    axes = (3, 4, 5)
    blocks = blocks / np.sqrt((blocks ** 2).sum(axis=axes, keepdims=True) + eps ** 2)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / np.sqrt((blocks ** 2).sum(axis=axes, keepdims=True) + eps ** 2)
    return blocks.reshape(n, -1)


def colour_features(p: np.ndarray) -> np.ndarray:
    """What the colour classifier sees: the white-balanced colour of the inkiest pixels."""
    b = balanced(p).reshape(-1, 3)
    depth = 1.0 - b.min(axis=1)
    ink = b[depth >= max(np.percentile(depth, 85), 0.15)]
    if len(ink) == 0:
        ink = b
    mean = ink.mean(axis=0)
    spread = ink.std(axis=0)
    lab = cv2.cvtColor(np.clip(mean, 0, 1)[None, None, :].astype(np.float32),
                       cv2.COLOR_BGR2Lab)[0, 0]
    return np.concatenate([mean, spread, lab, [depth.max()]]).astype(np.float32)
