"""Reading a photo of Rummikub tiles: where each tile is, its number, colour or joker.

The steps (each in its own module): ``find`` proposes tile outlines from per-pixel
classes; ``face`` cuts each out upright; the face network (a small convolutional
network, ``cnn``) names the number (or joker, or "not a tile") and which way up it
is, and the ink's colour, from the ink measured against the tile's own face.
A tile's confidence is the probability of its number times that of its colour. Tiles
that touch the photo's edge are reported as cut and never counted. Last, tiles are
placed where the finder's regions read none (``_anchored``: a part of a tile, a block
of tiles no cut parted, a lone number) and beside tiles read surely (``_beside``: a
tile whose face the finder took for the table is often one of a row whose other
tiles it found), and kept where the face network reads them surely.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from rules.games.rummitiles import JOKER, Tile
from vision.tiles import find
from vision.tiles.cnn import ConvNet
from vision.tiles.face import ink, patch, tall_order
from vision.tiles.model import COLOURS, FACES, MODELS, models
from vision.tiles.quads import covered
from vision.tiles.ways import way_priors

CONFIDENT = 0.9  # below this a reading is flagged for a person to check
DETAIL_SIDE = 2000  # tiles are cut from the photo shrunk to this longer side, pixels
TURN_AREA = 0.7  # a wide region read across is within this factor of a tile's area
SURELY_ONE = 0.98  # a region whole at least this surely one tile is not cut further
DUPLICATE = 0.5  # share of a reading's outline on a surer reading's that makes it a copy
BESIDE_EDGE = 0.3  # share of a place beside a tile whose outline must show, to be judged
OUTLINE_EDGE = 0.3  # edge probability above which a pixel shows an outline
BESIDE_GAP = 0.1  # gap tried between a tile and its neighbour, in its side's length
BESIDE_ROUNDS = 3  # times new tiles found beside others propose their own neighbours
MERGED_SIZE = 1.6  # two regions merged are at most this many times a sure tile's area
BORDER = 10  # working pixels: the region of a tile the photo's border cuts ends this near
BLOCK = 2.0  # a region the photo's border cuts is a block of tiles if this many tiles large
INK_OFFSET = 0.15  # a number's centre from its tile's, in the tile's length
NOTHING = 0.25  # what a part of a cut that reads no tile costs the cut (``_best``)
# a region chosen as a tile whose face the network reads as no tile is still one when
# the pixel network calls this much of it face, it is as large as the photo's sure tiles
# within this factor either way, and no reading covers more than UNREAD_APART of it (or
# it of one): a tile of a design the network never saw (``_unread``), flagged
UNREAD_FACE = 0.75
UNREAD_SIZE = 1.33
UNREAD_APART = 0.1


@dataclass(frozen=True)
class TileReading:
    tile: Tile
    confidence: float  # 0..1
    corners: np.ndarray  # (4, 2) photo pixels: top-left, top-right, bottom-right, bottom-left
    cut: bool  # partly outside the photo: reported, not counted

    @property
    def sure(self) -> bool:
        return self.confidence >= CONFIDENT


@dataclass(frozen=True)
class _Verdict:
    face: np.ndarray  # face-class probabilities
    colour: np.ndarray  # colour probabilities
    turned: bool  # read with its longer side across (face.tall_order)

    @property
    def tile(self) -> float:
        """Probability that the region is one whole tile."""
        return 1.0 - float(self.face[-1])


class _Judge:
    """Classifies regions' patches, once each, from the photo at detail scale."""

    def __init__(self, image: np.ndarray, factor: float, net: ConvNet):
        self.net = net
        self.detail = min(1.0, DETAIL_SIDE / max(image.shape[:2]))
        self.image = image if self.detail == 1.0 else cv2.resize(
            image, None, fx=self.detail, fy=self.detail, interpolation=cv2.INTER_AREA)
        self.factor = factor
        # working pixels²: the least and most area of a wide region read across
        # (``size_tiles``); none until the photo's regions have been read once
        self.turn_sizes = (math.inf, math.inf)

    def judge(self, regions: list[find.Region]) -> list[_Verdict]:
        """A verdict on each region; one that may be a tile foreshortened along its
        length is read both ways across and the likelier tile kept (``turnable``)."""
        verdicts = dict(zip(map(id, regions), self._judge(regions, False), strict=True))
        self.turn_into(verdicts, [r for r in regions if self.turnable(r)])
        return [verdicts[id(r)] for r in regions]

    def turn_into(self, verdicts: dict, regions: list[find.Region]) -> None:
        """Read the regions across as well, keeping in ``verdicts`` (by region
        identity, changed in place) whichever way reads the likelier tile."""
        for r, v in zip(regions, self._judge(regions, True), strict=True):
            if v.tile > verdicts[id(r)].tile:
                verdicts[id(r)] = v

    def turnable(self, region: find.Region) -> bool:
        """Whether the region may be a tile whose length is its shorter side as seen:
        a nearly square one always; a wider one (a tile standing in a rack, seen from
        the front) if its area is within ``turn_sizes``."""
        if region.squarish:
            return True
        (_, _), (a, b), _ = region.rect
        least, most = self.turn_sizes
        return least <= a * b <= most

    def size_tiles(self, confident: list[find.Region]) -> None:
        """Set ``turn_sizes`` from the regions read confidently as tiles: at least
        TURN_AREA of their median area (a tile's ring or number, squat and smaller, read
        across would pass for a whole tile), and at most 1 / TURN_AREA of the median of
        those whose way across was plain from their shape (two touching tiles read
        across would pass for one: a confident nearly square region may be a tile's
        ring, which says nothing of how large tiles are). Any size where none was."""
        def median(regions):
            return float(np.median([r.rect[1][0] * r.rect[1][1] for r in regions]))
        plain = [r for r in confident if not r.squarish]
        self.turn_sizes = (TURN_AREA * median(confident) if confident else 0.0,
                           median(plain) / TURN_AREA if plain else math.inf)

    def _judge(self, regions: list[find.Region], turned: bool) -> list[_Verdict]:
        if not regions:
            return []
        patches = np.array([patch(self.image, r.corners(self.factor) * self.detail, turned)
                            for r in regions])
        faces, colours = self.net.probabilities(ink(patches))
        return [_Verdict(f, c, turned) for f, c in zip(faces, colours, strict=True)]


