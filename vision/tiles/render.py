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

import cv2
import numpy as np

from rules.games.rummitiles import COLOURS, JOKER, Tile
from vision.tiles.labels import LabelledPhoto, LabelledTile

TILE_W, TILE_H = 30.0, 42.0  # plane units
INKS = {"red": (40, 40, 205), "blue": (190, 110, 20), "black": (35, 35, 35),
        "orange": (30, 140, 245)}  # BGR, printed ink on ivory
PX = 6  # plane pixels per unit while drawing a tile


def tile_face(tile: Tile, rng, ink_jitter: float = 18.0) -> np.ndarray:
    """One tile's face, (TILE_H·PX, TILE_W·PX) BGR, upright. The ink varies from tile
    to tile as print does: lighter or darker by ``ink_jitter`` (BGR levels, one sigma),
    its hue by a third of that — black ink stays black, not maroon or navy."""
    w, h = int(TILE_W * PX), int(TILE_H * PX)
    ivory = np.array([200, 228, 240]) + rng.normal(0, 6, 3)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = np.clip(ivory, 0, 255)
    cv2.ellipse(face, (w // 2, int(h * 0.36)), (int(w * 0.36), int(h * 0.24)), 0, 0, 360,
                tuple(float(v) for v in ivory - 10), -1, cv2.LINE_AA)
    if tile.joker:
        colour = INKS["red" if rng.random() < 0.5 else "black"]
        c, r = (w // 2, int(h * 0.36)), int(w * 0.33)
        cv2.circle(face, c, r, colour, max(2, w // 28), cv2.LINE_AA)
        for dx in (-1, 1):
            cv2.ellipse(face, (c[0] + dx * r // 3, c[1] - r // 5), (r // 6, r // 10), 0, 0,
                        360, colour, -1, cv2.LINE_AA)
        cv2.ellipse(face, (c[0], c[1] + r // 6), (r // 2, r // 3), 0, 20, 160, colour,
                    max(2, w // 36), cv2.LINE_AA)
    else:
        shade = rng.normal(0, ink_jitter) + rng.normal(0, ink_jitter / 3, 3)
        colour = np.clip(np.array(INKS[tile.colour]) + shade, 0, 255)
        text = str(tile.number)
        scale = h * 0.36 / 22.0  # Hershey glyphs are about 22 units tall at scale 1
        thick = max(3, int(h * 0.06))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        if tw > w * 0.82:
            scale *= w * 0.82 / tw
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        org = (int((w - tw) / 2), int(h * 0.36 + th / 2))
        cv2.putText(face, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale,
                    tuple(float(v) for v in colour), thick, cv2.LINE_AA)
    logo = tuple(float(v) for v in ivory - 16)
    (lw, _), _ = cv2.getTextSize("Rummikub", cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.0, 1)
    cv2.putText(face, "Rummikub", (int(w * 0.12), int(h * 0.86)),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, w * 0.76 / lw, logo, 1, cv2.LINE_AA)
    return face.astype(np.float32)


def _background(rng, size: int) -> np.ndarray:
    kind = rng.choice(["wood", "cloth", "marble", "rack"])
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
    else:
        base = np.array([30, 30, 32]) * rng.uniform(0.7, 1.6)
        img = base[None, None, :] * (1 + 0.15 * noise[:, :, None])
    return img.astype(np.float32)


def _layout(rng, count: int, span: float, rows: bool | None = None,
            angle: float | None = None) -> list[tuple[float, float, float]]:
    """(x, y, angle) of each tile's centre on the plane: scattered or in touching rows
    (chosen at random unless ``rows`` says), at random angles unless ``angle`` (radians)
    says."""
    places: list[tuple[float, float, float]] = []
    if (rng.random() < 0.5) if rows is None else rows:  # as on a rack or laid out
        if angle is None:
            angle = rng.uniform(-0.4, 0.4) if rng.random() < 0.7 else rng.uniform(-np.pi, np.pi)
        y = -span / 2 + TILE_H
        while len(places) < count and y < span / 2 - TILE_H / 2:
            x = -span / 2 + TILE_W + rng.uniform(0, span / 4)
            for _ in range(int(rng.integers(2, 7))):
                if len(places) == count or x > span / 2 - TILE_W:
                    break
                c, s = np.cos(angle), np.sin(angle)
                places.append((x * c - y * s, x * s + y * c, angle))
                x += TILE_W + rng.uniform(0, 1.0)
            y += TILE_H + rng.uniform(4, 25)
        return places
    tries = 0
    while len(places) < count and tries < 2000:
        tries += 1
        p = (rng.uniform(-span / 2 + 25, span / 2 - 25), rng.uniform(-span / 2 + 25,
                                                                     span / 2 - 25),
             rng.uniform(-np.pi, np.pi) if angle is None else angle)
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 1.05 * np.hypot(TILE_W, TILE_H)
               for q in places):
            places.append(p)
    return places


def _random_tiles(rng, count: int) -> list[Tile]:
    pool = [Tile(n, c) for n in range(1, 14) for c in COLOURS for _ in range(2)]
    pool += [JOKER, JOKER]
    return [pool[i] for i in rng.choice(len(pool), count, replace=False)]


def render_photo(rng, size: tuple[int, int] = (1000, 750), count: int | None = None,
                 tiles: list[Tile] | None = None, rows: bool | None = None,
                 angle: float | None = None, warm: float | None = None,
                 span: float | None = None) -> tuple[LabelledPhoto, np.ndarray]:
    """A synthetic photo (BGR uint8 of ``size`` width × height) and its exact labels.

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
    places = _layout(rng, count, span, rows, angle)
    side = np.array([rng.uniform(-1, 1), rng.uniform(0.5, 1.5)]) * 1.2  # visible bevel
    for tile, (x, y, a) in zip(tiles, places, strict=False):
        face = tile_face(tile, rng)
        hw, hh = TILE_W / 2, TILE_H / 2
        local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quad = ((local @ rot.T + (x, y)) * unit + res / 2).astype(np.float32)
        x0, y0 = np.maximum(np.floor(quad.min(axis=0) - 6 * unit).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + 6 * unit).astype(int), res)
        if x1 <= x0 or y1 <= y0:
            corners.append(quad)
            continue
        box = scene[y0:y1, x0:x1]
        q = quad - (x0, y0)
        shadow = np.zeros(box.shape[:2], np.float32)
        cv2.fillPoly(shadow, [np.round(q + side * unit * 2.5).astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), unit * 1.5)
        box *= (1 - 0.45 * shadow)[:, :, None]
        body = tuple(float(v) for v in face[5, 5] * 0.72)
        cv2.fillPoly(box, [np.round(q + side * unit).astype(np.int32)], body, cv2.LINE_AA)
        src = np.float32([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                          [0, face.shape[0]]])
        m = cv2.getPerspectiveTransform(src, q.astype(np.float32))
        box_size = (box.shape[1], box.shape[0])
        warped = cv2.warpPerspective(face, m, box_size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.ones(face.shape[:2], np.float32), m, box_size)
        box[:] = box * (1 - mask[:, :, None]) + warped * mask[:, :, None]
        corners.append(quad)
    return _photograph(rng, scene, tiles, corners, size, warm)


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


def _photograph(rng, scene: np.ndarray, tiles, corners, size,
                warm: float | None) -> tuple[LabelledPhoto, np.ndarray]:
    res = scene.shape[0]
    w, h = size
    hmat = camera(rng, res, size)
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
