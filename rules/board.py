"""The 康樂棋 board model: a profile of its dimensions and the geometry questions on it.

Every length is in millimetres in the board frame: origin at the board centre, x to
the right, y away from the red player (red sits at y < 0, black at y > 0).
Holes and shooting circles are named by their corner: SW, SE (red's side), NW, NE.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from rules.errors import KangleError
from rules.fields import Fields
from rules.pieces import COLOURS, pieces_of
from rules.profile_files import read_profile

CORNERS = ("SW", "SE", "NW", "NE")
CUSHIONS = ("S", "E", "N", "W")
_CORNER_SIGNS = {"SW": (-1, -1), "SE": (1, -1), "NW": (-1, 1), "NE": (1, 1)}
SHIPPED = Path(__file__).parent / "profiles"

# Regions a point can be in, from ``Board.region``.
SURFACE, HOLE, RIM, OFF = "surface", "hole", "rim", "off"
# How the playing surface is printed: 康樂棋's four corner circles joined by lines, or
# standard carrom's baselines, arrows and centre circles (a board for the camera only).
DESIGNS = ("goma", "carrom")
SET_COLOURS = ("red", "black", "white")
SIZES = ("piece", "striker")


@dataclass(frozen=True)
class SetPart:
    """One kind of disc in a board's piece set, as the camera tells them apart: ``name``
    (what a referee calls it: piece, striker, man, queen), its ``colour``, its ``size``
    (a piece's or a striker's diameter and thickness) and how many a set has."""

    name: str
    colour: str
    size: str
    count: int


GOMA_SET = (SetPart("piece", "red", "piece", 16), SetPart("piece", "black", "piece", 16),
            SetPart("striker", "red", "striker", 1), SetPart("striker", "black", "striker", 1))

Point = tuple[float, float]


@dataclass(frozen=True)
class CarromPrint:
    """What the ICF prints on a carrom board's playing surface, in board millimetres:
    each side's two baselines (from and to the centres of their base circles), the base
    circles and the centre circle (solid red discs, (centre, radius)), and the arrow from
    each corner towards the middle (ending in its head at the second point)."""

    lines: tuple[tuple[Point, Point], ...]
    discs: tuple[tuple[Point, float], ...]
    arrows: tuple[tuple[Point, Point], ...]


# ICF: baselines 470 mm long (to the base circles' outer edges), 102 and 134 mm from the
# cushion, ending in base circles 31.8 mm across; arrows 265 mm long, starting about 70 mm
# in from each corner
_BASE_HALF = 235.0 - 15.9
_BASELINES = (102.0, 134.0)
_BASE_RADIUS = 15.9
_ARROW_FROM_CORNER, _ARROW_LENGTH = 70.0, 265.0


def carrom_print(board: Board) -> CarromPrint:
    """The printed design of a carrom-design board (see CarromPrint)."""
    h = board.half
    lines, discs, arrows = [], [((0.0, 0.0), board.inner_diameter / 2)], []
    for turn in range(4):  # each side is the south side turned by quarter turns
        c, s = math.cos(turn * math.pi / 2), math.sin(turn * math.pi / 2)

        def at(x: float, y: float, c=c, s=s) -> Point:
            return (round(x * c - y * s, 6), round(x * s + y * c, 6))
        for d in _BASELINES:
            lines.append((at(-_BASE_HALF, d - h), at(_BASE_HALF, d - h)))
        middle = sum(_BASELINES) / 2 - h
        discs += [(at(-_BASE_HALF, middle), _BASE_RADIUS), (at(_BASE_HALF, middle), _BASE_RADIUS)]
        start = _ARROW_FROM_CORNER - h
        along = _ARROW_LENGTH / math.sqrt(2)
        arrows.append((at(start, start), at(start + along, start + along)))
    return CarromPrint(tuple(lines), tuple(discs), tuple(arrows))


@dataclass(frozen=True)
class Board:
    """Dimensions of one board, all in millimetres (masses in grams)."""

    name: str
    side: float
    rim_width: float
    hole_diameter: float
    hole_inset: float
    circle_diameter: float
    circle_inset: float
    circle_owners: dict[str, str]
    penalty_diameter: float
    inner_diameter: float
    piece_diameter: float
    piece_mass: float
    striker_diameter: float
    striker_mass: float
    piece_thickness: float = 6.0
    striker_thickness: float = 7.0
    source: str = ""
    design: str = "goma"
    piece_set: tuple[SetPart, ...] = GOMA_SET

    # -- derived sizes -------------------------------------------------------------
    @property
    def half(self) -> float:
        """Distance from the centre to each cushion line."""
        return self.side / 2

    @property
    def piece_radius(self) -> float:
        return self.piece_diameter / 2

    @property
    def striker_radius(self) -> float:
        return self.striker_diameter / 2

    def radius_of(self, piece: str) -> float:
        return self.striker_radius if piece in ("RS", "BS") else self.piece_radius

    def thickness_of(self, piece: str) -> float:
        """Height of the piece's top face above the playing surface, mm."""
        return self.striker_thickness if piece in ("RS", "BS") else self.piece_thickness

    def mass_of(self, piece: str) -> float:
        """Mass in grams."""
        return self.striker_mass if piece in ("RS", "BS") else self.piece_mass

    @property
    def set_colours(self) -> tuple[str, ...]:
        """The colours of the piece set, in the order the profile names them."""
        return tuple(dict.fromkeys(part.colour for part in self.piece_set))

    def count_of(self, colour: str) -> int:
        """How many discs of ``colour`` the set has, pieces and strikers."""
        return sum(p.count for p in self.piece_set if p.colour == colour)

    def part(self, colour: str, size: str) -> SetPart | None:
        """The set's part of this colour and size, if it has one."""
        return next((p for p in self.piece_set if p.colour == colour and p.size == size), None)

    def check_playable(self) -> None:
        """Refuse a board the 康樂棋 rules cannot be played on (a carrom board is for
        checking the camera on real boards, not for keeping a game)."""
        if self.design != "goma" or self.piece_set != GOMA_SET:
            raise KangleError(f"board {self.name!r} is a {self.design} board for the camera "
                              "only: a 康樂棋 game needs a goma-design board with 16 red and 16 "
                              "black pieces (the default, --board goma)")

    # -- named features ------------------------------------------------------------
    def hole_centre(self, hole: str) -> tuple[float, float]:
        sx, sy = _corner(hole)
        d = self.half - self.hole_inset
        return (sx * d, sy * d)

    def circle_centre(self, circle: str) -> tuple[float, float]:
        sx, sy = _corner(circle)
        d = self.half - self.circle_inset
        return (sx * d, sy * d)

    def circle_owner(self, circle: str) -> str:
        _corner(circle)
        return self.circle_owners[circle]

    def circles_of(self, colour: str) -> tuple[str, ...]:
        return tuple(c for c in CORNERS if self.circle_owners[c] == colour)

    # -- geometry questions --------------------------------------------------------
    def hole_at(self, x: float, y: float) -> str | None:
        """The hole whose opening contains the point (a piece's centre), if any."""
        r = self.hole_diameter / 2
        for hole in CORNERS:
            hx, hy = self.hole_centre(hole)
            if math.hypot(x - hx, y - hy) <= r:
                return hole
        return None

    def region(self, x: float, y: float) -> str:
        """Where a point lies: ``hole``, ``surface`` (the playing surface), ``rim`` (the
        flat top of the frame) or ``off`` (beyond the frame, off the table)."""
        if self.hole_at(x, y):
            return HOLE
        if abs(x) <= self.half and abs(y) <= self.half:
            return SURFACE
        outer = self.half + self.rim_width
        if abs(x) <= outer and abs(y) <= outer:
            return RIM
        return OFF

    def circle_at(self, x: float, y: float) -> str | None:
        """The shooting circle holding a point (a piece's centre); on the line counts."""
        r = self.circle_diameter / 2
        for circle in CORNERS:
            cx, cy = self.circle_centre(circle)
            if math.hypot(x - cx, y - cy) <= r + 1e-9:
                return circle
        return None

    def in_inner_ring(self, x: float, y: float) -> bool:
        """Rule 9.3: a centre on the inner ring's line still counts as inside."""
        return math.hypot(x, y) <= self.inner_diameter / 2 + 1e-9

    def in_penalty_ring(self, x: float, y: float) -> bool:
        """A centre on the penalty ring's line counts as inside (as for 9.3)."""
        return math.hypot(x, y) <= self.penalty_diameter / 2 + 1e-9

    def setup_positions(self) -> dict[str, tuple[float, float]]:
        """Rule 4.1: each side's 16 pieces in a row along its own cushion, touching it,
        centred, 1 mm apart. Red's row is at y < 0, black's at y > 0."""
        pitch = self.piece_diameter + 1.0
        y = self.half - self.piece_radius
        positions = {}
        for colour, sign in (("red", -1), ("black", 1)):
            ids = pieces_of(colour)
            first = -pitch * (len(ids) - 1) / 2
            for i, piece in enumerate(ids):
                positions[piece] = (round(first + i * pitch, 3), sign * y)
        return positions


