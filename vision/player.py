"""The player over the board while a shot is filmed: the cue along the stroke's line, the
bridge hand resting behind the striker, the arm and sleeve beyond it.

A 康樂棋 stroke is played with a cue: the player aims with the tip a little behind the
striker, draws the cue back and strikes, follows through a few centimetres, and takes
cue and hand away at some moment while the pieces run, or leaves them there until the
table is still. A referee's camera sees all of it, on top of the pieces: the cue's
shaft crossing the corner and its hole, the hand and sleeve over the rim or over pieces
near the baseline. ``Player.shapes`` gives what is in view at an instant as polygons in
board millimetres (x, y on the board, z up from the playing surface), which the renderer
projects through the camera (``Renderer.film(over=…)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rules.shot import ShotRecord

SKINS = ((150, 175, 220), (120, 150, 200), (95, 125, 175), (60, 85, 130))  # BGR
SLEEVES = ((40, 40, 45), (150, 90, 40), (50, 50, 170), (225, 225, 225), (90, 120, 90))
CUES = ((120, 175, 215), (70, 110, 150), (40, 60, 90))  # pale ash … dark stained wood
TIP_BGR = (60, 60, 70)
CUE_LENGTH = 1000.0  # mm, tip to butt
CUE_RISE = math.radians(6.0)  # the shaft rises from the tip towards the player's hand
Shape = tuple[np.ndarray, tuple[int, int, int]]  # (N x 3 board mm, BGR)


@dataclass(frozen=True)
class Player:
    """How one player plays one stroke. Lengths in mm, times in s from the strike."""

    aim_gap: float  # the tip's gap behind the striker while aiming
    backswing: float  # how far the cue is drawn back before the strike
    follow: float  # how far the tip goes on through the striker's place
    bridge: float  # the bridge hand's middle, behind the striker's centre along the cue
    arm_side: float  # where the forearm leaves the hand, across the cue (+ left)
    leave: float  # when cue and hand start to go; after the film's end they stay
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    cue: tuple[int, int, int]

    @classmethod
    def random(cls, rng: np.random.Generator) -> Player:
        return cls(aim_gap=float(rng.uniform(5, 25)), backswing=float(rng.uniform(30, 90)),
                   follow=float(rng.uniform(10, 50)), bridge=float(rng.uniform(130, 220)),
                   arm_side=float(rng.choice([-1, 1]) * rng.uniform(60, 160)),
                   leave=float(rng.uniform(0.15, 2.5)),
                   skin=SKINS[rng.integers(len(SKINS))],
                   sleeve=SLEEVES[rng.integers(len(SLEEVES))],
                   cue=CUES[rng.integers(len(CUES))])

    def shapes(self, record: ShotRecord, t: float, striker_radius: float,
               striker_thickness: float) -> list[Shape]:
        """What of the player is in view at ``t`` (s from the strike), nearest the board
        first: the cue (shaft and tip), the bridge hand, the arm. Empty once the player
        has taken everything away."""
        line = _stroke_line(record)
        if line is None:
            return []
        direction, speed = line
        start = np.asarray(record.start, float)
        tip = self._tip(t, speed) - striker_radius  # along the line, from the striker's centre
        away = max(0.0, t - self.leave) * 600.0  # taken back at 0.6 m/s …
        lift = max(0.0, t - self.leave) * 300.0  # … and up
        if away > CUE_LENGTH:
            return []
        tip -= away
        side = np.array([-direction[1], direction[0]])
        z_tip = striker_thickness / 2 + lift

        def at(along: float, across: float, z: float) -> np.ndarray:
            p = start + direction * along + side * across
            return np.array([p[0], p[1], z])

        def rise(along: float) -> float:
            return z_tip + (tip - along) * math.tan(CUE_RISE)

        butt = tip - CUE_LENGTH
        shaft = np.array([at(tip, 5.5, z_tip), at(butt, 14.0, rise(butt)),
                          at(butt, -14.0, rise(butt)), at(tip, -5.5, z_tip)])
        cap = np.array([at(tip, 5.5, z_tip), at(tip - 10, 5.6, rise(tip - 10)),
                        at(tip - 10, -5.6, rise(tip - 10)), at(tip, -5.5, z_tip)])
        out: list[Shape] = [(shaft, self.cue), (cap, TIP_BGR)]
        hand_at = -self.bridge - striker_radius - away
        hand_z = rise(hand_at) + 12.0 + lift
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        hand = np.array([at(hand_at + 55 * math.cos(k), 45 * math.sin(k), hand_z) for k in a])
        elbow = hand_at - 330.0
        arm = np.array([at(hand_at - 20, self.arm_side * 0.2 + 38, hand_z + 10),
                        at(elbow, self.arm_side + 45, hand_z + 160),
                        at(elbow, self.arm_side - 45, hand_z + 160),
                        at(hand_at - 20, self.arm_side * 0.2 - 38, hand_z + 10)])
        out += [(hand, self.skin), (arm, self.sleeve)]
        return out

    def _tip(self, t: float, speed: float) -> float:
        """The tip's place along the stroke's line at ``t``, measured from the striker's
        back edge (negative: behind it): aiming, drawn back, struck, followed through.
        The follow-through never catches the striker: it starts at a third of the
        striker's speed (m/s, so mm per ms) and slows."""
        if t <= -0.35:
            return -self.aim_gap
        if t <= -0.12:  # drawn back, smoothly
            s = (t + 0.35) / 0.23
            return -self.aim_gap - (self.backswing - self.aim_gap) * (1 - math.cos(math.pi * s)) / 2
        if t <= 0.0:  # forward, gathering speed
            s = (t + 0.12) / 0.12
            return -self.backswing * (1 - s * s)
        tau = self.follow / (speed * 1000.0 / 3.0)
        return self.follow * (1 - math.exp(-t / tau))


def _stroke_line(record: ShotRecord) -> tuple[np.ndarray, float] | None:
    """The striker's first direction of travel (unit vector, board frame) and speed (m/s),
    from its trajectory's first samples that moved it; None if it has none."""
    samples = (record.trajectory or {}).get(record.shot_piece)
    if not samples:
        return None
    start = np.asarray(record.start, float)
    for t, x, y in samples:
        step = np.array([x, y]) - start
        length = float(np.hypot(*step))
        if length > 1.0 and t > 0:
            return step / length, length / 1000.0 / t
    return None
