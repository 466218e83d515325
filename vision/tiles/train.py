"""Train the tile reader's face network, offline, from labelled photos.

    python -m vision.tiles.train ../shared/data/rummikub-photos --splits train --synthetic 800 \
        --world 1200

Reads the real photos of the splits named (``train/``; ``valid/`` is kept for tuning
unless named too; never ``test/``, which is held out for benchmarks/tiles.py) plus
synthetic photos from ``vision.tiles.render``; cuts out every labelled tile and every
candidate the finder proposes with the pixel network given (``--pixels``, trained by
``vision.tiles.train_segment``), and writes the face network (``faces.npz``), with a
copy of that pixel network, to ``--out``. Fitted with PyTorch (the ``train`` extra;
kangle itself never needs it). Deterministic: the same data and seed give the same
files.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision.tiles import find
from vision.tiles.face import balanced, ink, patch, tall_order
from vision.tiles.labels import LabelledPhoto, read_split
from vision.tiles.model import COLOURS, FACE_CLASSES, MODELS, face_class
from vision.tiles.quads import covered, overlap
from vision.tiles.render import render_photo, render_world
from vision.tiles.segment import PixelNet

JOKER_JITTERS = 3  # times as many jittered cuts of a joker: 2 tiles in 106, worth 30 each
JOKER_SET = 20  # jokers in the set a joker-rich training photo's tiles are drawn from
HALF = (0.35, 0.65)  # where a tile is cut in two across its width, as a fraction of it


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


def halves(tile, synthetic: bool, rng) -> tuple[np.ndarray, np.ndarray]:
    """The two parts of a labelled tile cut along its length, somewhere in the middle
    third of its width: each shows part of the number at most (one digit of a 12, half
    a 7), so each is 'not a tile'. The finder proposes such parts where a seam it
    imagined runs down a bold two-digit number, and a part reading surely as a "1"
    would be counted as a tile. A rendered tile's label goes round its face from the
    top left, so its width is known even where the rack's view foreshortens the face
    to look wider than tall; a real photo's label is a box, its short side the width."""
    q = tile.polygon.astype(np.float32) if synthetic and len(tile.polygon) == 4 \
        else tall_order(tile.box)
    f = rng.uniform(*HALF)
    top, bottom = q[0] + f * (q[1] - q[0]), q[3] + f * (q[2] - q[3])
    return np.array([q[0], top, bottom, q[3]]), np.array([top, q[1], q[2], bottom])


def face_samples(photo: LabelledPhoto, image: np.ndarray,
                 pixel_model: PixelNet, rng,
                 jitters: int = 4) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Face patches from one photo, each with its face class and colour (an index
    into COLOURS, or -1 for a joker or no tile): every labelled tile with jittered
    corners, and its two halves (``halves``) as 'none'; every region the finder
    proposes (whole or cut) that matches a tile, as that tile; and every proposal that
    matches none — half tiles, background — or holds two tiles at once, as 'none'. A
    joker is cut JOKER_JITTERS times as often (it is rare, and a hand that misses it is
    30 points out)."""
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
        for _ in range(jitters * (JOKER_JITTERS if t.tile.joker else 1)):
            add(box + rng.normal(0, 0.03 * side, box.shape).astype(np.float32), t)
        for part in halves(t, synthetic, rng):
            add(part, None)
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


_WORKER: dict = {}  # what a sampling process keeps: the pixel network and the seed


def _start_worker(pixels: Path, seed: int) -> None:
    cv2.setNumThreads(1)
    _WORKER.update(net=PixelNet(pixels), seed=seed)


def training_photos(data: Path, splits: list[str], synthetic: int, world: int,
                    jokers: int = 0) -> list[tuple[str, object]]:
    """What both networks learn from, as (kind, key) entries for ``load_photo``: the real
    photos of the splits named (``real``, the LabelledPhoto), ``synthetic`` rendered
    photos of the classic edition, ``world`` of random editions in every scene and
    ``jokers`` more of those drawn from a set with JOKER_SET jokers (each a new
    edition, half of them with a joker picture of their own: the face network learns
    that a picture on a tile, not only the ones it was shown, is a joker)."""
    photos: list[tuple[str, object]] = [("real", p) for s in splits
                                         for p in read_split(data / s)]
    photos += [("classic", i) for i in range(synthetic)]
    photos += [("world", i) for i in range(world)]
    return photos + [("jokers", i) for i in range(jokers)]


def load_photo(entry: tuple[str, object]) -> tuple[LabelledPhoto, np.ndarray]:
    """A training photo and its image, by its ``training_photos`` entry: a real one, or
    a rendered one by its number — the classic edition (seeds 10,000 on), random
    editions in every scene (seeds 20,000 on) and those rich in jokers (seeds 50,000
    on), training typefaces and jokers only: apart from each other and every
    benchmark's."""
    kind, key = entry
    if kind == "real":
        return key, cv2.imread(str(key.image))
    if kind == "world":
        return render_world(np.random.default_rng(20_000 + key))[:2]
    if kind == "jokers":
        return render_world(np.random.default_rng(50_000 + key), jokers=JOKER_SET)[:2]
    return render_photo(np.random.default_rng(10_000 + key))


