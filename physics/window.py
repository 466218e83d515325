"""The interactive replay viewer: pause, step, scrub, speed 0.1×–2×; aim a new stroke from
the shot's own start with the mouse and see it beside the shot; ask for suggested shots
at the paused moment; pick among suggestions; save a new stroke's record.

``Viewer`` holds the state and answers pygame events, so that it can be driven with
queued events on SDL's dummy driver; ``run_window`` is its loop on a real window.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from physics.viewer import AIM, AIM_MM, Painter, Shown, boards_of
from rules.board import Board
from rules.errors import KangleError
from rules.shot import ShotRecord

# a new stroke (angle in degrees, speed m/s) played from the shot's own start: its board
# and the calls on it
Restrike = Callable[[float, float], tuple[Shown, list[str]]]
# the best shots from the table as it stands at time t (s) of the first board: a board
# and the lines that describe it, each
Suggest = Callable[[float], list[tuple[Shown, list[str]]]]
# keep a new stroke's record: what to tell the user (where it was written)
Save = Callable[[ShotRecord], str]
SPEEDS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0)
FASTEST = 10.0  # m/s: the hardest stroke the mouse can aim


class Viewer:
    """The viewer's state. ``shown``: the boards that stay (the shot; a tracked shot and
    the simulator's re-run of it); a stroke aimed with the mouse, or a suggestion picked
    with the number keys, is drawn beside the first of them (replacing the re-run)."""

    def __init__(self, shown, lines: list[str], board: Board, restrike: Restrike | None = None,
                 suggest: Suggest | None = None, save: Save | None = None,
                 choices: list[tuple[Shown, list[str]]] | None = None):
        import pygame

        self.pg = pygame
        self.kept = boards_of(shown) if shown else []
        self.lines, self.calls = list(lines), list(lines)
        self.restrike, self.suggest, self.save = restrike, suggest, save
        self.choices = list(choices or [])
        self.tried: Shown | None = None
        # boards side by side at most: the kept ones, or the shot and a stroke beside it
        self.most = max(len(self.kept), 2 if self.kept and (restrike or suggest) else 1)
        self.painter = Painter(board, 720 if self.most == 1 else 560)
        self.t, self.speed, self.playing, self.aiming = 0.0, 1.0, True, None
        self.open = True
        if not self.kept:
            self.pick(0)

    @property
    def boards(self) -> list[Shown]:
        if self.tried is None:
            return self.kept
        return [*self.kept[:1], self.tried]

    @property
    def duration(self) -> float:
        return max(b.timeline.duration for b in self.boards)

    def help(self) -> list[str]:
        keys = ["space pause  <- -> step  + - speed  r restart", "drag the bar to scrub"]
        if self.restrike:
            keys.append("drag on the board to aim a new stroke from the shot's start")
        if self.suggest:
            keys.append("g: suggest shots from the moment shown")
        if self.choices:
            keys.append(f"1-{min(len(self.choices), 9)}: show that suggestion")
        if self.save and self.tried is not None:
            keys.append("w: save the new stroke's shot record")
        return keys

    def pick(self, k: int) -> None:
        """Show suggestion ``k`` (from 0) beside the shot, from its start."""
        if 0 <= k < len(self.choices):
            self.tried, lines = self.choices[k]
            self.lines = [*self.calls, "", *lines] if self.kept else list(lines)
            self.t, self.playing = 0.0, True

    def handle(self, event) -> None:
        """Answer one pygame event."""
        pg = self.pg
        if event.type == pg.QUIT or (event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE):
            self.open = False
        elif event.type == pg.KEYDOWN:
            self.key(event)
        elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            if event.pos[1] > self.painter.size:
                self.playing = False
            elif self.restrike:
                self.aiming = event.pos
        elif event.type == pg.MOUSEBUTTONUP and self.aiming:
            stroke = self.aimed(event.pos)
            self.aiming = None
            if stroke is not None:
                self.play(*stroke)

    def key(self, event) -> None:
        pg = self.pg
        if event.key == pg.K_SPACE:
            self.playing = not self.playing
        elif event.key in (pg.K_RIGHT, pg.K_LEFT):
            self.playing = False
            self.t += (1 / 60) * (1 if event.key == pg.K_RIGHT else -1)
        elif event.key in (pg.K_PLUS, pg.K_EQUALS, pg.K_KP_PLUS):
            self.speed = SPEEDS[min(SPEEDS.index(self.speed) + 1, len(SPEEDS) - 1)]
        elif event.key in (pg.K_MINUS, pg.K_KP_MINUS):
            self.speed = SPEEDS[max(SPEEDS.index(self.speed) - 1, 0)]
        elif event.key == pg.K_r:
            self.t, self.playing = 0.0, True
        elif event.key == pg.K_g and self.suggest:
            self.playing = False
            try:
                self.choices = self.suggest(min(self.t, self.duration))
            except KangleError as exc:
                self.lines = [*self.calls, "", f"no suggestions: {exc}"]
                return
            if self.choices:
                self.pick(0)
            else:
                self.lines = [*self.calls, "", "no shot from here sends an opponent piece "
                              "to a hole: play safe"]
        elif event.key == pg.K_w and self.save and self.tried is not None:
            self.lines = [*self.lines, "", self.save(self.tried.timeline.record)]
        elif pg.K_1 <= event.key <= pg.K_9:
            self.pick(event.key - pg.K_1)

    def aimed(self, at: tuple[int, int]) -> tuple[float, float] | None:
        """The stroke a drag from ``self.aiming`` to ``at`` (px) aims: angle (degrees,
        0 = +x, 90 = towards black) and speed (m/s, AIM_MM of drag per m/s); None for a
        click."""
        dx, dy = at[0] - self.aiming[0], self.aiming[1] - at[1]
        length_mm = math.hypot(dx, dy) / self.painter.scale
        if length_mm <= 5:
            return None
        return math.degrees(math.atan2(dy, dx)), min(FASTEST, length_mm / AIM_MM)

    def play(self, angle: float, speed: float) -> None:
        """Play a new stroke from the shot's start and show it beside the shot."""
        try:
            self.tried, lines = self.restrike(angle, speed)
            self.lines = [*self.calls, "", *lines]
            self.t, self.playing = 0.0, True
        except KangleError as exc:
            self.lines = [*self.calls, "", f"cannot play that: {exc}"]

    def advance(self, dt: float, mouse_down: bool, mouse: tuple[int, int]) -> None:
        """Move the clock on by ``dt`` s of wall time (at the chosen speed), or to where
        the bar is dragged."""
        if mouse_down and not self.aiming and mouse[1] > self.painter.size:
            self.t = self.duration * min(max(mouse[0] / self.painter.size, 0), 1)
        if self.playing:
            self.t += dt * self.speed
        self.t = min(max(self.t, 0.0), self.duration)

    def draw(self, screen, mouse: tuple[int, int]) -> None:
        pg, size = self.pg, self.painter.size
        screen.fill((20, 20, 20))
        screen.blit(self.painter.frame(self.boards, self.t, [
            f"speed {self.speed}x", *self.help(), "", *self.lines]), (0, 0))
        bar = round(size * (self.t / self.duration if self.duration else 1))
        pg.draw.rect(screen, (80, 80, 80), (0, size + 10, size, 10))
        pg.draw.rect(screen, (200, 170, 90), (0, size + 10, bar, 10))
        if self.aiming:
            pg.draw.line(screen, AIM, self.aiming, mouse, 2)
            stroke = self.aimed(mouse)
            if stroke is not None:
                label = self.painter.font.render(f"{stroke[0]:.1f}°  {stroke[1]:.2f} m/s",
                                                 True, AIM)
                screen.blit(label, (mouse[0] + 12, mouse[1] - 8))

    def size(self) -> tuple[int, int]:
        """The window's size (px) for the most boards it will show."""
        return self.painter.width + self.painter.size * (self.most - 1), self.painter.size + 30


def run_window(shown, lines: list[str], board: Board, restrike: Restrike | None = None,
               suggest: Suggest | None = None, save: Save | None = None,
               choices: list[tuple[Shown, list[str]]] | None = None) -> None:
    """The interactive viewer on a window, until it is closed or Esc is pressed."""
    import pygame

    pygame.init()
    viewer = Viewer(shown, lines, board, restrike, suggest, save, choices)
    screen = pygame.display.set_mode(viewer.size())
    pygame.display.set_caption("kangle replay")
    clock = pygame.time.Clock()
    while True:
        dt = clock.tick(60) / 1000
        for event in pygame.event.get():
            viewer.handle(event)
        if not viewer.open:
            pygame.quit()
            return
        mouse = pygame.mouse.get_pos()
        viewer.advance(dt, pygame.mouse.get_pressed()[0], mouse)
        viewer.draw(screen, mouse)
        pygame.display.flip()
