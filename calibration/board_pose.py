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

REACH = 6.0  # px: how far either side of the rough outline the true edge is looked for


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
    best, failure = None, None
    for outline in _outlines(undist):
        # perhaps an arm over the cushion spoils the outline: then take its four
        # straightest sides
        for by_lines in (False, True):
            try:
                pose = _pose(undist, outline, camera, board, use_holes, by_lines)
            except KangleError as exc:
                failure = failure or exc
                continue
            if best is None or pose.residual_mm < best.residual_mm:
                best = pose
            if best.residual_mm <= 3.0:
                return _in_view(best)
    if best is None:
        raise failure
    return _in_view(best)


def _in_view(pose: Pose) -> Pose:
    """The pose, if all four corners of the playing surface lie inside the frame; a board
    cut by the frame's edge is refused, saying where."""
    w, h = pose.camera.size
    u, v = pose.corners_px[:, 0], pose.corners_px[:, 1]
    out = (u < 0) | (u > w - 1) | (v < 0) | (v > h - 1)
    if out.any():
        where = ", ".join(name for name, o in zip(
            ("bottom left", "bottom right", "top right", "top left"), out, strict=True) if o)
        raise KangleError(f"the board is cut by the photo's edge (its {where} corner is "
                          "outside the frame): move or zoom the camera so the whole playing "
                          "surface is in view")
    return pose


def _pose(undist: np.ndarray, outline: np.ndarray, camera: Camera, board: Board,
          use_holes: bool, by_lines: bool) -> Pose:
    corners = _surface_corners(undist, outline, by_lines)
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


