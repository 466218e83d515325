"""A top-down view of the board from a camera frame, and the colour features on it.

The rectified image shows the board from straight above, ``scale`` pixels per
millimetre, on the plane at the pieces' top faces (so each piece is a true circle of
its real radius). Pixel (i, j) is the board point x = j/scale - extent,
y = extent - i/scale.

Features: ``ratio`` — a pixel's brightness over the brightness of the board around it
(the background: a grey closing with a kernel wider than a piece, computed for the
playing surface and the rim separately so neither bleeds into the other); ``redness``
— red's share of R+G+B minus the background's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import Camera
from rules.board import CORNERS, Board, carrom_print


@dataclass
class Features:
    """The rectified view and its board background. ``ratio`` and ``redness`` (whole
    images) are for calibration; detection asks only at the pixels it needs."""

    image: np.ndarray  # rectified BGR, uint8
    grey: np.ndarray  # uint8
    background: np.ndarray  # uint8: the board's brightness under each pixel
    board_red: np.ndarray  # float32: the board's red share under each pixel
    surface_red: float  # the playing surface's red share (the colour model's reference)
    not_lines: np.ndarray  # uint8: 0 on the board's printed lines
    holes: np.ndarray  # uint8: 1 over the holes
    line_gain: np.ndarray  # float32: 1 + LINE_REDNESS on the lines, 1 elsewhere
    print_discs: np.ndarray  # uint8: 1 over discs printed in solid colour (carrom's)
    print_at: np.ndarray  # the flat indices of print_discs' pixels (one lookup, not a mask's)
    rims_at: np.ndarray  # and of those discs' printed rims' (``_printed_discs``)
    rim_level: float  # the rim's brightness as a share of the playing surface's
    # uint8: 1 on the pixels that passed a piece's test by themselves (the second of what
    # ``pieces`` gives, kept here by the detector), not closed or filled in
    seen: np.ndarray | None = None

    @property
    def ratio(self) -> np.ndarray:
        return self.grey.astype(np.float32) / np.maximum(self.background, 1).astype(np.float32)

    @property
    def redness(self) -> np.ndarray:
        img = self.image.astype(np.float32)
        return img[:, :, 2] / (img.sum(axis=2) + 1) - self.board_red

    def ratio_at(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        return self.grey[rows, cols] / np.maximum(self.background[rows, cols], 1.0)

    def redness_at(self, rows: np.ndarray, cols: np.ndarray, surface: bool = False
                   ) -> np.ndarray:
        """Redness against the board under the pixels, or against the playing surface."""
        px = self.image[rows, cols].astype(np.float32)
        board = self.surface_red if surface else self.board_red[rows, cols]
        return px[:, 2] / (px.sum(axis=1) + 1) - board

    def pieces(self, ratio_below: float, redness_above: float, allowed: np.ndarray,
               light_above: float | None = None,
               print_bgr: tuple[float, float, float] | None = None,
               cooler_by: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Pixels that belong to a piece, and those of them that passed a test by
        themselves (both uint8, 1 on them): the rest were closed or filled in. A piece's
        pixels are much darker than the board (black pieces, and the sides of all
        pieces), much lighter (``light_above``: white pieces, for sets
        that have them), much redder (red pieces, whose brightness under warm light
        can match the wood's) or, with ``cooler_by``, much less red than the board (a
        white piece on pale wood differs more in colour than in brightness; a shadow
        keeps the wood's colour); the printed marks inside a piece are filled in.
        The board's brown lines are neither: on them a pixel must be clearly darker than
        a line, or redder than a line's warmest pixels (which can pass the colour model's
        midway threshold and join a striker to the circle round it). On discs printed in
        solid colour (``print_bgr``, as the calibration saw them) a pixel is a piece's
        when its colour (red share) or brightness is unlike the print's; but the print
        darkened by a piece's shadow (its red share kept) is taken out again once the
        blobs are closed and filled, so a man standing on a disc is not joined to its
        shaded part (which moved his blob's middle off him). A disc's printed rim, red
        as the disc, is no piece's either: else with a man's edge it enclosed the part
        of the disc he leaves in view, and the filling joined that to him.
        Integer arithmetic for the 康樂棋 set: this runs on every frame."""
        dark = self.grey < cv2.convertScaleAbs(self.background, alpha=ratio_below)
        dark &= (self.grey >= cv2.convertScaleAbs(self.background, alpha=HOLE_RATIO)) | (
            self.holes == 0)
        b, g, r = cv2.split(self.image)
        total = b.astype(np.uint16) + g + r
        limit = ((self.board_red + redness_above * self.line_gain) * 1024).astype(np.uint16)
        red = (r.astype(np.uint32) * 1024) > (limit.astype(np.uint32) * total)
        seen = (dark & (self.not_lines > 0)) | red
        if light_above is not None:
            bright = self.grey.astype(np.float32) > self.background * np.float32(light_above)
            seen |= bright & (self.not_lines > 0)
        if cooler_by is not None:  # only as light as the board (a dark piece's blurred rim
            share = r.astype(np.float32) / (total + 1)  # is neutral too, and darker)
            cool = share < self.board_red - np.float32(cooler_by)
            clipped = cv2.max(cv2.max(b, g), r) >= CLIPPED  # (no colour in it)
            seen |= cool & ~clipped & (self.grey > self.background * np.float32(COOL_LEVEL)) & (
                self.not_lines > 0)
        shaded_print = None
        if print_bgr is not None and len(self.print_at):
            ink = np.asarray(print_bgr, np.float32)
            ink_share = ink[2] / (ink.sum() + 1)
            pixels, flat = self.image.reshape(-1, 3), seen.reshape(-1)  # (views)
            px = pixels[self.print_at].astype(np.float32)
            level = px.sum(axis=1) / max(float(ink.sum()), 1.0)
            like = np.abs(px[:, 2] / (px.sum(axis=1) + 1) - ink_share) <= PRINT_SHARE
            flat[self.print_at] = ~like | (level > PRINT_LEVEL) | (level < 1 / PRINT_LEVEL)
            # the print darkened by a piece's shadow keeps its red share: no piece's
            shaded_print = like & (level < 1 / PRINT_LEVEL)
            rim = pixels[self.rims_at].astype(np.float32)
            flat[self.rims_at] &= np.abs(rim[:, 2] / (rim.sum(axis=1) + 1) - ink_share) > (
                PRINT_SHARE)
        seen = (seen & (allowed > 0)).astype(np.uint8)
        # a piece lying across a line: its pixels on the line are bridged from both sides
        # (from the solid parts only: a line's dark margins must not bridge to anything)
        solid = cv2.morphologyEx(seen, cv2.MORPH_OPEN, _OPEN)
        bridged = cv2.morphologyEx(solid, cv2.MORPH_CLOSE, _BRIDGE) & (1 - self.not_lines)
        mask = fill_holes(cv2.morphologyEx(seen | bridged, cv2.MORPH_CLOSE, _CLOSE))
        if shaded_print is not None:
            mask.reshape(-1)[self.print_at] *= ~shaded_print
        return mask, seen


