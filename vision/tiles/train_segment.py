"""Train the tile reader's pixel network (``segment.PixelNet``) with PyTorch, offline.

    python -m vision.tiles.train_segment ../shared/data/rummikub-photos --splits train \
        --synthetic 1000 --world 4500 --epochs 30 --workers 2 --out /tmp/m

The network classes every pixel of the working-scale image (``segment.working_image``)
as table, tile face or tile edge (a band 3 pixels wide along each tile's outline, as
``labels.LabelledPhoto.pixel_classes`` draws it). It learns from the real photos of the
splits named (``valid/`` is kept for tuning; ``test/`` is never read) and from rendered
photos of the classic edition and of random editions in every scene — those of
``train.load_photo``, which the face network learns from too, apart from every
benchmark's and the tuning photos'. ``--workers`` processes read and render the
photos; fitting runs on a GPU when there is one (``--device``) and on the CPU
otherwise. Written to ``--out``: ``pixels.onnx`` (run by OpenCV's ``dnn`` module;
kangle needs no PyTorch) and the weights as ``pixels_net.pt``. Deterministic on the
CPU for a seed; on a GPU up to the order of its floating-point sums.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

try:
    import torch
    from torch import nn
except ImportError:  # kangle never needs PyTorch; training it does
    print("vision.tiles.train_segment: PyTorch is not installed here: "
          "pip install -e '.[train]' (in a separate environment is fine)", file=sys.stderr)
    sys.exit(2)

from vision.tiles.segment import STRIDE, typical_colour, working_image
from vision.tiles.train import load_photo, training_photos

CROP = 320  # training crops, working pixels (a multiple of STRIDE)
CLASS_WEIGHTS = (1.0, 1.0, 3.0)  # table, face, edge: an edge band is thin, and a seam matters
REAL_REPEAT = 6  # a real photo is shown this many times as often as a rendered one


def _conv(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


class Net(nn.Module):
    """A small encoder-decoder: down to 1/16 of the image (a tile's whole face and its
    neighbours in view), back up by nearest-neighbour enlargement with each scale's
    features added (a feature pyramid), and a last look at full resolution, where a
    seam between touching tiles is a line two or three pixels wide."""

    def __init__(self):
        super().__init__()
        self.stem = _conv(6, 12)
        self.down = nn.ModuleList([
            nn.Sequential(_conv(12, 24, 2)),
            nn.Sequential(_conv(24, 32, 2), _conv(32, 32)),
            nn.Sequential(_conv(32, 64, 2), _conv(64, 64)),
            nn.Sequential(_conv(64, 96, 2), _conv(96, 96)),
        ])
        self.top = nn.Conv2d(96, 48, 1)
        self.lateral = nn.ModuleList([nn.Conv2d(c, w, 1)
                                      for c, w in ((64, 48), (32, 32), (24, 16), (12, 8))])
        self.reduce = nn.ModuleList([nn.Conv2d(a, b, 1) for a, b in ((48, 32), (32, 16),
                                                                       (16, 8))])
        self.smooth = nn.ModuleList([_conv(w, w) for w in (48, 32, 16, 8)])
        self.head = nn.Conv2d(8, 3, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = [self.stem(x)]
        for block in self.down:
            skips.append(block(skips[-1]))
        h = self.top(skips[-1])
        for i, skip in enumerate(reversed(skips[:-1])):
            h = self.smooth[i](self.up(h) + self.lateral[i](skip))
            if i < len(self.reduce):
                h = self.reduce[i](h)
        return self.head(h)


class Exported(nn.Module):
    """The network as shipped: probabilities (softmax over the classes)."""

    def __init__(self, net: Net):
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


def _one_thread() -> None:
    """A rendering process works alone: as many of them as cores, none with threads."""
    cv2.setNumThreads(1)


def _labelled(entry) -> tuple[np.ndarray, np.ndarray]:
    """A training photo at working scale and its true pixel classes."""
    photo, image = load_photo(entry)
    small, factor = working_image(image)
    return small, photo.pixel_classes(small.shape, factor)


def gather(data: Path, splits: list[str], synthetic: int, world: int, workers: int,
           log) -> tuple[list[np.ndarray], list[np.ndarray], list[bool]]:
    """Working-scale images, their classes, and whether each is real."""
    photos = training_photos(data, splits, synthetic, world)
    with Pool(workers, initializer=_one_thread) as pool:
        images, labels = zip(*pool.map(_labelled, photos, chunksize=8), strict=True)
    log(f"{len(photos)} photos read or rendered")
    return list(images), list(labels), [kind == "real" for kind, _ in photos]


def _padded(image: np.ndarray, label: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both padded (image by reflection, label as table) to at least CROP each way."""
    h, w = label.shape
    dy, dx = max(CROP - h, 0), max(CROP - w, 0)
    if dy or dx:
        image = cv2.copyMakeBorder(image, 0, dy, 0, dx, cv2.BORDER_REFLECT)
        label = cv2.copyMakeBorder(label, 0, dy, 0, dx, cv2.BORDER_CONSTANT, value=0)
    return image, label