def _judge_into(verdicts: dict, judge: _Judge, regions: list[find.Region]) -> None:
    """Put the regions to the face network, noting each verdict under the region's
    identity (``verdicts``, changed in place)."""
    verdicts.update(zip(map(id, regions), judge.judge(regions), strict=True))


def _best(region: find.Region, verdicts: dict) -> tuple[float, list[find.Region]]:
    """The way of taking the region whole or cut that makes its parts most surely
    tiles: each part scores its probability of being a tile less one half, and a part
    that reads no tile costs at most NOTHING — enough that a tile is not traded for a
    slightly surer piece of itself and scraps, little enough that a tile is cut off the
    glare or table its region took in."""
    whole = verdicts[id(region)].tile - 0.5 if region.tile_like else -0.5
    best = (whole, [region])
    for cut in region.cuts:
        parts = [_best(p, verdicts) for p in cut]
        score = sum(max(s, -NOTHING) for s, _ in parts)
        if score > best[0]:
            best = (score, [r for _, rs in parts for r in rs])
    return best


def _worth(parts: list[find.Region], verdicts: dict) -> float:
    """What a choice of parts reads: each part read as a tile (likelier a tile than
    not) scores its probability of being one less one half; the rest read nothing."""
    return sum(max(verdicts[id(r)].tile - 0.5, 0.0) for r in parts if r.tile_like)


