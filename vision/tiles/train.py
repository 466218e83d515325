"""Train the tile reader's two models, offline, from labelled photos.

    python -m vision.tiles.train ../shared/data/rummikub-photos --splits train --synthetic 800

Reads the real photos of the splits named (``train/``; ``valid/`` is kept for tuning
unless named too; never ``test/``, which is held out for benchmarks/tiles.py) plus
synthetic photos from ``vision.tiles.render``, and writes the pixel classifier
(``pixels.npz``, an MLP) and the face network (``faces.npz``) to
``vision/tiles/models/``. The face network is fitted with PyTorch (the ``train``
extra; kangle itself never needs it). Deterministic: the same data and seed give the
same files. About half an hour on one core.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.tiles import find
from vision.tiles.face import balanced, ink, patch
from vision.tiles.labels import LabelledPhoto, read_split
from vision.tiles.mlp import MLP, train
from vision.tiles.model import COLOURS, FACE_CLASSES, MODELS, face_class
from vision.tiles.pixels import features, working_image
from vision.tiles.quads import covered, overlap
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
                 jitters: int = 4) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Face patches from one photo, each with its face class and colour (an index
    into COLOURS, or -1 for a joker or no tile): every labelled tile with jittered
    corners; every region the finder proposes (whole or cut) that matches a tile, as
    that tile; and every proposal that matches none — half tiles, background — or holds
    two tiles at once, as 'none'."""
    patches, faces, colours = [], [], []

    def add(corners, tile):
        p = patch(image, corners)
        patches.append(p)
        faces.append(FACE_CLASSES.index(face_class(tile, upright(p))))
        colours.append(COLOURS.index(tile.colour) if tile is not None and not tile.joker
                       else -1)

    boxes = []
    for t in photo.tiles:
        box = t.box
        boxes.append(box)
        add(box, t.tile)
        side = np.linalg.norm(box[1] - box[0]) + np.linalg.norm(box[2] - box[1])
        for _ in range(jitters):
            add(box + rng.normal(0, 0.03 * side, box.shape).astype(np.float32), t.tile)
    probs, factor = find.pixel_classes(image, pixel_model)
    found, merges = find.regions(probs)
    nodes = [n for r in found for n in r.tree() if n.tile_like]
    nodes += [m.region for m in merges if m.region.tile_like]
    for i in rng.permutation(len(nodes))[:200]:
        corners = nodes[i].corners(factor)
        scores = [overlap(corners, b) for b in boxes]
        best = int(np.argmax(scores)) if scores else -1
        if best >= 0 and scores[best] >= 0.6:
            add(corners, photo.tiles[best].tile)
        elif (not scores or scores[best] < 0.3
              or sum(covered(corners, b) >= 0.5 for b in boxes) >= 2):  # two tiles at once
            add(corners, None)
    return patches, faces, colours


def samples(photos, load, pixel_model: MLP, rng, cache: Path | None):
    """Face patches (n, H, W, 3) uint8 with their face and colour indices, from every
    photo — or from ``cache`` when it exists (it is written when it does not)."""
    if cache is not None and cache.exists():
        with np.load(cache) as f:
            return f["patches"], f["faces"], f["colours"]
    patches, faces, colours = [], [], []
    for n, e in enumerate(photos):
        if n % 100 == 0:
            print(f"  photo {n} of {len(photos)}", file=sys.stderr)
        a, b, c = face_samples(*load(e), pixel_model, rng)
        patches += a
        faces += b
        colours += c
    out = np.array(patches), np.array(faces), np.array(colours)
    if cache is not None:
        np.savez(cache, patches=out[0], faces=out[1], colours=out[2])
    return out


def _problem(args) -> str | None:
    """What stops training before it starts (and before half an hour of sampling)."""
    if importlib.util.find_spec("torch") is None:
        return ("the face network is fitted with PyTorch, which is not installed here: "
                "pip install -e '.[train]' (in a separate environment is fine)")
    for split in args.splits:
        if not (args.data / split / "images").is_dir():
            return f"no {split}/images folder in {args.data} (a YOLO data set's split)"
    if args.pixels and not args.pixels.is_file():
        return f"no pixel model at {args.pixels}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="folder with train/ and valid/ splits")
    ap.add_argument("--synthetic", type=int, default=800, help="synthetic photos to add")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--samples", type=Path, help="cache of the face patches (.npz): "
                    "read when it exists, else written; the pixel model must match")
    ap.add_argument("--pixels", type=Path, help="use this pixel model instead of training one")
    ap.add_argument("--epochs", type=int, default=15, help="face network epochs")
    ap.add_argument("--splits", nargs="+", default=["train"],
                    help="real splits to learn from (train only, to measure on valid)")
    args = ap.parse_args(argv)
    problem = _problem(args)
    if problem:
        print(f"vision.tiles.train: {problem}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    photos = [(p, None) for s in args.splits for p in read_split(args.data / s)]
    photos += [(None, i) for i in range(args.synthetic)]

    def load(entry):
        photo, i = entry
        if photo is not None:
            return photo, cv2.imread(str(photo.image))
        return render_photo(np.random.default_rng(10_000 + i))

    args.out.mkdir(parents=True, exist_ok=True)
    if args.pixels:
        pixels = MLP.load(args.pixels)
    else:
        print(f"{len(photos)} photos; pixel samples…", file=sys.stderr)
        xs, ys = zip(*(pixel_samples(*load(e), rng) for e in photos), strict=False)
        pixels = train(np.concatenate(xs), np.concatenate(ys),
                       ("background", "face", "edge"), (32, 32), epochs=15, seed=args.seed)
    pixels.save(args.out / "pixels.npz")
    print("face samples…", file=sys.stderr)
    patches, faces, colours = samples(photos, load, pixels, rng, args.samples)
    from vision.tiles.train_faces import train as train_faces  # PyTorch, checked above

    net = train_faces(ink(patches), faces, colours, FACE_CLASSES, COLOURS, epochs=args.epochs,
                      seed=args.seed, log=lambda s: print(s, file=sys.stderr))
    net.save(args.out / "faces.npz")
    print(f"wrote {args.out}: {len(faces)} face samples, {(colours >= 0).sum()} with a colour",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
