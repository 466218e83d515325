"""Labelled tile photos in the YOLO segmentation layout (``images/``, ``labels/``).

Each label line is ``class x1 y1 x2 y2 …`` with coordinates normalised to the image
and the class named in the data set's ``data.yaml`` (``red_7``, ``joker``…). Used to
train and measure the tile reader on real photos.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.errors import KangleError
from rules.games.rummitiles import JOKER, Tile


@dataclass(frozen=True)
class LabelledTile:
    tile: Tile
    polygon: np.ndarray  # (k, 2) image pixels, x right, y down

    @property
    def box(self) -> np.ndarray:
        """(4, 2) corners of the smallest rotated rectangle around the polygon."""
        return cv2.boxPoints(cv2.minAreaRect(self.polygon.astype(np.float32)))


@dataclass(frozen=True)
class LabelledPhoto:
    image: Path | None  # None for a synthetic photo
    tiles: tuple[LabelledTile, ...]

    def pixel_classes(self, shape: tuple[int, ...], factor: float) -> np.ndarray:
        """(H, W) uint8 true class of every pixel of the photo scaled by ``factor`` to
        ``shape``: 0 table, 1 tile face, 2 tile edge (a band 3 pixels wide along each
        tile's outline) — what the pixel network learns to say."""
        label = np.zeros(shape[:2], np.uint8)
        polys = [np.round(t.polygon * factor).astype(np.int32) for t in self.tiles]
        if polys:
            cv2.fillPoly(label, polys, 1)
            cv2.polylines(label, polys, True, 2, 3)
        return label


def class_names(data_yaml: Path) -> list[str]:
    """The ``names:`` list of a YOLO ``data.yaml`` (one ``- name`` per line)."""
    names, inside = [], False
    for line in data_yaml.read_text().splitlines():
        if line.startswith("names:"):
            inside = True
        elif inside and line.startswith("- "):
            names.append(line[2:].strip())
        elif inside and line and not line.startswith(" "):
            inside = False
    return names


def tile_of(name: str) -> Tile:
    """``red_7`` → red 7; ``yellow_5`` → orange 5; ``joker`` → the joker."""
    if name == "joker":
        return JOKER
    colour, _, number = name.partition("_")
    colour = "orange" if colour == "yellow" else colour
    return Tile(int(number), colour)


def read_split(folder: Path) -> list[LabelledPhoto]:
    """Every photo of one split (``train/``, ``valid/``…) with its labelled tiles; the
    class names come from ``data.yaml`` in the split's folder or the one above it."""
    yaml = folder / "data.yaml"
    names = class_names(yaml if yaml.exists() else folder.parent / "data.yaml")
    photos = []
    for image in sorted((folder / "images").glob("*.jpg")):
        label = folder / "labels" / (image.stem + ".txt")
        shape = cv2.imread(str(image), cv2.IMREAD_GRAYSCALE).shape
        size = (shape[1], shape[0])
        tiles = []
        for n, line in enumerate(label.read_text().splitlines() if label.exists() else []):
            v = line.split()
            if not v:
                continue
            if len(v) < 7 or len(v) % 2 == 0:
                raise KangleError(f"{label}:{n + 1}: a label is a class and a polygon")
            poly = np.array(v[1:], float).reshape(-1, 2) * size
            tiles.append(LabelledTile(tile_of(names[int(v[0])]), poly))
        photos.append(LabelledPhoto(image, tuple(tiles)))
    return photos
