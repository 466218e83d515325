"""The synthetic scene renderer: camera frames of the board with exact ground truth.

A top-down texture of the board (frame, surface, its printed design, holes) is drawn in
board millimetres — a 康樂棋 board (goma design: corner circles joined by lines, rings)
or a carrom board (baselines with red base circles, arrows, centre circles; a dark, worn
frame, net pockets, a printed cloth round the table) — and warped into the camera
through its pose and lens distortion; each piece is then drawn where its top face (at
its thickness above the surface) projects, with its side, its printed mark and a soft
shadow. Lighting
gradients, noise, blur, JPEG compression and occluding hands or cues make the frames
look like a venue's. Tests, benchmarks and the demo all use it.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.camera import Camera
from rules.board import CORNERS, Board, carrom_print
from rules.pieces import ALL_IDS, colour_of, is_striker

TEXTURE_PX_PER_MM = 2.0
SURFACE_BGR = (150, 196, 226)
FRAME_BGR = (40, 62, 96)
LINE_BGR = (45, 70, 110)
FLOOR_BGR = (70, 70, 70)
PIECE_BGR = {"red": (40, 38, 175), "black": (32, 32, 32)}
MARK_BGR = {"red": (150, 200, 235), "black": (140, 190, 220)}
# a carrom set: ivory and black men with turned grooves, a pale red queen
CARROM_BGR = {"white": (212, 226, 236), "black": (34, 34, 38), "red": (105, 95, 200)}
CARROM_MARK = {"white": (175, 190, 200), "black": (62, 62, 68), "red": (80, 70, 160)}
CARROM_SURFACE = (170, 210, 236)
CARROM_FRAME = (28, 38, 52)
PRINT_BGR = (35, 35, 40)
BASE_RED = (40, 40, 180)


def part_of(piece: str) -> tuple[str, str]:
    """The colour and size ("piece" or "striker") of a rendered disc: a 康樂棋 id (R01,
    BS, …) or, for another set, ``colour-size-n`` (``white-piece-3``)."""
    if piece in ALL_IDS:
        return colour_of(piece), "striker" if is_striker(piece) else "piece"
    colour, size, _ = piece.split("-")
    return colour, size


def set_ids(board: Board) -> list[str]:
    """One id per disc of the board's piece set, as ``part_of`` reads them (for 康樂棋
    sets, the rules' own ids)."""
    if board.design == "goma":
        return list(ALL_IDS)
    return [f"{p.colour}-{p.size}-{i}" for p in board.piece_set for i in range(1, p.count + 1)]


def carrom_setup(board: Board, turn_deg: float = 0.0, gap_mm: float = 0.3
                 ) -> dict[str, tuple[float, float]]:
    """Where a carrom set stands at the start (ICF): the queen on the centre spot, six
    men round her, white and black in turn, and twelve round those, ``gap_mm`` apart,
    the whites in a Y through the queen; the rosette turned ``turn_deg`` (degrees,
    anticlockwise) — every board mm, ids as ``set_ids``. No striker: it is played from
    a baseline."""
    d = 2 * board.piece_radius + gap_mm
    rings = ([(d, 60 * k, "white" if k % 2 == 0 else "black") for k in range(6)]
             + [(2 * d, 60 * k, "white" if k % 2 == 0 else "black") for k in range(6)]
             + [(math.sqrt(3) * d, 30 + 60 * k, "black" if k % 2 == 0 else "white")
                for k in range(6)])
    pos = {"red-piece-1": (0.0, 0.0)}
    count = {"white": 0, "black": 0}
    for r, a, colour in rings:
        count[colour] += 1
        t = math.radians(a + turn_deg)
        pos[f"{colour}-piece-{count[colour]}"] = (r * math.cos(t), r * math.sin(t))
    return pos


