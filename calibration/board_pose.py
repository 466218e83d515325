"""Finding the board in a frame: its pose, and the map between pixels and millimetres.

The playing surface is the largest bright region of the frame; its outline, with the
lens undone, is a quadrilateral whose sides are fitted as straight lines and
intersected for sub-pixel corners. The four holes (dark discs just inside the
corners) add four more points. ``cv2.solvePnP`` on these eight points gives the
pose; the residual says, in millimetres on the board, how well they agree.

Orientation: a square board looks the same turned by 90°, so the corner at the
bottom left of the image is taken as SW (red's side at the bottom) unless the
set-up frame says otherwise (see calibration.colour).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import Camera
from rules.board import Board
from rules.errors import KangleError


@dataclass(frozen=True)
class Pose:
    camera: Camera  # intrinsics plus the board pose found
    residual_mm: float  # RMS disagreement of the 8 reference points, mm on the board
    corners_px: np.ndarray  # surface corners SW, SE, NE, NW in the frame, pixels


def check_frame(image: np.ndarray) -> None:
    """Refuse frames nobody can find a board in, saying why."""
    if image is None or image.size == 0:
        raise KangleError("the frame is empty: check the camera or the file")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    mean = float(grey.mean())
    if mean < 12:
        raise KangleError("the frame is black: is the lens covered or the room dark?")
    if mean > 245 or float((grey > 250).mean()) > 0.6:
        raise KangleError("the frame is saturated: lower the camera's exposure")


def find_board(image: np.ndarray, camera: Camera, board: Board, use_holes: bool = True) -> Pose:
    """The board's pose in ``image`` for a camera whose intrinsics are known (its pose
    fields are ignored). The holes refine it only where the board matches the profile
    (``use_holes``); a board about to be measured is posed on its corners alone.
    Raises KangleError when no board is in view."""
    check_frame(image)
    h, w = image.shape[:2]
    if (w, h) != tuple(camera.size):
        raise KangleError(f"the frame is {w}x{h} but the camera calibration is for "
                          f"{camera.size[0]}x{camera.size[1]}: calibrate this camera mode")
    undist = cv2.undistort(image, camera.matrix, camera.dist)
    pose = _pose(undist, camera, board, use_holes, drop_arms=False)
    if pose.residual_mm > 3.0:  # perhaps an arm over the cushion: try again without it
        try:
            second = _pose(undist, camera, board, use_holes, drop_arms=True)
        except KangleError:
            return pose
        return second if second.residual_mm < pose.residual_mm else pose
    return pose


def _pose(undist: np.ndarray, camera: Camera, board: Board, use_holes: bool,
          drop_arms: bool) -> Pose:
    corners = _surface_corners(undist, drop_arms)
    hb = board.half - board.hole_inset
    square = [(-board.half, -board.half), (board.half, -board.half), (board.half, board.half),
              (-board.half, board.half)]
    first = _solve(square, list(corners), camera)
    obj, img_pts = list(square), list(corners)
    # a hole joins the fit only where the profile puts it (a real board's may differ)
    holes = _holes(undist, corners, board) if use_holes else [None] * 4
    for (sx, sy), hole in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), holes, strict=True):
        if hole is None:
            continue
        at = _ideal(camera, first).to_board(np.array([hole]))[0]
        if np.hypot(at[0] - sx * hb, at[1] - sy * hb) < 3.0:
            obj.append((sx * hb, sy * hb))
            img_pts.append(hole)
    rvec, tvec = _solve(obj, img_pts, camera, first)
    posed = Camera(camera.matrix, camera.dist, camera.size, rvec, tvec)
    back = _ideal(camera, (rvec, tvec)).to_board(np.array(img_pts))
    residual = float(np.sqrt(np.mean(np.sum((back - np.array(obj)) ** 2, axis=1))))
    distorted = posed.project(np.column_stack([np.array(square), np.zeros(4)]))
    return Pose(posed, residual, distorted)


def _solve(obj, img_pts, camera: Camera, guess=None) -> tuple[np.ndarray, np.ndarray]:
    """Pose from board points (mm, on the surface) and undistorted pixels."""
    obj3 = np.array([(x, y, 0.0) for x, y in obj])
    pts = np.array(img_pts, dtype=np.float64)
    if guess is None:
        ok, rvec, tvec = cv2.solvePnP(obj3, pts, camera.matrix, None, flags=cv2.SOLVEPNP_IPPE)
    else:
        ok, rvec, tvec = cv2.solvePnP(obj3, pts, camera.matrix, None, guess[0].copy(),
                                      guess[1].copy(), True, cv2.SOLVEPNP_ITERATIVE)
    if not ok:
        raise KangleError("found an outline but could not fit the board's pose to it")
    return rvec.ravel(), tvec.ravel()


def _ideal(camera: Camera, pose) -> Camera:
    """The camera with its lens undone (for points found on the undistorted frame)."""
    return Camera(camera.matrix, np.zeros(5), camera.size, pose[0], pose[1])


def pose_from_corners(corners_px: np.ndarray, camera: Camera, board: Board) -> Pose:
    """The pose from the four surface corners clicked by hand (SW, SE, NE, NW, pixels in
    the frame as taken): the fallback when the board cannot be found automatically."""
    pts = np.asarray(corners_px, dtype=np.float64).reshape(4, 1, 2)
    if len({tuple(np.round(p[0])) for p in pts}) < 4:
        raise KangleError("the four corners must be four different points")
    ideal = cv2.undistortPoints(pts, camera.matrix, camera.dist, P=camera.matrix).reshape(4, 2)
    obj = np.array([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)], float) * [board.half,
                                                                               board.half, 1]
    ok, rvec, tvec = cv2.solvePnP(obj, ideal, camera.matrix, None,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise KangleError("those four points do not fit a square board: click the corners of "
                          "the playing surface in the order SW, SE, NE, NW")
    posed = Camera(camera.matrix, camera.dist, camera.size, rvec.ravel(), tvec.ravel())
    back = Camera(camera.matrix, np.zeros(5), camera.size, rvec.ravel(), tvec.ravel()
                  ).to_board(ideal)
    residual = float(np.sqrt(np.mean(np.sum((back - obj[:, :2]) ** 2, axis=1))))
    return Pose(posed, residual, np.asarray(corners_px, float).reshape(4, 2))


def _surface_corners(undist: np.ndarray, drop_arms: bool = False) -> np.ndarray:
    """Corners SW, SE, NE, NW (image bottom-left first, anticlockwise on the board) of
    the largest bright quadrilateral. ``drop_arms``: an arm reaching over the cushion
    joins the bright region; opening with a kernel wider than an arm removes it, and
    only the outline points on what remains are used."""
    grey = cv2.GaussianBlur(cv2.cvtColor(undist, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise KangleError("no board in view: no bright playing surface found")
    outline = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(outline)
    if area < 0.05 * grey.size:
        raise KangleError("no board in view: the brightest region is too small to be the "
                          "playing surface")
    if drop_arms:
        region = np.zeros_like(bright)
        cv2.drawContours(region, [outline], -1, 255, -1)
        k = max(15, int(np.sqrt(area) * 0.12)) | 1
        body = cv2.dilate(cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)),
                          np.ones((9, 9), np.uint8))
        outline = outline[body[outline[:, 0, 1], outline[:, 0, 0]] > 0]
    hull = cv2.convexHull(outline)
    quad = None
    for eps in np.linspace(0.01, 0.08, 15):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.8 * area:
        raise KangleError("no board in view: the playing surface's outline is not a "
                          "quadrilateral (is part of it outside the frame?)")
    points = outline.reshape(-1, 2).astype(np.float64)
    h, w = grey.shape
    inside = ((points[:, 0] > 2) & (points[:, 0] < w - 3) & (points[:, 1] > 2) &
              (points[:, 1] < h - 3))  # the frame's border is no edge of the board
    if inside.mean() < 0.5:
        raise KangleError("no board in view: the bright region runs off the frame — is the "
                          "whole playing surface in the picture?")
    quad = _refine(points[inside], quad)
    u, v = quad[:, 0], quad[:, 1]
    order = [np.argmin(u - v), np.argmax(u + v), np.argmax(u - v), np.argmin(u + v)]
    if len(set(order)) != 4:
        raise KangleError("the board is turned too far in the image to tell its corners apart")
    return quad[order]  # SW (bottom left), SE, NE, NW


def _refine(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Fit a straight line to the outline points along each side — only those lying on
    the side's outer line (pieces against the cushion bite into the bright region and
    are left out), away from the corners and holes — and intersect neighbouring lines."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        u = d / length
        n = np.array([-u[1], u[0]])
        rel = points - a
        t = rel @ u
        off = rel @ n
        outer = off.min() if off.mean() > 0 else off.max()  # the hull side hugs the outline
        near = (np.abs(off - outer) < 2.0) & (t > 0.06 * length) & (t < 0.94 * length)
        if near.sum() < 10:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(points[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-9:
            out.append(quad[i])
            continue
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    return np.array(out)


def _holes(undist: np.ndarray, corners: np.ndarray, board: Board) -> list:
    """The centre of the dark hole just inside each corner (None if not found)."""
    grey = cv2.cvtColor(undist, cv2.COLOR_BGR2GRAY)
    inside = np.zeros_like(grey)
    cv2.fillPoly(inside, [np.round(corners).astype(np.int32)], 255)
    surface = float(np.median(grey[inside > 0]))
    obj = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * board.half
    homography = cv2.getPerspectiveTransform(obj.astype(np.float32), corners.astype(np.float32))
    out = []
    hb = board.half - board.hole_inset
    r = board.hole_diameter / 2
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        centre = cv2.perspectiveTransform(np.array([[[sx * hb, sy * hb]]], np.float32),
                                          homography)[0, 0]
        edge = cv2.perspectiveTransform(np.array([[[sx * hb + r * 1.8, sy * hb]]], np.float32),
                                        homography)[0, 0]
        radius = int(max(6, np.linalg.norm(edge - centre)))
        x0, y0 = int(centre[0]) - radius, int(centre[1]) - radius
        patch = grey[max(0, y0):y0 + 2 * radius, max(0, x0):x0 + 2 * radius]
        mask = inside[max(0, y0):y0 + 2 * radius, max(0, x0):x0 + 2 * radius]
        if patch.size == 0:
            out.append(None)
            continue
        dark = ((patch < 0.45 * surface) & (mask > 0)).astype(np.uint8)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(dark)
        if n < 2:
            out.append(None)
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        expected = np.pi * (np.linalg.norm(edge - centre) / 1.8) ** 2
        if not 0.6 * expected < stats[k, cv2.CC_STAT_AREA] < 1.35 * expected:
            out.append(None)  # a piece beside the hole merged with it, or half hidden
            continue
        out.append(np.array([cents[k][0] + max(0, x0), cents[k][1] + max(0, y0)]))
    return out

