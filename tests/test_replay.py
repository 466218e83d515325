"""The replay timeline, the headless export of the viewer and the viewer driven with
queued events."""

import json
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


def _key(k):
    import pygame

    return pygame.event.Event(pygame.KEYDOWN, key=k)


def _drag(start, end):
    import pygame

    return (pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start),
            pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))


def test_the_interactive_viewer_handles_keys_mouse_aim_and_quit(record):
    """Drive the window on SDL's dummy driver with queued events: pause, step, speed,
    restart, aim a new stroke by dragging, then quit."""
    import pygame

    from physics.viewer import Shown
    from physics.window import run_window

    pygame.init()
    pygame.display.set_mode((10, 10))
    strikes = []

    def restrike(angle, speed):
        strikes.append((angle, speed))
        return Shown(Timeline.of(record), "new stroke"), ["new stroke"]

    for event in (_key(pygame.K_SPACE), _key(pygame.K_RIGHT), _key(pygame.K_PLUS),
                  _key(pygame.K_MINUS), _key(pygame.K_r), *_drag((100, 500), (200, 400)),
                  pygame.event.Event(pygame.QUIT)):
        pygame.event.post(event)
    run_window(Timeline.of(record), ["calls"], BOARD, restrike)
    assert len(strikes) == 1
    angle, speed = strikes[0]
    assert angle == pytest.approx(45.0) and 0 < speed <= 10


def test_a_new_stroke_starts_where_the_shot_did_and_is_shown_beside_it(tmp_path, monkeypatch):
    """A coach drags a new stroke over a shot played from off the circle's centre: it is
    played from that same spot, drawn beside the shot (both kept), its angle and speed
    as dragged (the mouse's way up the screen is towards black); w saves its record."""
    import pygame

    from kangle.replaycmd import save_stroke, stroke_from
    from physics.viewer import AIM_MM, Aim, Shown
    from physics.window import Viewer

    pygame.init()
    offset = simulate(started("red"), Stroke("red", "SW", 80.0, 4.0, (12.0, -9.0)), BOARD,
                      PhysicsProfile())
    cx, cy = BOARD.circle_centre("SW")
    assert offset.start == pytest.approx((cx + 12.0, cy - 9.0))
    played = []

    def restrike(angle, speed):
        new = simulate(started("red"), stroke_from(offset, BOARD, angle, speed), BOARD,
                       PhysicsProfile())
        played.append(new)
        return Shown(Timeline.of(new), "new stroke", Aim(offset.start, angle, speed)), ["new"]

    viewer = Viewer(Timeline.of(offset), ["the shot"], BOARD, restrike, save=save_stroke)
    press = viewer.painter.px(*offset.start)
    scale = viewer.painter.scale
    release = (press[0], round(press[1] - 3.0 * AIM_MM * scale))  # 3 m/s straight up
    for event in _drag(press, release):
        viewer.handle(event)
    assert played and played[0].start == pytest.approx(offset.start)
    assert played[0].contacts_of("RS")[0].t > 0  # it went somewhere: up the board
    (angle, speed), = [(a.angle, a.speed) for a in [viewer.boards[1].aim]]
    assert angle == pytest.approx(90.0) and speed == pytest.approx(3.0, abs=0.05)
    assert [b.timeline.record for b in viewer.boards] == [offset, played[0]]
    monkeypatch.chdir(tmp_path)
    viewer.handle(_key(pygame.K_w))
    saved = json.loads((tmp_path / "stroke-1.json").read_text())
    assert saved == json.loads(json.dumps(played[0].to_json()))
    assert "stroke-1.json" in viewer.lines[-1]
    screen = pygame.Surface(viewer.size())
    viewer.draw(screen, release)  # both boards fit the window
    assert viewer.size()[0] >= 2 * viewer.painter.size + 300


def test_suggestions_are_asked_for_at_the_moment_shown_and_picked_by_number(record):
    """g asks for suggestions from the table at the paused moment (the viewer's clock),
    and the first is shown beside the shot; 2 shows the second."""
    import pygame

    from physics.viewer import Aim, Shown
    from physics.window import Viewer

    pygame.init()
    asked = []

    def suggest(t):
        asked.append(t)
        return [(Shown(Timeline.of(record), f"{k}.", Aim((0.0, 0.0), 10.0 * k, 2.0)),
                 [f"suggestion {k}"]) for k in (1, 2)]

    viewer = Viewer(Timeline.of(record), ["the shot"], BOARD, suggest=suggest)
    viewer.advance(0.25, False, (0, 0))
    viewer.handle(_key(pygame.K_g))
    assert asked == [pytest.approx(0.25)]
    assert viewer.boards[1].title == "1." and viewer.lines[-1] == "suggestion 1"
    viewer.handle(_key(pygame.K_2))
    assert viewer.boards[1].title == "2." and viewer.boards[1].aim.angle == 20.0
    viewer.handle(_key(pygame.K_9))  # no ninth: nothing changes
    assert viewer.boards[1].title == "2."


def test_the_table_at_a_paused_moment_is_where_the_pieces_are_then(record):
    """Mid-shot, every piece stands where the timeline has it (pocketed ones gone) and
    the shooter shoots again; at the end, the table the referee leaves."""
    from kangle.replaycmd import state_at
    from rules.referee import judge
    from rules.rule_profile import RuleProfile

    before = started("red")
    timeline = Timeline.of(record)
    t = record.contacts[0].t + 0.05
    mid = state_at(before, record, timeline, t, BOARD, RuleProfile())
    seen = timeline.positions(t)
    assert mid.turn == "red"
    for piece in before.left("red") + before.left("black"):
        if piece in seen:
            assert mid.pos(piece) == pytest.approx(seen[piece])
        else:
            assert not mid.on_table(piece)
    assert mid.pos(record.contacts[0].other("RS")) != before.pos(record.contacts[0].other("RS"))
    end = state_at(before, record, timeline, record.duration, BOARD, RuleProfile())
    assert end == judge(before, record, BOARD, RuleProfile())[0]


