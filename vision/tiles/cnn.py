"""A small convolutional network run in numpy: the tile face classifier.

Trained offline with PyTorch (``vision/tiles/train_faces.py``) and shipped as an
``.npz`` of plain arrays, so kangle itself needs no deep-learning runtime. The layers:
three blocks of a 3 × 3 convolution (zero padding, stride 1), ReLU and 2 × 2 max
pooling, then a ReLU hidden layer and an output layer split into heads, each a softmax
over its own classes (the face's number and way up; the ink's colour). Images are (n, H, W, C)
float32, channels last; weights keep PyTorch's layout ((out, in, 3, 3) convolutions,
(out, in) linear layers) so the exporter copies them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

BATCH = 64  # images run through the layers at once (bounds the working memory)


@dataclass
class ConvNet:
    convs: list[tuple[np.ndarray, np.ndarray]]  # (out, in, 3, 3) weights, (out,) biases
    dense: list[tuple[np.ndarray, np.ndarray]]  # (out, in) weights, (out,) biases
    heads: tuple[tuple[str, ...], ...]  # each head's classes, in output order

    def probabilities(self, images: np.ndarray) -> list[np.ndarray]:
        """Each head's class probabilities, (n, n_classes), of images (n, H, W, C)."""
        images = np.asarray(images, np.float32)
        z = np.concatenate([self._forward(images[i:i + BATCH])
                            for i in range(0, len(images), BATCH)]
                           or [np.zeros((0, sum(map(len, self.heads))), np.float32)])
        out, start = [], 0
        for classes in self.heads:
            out.append(softmax(z[:, start:start + len(classes)]))
            start += len(classes)
        return out

    def _forward(self, x: np.ndarray) -> np.ndarray:
        for w, b in self.convs:
            x = _pool(np.maximum(_conv3(x, w) + b, 0.0))
        # PyTorch flattens (C, H, W); ours is (H, W, C)
        h = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
        for w, b in self.dense[:-1]:
            h = np.maximum(h @ w.T + b, 0.0)
        w, b = self.dense[-1]
        return h @ w.T + b  # every head's logits

    def save(self, path: Path) -> None:
        arrays = {f"head{i}": np.array(c) for i, c in enumerate(self.heads)}
        for i, (w, b) in enumerate(self.convs):
            arrays[f"conv{i}_w"], arrays[f"conv{i}_b"] = w, b
        for i, (w, b) in enumerate(self.dense):
            arrays[f"dense{i}_w"], arrays[f"dense{i}_b"] = w, b
        np.savez_compressed(path, **{k: v.astype(np.float32) if v.dtype.kind == "f" else v
                                     for k, v in arrays.items()})

    @classmethod
    def load(cls, path: Path) -> ConvNet:
        with np.load(path) as f:
            def layers(kind):
                n = sum(1 for k in f.files if k.startswith(kind) and k.endswith("_w"))
                return [(f[f"{kind}{i}_w"], f[f"{kind}{i}_b"]) for i in range(n)]
            heads = sum(1 for k in f.files if k.startswith("head"))
            return cls(layers("conv"), layers("dense"),
                       tuple(tuple(str(c) for c in f[f"head{i}"]) for i in range(heads)))


def _conv3(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """3 × 3 convolution (cross-correlation, as PyTorch's) with zero padding: (n, H, W,
    C) by (O, C, 3, 3) → (n, H, W, O), as one matrix product over the nine shifts."""
    n, h, wd, c = x.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.concatenate([p[:, i:i + h, j:j + wd, :] for i in range(3) for j in range(3)],
                          axis=3)  # (n, H, W, 9C), shift-major
    k = w.transpose(2, 3, 1, 0).reshape(9 * c, -1)  # (9C, O) in the same order
    return (cols.reshape(-1, 9 * c) @ k).reshape(n, h, wd, -1)


def _pool(x: np.ndarray) -> np.ndarray:
    """2 × 2 max pooling, stride 2, an odd last row or column dropped (as PyTorch)."""
    n, h, w, c = x.shape
    x = x[:, :h // 2 * 2, :w // 2 * 2]
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax of scores (n, k). Worked on the transpose: with few classes,
    numpy reduces across k rows many times faster than along n short rows."""
    t = np.array(z.T, dtype=np.result_type(z.dtype, np.float32))
    t -= t.max(axis=0)
    np.exp(t, out=t)
    t /= t.sum(axis=0)
    return t.T
