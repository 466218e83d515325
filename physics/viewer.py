"""The replay viewer's drawing: the board to scale, the pieces, their trails, a stroke's
aim and the calls.

Drawing works on any pygame Surface, so `--export` makes PNG and GIF files with no
display at all; physics/window.py is the interactive viewer. Screen y grows downwards;
board y grows towards black, so black's side is drawn at the top.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from rules.timeline import Timeline

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from physics.text import pygame_font, wrap
from rules.board import CORNERS, Board
from rules.errors import KangleError
from rules.pieces import colour_of, is_striker

WOOD, FRAME, LINE = (222, 190, 140), (110, 64, 32), (120, 80, 40)
RED, BLACK, IVORY = (200, 30, 30), (25, 25, 25), (245, 240, 225)
PANEL_W = 380
AIM_MM = 40.0  # mm of aim arrow per m/s of stroke speed (and of mouse drag when aiming)
AIM = (200, 40, 160)  # magenta: apart from the wood, the pieces and the trails


@dataclass(frozen=True)
class Aim:
    """A stroke drawn as an arrow: from ``start`` (board mm, where the shot piece stood)
    towards ``angle`` (degrees: 0 = +x, 90 = towards black), AIM_MM long per m/s of
    ``speed``."""

    start: tuple[float, float]
    angle: float
    speed: float

    def tip(self) -> tuple[float, float]:
        a, length = math.radians(self.angle), AIM_MM * self.speed
        return self.start[0] + length * math.cos(a), self.start[1] + length * math.sin(a)

    def label(self) -> str:
        return f"{self.angle:.1f}°  {self.speed:.2f} m/s"


@dataclass(frozen=True)
class Shown:
    """One board of the viewer: a shot's timeline, a title above it and the stroke's aim
    (for a suggested or a newly aimed stroke)."""

    timeline: Timeline
    title: str = ""
    aim: Aim | None = None


def boards_of(shown: Timeline | Shown | list) -> list[Shown]:
    """Timelines or Shown boards as a list of Shown; two or more plain timelines (a
    tracked shot and the simulator's re-run of it) are titled by their records' source."""
    items = shown if isinstance(shown, list) else [shown]
    titled = len(items) > 1
    return [b if isinstance(b, Shown) else Shown(b, b.record.source if titled else "")
            for b in items]

class Painter:
    """Draws one frame: board millimetres → pixels on a square of ``size`` px."""

    def __init__(self, board: Board, size: int = 640, panel: bool = True):
        import pygame

        self.pg = pygame
        pygame.font.init()
        self.board = board
        self.size = size
        self.outer = board.half + board.rim_width
        self.scale = size / (2 * self.outer)
        self.width = size + (PANEL_W if panel else 0)
        self.font = pygame_font(15)  # the sheet's own terms (廢子, 小回 …) drawn as written
        self.small = pygame_font(11)

    def px(self, x: float, y: float) -> tuple[int, int]:
        return (round((x + self.outer) * self.scale), round((self.outer - y) * self.scale))

    def mm(self, u: int, v: int) -> tuple[float, float]:
        return (u / self.scale - self.outer, self.outer - v / self.scale)

    def frame(self, shown: Timeline | Shown | list, t: float, lines: list[str]):
        """One frame; several boards (a tracked shot and the simulator's re-run of it,
        a shot and a new stroke tried from the same table) are drawn side by side."""
        shown = boards_of(shown)
        boards = len(shown) * self.size
        surface = self.pg.Surface((self.width - self.size + boards, self.size))
        surface.fill((40, 44, 52))
        for k, item in enumerate(shown):
            board = self.pg.Surface((self.size, self.size))
            self.draw_board(board)
            self.draw_trails(board, item.timeline, t)
            self.draw_pieces(board, item.timeline.positions(t))
            if item.aim is not None:
                self.draw_aim(board, item.aim)
            if item.title:
                board.blit(self.font.render(item.title, True, IVORY), (8, 6))
            surface.blit(board, (k * self.size, 0))
        if self.width > self.size:
            longest = max(b.timeline.duration for b in shown)
            self.draw_panel(surface, [f"t = {t:5.2f} s of {longest:.2f} s", *lines], boards)
        return surface

    def draw_aim(self, s, aim: Aim) -> None:
        """The stroke's arrow from the shot piece's place, with its angle and speed."""
        start, tip = self.px(*aim.start), self.px(*aim.tip())
        self.pg.draw.line(s, AIM, start, tip, 2)
        a = math.radians(aim.angle)
        for turn in (2.6, -2.6):  # the arrow's head, drawn in screen pixels (y down)
            self.pg.draw.line(s, AIM, tip, (round(tip[0] + 10 * math.cos(a + turn)),
                                            round(tip[1] - 10 * math.sin(a + turn))), 2)
        label = self.small.render(aim.label(), True, AIM)
        s.blit(label, (tip[0] + 6, tip[1] - 14))

    def draw_board(self, s) -> None:
        b, pg = self.board, self.pg
        pg.draw.rect(s, FRAME, (0, 0, self.size, self.size))
        tl, br = self.px(-b.half, b.half), self.px(b.half, -b.half)
        pg.draw.rect(s, WOOD, (*tl, br[0] - tl[0], br[1] - tl[1]))
        r = lambda mm: max(1, round(mm * self.scale))  # noqa: E731
        sw, se, nw, ne = (b.circle_centre(c) for c in ("SW", "SE", "NW", "NE"))
        for a, c in ((sw, se), (nw, ne), (sw, nw), (se, ne)):
            pg.draw.line(s, LINE, self.px(*a), self.px(*c), 1)
        for corner in CORNERS:
            pg.draw.circle(s, LINE, self.px(*b.circle_centre(corner)), r(b.circle_diameter / 2), 2)
            pg.draw.circle(s, (10, 10, 10), self.px(*b.hole_centre(corner)),
                           r(b.hole_diameter / 2))
        pg.draw.circle(s, LINE, self.px(0, 0), r(b.penalty_diameter / 2), 2)
        pg.draw.circle(s, LINE, self.px(0, 0), r(b.inner_diameter / 2), 1)

    def draw_trails(self, s, timeline: Timeline, t: float) -> None:
        for piece in sorted(timeline.record.trajectory or {}):
            points = [self.px(x, y) for x, y in timeline.path(piece, t)]
            if len(points) > 1:
                colour = (90, 130, 200) if is_striker(piece) else (160, 110, 60)
                self.pg.draw.lines(s, colour, False, points, 1)

    def draw_pieces(self, s, positions: dict[str, tuple[float, float]]) -> None:
        for piece, (x, y) in sorted(positions.items()):
            centre = self.px(x, y)
            radius = max(2, round(self.board.radius_of(piece) * self.scale))
            fill = RED if colour_of(piece) == "red" else BLACK
            self.pg.draw.circle(s, fill, centre, radius)
            self.pg.draw.circle(s, IVORY, centre, radius, 1 if not is_striker(piece) else 3)
            if self.scale > 0.5:
                label = self.small.render(piece, True, IVORY)
                s.blit(label, label.get_rect(center=centre))

    def draw_panel(self, s, lines: list[str], left: int) -> None:
        y = 10
        for line in lines:
            for chunk in wrap(line, PANEL_W - 24, lambda text: self.font.size(text)[0]):
                s.blit(self.font.render(chunk, True, (230, 230, 230)), (left + 12, y))
                y += 19


def check_export(path: str | Path) -> Path:
    """The path of a picture to export, refused (KangleError) unless .png or .gif: said
    before any work is done for it."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".gif"):
        raise KangleError(f"cannot export {path.name}: use a .png or .gif file name")
    return path


def export(shown: Timeline | Shown | list, lines: list[str], path: str | Path,
           board: Board, fps: int = 20, size: int = 480) -> None:
    """Write the final frame (``.png``) or the whole shot at 1× speed (``.gif``)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame
    from PIL import Image

    path = check_export(path)
    painter = Painter(board, size)
    boards = boards_of(shown)
    duration = max(b.timeline.duration for b in boards)
    if path.suffix.lower() == ".png":
        pygame.image.save(painter.frame(boards, duration, lines), str(path))
        return
    frames = []
    count = max(1, math.ceil(duration * fps))
    for k in range(count + 1):
        surface = painter.frame(boards, min(k / fps, duration), lines)
        raw = pygame.image.tobytes(surface, "RGB")
        frames.append(Image.frombytes("RGB", surface.get_size(), raw).quantize(64))
    frames += [frames[-1]] * fps  # hold the end for a second
    try:
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=1000 // fps,
                       loop=0, optimize=True)
    except OSError as exc:
        raise KangleError(f"cannot write {path}: {exc}") from None
