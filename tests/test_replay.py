"""The replay timeline and the headless export of the viewer."""

import os

import pytest
from PIL import Image

from kangle.cli import main
from physics.profile import PhysicsProfile
from physics.simulate import Stroke, simulate
from rules.jsonfile import write_json
from rules.timeline import Timeline
from tests.kit import BOARD, started

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture(scope="module")
def record():
    return simulate(started("red"), Stroke("red", "SW", 80.0, 4.0), BOARD, PhysicsProfile())


def test_timeline_starts_on_the_table_and_ends_on_the_final_positions(record):
    timeline = Timeline.of(record)
    start = timeline.positions(0.0)
    assert start == {**record.table, "RS": record.start}
    end = timeline.positions(record.duration)
    for piece, (x, y) in record.final.items():
        assert end[piece] == pytest.approx((x, y), abs=0.01)
    for pocket in record.pockets:
        assert pocket.piece in timeline.positions(pocket.t - 1e-4)
        assert pocket.piece not in end


def test_export_png_and_gif_without_a_display(tmp_path, record, capsys):
    shot = tmp_path / "shot.json"
    write_json(shot, record.to_json())
    assert main(["replay", str(shot), "--export", str(tmp_path / "end.png")]) == 0
    assert Image.open(tmp_path / "end.png").size[1] == 480
    assert main(["replay", str(shot), "--export", str(tmp_path / "shot.gif")]) == 0
    gif = Image.open(tmp_path / "shot.gif")
    total_ms = 0
    for k in range(gif.n_frames):
        gif.seek(k)
        total_ms += gif.info["duration"]
    # the shot at 1x speed, then the last frame held for a second
    assert total_ms / 1000 == pytest.approx(record.duration + 1.0, abs=0.1)
    assert main(["replay", str(shot), "--export", str(tmp_path / "x.bmp")]) == 2
    assert "use a .png or .gif" in capsys.readouterr().err


def test_the_interactive_viewer_handles_keys_mouse_aim_and_quit(record):
    """Drive the window on SDL's dummy driver with queued events: pause, step, speed,
    scrub, aim a new stroke by dragging from the striker, then quit."""
    import pygame

    from physics.viewer import run_window
    from rules.board import load_board

    pygame.init()
    pygame.display.set_mode((10, 10))
    strikes = []

    def restrike(angle, speed):
        strikes.append((angle, speed))
        return Timeline.of(record), ["new stroke"]

    key = lambda k: pygame.event.Event(pygame.KEYDOWN, key=k)  # noqa: E731
    for event in (key(pygame.K_SPACE), key(pygame.K_RIGHT), key(pygame.K_PLUS),
                  key(pygame.K_MINUS), key(pygame.K_r),
                  pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(100, 600)),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(200, 500)),
                  pygame.event.Event(pygame.QUIT)):
        pygame.event.post(event)
    run_window(Timeline.of(record), ["calls"], load_board(), restrike)
    assert len(strikes) == 1
    angle, speed = strikes[0]
    assert angle == pytest.approx(45.0) and 0 < speed <= 10


def test_a_window_command_without_a_display_says_what_to_use_instead(tmp_path, monkeypatch,
                                                                     capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    assert main(["replay", "examples/break.json"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--export" in err
    assert main(["referee", "--video", "none.avi", "--calibration", "v.json", "--game",
                 "g.db"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--headless" in err
