"""Per-frame detection: every piece and striker on the board, in board millimetres.

On the rectified view (calibration.rectify) a pixel is "piece" when it is much darker
than the board around it (the venue's colour model sets how much). Touching pieces
are split at the saddles of the distance transform; each peak is a candidate, whose
pixels (those nearer to it than to any other peak) give its centre as their centroid.
A piece's visible side stretches its blob towards the camera, which moves that
centroid by half the stretch; the camera's position undoes it exactly. Colour comes
from the colour model, kind (piece or striker) from the blob's width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from calibration.colour import DARK_CLASS, LIKE, ColourModel
from calibration.profile import Calibration
from calibration.rectify import CLIPPED, PRINT_SHARE, Rectifier, fill_holes
from rules.board import carrom_print
from rules.errors import KangleError
from vision.crowd import PIECES, crowd_centres, crowds

# the least share of a light piece's middle whose pixels are like its colour and pass a
# piece's test by themselves (Features.pieces), not closed or filled in (on the carrom
# benchmark's seeds 89 and 97, peaks on the board enclosed by print: 0.16-0.44; on men,
# 0.58 and up) ...
FACE_SEEN = 0.5
# ... unless this share of it is saturated (CLIPPED: no colour to tell; a white man under
# a bright lamp, 0.88, where the board round him has 0.15)
SATURATED = 0.5
# the darkest tenth of the ring round a light piece is darker than this share of the board
# (its side and its shadow); glare has no side
SHADED = 0.9
# ... or darker by this share of the board than the darkest tenth of a ring a few pixels
# farther out (the board's own grain and light): a piece right under the camera shows no
# side and casts a faint shadow, but its edge still darkens the board beside it
EDGE_STEP = 0.04
# ... each ring judged by its board pixels where they are at least this share of it
RING_BOARD = 0.25
# beyond this share of its radius from its centre, a black piece's pixels are dark (its
# printed mark lies inside)
OUTER = 0.85
# a ring printed round a piece holds at most this many strikers' area (a shooting circle
# round its striker: 1.7)
RING_HOLDS = 2.5
# a lone piece's blob in the mask: its top face, side and shadow (1.09-1.22 times the
# face's area on rendered frames)
BLOB = 1.2
# a crowd is read again from its outlines when this many pieces' worth of it is left
# unexplained by the pieces its peaks found
UNEXPLAINED = 0.8
# ... and its outlines' reading is kept only if the pieces it finds make most of it (one
# round end found in a hand, an arm or a patch of glare makes a small part of the blob)
EXPLAINS = 0.75
# over a printed disc, what is no piece covers the ring round it too: a ring pixel is like
# the blob when no channel differs by more than this share of the blob's brightest, and
# unlike the board when its brightness is off the board's by more than this share
COVER_LIKE = 0.12
COVER_UNLIKE = 0.1
# a dark disc looked for on the rim has its printed marks closed over
_AROUND = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass(frozen=True)
class Detection:
    colour: str  # a colour of the board's piece set: "red", "black", "white"
    kind: str  # the set's name for it ("piece", "striker"; carrom: "man", "queen", …)
    x: float  # board mm
    y: float
    where: str  # "surface" | "rim" | "hole"
    confidence: float
    # found on the rim only against the rim's own darkness (Detector._dark_on_rim): maybe
    # a dark piece that left the table, maybe the rim's grain or a shadow on it
    weak: bool = False

    def to_json(self) -> dict:
        out = {"colour": self.colour, "kind": self.kind, "pos": [round(self.x, 2),
                                                                 round(self.y, 2)],
               "where": self.where, "confidence": round(self.confidence, 3)}
        return out | ({"weak": True} if self.weak else {})


class Peak(NamedTuple):
    """A local maximum of the distance transform (rectified view's pixels)."""

    x: float  # column
    y: float  # row
    strength: float  # the distance transform there (pixels)
    first: int  # its first pixel's index, row by row


class Detector:
    def __init__(self, calibration: Calibration, scale: float = 0.7):
        self.cal = calibration
        self.board = calibration.board
        self.colours: ColourModel = calibration.colours
        self.rect = Rectifier(calibration.camera, self.board, scale)
        cam = calibration.camera
        centre = -cam.rotation.T @ np.asarray(cam.tvec, float)
        self.nadir = (float(centre[0]), float(centre[1]))
        self.height = float(centre[2])
        s = scale
        self.r_piece = self.board.piece_radius * s
        self.r_striker = self.board.striker_radius * s
        self._blob_area = BLOB * np.pi * self.r_piece ** 2
        k = int(self.r_piece * 1.1) | 1
        self.peak_kernel = np.ones((k, k), np.uint8)
        self._names: dict[tuple[str, str], str] = {}  # (colour, size) → the set's name
        for part in self.board.piece_set:  # (the first part of each, as Board.part)
            self._names.setdefault((part.colour, part.size), part.name)
        # the discs printed in solid colour: centre (rectified px) and radius (px)
        self._discs = [(*self.rect.to_px(*centre), r * s) for centre, r in (
            carrom_print(self.board).discs if self.board.design == "carrom" else ())]

    def detect(self, frame: np.ndarray, rim_too: bool = True) -> list[Detection]:
        """Every piece in ``frame``; ``rim_too``: and the weak detections of dark discs on
        the rim (_dark_on_rim, about 2 ms a frame: a tracker asks for them only while a
        piece may have left the table, ShotTracker.wants_rim)."""
        h, w = frame.shape[:2]
        if (w, h) != tuple(self.cal.camera.size):
            raise KangleError(f"the frame is {w}x{h} but the calibration was made for "
                              f"{self.cal.camera.size[0]}x{self.cal.camera.size[1]}: use the "
                              "calibration of this camera and resolution")
        model = self.colours
        f = self.rect.features(frame, light=model.light_threshold is not None)
        mask, seen = f.pieces(model.ratio_threshold, model.redness_threshold,
                              self.rect.allowed, model.light_threshold, model.print_bgr,
                              model.cool_threshold)
        f = replace(f, seen=seen)
        whole = mask.copy()
        # A peak that is no piece's centre — too few or too many pixels fall to it, or
        # their centroid is well off the peak (the filled middle of touching pieces) — is cut out
        # of the mask, so that the pieces around it get peaks of their own, and the frame
        # is looked at again.
        doubts = []  # the peaks that were no piece's centre
        known: dict = {}  # measurements kept from one look to the next (_measure_all)
        whole_dist = dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        peaks = self._peaks(dist)
        for look in range(4):
            kept = self._strongest_apart(peaks)
            found = self._measure_all(mask, dist, f, kept, known=known)
            weak = [kept[k] for k, d in enumerate(found) if d is not None and not d[1]]
            if not weak:
                break
            doubts += weak
            if look < 3:
                dist, peaks = self._cut_out(mask, dist, peaks, weak)
        kept, found = self._crowds(whole, whole_dist, f, kept, found, doubts)
        out = [d for d, centred in filter(None, found) if centred]
        if rim_too and self.board.design != "carrom":  # (carrom: nothing on the frame)
            seen = np.zeros_like(whole)
            for (x, y), d in zip(kept, found, strict=True):
                if d is not None and d[1]:
                    cv2.circle(seen, (int(round(x)), int(round(y))),
                               int(round(self.r_striker)) + 2, 1, -1)
            out += self._dark_on_rim(f, seen)
        return out

    def _dark_on_rim(self, f, seen: np.ndarray) -> list[Detection]:
        """Dark discs on the rim that the board's darkness threshold misses (a black piece
        on dark wood), found against the rim's own brightness (ColourModel.rim_threshold)
        away from the pieces already found (``seen``, 1 over them), each as a ``weak``
        detection: the tracker takes one only for a piece it saw leave the table there."""
        model = self.colours
        below = model.rim_threshold(f.rim_level)
        if below <= model.ratio_threshold:
            return []
        dark = (f.grey < cv2.convertScaleAbs(f.background, alpha=below)).astype(np.uint8)
        dark &= self.rect.rim & (1 - seen)
        dark = fill_holes(cv2.morphologyEx(dark, cv2.MORPH_CLOSE, _AROUND))
        if cv2.countNonZero(dark) < np.pi * self.r_piece ** 2 * 0.6:
            return []
        dist = cv2.distanceTransform(dark, cv2.DIST_L2, 5)
        peaks = self._strongest_apart(self._peaks(dist))
        found = self._measure_all(dark, dist, f, peaks)
        return [replace(d, weak=True, confidence=d.confidence * 0.5)
                for d, centred in filter(None, found) if centred and d.where == "rim"]

    def _crowds(self, mask: np.ndarray, dist: np.ndarray, f, kept: list, found: list,
                doubts: list) -> tuple[list, list]:
        """Each crowd of touching pieces (vision.crowd) where a peak was no piece's centre
        (``doubts``) or a piece's worth is left unexplained, read again from the centres
        its outlines tell; those are kept where they make at least as many pieces as
        the peaks did and most of the crowd (a rosette of carrom's set-up has no neck
        between its pieces: the peaks fall between them). ``dist``: the distance
        transform of ``mask``."""
        if not doubts and cv2.countNonZero(mask) < (
                self._explained(found) + UNEXPLAINED * self._blob_area):
            return kept, found  # every blob is the pieces found in it: no crowd
        labels, crowded, areas = crowds(mask, self.r_piece)
        if not len(crowded):
            return kept, found
        doubted = {labels[int(y), int(x)] for x, y in doubts}
        for i, (rows, cols) in crowded.items():
            inside = [labels[int(y), int(x)] == i for x, y in kept]
            ours = [d for d, ins in zip(found, inside, strict=True) if ins]
            if i not in doubted and areas[i] < (
                    self._explained(ours) + UNEXPLAINED * self._blob_area):
                continue  # its peaks found pieces enough for it
            centres = self._strongest_apart(crowd_centres(mask.shape, rows, cols, f,
                                                          self.colours, self.r_piece))
            others = [p for p, ins in zip(kept, inside, strict=True) if not ins]
            trial = self._measure_all(mask, dist, f, centres + others, len(centres),
                                      crowded=True)
            if _pieces(trial) >= _pieces(ours) and (
                    self._explained(trial) >= EXPLAINS * areas[i]):
                found = trial + [d for d, ins in zip(found, inside, strict=True) if not ins]
                kept = centres + others
        return kept, found

    def _explained(self, found) -> float:
        """The pixels the pieces among ``found`` (detection, centred) cover in the mask."""
        wider = (self.board.striker_radius / self.board.piece_radius) ** 2
        return sum(self._blob_area * (wider if d.kind == self._name(d.colour, "striker") else 1)
                   for d, centred in filter(None, found) if centred)

    def _peaks(self, dist: np.ndarray, box: tuple[int, int, int, int] | None = None,
               where: np.ndarray | None = None) -> list[Peak]:
        """Local maxima of the distance transform wide enough to be a piece, strongest
        first (a plateau counts once, at its centre; equal ones in the order of their
        first pixels, row by row). ``box`` (x0, y0, x1, y1): only those inside it, and
        ``where`` (a mask of the box): only on its pixels."""
        h, w = dist.shape
        x0, y0, x1, y1 = box or (0, 0, w, h)
        m = self.peak_kernel.shape[0] // 2  # the box and the kernel's reach round it
        ex0, ey0 = max(x0 - m, 0), max(y0 - m, 0)
        grown = cv2.dilate(dist[ey0:min(y1 + m, h), ex0:min(x1 + m, w)], self.peak_kernel)
        inner = dist[y0:y1, x0:x1]
        peaks = (inner >= 0.6 * self.r_piece) & (
            inner >= grown[y0 - ey0:y1 - ey0, x0 - ex0:x1 - ex0])
        if where is not None:
            peaks &= where
        ys, xs = np.divmod(np.flatnonzero(peaks), x1 - x0)  # a few pixels: group them
        ys, xs = (ys + y0).tolist(), (xs + x0).tolist()  # by hand
        out = []
        for g in _groups(ys, xs):
            x, y = sum(xs[i] for i in g) / len(g), sum(ys[i] for i in g) / len(g)
            out.append(Peak(x, y, float(dist[int(y), int(x)]), ys[g[0]] * w + xs[g[0]]))
        return _strongest_first(out)

    def _cut_out(self, mask: np.ndarray, dist: np.ndarray, peaks: list[Peak],
                 spots: list[tuple[float, float]]) -> tuple[np.ndarray, list[Peak]]:
        """Cut a small disc round each of ``spots`` (peaks that were no piece's centre)
        out of ``mask`` (in place) and return its distance transform and peaks after,
        from ``dist`` and ``peaks`` before: only the blobs that held a spot change, so
        only they are measured again (a pixel's distance to the nearest pixel off the
        mask depends on its own blob alone)."""
        _, labels = cv2.connectedComponents(mask)
        blobs = {int(labels[int(round(y)), int(round(x))]) for x, y in spots}
        for x, y in spots:
            cv2.circle(mask, (int(round(x)), int(round(y))), int(round(0.3 * self.r_piece)),
                       0, -1)
        if 0 in blobs:  # a plateau's centre off its blob (never seen): look at it all again
            dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
            return dist, self._peaks(dist)
        changed = np.isin(labels, list(blobs)).astype(np.uint8)
        x, y, bw, bh = cv2.boundingRect(changed)
        h, w = mask.shape
        box = (max(x - 1, 0), max(y - 1, 0), min(x + bw + 1, w), min(y + bh + 1, h))
        x0, y0, x1, y1 = box
        inside = changed[y0:y1, x0:x1] > 0
        dist = dist.copy()
        dist[y0:y1, x0:x1][inside] = cv2.distanceTransform(
            mask[y0:y1, x0:x1], cv2.DIST_L2, 5)[inside]
        kept = [p for p in peaks if not changed[p.first // w, p.first % w]]
        return dist, _strongest_first(kept + self._peaks(dist, box, inside))

    def _strongest_apart(self, spots) -> list[tuple[float, float]]:
        """Peaks (Peak, or column and row) strongest first, each at least most of a
        piece's radius from those kept."""
        kept: list[tuple[float, float]] = []
        limit = (0.9 * self.r_piece) ** 2
        for spot in spots:
            x, y = spot[0], spot[1]
            if all((x - a) ** 2 + (y - b) ** 2 > limit for a, b in kept):
                kept.append((float(x), float(y)))
        return kept

    def _measure_all(self, mask, dist, f, kept, first: int | None = None,
                     crowded: bool = False, known: dict | None = None):
        """The detections at the ``first`` peaks of ``kept`` (all by default), each
        measured against all of them; ``crowded``: those first are centres a crowd's
        outlines told (pieces, whatever the distance transform says there). ``known``:
        measurements made before on the same frame, filled in here — a peak whose
        window of the mask, width and neighbours are unchanged is not measured again
        (when a doubtful peak is cut out of the mask, only the pieces round it change)."""
        if not kept:
            return []
        pts = np.array(kept)
        gaps = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
        reach = self.r_striker + 6 * self.rect.scale
        near = [np.flatnonzero((gaps[k] < 2 * reach) & (gaps[k] > 0)) for k in range(len(kept))]
        out = []
        for k in range(len(kept) if first is None else first):
            if known is None:
                out.append(self._measure(mask, dist, f, kept, k, near[k], crowded))
                continue
            cx, cy = kept[k]
            width = float(dist[int(round(cy)), int(round(cx))])
            x0, y0 = int(max(cx - reach, 0)), int(max(cy - reach, 0))
            key = (kept[k], width, frozenset(kept[j] for j in near[k]),
                   mask[y0:int(cy + reach + 1), x0:int(cx + reach + 1)].tobytes())
            if key not in known:
                known[key] = self._measure(mask, dist, f, kept, k, near[k], crowded)
            out.append(known[key])
        return out

    def _measure(self, mask, dist, f, peaks, k, neighbours, crowded: bool = False
                 ) -> tuple[Detection, bool] | None:
        """The detection at peak ``k``, and whether the peak looks like a piece's centre."""
        cx, cy = peaks[k]
        reach = self.r_striker + 6 * self.rect.scale
        x0, x1 = int(max(cx - reach, 0)), int(min(cx + reach + 1, mask.shape[1]))
        y0, y1 = int(max(cy - reach, 0)), int(min(cy + reach + 1, mask.shape[0]))
        ys, xs = np.nonzero(mask[y0:y1, x0:x1])
        if not len(xs):
            return None
        xs = xs + x0
        ys = ys + y0
        if len(neighbours):  # keep the pixels nearer this peak than any neighbour's
            own = (xs - cx) ** 2 + (ys - cy) ** 2
            ox, oy = np.asarray([peaks[j] for j in neighbours]).T[:, :, None]
            mine = own <= ((xs - ox) ** 2 + (ys - oy) ** 2).min(axis=0)
            xs, ys = xs[mine], ys[mine]
        # the board's printed lines are no piece's: a piece is measured by its pixels off
        # them (a shooting circle round a striker at its centre, or the inner ring round a
        # 小回, lies just outside the piece and joins its blob when blur or the piece's
        # shadow fills the narrow gap between them)
        off_lines = self.rect.not_lines[ys, xs] > 0
        xs, ys = xs[off_lines], ys[off_lines]
        width = self.r_piece if crowded else float(dist[int(round(cy)), int(round(cx))])
        if width > self.r_striker * 1.35:  # wider than any piece, unless a closed line
            width = self._inside_lines(mask, cx, cy, width)  # round it made it so
        kind = "striker" if width > (self.r_piece + self.r_striker) / 2 else "piece"
        radius = self.r_striker if kind == "striker" else self.r_piece
        if width > radius * 1.35 or not len(xs):
            return None  # wider than any piece: a hand or a cue
        core = (xs - cx) ** 2 + (ys - cy) ** 2 <= (0.6 * radius) ** 2
        rows, cols = ys[core], xs[core]
        typical = True  # its pixels like its colour (a light set's: PIECES)
        if self.rect.surface[int(round(cy)), int(round(cx))]:
            ratio, redness = f.ratio_at(rows, cols), f.redness_at(rows, cols)
            colour, confidence = self.colours.classify(float(ratio.mean()),
                                                       float(redness.mean()))
            if colour and self.colours.light_threshold is not None:
                # else a piece's worth of an arm or a sleeve, or the middle of a black
                # and a white man touching: no piece's centre
                like = self.colours.distances(ratio, redness)[colour] <= LIKE
                typical = _share(like) >= PIECES
                if self.colours.classes[colour][0][0] >= DARK_CLASS:
                    # a light colour may be the board's own (white men on pale wood):
                    # then the board enclosed by print and filled in (between two
                    # base circles where an arrow passes) is as like it as a man. A
                    # man's face is seen for itself, like his colour and lighter or
                    # cooler than the board — unless it is mostly saturated, with no
                    # colour to tell it by
                    clipped = f.image[rows, cols].max(axis=1) >= CLIPPED
                    if _share(clipped) < SATURATED:
                        face = like & (f.seen[rows, cols] > 0)
                        typical = typical and _share(face) >= FACE_SEEN
        else:  # on the rim
            colour, confidence = self.colours.classify_by_redness(
                float(f.redness_at(rows, cols, surface=True).mean()))
        if colour is None or self._print_only(f, cx, cy, radius, confidence) or (
                self._unshaded(f, colour, cx, cy, radius)):
            return None
        (level, _), (redness, _) = self.colours.classes[colour]
        if self.colours.light_threshold is not None and level < DARK_CLASS and (
                redness < self.colours.redness_threshold):
            # in a set with light pieces, a black piece's outer part is dark: grey pixels
            # there, about as bright as the board and less red (which the model takes for
            # a light piece's), are its blurred edge and its shadow, not more of it. (A
            # red piece's outer pixels are told by their redness, and a moving one's
            # blur is pale red; a set with no light pieces takes no grey pixels.)
            outer = (xs - cx) ** 2 + (ys - cy) ** 2 > (OUTER * radius) ** 2
            grey = f.ratio_at(ys, xs) >= self.colours.ratio_threshold
            xs, ys = xs[~(outer & grey)], ys[~(outer & grey)]
        fill = len(xs) / (math.pi * radius ** 2)
        confidence *= min(fill, 1.0)
        mx, my = int(xs.sum()) / len(xs), int(ys.sum()) / len(ys)  # (np.mean's values)
        centred = (typical and  # like its colour, and
                   0.6 <= fill <= 1.5 and  # one piece's worth of pixels, around the peak
                   (mx - cx) ** 2 + (my - cy) ** 2 <= (0.35 * radius) ** 2 and
                   _roundness(xs - mx, ys - my) > 0.55)  # not two touching pieces as one
        x, y = self._undo_side(*self.rect.to_mm(mx, my), kind)
        return Detection(colour, self._name(colour, kind), x, y, self._where(x, y),
                         confidence), centred

    def _inside_lines(self, mask: np.ndarray, cx: float, cy: float, width: float) -> float:
        """The width (px) of the mask at a peak (``cx``, ``cy``) as its part inside the
        board's lines has it: a ring printed round a piece (a shooting circle round a
        striker at its centre) joins its blob when the gap between them fills, and then
        the piece is what lies inside it. Only where that part is no larger than a ring
        holds (RING_HOLDS strikers): a sleeve or an arm across the cushion's lines is
        cut by them into strips as narrow as a piece, but as long as the arm. Else (and
        for a peak on a line) ``width``, the whole blob's.

        The part (4-connected) is looked for in a box two strikers round the peak, and
        in the whole view only when it runs out of the box and is still small enough: a
        part inside the box is the whole part, and its width there is the whole view's
        (the nearest pixel off it in every direction lies in the box)."""
        row, col = int(round(cy)), int(round(cx))
        holds = RING_HOLDS * math.pi * self.r_striker ** 2
        h, w = mask.shape
        reach = int(2 * self.r_striker) + 3
        box = (max(row - reach, 0), min(row + reach + 1, h),
               max(col - reach, 0), min(col + reach + 1, w))
        inside, part = self._part_at(mask, box, row, col)
        y0, y1, x0, x1 = box
        area = np.count_nonzero(part)
        if area <= holds and (
                (y0 > 0 and part[0].any()) or (y1 < h and part[-1].any()) or
                (x0 > 0 and part[:, 0].any()) or (x1 < w and part[:, -1].any())):
            box = (0, h, 0, w)  # it runs out of the box: the whole view
            inside, part = self._part_at(mask, box, row, col)
            area = np.count_nonzero(part)
        if area == 0 or area > holds:
            return width
        return float(cv2.distanceTransform(inside, cv2.DIST_L2, 5)[row - box[0], col - box[2]])

    def _part_at(self, mask: np.ndarray, box: tuple[int, int, int, int], row: int, col: int
                 ) -> tuple[np.ndarray, np.ndarray]:
        """In ``box`` (top, bottom, left, right rows and columns) of the view: the mask
        off the board's lines, and the 4-connected part of it at (``row``, ``col``) (none
        when that pixel lies on a line or off the mask)."""
        y0, y1, x0, x1 = box
        inside = mask[y0:y1, x0:x1] & self.rect.not_lines[y0:y1, x0:x1]
        labels = cv2.connectedComponents(inside, connectivity=4)[1]
        label = labels[row - y0, col - x0]
        return inside, (labels == label) & (label > 0)

    def _name(self, colour: str, size: str) -> str:
        """The set's name for a piece of this colour and size ("piece" or "striker")."""
        return self._names.get((colour, size), size)

    def _unshaded(self, f, colour: str, cx: float, cy: float, radius: float) -> bool:
        """Whether a blob of a light colour has nothing darker than the board around it:
        a white piece stands up from the board, so its side, its shadow or at least its
        edge darkens part of the ring just outside its top face (below SHADED of the
        board, or EDGE_STEP below the board a few pixels farther out); a patch of glare,
        however round, fades into the board."""
        (level, _), _ = self.colours.classes[colour]
        if level < DARK_CLASS:
            return False

        def darkest_tenth(*gaps: float) -> float:
            """Of the board's own pixels on the rings ``gaps`` px outside it: a printed
            line or the frame beyond the playing surface is darker for reasons of its
            own (beside the frame, the ring farther out was always darker than any
            shadow, and a white man there was taken for glare)."""
            rows, cols = _rings(f, cx, cy, radius, gaps)
            board = (f.not_lines[rows, cols] > 0) & (self.rect.allowed[rows, cols] > 0)
            if np.count_nonzero(board) >= RING_BOARD * len(rows):
                rows, cols = rows[board], cols[board]
            return _tenth(f.ratio_at(rows, cols))
        beside = darkest_tenth(1, 3)
        return beside > SHADED and beside > darkest_tenth(8, 11) - EDGE_STEP

    def _print_only(self, f, cx: float, cy: float, radius: float, confidence: float) -> bool:
        """Whether a blob centred on a disc printed on the board is no piece: the print
        itself (most of the blob's middle, every pixel, has the print's colour: its
        blurred or compressed rim can look like a piece) or something over the print that
        looks surely like no piece (a hand: what covers a printed disc is cut out in the
        disc's own shape, so only a sure colour makes it a piece)."""
        ink = self.colours.print_bgr
        col, row = int(round(cx)), int(round(cy))
        if ink is None or not self.rect.print_discs[row, col]:
            return False
        if confidence < 0.6:
            return True
        k = max(1, int(0.5 * radius))
        px = f.image[max(row - k, 0):row + k + 1, max(col - k, 0):col + k + 1].reshape(
            -1, 3).astype(np.float32)
        share = px[:, 2] / (px.sum(axis=1) + 1)
        if _share(np.abs(share - ink[2] / (sum(ink) + 1)) < PRINT_SHARE) > 0.5:
            return True
        # what covers the whole disc and runs on beyond it (an arm, a sleeve) is no
        # piece: most of a ring just outside the disc has the blob's colour and is
        # unlike the board
        dc, dr, dradius = min(self._discs, key=lambda d: (d[0] - col) ** 2 + (d[1] - row) ** 2)
        rows, cols = _rings(f, dc, dr, dradius, (3, 6))
        middle = np.median(px, axis=0)
        like = np.abs(f.image[rows, cols].astype(np.float32) - middle).max(axis=1) < (
            COVER_LIKE * max(float(middle.max()), 1.0))
        unlike_board = np.abs(f.ratio_at(rows, cols) - 1) > COVER_UNLIKE
        return _share(like & unlike_board) > 0.5

    def _undo_side(self, x: float, y: float, size: str) -> tuple[float, float]:
        """The side of a piece (height t) shows between its top face and where its base
        projects, d·t/H nearer the camera's nadir; the blob's centroid moves half that."""
        board = self.board
        t = board.striker_thickness if size == "striker" else board.piece_thickness
        shift = 0.5 * t / self.height
        # a striker's top face is higher than the plane rectified at: bring it down
        lift = (t - self.rect.z) / (self.height - t)
        (nx, ny), grow = self.nadir, (1 + shift) * (1 - lift)
        return nx + (x - nx) * grow, ny + (y - ny) * grow

    def _where(self, x: float, y: float) -> str:
        region = self.board.region(x, y)
        return {"surface": "surface", "hole": "hole"}.get(region, "rim")


def _rings(f, cx: float, cy: float, radius: float, gaps) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows, columns) of 48 points on each circle ``gaps`` px outside the
    circle of ``radius`` round (``cx``, ``cy``), kept in the image."""
    rows = np.concatenate([cy + (radius + g) * _RING_SIN for g in gaps])
    cols = np.concatenate([cx + (radius + g) * _RING_COS for g in gaps])
    return (np.clip(rows.round().astype(int), 0, f.grey.shape[0] - 1),
            np.clip(cols.round().astype(int), 0, f.grey.shape[1] - 1))


_RING_SIN = np.sin(np.linspace(0, 2 * np.pi, 48, endpoint=False))
_RING_COS = np.cos(np.linspace(0, 2 * np.pi, 48, endpoint=False))


def _tenth(values: np.ndarray) -> float:
    """``np.percentile(values, 10)``, the same number, from a partial sort (2 µs for a
    ring's pixels where numpy's percentile takes 28)."""
    at = 0.1 * (len(values) - 1)
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi))
    a, b, t = float(part[lo]), float(part[hi]), at - lo
    # numpy's interpolation, from the nearer end
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def _strongest_first(peaks: list[Peak]) -> list[Peak]:
    """Peaks strongest first, equal ones in the order of their first pixels: the order
    looking at the whole frame gives, whichever part of it they were found in."""
    return sorted(peaks, key=lambda p: (-p.strength, p.first))


def _share(flags: np.ndarray) -> float:
    """The share of a boolean array that is true (np.mean's value, without its cost)."""
    return np.count_nonzero(flags) / flags.size if flags.size else 0.0


def _pieces(found) -> int:
    """How many of the (detection, centred) pairs are pieces."""
    return sum(1 for d in found if d is not None and d[1])


def _roundness(dx: np.ndarray, dy: np.ndarray) -> float:
    """The ratio of the narrower to the wider spread of a blob's pixels (offsets from
    its centroid): about 1 for a disc, 0.5 for two touching discs side by side."""
    sxx, syy, sxy = float(dx @ dx), float(dy @ dy), float(dx @ dy)
    mid, half = (sxx + syy) / 2, math.hypot((sxx - syy) / 2, sxy)
    return math.sqrt(max(mid - half, 0.0) / max(mid + half, 1e-9))


def _groups(ys: list[int], xs: list[int]) -> list[list[int]]:
    """Indices of the pixels (rows ``ys``, columns ``xs``) grouped into 8-connected
    groups — what connectedComponents does, for the few pixels a peak mask has."""
    where = {(y, x): i for i, (y, x) in enumerate(zip(ys, xs, strict=True))}
    seen: set[int] = set()
    out = []
    for start in range(len(ys)):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            i = todo.pop()
            group.append(i)
            y, x = ys[i], xs[i]
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    j = where.get((y + dy, x + dx))
                    if j is not None and j not in seen:
                        seen.add(j)
                        todo.append(j)
        out.append(group)
    return out
