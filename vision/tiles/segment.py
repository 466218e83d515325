"""The pixel network: every pixel of a working-scale photo classed as table, tile face
or tile edge by a small convolutional network (``pixels.onnx``), run by OpenCV's
``dnn`` module — kangle needs no deep-learning runtime.

The network sees each pixel's colour, absolute and relative to the photo's typical
colour, and learns from its neighbourhood up to a sixteenth of the image away what a
per-pixel rule cannot: the side and shadow that outline a white tile on a white table,
the seam between two touching faces. Trained by ``vision.tiles.train_segment``.
Images here are BGR ``uint8`` at the working scale (``working_image``).
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

WORKING_SIDE = 800  # the longer side of the image the tiles are found on, pixels
STRIDE = 16  # the network halves the image four times: its sides must be multiples of this
CHANNELS = 6  # B, G, R in 0..1 less a half; and each less the photo's median, over 255


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk so its longer side is WORKING_SIDE, and the factor applied."""
    factor = WORKING_SIDE / max(image.shape[:2])
    if factor >= 1.0:
        return image, 1.0
    size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), factor


def typical_colour(image: np.ndarray) -> np.ndarray:
    """(3,) float32 the median B, G, R of a uint8 image (every seventh pixel), 0..1."""
    return np.median(image.reshape(-1, 3)[::7], axis=0).astype(np.float32) / 255.0


def net_input(image: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """(1, CHANNELS, H, W) float32 network input of a BGR uint8 image (H, W, 3), its
    colours also taken relative to ``typical`` (the whole photo's, ``typical_colour``)."""
    x = image.astype(np.float32) / 255.0
    planes = np.concatenate([x - 0.5, x - typical], axis=2)
    return np.ascontiguousarray(planes.transpose(2, 0, 1)[None])


class PixelNet:
    """The shipped network; ``probabilities`` classes a whole image. An OpenCV network
    holds its input and layers' outputs between ``setInput`` and ``forward``, so each
    thread that reads photos (the web station reads several at once) gets its own copy,
    loaded the first time it asks."""

    def __init__(self, path: Path):
        self.path = path
        self._local = threading.local()
        self._net()  # a missing or broken file is found now, not in the first reading

    def _net(self) -> cv2.dnn.Net:
        if not hasattr(self._local, "net"):
            self._local.net = cv2.dnn.readNetFromONNX(str(self.path))
        return self._local.net

    def probabilities(self, image: np.ndarray) -> np.ndarray:
        """(H, W, 3) float32 probabilities of table, face and edge for every pixel of a
        working-scale BGR image (padded by reflection to a multiple of STRIDE while
        the network looks, and cropped back)."""
        h, w = image.shape[:2]
        padded = cv2.copyMakeBorder(image, 0, -h % STRIDE, 0, -w % STRIDE,
                                    cv2.BORDER_REFLECT)
        net = self._net()
        net.setInput(net_input(padded, typical_colour(image)))
        out = net.forward()[0]
        return np.ascontiguousarray(out[:, :h, :w].transpose(1, 2, 0))
