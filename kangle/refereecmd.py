"""`kangle referee`: the live referee — camera or video in, calls and a game log out."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import cv2
import numpy as np

from calibration.profile import Calibration
from calibration.venue import follow_camera
from kangle.oracle import PhysicsOracle
from kangle.present import need_display, ruling_lines, table_line
from physics.profile import load_physics
from physics.text import draw_lines, pygame_font, wrap
from rules.errors import KangleError
from rules.game import confirmation, replay
from rules.gamelog import GameLog
from rules.jsonfile import write_json
from rules.shot import ShotRecord
from rules.state import TableState
from vision.detect import Detector
from vision.stream import ShotStream, not_where_logged

BUMP_MM = 5.0  # the board moved this much: the camera was knocked, follow it
LOOK_S = 2.0  # s: how often the board is looked for again while the table is at rest


def shot_entry(record: ShotRecord) -> dict:
    """What the game log keeps of a tracked shot (trajectories stay out of it)."""
    data = record.to_json()
    data.pop("trajectory", None)
    data.pop("table", None)
    return data


def referee(source: cv2.VideoCapture, cal: Calibration, log: GameLog, fps: float,
            on_ruling, on_frame=None, live: bool = False) -> int:
    """Run the referee loop until the source ends. ``on_ruling(entry_seq, ruling, state,
    record)`` after each stored shot; ``on_frame(frame, step, state, cal)`` per frame
    (``cal``: the calibration in use, followed when the camera is knocked), may return
    False to stop or "reload" after changing the game log. Every shot is stored before
    its ruling is passed on."""
    view = replay(log.entries())
    state: TableState = view.state
    if state.phase not in ("play", "catch_up"):
        raise KangleError("the game is not in play: enter the lag with `kangle game lag` "
                          "first" if state.phase == "lag" else "the game is over")
    stream = ShotStream(Detector(cal), cal.board, PhysicsOracle(cal.board, load_physics()))
    stream.expect(state)
    frame_no, last_check, was_moving = 0, -10.0, False
    while True:
        ok, frame = source.read()
        if not ok:
            if live:
                raise KangleError("the camera stopped delivering frames; every shot so far is "
                                  "in the game log — restart to resume", exit_code=3)
            break
        t = frame_no / fps
        frame_no += 1
        step = stream.feed(t, frame)
        # a shot seen starting with the whole table moved is the view that moved
        shifted = step.moving and not was_moving and _table_shifted(step.detections, state)
        was_moving = step.moving
        if step.shot is not None:
            data = shot_entry(step.shot)
            try:
                view = log.write(lambda now, data=data: [("shot", data)], by="camera",
                                 seen=view.last).after
            except KangleError as exc:  # another station changed the game first
                on_ruling(None, f"the shot just seen was not recorded: {exc}", state, None)
                view = replay(log.entries())
            else:
                entry, ruling = view.history[-1]
                on_ruling(entry.seq, ruling, view.state, step.shot)
            state = view.state
            if state.phase in ("play", "catch_up"):
                stream.expect(state)
        elif step.unfollowed:
            on_ruling(None, f"at {t:.1f} s {step.unfollowed}: no shot is recorded — if one "
                            "was played, enter it by hand (`kangle game shot`, or keys); "
                            "kangle follows the next", state, None)
        elif shifted or (not step.moving and t - last_check > LOOK_S):
            last_check = t
            try:
                again, moved = follow_camera(frame, cal, still_mm=BUMP_MM)
            except KangleError as exc:
                on_ruling(None, f"board not found in view ({exc})", state, None)
            else:
                if again is not cal:  # knocked: follow the board where it now is
                    cal = again
                    stream = ShotStream(Detector(cal), cal.board, stream.oracle)
                    stream.expect(state)
                    unlike = not_where_logged(stream.detector.detect(frame), state)
                    on_ruling(None, f"the camera has moved (the board {moved:.0f} mm from "
                                    "where it was): found the board again and refereeing on "
                                    "in the new view; recalibrate between games" + (
                                        f". The table does not match the game log "
                                        f"({', '.join(unlike[:6])} not where it has them): "
                                        "was a shot played while the camera moved? Enter it "
                                        "by hand (`kangle game shot`)" if unlike else ""),
                              state, None)
            entries = log.entries()
            if entries[-1].seq != view.last:  # entered elsewhere (a shot typed by hand)
                view = replay(entries)
                state = view.state
                on_ruling(None, f"the game log has new entries (up to #{view.last}, by "
                                f"{entries[-1].by}): following the table they give",
                          state, None)
                if state.phase in ("play", "catch_up"):
                    stream.expect(state)
        said = on_frame(frame, step, state, cal) if on_frame else None
        if said is False:
            break
        if said == "reload":  # the referee changed the log by hand: start again from it
            view = replay(log.entries())
            state = view.state
            if state.phase in ("play", "catch_up"):
                stream.expect(state)
    return 0


def _table_shifted(detections, state: TableState) -> bool:
    """The table in view (hardly a piece fewer found than it holds) and most of its
    pieces not where the game log has them (within BUMP_MM): the camera was knocked — a
    shot's first moving frames move a piece or two, and an arm over the board hides
    pieces, moving none. Knocked while the table rests, the tracker takes the shift for
    the striker set moving, and the board was looked for again only once the table
    rested: the next shot was lost."""
    on_table = sum(piece.status == "table" for piece in state.pieces.values())
    return len(detections) >= on_table - 2 and len(
        not_where_logged(detections, state, within_mm=BUMP_MM)) > on_table / 2


def cmd_referee(args: argparse.Namespace) -> int:
    if not args.headless:
        need_display("referee with --headless (a JSON line per ruling), and --out-video "
                     "annotated.avi to keep the picture")
    if args.fps is not None and not 1 <= args.fps <= 1000:
        raise KangleError(f"--fps {args.fps}: the frames per second the video was filmed at "
                          "(1 to 1000; a webcam films 30 or 60)")
    cal = Calibration.load(args.calibration)
    if args.records:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise KangleError(f"--records {args.records}: cannot make that folder ({exc})"
                              ) from None
    log = GameLog(args.game)
    source = cv2.VideoCapture(args.video if args.video else args.camera)
    if not source.isOpened():
        raise KangleError(f"cannot open {args.video or 'camera ' + str(args.camera)}")
    fps = args.fps or source.get(cv2.CAP_PROP_FPS) or 30.0
    writer = None
    lines: list[str] = []

    def warn(text: str) -> None:
        print(json.dumps({"warning": text}) if args.headless else f"WARNING: {text}")

    def on_ruling(seq, ruling, state, record) -> None:
        if args.records and record is not None:
            try:  # a side file: its failure must not stop the refereeing
                write_json(Path(args.records) / f"shot-{seq:04d}.json", record.to_json())
            except KangleError as exc:
                warn(f"shot #{seq} is in the game log but its whole record was not kept: {exc}")
        if isinstance(ruling, str):
            warn(ruling)
            return
        if args.headless:
            print(json.dumps({"entry": seq, "ruling": ruling.to_json()}, ensure_ascii=False),
                  flush=True)
        else:
            print("\n".join(ruling_lines(ruling, f"#{seq} shot — {ruling.player}")))
            print(table_line(state))
        lines[:] = ruling_lines(ruling, f"#{seq} shot — {ruling.player}") + [table_line(state)]

    def on_frame(frame, step, state, cal):
        nonlocal writer
        shown = _annotate(frame, step, cal, lines)
        if args.out_video:
            if writer is None:
                writer = cv2.VideoWriter(args.out_video, cv2.VideoWriter_fourcc(*"MJPG"), fps,
                                         (shown.shape[1], shown.shape[0]))
            writer.write(shown)
        if not args.headless:
            key = _show(shown, state)
            if key is False:
                return False
            if key:
                said = _referee_key(key, log, lines)
                if said:
                    print(said)
                    return "reload"
        return True

    try:
        return referee(source, cal, log, fps, on_ruling, on_frame, live=args.video is None)
    finally:
        if writer is not None:
            writer.release()
        log.close()


def _annotate(frame, step, cal: Calibration, lines: list[str]) -> np.ndarray:
    out = frame.copy()
    for d in step.detections:
        z = cal.board.thickness_of("RS" if d.kind == "striker" else "R01")
        u, v = cal.camera.project(np.array([[d.x, d.y, z]]))[0]
        colour = (0, 0, 255) if d.colour == "red" else (255, 200, 0)
        cv2.circle(out, (int(u), int(v)), 8 if d.kind == "piece" else 11, colour, 2)
    size = max(14, out.shape[0] // 40)
    return draw_lines(out, lines[-6:], (10, 8), size, (255, 255, 255), out.shape[1] - 20)


_screen = None


FOULS = {"1": ("cue_tip_foul", "4.3 not struck with the cue tip"),
         "2": ("own_cue_hit", "5.2 striker hit the shooter's own cue"),
         "3": ("pivot_foul", "5.6 cue pivot over the side"),
         "4": ("body_touch", "6.6 body touched a piece")}
HELP = ("keys: u undo · t time-out (4.2 shot clock) · c confirm the calls marked "
        "[CONFIRM] · r reject them (undo the shot) · foul on the last shot: "
        + " · ".join(f"{key} {words}" for key, (_, words) in FOULS.items()) + " · Esc quit")


def _referee_key(key: str, log: GameLog, lines: list[str]) -> str | None:
    """A referee's key press, stored as new log entries in one write (nothing is ever
    changed); returns what was done, or None when the key does nothing now."""
    said: list[str] = []

    def propose(view) -> list[tuple[str, dict]]:
        last = view.history[-1][0] if view.history else None
        if key == "u" and last is not None:
            said.append(f"undone: entry #{last.seq}")
            return [("undo", {"undoes": last.seq})]
        if key in ("c", "r") and view.unconfirmed():
            kind, data = confirmation(view, reject=key == "r")
            target = data.get("entry", data.get("undoes"))
            said.append(f"entry #{target} " + ("confirmed" if key == "c" else
                                                "rejected and undone: enter it by hand"))
            return [(kind, data)]
        if key == "t" and view.state.turn:
            said.append(f"time-out: {view.state.turn} loses the shot")
            return [("timeout", {"player": view.state.turn})]
        if key in FOULS and last is not None and last.kind == "shot":
            flag, words = FOULS[key]
            data = dict(last.data, referee=dict(last.data.get("referee", {}), **{flag: True}))
            said.append(f"entry #{last.seq} re-entered with {words}")
            return [("undo", {"undoes": last.seq}), ("shot", data)]
        return []

    log.write(propose, by="referee")
    if said and key in FOULS:
        lines.append(f"referee: {FOULS[key][1]} added to the last shot")
    return said[0] if said else None


def _show(image: np.ndarray, state: TableState) -> bool | str | None:
    """The referee's window (pygame): the annotated camera image. Returns False to stop
    (Esc or closing the window), or the key the referee pressed."""
    global _screen
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if _screen is None:
        pygame.init()
        _screen = pygame.display.set_mode((image.shape[1], image.shape[0]))
        pygame.display.set_caption("kangle referee")
    pressed = None
    for event in pygame.event.get():
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and
                                         event.key == pygame.K_ESCAPE):
            return False
        if event.type == pygame.KEYDOWN and event.unicode:
            pressed = event.unicode.lower()
    surface = pygame.image.frombuffer(np.ascontiguousarray(image[:, :, ::-1]).tobytes(),
                                      (image.shape[1], image.shape[0]), "RGB")
    _screen.blit(surface, (0, 0))
    font = pygame_font(14)
    clock = "" if state.turn is None else f"{state.turn} to shoot"
    rows = wrap(f"{clock}   {HELP}", image.shape[1] - 20, lambda text: font.size(text)[0])
    for i, row in enumerate(rows):
        _screen.blit(font.render(row, True, (255, 255, 0)),
                     (10, image.shape[0] - 20 * (len(rows) - i)))
    pygame.display.flip()
    return pressed


def add_parser(sub, formatter) -> None:
    r = sub.add_parser(
        "referee", formatter_class=formatter, help="referee a game from a camera or a video",
        description="Follow every shot on the camera, store it in the game log, and show the "
                    "calls with their rule numbers. --headless writes a JSON line per ruling "
                    "(and --out-video an annotated video) with no window.",
        epilog="examples:\n  kangle referee --camera 0 --calibration venue.json --game final.db\n"
               "  kangle referee --video match.avi --calibration venue.json --game final.db "
               "--headless --out-video annotated.avi")
    src = r.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, help="camera number (0 for the first webcam)")
    src.add_argument("--video", help="a video file instead of a camera")
    r.add_argument("--calibration", required=True, help="venue calibration (kangle calibrate)")
    r.add_argument("--game", required=True, help="the game log (kangle game new + lag)")
    r.add_argument("--headless", action="store_true", help="no window: JSON lines")
    r.add_argument("--out-video", help="write the annotated video here (.avi)")
    r.add_argument("--fps", type=float, help="frame rate if the source does not say")
    r.add_argument("--records", metavar="DIR",
                   help="also keep each tracked shot's whole record, with the paths of the "
                        "pieces, as DIR/shot-NNNN.json (for kangle fit-physics and kangle "
                        "replay)")
    r.set_defaults(run=cmd_referee)
