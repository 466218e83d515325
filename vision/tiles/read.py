"""Reading a photo of Rummikub tiles: where each tile is, its number, colour or joker.

The steps (each in its own module): ``find`` proposes tile outlines from per-pixel
classes; ``face`` cuts each out upright; the face classifier names the number (or joker,
or "not a tile") from the patch and from the patch turned half round, whose answers
are averaged; the colour classifier names the ink's colour against the tile's own face.
A tile's confidence is the probability of its number times that of its colour. Tiles
that touch the photo's edge are reported as cut and never counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.games.rummitiles import JOKER, Tile
from vision.tiles import find
from vision.tiles.face import colour_features, number_features, patch, tall_order
from vision.tiles.model import COLOURS, FACE_CLASSES, FACES, models

CONFIDENT = 0.9  # below this a reading is flagged for a person to check
DETAIL_SIDE = 2000  # tiles are cut from the photo shrunk to this longer side, pixels
EDGE_MARGIN = 2.5  # working pixels: a tile's face this close to the border is cut


@dataclass(frozen=True)
class TileReading:
    tile: Tile
    confidence: float  # 0..1
    corners: np.ndarray  # (4, 2) photo pixels: top-left, top-right, bottom-right, bottom-left
    cut: bool  # partly outside the photo: reported, not counted

    @property
    def sure(self) -> bool:
        return self.confidence >= CONFIDENT


def _flip_index() -> np.ndarray:
    """For each face class, the class of the same face seen the other way up."""
    swap = {"^": "v", "v": "^"}
    return np.array([FACE_CLASSES.index(c[:-1] + swap[c[-1]]) if c != "none" else i
                     for i, c in enumerate(FACE_CLASSES)])


_FLIP = _flip_index()


@dataclass(frozen=True)
class _Verdict:
    face: np.ndarray  # face-class probabilities, averaged over both ways up
    colour: np.ndarray  # colour probabilities
    turned: bool  # read with its longer side across (face.tall_order)

    @property
    def tile(self) -> float:
        """Probability that the region is one whole tile."""
        return 1.0 - float(self.face[-1])


class _Judge:
    """Classifies regions' patches, once each, from the photo at detail scale."""

    def __init__(self, image: np.ndarray, factor: float):
        _, self.faces, self.colours = models()
        self.detail = min(1.0, DETAIL_SIDE / max(image.shape[:2]))
        self.image = image if self.detail == 1.0 else cv2.resize(
            image, None, fx=self.detail, fy=self.detail, interpolation=cv2.INTER_AREA)
        self.factor = factor

    def judge(self, regions: list[find.Region]) -> list[_Verdict]:
        """A verdict on each region; one that looks nearly square (a tile foreshortened
        along its length) is read both ways across and the likelier tile kept."""
        verdicts = self._judge(regions, False)
        square = [i for i, r in enumerate(regions) if r.squarish]
        for i, v in zip(square, self._judge([regions[i] for i in square], True),
                        strict=True):
            if v.tile > verdicts[i].tile:
                verdicts[i] = v
        return verdicts

    def _judge(self, regions: list[find.Region], turned: bool) -> list[_Verdict]:
        if not regions:
            return []
        patches = [patch(self.image, r.corners(self.factor) * self.detail, turned)
                   for r in regions]
        pf = self.faces.probabilities(number_features(
            patches + [p[::-1, ::-1] for p in patches]))
        n = len(patches)
        faces = (pf[:n] + pf[n:][:, _FLIP]) / 2
        colours = self.colours.probabilities(np.array([colour_features(p) for p in patches]))
        return [_Verdict(f, c, turned) for f, c in zip(faces, colours, strict=True)]


def _best(region: find.Region, verdicts: dict) -> tuple[float, list[find.Region]]:
    """The way of taking the region whole or cut that makes its parts most surely
    tiles: each part scores its probability of being a tile less one half."""
    whole = verdicts[id(region)].tile - 0.5 if region.tile_like else -0.5
    best = (whole, [region])
    for cut in region.cuts:
        parts = [_best(p, verdicts) for p in cut]
        score = sum(s for s, _ in parts)
        if score > best[0]:
            best = (score, [r for _, rs in parts for r in rs])
    return best


def read_tiles(image: np.ndarray) -> list[TileReading]:
    """Every tile found in a BGR photo, in reading order (top to bottom, left to right)."""
    probs, factor = find.pixel_classes(image, models()[0])
    judge = _Judge(image, factor)
    h, w = image.shape[:2]
    out = []
    for region in find.regions(probs):
        nodes = [n for n in region.tree() if n.tile_like]
        verdicts = dict(zip(map(id, nodes), judge.judge(nodes), strict=False))
        _, chosen = _best(region, verdicts)
        for r in chosen:
            if not r.tile_like:
                continue
            reading = _reading(r, verdicts[id(r)], factor, (w, h))
            if reading is not None:
                out.append(reading)
    if out:  # rows about a tile high, each left to right
        height = float(np.median([np.linalg.norm(r.corners[3] - r.corners[0]) for r in out]))
        out.sort(key=lambda r: (round(r.corners[:, 1].mean() / height),
                                r.corners[:, 0].mean()))
    return out


def _reading(region: find.Region, verdict: _Verdict, factor: float, size) -> TileReading | None:
    pf, pc = verdict.face, verdict.colour
    by_face = pf[:-1].reshape(len(FACES), 2).sum(axis=1)
    best = int(np.argmax(by_face))
    if pf[-1] > by_face[best]:
        return None  # more likely not a tile at all
    up = pf[2 * best] >= pf[2 * best + 1]
    if FACES[best] == "J":
        tile, conf = JOKER, by_face[best]
    else:
        colour = int(np.argmax(pc))
        tile, conf = Tile(int(FACES[best]), COLOURS[colour]), by_face[best] * pc[colour]
    corners = _upright_corners(region.corners(factor), up, verdict.turned)
    w, h = size
    face = cv2.boxPoints(region.rect)  # the face alone, working pixels
    fw, fh = w * factor, h * factor
    cut = bool((face.min(axis=0) < EDGE_MARGIN).any()
               or (face[:, 0] > fw - 1 - EDGE_MARGIN).any()
               or (face[:, 1] > fh - 1 - EDGE_MARGIN).any())
    return TileReading(tile, float(conf), corners, cut)


def _upright_corners(corners: np.ndarray, up: bool, turned: bool) -> np.ndarray:
    """The corners in the order the patch was cut (``face.tall_order``), turned half
    round when the tile was read upside down."""
    c = tall_order(corners, turned).astype(np.float64)
    return c if up else np.roll(c, 2, axis=0)