class Crops(torch.utils.data.Dataset):
    """One epoch's training crops: CROP × CROP of the photos ``picks``, each turned by a
    random multiple of 90° and maybe mirrored, its light and colour changed, sometimes
    blurred, noisy or JPEG-compressed. Crop ``i`` draws from a generator seeded by
    (seed, epoch, i), so an epoch is the same however many processes make it."""

    def __init__(self, images, labels, typical, picks, seed: int, epoch: int):
        self.images, self.labels, self.typical = images, labels, typical
        self.picks, self.seed, self.epoch = picks, seed, epoch

    def __len__(self) -> int:
        return len(self.picks)

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng((self.seed, self.epoch, i))
        image, label = _padded(self.images[self.picks[i]], self.labels[self.picks[i]])
        h, w = label.shape
        y0, x0 = rng.integers(0, h - CROP + 1), rng.integers(0, w - CROP + 1)
        im = image[y0:y0 + CROP, x0:x0 + CROP].astype(np.float32)
        lb = label[y0:y0 + CROP, x0:x0 + CROP]
        turns = int(rng.integers(4))
        im, lb = np.rot90(im, turns), np.rot90(lb, turns)
        if rng.random() < 0.5:
            im, lb = im[:, ::-1], lb[:, ::-1]
        gain, offset = rng.uniform(0.6, 1.3) * rng.uniform(0.85, 1.15, 3), rng.uniform(-25, 25)
        im = im * gain + offset
        typical = np.clip(self.typical[self.picks[i]] * gain + offset / 255, 0, 1)
        if rng.random() < 0.3:
            im = cv2.GaussianBlur(np.ascontiguousarray(im), (0, 0), rng.uniform(0.5, 1.5))
        if rng.random() < 0.3:
            im = im + rng.normal(0, rng.uniform(2, 8), im.shape)
        im = np.ascontiguousarray(np.clip(im, 0, 255).astype(np.uint8))
        if rng.random() < 0.3:
            _, code = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY,
                                               int(rng.integers(40, 90))])
            im = cv2.imdecode(code, cv2.IMREAD_COLOR)
        return im, typical.astype(np.float32), np.ascontiguousarray(lb).astype(np.int64)


def _inputs(im: torch.Tensor, typical: torch.Tensor) -> torch.Tensor:
    """``segment.net_input`` of a batch, on the device: (n, H, W, 3) uint8 crops and
    (n, 3) typical colours → (n, CHANNELS, H, W) float32."""
    x = im.permute(0, 3, 1, 2).float() / 255.0
    return torch.cat([x - 0.5, x - typical[:, :, None, None]], dim=1)


def fit(images, labels, real, epochs: int, batch: int, device: str, workers: int,
        seed: int, log, checkpoint: Path) -> Net:
    """Fit the network: every epoch shows each rendered photo once and each real one
    REAL_REPEAT times, as one random crop. The weights are saved to ``checkpoint``
    after every epoch."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net().to(device)
    typical = [typical_colour(image) for image in images]  # each whole photo's
    order = np.concatenate([np.repeat(np.flatnonzero(real), REAL_REPEAT),
                            np.flatnonzero(~np.asarray(real))])
    steps = epochs * (len(order) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS, device=device))
    for epoch in range(epochs):
        net.train()
        crops = Crops(images, labels, typical, rng.permutation(order), seed, epoch)
        loader = torch.utils.data.DataLoader(
            crops, batch_size=batch, drop_last=True, num_workers=workers,
            worker_init_fn=lambda _: _one_thread(),
            multiprocessing_context="fork" if workers else None)
        total = right = seen = 0.0
        start = time.monotonic()
        for im, typ, y in loader:
            x, y = _inputs(im.to(device), typ.to(device)), y.to(device)
            out = net(x)
            loss = loss_fn(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(x)
            right += (out.argmax(1) == y).float().mean().item() * len(x)
            seen += len(x)
        log(f"pixels epoch {epoch + 1}/{epochs}: loss {total / seen:.4f}, pixel accuracy "
            f"{right / seen:.4f} ({time.monotonic() - start:.0f} s)")
        torch.save(net.state_dict(), checkpoint)
    return net.eval().cpu()


def export(net: Net, path: Path) -> None:
    """Write the network as ONNX for OpenCV's dnn module (any image size that is a
    multiple of STRIDE)."""
    x = torch.zeros(1, 6, 4 * STRIDE, 5 * STRIDE)
    torch.onnx.export(Exported(net), (x,), str(path), input_names=["image"],
                      output_names=["classes"], opset_version=13, dynamo=False,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "classes": {2: "h", 3: "w"}})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="folder with train/ and valid/ splits")
    ap.add_argument("--splits", nargs="+", default=["train"])
    ap.add_argument("--synthetic", type=int, default=1000,
                    help="rendered photos of the classic edition")
    ap.add_argument("--world", type=int, default=4500,
                    help="rendered photos of random editions in every scene")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--workers", type=int, default=2, help="processes that render")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    problem = next((f"no {split}/images folder in {args.data} (a YOLO data set's split)"
                    for split in args.splits if not (args.data / split / "images").is_dir()),
                   None)
    if importlib.util.find_spec("onnx") is None:  # found now, not after hours of fitting
        problem = "onnx, which writes the network's file, is not installed: " \
                  "pip install -e '.[train]'"
    if problem:
        print(f"vision.tiles.train_segment: {problem}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)

    def log(s):
        print(s, file=sys.stderr, flush=True)

    if args.device == "cpu":
        torch.set_num_threads(max(args.workers, 1))
    images, labels, real = gather(args.data, args.splits, args.synthetic, args.world,
                                  args.workers, log)
    net = fit(images, labels, real, args.epochs, args.batch, args.device, args.workers,
              args.seed, log, args.out / "pixels_net.pt")
    export(net, args.out / "pixels.onnx")
    log(f"wrote {args.out / 'pixels.onnx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