_CLOSE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_BRIDGE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
# on the board's lines, how much redder than the colour model's threshold a piece's pixel
# must be (1 + this, times the threshold): about two standard deviations below a red
# piece, above nearly all of a line's pixels
LINE_REDNESS = 0.4
# a pixel less red than the board counts as a light piece's only when it keeps this share
# of the board's brightness
COOL_LEVEL = 0.85
# a pixel with a channel this bright is saturated: its colour (red share) says nothing
CLIPPED = 250
# on a printed disc, a pixel whose red share differs from the print's by this much, or
# whose brightness is this many times the print's (or its inverse), is a piece's; a
# shadow keeps the print's red share and keeps more than half its light
PRINT_SHARE = 0.1
PRINT_LEVEL = 1.6
# an arm or a sleeve over the board, and the shadow it casts, are darker than this share
# of the lit board beside them
BELOW = 0.96
# the width (mm) of a forearm held over the board, or of a sleeve: the widest thing over
# it whose middle must still see the lit board beside it
ARM = 110.0
# a hole's black is about 0.06 of the board's brightness, a black piece about 0.4 (four
# standard deviations above this)
HOLE_RATIO = 0.2


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the gaps a piece's printed mark leaves inside its blob, but not the board
    areas the board's own lines enclose: thin lines are opened away first, so only the
    gaps inside blobs are out of reach of a flood fill from the corner."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN)
    reach = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.uint8)
    flooded = opened.copy()
    cv2.floodFill(flooded, reach, (0, 0), 1)
    return opened | (1 - flooded)


