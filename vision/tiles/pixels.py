"""Per-pixel features for telling tile faces from their edges and the background.

A tile face is ivory: bright, a little yellow, and smooth; its outline is a thin dark
seam (between touching tiles) or a step to the background. The features describe
each pixel's colour (CIE Lab, absolute and relative to the whole photo), its
neighbourhood's colour and texture at three scales, and line-like structure (the
Hessian's eigenvalues), so a small classifier can learn faces on wood, cloth, marble
or a rack. A second look (``context``) adds what a first guess at the classes says
round each pixel. All images here are BGR ``uint8`` at the working scale.
"""

from __future__ import annotations

import cv2
import numpy as np

SCALES = (2.0, 5.0, 10.0)  # Gaussian sigmas, working-scale pixels
WORKING_SIDE = 800  # the longer side of the image the faces are found on, pixels
FEATURES = 7 + 5 * len(SCALES) + 3 * 2  # per pixel
CONTEXT = 3 + 3 * len(SCALES) + 2 + 2  # per pixel, from a first guess at its class


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk so its longer side is WORKING_SIDE, and the factor applied."""
    factor = WORKING_SIDE / max(image.shape[:2])
    if factor >= 1.0:
        return image, 1.0
    size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), factor


def _blur(x: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; from sigma 4 on it is done on the image at half size and enlarged
    again (the result differs by a fraction of a level, in a third of the time)."""
    if sigma < 4:
        return cv2.GaussianBlur(x, (0, 0), sigma)
    h, w = x.shape[:2]
    half = cv2.resize(x, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(half, (0, 0), sigma / 2), (w, h),
                      interpolation=cv2.INTER_LINEAR)


def features(image: np.ndarray) -> np.ndarray:
    """(H, W, F) float32 features of every pixel of a working-scale BGR image.

    Worked out plane by plane and interleaved once at the end (numpy is several times
    slower on one channel of an interleaved array than on a plane of its own)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)  # 8-bit Lab, rescaled:
    lab *= np.float32([100 / 255, 1, 1])  # L 0..100
    lab -= np.float32([0, 128, 128])  # a, b about 0
    channels = list(cv2.split(lab))
    lum = channels[0]
    typical = np.median(lab.reshape(-1, 3)[::7], axis=0)
    planes = [*channels, *(c - np.float32(m) for c, m in zip(channels, typical, strict=True)),
              lum / max(np.percentile(lum[::4, ::4], 99), 1.0)]
    for s in SCALES:
        blur = cv2.split(_blur(lab, s))
        mean_l = blur[0]
        planes += [*blur, np.sqrt(np.maximum(_blur(lum * lum, s) - mean_l * mean_l, 0)),
                   lum - mean_l]
    for s in (1.0, 2.5):
        smooth = cv2.GaussianBlur(lum, (0, 0), s)
        planes += [*_hessian_eigenvalues(smooth),
                   cv2.magnitude(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3),
                                 cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3))]
    return cv2.merge(planes)


def context(guess: np.ndarray) -> np.ndarray:
    """(H, W, CONTEXT) float32: what a first guess at every pixel's class (H, W, 3
    probabilities of background, face, edge) says round it — the guess, its averages
    at the three scales, whether the edge guess runs in a line (the Hessian's
    eigenvalues: a seam between tiles is a straight ridge), and the least and most
    face in a 7 × 7 window. A pixel among face is face though its own colour misled the
    first guess; a seam is a seam where it lines up with more seam."""
    planes = list(cv2.split(guess))
    for s in SCALES:
        planes += cv2.split(_blur(guess, s))
    planes += _hessian_eigenvalues(cv2.GaussianBlur(planes[2], (0, 0), 1.5))
    window = np.ones((7, 7), np.uint8)
    planes += [cv2.erode(planes[1], window), cv2.dilate(planes[1], window)]
    return cv2.merge(planes)


def _hessian_eigenvalues(smooth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The larger and smaller eigenvalue of a smoothed float32 image's Hessian at every
    pixel: a dark line has one large positive eigenvalue across it, a bright ridge one
    large negative."""
    dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
    dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
    dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
    half = np.sqrt(((dxx - dyy) / 2) ** 2 + dxy * dxy)
    mid = (dxx + dyy) / 2
    return mid + half, mid - half
