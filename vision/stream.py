"""From a stream of camera frames to shot records, one shot at a time.

Between shots the table is at rest; the stream waits for the shooter's striker to
appear in one of their circles and move, follows the shot until everything rests,
and hands back the shot record. Only detections are kept while a shot is followed
(not frames), so memory stays flat however long the session.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.board import Board
from rules.pieces import colour_of, is_striker
from rules.shot import ShotRecord
from rules.state import TableState
from vision.detect import Detection, Detector
from vision.track import ShotOracle, ShotTracker


@dataclass
class Step:
    """What one frame brought: its detections, and a finished shot if one ended."""

    detections: list[Detection]
    shot: ShotRecord | None = None
    moving: bool = False
    unfollowed: str = ""  # what was seen of a shot that could not be followed (no record)


class ShotStream:
    def __init__(self, detector: Detector, board: Board, oracle: ShotOracle | None = None):
        self.detector, self.board, self.oracle = detector, board, oracle
        self.tracker: ShotTracker | None = None

    def expect(self, state: TableState) -> None:
        """The next shot starts from ``state`` (its ``turn`` shoots)."""
        self.tracker = (ShotTracker(state, state.turn, self.board, self.oracle)
                        if state.turn else None)

    def feed(self, t: float, frame: np.ndarray) -> Step:
        detections = self.detector.detect(
            frame, rim_too=self.tracker is not None and self.tracker.wants_rim)
        if self.tracker is None:
            return Step(detections)
        self.tracker.update(t, detections)
        if self.tracker.over:
            shot = self.tracker.record()
            self.tracker = None
            return Step(detections, shot)
        said = self.tracker.unfollowed
        if said:  # told once; then the table is watched afresh
            self.expect(self.tracker.state)
            return Step(detections, unfollowed=said)
        return Step(detections, moving=self.tracker.start_time is not None)


def not_where_logged(detections: list[Detection], state: TableState,
                     within_mm: float = 10.0) -> list[str]:
    """The pieces the game's table has on the board that no detection of their colour
    and kind lies within ``within_mm`` of (board mm): a frame at rest that disagrees
    with the log — a shot played unseen, or a piece moved by hand."""
    free = [d for d in detections if d.where == "surface"]
    missing = []
    for pid, piece in sorted(state.pieces.items()):
        if piece.status != "table":
            continue
        near = [d for d in free if d.colour == colour_of(pid) and
                (d.kind == "striker") == is_striker(pid) and
                np.hypot(d.x - piece.pos[0], d.y - piece.pos[1]) <= within_mm]
        if near:
            free.remove(min(near, key=lambda d: np.hypot(d.x - piece.pos[0],
                                                         d.y - piece.pos[1])))
        else:
            missing.append(pid)
    return missing
