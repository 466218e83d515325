"""Pieces in a crowd: a blob of many touching pieces (carrom's set-up rosette, a pile
after a break) has no narrow neck between its pieces, so the peaks of its distance
transform fall between them. Here such a blob is parted by colour first (each pixel
takes the colour most of its neighbours are nearest to, so a piece's printed or
engraved marks stay its own, and the border between two colours is cut), then every
stretch of outline — the blob's own and the borders between colours — votes for the
centre one piece's radius inwards along its normal (a Hough transform for circles of
the one radius a piece has). A piece shows enough of its outline to be found whether
its neighbours are of its colour or not.

Works on the rectified view (calibration.rectify): pixels, ``radius`` in pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.colour import ColourModel, share_like

# a blob larger than this many pieces is a crowd
CROWD = 2.5
# a centre needs votes from this share of a whole circle's outline
LEAST_ARC = 0.15
# the radii voted at, as shares of a piece's: a piece's blob is its top face, a little
# wider on the side its edge and shadow show
RADII = np.array([0.9, 1.0, 1.1, 1.2])
# no piece's middle lies deeper inside its colour's part than this share of its radius
WIDEST = 1.35
# ... and at least this share of the disc FACE times its radius round it is in the blob
FACE = 0.8
COVERED = 0.9
# in a set with light pieces (carrom's), a crowd, or a piece, is of pieces when at least
# this share of its pixels is like one of the set's colours (colour.share_like; a
# rosette's: 0.90-0.96; an arm laid over the board, 0-0.02, though it may be nearer red
# than anything else). Not asked of 康樂棋's set: measured on carrom only, and a moving
# piece's blur is like no colour its model learnt
PIECES = 0.5
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def crowds(mask: np.ndarray, radius: float) -> tuple[np.ndarray, dict, np.ndarray]:
    """The components of ``mask`` (labels), the pixels (rows, columns) of each that is a
    crowd, by label, and every component's area (pixels)."""
    count, labels = cv2.connectedComponents(mask)
    at = cv2.findNonZero(mask)  # (faster than np.nonzero; the same row-major order)
    if at is None:
        return labels, {}, np.zeros(count, np.int64)
    cols, rows = at.reshape(-1, 2).T
    of = labels[rows, cols]
    areas = np.bincount(of, minlength=count)
    big = np.flatnonzero(areas[1:] > CROWD * np.pi * radius ** 2) + 1
    return labels, {int(i): (rows[of == i], cols[of == i]) for i in big}, areas


def crowd_centres(shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, f,
                  colours: ColourModel, radius: float) -> list[tuple[float, float]]:
    """The centres (column, row) of the pieces in the crowd of pixels (``rows``,
    ``cols``) of an image of ``shape``, strongest first; none where the crowd's pixels
    are mostly like none of a light set's colours (PIECES)."""
    pad = int(radius) + 2
    y0, x0 = max(rows.min() - pad, 0), max(cols.min() - pad, 0)
    y1, x1 = min(rows.max() + pad + 1, shape[0]), min(cols.max() + pad + 1, shape[1])
    near = np.stack(list(colours.distances(f.ratio_at(rows, cols),
                                           f.redness_at(rows, cols)).values()))
    if colours.light_threshold is not None and share_like(near.min(axis=0)) < PIECES:
        return []  # an arm, a sleeve: like none of the set's colours
    rows, cols = rows - y0, cols - x0
    h, w = y1 - y0, x1 - x0
    nearest = np.argmin(near, axis=0)
    votes = []
    for k in range(near.shape[0]):
        of_k = np.zeros((h, w), np.float32)
        of_k[rows[nearest == k], cols[nearest == k]] = 1
        votes.append(cv2.blur(of_k, (5, 5)))
    colour = np.argmax(np.stack(votes), axis=0).astype(np.uint8)
    inside = np.zeros((h, w), np.uint8)
    inside[rows, cols] = 1
    same = (cv2.erode(colour, _CROSS) == colour) & (cv2.dilate(colour, _CROSS) == colour)
    parted = inside & same.astype(np.uint8)
    edge = parted & (1 - cv2.erode(parted, _CROSS))
    smooth = cv2.GaussianBlur(parted.astype(np.float32), (5, 5), 1.2)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    ey, ex = np.nonzero(edge)
    g = np.hypot(gx[ey, ex], gy[ey, ex])
    keep = g > 1e-3
    ey, ex, g = ey[keep], ex[keep], g[keep]
    nx, ny = gx[ey, ex] / g, gy[ey, ex] / g  # inwards: towards the blob
    acc = np.zeros((h, w), np.float32)
    for r in RADII * radius:
        vx = np.clip(np.round(ex + r * nx).astype(int), 0, w - 1)
        vy = np.clip(np.round(ey + r * ny).astype(int), 0, h - 1)
        np.add.at(acc, (vy, vx), 1.0)
    acc = cv2.boxFilter(acc, -1, (5, 5), normalize=False) / len(RADII)  # one circle's votes
    k = int(radius) | 1
    # a centre lies inside its colour's part, no deeper than a piece is wide (a hand's
    # round fingertip, in a blob with the pieces it reaches among, is wider)
    # and its top face is all in the blob (a strip of a hand's edge is narrower)
    depth = cv2.distanceTransform(parted, cv2.DIST_L2, 5)
    face = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(FACE * radius) + 1,) * 2)
    covered = cv2.filter2D(inside.astype(np.float32), -1, face.astype(np.float32) / face.sum())
    peaks = (acc >= LEAST_ARC * 2 * np.pi * radius) & (
        acc >= cv2.dilate(acc, np.ones((k, k), np.uint8))) & (depth > 0) & (
        depth <= WIDEST * radius) & (covered >= COVERED)
    py, px = np.nonzero(peaks)
    order = np.argsort(-acc[py, px], kind="stable")
    return [(float(px[i] + x0), float(py[i] + y0)) for i in order]
