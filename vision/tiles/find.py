"""Finding tiles in a photo: regions that may hold tiles, and the ways to cut them.

1. The pixel network (``segment.PixelNet``) gives every pixel of the working-scale
   image the probability of background, tile face and tile edge.
2. Face cores — pixels clearly more likely face than edge, eroded by a pixel — are
   the regions, one per connected core (specks too small to be one go to their
   neighbour through a watershed over the edge probability). Pixels classed table
   but wholly enclosed by tile pixels count as face: a tile whose outline was found
   though its face looked like the table (pink under warm light, pale on marble).
3. A region may still hold several touching tiles whose seam was too faint to part
   their cores. Each region therefore carries alternative cuts: along a seam — a
   straight line (up to ±12° off the region's sides, for perspective) that runs along
   edge pixels for most of its length (in a region's first cut also along pixels
   likely table: the gap between two rows of tiles can be classed a mix of face and
   table, no edge); at its necks, where the cores of tiles touching
   along part of a side or corner to corner join; both recursively; and into k equal
   parts across its long side, as a row of k tiles side by side would be.
4. ``read`` lets the face classifier choose: the cut whose parts look most like tiles.

Geometry here is in working-scale pixels; ``Region.corners`` converts to the photo's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import cv2
import numpy as np

from vision.tiles.segment import PixelNet, working_image

TILE_ASPECT = 1.42  # long side / short side of a tile's face, from the labelled photos
SEAM_EDGE = 0.2  # edge probability above which a pixel lies on a seam
SEAM_TABLE = 0.4  # table probability above which a pixel lies on a seam, in a first cut
SEAM_FRACTION = 0.5  # share of a cut line that must lie on a seam
CUT_ANGLES = np.deg2rad(np.arange(-12, 13, 3))
NECK_LEVELS = (0.6, 0.8)  # depth shares at which a region's middles are taken for neck cuts
MAX_DEPTH = 8  # seam cuts in a row, at most
MOST_ELONGATED = 3.2  # long / short side of a candidate: a tile seen at a slant, side and all
MAX_ROW = 20  # tiles in one row of touching tiles, at most
CUT_BUDGET = 8000  # parts all the cuts of one photo's regions may make (``Budget``)
SQUARISH = 1.2  # long / short side below which a region is read both ways across
EDGE_BAND = 2.5  # working pixels between a region's border and the tile's outline
AT_BORDER = 7.5  # working pixels: a region this near the photo's border is taken to run past it
NEAR = 4.0  # working pixels: regions this close are neighbours, which may be one tile


class Budget:
    """How many more parts the cuts of one photo's regions may still make. The labelled
    photos need at most about 5,700; a picture of something else (half a photo
    decoded, the rest a grey field: long strips cut every way at every depth) would
    cost minutes of the face network. Cuts beyond the budget are not offered."""

    def __init__(self, parts: int):
        self.left = parts

    def take(self, parts: int) -> bool:
        """Whether ``parts`` more may be made (and if so, they are counted)."""
        if parts > self.left:
            return False
        self.left -= parts
        return True


class Maps(NamedTuple):
    """What the pixel classifier says of the whole photo, working scale (H, W)."""

    edge: np.ndarray  # float32 probability of tile edge
    face: np.ndarray  # bool: face (likelier face than not, or table wholly within a tile)
    table: np.ndarray  # float32 probability of background
    budget: Budget | None = None  # the cuts the photo may still make (None: any)


@dataclass(eq=False)  # a region is itself: readers key verdicts by identity
class Region:
    """Pixels that may be one tile, with the alternative ways to cut them into tiles
    (worked out only when asked for: most regions are plainly one tile)."""

    points: np.ndarray  # (n, 2) float32 x, y of its pixels, working pixels
    maps: Maps  # the photo's pixel classes
    depth: int = 0  # seam or neck cuts made to reach it
    rows: bool = True  # whether it may be cut into a row of tiles
    rect: tuple = field(init=False)  # OpenCV rotated rectangle ((cx, cy), (w, h), degrees)
    face: float = field(init=False)  # share of the rectangle's pixels classed as face

    def __post_init__(self):
        self.rect = cv2.minAreaRect(self.points)
        self.face = _face_share(self.rect, self.maps.face)

    @cached_property
    def cuts(self) -> list[list[Region]]:
        """The alternative ways to cut it: along its strongest seam, at its necks, and
        into rows (as many as the photo's ``Budget`` allows)."""
        ways: list[tuple[list[np.ndarray], int, bool]] = []  # parts, depth, rows
        if self.depth < MAX_DEPTH:
            xy = self.points.astype(int)
            on_seam = self.maps.edge[xy[:, 1], xy[:, 0]] > SEAM_EDGE
            if self.depth == 0:  # the gap between two rows: a mix of face and table
                on_seam |= self.maps.table[xy[:, 1], xy[:, 0]] > SEAM_TABLE
            parts = _seam_cut(self.points, self.rect, on_seam)
            if parts is not None:
                ways.append((parts, self.depth + 1, True))
            ways += [(parts, self.depth + 1, self.rows) for parts in _neck_cuts(self.points)]
        if self.rows:
            ways += [(parts, MAX_DEPTH, False) for parts in _row_cuts(self.points, self.rect)]
        budget = self.maps.budget
        return [[Region(p, self.maps, depth, rows) for p in parts]
                for parts, depth, rows in ways if budget is None or budget.take(len(parts))]

    @property
    def tile_like(self) -> bool:
        (_, _), (a, b), _ = self.rect
        return min(a, b) >= 8 and max(a, b) / min(a, b) <= MOST_ELONGATED and self.face >= 0.35

    @property
    def squarish(self) -> bool:
        """Nearly square: which side is the tile's length is not clear from the shape."""
        (_, _), (a, b), _ = self.rect
        return max(a, b) < SQUARISH * min(a, b)

    def tree(self) -> list[Region]:
        """This region and every part of every alternative cut, depth first."""
        out = [self]
        for cut in self.cuts:
            for part in cut:
                out.extend(part.tree())
        return out

    @property
    def at_border(self) -> bool:
        """Whether the photo's border may cut the tile: its pixels come within AT_BORDER
        of the border. A region stops where the tile's edge begins, and the photo's
        border reads as an edge too, so a face the border cuts ends a few pixels in.
        Judged on the region's own pixels, not on the rectangle round them: a face seen
        at a slant is a parallelogram whose rectangle juts out past its corners."""
        h, w = self.maps.edge.shape
        lo, hi = self.points.min(axis=0), self.points.max(axis=0)
        return bool((lo < AT_BORDER).any() or hi[0] > w - 1 - AT_BORDER
                    or hi[1] > h - 1 - AT_BORDER)

    def corners(self, factor: float) -> np.ndarray:
        """(4, 2) corners in the full-size photo's pixels, the tile's edge included
        (the region itself stops where the edge begins)."""
        return outline(self.rect) / factor


def outline(rect) -> np.ndarray:
    """(4, 2) corners of a tile's outline round a rotated rectangle of its face
    (working pixels): the rectangle grown by the edge band."""
    (cx, cy), (a, b), angle = rect
    return cv2.boxPoints(((cx, cy), (a + 2 * EDGE_BAND, b + 2 * EDGE_BAND), angle))


def pixel_classes(image: np.ndarray, net: PixelNet) -> tuple[np.ndarray, float]:
    """(H, W, 3) probabilities of background, face, edge on the working-scale image,
    and the factor from full-size pixels to working-scale pixels."""
    small, factor = working_image(image)
    return net.probabilities(small), factor


@dataclass(eq=False)
class Merge:
    """Neighbouring regions taken together: one tile that the watershed split (a
    joker's rings or a bold number can hold a seam-like edge)."""

    members: tuple[int, ...]  # indices into the list of regions
    region: Region


def regions(probs: np.ndarray) -> tuple[list[Region], list[Merge]]:
    """The regions of the photo that may hold tiles, each with its alternative cuts;
    and, as merges, every pair of neighbouring regions taken together, and every blob
    of tile pixels (face, ink and edge) that holds several regions taken whole."""
    edge = probs[:, :, 2]
    tile = cv2.morphologyEx((probs[:, :, 0] < 0.5).astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((3, 3), np.uint8))
    holes = _holes(tile)
    tile |= holes
    core = cv2.erode((((probs[:, :, 1] - edge) > 0.3).astype(np.uint8) & tile) | holes,
                     np.ones((3, 3), np.uint8))
    _, markers, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    markers = markers + 1  # 1 is the background seed
    small = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] < 20)
    markers[np.isin(markers, small + 1)] = 0
    markers[tile == 0] = 0
    markers[cv2.dilate(tile, np.ones((5, 5), np.uint8)) == 0] = 1
    grey = (np.clip(edge, 0, 1) * 255).astype(np.uint8)
    labels = cv2.watershed(cv2.merge([grey, grey, grey]), markers.astype(np.int32))
    face = (probs[:, :, 1] > 0.5) | holes.astype(bool)
    pieces = {k: p for k, p in _pixels_by_label(labels, labels > 1).items() if len(p) >= 40}
    maps = Maps(edge, face, probs[:, :, 0], Budget(CUT_BUDGET))
    found = {k: Region(p, maps) for k, p in pieces.items()}
    index = {k: i for i, k in enumerate(found)}
    merges = [Merge((index[a], index[b]), Region(np.concatenate([pieces[a], pieces[b]]), maps,
                                                 MAX_DEPTH, rows=False))
              for a, b in _neighbours(found)]
    # a blob of tile pixels holding several regions, taken whole (less its edge band)
    _, blobs = cv2.connectedComponents(tile, connectivity=8)
    inner = cv2.erode(tile, np.ones((5, 5), np.uint8)).astype(bool)
    members: dict[int, list[int]] = {}
    for k, p in pieces.items():
        members.setdefault(int(blobs[int(p[0, 1]), int(p[0, 0])]), []).append(index[k])
    for b, p in _pixels_by_label(blobs, inner).items():
        if len(members.get(b, ())) >= 2 and len(p) >= 40:
            merges.append(Merge(tuple(members[b]), Region(p, maps, MAX_DEPTH, rows=False)))
    return list(found.values()), merges


