"""Calibrating a venue from one frame of the set-up position (all pieces in their starting
rows, each striker in its owner's first circle): the board's pose and orientation, the
real board's geometry, and the colour model.

Real boards differ from the default profile. A square seen by one camera fixes its
shape but not its size (a bigger board further away looks the same), so one length must
be known: the playing surface's side, from the profile or measured with a tape
(``side_mm``). Everything else — holes, shooting circles, rings — is measured on the
top-down view and stored in the calibration.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from calibration.board_pose import check_frame, find_board, pose_from_corners
from calibration.camera import Camera
from calibration.colour import learn
from calibration.profile import Calibration
from calibration.rectify import Rectifier
from rules.board import CORNERS, Board
from rules.errors import KangleError
from rules.pieces import colour_of


def setup_positions(board: Board) -> dict[str, tuple[float, float]]:
    """Rule 4.1's rows, and each striker in its owner's first circle (SW red, NE black)."""
    pos = dict(board.setup_positions())
    pos["RS"] = board.circle_centre("SW")
    pos["BS"] = board.circle_centre("NE")
    return pos


def calibrate_board(frame: np.ndarray, intrinsics: Camera, board: Board,
                    measure: bool = True, side_mm: float | None = None,
                    corners_px: np.ndarray | None = None) -> Calibration:
    """Pose, orientation, measured geometry (``measure``) and colours from a set-up frame;
    ``corners_px`` (clicked by hand) replaces the automatic search for the board."""
    check_frame(frame)
    pose = (pose_from_corners(corners_px, intrinsics, board) if corners_px is not None
            else find_board(frame, intrinsics, board, use_holes=not measure))
    camera = orient(frame, pose.camera, board)
    if measure:
        camera, board = measure_board(frame, camera, board, side_mm)
    colours = learn_colours(frame, camera, board)
    return Calibration(camera, board, colours, pose.residual_mm)


def _turned(camera: Camera, quarter_turns: int) -> Camera:
    """The same camera with the board frame turned by 90° steps about its centre."""
    a = np.pi / 2 * quarter_turns
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    rotation = camera.rotation @ rz
    return replace(camera, rvec=cv2.Rodrigues(rotation)[0].ravel())


def orient(frame: np.ndarray, camera: Camera, board: Board) -> Camera:
    """Of the four ways a square board can be turned, the one where red's pieces stand
    along the y < 0 cushion and black's along the y > 0 one."""
    best, best_score = camera, -np.inf
    rows = board.setup_positions()
    grey = frame.astype(np.float32).sum(axis=2) + 1
    # the share of red light, averaged over a few pixels: a piece's printed character
    # must not decide what colour it is
    red_share = cv2.blur(frame[:, :, 2] / grey, (7, 7))
    for q in range(4):
        cam = _turned(camera, q)
        pix = np.round(cam.project(np.array([(x, y, board.piece_thickness)
                                             for x, y in rows.values()]))).astype(int)
        ok = (pix[:, 0] >= 0) & (pix[:, 0] < frame.shape[1]) & (pix[:, 1] >= 0) & (
            pix[:, 1] < frame.shape[0])
        if ok.sum() < len(rows) // 2:
            continue
        values = red_share[pix[ok, 1], pix[ok, 0]]
        colours = np.array([colour_of(p) for p in rows])[ok]
        score = values[colours == "red"].mean() - values[colours == "black"].mean()
        if score > best_score:
            best, best_score = cam, score
    if best_score < 0.05:
        raise KangleError("cannot tell red's side from black's: set all pieces in their "
                          "starting rows (rule 4.1) and calibrate again")
    return best


def measure_board(frame: np.ndarray, camera: Camera, board: Board,
                  side_mm: float | None = None) -> tuple[Camera, Board]:
    """The real board: its scale from ``side_mm`` (the playing surface's side, measured
    with a tape; default the profile's), then holes, circles and rings measured on it."""
    k = board.side / side_mm if side_mm else 1.0
    camera = replace(camera, tvec=np.asarray(camera.tvec, float) / k)
    board = replace(board, side=round(board.side / k, 1), rim_width=round(board.rim_width / k, 1),
                    name=f"{board.name} (measured)")
    rect = Rectifier(camera, board, scale=1.5, z=0.0)
    f = rect.features(frame)
    board = _measure_holes(rect, f, board)
    board = _measure_rings(rect, f, board)
    board = _measure_circles(rect, f, board)
    return camera, board


