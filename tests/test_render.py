"""The synthetic renderer draws the world as geometry and light make it."""

import numpy as np

from rules.board import load_board
from vision.render import Lamp, Look, Renderer, random_camera

BOARD = load_board()


def test_a_plate_held_over_the_board_casts_its_shadow_where_the_lamp_throws_it():
    """A 60 mm plate held 200 mm over (200, 0) under a lamp 800 mm over (400, 0): its
    shadow's middle lies on the surface where the ray from the lamp through the plate's
    middle meets it, (200, 0) - (200, 0) * 200 / 600 = (133.3, 0), and the light there is
    the room's share of it (1 - darkness). The plate itself, seen from the camera above
    the board's middle, is drawn elsewhere (parallax takes it outwards)."""
    render = Renderer(BOARD)
    camera = random_camera(np.random.default_rng(0))
    lamp = Lamp(x=400.0, y=0.0, height=800.0, width=60.0, darkness=0.5)
    plate = np.array([[170.0, -30.0, 200.0], [230.0, -30.0, 200.0], [230.0, 30.0, 200.0],
                      [170.0, 30.0, 200.0]])
    over = [[(plate, (90, 120, 90))]]
    lit, shaded = (render.film(camera, [[{}]], Look(lamp=lamp if cast else None), over=over)[0]
                   for cast in (False, True))
    ratio = shaded.astype(float).sum(axis=2) / np.maximum(lit.astype(float).sum(axis=2), 1)
    ys, xs = np.nonzero(ratio < 0.75)
    on_board = camera.to_board(np.column_stack([xs, ys]).astype(float))
    assert np.allclose(on_board.mean(axis=0), (133.3, 0.0), atol=3.0)
    middle = camera.project(np.array([[133.3, 0.0, 0.0]]))[0].round().astype(int)
    assert abs(ratio[middle[1], middle[0]] - 0.5) < 0.02
    # and nowhere else: the shadow is the plate's 60 mm grown by 800 / 600 (the lamp's
    # cone), its edge softened by the lamp's width times 200 / 600
    assert np.all(np.abs(on_board - (133.3, 0.0)).max(axis=1) < 40.0 + 10.0)