def _photo_samples(job: tuple[int, tuple]) -> tuple[list, list, list]:
    n, entry = job
    rng = np.random.default_rng((_WORKER["seed"], n))  # the same in any process
    return face_samples(*load_photo(entry), _WORKER["net"], rng)


def samples(photos, pixels: Path, seed: int, workers: int, cache: Path | None):
    """Face patches (n, H, W, 3) uint8 with their face and colour indices, from every
    photo (``workers`` processes cut them, each photo with its own random generator, so
    the samples are the same however many) — or from ``cache`` when it exists (it is
    written when it does not)."""
    if cache is not None and cache.exists():
        with np.load(cache) as f:
            return f["patches"], f["faces"], f["colours"]
    patches, faces, colours = [], [], []
    with Pool(workers, initializer=_start_worker, initargs=(pixels, seed)) as pool:
        for n, (a, b, c) in enumerate(pool.imap(_photo_samples, enumerate(photos),
                                                chunksize=4)):
            if n % 100 == 0:
                print(f"  photo {n} of {len(photos)}", file=sys.stderr)
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
    if not args.pixels.is_file():
        return f"no pixel network at {args.pixels} (python -m vision.tiles.train_segment)"
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
    ap.add_argument("--jokers", type=int, default=0,
                    help=f"more such photos, their tiles drawn from a set with {JOKER_SET} "
                         "jokers (each a new edition: more joker pictures to learn from; "
                         "tried in session 36, not used for the shipped models)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--samples", type=Path, help="cache of the face patches (.npz): "
                    "read when it exists, else written; the pixel network must match")
    ap.add_argument("--pixels", type=Path, default=MODELS / "pixels.onnx",
                    help="the pixel network that proposes candidates (pixels.onnx)")
    ap.add_argument("--epochs", type=int, default=15, help="face network epochs")
    ap.add_argument("--workers", type=int, default=2, help="processes that cut samples")
    ap.add_argument("--device", default="cpu",
                    help="where PyTorch fits the face network (cpu, or cuda on a GPU)")
    ap.add_argument("--splits", nargs="+", default=["train"],
                    help="real splits to learn from (train only, to measure on valid)")
    args = ap.parse_args(argv)
    problem = _problem(args)
    if problem:
        print(f"vision.tiles.train: {problem}", file=sys.stderr)
        return 2
    photos = training_photos(args.data, args.splits, args.synthetic, args.world,
                             args.jokers)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.pixels.resolve() != (args.out / "pixels.onnx").resolve():
        shutil.copyfile(args.pixels, args.out / "pixels.onnx")
    print(f"face samples from {len(photos)} photos…", file=sys.stderr)
    patches, faces, colours = samples(photos, args.pixels, args.seed, args.workers,
                                      args.samples)
    from vision.tiles.train_faces import train as train_faces  # PyTorch, checked above

    net = train_faces(ink(patches), faces, colours, FACE_CLASSES, COLOURS, epochs=args.epochs,
                      seed=args.seed, device=args.device,
                      log=lambda s: print(s, file=sys.stderr))
    net.save(args.out / "faces.npz")
    print(f"wrote {args.out}: {len(faces)} face samples, {(colours >= 0).sum()} with a colour",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