@dataclass(frozen=True)
class Lamp:
    """The light over the table, which casts the shadows of what is held over the board
    (a player's cue, hand and arm): its middle over the board (``x``, ``y``, board mm)
    at ``height`` mm above the playing surface, ``width`` mm across (a bulb's shade … a
    long tube: the wider, the softer a shadow's edge), and ``darkness``, the share of
    the light a shadow takes (the rest is the room's)."""

    x: float
    y: float
    height: float
    width: float
    darkness: float

    @classmethod
    def random(cls, rng: np.random.Generator) -> Lamp:
        return cls(x=float(rng.uniform(-250, 250)), y=float(rng.uniform(-250, 250)),
                   height=float(rng.uniform(600, 1500)), width=float(rng.uniform(80, 500)),
                   darkness=float(rng.uniform(0.2, 0.6)))

    def spread(self, z):
        """How far (a share of its distance from under the lamp) the shadow of something
        ``z`` mm up falls beyond it: z / (height - z), what lies at the lamp's height or
        above taken as at 0.9 of it."""
        z = np.minimum(z, self.height * 0.9)
        return z / (self.height - z)

    def shadow_of(self, points: np.ndarray) -> np.ndarray:
        """Where points ``(x, y, z)`` (board mm, z above the surface) cast their shadow
        on the surface: away from the lamp, the farther the higher they are."""
        return points[:, :2] + (points[:, :2] - (self.x, self.y)) * self.spread(
            points[:, 2])[:, None]

    def penumbra(self, z: float) -> float:
        """The width (mm) of the soft edge of the shadow of something ``z`` mm up."""
        return self.width * float(self.spread(z))


@dataclass
class Look:
    """How a frame looks: every field is a nuisance the detector must survive."""

    light_gradient: float = 0.0  # fraction of brightness change across the board
    light_warmth: float = 0.0  # -1 cold … +1 warm
    noise: float = 0.0  # Gaussian noise, grey levels
    blur: float = 0.0  # Gaussian blur sigma, pixels
    jpeg: int = 0  # JPEG quality (0: no compression)
    shadow: float = 0.35  # shadow darkness under pieces
    occluders: int = 0  # hands or cues over the board
    seed: int = 0
    lamp: Lamp | None = None  # casts the shadows of hands, cues and arms; None: none

    @classmethod
    def random(cls, rng: np.random.Generator, occluders: bool = True) -> Look:
        look = cls(light_gradient=float(rng.uniform(0, 0.35)),
                   light_warmth=float(rng.uniform(-0.6, 0.6)),
                   noise=float(rng.uniform(0.5, 5)), blur=float(rng.uniform(0, 1.0)),
                   jpeg=int(rng.choice([0, 70, 85, 95])), shadow=float(rng.uniform(0.15, 0.45)),
                   occluders=int(rng.random() < 0.15) if occluders else 0,
                   seed=int(rng.integers(1 << 30)))
        # the lamp from the look's own stream: the draws above (and the caller's next
        # ones) are as they were before there was a lamp
        look.lamp = Lamp.random(np.random.default_rng([look.seed, 7]))
        return look


@dataclass
class Rendered:
    image: np.ndarray
    camera: Camera
    pieces: dict[str, tuple[float, float]]
    hidden: set[str] = field(default_factory=set)  # pieces mostly covered by an occluder


