"""Train the tile reader's three small classifiers, offline, from labelled photos.

    python -m vision.tiles.train ../shared/data/rummikub-photos [--synthetic 600]

Reads the ``train/`` and ``valid/`` splits (never ``test/``, which is held out for
benchmarks/tiles.py) plus synthetic photos from ``vision.tiles.render`` and writes
``vision/tiles/models/{pixels,faces,colours}.npz``. Deterministic: the same data and
seed give the same files. About fifteen minutes on one core.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.tiles import find
from vision.tiles.face import balanced, colour_features, number_features, patch
from vision.tiles.labels import LabelledPhoto, overlap, read_split
from vision.tiles.mlp import MLP, train
from vision.tiles.model import COLOURS, FACE_CLASSES, MODELS, face_class
from vision.tiles.pixels import features, working_image
from vision.tiles.render import render_photo

PIXELS_PER_CLASS = (1500, 1500, 1000)  # background, face, edge samples per photo


def pixel_samples(photo: LabelledPhoto, image: np.ndarray, rng) -> tuple[np.ndarray, ...]:
    small, factor = working_image(image)
    label = np.zeros(small.shape[:2], np.uint8)
    polys = [np.round(t.polygon * factor).astype(np.int32) for t in photo.tiles]
    if polys:
        cv2.fillPoly(label, polys, 1)
        cv2.polylines(label, polys, True, 2, 3)
    f = features(small)
    f = f.reshape(-1, f.shape[2])
    xs, ys = [], []
    for c, n in enumerate(PIXELS_PER_CLASS):
        idx = np.flatnonzero(label.ravel() == c)
        if len(idx):
            pick = rng.choice(idx, min(n, len(idx)), replace=False)
            xs.append(f[pick])
            ys.append(np.full(len(pick), c))
    return np.concatenate(xs), np.concatenate(ys)


def upright(p: np.ndarray) -> bool:
    """Whether a labelled tile's patch is upright: its strong ink (the number, not
    the faint logo) lies in the upper half."""
    ink = np.clip(1.0 - balanced(p).min(axis=2) - 0.35, 0, None)
    if ink.sum() == 0:
        return True
    rows = np.arange(p.shape[0])
    return float((ink.sum(axis=1) * rows).sum() / ink.sum()) < p.shape[0] / 2


def face_samples(photo: LabelledPhoto, image: np.ndarray, pixel_model: MLP, rng,
                 jitters: int = 3):
    """Number samples (features, class) and colour samples from one photo: every
    labelled tile in both orientations with jittered corners; every region the finder
    proposes (whole or cut) that matches a tile, as that tile; and every proposal that
    matches none — half tiles, pairs, background — as 'none'."""
    nx, ny, cx, cy = [], [], [], []

    def add(corners, tile):
        p = patch(image, corners)
        up = upright(p)
        for flipped in (False, True):
            q = p if not flipped else p[::-1, ::-1]
            nx.append(number_features([q])[0])
            ny.append(FACE_CLASSES.index(face_class(tile, up != flipped)))
        if tile is not None and not tile.joker:
            cx.append(colour_features(p))
            cy.append(COLOURS.index(tile.colour))

    boxes = []
    for t in photo.tiles:
        box = t.box
        boxes.append(box)
        add(box, t.tile)
        side = np.linalg.norm(box[1] - box[0]) + np.linalg.norm(box[2] - box[1])
        for _ in range(jitters):
            add(box + rng.normal(0, 0.025 * side, box.shape).astype(np.float32), t.tile)
    probs, factor = find.pixel_classes(image, pixel_model)
    nodes = [n for r in find.regions(probs) for n in r.tree() if n.tile_like]
    for i in rng.permutation(len(nodes))[:200]:
        corners = nodes[i].corners(factor)
        scores = [overlap(corners, b) for b in boxes]
        best = int(np.argmax(scores)) if scores else -1
        if best >= 0 and scores[best] >= 0.6:
            add(corners, photo.tiles[best].tile)
        elif not scores or scores[best] < 0.3:
            add(corners, None)
    return nx, ny, cx, cy


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="folder with train/ and valid/ splits")
    ap.add_argument("--synthetic", type=int, default=600, help="synthetic photos to add")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    photos = [(p, None) for s in ("train", "valid") for p in read_split(args.data / s)]
    photos += [(None, i) for i in range(args.synthetic)]

    def load(entry):
        photo, i = entry
        if photo is not None:
            return photo, cv2.imread(str(photo.image))
        return render_photo(np.random.default_rng(10_000 + i))

    print(f"{len(photos)} photos; pixel samples…", file=sys.stderr)
    xs, ys = zip(*(pixel_samples(*load(e), rng) for e in photos), strict=False)
    pixels = train(np.concatenate(xs), np.concatenate(ys), ("background", "face", "edge"),
                   (32, 32), epochs=15, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    pixels.save(args.out / "pixels.npz")
    print("face samples…", file=sys.stderr)
    nx, ny, cx, cy = [], [], [], []
    for e in photos:
        a, b, c, d = face_samples(*load(e), pixels, rng)
        nx += a
        ny += b
        cx += c
        cy += d
    faces = train(np.array(nx), np.array(ny), FACE_CLASSES, (128,), epochs=40,
                  seed=args.seed, log=lambda s: print(s, file=sys.stderr))
    faces.save(args.out / "faces.npz")
    colours = train(np.array(cx), np.array(cy), COLOURS, (16,), epochs=40, seed=args.seed)
    colours.save(args.out / "colours.npz")
    print(f"wrote {args.out}: {len(nx)} face and {len(cx)} colour samples", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
