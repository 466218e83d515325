"""Exact time of impact for discs moving in straight lines: the order of contacts.

The simulator moves bodies in straight lines within one step; the camera sees a
striker move in a (nearly) straight line between frames. Both need the instant
within an interval at which two discs, or a disc and a cushion, first touch.
Lengths in millimetres, speeds in mm/s, times in seconds.
"""

from __future__ import annotations

import math


def disc_disc(
    pa: tuple[float, float], va: tuple[float, float],
    pb: tuple[float, float], vb: tuple[float, float],
    reach: float, horizon: float,
) -> float | None:
    """Earliest τ in [0, horizon] at which discs a and b (centres ``pa``, ``pb``, moving
    at ``va``, ``vb``) are ``reach`` apart (the sum of their radii) while closing.
    0 if they already touch; None if they do not meet within the horizon."""
    window = overlap(pa, va, pb, vb, reach)
    if window is None:
        return None
    tau = window[0]
    return tau if tau <= horizon else None


def overlap(
    pa: tuple[float, float], va: tuple[float, float],
    pb: tuple[float, float], vb: tuple[float, float],
    reach: float,
) -> tuple[float, float] | None:
    """The times (τ_in, τ_out) between which discs a and b, moving in straight lines,
    overlap (centres nearer than ``reach``) while they first close on each other:
    (0, 0) if they already touch, None if they are not closing or pass clear. A pass
    whose τ_out comes before the end of a step is a graze a step-end check never
    sees; the middle of the window, (τ_in + τ_out) / 2, is its deepest moment."""
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    ux, uy = vb[0] - va[0], vb[1] - va[1]
    c = dx * dx + dy * dy - reach * reach
    if c <= 0:
        return (0.0, 0.0)
    a = ux * ux + uy * uy
    half_b = dx * ux + dy * uy
    if a == 0 or half_b >= 0:  # not moving relative to each other, or moving apart
        return None
    disc = half_b * half_b - a * c
    if disc <= 0:
        return None
    root = math.sqrt(disc)
    return (-half_b - root) / a, (-half_b + root) / a


def disc_wall(
    p: tuple[float, float], v: tuple[float, float], radius: float, side: str, half: float,
    horizon: float,
) -> float | None:
    """Earliest τ in [0, horizon] at which a disc touches the cushion ``side`` (N, E,
    S, W) of a square whose cushions lie ``half`` from the centre. None if it does not."""
    axis, sign = {"E": (0, 1), "W": (0, -1), "N": (1, 1), "S": (1, -1)}[side]
    gap = half - radius - sign * p[axis]  # distance still to travel towards the cushion
    speed = sign * v[axis]
    if gap <= 0:
        return 0.0
    if speed <= 0:
        return None
    tau = gap / speed
    return tau if tau <= horizon else None
