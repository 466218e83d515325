"""Fitting the simulator to a venue's table: the friction and restitution values with
which it replays shots the camera tracked (or the simulator recorded).

The unknowns are the five values of a physics profile that shape a shot — sliding
friction, piece–piece restitution and friction, cushion restitution and friction — and,
for each shot, what its record does not hold exactly: the stroke's direction (degrees),
its speed (m/s), the instant of the strike (s: a camera sees it between two frames) and
where the shot piece stood (mm from the record's ``start``, within ``START_MM``, with a
prior pulling it back there: a camera's start is good to a millimetre or so, and in a cut
or a second meeting that millimetre is a different shot).

Each shot is replayed from the table its record saw (``table``), and a residual is the
distance, in board millimetres, between where the record saw a moving piece at one of
its samples and where the replay has it then (the replay sampled at the record's times); a
piece the record saw stay put adds where the replay leaves it. Levenberg–Marquardt with
forward differences minimises the sum of their squares, each weighed by Huber's rule — a
sample more than ``HUBER_MM`` off counts linearly, so a swapped identity or a piece that
drops in one and not the other cannot drag the fit. Four things keep it out of the wrong
valley: each stroke is first looked for on a grid (a camera often loses a fast shot
piece in its first frames, so the first estimate may come from samples after it met
something; where it was out of sight from still to moving, a second, wider grid of
speeds and strike instants, and of directions round each way it may have gone to where
it was first seen — straight or off one cushion, the table unfolded — gives a second
start, fitted through like the first, and the one that replays the shots better is
kept); the fit takes ever longer stretches of the
shots (``HORIZONS``: a shot's start depends smoothly on everything, its end only once
all is nearly right); no step moves a value by more than a quarter (a friction past the
point where contacts stick changes nothing, and a long step could land there and stay);
and the sliding friction is measured directly where the shots show it: a piece sliding
between contacts slows at μ·g, ``free_runs`` fits each free run a parabola, and with
``LEAST_RUNS`` runs or more their median replaces the fitted value, the others are
fitted again with it held, then all together from there (on the whole shots only: going
through the short stretches again from a solution wanders off it). On filmed shots the
free runs give it within 1.5 %, where replays from the starting profile can end in a
valley with the friction 15 % off and the contacts made up for it. Before all that, the
strokes alone are fitted under the starting profile: its residual is "before", the best
that profile does ("after": values and strokes together).

Each value's uncertainty is one standard deviation, the sandwich covariance with each
shot one observation (``_Model.deviations``). It is the spread the shots show; a bias
they share — a camera's calibration a millimetre off everywhere — is not in it, and
``benchmarks/fit_physics.py`` measures the real error on filmed shots. A value that
changes no replay at the solution — the cushion's with no cushion contact — is kept at
its starting value and reported as undetermined. A friction past the point where every
contact it acts in stops slipping (tan φ / (3 (1 + e)) for a cut of φ) changes no
replay either, though lowering it would: the shots show only its floor, which
``_Model.floor`` finds and the fit reports as "at least".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from physics.profile import PhysicsProfile
from physics.simulate import Stroke, play
from physics.world import GRAVITY_MM
from rules.board import Board
from rules.errors import KangleError
from rules.shot import ShotRecord

HUBER_MM = 5.0  # residuals beyond this count linearly
PARTED_MM = 20.0  # a shot replayed this far (RMS) from what was seen …
PARTED_TIMES = 3.0  # … and this many times the shots' median has parted from it (Fit.parted)
START_MM = 3.0  # how far the shot piece may have stood from the record's start
START_WEIGHT = 3.0  # a millimetre off the record's start costs as much as 3 mm off a sample

# the fitted values: (name, lowest, highest, what kind of shot determines it)
VALUES = (
    ("sliding_friction", 0.01, 1.0, "any shot"),
    ("piece_restitution", 0.05, 1.0, "a full hit on a piece"),
    ("piece_friction", 0.0, 1.5, "a cut (a piece struck off-centre)"),
    ("cushion_restitution", 0.05, 1.0, "a piece driven into a cushion"),
    ("cushion_friction", 0.0, 1.5, "a piece striking a cushion at a slant"),
)
# piece and cushion friction (their indices in VALUES): past a point, contacts stop slipping
_FRICTIONS = tuple(i for i, (name, *_) in enumerate(VALUES)
                   if name in ("piece_friction", "cushion_friction"))
FLOOR_MM = 0.01  # replays within this of each other are the same (``_Model.floor``)
HORIZONS = (0.2, 0.4, 0.8, 1.6, math.inf)  # s: the stretches fitted one after another
SEARCH_HORIZON = 0.4  # s: the stretch the first search for each stroke looks at
SEARCH_DEGREES = 20  # how far either way of the first estimate it looks, 1° apart
SEARCH_SPEEDS = (0.8, 1.0, 1.25, 1.5, 1.8)  # times the first estimate of the speed
# a shot piece out of sight from still to moving: its speed and instant looked for wider
UNSEEN_START = 0.025  # s: out of sight this long (a frame and a half at 60 fps)
UNSEEN_SPEEDS = (0.4, 0.5, 0.63, 0.8, 1.0, 1.25, 1.6, 2.0, 2.5)
UNSEEN_INSTANTS = 5  # strike instants tried across the span it was out of sight
UNSEEN_DEGREES = 5  # and directions this far either way of each way it may have gone
MOVED_MM = 5.0  # a sample this far from the start is the shot piece moving
# a free run (free_runs): clear of contacts by this much, and this long to be fitted
MARGIN_S = 0.03
RUN_S = 0.15
RUN_SAMPLES = 8
LEAST_RUNS = 3  # free runs enough to take the sliding friction from them alone
RUN_FIT_MM = 1.5  # RMS: a parabola fits a free run's tracked samples this well
STILL_MM = 0.5  # a piece's last samples this near its last are at rest
_STEP = 0.01  # forward-difference step of a value, relative (at least 0.002 absolute)
# each shot's own parameters: angle °, speed m/s, strike instant s, and where the shot
# piece stood, mm from the record's ``start`` (a camera's is good to a millimetre or so,
# and a cut or a second meeting can turn that into a different shot)
_STROKE_STEPS = (0.02, 0.003, 0.002, 0.05, 0.05)  # the speed's relative
_STROKE_LOW = (-math.inf, 0.05, -0.1, -START_MM, -START_MM)
_STROKE_HIGH = (math.inf, 15.0, 0.1, START_MM, START_MM)
_PER_SHOT = len(_STROKE_STEPS)


@dataclass(frozen=True)
class Value:
    """One fitted value: where the fit started, where it ended, and one standard
    deviation (None: the shots do not determine it). ``at_least``: for a friction the
    shots show only as a floor — every contact that shows it stops slipping, and any
    friction above replays the same — that floor; ``value`` is then the start or the
    floor, whichever is higher."""

    name: str
    start: float
    value: float
    sd: float | None
    needs: str  # the kind of shot that determines it
    at_least: float | None = None

    @property
    def determined(self) -> bool:
        return self.sd is not None and self.sd <= 0.25 * max(abs(self.value), 0.01)


@dataclass(frozen=True)
class Fit:
    profile: PhysicsProfile  # the starting profile with the fitted values
    values: tuple[Value, ...]
    before_mm: float  # RMS residual under the starting profile (its strokes fitted)
    after_mm: float  # RMS residual with the fitted values
    shots: int
    samples: int
    left_out: tuple[tuple[int, str], ...] = ()  # (index in the records given, why)
    free_runs: tuple[float, ...] = ()  # the sliding friction each free run showed (free_runs)
    # (index in the records given, RMS mm) of each shot fitted, with the fitted values
    shot_mm: tuple[tuple[int, float], ...] = ()

    def parted(self) -> list[tuple[int, float]]:
        """The shots whose replays stay far from what was seen with the fitted values —
        over PARTED_MM and PARTED_TIMES the shots' median: a piece the camera lost or
        mistook (the Huber weights keep such samples from steering the fit, but the RMS
        counts them)."""
        if len(self.shot_mm) < 2:
            return []
        typical = float(np.median([mm for _, mm in self.shot_mm]))
        return [(k, mm) for k, mm in self.shot_mm
                if mm > max(PARTED_MM, PARTED_TIMES * typical)]


@dataclass(frozen=True)
class _Shot:
    """One record, ready to replay: the table, the stroke's first estimate, and what the
    record saw (per moving piece an array of [t, x, y]; the pieces seen to stay put)."""

    record: ShotRecord
    positions: dict[str, tuple[float, float]]
    seen: dict[str, np.ndarray]
    resting: tuple[str, ...]
    stroke: tuple[float, ...]  # angle °, speed m/s, strike instant s, start dx, dy mm
    unseen: tuple[float, float] | None = None  # s: the shot piece out of sight, still to moving
    # where it was out of sight so: the ways it may have gone to where it was first seen
    # moving, straight or off one cushion (``_unfolded``): (angle °, that way's length
    # over the straight one's)
    ways: tuple[tuple[float, float], ...] = ()

    @property
    def size(self) -> int:
        return sum(len(s) for s in self.seen.values()) + len(self.resting)


def fit_physics(records: list[ShotRecord], board: Board, start: PhysicsProfile,
                iterations: int = 30) -> Fit:
    """Fit the five values of ``start`` to ``records`` (each with its ``trajectory`` and
    ``table``); see the module's docstring. A record that shows too little to replay is
    left out, and ``Fit.left_out`` says why."""
    shots, given, left_out = [], [], []
    for k, record in enumerate(records):
        try:
            shots.append(_prepare(record, board, start))
            given.append(k)
        except KangleError as exc:
            left_out.append((k, str(exc)))
    if not shots:
        raise KangleError(f"none of the {len(records)} shots can be fitted: {left_out[0][1]}")
    model = _Model(shots, board, start)
    first = np.array([getattr(start, name) for name, *_ in VALUES])
    guess = np.concatenate([first, np.array([s.stroke for s in shots]).ravel()])
    runs = tuple(free_runs([s.record for s in shots]))
    # a stroke the camera lost from still to moving is looked for again across all it may
    # have been; each start is fitted through, and the one that replays the shots best kept
    starts = [model.search(guess)] + ([model.search(guess, wide=True)]
                                      if any(s.unseen for s in shots) else [])
    fits = [_descend(model, theta, runs, iterations) for theta in starts]
    theta, _, after, moves = min(fits, key=lambda f: f[2])
    before = min(f[1] for f in fits)
    # a value that mattered on the way (the standard's friction let a piece reach a
    # cushion) but not at the end tells nothing: back to where it started — unless it is
    # a friction that stops every slip it meets, when the shots show its floor
    shown = set(model.touched(theta))
    kept = set(moves) - shown
    floors = {j: model.floor(theta, j) for j in _FRICTIONS if j not in shown}
    floors = {j: f for j, f in floors.items() if f is not None}
    theta[list(kept)] = first[list(kept)]
    for j, f in floors.items():
        theta[j] = max(first[j], f)
    moves = tuple(j for j in moves if j not in kept)
    sd = model.deviations(theta, moves)
    fitted = tuple(Value(name, float(first[i]), float(theta[i]), sd.get(i), needs,
                         floors.get(i))
                   for i, (name, _, _, needs) in enumerate(VALUES))
    profile = replace(start, **{v.name: round(v.value, 4) for v in fitted})
    each = tuple((k, _rms([r])) for k, r in zip(given, model.residuals(theta), strict=True))
    return Fit(profile, fitted, before, after, len(shots), sum(s.size for s in shots),
               tuple(left_out), runs, each)


def _descend(model: _Model, theta: np.ndarray, runs: tuple[float, ...], iterations: int
             ) -> tuple[np.ndarray, float, float, tuple[int, ...]]:
    """From the searched strokes ``theta``: the strokes alone under the starting values
    (their residual, "before"), then the values the replays depend on with them, in ever
    longer stretches; then those the fitted strokes show too; then the sliding friction
    as the free ``runs`` measure it, the rest fitted again with it held and all together.
    Returns theta, before, after (RMS mm) and the values fitted."""
    strokes = range(len(VALUES), len(theta))
    _, before = model.solve(theta, strokes, iterations)  # the strokes alone
    moves = model.touched(theta)
    theta, after = model.solve(theta, [*moves, *strokes], iterations)
    # a value the first strokes did not show (under the standard's values the striker
    # missed the piece it cuts) may matter once the strokes are right: fitted too
    later = tuple(j for j in model.touched(theta) if j not in moves)
    if later:
        moves = tuple(sorted((*moves, *later)))
        theta, after = model.solve(theta, [*moves, *strokes], iterations, (math.inf,))
    seen = _sliding_seen(runs)
    # measured directly: the rest fitted again with it held, then all together
    if seen is not None and 0 in moves:
        theta[0] = seen
        others = [j for j in moves if j != 0]
        theta, after = model.solve(theta, [*others, *strokes], iterations, (math.inf,))
        theta, after = model.solve(theta, [*moves, *strokes], iterations, (math.inf,))
    return theta, before, after, moves


def free_runs(records: list[ShotRecord]) -> list[float]:
    """The sliding friction each free run of the records shows: a piece sliding between
    two contacts slows at μ·g exactly (Coulomb friction, the simulator's as the table's),
    so its distance along its line is v·τ − μ·g·τ²/2. A stretch between two recorded
    contacts (``MARGIN_S`` clear of each), up to where the piece comes to rest, is fitted
    when it holds ``RUN_SAMPLES`` samples over ``RUN_S`` seconds at least and the
    parabola fits within ``RUN_FIT_MM`` RMS (a contact nobody recorded breaks it)."""
    out = []
    for record in records:
        for piece, samples in (record.trajectory or {}).items():
            path = np.asarray(samples, dtype=float)
            if len(path) < RUN_SAMPLES:
                continue
            bounds = [0.0, *(c.t for c in record.contacts_of(piece)), math.inf]
            for a, b in zip(bounds, bounds[1:], strict=False):
                run = path[(path[:, 0] > a + MARGIN_S) & (path[:, 0] < b - MARGIN_S)]
                mu = _sliding(run)
                if mu is not None:
                    out.append(mu)
    return out


def _sliding_seen(runs: tuple[float, ...]) -> float | None:
    """The sliding friction the free runs measure (their median), or None with fewer than
    ``LEAST_RUNS`` runs."""
    if len(runs) < LEAST_RUNS:
        return None
    return float(np.clip(np.median(runs), VALUES[0][1], VALUES[0][2]))


def _sliding(run: np.ndarray) -> float | None:
    """μ from one stretch of samples (t s, x mm, y mm) of a piece sliding freely, or None
    when it is too short or no parabola fits it (see ``free_runs``)."""
    if len(run) < RUN_SAMPLES:
        return None
    still = np.hypot(*(run[:, 1:] - run[-1, 1:]).T) <= STILL_MM
    rest = len(run)
    while rest > 1 and still[rest - 2]:
        rest -= 1
    run = run[:rest]  # up to the first sample at rest: on the parabola, at its top
    if len(run) < RUN_SAMPLES or run[-1, 0] - run[0, 0] < RUN_S:
        return None
    heading = run[-1, 1:] - run[0, 1:]
    length = float(np.hypot(*heading))
    if length < 1.0:
        return None
    tau = run[:, 0] - run[0, 0]
    s = (run[:, 1:] - run[0, 1:]) @ (heading / length)
    basis = np.column_stack([np.ones_like(tau), tau, -tau ** 2 / 2])
    fitted, *_ = np.linalg.lstsq(basis, s, rcond=None)
    if fitted[2] <= 0 or np.sqrt(np.mean((basis @ fitted - s) ** 2)) > RUN_FIT_MM:
        return None
    return float(fitted[2] / GRAVITY_MM)


def _prepare(record: ShotRecord, board: Board, physics: PhysicsProfile) -> _Shot:
    """A record's table and samples, and a first estimate of its stroke from the shot
    piece's straight run before its first contact (distance = v·t − μ·g·t²/2)."""
    what = f"the {record.source} shot of {record.shooter} from {record.circle}"
    if not record.trajectory or record.shot_piece not in record.trajectory:
        raise KangleError(f"{what} has no trajectory of its shot piece: physics is fitted to "
                          "paths (records written by `kangle sim --out` or `kangle referee "
                          "--records`)")
    if not record.table:
        raise KangleError(f"{what} does not say where the pieces stood before it (its "
                          "'table'): physics cannot be fitted to it")
    positions = {p: xy for p, xy in record.table.items() if p != record.shot_piece}
    seen = {p: np.array(s, dtype=float) for p, s in sorted(record.trajectory.items())
            if len(s) and (p in positions or p == record.shot_piece)}
    resting = tuple(sorted(p for p in positions if p not in seen))
    path = seen[record.shot_piece]
    first = min((c.t for c in record.contacts_of(record.shot_piece)), default=math.inf)
    run = path[(path[:, 0] > 0) & (path[:, 0] < first - 0.01)]
    if len(run) < 2:
        run = path[path[:, 0] > 0][:3]
    if len(run) < 2:
        raise KangleError(f"{what} shows its shot piece moving in fewer than two samples "
                          "(lost to the camera at once?): there is no stroke to fit")
    x0, y0 = record.start
    dx, dy = run[-1, 1] - x0, run[-1, 2] - y0
    t, d = run[:, 0], np.hypot(run[:, 1] - x0, run[:, 2] - y0)
    braking = physics.sliding_friction * GRAVITY_MM
    speed = float(np.sum((d + braking * t ** 2 / 2) * t) / np.sum(t ** 2))  # mm/s
    speed = min(max(speed, 100.0), 15000.0)
    lag = float(np.clip(d[0] / speed - t[0], _STROKE_LOW[2], _STROKE_HIGH[2]))
    stroke = (math.degrees(math.atan2(dy, dx)), speed / 1000, lag, 0.0, 0.0)
    unseen = _unseen(path, record.start)
    ways = ()
    if unseen is not None:
        first_moving = path[path[:, 0] >= unseen[1]][0, 1:]
        ways = _unfolded(record.start, first_moving, board.half - board.radius_of(
            record.shot_piece))
    return _Shot(record, positions, seen, resting, stroke, unseen, ways)


