"""A small multilayer perceptron in numpy: trained offline, shipped as an ``.npz`` file.

Two uses in tile reading: a per-pixel classifier (tile face / tile edge / background)
and the tile face classifier (number and orientation). Both are small enough that
numpy alone runs them on the CPU in milliseconds, so kangle needs no deep-learning
runtime. Inputs are standardised with the training set's mean and spread, stored with
the weights; hidden layers are ReLU, the output a softmax over the classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

CHUNK = 4096  # rows worked at once by MLP.probabilities


@dataclass
class MLP:
    mean: np.ndarray  # (n_in,) training-set feature mean
    scale: np.ndarray  # (n_in,) training-set feature spread
    weights: list[np.ndarray]  # (n_in, h1), (h1, h2), ..., (h_k, n_classes)
    biases: list[np.ndarray]
    classes: tuple[str, ...]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities, shape (n, n_classes), for feature rows ``x`` (n, n_in).
        Worked CHUNK rows at a time, so that a chunk's hidden layers stay in the CPU's
        cache (a photo's pixels give hundreds of thousands of rows)."""
        weights, biases = self._layers
        out = []
        for start in range(0, max(len(x), 1), CHUNK):  # no rows: one empty chunk
            h = np.asarray(x[start:start + CHUNK], np.float32)
            for w, b in zip(weights[:-1], biases[:-1], strict=True):
                h = np.maximum(h @ w + b, 0.0)
            out.append(softmax(h @ weights[-1] + biases[-1]))
        return np.concatenate(out)

    @cached_property
    def _layers(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The layers with the inputs' standardisation folded into the first one:
        ((x - mean) / scale) @ w + b = x @ (w / scale) + (b - (mean / scale) @ w)."""
        w0 = self.weights[0] / self.scale[:, None]
        b0 = self.biases[0] - (self.mean / self.scale) @ self.weights[0]
        return ([w0.astype(np.float32), *self.weights[1:]],
                [b0.astype(np.float32), *self.biases[1:]])

    def save(self, path: Path) -> None:
        arrays = {"mean": self.mean, "scale": self.scale,
                  "classes": np.array(self.classes)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=False)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> MLP:
        with np.load(path) as f:
            n = sum(1 for k in f.files if k.startswith("w"))
            return cls(f["mean"], f["scale"], [f[f"w{i}"] for i in range(n)],
                       [f[f"b{i}"] for i in range(n)], tuple(str(c) for c in f["classes"]))


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax of scores (n, k). Worked on the transpose: with few classes,
    numpy reduces across k rows many times faster than along n short rows."""
    t = np.array(z.T, dtype=np.result_type(z.dtype, np.float32))
    t -= t.max(axis=0)
    np.exp(t, out=t)
    t /= t.sum(axis=0)
    return t.T


def train(x: np.ndarray, y: np.ndarray, classes: tuple[str, ...], hidden: tuple[int, ...],
          epochs: int = 30, batch: int = 256, rate: float = 1e-3, decay: float = 1e-4,
          seed: int = 0, weight: np.ndarray | None = None, log=None) -> MLP:
    """Fit an MLP to rows ``x`` and integer labels ``y`` with Adam on cross-entropy.

    ``weight`` (optional, per row) weighs each example's loss; ``decay`` is the L2
    penalty. Deterministic for a given ``seed``.
    """
    rng = np.random.default_rng(seed)
    x = np.asarray(x, np.float32)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    xs = (x - mean) / scale
    sizes = (x.shape[1], *hidden, len(classes))
    ws = [rng.normal(0, np.sqrt(2.0 / a), (a, b)).astype(np.float32)
          for a, b in zip(sizes[:-1], sizes[1:], strict=False)]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    wt = np.ones(len(x), np.float32) if weight is None else np.asarray(weight, np.float32)
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        lr = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine schedule
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            acts = [xs[idx]]
            for w, b in zip(ws[:-1], bs[:-1], strict=False):
                acts.append(np.maximum(acts[-1] @ w + b, 0.0))
            p = softmax(acts[-1] @ ws[-1] + bs[-1])
            k = wt[idx] / wt[idx].sum()
            total += float(-(np.log(p[np.arange(len(idx)), y[idx]] + 1e-9) * k).sum())
            g = p
            g[np.arange(len(idx)), y[idx]] -= 1.0
            g *= k[:, None]
            gw, gb = [None] * len(ws), [None] * len(bs)
            for i in range(len(ws) - 1, -1, -1):
                gw[i] = acts[i].T @ g + decay * ws[i]
                gb[i] = g.sum(axis=0)
                if i:
                    g = (g @ ws[i].T) * (acts[i] > 0)
            step += 1
            for j, (p_, g_) in enumerate(zip(params, gw + gb, strict=False)):
                m[j] = 0.9 * m[j] + 0.1 * g_
                v[j] = 0.999 * v[j] + 0.001 * g_ * g_
                p_ -= lr * (m[j] / (1 - 0.9 ** step)) / (np.sqrt(v[j] / (1 - 0.999 ** step)) + 1e-8)
        if log:
            log(f"epoch {epoch + 1}/{epochs}: loss {total / max(1, len(x) // batch):.4f}")
    return MLP(mean, scale, ws, bs, tuple(classes))
