"""Camera intrinsics and lens distortion from photos of a printed chessboard.

Each photo's inner corners are found and refined to sub-pixel accuracy; OpenCV's
``calibrateCamera`` fits the pinhole matrix and the distortion (k1, k2, p1, p2, k3).
The reprojection error says how well the model fits, and the photos' coverage of the
image says whether the corners of the view — where distortion is strongest — were
seen at all. Both are reported, with a warning when they are poor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import Camera
from rules.errors import KangleError
from rules.jsonfile import check_schema, read_json, write_json

SCHEMA = "kangle.camera/1"
MIN_PHOTOS = 5


@dataclass
class IntrinsicsReport:
    camera: Camera
    rms_px: float
    coverage: float  # share of a 6x6 grid of the image that corners fell in
    used: list[str]
    skipped: list[str]
    warnings: list[str] = field(default_factory=list)

    def save(self, path: str | Path) -> None:
        c = self.camera
        write_json(path, {"schema": SCHEMA, "matrix": c.matrix.tolist(), "dist": c.dist.tolist(),
                          "size": list(c.size), "rms_px": round(self.rms_px, 4),
                          "coverage": round(self.coverage, 3)})


def load_intrinsics(path: str | Path) -> Camera:
    data = read_json(path, "camera calibration")
    check_schema(data, SCHEMA, "camera calibration")
    try:
        return Camera(np.array(data["matrix"], float), np.array(data["dist"], float),
                      tuple(int(v) for v in data["size"]), np.zeros(3), np.zeros(3))
    except (KeyError, TypeError, ValueError) as exc:
        raise KangleError(f"{path} is damaged ({exc}): calibrate the camera again") from None


def default_intrinsics(size: tuple[int, int], fov_deg: float = 66.0) -> Camera:
    """A guess for an uncalibrated webcam: no distortion, a typical field of view."""
    w, h = size
    f = (w / 2) / np.tan(np.radians(fov_deg) / 2)
    return Camera(np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]]), np.zeros(5), (w, h),
                  np.zeros(3), np.zeros(3))


def calibrate_camera(photos: list[tuple[str, np.ndarray | str]], pattern: tuple[int, int],
                     square_mm: float) -> IntrinsicsReport:
    """``photos``: (name, image) pairs, the image in its place a message saying why it
    could not be read; ``pattern``: inner corners per row and column."""
    grid = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    grid[:, :2] = np.mgrid[0:pattern[0], 0:pattern[1]].T.reshape(-1, 2) * square_mm
    objects, points, used, skipped = [], [], [], []
    size = None
    for name, image in photos:
        if isinstance(image, str):
            skipped.append(image)
            continue
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        this = (grey.shape[1], grey.shape[0])
        if size and this != size:
            skipped.append(f"{name}: {this[0]}x{this[1]}, not {size[0]}x{size[1]}")
            continue
        found, corners = cv2.findChessboardCorners(
            grey, pattern, cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
        if not found:
            skipped.append(f"{name}: no {pattern[0]}x{pattern[1]} chessboard found")
            continue
        corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1),
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 1e-3))
        size = this
        objects.append(grid)
        points.append(corners)
        used.append(name)
    if len(used) < MIN_PHOTOS:
        raise KangleError(f"a chessboard was found in {len(used)} photo(s); at least "
                          f"{MIN_PHOTOS} are needed (" + "; ".join(skipped[:5]) + ")")
    rms, matrix, dist, _, _ = cv2.calibrateCamera(objects, points, size, None, None)
    camera = Camera(matrix, dist.ravel()[:5], size, np.zeros(3), np.zeros(3))
    cells = np.zeros((6, 6), bool)
    for pts in points:
        p = pts.reshape(-1, 2)
        cells[(p[:, 1] / size[1] * 6).astype(int).clip(0, 5),
              (p[:, 0] / size[0] * 6).astype(int).clip(0, 5)] = True
    report = IntrinsicsReport(camera, float(rms), float(cells.mean()), used, skipped)
    if rms > 1.0:
        report.warnings.append(f"the reprojection error is {rms:.2f} px (good is under 0.5): "
                               "use sharper photos of a flat chessboard")
    if report.coverage < 0.6:
        report.warnings.append(f"the photos cover {report.coverage:.0%} of the view: add photos "
                               "with the chessboard near the corners and edges")
    return report
