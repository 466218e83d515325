"""Where every piece is at time t of a recorded shot (simulated or tracked): used by the
replay viewer and by the renderer that films simulated shots.

Positions come from the record's trajectory, interpolated linearly between samples;
pieces that never moved stay where the record's ``table`` (or a given state) put
them; a pocketed piece disappears at the moment it dropped. A piece that left the table
(given the board) is seen leaping on over the cushion it met, along the line it came
in on: onto the rim, where it slides to a stop in the rim's middle, or on over the
rim's outer edge, where it drops out of sight. Board millimetres, seconds from the
strike.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from rules.board import Board
from rules.errors import KangleError
from rules.shot import ShotRecord

LEAP_KEEPS = 0.7  # of its speed along the table a piece keeps over the cushion it leaps
RIM_SLIDE = 150.0  # mm: the longest a piece landing on the rim slides along it
DROPS_PAST = 30.0  # mm past the rim's outer edge a piece leaping off drops out of sight


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
        """Every piece in sight at time ``t`` and where it is."""
        gone = self.gone_at()
        traj = self.record.trajectory or {}
        out = {}
        left = {e.piece: e.where for e in self.record.exits}
        for piece, pos in self.before.items():
            samples = traj.get(piece)
            if piece in gone and t >= gone[piece]:
                if piece in left and self.rim and samples:
                    flying = self._leap(samples, gone[piece], left[piece], t)
                    if flying is not None:
                        out[piece] = flying
                continue
            if samples:
                pos = _interpolate(samples, t)
            elif t >= self.duration and piece in self.record.final:
                pos = self.record.final[piece]
            out[piece] = pos
        return out

    def _leap(self, samples, t0: float, where: str, t: float) -> tuple[float, float] | None:
        """Where a piece that left the table at ``t0`` over the cushion is at ``t``: on
        the line it came in on, at LEAP_KEEPS of its speed; ``rim``, slowing evenly to
        rest in the middle of the rim; ``off``, on at that speed until DROPS_PAST the
        rim's outer edge, then out of sight (None)."""
        half, width = self.rim
        (x, y), (vx, vy) = _leaving(samples, t0)
        speed = math.hypot(vx, vy)
        if speed == 0.0:
            return self._on_rim((x, y)) if where == "rim" else None
        ux, uy = vx / speed, vy / speed
        # the side it crossed: the one its centre is nearer (as _on_rim has it)
        across, outward = (abs(x), ux * math.copysign(1, x)) if abs(x) >= abs(y) else (
            abs(y), uy * math.copysign(1, y))
        if outward <= 0.05:  # along or away from that side: no line to follow over it
            return self._on_rim((x, y)) if where == "rim" else None
        speed *= LEAP_KEEPS
        if where == "rim":
            # to the middle of the rim, along the side by as far as that line goes there
            # (RIM_SLIDE at most: a glancing piece lands and slides only so far)
            gap = half + width / 2 - across
            if gap <= 0:
                return self._on_rim((x, y))
            run = gap / outward
            along = max(-RIM_SLIDE, min(RIM_SLIDE, run * (uy if abs(x) >= abs(y) else ux)))
            dx, dy = (ux * run, along) if abs(x) >= abs(y) else (along, uy * run)
            reach = math.hypot(dx, dy)
            lasts = 2 * reach / speed  # slowing evenly from speed to rest over reach
            tau = min(t - t0, lasts)
            f = (speed * tau - speed * tau * tau / (2 * lasts)) / reach
            return x + dx * f, y + dy * f
        s = speed * (t - t0)
        if across + s * outward > half + width + DROPS_PAST:
            return None
        return x + ux * s, y + uy * s

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


def _leaving(samples, t: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a piece is at ``t`` (just after its last sample, carried on at the speed
    between its last two) and that velocity (mm/s)."""
    if len(samples) < 2:
        return (samples[-1][1], samples[-1][2]), (0.0, 0.0)
    (ta, xa, ya), (tb, xb, yb) = samples[-2], samples[-1]
    if tb <= ta:
        return (xb, yb), (0.0, 0.0)
    vx, vy = (xb - xa) / (tb - ta), (yb - ya) / (tb - ta)
    ahead = max(0.0, t - tb)
    return (xb + vx * ahead, yb + vy * ahead), (vx, vy)