def _unfolded(start: tuple[float, float], seen: np.ndarray, line: float
              ) -> tuple[tuple[float, float], ...]:
    """The ways from ``start`` to ``seen`` (mm) straight and off each cushion, the table
    unfolded: the piece's centre meets a cushion on the line ``line`` mm from the
    centre, and off it runs as if on to ``seen`` mirrored in that line (a cushion bends
    the way a little more, by its restitution and friction). Each as (angle °, its
    length over the straight way's)."""
    x0, y0 = start
    straight = max(math.hypot(seen[0] - x0, seen[1] - y0), 1.0)
    out = []
    for axis, sign in ((None, 0), (0, 1), (0, -1), (1, 1), (1, -1)):
        point = [float(seen[0]), float(seen[1])]
        if axis is not None:
            point[axis] = 2 * sign * line - point[axis]
        out.append((math.degrees(math.atan2(point[1] - y0, point[0] - x0)),
                    math.hypot(point[0] - x0, point[1] - y0) / straight))
    return tuple(out)


def _unseen(path: np.ndarray, start: tuple[float, float]) -> tuple[float, float] | None:
    """The span (record s) between the shot piece's last sample where it stood and its
    first away from there, if the camera lost it for longer than UNSEEN_START in
    between: then the strike is anywhere in it, and the first moving samples may come
    after it met something, so its speed and instant are barely known."""
    away = np.hypot(path[:, 1] - start[0], path[:, 2] - start[1]) > MOVED_MM
    if not away.any():
        return None
    first = int(np.argmax(away))
    moving = float(path[first, 0])
    # no sample where it stood: the record's instant of the strike (its time 0) lies
    # within the span, so the span reaches as far before it as after
    still = float(path[first - 1, 0]) if first > 0 else -moving
    return (still, moving) if moving - still > UNSEEN_START else None


