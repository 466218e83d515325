"""Train the tile reader's models, offline, from labelled photos.

    python -m vision.tiles.train ../shared/data/rummikub-photos --splits train --synthetic 800 \
        --world 1200

Reads the real photos of the splits named (``train/``; ``valid/`` is kept for tuning
unless named too; never ``test/``, which is held out for benchmarks/tiles.py) plus
synthetic photos from ``vision.tiles.render``, and writes the pixel classifier's two
MLPs (``pixels.npz``, ``pixels_context.npz``) and the face network (``faces.npz``) to
``vision/tiles/models/``. The face network is fitted with PyTorch (the ``train``
extra; kangle itself never needs it). Deterministic: the same data and seed give the
same files. About a hundred minutes on one core.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.tiles import find
from vision.tiles.face import balanced, ink, patch, tall_order
from vision.tiles.labels import LabelledPhoto, read_split
from vision.tiles.mlp import MLP, train
from vision.tiles.model import COLOURS, FACE_CLASSES, MODELS, face_class
from vision.tiles.pixels import context, features, working_image
from vision.tiles.quads import covered, overlap
from vision.tiles.render import render_photo, render_world

PIXEL_CLASSES = ("background", "face", "edge")
PIXELS_PER_CLASS = (1500, 1500, 1000)  # background, face, edge samples per photo
SECOND_PER_CLASS = 600  # the same for the second look (each class), among unsure pixels
REAL_WEIGHT = 4  # a real photo gives this many times the second-look samples of a rendered


def _classes(photo: LabelledPhoto, shape: tuple[int, ...], factor: float) -> np.ndarray:
    """(H, W) uint8 true class of every working-scale pixel: 0 background, 1 face,
    2 edge (a band 3 pixels wide along each tile's outline)."""
    label = np.zeros(shape[:2], np.uint8)
    polys = [np.round(t.polygon * factor).astype(np.int32) for t in photo.tiles]
    if polys:
        cv2.fillPoly(label, polys, 1)
        cv2.polylines(label, polys, True, 2, 3)
    return label


def _pick(label: np.ndarray, where: np.ndarray, per_class, rng) -> tuple[tuple, np.ndarray]:
    """Up to ``per_class`` random pixels of each class among ``where``: their (ys, xs)
    and classes."""
    ys, xs, cs = [], [], []
    for c, n in enumerate(per_class):
        y, x = np.nonzero((label == c) & where)
        pick = rng.choice(len(y), min(n, len(y)), replace=False)
        ys.append(y[pick])
        xs.append(x[pick])
        cs.append(np.full(len(pick), c))
    return (np.concatenate(ys), np.concatenate(xs)), np.concatenate(cs)


def pixel_samples(photo: LabelledPhoto, image: np.ndarray, rng) -> tuple[np.ndarray, ...]:
    """Feature rows and classes of pixels of one photo, for the first pixel MLP."""
    small, factor = working_image(image)
    label = _classes(photo, small.shape, factor)
    at, y = _pick(label, np.ones(label.shape, bool), PIXELS_PER_CLASS, rng)
    return features(small)[at], y


def second_samples(photo: LabelledPhoto, image: np.ndarray, first: MLP, rng,
                   per_class: int = SECOND_PER_CLASS) -> tuple[np.ndarray, ...]:
    """Rows and classes for the second pixel MLP, among the pixels it will be asked
    about: those the first leaves unsure."""
    small, factor = working_image(image)
    label = _classes(photo, small.shape, factor)
    f = features(small)
    guess = find.first_guess(f, first)
    at, y = _pick(label, find.unsure(guess), (per_class,) * 3, rng)
    return find.second_inputs(f, context(guess), at), y


def upright(p: np.ndarray) -> bool:
    """Whether a labelled tile's patch is upright: its strong ink (the number, not
    the faint logo) lies in the upper half."""
    ink = np.clip(1.0 - balanced(p).min(axis=2) - 0.35, 0, None)
    if ink.sum() == 0:
        return True
    rows = np.arange(p.shape[0])
    return float((ink.sum(axis=1) * rows).sum() / ink.sum()) < p.shape[0] / 2


def _cut(image: np.ndarray, corners: np.ndarray, label) -> tuple[np.ndarray, bool]:
    """A labelled tile's patch as the reader cuts it from ``corners``, and whether it is
    upright. A rendered tile's label goes round its face from its top left, so its way
    up is known: the patch is cut along it (across, for a face so foreshortened that it
    looks wider than tall) and the class is exact. A real photo's label is a box, so the
    way up comes from where the strong ink lies (``upright``)."""
    if label is None or len(label.polygon) != 4:
        p = patch(image, corners)
        return p, upright(p)
    q = label.polygon
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    for turned in (False, True):
        c = tall_order(corners, turned)
        seen = (c[0] + c[1]) / 2 - (c[3] + c[2]) / 2
        cos = float(seen @ up) / max(float(np.linalg.norm(seen) * np.linalg.norm(up)), 1e-9)
        if abs(cos) > 0.7:
            return patch(image, corners, turned), cos > 0
    p = patch(image, corners)
    return p, upright(p)


def face_samples(photo: LabelledPhoto, image: np.ndarray,
                 pixel_model: find.PixelClassifier, rng,
                 jitters: int = 4) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Face patches from one photo, each with its face class and colour (an index
    into COLOURS, or -1 for a joker or no tile): every labelled tile with jittered
    corners; every region the finder proposes (whole or cut) that matches a tile, as
    that tile; and every proposal that matches none — half tiles, background — or holds
    two tiles at once, as 'none'."""
    patches, faces, colours = [], [], []
    synthetic = photo.image is None

    def add(corners, labelled):
        tile = labelled.tile if labelled is not None else None
        p, up = _cut(image, corners, labelled if synthetic else None)
        patches.append(p)
        faces.append(FACE_CLASSES.index(face_class(tile, up)))
        colours.append(COLOURS.index(tile.colour) if tile is not None and not tile.joker
                       else -1)

    boxes = []
    for t in photo.tiles:
        box = t.box
        boxes.append(box)
        add(box, t)
        side = np.linalg.norm(box[1] - box[0]) + np.linalg.norm(box[2] - box[1])
        for _ in range(jitters):
            add(box + rng.normal(0, 0.03 * side, box.shape).astype(np.float32), t)
    probs, factor = find.pixel_classes(image, pixel_model)
    found, merges = find.regions(probs)
    nodes = [n for r in found for n in r.tree() if n.tile_like]
    nodes += [m.region for m in merges if m.region.tile_like]
    for i in rng.permutation(len(nodes))[:200]:
        corners = nodes[i].corners(factor)
        scores = [overlap(corners, b) for b in boxes]
        best = int(np.argmax(scores)) if scores else -1
        if best >= 0 and scores[best] >= 0.6:
            add(corners, photo.tiles[best])
        elif (not scores or scores[best] < 0.3
              or sum(covered(corners, b) >= 0.5 for b in boxes) >= 2):  # two tiles at once
            add(corners, None)
    return patches, faces, colours


def samples(photos, load, pixel_model: find.PixelClassifier, rng, cache: Path | None):
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
    for given in (args.pixels, args.context):
        if given and not given.is_file():
            return f"no pixel model at {given}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="folder with train/ and valid/ splits")
    ap.add_argument("--synthetic", type=int, default=1600,
                    help="synthetic photos of the classic edition to add")
    ap.add_argument("--world", type=int, default=0,
                    help="synthetic photos of random editions (training typefaces and jokers "
                         "only) in every scene: flat on any table, racks from above and front")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--samples", type=Path, help="cache of the face patches (.npz): "
                    "read when it exists, else written; the pixel model must match")
    ap.add_argument("--pixels", type=Path,
                    help="use this first pixel MLP (pixels.npz) instead of training one")
    ap.add_argument("--context", type=Path, help="use this second-look pixel MLP "
                    "(pixels_context.npz) instead of training one; it must match --pixels")
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
    photos += [(None, -1 - i) for i in range(args.world)]

    def load(entry):
        photo, i = entry
        if photo is not None:
            return photo, cv2.imread(str(photo.image))
        if i < 0:  # seeds 20,000 on: apart from the classic ones and every benchmark's
            return render_world(np.random.default_rng(20_000 - 1 - i))[:2]
        return render_photo(np.random.default_rng(10_000 + i))

    args.out.mkdir(parents=True, exist_ok=True)
    if args.pixels:
        first = MLP.load(args.pixels)
    else:
        print(f"{len(photos)} photos; pixel samples…", file=sys.stderr)
        xs, ys = zip(*(pixel_samples(*load(e), rng) for e in photos), strict=True)
        first = train(np.concatenate(xs), np.concatenate(ys), PIXEL_CLASSES, (32, 32),
                      epochs=15, seed=args.seed)
    first.save(args.out / "pixels.npz")
    if args.context:
        second = MLP.load(args.context)
    else:
        print("second-look pixel samples…", file=sys.stderr)
        xs, ys = zip(*(second_samples(*load(e), first, rng, SECOND_PER_CLASS
                                      * (REAL_WEIGHT if e[0] is not None else 1))
                       for e in photos), strict=True)
        second = train(np.concatenate(xs), np.concatenate(ys), PIXEL_CLASSES, (32, 32),
                       epochs=15, seed=args.seed)
    second.save(args.out / "pixels_context.npz")
    pixels = find.PixelClassifier(first, second)
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
