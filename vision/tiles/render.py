"""Synthetic Rummikub photos with exact ground truth, for training and measuring.

A scene is drawn on the table's plane — wood, cloth, marble or a dark rack — with
tiles scattered at any rotation or laid in touching rows, each with its drop shadow and
visible side; the plane is then photographed through a random perspective (a tilted
phone), under warm or cold light with a brightness gradient, glare, blur, sensor noise
and JPEG compression. Numbers are drawn with OpenCV's Hershey stroke font in a bold
weight, the joker as a smiling face, the maker's mark as faint text — nothing is
downloaded. Every tile's four corners are carried through the same perspective, so the
labels are exact. Tile faces are 30 × 42 units of the plane (a real tile is about
30 × 40 mm plus its bevel).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from rules.games.rummitiles import COLOURS, JOKER, Tile
from vision.tiles.editions import FONTS, HERSHEY, Edition, random_edition
from vision.tiles.labels import LabelledPhoto, LabelledTile

TILE_W, TILE_H = 30.0, 42.0  # plane units
PX = 6  # plane pixels per unit while drawing a tile


def tile_face(tile: Tile, rng, ink_jitter: float = 18.0,
              edition: Edition | None = None) -> np.ndarray:
    """One tile's face, (height, TILE_W·PX) BGR float32, upright, in ``edition``'s look
    (default: the classic edition, TILE_H tall). The ink varies from tile to tile as
    print does: lighter or darker by ``ink_jitter`` (BGR levels, one sigma), its hue by a
    third of that — black ink stays black, not maroon or navy."""
    ed = edition or Edition.classic()
    w = int(TILE_W * PX)
    h = int(round(w / ed.aspect))
    ivory = np.array(ed.face, float) + rng.normal(0, 6, 3)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = np.clip(ivory, 0, 255)
    middle = (w // 2, int(h * ed.digit_centre))
    if ed.backdrop == "disc":
        cv2.ellipse(face, middle, (int(w * 0.36), int(h * 0.24)), 0, 0, 360,
                    tuple(float(v) for v in ivory - 10), -1, cv2.LINE_AA)
    elif ed.backdrop == "ring":
        cv2.ellipse(face, middle, (int(w * 0.38), int(h * ed.digit_height * 0.75)), 0, 0, 360,
                    tuple(float(v) for v in ivory - 45), max(2, w // 40), cv2.LINE_AA)
    if tile.joker:
        colour = ed.inks["red" if rng.random() < 0.5 else "black"]
        _joker(face, ed, colour, middle, rng)
    else:
        shade = rng.normal(0, ink_jitter) + rng.normal(0, ink_jitter / 3, 3)
        colour = np.clip(np.array(ed.inks[tile.colour]) + shade, 0, 255)
        _number(face, str(tile.number), ed, colour, middle)
    if ed.logo:
        logo = tuple(float(v) for v in ivory - 16)
        (lw, _), _ = cv2.getTextSize("Rummikub", cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.0, 1)
        cv2.putText(face, "Rummikub", (int(w * 0.12), int(h * 0.86)),
                    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, w * 0.76 / lw, logo, 1, cv2.LINE_AA)
    return face.astype(np.float32)


def _number(face: np.ndarray, text: str, ed: Edition, colour, middle) -> None:
    """Print ``text`` centred on ``middle``, ``ed.digit_height`` of the face tall (narrower
    where two digits would not fit in 86 % of its width)."""
    h, w = face.shape[:2]
    if ed.typeface == HERSHEY:
        scale = h * ed.digit_height / 22.0  # Hershey glyphs are about 22 units tall at 1
        thick = max(3, int(h * ed.digit_height / 6 * (1 + 10 * ed.bold)))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        if tw > w * 0.82:
            scale *= w * 0.82 / tw
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        org = (int(middle[0] - tw / 2), int(middle[1] + th / 2))
        cv2.putText(face, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale,
                    tuple(float(v) for v in colour), thick, cv2.LINE_AA)
        return
    glyphs = _glyphs(ed.typeface, text)
    gh, gw = glyphs.shape
    th = h * ed.digit_height
    tw = gw * th / gh
    if tw > w * 0.86:
        th, tw = th * w * 0.86 / tw, w * 0.86
    mask = cv2.resize(glyphs, (max(1, int(round(tw))), max(1, int(round(th)))),
                      interpolation=cv2.INTER_AREA)
    if ed.bold:
        k = max(1, int(round(ed.bold * h * ed.digit_height)))
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    x0, y0 = int(middle[0] - mask.shape[1] / 2), int(middle[1] - mask.shape[0] / 2)
    x0, y0 = max(0, x0), max(0, y0)
    region = face[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]].astype(np.float32)
    alpha = (mask[:region.shape[0], :region.shape[1]].astype(np.float32) / 255)[:, :, None]
    face[y0:y0 + region.shape[0], x0:x0 + region.shape[1]] = np.clip(
        region * (1 - alpha) + np.asarray(colour, np.float32) * alpha, 0, 255)


@lru_cache(maxsize=256)
def _glyphs(typeface: str, text: str) -> np.ndarray:
    """``text`` in ``typeface`` as a tight uint8 coverage mask (255 ink), 200 px font."""
    font = ImageFont.truetype(str(FONTS / typeface), 200)
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, fill=255, font=font)
    mask = np.asarray(img)
    ys, xs = np.nonzero(mask > 40)
    return np.ascontiguousarray(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _joker(face: np.ndarray, ed: Edition, colour, middle, rng) -> None:
    """The joker in the edition's design: a smiling face, a jester's face under a
    pointed hat, a bold J, a picture of the set's own (``_emblem``) or a star."""
    h, w = face.shape[:2]
    ink = tuple(float(v) for v in colour)
    # the face's radius: about a quarter of the tile's width, larger for big-digit editions
    c, r = middle, int(w * 0.33 * max(0.8, ed.digit_height / 0.36 * 0.8))
    r = min(r, int(w * 0.42))
    line = max(2, w // 28)
    if ed.joker in ("smiley", "jester"):
        cv2.circle(face, c, r, ink, line, cv2.LINE_AA)
        for dx in (-1, 1):
            cv2.ellipse(face, (c[0] + dx * r // 3, c[1] - r // 5), (r // 6, r // 10), 0, 0,
                        360, ink, -1, cv2.LINE_AA)
        cv2.ellipse(face, (c[0], c[1] + r // 6), (r // 2, r // 3), 0, 20, 160, ink,
                    max(2, w // 36), cv2.LINE_AA)
        if ed.joker == "jester":
            hat = np.array([[c[0] - r, c[1] - r // 2], [c[0] + r, c[1] - r // 2],
                            [c[0] + r // 3, c[1] - 2 * r]], np.int32)
            cv2.fillPoly(face, [hat], ink, cv2.LINE_AA)
    elif ed.joker == "letter":
        _number(face, "J", replace(ed, digit_height=min(0.6, ed.digit_height * 1.2)), colour,
                middle)
    elif ed.joker == "emblem":
        _emblem(face, ed, c, r, line)
    else:  # a five-pointed star
        a = np.linspace(np.pi / 2, np.pi / 2 + 2 * np.pi, 11)[:-1]
        radius = np.where(np.arange(10) % 2 == 0, r, r * 0.42)
        star = np.column_stack([c[0] + radius * np.cos(a), c[1] - radius * np.sin(a)])
        cv2.fillPoly(face, [np.round(star).astype(np.int32)], ink, cv2.LINE_AA)


def _emblem(face: np.ndarray, ed: Edition, c: tuple[int, int], r: int, line: int) -> None:
    """A joker picture of the set's own, drawn from ``ed.emblem`` (the same on both of
    the set's jokers) within ``r`` face pixels of ``c``: three to six shapes — mostly
    filled: discs, ellipses, convex polygons, rows of dots; at most one ring — in one to
    three of the edition's inks, half of them inside a round outline (a face or a
    badge), where an arc may be drawn too (a smile); or, for half the sets, one large
    figure (``_silhouette``) with none to two of those over it. Real jokers are pictures (faces,
    jesters, clowns, stars, logos); teaching the face network many pictures, not three,
    is what lets it call a design it has never seen a joker. Strokes alone would draw
    digits (two arcs make a 3), so the shapes are filled blobs; no star is drawn — the
    benchmark holds that design out."""
    g = np.random.default_rng(ed.emblem)
    inks = [tuple(float(v) for v in ed.inks[k]) for k in
            g.choice(list(ed.inks), int(g.integers(1, 4)), replace=False)]
    badge = bool(g.random() < 0.5)
    if badge:
        cv2.circle(face, c, r, inks[0], line, cv2.LINE_AA)
    shapes = int(g.integers(3, 7))
    if g.random() < 0.5:  # one large figure under the rest, which are then fewer
        _silhouette(face, g, c, int(r * g.uniform(0.6, 1.0)), inks[-1])
        shapes = int(g.integers(0, 3))
    kinds = ["disc", "ellipse", "polygon", "dots", "ring"] + ["arc"] * badge
    for _ in range(shapes):
        ink = inks[int(g.integers(len(inks)))]
        x, y = (int(c[0] + v * r) for v in g.uniform(-0.4, 0.4, 2))
        size = max(2, int(r * g.uniform(0.15, 0.45)))
        kind = str(g.choice(kinds))
        if kind in ("ring", "arc"):
            kinds = [k for k in kinds if k not in ("ring", "arc")]
        if kind == "disc":
            cv2.circle(face, (x, y), size, ink, -1, cv2.LINE_AA)
        elif kind == "ring":
            cv2.circle(face, (x, y), size, ink, line, cv2.LINE_AA)
        elif kind == "ellipse":
            cv2.ellipse(face, (x, y), (size, max(2, int(size * g.uniform(0.3, 0.8)))),
                        float(g.uniform(0, 180)), 0, 360, ink, -1, cv2.LINE_AA)
        elif kind == "polygon":
            a = np.sort(g.uniform(0, 2 * np.pi, int(g.integers(3, 8))))
            poly = np.column_stack([x + size * np.cos(a), y + size * np.sin(a)])
            cv2.fillPoly(face, [np.round(poly).astype(np.int32)], ink, cv2.LINE_AA)
        elif kind == "arc":
            cv2.ellipse(face, (c[0], c[1] + r // 4), (r // 2, r // 3), 0, 20, 160, ink, line,
                        cv2.LINE_AA)
        else:
            step = np.array([np.cos(g.uniform(0, np.pi)), np.sin(g.uniform(0, np.pi))]) * size
            for k in range(-1, 2):
                cv2.circle(face, (int(x + k * step[0]), int(y + k * step[1])),
                           max(2, size // 3), ink, -1, cv2.LINE_AA)


def _silhouette(face: np.ndarray, g: np.random.Generator, c: tuple[int, int], r: int,
                ink) -> None:
    """One large filled figure of radius about ``r`` face pixels round ``c``: a blob
    (a circle whose radius swells and shrinks smoothly, two to four times round: a
    head, a cloud, a fruit), a head and shoulders, or a hat with its brim. A joker that
    is one big shape in ink (a star, a crown, a clown's head) must not look to the face
    network like a dark table or a shadow; the radius never alternates from one point
    to the next, so no star is drawn — the benchmark holds that design out."""
    x, y = c
    kind = int(g.integers(3))
    if kind == 0:
        a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        radius = np.ones_like(a)
        for k in range(2, 5):
            radius += g.uniform(0, 0.12) * np.cos(k * a + g.uniform(0, 2 * np.pi))
        pts = np.column_stack([x + r * radius * np.cos(a), y + r * radius * np.sin(a)])
        cv2.fillPoly(face, [np.round(pts).astype(np.int32)], ink, cv2.LINE_AA)
    elif kind == 1:
        head = int(r * g.uniform(0.35, 0.5))
        cv2.circle(face, (x, y - r + head), head, ink, -1, cv2.LINE_AA)
        cv2.ellipse(face, (x, y + r), (int(r * g.uniform(0.7, 1.0)), int(r * 0.9)), 0,
                    180, 360, ink, -1, cv2.LINE_AA)
    else:
        top = int(r * g.uniform(0.3, 0.6))
        crown = np.array([[x - top, y - r], [x + top, y - r], [x + int(r * 0.7), y + r // 3],
                          [x - int(r * 0.7), y + r // 3]], np.int32)
        cv2.fillPoly(face, [crown], ink, cv2.LINE_AA)
        cv2.ellipse(face, (x, y + r // 3), (r, max(2, int(r * g.uniform(0.15, 0.3)))), 0, 0,
                    360, ink, -1, cv2.LINE_AA)


def _background(rng, size: int, kind: str | None = None) -> np.ndarray:
    """A table (or rack) ``size`` pixels square: ``kind`` wood, cloth, marble, rack (dark
    plastic), white, dark or patterned; the first four at random if not given."""
    kind = kind or rng.choice(["wood", "cloth", "marble", "rack"])
    noise = rng.normal(0, 1, (size, size)).astype(np.float32)
    if kind == "wood":
        base = np.array([40, 75, 120]) * rng.uniform(0.6, 1.4)
        grain = cv2.GaussianBlur(noise, (0, 0), sigmaX=40, sigmaY=1.5)
        grain = grain / (grain.std() + 1e-6)
        img = base[None, None, :] * (1 + 0.18 * grain[:, :, None])
    elif kind == "cloth":
        base = np.array([190, 190, 185]) * rng.uniform(0.5, 1.1)
        weave = (np.sin(np.arange(size) / rng.uniform(1.5, 3))[None, :] *
                 np.sin(np.arange(size) / rng.uniform(1.5, 3))[:, None]).astype(np.float32)
        stripes = cv2.GaussianBlur(noise, (0, 0), sigmaX=2, sigmaY=60)
        img = base[None, None, :] * (1 + 0.15 * weave[:, :, None] +
                                     0.5 * (stripes / (stripes.std() + 1e-6))[:, :, None]
                                     .clip(-1, 0.3))
    elif kind == "marble":
        base = np.array([215, 215, 212]) * rng.uniform(0.85, 1.05)
        veins = cv2.GaussianBlur(noise, (0, 0), 25)
        veins = np.exp(-(veins / (veins.std() + 1e-6)) ** 2 * 40)
        img = base[None, None, :] * (1 - 0.45 * veins[:, :, None])
    elif kind == "white":  # white melamine, a white board or a pale cloth
        base = np.array([238, 240, 240]) * rng.uniform(0.85, 1.0) + rng.normal(0, 4, 3)
        soft = cv2.GaussianBlur(noise, (0, 0), 8)
        img = base[None, None, :] * (1 + 0.03 * (soft / (soft.std() + 1e-6))[:, :, None])
    elif kind == "patterned":  # a printed tablecloth: checks or stripes in two colours
        a, b = rng.uniform(40, 230, 3), rng.uniform(40, 230, 3)
        period = rng.uniform(20, 90)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        checks = ((xx // period + (yy // period if rng.random() < 0.6 else 0)) % 2)
        img = np.where(checks[:, :, None] > 0, a, b) * (1 + 0.04 * noise[:, :, None])
    else:  # "rack" or "dark": dark plastic or felt
        base = np.array([30, 30, 32]) * rng.uniform(0.7, 1.6)
        img = base[None, None, :] * (1 + 0.15 * noise[:, :, None])
    return img.astype(np.float32)


def _layout(rng, count: int, span: float, rows: bool | None = None,
            angle: float | None = None, tile_h: float = TILE_H
            ) -> list[tuple[float, float, float]]:
    """(x, y, angle) of each tile's centre on the plane: scattered or in touching rows
    (chosen at random unless ``rows`` says), at random angles unless ``angle`` (radians)
    says; tiles TILE_W × ``tile_h`` units."""
    places: list[tuple[float, float, float]] = []
    if (rng.random() < 0.5) if rows is None else rows:  # as on a rack or laid out
        if angle is None:
            angle = rng.uniform(-0.4, 0.4) if rng.random() < 0.7 else rng.uniform(-np.pi, np.pi)
        y = -span / 2 + tile_h
        while len(places) < count and y < span / 2 - tile_h / 2:
            x = -span / 2 + TILE_W + rng.uniform(0, span / 4)
            for _ in range(int(rng.integers(2, 7))):
                if len(places) == count or x > span / 2 - TILE_W:
                    break
                c, s = np.cos(angle), np.sin(angle)
                places.append((x * c - y * s, x * s + y * c, angle))
                x += TILE_W + rng.uniform(0, 1.0)
            y += tile_h + rng.uniform(4, 25)
        return places
    tries = 0
    while len(places) < count and tries < 2000:
        tries += 1
        p = (rng.uniform(-span / 2 + 25, span / 2 - 25), rng.uniform(-span / 2 + 25,
                                                                     span / 2 - 25),
             rng.uniform(-np.pi, np.pi) if angle is None else angle)
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 1.05 * np.hypot(TILE_W, tile_h)
               for q in places):
            places.append(p)
    return places


def _random_tiles(rng, count: int, jokers: int = 2) -> list[Tile]:
    """``count`` tiles drawn without replacement from a set of 104 numbered tiles and
    ``jokers`` jokers (a real set has two)."""
    pool = [Tile(n, c) for n in range(1, 14) for c in COLOURS for _ in range(2)]
    pool += [JOKER] * jokers
    return [pool[i] for i in rng.choice(len(pool), count, replace=False)]


def render_photo(rng, size: tuple[int, int] = (1000, 750), count: int | None = None,
                 tiles: list[Tile] | None = None, rows: bool | None = None,
                 angle: float | None = None, warm: float | None = None,
                 span: float | None = None, edition: Edition | None = None
                 ) -> tuple[LabelledPhoto, np.ndarray]:
    """A synthetic photo of the classic edition, or of ``edition`` (BGR uint8 of
    ``size`` width × height) and its exact labels.

    Everything is random unless given: ``count`` tiles, or exactly ``tiles``; laid in
    touching ``rows`` or scattered; turned by ``angle`` (radians, on the table); under
    light ``warm`` (> 0, yellow) or cold (< 0, blue); the table ``span`` in tile-plane
    units across the photo (a tile is TILE_W wide).
    """
    count = len(tiles) if tiles is not None else (
        int(rng.integers(1, 22)) if count is None else count)
    span = float(rng.uniform(150, 550)) if span is None else span
    res = 1400
    unit = res / span  # scene pixels per plane unit
    scene = _background(rng, res)
    tiles = _random_tiles(rng, count) if tiles is None else list(tiles)
    corners = []
    tile_h = TILE_H if edition is None else TILE_W / edition.aspect
    places = _layout(rng, count, span, rows, angle, tile_h)
    side = np.array([rng.uniform(-1, 1), rng.uniform(0.5, 1.5)]) * 1.2  # visible bevel
    for tile, (x, y, a) in zip(tiles, places, strict=False):
        hw, hh = TILE_W / 2, tile_h / 2
        local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quad = ((local @ rot.T + (x, y)) * unit + res / 2).astype(np.float32)
        _paste(scene, tile_face(tile, rng, edition=edition), quad, side * unit)
        corners.append(quad)
    return _photograph(rng, scene, tiles, corners, size, warm)


def _paste(scene: np.ndarray, face: np.ndarray, quad: np.ndarray, side: np.ndarray,
           shadow: float = 0.45, cover: float = 0.0) -> None:
    """Draw one tile into ``scene`` (in place): its drop shadow, its side (the body seen
    ``side`` scene pixels beyond the face) and its ``face`` warped onto ``quad`` (scene
    pixels, corners clockwise from the face's top left). ``cover``: the share of the face
    from its bottom that something in front hides (a rack's lip is drawn over it later)."""
    res = scene.shape[0]
    reach = float(np.abs(side).max()) * 3 + 6
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach).astype(int), res)
    if x1 <= x0 or y1 <= y0:
        return
    box = scene[y0:y1, x0:x1]
    q = quad - (x0, y0)
    if shadow:
        drop = np.zeros(box.shape[:2], np.float32)
        cv2.fillPoly(drop, [np.round(q + side * 2.5).astype(np.int32)], 1.0)
        drop = cv2.GaussianBlur(drop, (0, 0), max(0.5, float(np.abs(side).max()) * 1.2))
        box *= (1 - shadow * drop)[:, :, None]
    body = tuple(float(v) for v in face[5, 5] * 0.72)
    cv2.fillPoly(box, [np.round(q + side).astype(np.int32)], body, cv2.LINE_AA)
    src = np.float32([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                      [0, face.shape[0]]])
    m = cv2.getPerspectiveTransform(src, q.astype(np.float32))
    box_size = (box.shape[1], box.shape[0])
    warped = cv2.warpPerspective(face, m, box_size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones(face.shape[:2], np.float32), m, box_size)
    box[:] = box * (1 - mask[:, :, None]) + warped * mask[:, :, None]


SCENES = ("flat on wood", "flat on white", "flat on dark", "flat on pattern", "rack from above",
          "rack from the front")
_TABLES = {"flat on wood": "wood", "flat on white": "white", "flat on dark": "dark",
           "flat on pattern": "patterned"}


def render_world(rng, scene: str | None = None, held_out: bool = False,
                 size: tuple[int, int] | None = None,
                 count: int | None = None,
                 jokers: int = 2) -> tuple[LabelledPhoto, np.ndarray, str]:
    """A synthetic photo of a random edition (editions.random_edition; ``held_out``: only
    the typefaces and jokers training never sees) in a ``scene`` of SCENES (random if
    not given), its tiles drawn from a set with ``jokers`` jokers (2, as sold; training
    may draw more to see more joker pictures), with its exact labels — a tile's label
    is the part of its face in view — and the scene's name. Racks hold one to three rows
    of touching upright tiles whose feet the rack's lip hides; from the front (30–50°
    off vertical) the faces are foreshortened, their tops show, and each row hides the
    foot of the row behind it."""
    scene = scene or str(rng.choice(SCENES))
    edition = random_edition(rng, held_out)
    size = size or ((1000, 750) if rng.random() < 0.6 else (750, 1000))
    tile_h = TILE_W / edition.aspect
    res = 1400
    if scene in _TABLES:
        count = int(rng.integers(1, 22)) if count is None else count
        span = float(rng.uniform(150, 550))
        unit = res / span
        img = _background(rng, res, _TABLES[scene])
        tiles = _random_tiles(rng, count, jokers)
        places = _layout(rng, count, span, tile_h=tile_h)
        side = np.array([rng.uniform(-1, 1), rng.uniform(0.5, 1.5)]) * edition.thickness
        corners = []
        for tile, (x, y, a) in zip(tiles, places, strict=False):
            hw, hh = TILE_W / 2, tile_h / 2
            local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            quad = ((local @ rot.T + (x, y)) * unit + res / 2).astype(np.float32)
            _paste(img, tile_face(tile, rng, edition=edition), quad, side * unit)
            corners.append(quad)
        tiles = tiles[:len(corners)]
        return (*_photograph(rng, img, tiles, corners, size, None), scene)
    front = scene == "rack from the front"
    tilt = float(rng.uniform(30, 50)) if front else float(rng.uniform(0, 15))
    squash = float(np.cos(np.radians(tilt)))  # the faces' height as seen
    rows = int(rng.integers(1, 4))
    per_row = [int(rng.integers(3, 15)) for _ in range(rows)]
    span = float(rng.uniform(1.05, 1.5)) * max(per_row) * TILE_W
    unit = res / span
    rack_kind = str(rng.choice(["rack", "wood", "white", "patterned"]))
    img = _background(rng, res, rack_kind)
    lip_colour = np.clip(np.median(img[::50, ::50].reshape(-1, 3), axis=0) * rng.uniform(
        0.7, 1.3) + rng.normal(0, 10, 3), 0, 255)
    face_h = tile_h * squash
    top = edition.thickness * float(np.sin(np.radians(tilt))) * 2.5  # the tile's top edge
    lip = tile_h * float(rng.uniform(0.08, 0.2))  # of the face hidden by the rack's lip
    overlap = face_h * float(rng.uniform(0.0, 0.15)) if front else 0.0
    pitch = face_h + top + (lip * squash if front else lip + float(rng.uniform(4, 12))) - overlap
    y = -pitch * (rows - 1) / 2 - face_h / 2
    tiles, corners = [], []
    for n in per_row:
        gap = float(rng.uniform(0.0, 0.6))
        x = -(n * TILE_W + (n - 1) * gap) / 2 + float(rng.uniform(-0.1, 0.1)) * span
        row_top = y
        for _ in range(n):
            tile = _random_tiles(rng, 1, jokers)[0]
            quad = (np.array([[x, row_top], [x + TILE_W, row_top], [x + TILE_W, row_top + face_h],
                              [x, row_top + face_h]]) * unit + res / 2).astype(np.float32)
            _paste(img, tile_face(tile, rng, edition=edition), quad,
                   np.array([0.0, -top * unit]), shadow=0.25)
            tiles.append(tile)
            corners.append(quad)
            x += TILE_W + gap
        # the rack's lip in front of the row's feet
        hidden = lip * squash if front else lip
        y0, y1 = (row_top + face_h - hidden) * unit + res / 2, (row_top + face_h) * unit + res / 2
        band = img[int(max(y0, 0)):int(min(y1 + 3 * unit, res))]
        band[:] = lip_colour * (1 + 0.05 * rng.normal(0, 1, (band.shape[0], 1, 1)))
        for quad in corners[-n:]:  # each label: the part of the face in view
            quad[2:, 1] = y0
        y += pitch
    labels = list(zip(tiles, corners, strict=True))
    # a later (front) row hides the top of nothing, but its tiles hide the row behind's
    # feet: those parts are already cut from the labels by the lip above
    return (*_photograph(rng, img, [t for t, _ in labels], [q for _, q in labels], size, None,
                         keystone=np.sin(np.radians(tilt)) * 0.35 if front else 0.0), scene)


def camera(rng, res: int, size: tuple[int, int]) -> np.ndarray:
    """The homography (3 × 3) from a square scene ``res`` pixels across to a photo of
    ``size`` (width, height): each of the scene's corners lands 0 to 24 % of the photo
    beyond the photo's own corner, so the scene covers the whole photo (nothing from
    beyond its border — no tile without a label — comes into the picture)."""
    w, h = size
    src = np.float32([[0, 0], [res, 0], [res, res], [0, res]])
    outward = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    dst = (np.float32([[0, 0], [w, 0], [w, h], [0, h]])
           + outward * rng.uniform(0, 0.24, (4, 2)) * (w, h)).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _photograph(rng, scene: np.ndarray, tiles, corners, size, warm: float | None,
                keystone: float = 0.0) -> tuple[LabelledPhoto, np.ndarray]:
    """The scene through a phone: ``camera``'s perspective, then (``keystone`` > 0, a
    view from the front) the bottom of the picture widened by that share of its width
    on each side, as nearer things look bigger; light, glare, blur, noise and JPEG."""
    res = scene.shape[0]
    w, h = size
    hmat = camera(rng, res, size)
    if keystone:
        a = keystone * w
        near = cv2.getPerspectiveTransform(
            np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
            np.float32([[0, 0], [w, 0], [w + a, h], [-a, h]]))
        hmat = near @ hmat
    img = cv2.warpPerspective(scene, hmat, (w, h), flags=cv2.INTER_AREA)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.uniform(-0.35, 0.35, 2)
    light = 1 + g[0] * (xx / w - 0.5) + g[1] * (yy / h - 0.5)
    warm = rng.uniform(-0.15, 0.15) if warm is None else warm
    tint = np.array([1 - warm, 1.0, 1 + warm]) * rng.uniform(0.7, 1.15)
    img = img * light[:, :, None] * tint
    if rng.random() < 0.4:  # glare
        glare = np.zeros((h, w), np.float32)
        cv2.ellipse(glare, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(30, 200)), int(rng.uniform(20, 120))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        img += 90 * cv2.GaussianBlur(glare, (0, 0), 25)[:, :, None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.4))
    img += rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    img = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
    labels = []
    for tile, quad in zip(tiles, corners, strict=False):
        pts = cv2.perspectiveTransform(quad[None], hmat)[0]
        labels.append(LabelledTile(tile, pts.astype(np.float64)))
    inside = [t for t in labels if (t.polygon >= 0).all() and (t.polygon[:, 0] < w).all()
              and (t.polygon[:, 1] < h).all()]
    return LabelledPhoto(None, tuple(inside)), img
