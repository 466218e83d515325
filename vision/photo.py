"""The one checked way kangle opens a picture: a file on disk, or the bytes a phone
uploaded. Missing, a folder, empty, not an image, absurdly large (checked from its
header before decoding), truncated or too small: each gets its own message
(KangleError, exit 2)."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from rules.errors import KangleError

MAX_PIXELS = 100_000_000  # a 100-megapixel photo is beyond any phone or webcam
MAX_BYTES = 60_000_000  # no photo of that size takes more as a file
MIN_SIDE = 32  # pixels: nothing kangle looks for fits in less
BIG_PHOTO = 6_000_000  # pixels above which a phone photo of tiles is decoded at half size


def read_image(path: str, halve_above: int | None = None) -> tuple[np.ndarray, float]:
    """The image (BGR) in the file at ``path`` and the factor from its pixels to the
    file's (``decode_image``)."""
    file = Path(path)
    if not file.exists():
        raise KangleError(f"{path} does not exist")
    if not file.is_file():
        raise KangleError(f"{path} is not a file")
    if file.stat().st_size > MAX_BYTES:
        raise KangleError(f"{path} is larger than {MAX_BYTES // 1_000_000} MB: no photo is")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise KangleError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_image(data, str(path), halve_above)


def decode_image(data: bytes, name: str, halve_above: int | None = None
                 ) -> tuple[np.ndarray, float]:
    """The image (BGR) in ``data`` (named ``name`` in messages) and the factor from its
    pixels to the file's. A picture of more than ``halve_above`` pixels is decoded at half
    size (a 12-megapixel phone photo decodes four times faster so)."""
    if not data:
        raise KangleError(f"{name} is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise KangleError(f"{name} is larger than {MAX_BYTES // 1_000_000} MB: no photo is")
    try:
        with Image.open(io.BytesIO(data)) as header:  # reads the size only
            width, height = header.size
            kind = header.format
    except (OSError, ValueError, Image.DecompressionBombError):
        width = height = kind = None  # not an image PIL knows: OpenCV may still read it
    if _truncated(data, kind):
        raise KangleError(f"{name} is truncated (the {kind} file ends before the picture "
                          "does): copy it again from the camera or phone")
    if width is not None and width * height > MAX_PIXELS:
        raise KangleError(f"{name} is {width}x{height} pixels, more than "
                          f"{MAX_PIXELS // 1_000_000} megapixels: resize it first")
    halve = halve_above is not None and width is not None and width * height > halve_above
    image = cv2.imdecode(np.frombuffer(data, np.uint8),
                         cv2.IMREAD_REDUCED_COLOR_2 if halve else cv2.IMREAD_COLOR)
    if image is None:
        what = "truncated or damaged" if width is not None else "not an image kangle can read"
        raise KangleError(f"{name} is {what} (PNG, JPEG, …)")
    if min(image.shape[:2]) < MIN_SIDE:
        raise KangleError(f"{name} is {image.shape[1]}x{image.shape[0]} pixels: too small to "
                          f"find anything in (at least {MIN_SIDE} on each side)")
    return image, (max(width, height) / max(image.shape[:2]) if halve else 1.0)


def _truncated(data: bytes, kind: str | None) -> bool:
    """Whether a JPEG or PNG stops before its end marker (a copy cut short, which OpenCV
    would decode with its bottom part grey)."""
    if kind not in ("JPEG", "PNG"):
        return False
    return (b"\xff\xd9" if kind == "JPEG" else b"IEND") not in data[-64:]
