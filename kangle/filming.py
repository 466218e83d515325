"""Filming a short simulated game to a video: the demo's and the tests' camera footage with
the simulator's own records as the truth."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2

from calibration.camera import Camera
from physics.profile import PhysicsProfile
from physics.simulate import Stroke, simulate
from rules.board import Board
from rules.errors import KangleError
from rules.referee import judge
from rules.rule_profile import RuleProfile
from rules.ruling import Ruling
from rules.shot import ShotRecord
from rules.state import TableState
from vision.render import Look, Renderer
from vision.video import film_shot


@dataclass
class FilmedShot:
    before: TableState
    record: ShotRecord
    ruling: Ruling


def film_game(state: TableState, strokes: list[tuple[int, float, float]], board: Board,
              camera: Camera, look: Look, path: str | Path, fps: float = 60.0,
              rules: RuleProfile | None = None, lead: float = 0.1,
              knocked: dict[int, Camera] | None = None) -> list[FilmedShot]:
    """Play ``strokes`` from ``state`` in the simulator, film each, and write them one
    after another to ``path`` (MJPG .avi). A stroke is (which of the shooter's two
    circles, angle° as seen from red's side — turned 180° for black — speed m/s), so it
    means the same whoever holds the shot. ``lead``: seconds of the table at rest filmed
    before each stroke; ``knocked``: the camera knocked to another pose just before
    stroke k (kept from then on). Returns what really happened, shot by shot."""
    physics = replace(PhysicsProfile(), trajectory_rate=240)
    renderer = Renderer(board)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, camera.size)
    truth = []
    try:
        for k, (which, angle, speed) in enumerate(strokes):
            if state.turn is None:
                break
            record = _play(state, which, angle, speed, board, physics)
            camera = (knocked or {}).get(k, camera)
            for _, image in film_shot(renderer, camera, record, fps, replace(look, seed=k),
                                      lead=lead):
                writer.write(image)
            after, ruling = judge(state, record, board, rules or RuleProfile())
            truth.append(FilmedShot(state, record, ruling))
            state = after
    finally:
        writer.release()
    return truth


def _play(state, which, angle, speed, board, physics) -> ShotRecord:
    """The stroke from the chosen circle, or — where a piece lies in the way — from the
    nearest free place in one of the shooter's circles."""
    circles = board.circles_of(state.turn)
    angle = angle if state.turn == "red" else angle + 180.0
    offsets = [(0.0, 0.0)] + [(6.0 * dx, 6.0 * dy) for dx, dy in
                              ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))]
    for circle in (circles[which], circles[1 - which]):
        for offset in offsets:
            try:
                return simulate(state, Stroke(state.turn, circle, angle, speed, offset), board,
                                physics)
            except KangleError:
                continue
    raise KangleError(f"{state.turn}'s circles are both covered: cannot film this stroke")
