"""Where every piece is at time t of a recorded shot (simulated or tracked): used by the
replay viewer and by the renderer that films simulated shots.

Positions come from the record's trajectory, interpolated linearly between samples;
pieces that never moved stay where the record's ``table`` (or a given state) put
them; a piece disappears at the moment it was pocketed or left the table.
Board millimetres, seconds from the strike.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from rules.board import Board
from rules.errors import KangleError
from rules.shot import ShotRecord


@dataclass
class Timeline:
    record: ShotRecord
    before: dict[str, tuple[float, float]]
    rim: tuple[float, float] | None = None  # (half side, rim width) mm, to show rim stops

    @classmethod
    def of(cls, record: ShotRecord, before: dict[str, tuple[float, float]] | None = None,
           board: Board | None = None) -> Timeline:
        """``board`` given, a piece that stopped on the rim stays in view there (on the
        frame's flat top, beyond the cushion it crossed)."""
        start = dict(before or record.table or {})
        if not start:
            raise KangleError("this shot record has no 'table' (where pieces stood before the "
                              "shot): give the table state with --state")
        start.setdefault(record.shot_piece, record.start)
        return cls(record, start, (board.half, board.rim_width) if board else None)

    @property
    def duration(self) -> float:
        return self.record.duration

    def gone_at(self) -> dict[str, float]:
        out = {p.piece: p.t for p in self.record.pockets}
        out.update({e.piece: e.t for e in self.record.exits})
        return out

    def positions(self, t: float) -> dict[str, tuple[float, float]]:
        """Every piece still on the table at time ``t`` and where it is."""
        gone = self.gone_at()
        traj = self.record.trajectory or {}
        out = {}
        on_rim = {e.piece for e in self.record.exits if e.where == "rim"}
        for piece, pos in self.before.items():
            if piece in gone and t >= gone[piece]:
                if piece in on_rim and self.rim and traj.get(piece):
                    out[piece] = self._on_rim(_interpolate(traj[piece], gone[piece]))
                continue
            samples = traj.get(piece)
            if samples:
                pos = _interpolate(samples, t)
            elif t >= self.duration and piece in self.record.final:
                pos = self.record.final[piece]
            out[piece] = pos
        return out

    def _on_rim(self, pos: tuple[float, float]) -> tuple[float, float]:
        """Just beyond the cushion nearest ``pos``, in the middle of the rim."""
        half, width = self.rim
        x, y = pos
        if abs(x) >= abs(y):
            return (half + width / 2) * (1 if x > 0 else -1), max(-half, min(half, y))
        return max(-half, min(half, x)), (half + width / 2) * (1 if y > 0 else -1)

    def path(self, piece: str, t: float) -> list[tuple[float, float]]:
        """The trail of a piece up to time ``t``."""
        samples = (self.record.trajectory or {}).get(piece, ())
        return [(x, y) for s, x, y in samples if s <= t]


def _interpolate(samples, t: float) -> tuple[float, float]:
    times = [s[0] for s in samples]
    k = bisect.bisect_right(times, t)
    if k == 0:
        return samples[0][1], samples[0][2]
    if k >= len(samples):
        return samples[-1][1], samples[-1][2]
    (t0, x0, y0), (t1, x1, y1) = samples[k - 1], samples[k]
    f = (t - t0) / (t1 - t0) if t1 > t0 else 1.0
    return x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