def _holes(tile: np.ndarray) -> np.ndarray:
    """(H, W) uint8: pixels classed background but wholly enclosed by tile pixels — the
    face of a tile whose outline was found though its face looked like the table."""
    _, parts, stats, _ = cv2.connectedComponentsWithStats(1 - tile, connectivity=4)
    h, w = tile.shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right = x + stats[:, cv2.CC_STAT_WIDTH]
    bottom = y + stats[:, cv2.CC_STAT_HEIGHT]
    enclosed = (x > 0) & (y > 0) & (right < w) & (bottom < h)  # off the photo's border
    enclosed[0] = False  # label 0: the tile pixels themselves
    return enclosed[parts].astype(np.uint8)


def _pixels_by_label(labels: np.ndarray, where: np.ndarray) -> dict[int, np.ndarray]:
    """The (n, 2) float32 x, y of the pixels of each label, among those ``where``."""
    ys, xs = np.nonzero(where)
    order = np.argsort(labels[ys, xs], kind="stable")
    ys, xs = ys[order], xs[order]
    bounds = np.flatnonzero(np.diff(labels[ys, xs])) + 1
    return {int(labels[py[0], px[0]]): np.stack([px, py], 1).astype(np.float32)
            for py, px in zip(np.split(ys, bounds), np.split(xs, bounds), strict=True)
            if len(py)}