class _Model:
    """The replays and their residuals. Parameters (``theta``): the five values, then
    each shot's angle, speed, strike instant and start offset (x, y)."""

    def __init__(self, shots: list[_Shot], board: Board, start: PhysicsProfile):
        self.shots, self.board = shots, board
        self.start = start
        self.horizon = math.inf  # s: only the samples up to this time count

    # -- residuals --------------------------------------------------------------------------
    def shot_residuals(self, k: int, values: np.ndarray, stroke: np.ndarray) -> np.ndarray:
        """Shot ``k`` replayed with ``values`` and its ``stroke``: the (x, y) residual, mm,
        of each sample the record holds, one row each."""
        shot, rec = self.shots[k], self.shots[k].record
        physics = replace(self.start, max_duration=min(self.start.max_duration,
                                                       self.horizon + 0.05),
                          **{name: float(v) for (name, *_), v in zip(VALUES, values, strict=True)})
        angle, speed, lag, dx, dy = stroke
        start = (rec.start[0] + float(dx), rec.start[1] + float(dy))
        seen = {piece: s[s[:, 0] <= self.horizon] for piece, s in shot.seen.items()}
        # the replay sampled at the record's times (its clock is the record's plus the lag)
        times = np.unique(np.concatenate([s[:, 0] for s in seen.values()])) + lag
        replayed = play(shot.positions, rec.shot_piece, start,
                        Stroke(rec.shooter, rec.circle, float(angle), float(speed)),
                        self.board, physics, sample_at=times.tolist()).trajectory or {}
        rows = []
        for piece, s in seen.items():
            rows.append(self._at(replayed, shot, piece, s[:, 0] + lag) - s[:, 1:])
        for piece in shot.resting:
            rows.append(self._at(replayed, shot, piece, np.array([self.horizon]))
                        - np.array([shot.positions[piece]]))
        rows.append(np.array([[dx, dy]]) * START_WEIGHT)  # the start as measured: a prior
        return np.concatenate(rows)

    @staticmethod
    def _at(replayed: dict, shot: _Shot, piece: str, t: np.ndarray) -> np.ndarray:
        """Where the replay has ``piece`` at times ``t`` (its last place after it stops or
        drops; where it stood if it never moved)."""
        path = replayed.get(piece)
        if not path:
            xy = shot.record.start if piece == shot.record.shot_piece else shot.positions[piece]
            return np.tile(np.array(xy, dtype=float), (len(t), 1))
        p = np.asarray(path, dtype=float)
        return np.column_stack([np.interp(t, p[:, 0], p[:, 1]), np.interp(t, p[:, 0], p[:, 2])])

    def residuals(self, theta: np.ndarray, only: int | None = None) -> list[np.ndarray | None]:
        """Each shot's residuals under ``theta`` (the five values, then three per shot);
        with ``only``, that shot's alone (None for the others)."""
        n = len(VALUES)
        return [self.shot_residuals(k, theta[:n], theta[n + _PER_SHOT * k:n + _PER_SHOT * (k + 1)])
                if only is None or k == only else None for k in range(len(self.shots))]

    # -- the solver -------------------------------------------------------------------------
    def _steps(self, theta: np.ndarray) -> np.ndarray:
        n = len(VALUES)
        steps = [max(_STEP * abs(v), 0.002) for v in theta[:n]]
        for k in range(len(self.shots)):
            a, s, *rest = _STROKE_STEPS
            steps += [a, s * theta[n + _PER_SHOT * k + 1], *rest]
        return np.array(steps)

    def _reach(self, theta: np.ndarray) -> np.ndarray:
        """The most each parameter may move in one step: a quarter of a value (a
        friction past the point where contacts stick changes nothing, and a long step
        could land there and stay), 2°, 10 % of the speed, 10 ms, 1 mm."""
        n = len(VALUES)
        reach = [0.25 * max(abs(v), 0.04) for v in theta[:n]]
        for k in range(len(self.shots)):
            reach += [2.0, 0.1 * theta[n + _PER_SHOT * k + 1], 0.01, 1.0, 1.0]
        return np.array(reach)

    def _jacobian(self, theta: np.ndarray, active, base: list[np.ndarray]) -> np.ndarray:
        """Forward differences of the stacked residuals in the ``active`` parameters'
        columns: a value moves every shot, a stroke parameter only its own."""
        steps = self._steps(theta)
        offsets = np.cumsum([0] + [b.size for b in base])
        jac = np.zeros((offsets[-1], len(active)))
        for col, j in enumerate(active):
            moved = theta.copy()
            moved[j] += steps[j]
            only = None if j < len(VALUES) else (j - len(VALUES)) // _PER_SHOT
            for k, r in enumerate(self.residuals(moved, only)):
                if r is not None:
                    jac[offsets[k]:offsets[k + 1], col] = (r - base[k]).ravel() / steps[j]
        return jac

    def solve(self, theta: np.ndarray, active, iterations: int,
              horizons: tuple[float, ...] = HORIZONS) -> tuple[np.ndarray, float]:
        """Fit the ``active`` parameters of ``theta`` (the rest held) to ever longer
        stretches of the shots (``HORIZONS``): a shot's first moments depend smoothly on
        the parameters, while its end — after pieces have met several times — only
        settles once they are nearly right. Returns the solution and its RMS residual
        over the whole shots (mm)."""
        for self.horizon in horizons:
            theta, rms = self._descend(theta, active, iterations)
        return theta, rms

    def _descend(self, theta: np.ndarray, active, iterations: int) -> tuple[np.ndarray, float]:
        """Levenberg–Marquardt in the ``active`` parameters of ``theta``, each kept within
        its bounds, on the samples up to the horizon."""
        active = list(active)
        low = np.array([lo for _, lo, _, _ in VALUES] + list(_STROKE_LOW) * len(self.shots))
        high = np.array([hi for _, _, hi, _ in VALUES] + list(_STROKE_HIGH) * len(self.shots))
        theta = theta.copy()
        base = self.residuals(theta)
        cost, damping = _cost(base), 1e-3
        for _ in range(iterations):
            weights = _weights(base)
            jac = self._jacobian(theta, active, base)
            a, g = _normal_equations(jac, weights, np.concatenate(base).ravel())
            improved = False
            while damping < 1e8:
                step = _solve(a + damping * np.diag(np.diag(a) + 1e-12), -g)
                reach = self._reach(theta)[active]
                step = np.clip(step, -reach, reach)
                trial = theta.copy()
                trial[active] = np.clip(theta[active] + step, low[active], high[active])
                r = self.residuals(trial)
                if _cost(r) < cost:
                    improved = cost - _cost(r) > 1e-6 * cost
                    theta, base, cost = trial, r, _cost(r)
                    damping = max(damping / 4, 1e-7)
                    break
                damping *= 4
            if not improved:
                break
        return theta, _rms(base)

    def search(self, theta: np.ndarray, wide: bool = False) -> np.ndarray:
        """Each shot's direction and speed looked for on a grid around the first
        estimate, on the shot's first ``SEARCH_HORIZON`` s: a camera often loses a fast
        shot piece in its first frames (a streak), and then the first estimate comes from
        samples after it has already met something. ``wide``: for a shot piece out of
        sight from still to moving (``_Shot.unseen``), speeds from UNSEEN_SPEEDS times
        the first estimate and strike instants across the span unseen as well, and
        directions around each way it may have gone to where it was first seen
        (``_Shot.ways``: straight or off one cushion, UNSEEN_DEGREES either way)."""
        theta = theta.copy()
        self.horizon = SEARCH_HORIZON
        n = len(VALUES)
        for k, shot in enumerate(self.shots):
            at = n + _PER_SHOT * k
            near = np.arange(-SEARCH_DEGREES, SEARCH_DEGREES + 0.5, 1.0)
            aims = [(theta[at] + turn, 1.0) for turn in near]
            speeds, lags = SEARCH_SPEEDS, [theta[at + 2]]
            if wide and shot.unseen is not None:  # struck anywhere in the span: replay time is
                still, moving = shot.unseen  # the record's plus the lag
                speeds = UNSEEN_SPEEDS
                lags = np.clip([theta[at + 2], *np.linspace(-moving, -still, UNSEEN_INSTANTS)],
                               _STROKE_LOW[2], _STROKE_HIGH[2])
                aims += [(angle + turn, longer) for angle, longer in shot.ways
                         for turn in np.arange(-UNSEEN_DEGREES, UNSEEN_DEGREES + 0.5, 1.0)]
            best, tried = None, theta[at:at + _PER_SHOT].copy()
            for angle, longer in aims:
                for scale in speeds:
                    for lag in lags:
                        tried[0], tried[1] = angle, theta[at + 1] * scale * longer
                        tried[2] = lag
                        cost = _cost([self.shot_residuals(k, theta[:n], tried)])
                        if best is None or cost < best[0]:
                            best = (cost, tried[:3].copy())
            theta[at:at + 3] = best[1]
        self.horizon = math.inf
        return theta

    def floor(self, theta: np.ndarray, j: int, rounds: int = 10) -> float | None:
        """The lowest value of friction ``j`` (index in ``VALUES``) that replays the shots
        as ``theta`` does, to within FLOOR_MM everywhere, found by bisection: a friction at
        which every contact it acts in stops slipping changes nothing when raised, so
        the shots show only that it is at least this. None if even the lowest friction
        replays the same (nothing here shows it at all)."""
        def same(value: float) -> bool:
            trial = theta.copy()
            trial[j] = value
            return all(np.max(np.abs(r - b)) <= FLOOR_MM
                       for r, b in zip(self.residuals(trial), base, strict=True))

        base = self.residuals(theta)
        low, high = VALUES[j][1], float(theta[j])
        if same(low):
            return None
        for _ in range(rounds):
            mid = (low + high) / 2
            if same(mid):
                high = mid
            else:
                low = mid
        return high

    def touched(self, theta: np.ndarray) -> tuple[int, ...]:
        """The values whose change moves some replay at all."""
        jac = self._jacobian(theta, range(len(VALUES)), self.residuals(theta))
        return tuple(j for j in range(len(VALUES)) if np.any(jac[:, j]))

    def deviations(self, theta: np.ndarray, moves) -> dict[int, float]:
        """One standard deviation of each fitted value: the sandwich (cluster-robust)
        covariance B⁻¹·M·B⁻¹, B = JᵀWJ, M the sum over shots of each shot's gradient
        gᵀg, g = (W·r)ᵀJ over its samples; with G shots, M is scaled by G / (G − 1).
        The samples of one shot share their errors (a tracker's bias, a start a little
        off, a contact a touch thinner), so a shot counts as one observation, not as its
        hundreds of samples: the spread is that of the values the shots one by one ask
        for. With few shots it is itself rough."""
        base = self.residuals(theta)
        active = [*moves, *range(len(VALUES), len(theta))]
        jac = self._jacobian(theta, active, base)
        weights = _weights(base)
        score = jac * (weights * np.concatenate(base).ravel())[:, None]
        sums = np.zeros((len(self.shots), len(active)))
        np.add.at(sums, self._shot_of_rows(), score)
        meat = sums.T @ sums * len(sums) / max(len(sums) - 1, 1)
        bread = np.linalg.pinv(jac.T @ (weights[:, None] * jac))
        cov = bread @ meat @ bread
        return {j: math.sqrt(max(float(cov[i, i]), 0.0)) for i, j in enumerate(moves)}

    def _shot_of_rows(self) -> np.ndarray:
        """Which shot each coordinate of the stacked residuals (at horizon ∞) is of."""
        return np.repeat(np.arange(len(self.shots)),
                         [2 * (shot.size + 1) for shot in self.shots])