def _merge(choices: list, merges: list[find.Merge], judge: _Judge, verdicts: dict,
           tile_size: float | None) -> None:
    """Take neighbouring regions as one tile where that tile is likelier than what
    each gave on its own (``choices``, changed in place). Only regions that gave no
    sure tile take part, and together they must not be much larger than a tile surely
    read elsewhere in the photo (``tile_size``, working pixels², when known)."""
    def settled(i):
        return any(r.tile_like and verdicts[id(r)].tile >= CONFIDENT for r in choices[i][1])

    def small(r):
        return tile_size is None or r.rect[1][0] * r.rect[1][1] <= MERGED_SIZE * tile_size

    candidates = [m for m in merges if m.region.tile_like and small(m.region)
                  and not any(settled(i) for i in m.members)]
    _judge_into(verdicts, judge, [m.region for m in candidates])
    gains = [(verdicts[id(m.region)].tile - 0.5 - sum(_worth(choices[i][1], verdicts)
                                                      for i in m.members), m)
             for m in candidates]
    used = set()
    for gain, m in sorted(gains, key=lambda g: -g[0]):
        if gain > 0 and not used.intersection(m.members):
            used.update(m.members)
            choices[m.members[0]] = (verdicts[id(m.region)].tile - 0.5, [m.region])
            for i in m.members[1:]:
                choices[i] = (0.0, [])


def read_tiles(image: np.ndarray, folder: Path = MODELS) -> list[TileReading]:
    """Every tile found in a BGR photo, in reading order (``_reading_order``),
    by the models in ``folder`` (the shipped ones unless told)."""
    pixels, net = models(folder)
    probs, factor = find.pixel_classes(image, pixels)
    judge = _Judge(image, factor, net)
    regions, merges = find.regions(probs)
    # each region whole first; only those not surely one tile are judged cut every way
    whole = [r for r in regions if r.tile_like]
    verdicts: dict = {}
    _judge_into(verdicts, judge, whole)
    sure = {id(r) for r in whole if verdicts[id(r)].tile >= SURELY_ONE}
    # the tiles read confidently say how large a tile is in this photo: wider regions
    # that large may be tiles seen foreshortened, and are read across too
    judge.size_tiles([r for r in whole if verdicts[id(r)].tile >= CONFIDENT])
    judge.turn_into(verdicts, [r for r in whole if id(r) not in sure and not r.squarish
                               and judge.turnable(r)])
    sure = {id(r) for r in whole if verdicts[id(r)].tile >= SURELY_ONE}
    rest = [n for r in regions if id(r) not in sure
            for n in r.tree() if n.tile_like and id(n) not in verdicts]
    _judge_into(verdicts, judge, rest)
    choices = [(verdicts[id(r)].tile - 0.5, [r]) if id(r) in sure else _best(r, verdicts)
               for r in regions]
    sizes = [r.rect[1][0] * r.rect[1][1] for r in regions if id(r) in sure]
    _merge(choices, merges, judge, verdicts, np.median(sizes) if len(sizes) >= 3 else None)
    chosen = [r for _, parts in choices for r in parts if r.tile_like]
    taken = _Outlines([r.corners(1.0) for r in chosen if verdicts[id(r)].tile >= 0.5])
    chosen += _anchored(regions, chosen, taken, judge, verdicts)
    chosen += _beside(chosen, taken, judge, verdicts)
    judged = list(zip(chosen, _ways_from_rows(chosen, verdicts, factor), strict=True))
    readings = [_reading(r, v, factor) for r, v in judged]
    read = _distinct([r for r in readings if r is not None])
    unread = [rv for rv, reading in zip(judged, readings, strict=True) if reading is None]
    return _reading_order(read + _unread(unread, read, factor))