def _corner(name: str) -> tuple[int, int]:
    try:
        return _CORNER_SIGNS[name]
    except KeyError:
        raise KangleError(f"unknown corner {name!r}: use SW, SE, NW or NE") from None


def load_board(name_or_path: str | Path = "goma", playable: bool = False) -> Board:
    """Load a board profile by shipped name (``goma``, ``carrom``) or by path to a TOML
    file; ``playable``: refuse one a 康樂棋 game cannot be played on."""
    data, source = read_profile(name_or_path, "board", SHIPPED)
    board = board_from_table(data, source)
    if playable:
        board.check_playable()
    return board


def board_from_table(data: dict, source: str) -> Board:
    """Build and check a board from a parsed profile table (as stored in a game log)."""
    top = Fields(data, "board")
    if not top.has("surface") and not top.has("holes"):
        raise KangleError(f"{source} is not a board profile (it has no [surface] or [holes]; "
                          "a rules profile such as 'standard' goes with --profile): the "
                          "shipped boards are goma and carrom")
    surface, holes = top.table("surface"), top.table("holes")
    circles, rings = top.table("circles"), top.table("rings")
    pieces, striker = top.table("pieces"), top.table("striker")
    owners = circles.raw("owners")
    if not isinstance(owners, dict) or not all(isinstance(v, str) for v in owners.values()) or \
            sorted(owners) != sorted(CORNERS) or sorted(owners.values()) != sorted(COLOURS * 2):
        raise KangleError(
            "board.circles.owners must give each of SW, SE, NW, NE to 'red' or 'black', "
            "two circles each"
        )
    board = Board(
        name=top.text("name"),
        side=surface.positive("side_mm"),
        rim_width=surface.positive("rim_width_mm"),
        hole_diameter=holes.positive("diameter_mm"),
        hole_inset=holes.positive("inset_mm"),
        circle_diameter=circles.positive("diameter_mm"),
        circle_inset=circles.positive("inset_mm"),
        circle_owners=dict(owners),
        penalty_diameter=rings.positive("penalty_diameter_mm"),
        inner_diameter=rings.positive("inner_diameter_mm"),
        piece_diameter=pieces.positive("diameter_mm"),
        piece_mass=pieces.positive("mass_g"),
        striker_diameter=striker.positive("diameter_mm"),
        striker_mass=striker.positive("mass_g"),
        piece_thickness=pieces.positive("thickness_mm", 6.0),
        striker_thickness=striker.positive("thickness_mm", 7.0),
        source=source,
        design=top.choice("design", DESIGNS, "goma"),
        piece_set=_piece_set(top.items("set", [])),
    )
    for section in (top, surface, holes, circles, rings, pieces, striker):
        section.done()
    _check_sane(board)
    return board


