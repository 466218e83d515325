"""The replay viewer: the board to scale, the pieces, their trails and the calls.

Drawing works on any pygame Surface, so `--export` makes PNG and GIF files with no
display at all; `run_window` is the interactive viewer (pause, step, scrub, speed
0.1×–2×, aim a new stroke with the mouse). Screen y grows downwards; board y grows
towards black, so black's side is drawn at the top.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
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

    def frame(self, timelines: Timeline | list[Timeline], t: float, lines: list[str]):
        """One frame; several timelines (a tracked shot and the simulator's re-run of
        it) are drawn side by side, each on its own board."""
        shown = timelines if isinstance(timelines, list) else [timelines]
        boards = len(shown) * self.size
        surface = self.pg.Surface((self.width - self.size + boards, self.size))
        surface.fill((40, 44, 52))
        for k, timeline in enumerate(shown):
            board = self.pg.Surface((self.size, self.size))
            self.draw_board(board)
            self.draw_trails(board, timeline, t)
            self.draw_pieces(board, timeline.positions(t))
            if len(shown) > 1:
                board.blit(self.font.render(timeline.record.source, True, IVORY), (8, 6))
            surface.blit(board, (k * self.size, 0))
        if self.width > self.size:
            longest = max(tl.duration for tl in shown)
            self.draw_panel(surface, [f"t = {t:5.2f} s of {longest:.2f} s", *lines], boards)
        return surface

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


def export(timeline: Timeline | list[Timeline], lines: list[str], path: str | Path,
           board: Board, fps: int = 20, size: int = 480) -> None:
    """Write the final frame (``.png``) or the whole shot at 1× speed (``.gif``)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame
    from PIL import Image

    path = Path(path)
    painter = Painter(board, size)
    duration = max(tl.duration for tl in (timeline if isinstance(timeline, list) else
                                          [timeline]))
    if path.suffix.lower() == ".png":
        pygame.image.save(painter.frame(timeline, duration, lines), str(path))
        return
    if path.suffix.lower() != ".gif":
        raise KangleError(f"cannot export {path.name}: use a .png or .gif file name")
    frames = []
    count = max(1, math.ceil(duration * fps))
    for k in range(count + 1):
        surface = painter.frame(timeline, min(k / fps, duration), lines)
        raw = pygame.image.tobytes(surface, "RGB")
        frames.append(Image.frombytes("RGB", surface.get_size(), raw).quantize(64))
    frames += [frames[-1]] * fps  # hold the end for a second
    try:
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=1000 // fps,
                       loop=0, optimize=True)
    except OSError as exc:
        raise KangleError(f"cannot write {path}: {exc}") from None


Restrike = Callable[[float, float], tuple[Timeline, list[str]]]


def run_window(timeline: Timeline | list[Timeline], lines: list[str], board: Board,
               restrike: Restrike | None = None) -> None:
    """The interactive viewer. Keys: space pause, ←/→ step, +/- speed, r restart,
    Esc quit; drag on the timeline to scrub; drag from the striker to aim a new stroke
    (direction of the drag, speed by its length) when ``restrike`` is given."""
    import pygame

    pygame.init()
    shown = timeline if isinstance(timeline, list) else [timeline]
    painter = Painter(board, 720 if len(shown) == 1 else 560)
    screen = pygame.display.set_mode((painter.width - painter.size * (1 - len(shown)),
                                      painter.size + 30))
    pygame.display.set_caption("kangle replay")
    clock = pygame.time.Clock()
    t, speed, playing, aiming = 0.0, 1.0, True, None
    speeds = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0)
    help_lines = ["space pause  <- -> step  + - speed  r restart",
                  "drag the bar to scrub; drag from the striker to aim"]
    while True:
        dt = clock.tick(60) / 1000
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                             event.key == pygame.K_ESCAPE):
                pygame.quit()
                return
            if event.type == pygame.KEYDOWN:
                if event.key == pygame.K_SPACE:
                    playing = not playing
                elif event.key in (pygame.K_RIGHT, pygame.K_LEFT):
                    playing = False
                    t += (1 / 60) * (1 if event.key == pygame.K_RIGHT else -1)
                elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                    speed = speeds[min(speeds.index(speed) + 1, len(speeds) - 1)]
                elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                    speed = speeds[max(speeds.index(speed) - 1, 0)]
                elif event.key == pygame.K_r:
                    t, playing = 0.0, True
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                u, v = event.pos
                if v > painter.size:
                    playing = False
                elif restrike:
                    aiming = event.pos
            if event.type == pygame.MOUSEBUTTONUP and aiming and restrike:
                dx = event.pos[0] - aiming[0]
                dy = aiming[1] - event.pos[1]
                length_mm = math.hypot(dx, dy) / painter.scale
                if length_mm > 5:
                    angle = math.degrees(math.atan2(dy, dx))
                    try:
                        again, lines = restrike(angle, min(10.0, length_mm / 40))
                        shown = shown[:-1] + [again]
                        t, playing = 0.0, True
                    except KangleError as exc:
                        lines = [f"cannot play that: {exc}"]
                aiming = None
        duration = max(tl.duration for tl in shown)
        if pygame.mouse.get_pressed()[0] and not aiming:
            u, v = pygame.mouse.get_pos()
            if v > painter.size:
                t = duration * min(max(u / painter.size, 0), 1)
        if playing:
            t += dt * speed
        t = min(max(t, 0.0), duration)
        screen.fill((20, 20, 20))
        screen.blit(painter.frame(shown, t, [f"speed {speed}x", *help_lines, "", *lines]),
                    (0, 0))
        bar = round(painter.size * (t / duration if duration else 1))
        pygame.draw.rect(screen, (80, 80, 80), (0, painter.size + 10, painter.size, 10))
        pygame.draw.rect(screen, (200, 170, 90), (0, painter.size + 10, bar, 10))
        if aiming:
            pygame.draw.line(screen, (255, 255, 0), aiming, pygame.mouse.get_pos(), 2)
        pygame.display.flip()
