"""Which way up a tile lies when its face does not say: from the tiles beside it.

A 6 and a 9 of a set that prints no mark under them, no maker's line and its numbers
in the middle of the face are one drawing turned half round, and the face network
gives both readings alike (so do an 8, or an 11 in a plain sans). Tiles laid side by
side in a row, or standing in a rack, lie the same way up; so such a tile takes the way of the
tiles beside it whose own faces said surely which way they lie. A tile with no such
neighbour (tiles scattered at random) keeps its doubt, and is flagged as unsure.
"""

from __future__ import annotations

import math

import numpy as np

SURE_WAY = 0.95  # a face whose way-up probability is this near 0 or 1 says its way
ROW_PRIOR = 0.9  # chance that a tile lies the way a sure neighbour beside it lies
NEIGHBOURS = 2  # nearest sure neighbours heard
PARALLEL = math.cos(math.radians(10))  # neighbours' lengths at most 10° apart
ACROSS = 3.5  # in its row: a neighbour's centre within this many tile widths across …
ALONG = 0.4  # … and this many tile lengths along the tile's length (in line)


def way_priors(corners: list[np.ndarray], up: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """Weights (n, 2) for each tile's readings the way up it was cut and the other
    way: (1, 1) where the tile's face is sure of its way or no sure tile lies beside it.

    ``corners``: each tile's (4, 2) photo pixels in the order the face network calls
    "up" (top-left, top-right, bottom-right, bottom-left); ``up``: the probability its
    face gives to that way; ``sure``: whether it was read surely as a tile at all.
    """
    n = len(corners)
    weights = np.ones((n, 2))
    if n < 2:
        return weights
    c = np.asarray(corners, np.float64)
    centre = c.mean(axis=1)
    length_vec = (c[:, 0] + c[:, 1] - c[:, 2] - c[:, 3]) / 2  # bottom to top
    length = np.linalg.norm(length_vec, axis=1)
    width = np.linalg.norm(c[:, 1] - c[:, 0], axis=1)
    unit = length_vec / np.maximum(length, 1e-9)[:, None]
    up = np.asarray(up, np.float64)
    says = np.asarray(sure, bool) & ((up >= SURE_WAY) | (up <= 1 - SURE_WAY))
    pointing = np.where((up >= 0.5)[:, None], unit, -unit)  # where a sure tile's top is
    for i in np.flatnonzero(np.abs(up - 0.5) < SURE_WAY - 0.5):  # its face unsure
        d = centre - centre[i]
        along = d @ unit[i]
        across = d @ np.array([-unit[i, 1], unit[i, 0]])
        beside = (says & (np.abs(unit @ unit[i]) >= PARALLEL)
                  & (np.abs(along) <= ALONG * length[i]) & (np.abs(across) <= ACROSS * width[i]))
        beside[i] = False
        for j in sorted(np.flatnonzero(beside), key=lambda j: np.hypot(*d[j]))[:NEIGHBOURS]:
            same = pointing[j] @ unit[i] > 0
            weights[i] *= (ROW_PRIOR, 1 - ROW_PRIOR) if same else (1 - ROW_PRIOR, ROW_PRIOR)
    return weights
