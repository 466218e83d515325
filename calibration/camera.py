"""The pinhole camera with lens distortion, posed over the board.

Board frame: millimetres, origin at the board centre, x right, y towards black, z up
from the playing surface towards the camera. ``rvec``/``tvec`` take board points into
the camera frame (OpenCV's convention); pixels are (u, v) with v downwards.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    matrix: np.ndarray  # 3x3 intrinsics, pixels
    dist: np.ndarray  # k1, k2, p1, p2, k3
    size: tuple[int, int]  # image width, height in pixels
    rvec: np.ndarray  # board -> camera rotation (Rodrigues), 3
    tvec: np.ndarray  # board -> camera translation, mm, 3

    @classmethod
    def looking_down(cls, size=(1280, 720), fov_deg=70.0, height_mm=1100.0, tilt_deg=0.0,
                     yaw_deg=0.0, shift_mm=(0.0, 0.0), dist=(0, 0, 0, 0, 0)) -> Camera:
        """A camera ``height_mm`` above the board, aimed at the board centre (moved by
        ``shift_mm``) from ``tilt_deg`` off vertical on red's side, black's side at the
        top of the image, turned ``yaw_deg`` about the vertical."""
        w, h = size
        f = (w / 2) / np.tan(np.radians(fov_deg) / 2)
        matrix = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], dtype=float)
        target = np.array([shift_mm[0], shift_mm[1], 0.0])
        back = height_mm * np.tan(np.radians(tilt_deg))
        yaw = np.radians(yaw_deg)
        up = np.array([-np.sin(yaw), np.cos(yaw), 0.0])
        centre = target + np.array([0.0, 0.0, height_mm]) - back * up
        z = target - centre
        z /= np.linalg.norm(z)
        y = -(up - up.dot(z) * z)
        y /= np.linalg.norm(y)
        x = np.cross(y, z)
        rotation = np.vstack([x, y, z])
        tvec = -rotation @ centre
        return cls(matrix, np.array(dist, dtype=float), size,
                   cv2.Rodrigues(rotation)[0].ravel(), tvec)

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, dtype=float))[0]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Board points (N x 3, mm) to pixels (N x 2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(pts, np.asarray(self.rvec, float), np.asarray(self.tvec, float),
                                   self.matrix, self.dist)
        return out.reshape(-1, 2)

    def to_board(self, pixels: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Pixels (N x 2) to board points (N x 2, mm) on the plane at height ``z`` mm."""
        pix = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(pix, self.matrix, self.dist).reshape(-1, 2)
        rays = np.column_stack([norm, np.ones(len(norm))]) @ self.rotation  # R^T d, per row
        centre = -self.rotation.T @ np.asarray(self.tvec, float)
        s = (z - centre[2]) / rays[:, 2]
        return centre[:2] + rays[:, :2] * s[:, None]

    def plane_homography(self, z: float = 0.0) -> np.ndarray:
        """The homography from board (x, y) mm on the plane at height z to undistorted
        pixels."""
        r = self.rotation
        t = np.asarray(self.tvec, float) + r[:, 2] * z
        return self.matrix @ np.column_stack([r[:, 0], r[:, 1], t])
