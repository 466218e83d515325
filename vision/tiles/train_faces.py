"""Train the tile face network (``cnn.ConvNet``) with PyTorch, offline.

Called by ``vision.tiles.train``; PyTorch is needed only here, never when kangle runs
(``pip install torch==2.13.0``, the ``train`` extra). The network sees a face patch's
ink (``face.ink``) and names its face class and its ink's colour. Each epoch shows
every sample once, with fresh augmentation: half of them turned upside down (and
their class with them), the ink's contrast and level changed, noise, sometimes a
little blur, and a shift of up to two pixels. Deterministic for a seed on one thread;
on a GPU everything an epoch draws is drawn there, from a generator of its own.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from vision.tiles.cnn import ConvNet

WIDTHS = (16, 32, 64)  # channels of the three convolution blocks
HIDDEN = 128


def _network(shape: tuple[int, int, int], n_classes: int) -> nn.Sequential:
    h, w, c = shape
    layers, ins = [], c
    for out in WIDTHS:
        layers += [nn.Conv2d(ins, out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
        ins, h, w = out, h // 2, w // 2
    layers += [nn.Flatten(), nn.Dropout(0.3), nn.Linear(ins * h * w, HIDDEN), nn.ReLU(),
               nn.Dropout(0.3), nn.Linear(HIDDEN, n_classes)]
    return nn.Sequential(*layers)


def _augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """(n, C, H, W) ink images, each a little changed; drawn from ``g``, which lives on
    the images' device."""
    n, on = len(x), x.device
    gain = 0.7 + 0.6 * torch.rand(n, 1, 1, 1, generator=g, device=on)
    x = x * gain + 0.05 * torch.randn(n, 1, 1, 1, generator=g, device=on)
    x = x + 0.03 * torch.randn(x.shape, generator=g, device=on)
    dy, dx = torch.randint(-2, 3, (2,), generator=g, device=on).tolist()
    x = torch.roll(x, (dy, dx), dims=(2, 3))
    if torch.rand(1, generator=g, device=on).item() < 0.3:
        k = torch.tensor([0.25, 0.5, 0.25], device=on)
        k = (k[:, None] * k[None, :]).expand(x.shape[1], 1, 3, 3)
        x = nn.functional.conv2d(x, k, padding=1, groups=x.shape[1])
    return x.clamp(0, 1)


def _turned(name: str, classes: tuple[str, ...]) -> int:
    """The class of a face class seen upside down ("7^" ↔ "7v"; "none" stays)."""
    way = {"^": "v", "v": "^"}.get(name[-1])
    return classes.index(name[:-1] + way) if way else classes.index(name)


def train(images: np.ndarray, faces: np.ndarray, colours: np.ndarray,
          classes: tuple[str, ...], colour_names: tuple[str, ...], epochs: int = 12,
          seed: int = 0, device: str = "cpu", log=None) -> ConvNet:
    """Fit the network to images (n, H, W, C) float32 in 0..1: its first head to the
    face classes ``faces`` (indices into ``classes``), its second to the ink colours
    ``colours`` (indices into ``colour_names``; -1 where there is no coloured number,
    which that head then does not learn from). Fitted on ``device`` (the CPU, one
    thread: deterministic; or a GPU, "cuda": deterministic up to the order of its
    floating-point sums). On a GPU the samples are held there and the order, the turns
    and the augmentation are drawn there too: drawn on one CPU thread they kept an H200
    waiting (33 s an epoch of 196,405 samples, session 31)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.from_numpy(np.ascontiguousarray(images.transpose(0, 3, 1, 2))).to(device)
    y = torch.from_numpy(faces.astype(np.int64)).to(device)
    yc = torch.from_numpy(colours.astype(np.int64)).to(device)
    n_faces = len(classes)
    net = _network(images.shape[1:], n_faces + len(colour_names)).to(device)
    flip = torch.tensor([_turned(c, classes) for c in classes], device=device)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((len(x) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    # summed over the patches with a coloured number and divided by their count (at
    # least one): a batch with none (a joker or "none" alone at an epoch's end) adds
    # nothing, where the mean would be 0 / 0
    colour_loss = nn.CrossEntropyLoss(label_smoothing=0.02, ignore_index=-1, reduction="sum")
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=g, device=device)
        total = right = 0.0
        for i in range(0, len(x), 128):
            idx = order[i:i + 128]
            xb, yb = x[idx], y[idx]
            turn = torch.rand(len(idx), generator=g, device=device) < 0.5  # half upside down
            xb = torch.where(turn[:, None, None, None], xb.flip(2, 3), xb)
            yb = torch.where(turn, flip[yb], yb)
            out = net(_augment(xb, g))
            loss = (loss_fn(out[:, :n_faces], yb)
                    + colour_loss(out[:, n_faces:], yc[idx]) / (yc[idx] >= 0).sum().clamp(min=1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            right += (out[:, :n_faces].argmax(1) == yb).sum().item()
        if log:
            log(f"faces epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}, "
                f"face accuracy in training {right / len(x):.4f}")
    net.eval().cpu()
    convs = [m for m in net if isinstance(m, nn.Conv2d)]
    dense = [m for m in net if isinstance(m, nn.Linear)]
    return ConvNet([(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in convs],
                   [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in dense],
                   (tuple(classes), tuple(colour_names)))