def _piece_set(items: list) -> tuple[SetPart, ...]:
    """The ``[[set]]`` tables of a board profile (none: 康樂棋's red and black)."""
    if not items:
        return GOMA_SET
    parts = []
    for i, item in enumerate(items):
        f = Fields(item, f"board.set[{i}]")
        parts.append(SetPart(f.text("name"), f.choice("colour", SET_COLOURS),
                             f.choice("size", SIZES), f.count("count")))
        f.done()
    if len({(p.colour, p.size) for p in parts}) != len(parts):
        raise KangleError("board.set: two parts share a colour and size, so the camera could "
                          "not tell them apart")
    if len({p.colour for p in parts}) < 2:
        raise KangleError("board.set: a set needs pieces of at least two colours")
    return tuple(parts)


def _check_sane(b: Board) -> None:
    problems = []
    if b.inner_diameter >= b.penalty_diameter:
        problems.append("the inner ring must be smaller than the penalty ring")
    if 16 * (b.piece_diameter + 1) > b.side - 2 * b.hole_diameter:
        problems.append("16 pieces do not fit in a row between the holes")
    if b.circle_diameter < b.striker_diameter:
        problems.append("a striker does not fit inside a shooting circle")
    if b.hole_inset < b.hole_diameter / 2 - b.piece_diameter:
        problems.append("the holes lie outside the playing surface")
    if b.circle_inset + b.circle_diameter / 2 > b.half:
        problems.append("the shooting circles overlap the centre line")
    if b.rim_width < b.piece_diameter:
        # (a piece knocked onto it must fit; the camera measures its light there)
        problems.append(f"the rim (rim_width_mm {b.rim_width:g}) must be at least a piece "
                        f"wide ({b.piece_diameter:g} mm)")
    if problems:
        raise KangleError(f"board profile {b.source}: " + "; ".join(problems))