_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_SUM = np.ones((1, 3), np.float32)  # cv2.transform by it: B + G + R




def _printed_discs(rect: Rectifier, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Masks (1) of the solid printed discs' insides, 1.5 mm in from their printed rims
    (which ``_printed_lines`` counts as lines), and of those rims, 3.5 mm wide."""
    inside = np.zeros((rect.size, rect.size), np.uint8)
    rims = np.zeros_like(inside)
    for centre, radius in (carrom_print(board).discs if board.design == "carrom" else ()):
        cv2.circle(inside, rect.to_px(*centre), int(round((radius - 1.5) * rect.scale)), 1, -1)
        cv2.circle(rims, rect.to_px(*centre), int(round(radius * rect.scale)), 1,
                   int(round(3.5 * rect.scale)))
    return inside, rims


def _printed_lines(rect: Rectifier, board: Board, width: int) -> np.ndarray:
    """A mask (1) of the lines printed on the board, ``width`` pixels wide: for the goma
    design the lines joining the shooting circles, the circles and the rings; for carrom
    the baselines with their base circles, the corner arrows and the centre circles;
    for both the edge of the playing surface and the holes' rims."""
    n = rect.size
    lines = np.zeros((n, n), np.uint8)
    px = rect.to_px
    h = board.half
    if board.design == "carrom":
        printed = carrom_print(board)
        for a, b in printed.lines + printed.arrows:
            cv2.line(lines, px(*a), px(*b), 1, width)
        cv2.circle(lines, px(0, 0), int(round(board.penalty_diameter / 2 * rect.scale)), 1,
                   width)
        for centre, radius in printed.discs:  # the discs' rims, blurred both ways
            cv2.circle(lines, px(*centre), int(round(radius * rect.scale)), 1,
                       max(width, int(round(3.5 * rect.scale))))
    else:
        centres = {c: board.circle_centre(c) for c in CORNERS}
        for a, b in (("SW", "SE"), ("NW", "NE"), ("SW", "NW"), ("SE", "NE")):
            cv2.line(lines, px(*centres[a]), px(*centres[b]), 1, width)
        for c in CORNERS:  # the lines stop at the circles, whose insides are clear
            cv2.circle(lines, px(*centres[c]),
                       int(round(board.circle_diameter / 2 * rect.scale)) - width, 0, -1)
            cv2.circle(lines, px(*centres[c]),
                       int(round(board.circle_diameter / 2 * rect.scale)), 1, width)
        for d in (board.penalty_diameter, board.inner_diameter):
            cv2.circle(lines, px(0, 0), int(round(d / 2 * rect.scale)), 1, width)
    # the edge of the playing surface: the rim's dark wood shows a pixel either side
    # of where the calibration puts it, a thin dark line a piece at the cushion joins
    # (a carrom board's dark worn frame bleeds further into the view: three times as wide)
    cv2.rectangle(lines, px(-h, h), px(h, -h), 1, width * (3 if board.design == "carrom" else 1))
    for c in CORNERS:  # and the holes' blurred edges, neither black nor board
        cv2.circle(lines, px(*board.hole_centre(c)),
                   int(round(board.hole_diameter / 2 * rect.scale)), 1, width)
    return lines


class Rectifier:
    def __init__(self, camera: Camera, board: Board, scale: float = 1.0, z: float | None = None):
        self.camera, self.board, self.scale = camera, board, scale
        self.z = board.piece_thickness if z is None else z
        self.extent = board.half + board.rim_width + 4.0
        n = int(round(2 * self.extent * scale))
        self.size = n
        coords = (np.arange(n) + 0.5) / scale - self.extent
        xx, yy = np.meshgrid(coords, -coords)
        pix = camera.project(np.column_stack([xx.ravel(), yy.ravel(), np.full(xx.size, self.z)]))
        mx = pix[:, 0].reshape(n, n).astype(np.float32)
        my = pix[:, 1].reshape(n, n).astype(np.float32)
        self.map1, self.map2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        r = np.abs(np.maximum(np.abs(xx), np.abs(yy)))
        self.surface = (r <= board.half).astype(np.uint8)
        self.rim = ((r > board.half) & (r <= board.half + board.rim_width)).astype(np.uint8)
        # A piece may stand half over a hole (it stays up while its centre is outside):
        # over a hole only pixels lighter than the hole's black can be a piece's
        holes = np.zeros((n, n), np.uint8)
        for c in CORNERS:
            cv2.circle(holes, self.to_px(*board.hole_centre(c)),
                       int(round((board.hole_diameter / 2 + 2) * scale)), 1, -1)
        self.holes = holes
        if board.design == "carrom":
            # net pockets and a dark worn frame, redder than the wood where worn: pieces
            # are looked for on the playing surface only, away from the pockets (a piece
            # in a net is pocketed)
            nets = np.zeros((n, n), np.uint8)
            for c in CORNERS:
                cv2.circle(nets, self.to_px(*board.hole_centre(c)),
                           int(round((board.hole_diameter / 2 + 3.0) * scale)), 1, -1)
            self.allowed = (self.surface & (1 - nets)).astype(np.uint8)
        else:
            self.allowed = (self.surface | self.rim).astype(np.uint8)
        # The board's own printed lines are dark: they are no piece, and a closed line
        # (a shooting circle, a ring) must not enclose a piece's blob.
        width = max(1, int(round(3.0 * scale)))
        lines = _printed_lines(self, board, width)
        self.not_lines = (1 - lines).astype(np.uint8)
        self.line_gain = (1.0 + LINE_REDNESS * lines).astype(np.float32)
        k = int(round(2.6 * board.striker_radius * scale / 4)) | 1
        self._small_kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        # (quarter-size) wider than a piece with its shadow, narrower than an arm
        k = int(round(3.4 * board.piece_radius * scale / 4)) | 1
        self._wider_than_piece = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        # a window three strikers wide sees mostly board round a piece
        self._median_size = int(round(6 * board.striker_radius * scale / 4)) | 1
        # (quarter-size) from the middle of an arm to the board beside it, with a margin;
        # square, as a rectangle's dilation is separable (0.15 ms, a disc's 2.8 ms)
        k = int(round(2 * ARM * scale / 4)) | 1
        self._arm_reach = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        self.print_discs, rims = _printed_discs(self, board)
        self.print_at = np.flatnonzero(self.print_discs)
        self.rims_at = np.flatnonzero(rims)
        quarter = (int(round(n * 0.25)), int(round(n * 0.25)))
        self._surface_small = cv2.resize(self.surface, quarter, interpolation=cv2.INTER_NEAREST)
        self._rim_small = cv2.resize(self.rim, quarter, interpolation=cv2.INTER_NEAREST)
        self._holes_small = cv2.resize(self.holes, quarter,
                                       interpolation=cv2.INTER_NEAREST).astype(bool)

    def _board_level(self, small: np.ndarray, board: np.ndarray, level: int) -> np.ndarray:
        """The board's brightness round each pixel of the quarter-size grey image, from
        the pixels of ``board`` (a region, holes left out) near it, over a window three
        strikers wide: their mean; then the mean of those not in a region wider than a
        piece darker than BELOW times the lit board beside it (an arm or a sleeve over
        the board, with the shadow it casts: beside them the plain mean is theirs and
        the board's average, under which the bare board looks like a light piece; a
        piece's own shadow is narrower). The lit board is the plain mean's highest value
        within an arm's reach (inside an arm the window sees mostly arm, and an arm is
        not darker than itself). Then the mean of those within 4 % of that (no piece,
        light or dark, and no shadow). Only the region's own pixels count, its
        outermost row left out, so its edges are not pulled towards the rest."""
        size = (self._median_size, self._median_size)
        values = small.astype(np.float32)
        # the region's outermost quarter-size pixels mix in what lies beyond its edge
        inner = cv2.erode(board.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        weight = (inner & (values > 0.6 * level) & (values < 1.5 * level)).astype(np.float32)

        def mean(w: np.ndarray, otherwise) -> np.ndarray:
            total = cv2.boxFilter(values * w, -1, size, normalize=False)
            count = cv2.boxFilter(w, -1, size, normalize=False)
            return np.where(count > 0, total / np.maximum(count, 1e-6), otherwise)

        estimate = mean(weight, level)
        darker = (values < BELOW * cv2.dilate(estimate, self._arm_reach)).astype(np.uint8)
        wide = cv2.morphologyEx(darker, cv2.MORPH_OPEN, self._wider_than_piece)
        weight = weight * (1 - wide)
        estimate = mean(weight, estimate)
        estimate = mean(weight * (np.abs(values - estimate) < 0.04 * estimate), estimate)
        return np.clip(estimate, 0, 255).astype(np.uint8)

    def to_px(self, x: float, y: float) -> tuple[int, int]:
        return (int(round((x + self.extent) * self.scale - 0.5)),
                int(round((self.extent - y) * self.scale - 0.5)))

    def to_mm(self, col: float, row: float) -> tuple[float, float]:
        return ((col + 0.5) / self.scale - self.extent, self.extent - (row + 0.5) / self.scale)

    def features(self, frame: np.ndarray, light: bool = False) -> Features:
        """The rectified frame and its board background. ``light``: the set has pieces
        lighter than the board, so the background is the board's median brightness
        around each pixel (a closing, cheaper, would take a light piece for the board)."""
        rect = cv2.remap(frame, self.map1, self.map2, cv2.INTER_LINEAR)
        grey = cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        # the board's red share is a median over many pixels: a sample of them will do
        small_rect = cv2.resize(rect, (small.shape[1], small.shape[0]),
                                interpolation=cv2.INTER_NEAREST).astype(np.float32)
        small_red = small_rect[:, :, 2] / (cv2.transform(small_rect, _SUM) + 1)
        background = np.zeros_like(small)
        board_red = np.zeros(small.shape, np.float32)
        reds, levels = [], []
        for region in (self._surface_small, self._rim_small):
            inside = region.astype(bool)
            level = int(np.median(small[inside]))
            levels.append(level)
            # outside the region, and over the holes, the board is taken at its median
            fill = np.where(inside & ~self._holes_small, small, level).astype(np.uint8)
            if light:
                closed = self._board_level(small, inside & ~self._holes_small, level)
            else:
                closed = cv2.morphologyEx(fill, cv2.MORPH_CLOSE, self._small_kernel)
            background[inside] = closed[inside]
            board_px = inside & (small > 0.75 * closed)
            reds.append(float(np.median(small_red[board_px])) if board_px.any() else 0.33)
            board_red[inside] = reds[-1]
        size = (grey.shape[1], grey.shape[0])
        background = cv2.resize(background, size, interpolation=cv2.INTER_LINEAR)
        board_red = cv2.resize(board_red, size, interpolation=cv2.INTER_NEAREST)
        return Features(rect, grey, background, board_red, reds[0], self.not_lines,
                        self.holes, self.line_gain, self.print_discs,
                        self.print_at, self.rims_at,
                        levels[1] / max(levels[0], 1))
