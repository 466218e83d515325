"""The simulator, offered to the tracker through vision's small ShotOracle interface (vision
never imports pymunk): what would a stroke touch first?"""

from __future__ import annotations

from physics.profile import PhysicsProfile
from physics.simulate import Stroke, simulate
from rules.board import Board
from rules.errors import KangleError
from rules.pieces import STRIKERS
from rules.state import TableState


class PhysicsOracle:
    def __init__(self, board: Board, physics: PhysicsProfile):
        self.board, self.physics = board, physics

    def first_contact(self, state: TableState, shooter: str, circle: str,
                      start: tuple[float, float], angle_deg: float,
                      speed_m_s: float) -> str | None:
        cx, cy = self.board.circle_centre(circle)
        stroke = Stroke(shooter, circle, angle_deg, min(max(speed_m_s, 0.05), 15.0),
                        (start[0] - cx, start[1] - cy))
        try:
            record = simulate(state, stroke, self.board, self.physics, trajectory=False)
        except KangleError:
            return None
        mine = record.contacts_of(STRIKERS[shooter])
        return mine[0].other(STRIKERS[shooter]) if mine else None
