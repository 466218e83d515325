"""Calibrating a venue from one frame: the board's pose and orientation, the real board's
geometry, and the colour model.

The frame may show the set-up position (all pieces in their starting rows, each striker
in its owner's first circle) or any moment of a game. Red's side is read from the set-up
rows when they are there; otherwise the user says where it is (``red_side``: where red's
cushion is in the image) or a calibration saved earlier at the venue says it; kangle
never guesses. The colours are learnt from the set-up rows, or else from the pieces the
frame shows, sorted into red and black by their colour alone.

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
from calibration.colour import FEW_SAMPLES, NEVER, ColourModel, learn
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


# the board's outline and holes agree within this (RMS, mm on the board) on a good view;
# the real boards tried fit at 2.3-2.7 mm, views missing part of the board at 57-153 mm
MAX_RESIDUAL_MM = 4.0
# where red's cushion may be said to be in the image, as a direction in pixels
SIDES = {"bottom": (0.0, 1.0), "top": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
# the set-up rows are taken to be there when red's row is this much redder than black's
SETUP_REDNESS = 0.05
# generous thresholds for finding pieces before their colours are known: much darker than
# the board, or clearly redder
WIDE_RATIO = 0.55
WIDE_REDNESS = 0.08
WIDE_LIGHT = 1.12
WIDE_COOL = 0.02
# a peak of a colour's distance transform this share of a piece's radius wide is a
# piece's middle, in a blob of at most this many strikers' area (more is an arm)
PEAK_WIDTH = 0.75
FEW_PIECES = 6


def calibrate_board(frame: np.ndarray, intrinsics: Camera, board: Board,
                    measure: bool = True, side_mm: float | None = None,
                    corners_px: np.ndarray | None = None, red_side: str | None = None,
                    earlier: Calibration | None = None) -> Calibration:
    """Pose, orientation, measured geometry (``measure``) and colours from one frame.
    ``corners_px`` (clicked by hand) replaces the automatic search for the board;
    ``red_side`` (a key of SIDES) or ``earlier`` (this venue's calibration saved before)
    say where red's side is when the frame does not show the set-up rows."""
    check_frame(frame)
    pose = (pose_from_corners(corners_px, intrinsics, board) if corners_px is not None
            else find_board(frame, intrinsics, board, use_holes=not measure))
    if pose.residual_mm > MAX_RESIDUAL_MM:
        raise KangleError(
            f"the board's outline and holes do not fit a square board of this profile "
            f"(residual {pose.residual_mm:.0f} mm): photograph the whole playing surface "
            "from more nearly overhead, give the right --board, or click its corners "
            "with --manual")
    camera, set_up = orient(frame, pose.camera, board, red_side, earlier)
    if measure:
        camera, board = measure_board(frame, camera, board, side_mm)
    learnt: dict[str, int] = {}
    if set_up:
        colours = learn_colours(frame, camera, board)
    else:
        try:  # (the venue's colours, as saved, are better than those of a few pieces)
            colours, learnt = learn_colours_anywhere(frame, camera, board,
                                                     least=1 if earlier is None else FEW_SAMPLES)
        except KangleError:
            if earlier is None:
                raise
            colours = earlier.colours  # too few pieces in view: the venue's, as saved
        if earlier is not None:  # a colour none of whose pieces is in view (the queen,
            # pocketed): as the venue's calibration learnt it, and looked for still
            colours = colours.adding({c: stats for c, stats in earlier.colours.classes.items()
                                      if c in board.set_colours})
    return Calibration(camera, board, colours, pose.residual_mm, learnt)


def follow_camera(frame: np.ndarray, cal: Calibration,
                  still_mm: float = 0.0) -> tuple[Calibration, float]:
    """The venue's calibration for the camera as it stands in ``frame`` (knocked since
    it was calibrated, say): the board found again and turned as before, its measured
    geometry and the colours kept — or ``cal`` itself while the board lies within
    ``still_mm`` of where it saw it; and how far (mm on the board) the board's corners
    lie from there. Raises KangleError when no board is in view, or none that fits the
    board as measured."""
    pose = find_board(frame, cal.camera, cal.board)
    if pose.residual_mm > MAX_RESIDUAL_MM:
        raise KangleError(f"the board seen does not fit the board as calibrated (residual "
                          f"{pose.residual_mm:.0f} mm)")
    h = cal.board.half
    corners = np.array([(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)], float)
    moved = float(np.linalg.norm(cal.camera.to_board(pose.camera.project(corners))
                                 - corners[:, :2], axis=1).max())
    if moved <= still_mm:
        return cal, moved
    camera, _ = orient(frame, pose.camera, cal.board, earlier=cal)
    return replace(cal, camera=camera, residual_mm=pose.residual_mm), moved


def _turned(camera: Camera, quarter_turns: int) -> Camera:
    """The same camera with the board frame turned by 90° steps about its centre."""
    a = np.pi / 2 * quarter_turns
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    rotation = camera.rotation @ rz
    return replace(camera, rvec=cv2.Rodrigues(rotation)[0].ravel())


def orient(frame: np.ndarray, camera: Camera, board: Board, red_side: str | None = None,
           earlier: Calibration | None = None) -> tuple[Camera, bool]:
    """Of the four ways a square board can be turned, the one with red's side at y < 0,
    and whether the frame shows the set-up rows. Red's side comes from the set-up rows
    when red's pieces stand along one cushion and black's along the opposite one; from
    ``red_side`` or ``earlier`` otherwise. A ``red_side`` that the set-up rows contradict
    is refused rather than either being chosen silently. A board with no sides (a carrom
    board for the camera only) keeps the turn the board was found in (its SW corner at
    the image's bottom left)."""
    if board.design != "goma":
        return camera, False
    by_rows, score = _orient_by_rows(frame, camera, board)
    set_up = score >= SETUP_REDNESS
    if red_side is not None:
        if red_side not in SIDES:
            raise KangleError(f"--red-side {red_side!r}: use one of {', '.join(SIDES)}")
        told = _turn_towards(camera, board, SIDES[red_side])
        if set_up and not np.allclose(told.rvec, by_rows.rvec):
            raise KangleError(f"the pieces stand in their starting rows with red's row "
                              f"{_side_of(by_rows, board)} in the image, but --red-side says "
                              f"{red_side}: check which side red sits and calibrate again")
        return told, set_up
    if set_up:
        return by_rows, True
    if earlier is not None:
        return _turn_like(camera, board, earlier.camera), False
    raise KangleError("cannot tell red's side from black's: the pieces are not in their "
                      "starting rows (rule 4.1). Say where red's cushion is in the image "
                      "with --red-side bottom|top|left|right, or give this venue's earlier "
                      "calibration with --venue")


def _orient_by_rows(frame: np.ndarray, camera: Camera, board: Board) -> tuple[Camera, float]:
    """The turn where the set-up rows' colours fit best (red's row at y < 0), and how much
    redder red's row looks than black's there (a share of R+G+B; about 0 without rows)."""
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
    return best, float(best_score)


def _red_direction(camera: Camera, board: Board) -> np.ndarray:
    """The image direction (pixels) from the board's centre to red's cushion."""
    centre, red = camera.project(np.array([(0.0, 0.0, 0.0), (0.0, -board.half, 0.0)]))
    return red - centre


def _turn_towards(camera: Camera, board: Board, direction) -> Camera:
    """The turn that puts red's cushion towards ``direction`` in the image."""
    turns = [_turned(camera, q) for q in range(4)]
    return max(turns, key=lambda cam: float(_red_direction(cam, board) @ np.array(direction)))


def _turn_like(camera: Camera, board: Board, earlier: Camera) -> Camera:
    """The turn that puts red's cushion where an earlier calibration had it."""
    want = _red_direction(earlier, board)
    return _turn_towards(camera, board, want / max(float(np.linalg.norm(want)), 1e-9))


def _side_of(camera: Camera, board: Board) -> str:
    """Where red's cushion is in the image, in the words of SIDES."""
    d = _red_direction(camera, board)
    return max(SIDES, key=lambda side: float(d @ np.array(SIDES[side])))


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
    if board.design == "goma":  # carrom's printed design is the federation's, as profiled
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
    """The colour model from the cores of the pieces standing in their set-up places."""
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


def learn_colours_anywhere(frame: np.ndarray, camera: Camera, board: Board,
                           least: int = 1) -> tuple[ColourModel, dict[str, int]]:
    """The colour model from whatever pieces the frame shows on the playing surface, mid-
    game included, for any piece set, and how many pieces each colour was learnt from:
    every lone blob that differs from the board (darker, lighter or redder) and has a
    piece's size and roundness gives one sample, and the samples fall into the set's
    colours by k-means started from what each colour looks like in general (black much
    darker than the board, white lighter, red redder). Fewer than ``least`` lone pieces
    of a colour the set has at least four of is an error naming the counts, not a guess
    (late in a game one lone piece of a colour is often all there is: learnt from
    fewer than FEW_SAMPLES, its spread is taken wide, and the calibrating command says
    so); a colour the set has one or two of (carrom's queen) is learnt from what is
    seen, and left out when none is."""
    rect = Rectifier(camera, board, scale=1.0)
    light = "white" in board.set_colours
    f = rect.features(frame, light=light)
    ink = _print_colour(f)
    mask, _ = f.pieces(WIDE_RATIO, WIDE_REDNESS if "red" in board.set_colours else NEVER,
                       rect.allowed & rect.surface, WIDE_LIGHT if light else None, ink,
                       WIDE_COOL if light else None)
    ratio, redness = f.ratio, f.redness
    # pieces touching (the carrom set-up's rosette) are told apart by their pixels'
    # colour first, then those of one colour by the peaks of its part of the mask
    on = mask > 0
    pixels = np.stack([ratio[on], redness[on]], axis=1)
    samples = []
    for idx in _colour_groups(pixels, board.set_colours).values():
        part = np.zeros(int(on.sum()), np.uint8)
        part[idx] = 1
        of_colour = np.zeros_like(mask)
        of_colour[on] = part
        # marks printed or engraved on a piece, in another colour, are its own; the thin
        # rings of a piece's side or shadow, in a darker colour, no piece's
        of_colour = cv2.morphologyEx(of_colour, cv2.MORPH_CLOSE, _MARKS) & mask
        of_colour = cv2.morphologyEx(of_colour, cv2.MORPH_OPEN, _SIDES)
        samples += _piece_samples(of_colour, ratio, redness, board)
    groups = _colour_groups(np.array(samples).reshape(-1, 2), board.set_colours)
    counts = {c: board.count_of(c) for c in groups}
    short = [c for c in groups if counts[c] >= 4 and len(groups[c]) < least]
    if short:
        seen = ", ".join(f"{len(groups[c])} lone {c}" for c in groups)
        each = "one lone {} piece" if least == 1 else f"{least} lone {{}} pieces"
        need = " and ".join(each.format(c) for c in short)
        verb = "is" if least == 1 and len(short) == 1 else "are"
        raise KangleError(f"the frame shows {seen} pieces on the board: at least {need}, apart "
                          f"from the others, {verb} needed to learn what they look like. "
                          "Calibrate from a frame with more pieces or from the set-up position, "
                          "or give this venue's earlier calibration with --venue")
    model = learn({c: [samples[i] for i in idx] for c, idx in groups.items()},
                  {c: (least if counts[c] >= 4 else 0) for c in groups}, ink)
    return model, {c: len(idx) for c, idx in groups.items() if c in model.classes}


_MARKS = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_SIDES = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def _piece_samples(mask: np.ndarray, ratio: np.ndarray, redness: np.ndarray, board: Board
                   ) -> list[tuple[float, float]]:
    """(ratio, redness) of the middle of every piece in ``mask`` (one colour's part of
    the pieces' mask, rectified at 1 px per mm): the peaks of its distance transform as
    wide as a piece or a striker, each a piece's radius from a stronger one, so that
    touching pieces each give their own; a place wider (a hand), a line's fragment
    narrower, or a blob larger than a few pieces together (an arm) gives none."""
    r, big = board.piece_radius, board.striker_radius
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    small = stats[:, cv2.CC_STAT_AREA] <= FEW_PIECES * np.pi * big ** 2
    small[0] = False
    dist = cv2.distanceTransform((small[labels]).astype(np.uint8), cv2.DIST_L2, 5)
    k = int(r) | 1
    peaks = (dist >= PEAK_WIDTH * r) & (dist >= cv2.dilate(dist, np.ones((k, k), np.uint8)))
    _, _, _, spots = cv2.connectedComponentsWithStats(peaks.astype(np.uint8))
    spots = sorted(((float(dist[int(round(y)), int(round(x))]), x, y) for x, y in spots[1:]),
                   reverse=True)
    yy, xx = np.mgrid[-6:7, -6:7]
    core = xx ** 2 + yy ** 2 <= 36
    kept, samples = [], []
    for width, x, y in spots:
        if width > 1.25 * big or any(np.hypot(x - a, y - b) < r for a, b in kept):
            continue
        kept.append((x, y))
        col, row = int(round(x)), int(round(y))
        window = (slice(row - 6, row + 7), slice(col - 6, col + 7))
        if mask[window].shape != core.shape:
            continue  # at the picture's edge
        inside = core & (mask[window] > 0)
        if inside.sum() < 60:
            continue
        samples.append((float(ratio[window][inside].mean()),
                        float(redness[window][inside].mean())))
    return samples


def _print_colour(f) -> tuple[float, float, float] | None:
    """The median colour (BGR) of the discs printed on the board; None if it has none.
    Pieces lying on a few of them are outvoted by the others."""
    on = f.print_discs > 0
    if not on.any():
        return None
    return tuple(float(v) for v in np.median(f.image[on].reshape(-1, 3), axis=0))


# what each colour looks like in general, as (ratio, redness) against the board: where
# k-means starts, and how its groups get their names
TYPICAL = {"black": (0.35, 0.0), "red": (0.6, 0.15), "white": (1.3, -0.02)}


def _colour_groups(samples: np.ndarray, colours: tuple[str, ...]) -> dict[str, list[int]]:
    """Indices of the (ratio, redness) samples by colour: k-means with each measure
    scaled by its spread, started from each colour's TYPICAL look (deterministic: the
    same frame always gives the same model). Every colour is a key, maybe of no sample."""
    if not len(samples):
        return {c: [] for c in colours}
    spread = np.maximum(samples.std(axis=0), np.array([0.05, 0.02]))
    scaled = samples / spread
    centres = np.array([TYPICAL[c] for c in colours]) / spread
    nearest = np.zeros(len(samples), int)
    for _ in range(50):
        nearest = np.argmin(np.linalg.norm(scaled[:, None] - centres[None], axis=2), axis=1)
        moved = np.array([scaled[nearest == k].mean(axis=0) if (nearest == k).any()
                          else centres[k] for k in range(len(colours))])
        if np.allclose(moved, centres):
            break
        centres = moved
    return {c: [int(i) for i in np.flatnonzero(nearest == k)] for k, c in enumerate(colours)}