def _beside(chosen: list[find.Region], taken: _Outlines, judge: _Judge, verdicts: dict
            ) -> list[find.Region]:
    """Tiles the finder missed beside tiles read surely: faces the pixel classifier took
    for the table (pink under warm light, washed out by glare) in a row or column whose
    other tiles it found. Each sure tile proposes its four neighbours' places (itself
    moved by one side's length, touching or BESIDE_GAP apart), judged where the photo
    shows their outline and no tile was read (``taken``); a place is kept where the face
    network reads a tile there surely. New tiles propose their own neighbours,
    BESIDE_ROUNDS times at most."""
    seeds = [r for r in chosen if verdicts[id(r)].tile >= CONFIDENT]
    found: list[find.Region] = []
    for _ in range(BESIDE_ROUNDS):
        places = [p for r in seeds for axis in (0, 1) for sign in (1, -1)
                  for p in _places(_neighbour_places(r.rect, axis, sign), r.maps, taken)]
        seeds = _surely_tiles(places, judge, verdicts, taken)
        found += seeds
    return found


def _anchored(regions: list[find.Region], chosen: list[find.Region], taken: _Outlines,
              judge: _Judge, verdicts: dict) -> list[find.Region]:
    """Tiles in regions where no tile was read (``taken``): a part of a tile (the rest
    of its face taken for the table or washed out by glare), a block of touching tiles
    that no cut parted, or only a tile's number. Tiles the size of the nearest tile
    read surely are placed in each corner of such a region, both ways round, where the
    photo shows their outline, and round its middle in that tile's direction
    (``_centred_places``). A place the face network reads surely as a tile is fitted
    to the outline the photo shows (``_fitted``), judged again and kept if still sure.
    A region reaching the photo's border (``_inside``) may be the part of a tile the
    photo shows, which a tile placed in it would read whole: it is left alone unless
    it is a block of tiles (BLOCK tiles large), and then only its corners away from the
    border are used."""
    sure = [r for r in chosen if verdicts[id(r)].tile >= CONFIDENT]
    if not sure:
        return []
    centres = np.array([r.rect[0] for r in sure])
    places = []
    for region in filter(lambda r: taken.free(r.corners(1.0)), regions):
        near = sure[int(np.argmin(np.linalg.norm(centres - region.rect[0], axis=1)))]
        shape = region.maps.edge.shape
        if all(_inside(c, shape) for c in cv2.boxPoints(region.rect)):
            places += _places(_centred_places(region.rect, near.rect), region.maps, taken, 0.0)
        elif np.prod(region.rect[1]) < BLOCK * np.prod(near.rect[1]):
            continue
        places += _places(_corner_places(region.rect, near.rect[1], shape), region.maps, taken)
    _judge_into(verdicts, judge, places)
    fitted = [_place(_fitted(p.rect, p.maps.edge), p.maps) for p in places
              if verdicts[id(p)].tile >= CONFIDENT
              and not _reading(p, verdicts[id(p)], judge.factor).cut]
    return _surely_tiles(fitted, judge, verdicts, taken)


def _fitted(rect, edge: np.ndarray) -> tuple:
    """The rotated rectangle moved and turned a little (its size kept) to where most of
    its outline lies on edge pixels (``_on_outline``): steps of a tenth, a twentieth and
    a fortieth of its shorter side, and of 4, 2 and 1 degrees, while it gains."""
    best, score = rect, _on_outline(rect, edge)
    for k in (1, 2, 4):
        step, turn = min(rect[1]) * 0.1 / k, 4.0 / k
        while True:
            (cx, cy), wh, angle = best
            u, v = find.axes(best)
            moves = [((cx + d[0], cy + d[1]), wh, angle)
                     for d in (step * u, -step * u, step * v, -step * v)]
            moves += [((cx, cy), wh, angle + turn), ((cx, cy), wh, angle - turn)]
            scores = [_on_outline(m, edge) for m in moves]
            if max(scores) <= score:
                break
            score = max(scores)
            best = moves[int(np.argmax(scores))]
    return best


