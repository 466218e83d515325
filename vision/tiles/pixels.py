"""Per-pixel features for telling tile faces from their edges and the background.

A tile face is ivory: bright, a little yellow, and smooth; its outline is a thin dark
seam (between touching tiles) or a step to the background. The features describe
each pixel's colour (CIE Lab, absolute and relative to the whole photo), its
neighbourhood's colour and texture at three scales, and line-like structure (the
Hessian's eigenvalues), so a small classifier can learn faces on wood, cloth, marble
or a rack. All images here are BGR ``uint8`` at the working scale.
"""

from __future__ import annotations

import cv2
import numpy as np

SCALES = (2.0, 5.0, 10.0)  # Gaussian sigmas, working-scale pixels
WORKING_SIDE = 800  # the longer side of the image the faces are found on, pixels


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk so its longer side is WORKING_SIDE, and the factor applied."""
    factor = WORKING_SIDE / max(image.shape[:2])
    if factor >= 1.0:
        return image, 1.0
    size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), factor


def features(image: np.ndarray) -> np.ndarray:
    """(H, W, F) float32 features of every pixel of a working-scale BGR image."""
    lab = cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    lum = lab[:, :, 0]
    medians = np.median(lab.reshape(-1, 3)[::7], axis=0)
    bright = np.percentile(lum[::4, ::4], 99)
    chans = [lab, lab - medians, (lum / max(bright, 1.0))[:, :, None]]
    for s in SCALES:
        blur = cv2.GaussianBlur(lab, (0, 0), s)
        mean_l = blur[:, :, 0]
        var = cv2.GaussianBlur(lum * lum, (0, 0), s) - mean_l * mean_l
        chans += [blur, np.sqrt(np.maximum(var, 0))[:, :, None], (lum - mean_l)[:, :, None]]
    for s in (1.0, 2.5):
        smooth = cv2.GaussianBlur(lum, (0, 0), s)
        dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
        dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
        dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
        half = np.sqrt(((dxx - dyy) / 2) ** 2 + dxy * dxy)
        mid = (dxx + dyy) / 2
        gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
        chans += [(mid + half)[:, :, None], (mid - half)[:, :, None],
                  np.sqrt(gx * gx + gy * gy)[:, :, None]]
    return np.concatenate(chans, axis=2).astype(np.float32)
