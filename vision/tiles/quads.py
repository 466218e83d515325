"""How much two convex quadrilaterals (tile outlines, (4, 2) x, y in pixels) overlap."""

from __future__ import annotations

import cv2
import numpy as np


def _areas(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Areas of two convex quadrilaterals (pixels²) and of their intersection."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return cv2.contourArea(a), cv2.contourArea(b), inter


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals (pixels)."""
    area_a, area_b, inter = _areas(a, b)
    union = area_a + area_b - inter
    return float(inter / union) if union > 0 else 0.0


def covered(a: np.ndarray, b: np.ndarray) -> float:
    """The share of convex quadrilateral ``b`` that lies inside ``a``."""
    _, area_b, inter = _areas(a, b)
    return float(inter / area_b) if area_b > 0 else 0.0