def _neighbours(found: dict[int, Region]) -> list[tuple[int, int]]:
    """Pairs (a < b) of regions whose rectangles, grown by NEAR pixels, overlap."""
    rects = {k: (r.rect[0], (r.rect[1][0] + 2 * NEAR, r.rect[1][1] + 2 * NEAR), r.rect[2])
             for k, r in found.items()}
    keys = sorted(rects)
    return [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]
            if cv2.rotatedRectangleIntersection(rects[a], rects[b])[0]
            != cv2.INTERSECT_NONE]


def _face_share(rect, face: np.ndarray) -> float:
    box = np.round(cv2.boxPoints(rect)).astype(np.int32)
    x0, y0 = np.maximum(box.min(axis=0), 0)
    x1, y1 = box.max(axis=0) + 1
    sub = face[y0:y1, x0:x1]
    if sub.size == 0:
        return 0.0
    mask = np.zeros(sub.shape, np.uint8)
    cv2.fillPoly(mask, [box - (x0, y0)], 1)
    return float(sub[mask > 0].mean()) if mask.any() else 0.0


def axes(rect) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along the rectangle's first and second sides."""
    t = np.deg2rad(rect[2])
    return np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])


def _seam_cut(points: np.ndarray, rect, on_seam: np.ndarray) -> list[np.ndarray] | None:
    """The region's pixels cut in two along its strongest seam, or None. ``on_seam``
    (n,) bool: which of the pixels lie on a seam."""
    (cx, cy), (a, b), _ = rect
    if min(a, b) < 8:
        return None
    ex, ey = axes(rect)
    d = points - (cx, cy)
    u, v = d @ ex, d @ ey
    least = int(np.ceil(max(0.5 * min(a, b) / TILE_ASPECT, 4.0)))  # half a narrow side
    best, cut = SEAM_FRACTION, None
    for along, across in ((u, v), (v, u)):
        for tilt in CUT_ANGLES:
            c = along * np.cos(tilt) + across * np.sin(tilt)
            k = np.round(c - c.min()).astype(int)
            count = np.bincount(k)
            frac = np.bincount(k, weights=on_seam) / np.maximum(count, 1)
            frac[count < 4] = 0
            frac[:least] = 0
            frac[max(0, len(frac) - least):] = 0
            i = int(np.argmax(frac))
            if frac[i] > best:
                best, cut = frac[i], (c, i + c.min())
    if cut is None:
        return None
    c, at = cut
    left, right = points[c < at - 0.5], points[c > at + 0.5]
    return [left, right] if len(left) >= 30 and len(right) >= 30 else None