def test_suggest_draws_its_top_shots_with_their_aim(tmp_path, capsys):
    """`kangle suggest --export`: the suggested strokes side by side, each with its aim
    arrow from where the shot piece stands, played once."""
    import numpy as np

    from physics.viewer import AIM
    from tests.kit import alone

    sx, sy = BOARD.circle_centre("SW")
    hx, hy = BOARD.hole_centre("NW")
    target = (sx + 0.5 * (hx - sx), sy + 0.5 * (hy - sy))  # halfway from SW's circle to NW
    write_json(tmp_path / "one.json", alone(("B05", target)).to_json())
    out = tmp_path / "top.png"
    assert main(["suggest", "--state", str(tmp_path / "one.json"), "--top", "2",
                 "--export", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    picture = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert picture.shape[1] == 2 * 480 + 380  # two boards and the panel
    arrow = (np.abs(picture - AIM).sum(axis=2) < 30)
    assert arrow[:, :480].sum() > 50 and arrow[:, 480:960].sum() > 50
    # a picture kangle cannot write is refused before any shot is tried
    assert main(["suggest", "--state", str(tmp_path / "one.json"), "--export",
                 str(tmp_path / "top.bmp")]) == 2
    assert "use a .png or .gif" in capsys.readouterr().err


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


SHEET_TERMS = ["廢子", "小回", "大回", "棄子", "自由子", "參", "罰子圈", "中圈內圈", "檯邊",
               "後打者可追回壹次", "—"]


@pytest.mark.parametrize("term", SHEET_TERMS)
def test_every_sheet_term_is_drawn_in_real_glyphs_not_the_missing_glyph_box(term):
    """Each character is in the shipped font, and drawn it differs from the font's
    missing-glyph box (what a character the font lacks is drawn as)."""
    from fontTools.ttLib import TTFont
    from PIL import ImageDraw, ImageFont

    from physics.text import FONT

    assert all(ord(ch) in TTFont(FONT).getBestCmap() for ch in term)
    font = ImageFont.truetype(str(FONT), 32)

    def drawn(ch):
        picture = Image.new("L", (40, 40), 0)
        ImageDraw.Draw(picture).text((2, 2), ch, font=font, fill=255)
        return picture.tobytes()

    box = drawn("\U0010ffff")  # a code point no font has: the box
    assert all(drawn(ch) != box for ch in term)


def test_long_calls_wrap_inside_the_panel_and_keep_the_terms():
    from physics.text import wrap

    text = "5.5 foul: red's striker hit its own 小回 R03 directly (廢子): put it back " * 3
    lines = wrap(text, 200, lambda s: 7 * len(s))
    assert all(7 * len(line) <= 200 for line in lines) and len(lines) > 3
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_a_shot_from_a_mid_game_table_is_not_replayed_against_a_fresh_one(tmp_path, capsys):
    from tests.kit import put

    mid = put(put(started("red"), "B05", (0.0, 0.0), "small"), "R03", (100.0, -200.0))
    write_json(tmp_path / "mid.json", mid.to_json())
    assert main(["sim", "--state", str(tmp_path / "mid.json"), "--circle", "SE", "--angle",
                 "135", "--speed", "3", "--out", str(tmp_path / "coach.json")]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "coach.json"), "--export",
                 str(tmp_path / "x.png")]) == 2
    assert "--state" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "coach.json"), "--state", str(tmp_path / "mid.json"),
                 "--export", str(tmp_path / "x.png")]) == 0


def test_a_game_logs_shot_replays_from_the_table_as_it_stood_before_it(tmp_path, capsys):
    """`kangle replay final.db --entry N`: the shot as the log stored it, from the table the
    log had just before it — here the second shot, after the break took pieces off."""
    import argparse

    from kangle.replaycmd import _from_log
    from rules.game import replay
    from rules.gamelog import GameLog
    from rules.shot import ShotRecord
    game = str(tmp_path / "final.db")
    assert main(["game", "new", game, "--red", "Ann", "--black", "Bo"]) == 0
    assert main(["game", "lag", game, "--first", "red"]) == 0
    assert main(["game", "shot", game, "examples/demo-game/01-break.json"]) == 0
    assert main(["game", "shot", game, "examples/demo-game/02-dead-piece.json"]) == 0
    capsys.readouterr()
    log = GameLog(game)
    entries = log.entries()
    log.close()
    shot = entries[-1]
    after_break = replay(entries[:-1]).state
    record, state, _, _ = _from_log(argparse.Namespace(shot=game, entry=shot.seq, state=None))
    assert state == after_break and record == ShotRecord.from_json(shot.data)
    assert any(p.status != "table" for p in after_break.pieces.values()
               if p.id[1:].isdigit())  # the break took pieces off: not the set-up table
    out = tmp_path / "shot.png"
    assert main(["replay", game, "--entry", str(shot.seq), "--export", str(out)]) == 0
    assert Image.open(out).size[0] > 100
    assert main(["replay", game, "--entry", "2"]) == 2
    assert "is a lag entry, not a shot" in capsys.readouterr().err
