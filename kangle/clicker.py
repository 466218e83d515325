"""The manual fallback of board calibration: the referee clicks the four corners of the
playing surface in a pygame window (SW, SE, NE, NW: red's left, red's right, then
black's side)."""

from __future__ import annotations

import numpy as np

from rules.errors import KangleError

ORDER = ("SW (red's left)", "SE (red's right)", "NE (black's left)", "NW (black's right)")


def click_corners(image: np.ndarray) -> np.ndarray:
    """Show ``image`` (BGR) and return the four clicked points in its pixels."""
    import pygame

    h, w = image.shape[:2]
    pygame.init()
    screen = pygame.display.set_mode((w, h + 30))
    pygame.display.set_caption("kangle: click the corners of the playing surface")
    frame = pygame.image.frombuffer(np.ascontiguousarray(image[:, :, ::-1]).tobytes(), (w, h),
                                    "RGB")
    font = pygame.font.Font(None, 24)
    points: list[tuple[int, int]] = []
    while len(points) < 4:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                             event.key == pygame.K_ESCAPE):
                pygame.quit()
                raise KangleError("board calibration cancelled: no corners were clicked")
            if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE and points:
                points.pop()
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and event.pos[1] < h:
                points.append(event.pos)
        screen.fill((20, 20, 20))
        screen.blit(frame, (0, 0))
        for p in points:
            pygame.draw.circle(screen, (255, 220, 0), p, 6, 2)
        if len(points) < 4:
            text = f"click corner {len(points) + 1} of 4: {ORDER[len(points)]}  (backspace: undo)"
            screen.blit(font.render(text, True, (240, 240, 240)), (10, h + 6))
        pygame.display.flip()
    pygame.quit()
    return np.array(points, float)