def board_texture(board: Board, scale: float = TEXTURE_PX_PER_MM,
                  rng: np.random.Generator | None = None) -> np.ndarray:
    """The empty board seen from straight above, ``scale`` px per mm, centre at the
    image centre; one margin of floor around the frame."""
    outer = board.half + board.rim_width
    margin = 400.0
    size = int(round(2 * (outer + margin) * scale))
    img = np.full((size, size, 3), FLOOR_BGR, np.uint8)

    def px(x, y):
        return (int(round((x + outer + margin) * scale)), int(round((outer + margin - y) * scale)))

    def r(mm):
        return max(1, int(round(mm * scale)))

    if board.design == "carrom":
        return _carrom_texture(board, img, px, r, rng or np.random.default_rng(0))
    cv2.rectangle(img, px(-outer, outer), px(outer, -outer), FRAME_BGR, -1)
    cv2.rectangle(img, px(-board.half, board.half), px(board.half, -board.half), SURFACE_BGR, -1)
    if rng is not None:  # faint wood grain
        grain = rng.normal(0, 1, (size // 8, 1)).astype(np.float32)
        grain = cv2.resize(cv2.GaussianBlur(grain, (1, 9), 3), (size, size))
        img = np.clip(img.astype(np.float32) + 6 * grain[..., None], 0, 255).astype(np.uint8)
    thick = r(2.0)
    centres = {c: board.circle_centre(c) for c in CORNERS}
    for a, b in (("SW", "SE"), ("NW", "NE"), ("SW", "NW"), ("SE", "NE")):
        cv2.line(img, px(*centres[a]), px(*centres[b]), LINE_BGR, thick, cv2.LINE_AA)
    for c in CORNERS:
        cv2.circle(img, px(*centres[c]), r(board.circle_diameter / 2), SURFACE_BGR, -1,
                   cv2.LINE_AA)
        cv2.circle(img, px(*centres[c]), r(board.circle_diameter / 2), LINE_BGR, thick,
                   cv2.LINE_AA)
        cv2.circle(img, px(*board.hole_centre(c)), r(board.hole_diameter / 2), (12, 12, 12), -1,
                   cv2.LINE_AA)
    cv2.circle(img, px(0, 0), r(board.penalty_diameter / 2), LINE_BGR, thick, cv2.LINE_AA)
    cv2.circle(img, px(0, 0), r(board.inner_diameter / 2), LINE_BGR, thick, cv2.LINE_AA)
    return img


def _carrom_texture(board: Board, img: np.ndarray, px, r, rng) -> np.ndarray:
    """A carrom board as photos show them: a printed cloth round the table, a dark frame
    worn lighter in patches, pale plywood with grain, the ICF baselines (two lines 470 mm
    long, 102 and 134 mm from each cushion) ending in red base circles, arrows from the
    corners, the centre circles, and pockets whose black holds a net."""
    size = img.shape[0]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(20, 60)
    a, b = rng.uniform(40, 200, 3), rng.uniform(40, 200, 3)
    img[:] = np.where((((xx // period) + (yy // period)) % 2)[:, :, None] > 0, a, b).astype(
        np.uint8)
    outer = board.half + board.rim_width
    h = board.half
    cv2.rectangle(img, px(-outer, outer), px(outer, -outer), CARROM_FRAME, -1)
    wear = cv2.GaussianBlur(rng.normal(0, 1, (size // 16, size // 16)).astype(np.float32),
                            (0, 0), 2)
    wear = cv2.resize(np.clip(wear, 0, None), (size, size))
    frame = np.zeros((size, size), np.float32)
    cv2.rectangle(frame, px(-outer, outer), px(outer, -outer), 1.0, -1)
    cv2.rectangle(frame, px(-h, h), px(h, -h), 0.0, -1)
    img[:] = np.clip(img + (frame * wear * 45)[:, :, None], 0, 255).astype(np.uint8)
    cv2.rectangle(img, px(-h, h), px(h, -h), CARROM_SURFACE, -1)
    grain = rng.normal(0, 1, (size // 8, 1)).astype(np.float32)
    grain = cv2.resize(cv2.GaussianBlur(grain, (1, 9), 3), (size, size))
    surface = np.zeros((size, size), np.float32)
    cv2.rectangle(surface, px(-h, h), px(h, -h), 1.0, -1)
    img = np.clip(img.astype(np.float32) + (8 * grain * surface)[:, :, None], 0,
                  255).astype(np.uint8)
    thin = r(1.2)
    printed = carrom_print(board)
    for a, b in printed.lines + printed.arrows:
        cv2.line(img, px(*a), px(*b), PRINT_BGR, thin, cv2.LINE_AA)
    for a, b in printed.arrows:  # a head on the arrow's last 20 mm
        k = 20 / math.dist(a, b)
        tail = (b[0] - k * (b[0] - a[0]), b[1] - k * (b[1] - a[1]))
        cv2.arrowedLine(img, px(*tail), px(*b), PRINT_BGR, thin, cv2.LINE_AA, tipLength=0.6)
    for centre, radius in printed.discs:
        cv2.circle(img, px(*centre), r(radius), BASE_RED, -1, cv2.LINE_AA)
        if centre != (0.0, 0.0):  # the base circles are outlined, the centre one is not
            cv2.circle(img, px(*centre), r(radius), PRINT_BGR, thin, cv2.LINE_AA)
    cv2.circle(img, px(0, 0), r(board.penalty_diameter / 2), PRINT_BGR, thin, cv2.LINE_AA)
    for c in CORNERS:  # pockets: dark holes with a net's threads across them
        centre, radius = px(*board.hole_centre(c)), r(board.hole_diameter / 2)
        pocket = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(pocket, centre, radius, 1, -1, cv2.LINE_AA)
        net = np.full(img.shape, 18, np.uint8)
        step = max(3, r(6.0))
        net[::step, :] = 95
        net[:, ::step] = 95
        img = np.where(pocket[:, :, None] > 0, net, img)
    return img


class Renderer:
    """Renders frames of one board through cameras; the texture is made once."""

    def __init__(self, board: Board, seed: int = 0):
        self.board = board
        self.texture = board_texture(board, rng=np.random.default_rng(seed))
        self.outer = board.half + board.rim_width + 400.0
        self._maps: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    @staticmethod
    def _key(camera: Camera) -> tuple:
        return (camera.size, camera.matrix.tobytes(), camera.dist.tobytes(),
                np.asarray(camera.rvec).tobytes(), np.asarray(camera.tvec).tobytes())

    def _warp_maps(self, camera: Camera) -> tuple[np.ndarray, np.ndarray]:
        key = self._key(camera)
        if key not in self._maps:
            w, h = camera.size
            u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
            xy = camera.to_board(np.column_stack([u.ravel(), v.ravel()]))
            mx = ((xy[:, 0] + self.outer) * TEXTURE_PX_PER_MM).reshape(h, w).astype(np.float32)
            my = ((self.outer - xy[:, 1]) * TEXTURE_PX_PER_MM).reshape(h, w).astype(np.float32)
            if len(self._maps) > 8:
                self._maps.clear()
            self._maps[key] = (mx, my)
        return self._maps[key]

    def render(self, camera: Camera, pieces: dict[str, tuple[float, float]],
               look: Look | None = None, rotations: dict[str, float] | None = None) -> Rendered:
        """A frame of ``pieces`` (id → board mm) through ``camera``."""
        look = look or Look()
        rng = np.random.default_rng(look.seed)
        img = self._pieces_on_board(camera, pieces, look, rotations)
        hidden = self._occluders(img, camera, pieces, look, rng) if look.occluders else set()
        return self._finish(img, camera, pieces, hidden, look, rng)

    def film(self, camera: Camera, frames: list, look: Look | None = None,
             bands: int = 1, over: list | None = None) -> list[np.ndarray]:
        """One image per exposure; each exposure is a list of piece positions at moments
        within it (their average is the motion blur of a moving piece). A rolling shutter
        (``bands`` > 1) reads the image's rows one after another: each exposure is then
        ``bands`` such lists, one per horizontal band of the image from the top, each
        band's moments later than the one above it. ``over``: for each exposure, shapes
        above the pieces (``vision.player.Shape``: a polygon in board mm with its height,
        and its colour), drawn in order over them — a player's cue, hand and arm."""
        look = look or Look()
        rng = np.random.default_rng(look.seed)
        out = []
        for k, exposure in enumerate(frames):
            groups = exposure if bands > 1 else [exposure]
            layers = [sum(self._pieces_on_board(camera, m, look, None) for m in g) / len(g)
                      for g in groups]
            edges = np.linspace(0, layers[0].shape[0], len(layers) + 1).astype(int)
            img = np.concatenate([layer[a:b] for layer, a, b in
                                  zip(layers, edges[:-1], edges[1:], strict=True)])
            if over and look.lamp:
                cast_shadows(img, camera, [polygon for polygon, _ in over[k]], look.lamp)
            for polygon, colour in over[k] if over else ():
                pixels = camera.project(polygon)
                # (a lens's distortion sends a point far out of the view to infinity:
                # such points are left out of the drawn polygon)
                pixels = pixels[np.isfinite(pixels).all(axis=1)
                                & (np.abs(pixels) < 1e6).all(axis=1)]
                if len(pixels) >= 3:
                    cv2.fillPoly(img, [np.round(pixels * 4).astype(np.int32)], colour,
                                 cv2.LINE_AA, shift=2)
            middle = groups[len(groups) // 2]
            out.append(self._finish(img, camera, middle[-1], set(), look, rng).image)
        return out

    def _pieces_on_board(self, camera, pieces, look, rotations) -> np.ndarray:
        key = self._key(camera)
        if getattr(self, "_base_key", None) != key:
            mx, my = self._warp_maps(camera)
            self._base = cv2.remap(self.texture, mx, my, cv2.INTER_LINEAR,
                                   borderValue=FLOOR_BGR).astype(np.float32)
            self._base_key = key
        img = self._base.copy()
        self._shadows(img, camera, pieces, look)
        for pid in sorted(pieces, key=lambda p: -pieces[p][1]):  # far pieces first
            angle = (rotations or {}).get(pid, float(zlib.crc32(pid.encode()) % 360))
            self._piece(img, camera, pid, pieces[pid], angle)
        return img

    def _finish(self, img, camera, pieces, hidden, look, rng) -> Rendered:
        img = self._light(img, camera, look)
        if look.blur > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), look.blur)
        if look.noise > 0:
            noise = np.empty_like(img)
            cv2.setRNGSeed(int(rng.integers(1 << 31)))
            cv2.randn(noise, 0.0, look.noise)
            img += noise
        out = np.clip(img, 0, 255).astype(np.uint8)
        if look.jpeg:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return Rendered(out, camera, dict(pieces), hidden)

    # -- parts of a frame ----------------------------------------------------------------
    def _outline(self, camera: Camera, pos, radius: float, z: float, n: int = 40) -> np.ndarray:
        a = np.linspace(0, 2 * np.pi, n, endpoint=False)
        pts = np.column_stack([pos[0] + radius * np.cos(a), pos[1] + radius * np.sin(a),
                               np.full(n, z)])
        return camera.project(pts)

    def _shadows(self, img, camera, pieces, look) -> None:
        if not pieces or look.shadow <= 0:
            return
        mask = np.zeros(img.shape[:2], np.float32)
        for pid, pos in pieces.items():
            r = self._radius(pid)
            poly = self._outline(camera, (pos[0] + 3, pos[1] - 4), r * 1.05, 0.0, 24)
            cv2.fillPoly(mask, [np.round(poly * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
        mask = cv2.GaussianBlur(mask, (0, 0), 3)
        img *= (1 - look.shadow * mask)[..., None]

    def _radius(self, pid: str) -> float:
        return (self.board.striker_radius if part_of(pid)[1] == "striker"
                else self.board.piece_radius)

    def _piece(self, img, camera, pid: str, pos, angle: float) -> None:
        colour, size = part_of(pid)
        striker = size == "striker"
        r = self._radius(pid)
        z = self.board.striker_thickness if striker else self.board.piece_thickness
        carrom = self.board.design == "carrom"
        base = np.array((CARROM_BGR if carrom else PIECE_BGR)[colour], np.float32)
        bottom = self._outline(camera, pos, r, 0.0)
        top = self._outline(camera, pos, r, z)
        side = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32))
        cv2.fillPoly(img, [np.round(side * 4).astype(np.int32)], tuple(float(c) for c in
                                                                        base * 0.6),
                     cv2.LINE_AA, shift=2)
        cv2.fillPoly(img, [np.round(top * 4).astype(np.int32)], tuple(float(c) for c in base),
                     cv2.LINE_AA, shift=2)
        mark = (CARROM_MARK if carrom else MARK_BGR)[colour]
        for share in ((0.78, 0.45) if carrom else (0.78,)):  # carrom men: turned grooves
            ring = self._outline(camera, pos, r * share, z)
            cv2.polylines(img, [np.round(ring * 4).astype(np.int32)], True, mark, 1,
                          cv2.LINE_AA, shift=2)
        if carrom:
            return
        # the printed character (pieces) or the GOMA logo (strikers): a few strokes
        t = math.radians(angle)
        c, s = math.cos(t), math.sin(t)
        strokes = ([(-0.5, 0.3, 0.5, 0.3), (0, 0.55, 0, -0.55), (-0.4, -0.25, 0.4, -0.25)]
                   if not striker else
                   [(-0.55, 0.2, -0.15, 0.2), (-0.05, 0.2, 0.3, 0.2), (-0.55, -0.2, 0.55, -0.2)])
        for x0, y0, x1, y1 in strokes:
            p = np.array([[pos[0] + r * (x0 * c - y0 * s), pos[1] + r * (x0 * s + y0 * c), z],
                          [pos[0] + r * (x1 * c - y1 * s), pos[1] + r * (x1 * s + y1 * c), z]])
            a, b = camera.project(p)
            cv2.line(img, tuple(np.round(a * 4).astype(int)), tuple(np.round(b * 4).astype(int)),
                     mark, 1, cv2.LINE_AA, shift=2)

    def _occluders(self, img, camera, pieces, look, rng) -> set[str]:
        hidden: set[str] = set()
        laid = []  # (start, end, hand) of each, drawn once all their shadows are cast
        for _ in range(look.occluders):
            side = rng.choice(["S", "N", "E", "W"])
            along = rng.uniform(-300, 300)
            reach = rng.uniform(150, 420)
            edge = self.board.half + self.board.rim_width + 150
            start = {"S": (along, -edge), "N": (along, edge), "E": (edge, along),
                     "W": (-edge, along)}[side]
            direction = np.array({"S": (0, 1), "N": (0, -1), "E": (-1, 0), "W": (1, 0)}[side])
            end = np.array(start) + direction * (edge - self.board.half + reach)
            hand = rng.random() < 0.6
            laid.append((np.array(start, float), end, hand))
            width = (HAND if hand else CUE)[0]
            normal = np.array([-direction[1], direction[0]])
            for pid, pos in pieces.items():
                d = np.asarray(pos) - np.array(start)
                along_d = float(d @ direction)
                across = abs(float(d @ normal))
                if -20 < along_d < (edge - self.board.half + reach) + (45 if hand else 10) and (
                        across < width / 2 + self._radius(pid) * 0.2):
                    hidden.add(pid)
        if look.lamp:
            cast_shadows(img, camera, [shape for start, end, hand in laid
                                       for shape in occluder_shapes(start, end, hand)],
                         look.lamp)
        for start, end, hand in laid:
            lay_occluder(img, camera, start, end, hand)
        return hidden

    def _light(self, img, camera, look) -> np.ndarray:
        h, w = img.shape[:2]
        if look.light_gradient:
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            angle = (look.seed % 360) * np.pi / 180
            ramp = (np.cos(angle) * (xx / w - 0.5) + np.sin(angle) * (yy / h - 0.5))
            img *= (1 + look.light_gradient * ramp)[..., None]
        if look.light_warmth:
            warm = look.light_warmth * 0.12
            img *= np.array([1 - warm, 1.0, 1 + warm], np.float32)
        return img


# a player's forearm with a round hand at its end, and a cue: width (mm), height over the
# board (mm) and colour (BGR), drawn flat
HAND = (85.0, 60.0, (120, 150, 200))
CUE = (14.0, 40.0, (60, 100, 150))


def lay_occluder(img: np.ndarray, camera: Camera, start: np.ndarray, end: np.ndarray,
                 hand: bool) -> None:
    """Draws into ``img`` (in place) a forearm ending in a round hand at ``end``
    (``hand``) or a cue, from ``start`` to ``end`` (board mm), in one flat colour."""
    _, z, colour = HAND if hand else CUE
    poly = camera.project(occluder_shapes(start, end, hand)[0])
    cv2.fillPoly(img, [np.round(poly).astype(np.int32)], colour, cv2.LINE_AA)
    if hand:
        tip = camera.project(np.array([[*end, z]]))[0]
        cv2.circle(img, tuple(np.round(tip).astype(int)),
                   int(45 * camera.matrix[0, 0] / 1100), colour, -1, cv2.LINE_AA)


def occluder_shapes(start: np.ndarray, end: np.ndarray, hand: bool) -> list[np.ndarray]:
    """What ``lay_occluder`` draws, as polygons of points ``(x, y, z)`` in board mm: the
    forearm or cue, and the hand's disc (of the hand's width)."""
    width, z, _ = HAND if hand else CUE
    along = end - start
    normal = np.array([-along[1], along[0]]) / np.linalg.norm(along) * width / 2
    quad = np.array([start + normal, end + normal, end - normal, start - normal])
    shapes = [np.column_stack([quad, np.full(4, z)])]
    if hand:
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        shapes.append(np.column_stack([end[0] + width / 2 * np.cos(a),
                                       end[1] + width / 2 * np.sin(a), np.full(24, z)]))
    return shapes


def cast_shadows(img: np.ndarray, camera: Camera, shapes: list[np.ndarray],
                 lamp: Lamp) -> None:
    """Darkens ``img`` (float, in place) where ``lamp`` casts the shadows of ``shapes``
    (polygons of points ``(x, y, z)`` in board mm) on the surface, over the board and
    the pieces on it alike, each shadow's edge as soft as its height and the lamp's
    width make it (a penumbra's width is about four of the blur's sigmas)."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for shape in shapes:
        ground = lamp.shadow_of(shape)
        poly = camera.project(np.column_stack([ground, np.zeros(len(ground))]))
        # something lifted nearly to the lamp throws a faint shadow beyond the view
        if not np.all(np.abs(poly) < 1e6):
            continue
        # pixels per mm where the shadow falls
        middle = ground.mean(axis=0)
        a, b = camera.project(np.array([[*middle, 0.0], [middle[0] + 10.0, middle[1], 0.0]]))
        sigma = max(lamp.penumbra(float(shape[:, 2].mean())) * np.linalg.norm(b - a) / 40, 0.5)
        pad = int(3 * sigma) + 2
        x0, y0 = np.floor(poly.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x0 >= x1 or y0 >= y1:
            continue
        layer = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillPoly(layer, [np.round((poly - (x0, y0)) * 4).astype(np.int32)], 1.0,
                     cv2.LINE_AA, shift=2)
        np.maximum(mask[y0:y1, x0:x1], _soften(layer, sigma), out=mask[y0:y1, x0:x1])
    img *= (1 - lamp.darkness * mask)[..., None]


def _soften(layer: np.ndarray, sigma: float) -> np.ndarray:
    """``layer`` blurred with a Gaussian of ``sigma`` px. A wide one (an arm lifted
    towards a low lamp: a penumbra of metres) is as smooth at a fraction of the size,
    and blurred there: a full-size kernel of hundreds of pixels took seconds a frame."""
    shrink = int(sigma // 4)
    if shrink < 2:
        return cv2.GaussianBlur(layer, (0, 0), sigma)
    h, w = layer.shape
    small = cv2.resize(layer, (max(w // shrink, 1), max(h // shrink, 1)),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / shrink), (w, h),
                      interpolation=cv2.INTER_LINEAR)


def random_camera(rng: np.random.Generator, size=(1280, 720)) -> Camera:
    """A plausible venue camera: 1.2-1.5 m up, up to 12° off vertical, slightly turned,
    with some barrel distortion."""
    return Camera.looking_down(size=size, fov_deg=float(rng.uniform(62, 72)),
                               height_mm=float(rng.uniform(1200, 1500)),
                               tilt_deg=float(rng.uniform(0, 12)),
                               yaw_deg=float(rng.uniform(-6, 6)),
                               shift_mm=(float(rng.uniform(-30, 30)), float(rng.uniform(-30, 30))),
                               dist=(float(rng.uniform(-0.12, 0.0)), float(rng.uniform(0, 0.03)),
                                     0.0, 0.0, 0.0))


def render_chessboard(camera: Camera, pattern: tuple[int, int], square_mm: float,
                      noise: float = 1.0, seed: int = 0) -> np.ndarray:
    """A photo of a printed chessboard (``pattern`` inner corners, squares of
    ``square_mm``) lying at the camera's board pose, its first inner corner at the
    origin, through the camera's lens — for testing camera calibration."""
    w, h = camera.size
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    xy = camera.to_board(np.column_stack([u.ravel(), v.ravel()])) / square_mm + 1
    cols, rows = pattern[0] + 1, pattern[1] + 1
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < cols) & (xy[:, 1] >= 0) & (xy[:, 1] < rows)
    white = ((np.floor(xy[:, 0]) + np.floor(xy[:, 1])) % 2 == 0) | ~inside
    margin = (xy[:, 0] > -1) & (xy[:, 0] < cols + 1) & (xy[:, 1] > -1) & (xy[:, 1] < rows + 1)
    img = np.where(white, 230.0, 25.0)
    img = np.where(margin, img, 110.0).reshape(h, w)
    # 4x supersampling at the square edges is approximated by a light blur
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    img += np.random.default_rng(seed).normal(0, noise, img.shape)
    return cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