def _places(rects: list[tuple], maps: find.Maps, taken: _Outlines,
            shown: float = BESIDE_EDGE) -> list[find.Region]:
    """Regions for those of the rotated rectangles (tiles' faces, working pixels) whose
    centre is in the photo, where no tile was read (``taken``) and the photo shows a
    tile's outline: at least ``shown`` of it on pixels likely edge (``_on_outline``)."""
    h, w = maps.edge.shape
    return [_place(rect, maps) for rect in rects if 0 <= rect[0][0] < w and 0 <= rect[0][1] < h
            and taken.free(find.outline(rect)) and _on_outline(rect, maps.edge) >= shown]


def _place(rect, maps: find.Maps) -> find.Region:
    """A region filling a rotated rectangle (a tile's face, working pixels), not cut."""
    return find.Region(cv2.boxPoints(rect), maps, find.MAX_DEPTH, rows=False)


def _surely_tiles(places: list[find.Region], judge: _Judge, verdicts: dict,
                  taken: _Outlines) -> list[find.Region]:
    """The places the face network reads surely as tiles, surest first, each kept only
    where no tile read or kept before it lies (``taken``, which the kept join)."""
    _judge_into(verdicts, judge, places)
    kept = []
    for p in sorted(places, key=lambda p: -verdicts[id(p)].tile):
        reading = _reading(p, verdicts[id(p)], judge.factor)
        outline = p.corners(1.0)
        if reading is not None and reading.sure and taken.free(outline):
            taken.add(outline)
            kept.append(p)
    return kept


def _corner_places(rect, tile: tuple[float, float], shape: tuple[int, int]) -> list[tuple]:
    """Rotated rectangles of a tile's face size (``tile``, its two sides) lying in the
    corners of the rotated rectangle ``rect`` along its sides, both ways round; none in
    a corner at the photo's border (``shape``): there the photo cut the region."""
    (cx, cy), (w, h), angle = rect
    u, v = find.axes(rect)
    short, long = sorted(tile)
    out = []
    for su in (1, -1):
        for sv in (1, -1):
            corner = np.array([cx, cy]) + su * w / 2 * u + sv * h / 2 * v
            if not _inside(corner, shape):
                continue
            for a, b in ((short, long), (long, short)):
                c = corner - su * a / 2 * u - sv * b / 2 * v
                out.append(((float(c[0]), float(c[1])), (a, b), angle))
    return out


def _inside(point, shape: tuple[int, int]) -> bool:
    """Whether a point (x, y, working pixels) lies inside the photo (``shape``), further
    than BORDER from its border."""
    return bool(BORDER <= point[0] <= shape[1] - 1 - BORDER
                and BORDER <= point[1] <= shape[0] - 1 - BORDER)


def _centred_places(rect, tile) -> list[tuple]:
    """Rotated rectangles of the size and direction of ``tile`` round the middle of
    ``rect``: centred on it, and moved along the tile's length by INK_OFFSET of it either
    way (a region that is only a tile's number, its face lost in glare or taken for the
    table, lies in the upper half of the tile)."""
    (_, _), (a, b), angle = tile
    long_axis = find.axes(tile)[int(b > a)]
    centre = np.array(rect[0])
    return [(tuple((centre + k * INK_OFFSET * max(a, b) * long_axis).tolist()), (a, b), angle)
            for k in (0, 1, -1)]


class _Outlines:
    """Outlines of tiles ((4, 2) pixels), with their centres and reach (centre to
    farthest corner) so that only nearby ones are overlapped exactly."""

    def __init__(self, outlines: list[np.ndarray]):
        self.outlines: list[np.ndarray] = []
        self.centres = np.zeros((0, 2))
        self.reach = np.zeros(0)
        for o in outlines:
            self.add(o)

    def add(self, outline: np.ndarray) -> None:
        centre = outline.mean(axis=0)
        self.outlines.append(outline)
        self.centres = np.vstack([self.centres, centre])
        self.reach = np.append(self.reach, np.linalg.norm(outline - centre, axis=1).max())

    def near(self, outline: np.ndarray) -> list[np.ndarray]:
        """The outlines here that may overlap ``outline``: those whose circles round
        their centres, out to their reach, meet its own (the others are apart)."""
        centre = outline.mean(axis=0)
        reach = np.linalg.norm(outline - centre, axis=1).max()
        close = np.linalg.norm(self.centres - centre, axis=1) < self.reach + reach
        return [self.outlines[i] for i in np.flatnonzero(close)]

    def free(self, outline: np.ndarray) -> bool:
        """Whether no outline here covers more than half of DUPLICATE of ``outline``."""
        return all(covered(o, outline) <= DUPLICATE / 2 for o in self.near(outline))