def _normal_equations(jac: np.ndarray, weights: np.ndarray,
                      residual: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """JᵀWJ and JᵀWr of a Levenberg–Marquardt step, each entry a correctly rounded sum
    (``math.fsum``) of exactly rounded products: the same to the last bit on every
    processor. A BLAS product sums in an order its kernel chooses (AVX2 and AVX-512
    kernels differ in the last bits), and the fit, whose replays part when the values
    are far off, amplifies that: on one machine a test's piece friction came back 9 %
    off, on another within 5 %."""
    weighted = jac * weights[:, None]
    n = jac.shape[1]
    a = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            a[i, j] = a[j, i] = math.fsum(weighted[:, i] * jac[:, j])
    g = np.array([math.fsum(weighted[:, i] * residual) for i in range(n)])
    return a, g


def _solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a x = b`` for a small square system by Gaussian elimination with partial
    pivoting in plain floating point: the same on every processor (LAPACK's blocked
    kernels are not)."""
    m = [list(map(float, row)) + [float(v)] for row, v in zip(a, b, strict=True)]
    n = len(m)
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[pivot][c] == 0.0:
            raise np.linalg.LinAlgError("singular matrix")
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - math.fsum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return np.array(x)


def _weights(residuals: list[np.ndarray]) -> np.ndarray:
    """Huber's weight of each coordinate (both of a sample's get its distance's)."""
    d = np.hypot(*np.concatenate(residuals).T)
    w = np.where(d <= HUBER_MM, 1.0, HUBER_MM / np.maximum(d, 1e-12))
    return np.repeat(w, 2)


def _cost(residuals: list[np.ndarray]) -> float:
    """Huber's loss of the sample distances, mm²."""
    d = np.hypot(*np.concatenate(residuals).T)
    return float(np.sum(np.where(d <= HUBER_MM, d ** 2, 2 * HUBER_MM * d - HUBER_MM ** 2)))


def _rms(residuals: list[np.ndarray]) -> float:
    """The RMS distance of the samples, mm (each shot's last row is the start's prior)."""
    return float(np.sqrt(np.mean(np.sum(np.concatenate([r[:-1] for r in residuals]) ** 2,
                                        axis=1))))