def _neck_cuts(points: np.ndarray) -> list[list[np.ndarray]]:
    """The region's different neck cuts, one for each of NECK_LEVELS that cuts it in
    a way no lower level already did."""
    out, seen = [], []
    for level in NECK_LEVELS:
        parts = _neck_cut(points, level)
        sizes = None if parts is None else sorted(map(len, parts))
        if sizes is not None and sizes not in seen:
            seen.append(sizes)
            out.append(parts)
    return out


def _neck_cut(points: np.ndarray, level: float) -> list[np.ndarray] | None:
    """The region's pixels cut at its necks, or None: tiles touching where their seam
    fades (or corner to corner) join through a neck narrower than a tile. The region's
    middles — pixels deeper inside it (its ink holes filled) than ``level`` times its
    deepest — fall apart there; every pixel goes to the nearest middle."""
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - 1
    xy = points.astype(int) - (x0, y0)
    w, h = xy.max(axis=0) + 2
    mask = np.zeros((h + 2, w + 2), np.uint8)
    mask[xy[:, 1] + 1, xy[:, 0] + 1] = 1
    cv2.floodFill(mask, None, (0, 0), 2)  # outside: 2, holes stay 0
    inside = (mask != 2).astype(np.uint8)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    middles = (depth > level * depth.max()).astype(np.uint8)
    if cv2.connectedComponents(middles)[0] < 3:  # background and one middle
        return None
    _, nearest = cv2.distanceTransformWithLabels(1 - middles, cv2.DIST_L2, 5,
                                                 labelType=cv2.DIST_LABEL_CCOMP)
    owner = nearest[xy[:, 1] + 1, xy[:, 0] + 1]
    parts = [points[owner == k] for k in np.unique(owner)]
    parts = [p for p in parts if len(p) >= 30]
    return parts if len(parts) >= 2 else None


def _row_cuts(points: np.ndarray, rect) -> list[list[np.ndarray]]:
    """The region cut into k equal parts across its long side, for each k a row of
    touching tiles could have: a tile standing in a row is TILE_ASPECT times taller
    than wide, and a tile's visible side makes it look up to a third longer; a part
    is no more elongated than a tile may look (MOST_ELONGATED), and no row holds more
    than MAX_ROW tiles (a rack's row holds about 15)."""
    (cx, cy), (a, b), _ = rect
    long, short = max(a, b), min(a, b)
    if short < 8:
        return []
    ex, ey = axes(rect)
    along = (points - (cx, cy)) @ (ex if a >= b else ey)
    widest = min(MAX_ROW, max(2, round(TILE_ASPECT * long / short * 1.15)))
    # parts longer than MOST_ELONGATED times their width are no tiles: never judged
    narrowest = max(2, int(np.ceil(long / short / MOST_ELONGATED)))
    out = []
    for k in range(narrowest, widest + 1):
        edges = -long / 2 + long * np.arange(k + 1) / k
        edges[-1] += 1
        parts = [points[(along >= lo) & (along < hi)]
                 for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
        if all(len(p) >= 30 for p in parts):
            out.append(parts)
    return out