def _neighbour_places(rect, axis: int, sign: int) -> list[tuple]:
    """The rotated rectangle moved by its outline's length along its first or second
    axis (``axis`` 0 or 1), forwards or back (``sign`` 1 or -1): touching, and
    BESIDE_GAP of that length apart."""
    (cx, cy), (a, b), angle = rect
    step = (a, b)[axis] + 2 * find.EDGE_BAND
    unit = find.axes(rect)[axis] * sign
    return [((cx + dx, cy + dy), (a, b), angle)
            for dx, dy in (unit * step * (1 + gap) for gap in (0.0, BESIDE_GAP))]


def _on_outline(rect, edge: np.ndarray) -> float:
    """The share of a tile's outline — the rotated rectangle grown by the edge band,
    drawn 3 pixels wide — on pixels whose ``edge`` probability is above OUTLINE_EDGE;
    the part outside the photo shows none."""
    box = find.outline(rect)
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 2
    line = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.polylines(line, [np.round(box - (x0, y0)).astype(np.int32)], True, 1, 3)
    ys, xs = np.nonzero(line)
    ys, xs = ys + y0, xs + x0
    inside = (xs >= 0) & (ys >= 0) & (xs < edge.shape[1]) & (ys < edge.shape[0])
    return float((edge[ys[inside], xs[inside]] > OUTLINE_EDGE).sum() / max(len(xs), 1))


def _ways_from_rows(chosen: list[find.Region], verdicts: dict, factor: float
                    ) -> list[_Verdict]:
    """The chosen regions' verdicts, those unsure which way up their tile lies (a 6 or
    a 9 with nothing printed to tell) weighed by the way the tiles beside them lie
    (``ways.way_priors``); the not-a-tile probability is kept."""
    found = [verdicts[id(r)] for r in chosen]
    if not found:
        return []
    faces = np.array([v.face for v in found])
    tile = 1.0 - faces[:, -1]
    up = faces[:, :-1:2].sum(axis=1) / np.maximum(tile, 1e-12)
    weights = way_priors([_upright_corners(r.corners(factor), True, v.turned)
                          for r, v in zip(chosen, found, strict=True)],
                         up, tile >= CONFIDENT)
    out = []
    for v, (w_up, w_down) in zip(found, weights, strict=True):
        if w_up == w_down:
            out.append(v)
            continue
        face = v.face.copy()
        face[:-1:2] *= w_up
        face[1:-1:2] *= w_down
        face[:-1] *= v.tile / face[:-1].sum()
        out.append(replace(v, face=face))
    return out


def _reading_order(readings: list[TileReading]) -> list[TileReading]:
    """The readings as a person reads them off the table: row by row from the top, each
    row left to right. A row is a chain of tiles side by side — each within a tile
    and a half across and half a tile up or down of the next — so a slanting row
    stays one row."""
    if not readings:
        return []
    centres = np.array([r.corners.mean(axis=0) for r in readings])
    width = float(np.median([np.linalg.norm(r.corners[1] - r.corners[0]) for r in readings]))
    height = float(np.median([np.linalg.norm(r.corners[3] - r.corners[0]) for r in readings]))
    dx = np.abs(centres[:, None, 0] - centres[None, :, 0])
    dy = np.abs(centres[:, None, 1] - centres[None, :, 1])
    beside = (dx < 1.5 * width) & (dy < 0.5 * height)
    row = np.arange(len(readings))  # each row ends up named by its first tile's index
    while True:  # a tile takes the least row name among the tiles beside it
        named = np.where(beside, row[None, :], len(readings)).min(axis=1)
        if (named == row).all():
            break
        row = named
    row_y = {r: centres[row == r, 1].mean() for r in set(row.tolist())}
    order = sorted(range(len(readings)),
                   key=lambda i: (row_y[row[i]], row[i], centres[i, 0]))
    return [readings[i] for i in order]