def _outlines(undist: np.ndarray) -> list[np.ndarray]:
    """Outlines (pixels, on the undistorted frame) that may be the playing surface's,
    likeliest first (``_most_board_like``): the largest bright region of the frame."""
    grey = cv2.GaussianBlur(cv2.cvtColor(undist, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    outlines = _most_board_like(bright)
    if not outlines:
        raise KangleError("no board in view: no bright playing surface found")
    return outlines


def _surface_corners(undist: np.ndarray, outline: np.ndarray,
                     by_lines: bool = False) -> np.ndarray:
    """Corners SW, SE, NE, NW (image bottom-left first, anticlockwise on the board) of
    the bright region whose ``outline`` is given. ``by_lines``: an arm reaching over
    the cushion joins the bright region and spoils its hull; the four straight lines
    that most of the outline lies on are the board's sides all the same (an arm's edges
    are short beside them), so they are found one after another and intersected
    instead."""
    grey = cv2.cvtColor(undist, cv2.COLOR_BGR2GRAY)
    area = cv2.contourArea(outline)
    if area < 0.05 * grey.size:
        raise KangleError("no board in view: the brightest region is too small to be the "
                          "playing surface")
    points = outline.reshape(-1, 2).astype(np.float64)
    h, w = grey.shape
    inside = ((points[:, 0] > 2) & (points[:, 0] < w - 3) & (points[:, 1] > 2) &
              (points[:, 1] < h - 3))  # the frame's border is no edge of the board
    if inside.mean() < 0.5:
        raise KangleError("no board in view: the bright region runs off the frame — is the "
                          "whole playing surface in the picture?")
    quad = (_quad_of_lines(points[inside]) if by_lines else
            _outer_lines(points[inside], _quad_of_hull(outline, area)))
    quad = _refine(grey, quad)
    u, v = quad[:, 0], quad[:, 1]
    order = [np.argmin(u - v), np.argmax(u + v), np.argmax(u - v), np.argmin(u + v)]
    if len(set(order)) != 4:
        raise KangleError("the board is turned too far in the image to tell its corners apart")
    return quad[order]  # SW (bottom left), SE, NE, NW


def _most_board_like(bright: np.ndarray) -> list[np.ndarray]:
    """Outlines that may be the playing surface's, likeliest first. The largest bright
    region that is bright all through (its pixels fill 70 % of its outline), clear of
    the frame's border and not tiny, alone: a playing surface in view is, while a light
    floor or cloth round the table, though larger, has the board's dark frame as a hole
    or a bay in it and runs off the picture. If none is (an arm reaching in over the
    cushion joins the surface to the floor or to the picture's edge, or the surface
    itself touches the edge): the regions that are board-like once the parts narrower
    than an arm are cut away, then the largest region as it is (a board the picture
    cuts is then refused as such)."""
    outlines = []
    for own, (x, y) in _regions(bright):
        outline = _outline(own, x, y)
        if _board_like(own, outline, x, y, bright.shape):
            return [outline]
        outlines.append(outline)
    cut_free = [outline for own, (x, y) in _without_arms(bright)
                if _board_like(own, outline := _outline(own, x, y), x, y, bright.shape)]
    return cut_free + outlines[:1]


def _regions(mask: np.ndarray, most: int = 6):
    """The ``most`` largest regions of a mask, largest first: (the region's own mask
    within its bounding box, the box's top-left corner)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    for i in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:most]:
        x, y, w, h = stats[i, :4]
        yield (labels[y:y + h, x:x + w] == i).astype(np.uint8), (x, y)


def _outline(own: np.ndarray, x: int, y: int) -> np.ndarray:
    found, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(found, key=cv2.contourArea) + np.array([x, y])


def _board_like(own: np.ndarray, outline: np.ndarray, x: int, y: int, shape) -> bool:
    """Clear of the frame's border, at least 5 % of the frame, and filling 70 % of its
    outline."""
    h, w = own.shape
    clear = x > 2 and y > 2 and x + w < shape[1] - 3 and y + h < shape[0] - 3
    area = int(own.sum())
    return clear and area >= 0.05 * shape[0] * shape[1] and area >= 0.7 * cv2.contourArea(
        outline)


# an arm over the cushion is narrower than this share of the frame's shorter side; the
# playing surface, filling a good part of the frame, is wider
ARM = 0.12
SMALL_SIDE = 400  # pixels: the bright mask is cut at this size (a big kernel is slow)


def _without_arms(bright: np.ndarray):
    """Bright regions once the parts narrower than an arm (ARM) are cut away, each
    given back at full size with what the cut took off near it (its corners, and the
    arm's stub over the cushion, which the outline's fit sets aside): (its own mask
    within its bounding box, the box's top-left corner)."""
    h, w = bright.shape
    f = SMALL_SIDE / max(h, w)
    small = (cv2.resize(bright, (max(1, round(w * f)), max(1, round(h * f))),
                        interpolation=cv2.INTER_AREA) > 127).astype(np.uint8)
    k = int(ARM * min(small.shape)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    opened = cv2.morphologyEx(small, cv2.MORPH_OPEN, disc)
    for own, (x, y) in _regions(opened, 3):
        near = np.zeros_like(small)
        near[y:y + own.shape[0], x:x + own.shape[1]] = own
        near = cv2.resize(cv2.dilate(near, disc), (w, h), interpolation=cv2.INTER_NEAREST)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(bright & (near * 255))
        if n < 2:
            continue
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        bx, by, bw, bh = stats[i, :4]
        yield (labels[by:by + bh, bx:bx + bw] == i).astype(np.uint8), (bx, by)


def _quad_of_hull(outline: np.ndarray, area: float) -> np.ndarray:
    """The outline's convex hull simplified to four corners."""
    hull = cv2.convexHull(outline)
    for eps in np.linspace(0.01, 0.08, 15):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            if cv2.contourArea(quad.astype(np.float32)) >= 0.8 * area:
                return quad
            break
    raise KangleError("no board in view: the playing surface's outline is not a "
                      "quadrilateral (is part of it outside the frame?)")


def _quad_of_lines(points: np.ndarray) -> np.ndarray:
    """Four corners from the four lines holding most outline points (each found by
    sampling pairs of points, its points then set aside), taken in order around the
    outline's middle and intersected."""
    rng = np.random.default_rng(0)  # the same frame gives the same corners
    left = points
    lines = []
    for _ in range(4):
        if len(left) < 20:
            raise KangleError("no board in view: the bright region has no four straight sides")
        pairs = rng.integers(len(left), size=(400, 2))
        a, b = left[pairs[:, 0]], left[pairs[:, 1]]
        d = b - a
        norm = np.hypot(d[:, 0], d[:, 1])
        ok = norm > 20
        a, d = a[ok], d[ok] / norm[ok, None]
        normals = np.column_stack([-d[:, 1], d[:, 0]])
        dist = np.abs((left[None, :, :] - a[:, None, :]) @ normals[:, :, None])[..., 0]
        best = int(np.argmax((dist < 2.0).sum(axis=1)))
        on = dist[best] < 2.0
        lines.append(_robust_line(left[on]))
        left = left[dist[best] >= 4.0]
    middle = points.mean(axis=0)
    lines.sort(key=lambda line: np.arctan2(*(_foot(line, middle) - middle)[::-1]))
    quad = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(q is None for q in quad):
        raise KangleError("no board in view: the bright region has no four straight sides")
    return np.array(quad)


def _meet(line1, line2) -> np.ndarray | None:
    """Where two lines (point, unit direction) cross; None if they are parallel."""
    (p1, d1), (p2, d2) = line1, line2
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-3:
        return None
    return p1 + np.linalg.solve(m, p2 - p1)[0] * d1


def _foot(line, point: np.ndarray) -> np.ndarray:
    """The point of ``line`` (point, unit direction) nearest ``point``."""
    p, d = line
    return p + ((point - p) @ d) * d


def _outer_lines(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The rough corners: a straight line through the outline points along each side
    that lie on its outer line (pieces against the cushion bite into the bright region
    and are left out; a row of them would otherwise pass for the edge), away from the
    corners and holes, and neighbouring lines intersected."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        u = (b - a) / length
        rel = points - a
        t, off = rel @ u, rel @ np.array([-u[1], u[0]])
        outer = off.min() if off.mean() > 0 else off.max()  # the hull side hugs the outline
        near = (np.abs(off - outer) < 2.0) & (t > 0.06 * length) & (t < 0.94 * length)
        lines.append(_robust_line(points[near]) if near.sum() >= 10 else (a, u))
    return _corners(lines, quad)


def _corners(lines, fallback: np.ndarray) -> np.ndarray:
    """Where neighbouring sides' lines cross (the fallback corner where they are
    parallel)."""
    meets = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    return np.array([fallback[i] if m is None else m for i, m in enumerate(meets)])


def _refine(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Sharpen a rough outline to sub-pixel corners: along each side, at many places,
    the strongest fall from the bright surface to the dark frame across the side is
    found (parabola through the steepest step of the profile), a line is fitted to
    those edge points with the outliers — pieces against the cushion, an arm over it,
    a hole near the corner — dropped, and neighbouring lines are intersected. Works
    on edges, not on a brightness threshold, so a light gradient does not bend it."""
    img = cv2.GaussianBlur(grey.astype(np.float32), (5, 5), 1.0)
    centre = quad.mean(axis=0)
    inner = np.zeros(grey.shape, np.uint8)
    cv2.fillPoly(inner, [np.round(centre + 0.8 * (quad - centre)).astype(np.int32)], 1)
    if not inner.any():
        raise KangleError("no board in view: the outline found encloses no part of the frame")
    level = float(np.median(img[inner > 0]))  # the playing surface's brightness
    offsets = np.arange(-REACH, REACH + 0.25, 0.5)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        u = (b - a) / length
        n = np.array([-u[1], u[0]])
        if (a + b) / 2 @ n < centre @ n:
            n = -n  # outward, away from the middle of the board
        ts = np.linspace(0.08, 0.92, 90) * length
        xs = a[0] + ts[:, None] * u[0] + offsets[None, :] * n[0]
        ys = a[1] + ts[:, None] * u[1] + offsets[None, :] * n[1]
        profile = cv2.remap(img, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR)
        slope = np.gradient(profile, axis=1)  # brightness change going outwards
        k = np.clip(np.argmin(slope, axis=1), 1, len(offsets) - 2)
        rows = np.arange(len(ts))
        y0, y1, y2 = slope[rows, k - 1], slope[rows, k], slope[rows, k + 1]
        curve = y0 - 2 * y1 + y2
        sub = np.where(np.abs(curve) > 1e-6, 0.5 * (y0 - y2) / np.where(curve == 0, 1, curve),
                       0.0)
        s = offsets[k] + 0.5 * np.clip(sub, -1, 1)
        # the edge itself has the bright surface just inside it and the dark frame just
        # outside; a row of pieces against the cushion has neither
        inside = profile[rows, np.clip(k - 6, 0, None)]
        outside = profile[rows, np.clip(k + 6, None, len(offsets) - 1)]
        strong = (-y1 > 0.3 * float(np.median(-y1))) & (inside > 0.6 * level) & (
            outside < 0.75 * inside)
        pts = (a + ts[:, None] * u + s[:, None] * n)[strong]
        lines.append(_robust_line(pts) if len(pts) >= 10 else (a, u))
    return _corners(lines, quad)


def _robust_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A line (point, unit direction) through edge points, refitted on the points within
    a pixel of it after a first robust (Huber) fit."""
    keep = np.ones(len(pts), bool)
    for _ in range(3):
        vx, vy, x0, y0 = cv2.fitLine(pts[keep].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        d = np.array([vx, vy], float)
        off = np.abs((pts - (x0, y0)) @ np.array([-d[1], d[0]]))
        new = off < max(1.0, 2.5 * float(np.median(off[keep])))
        if new.sum() < 10 or (new == keep).all():
            break
        keep = new
    return np.array([x0, y0], float), d


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