def _measure_holes(rect: Rectifier, f, board: Board) -> Board:
    dark = ((f.ratio < 0.35) & (rect.surface > 0)).astype(np.uint8)
    insets, diameters = [], []
    for c in CORNERS:
        hx, hy = board.hole_centre(c)
        col, row = rect.to_px(hx, hy)
        reach = int(board.hole_diameter * 1.2 * rect.scale)
        r0, c0 = max(row - reach, 0), max(col - reach, 0)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(
            dark[r0:row + reach, c0:col + reach])
        if n < 2:
            continue
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        x, y = rect.to_mm(cents[i][0] + c0, cents[i][1] + r0)
        insets.append(board.half - (abs(x) + abs(y)) / 2)
        diameters.append(2 * np.sqrt(stats[i, cv2.CC_STAT_AREA] / np.pi) / rect.scale)
    if len(insets) < 2:
        return board
    return replace(board, hole_inset=round(float(np.median(insets)), 1),
                   hole_diameter=round(float(np.median(diameters)), 1))


def _ring_radii(rect: Rectifier, f, centre, r_min: float, r_max: float, step: float = 0.5):
    """Radii (mm) where the board's lines (dark rings) cross a radial profile."""
    radii = np.arange(r_min, r_max, step)
    angles = np.linspace(0, 2 * np.pi, 180, endpoint=False)
    xs = centre[0] + radii[:, None] * np.cos(angles)
    ys = centre[1] + radii[:, None] * np.sin(angles)
    cols = ((xs + rect.extent) * rect.scale).astype(int).clip(0, rect.size - 1)
    rows = ((rect.extent - ys) * rect.scale).astype(int).clip(0, rect.size - 1)
    profile = np.median(f.ratio[rows, cols], axis=1)
    return radii, profile


def _measure_rings(rect: Rectifier, f, board: Board) -> Board:
    radii, profile = _ring_radii(rect, f, (0.0, 0.0), 5, board.half * 0.45)
    level = float(np.median(profile))
    minima = [i for i in range(1, len(profile) - 1) if profile[i] <= profile[i - 1] and
              profile[i] <= profile[i + 1] and profile[i] < level - 0.05]
    if len(minima) < 2:
        return board
    darkest = sorted(sorted(minima, key=lambda i: profile[i])[:2])
    inner, penalty = (2 * radii[i] for i in darkest)
    return replace(board, inner_diameter=round(float(inner), 1),
                   penalty_diameter=round(float(penalty), 1))


def _measure_circles(rect: Rectifier, f, board: Board) -> Board:
    grey = np.clip(f.ratio * 200, 0, 255).astype(np.uint8)
    found = []
    for c in CORNERS:
        cx, cy = board.circle_centre(c)
        col, row = rect.to_px(cx, cy)
        reach = int(board.circle_inset * 0.35 * rect.scale + board.circle_diameter * rect.scale)
        r0, c0 = max(row - reach, 0), max(col - reach, 0)
        roi = cv2.GaussianBlur(grey[r0:row + reach, c0:col + reach], (5, 5), 1.2)
        circles = cv2.HoughCircles(roi, cv2.HOUGH_GRADIENT, dp=1, minDist=reach,
                                   param1=60, param2=18,
                                   minRadius=int(board.striker_radius * 1.15 * rect.scale),
                                   maxRadius=int(board.circle_diameter * 0.8 * rect.scale))
        if circles is None:
            continue
        u, v, r = circles[0][0]
        x, y = rect.to_mm(u + c0, v + r0)
        found.append((board.half - (abs(x) + abs(y)) / 2, 2 * r / rect.scale))
    if len(found) < 2:
        return board
    inset, diameter = np.median(np.array(found), axis=0)
    return replace(board, circle_inset=round(float(inset), 1),
                   circle_diameter=round(float(diameter), 1))


def learn_colours(frame: np.ndarray, camera: Camera, board: Board):
    rect = Rectifier(camera, board, scale=1.0)
    f = rect.features(frame)
    samples: dict[str, list[tuple[float, float]]] = {"red": [], "black": []}
    yy, xx = np.mgrid[-6:7, -6:7]
    core = xx ** 2 + yy ** 2 <= 36
    for pid, (x, y) in setup_positions(board).items():
        col, row = rect.to_px(x, y)
        window = (slice(row - 6, row + 7), slice(col - 6, col + 7))
        ratio, red = f.ratio[window], f.redness[window]
        if ratio.shape != core.shape:
            continue
        samples[colour_of(pid)].append((float(ratio[core].mean()), float(red[core].mean())))
    return learn(samples)