def _distinct(readings: list[TileReading]) -> list[TileReading]:
    """The readings less those lying mostly (over DUPLICATE of their area) on a surer
    one: a tile's part the finder kept apart (a joker's face ring) read as a tile too."""
    kept: list[TileReading] = []
    outlines = _Outlines([])
    for r in sorted(readings, key=lambda r: -r.confidence):
        if all(covered(o, r.corners) <= DUPLICATE and covered(r.corners, o) <= DUPLICATE
               for o in outlines.near(r.corners)):
            kept.append(r)
            outlines.add(r.corners)
    return kept


def _unread(unread: list[tuple[find.Region, _Verdict]], read: list[TileReading],
            factor: float) -> list[TileReading]:
    """Tiles the face network could not read: regions chosen as tiles whose face it
    took for no tile, that are a tile by everything else — face by the pixel network
    (UNREAD_FACE), as large as the tiles read surely (UNREAD_SIZE), whole in the photo,
    and apart from every reading (UNREAD_APART). A joker or a face of a design never
    seen (held-out editions: a star joker) is otherwise left out of the hand without
    a word. Each is given the network's likeliest face, flagged for a person to check
    (its confidence is below a half: the network thought it more likely no tile)."""
    sizes = [cv2.contourArea(r.corners.astype(np.float32)) for r in read
             if r.sure and not r.cut]
    if not sizes:
        return []  # no tile read surely says how large a tile is here
    size = float(np.median(sizes))
    taken = _Outlines([r.corners for r in read])
    found = []
    for region, verdict in sorted(unread, key=lambda rv: -rv[1].tile):
        corners = region.corners(factor)
        share = cv2.contourArea(corners.astype(np.float32)) / size
        if region.at_border or region.face < UNREAD_FACE or not (
                1 / UNREAD_SIZE <= share <= UNREAD_SIZE):
            continue
        if any(covered(o, corners) > UNREAD_APART or covered(corners, o) > UNREAD_APART
               for o in taken.near(corners)):
            continue
        reading = _reading(region, verdict, factor, guess=True)
        found.append(reading)
        taken.add(reading.corners)
    return found


def _reading(region: find.Region, verdict: _Verdict, factor: float,
             guess: bool = False) -> TileReading | None:
    """The tile a region's verdict reads; None when the verdict is more likely no tile
    at all, unless asked for the likeliest ``guess`` among the tiles."""
    pf, pc = verdict.face, verdict.colour
    by_face = pf[:-1].reshape(len(FACES), 2).sum(axis=1)
    best = int(np.argmax(by_face))
    if pf[-1] > by_face[best] and not guess:
        return None  # more likely not a tile at all
    up = pf[2 * best] >= pf[2 * best + 1]
    if FACES[best] == "J":
        tile, conf = JOKER, by_face[best]
    else:
        colour = int(np.argmax(pc))
        tile, conf = Tile(int(FACES[best]), COLOURS[colour]), by_face[best] * pc[colour]
    corners = _upright_corners(region.corners(factor), up, verdict.turned)
    return TileReading(tile, float(conf), corners, region.at_border)


def _upright_corners(corners: np.ndarray, up: bool, turned: bool) -> np.ndarray:
    """The corners in the order the patch was cut (``face.tall_order``), turned half
    round when the tile was read upside down."""
    c = tall_order(corners, turned).astype(np.float64)
    return c if up else np.roll(c, 2, axis=0)
