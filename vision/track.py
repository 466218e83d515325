"""Following pieces from frame to frame and turning one shot into a shot record.

Input: the table state before the shot (which piece stands where: identities come
from there), the shooter, and each frame's detections with its time. Tracks are
matched to detections of the same colour and kind, nearest to where each track is
predicted (constant velocity), within a gate that grows with speed; a track with no
detection keeps its last place (a hand over it) unless it vanished over a hole or the
edge, which is a pocket or an exit — until it is seen again (a fast piece near a
corner can be lost for a few frames and come back off the cushions).

Events come from the tracks, each with a confidence:
- the striker's first contact: its stroke is fitted to its first frames
  (vision/strike.py) and followed, in closed form (rules/impact.py), to the first
  piece or cushion it meets, checked against what the frames show (did that piece
  start moving then? did the striker run straight on past it?); a call they do not
  settle is put to a simulator (``ShotOracle``, supplied by the caller);
- a resting piece starting to move: hit by the nearest moving piece at that moment;
- a cushion: a moving piece's velocity towards a cushion reverses next to it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from statistics import median
from typing import NamedTuple, Protocol

import numpy as np

from rules.board import CORNERS, SURFACE, Board
from rules.impact import disc_disc, disc_wall
from rules.pieces import STRIKERS, colour_of
from rules.shot import Contact, Exit, Pocketed, ShotRecord, cushion
from rules.state import TableState
from vision.detect import Detection
from vision.strike import OFF_LINE, STARTED, Strike, first_move, fit_strike

MOVING = 30.0  # mm/s: slower than this is at rest
TOP_SPEED = 9000.0  # mm/s: nothing on the table moves faster (a hard break is ~6 m/s)
LOST_FOR = 0.3  # s: a piece thought gone and not seen again for this long stays gone
UNSEEN_HIT = 0.2  # s: the longest a piece the striker hit may go unseen before it is
# seen moved (a fast piece's streak, at 30 fps)
TOUCH = 2.0  # mm: two moving pieces' paths this near touching may have met
KICK = 250.0  # mm/s: a velocity change this large between frames is an impact
COAST = 0.1  # s: how far on a lost piece is followed to see whether it found a hole
SLOWING = 1000.0  # mm/s²: the least a sliding piece slows (a slick board, μ ≈ 0.1): a
# piece lost running and never seen again is followed this far on, to where it may stop
SLOWING_SEEN = 0.8  # … or this share of the slowing its own last run showed (SLOWED_OVER)
SLOWED_OVER = 0.25  # s: the shortest straight run of sightings a piece's slowing is read from
RIM_GRIP = 5000.0  # mm/s²: the most a piece sliding on the rim slows (rough wood, μ ≈ 0.5)
REST_FOR = 0.1  # s: a piece seen within REST_MM of one place this long has come to rest
REST_MM = 2.0  # mm (a resting piece's detections jitter by about one)
NUDGE = 1.0  # mm: a piece seen this far from where it stood may have been nudged
RUN_OVER = 2000.0  # mm/s: faster than this over a hole, a piece may run on over it
# instead of dropping (tables drop pieces slower than about 2.5 m/s) …
NO_DROP = 3750.0  # … and faster than this it does: the frames read a fast piece up to a
# fifth fast (held-out 8350: one that dropped read at 2.97 m/s)
DROPS = 2500.0  # mm/s: no faster than this over a hole, a piece drops (the standard
# physics profile's capture speed)
LEAP = 1000.0  # mm/s at a cushion: slower than this, a piece cannot leap it (fly-offs
# need 1.5-3 m/s; a fast piece's speed is measured short from blurred detections)
BOUNCES = (0.4, 0.7, 0.9)  # the share of its speed across a cushion a piece may keep
TURNS = 0.35  # rad: how far a cushion's grip may turn a piece's way off it
OFF_OR_HOLE = 0.7  # the most in a leap off the table where a bounce could have found a hole
ONE_SIGHTING = 0.7  # how sure a departure is that rests on one sighting, made after the
# piece left its place out of sight (below the referee's SURE: the call asks)
LIP_MM = 3.0  # a piece seen resting this far inside a hole's edge rests on its lip …
# … and one still seen there when the shot ends, this far: the detector reads a piece
# overhanging a hole toward its centre (up to 3.3 mm on clean frames, 4.4 mm frame after
# frame in held-out 8474), and a piece whose centre is over the opening drops at once
LIP_SEEN = 8.0
STILL = 15.0  # mm: how far from its place a piece nothing can have struck is looked for
FOUND = 40.0  # mm: how far from where it was predicted a moving track is looked for, at least
SPREAD = 0.5  # how far aside its heading a piece running unseen may be, per mm it ran
# mm: a step this long away from its place is a striker struck, going that way (a hand
# adjusting it moves it a few millimetres a frame; one half covered is read up to ~5 mm
# off its middle)
LEAVING = 10.0
# s: a first step away after longer out of sight says where the striker got to, not the
# way it is going (it may have met a cushion or a piece unseen)
LEAVING_SEEN = 0.1
AIMING_SIGHTINGS = 30  # a resting piece's last sightings before the strike that place it
# a struck piece leaves at most this times the speed of what struck it (head on, struck
# by a heavier piece: (1 + e) m1 / (m1 + m2) < 2)
SENT_FASTER = 2.0
SWAP = 0.8  # the most confidence in an event of a track that may have swapped identity
LOST_STRIKER = 0.5  # s a resting striker may be out of sight before the referee is asked
HIDDEN = 0.65  # the most in a first contact that may lie where the striker went unseen
SURE_HIT = 0.95  # a piece set moving with no other mover near it: what moved it is sure
DEPARTED = 10.0  # mm: a struck piece's way off its place is read from a run this long;
# the striker's places at two touches this far apart along its line are in order
UNSEEN_GRAZE = 0.85  # the most in a first contact whose line passes another piece at a tangent
GRAZE = 0.8  # a first contact the frames show and the striker's fitted line misses
CLEAR = 0.95  # a bounce off a cushion seen at speed both ways
UNSEEN_SPAN = 0.15  # s: a mover out of sight this long at most is taken to have gone straight
# a track found again after LOST_FOR s out of sight is not sure to be its piece (a
# sleeve's end passing where the piece went under it) until seen this many times more;
# till then where it goes is told with at most REGAINED confidence
REFOUND = 8
REGAINED = 0.7
# a detection no track claims, seen this many times within FIXED mm of one place, is a
# fixture of the view (a sleeve's corner by a hole read as a piece), not a piece: a
# track out of sight is not found again in it
FIXTURE = 10
FIXED = 4.0
UNCLAIMED_FOR = 0.5  # s: a place where none has stood unclaimed for this long is forgotten
MISREAD = 0.5  # of its radius: a detection of another colour this near a resting piece's
# place, that no track took, is that piece misread (no other piece can stand on it)
SEEN_SURELY = 0.5  # a detection this confident is a sure sighting; one less, faint


class ShotOracle(Protocol):
    """What a simulator can tell the tracker: the first thing a stroke touches."""

    def first_contact(self, state: TableState, shooter: str, circle: str,
                      start: tuple[float, float], angle_deg: float,
                      speed_m_s: float) -> str | None: ...


class Reach(NamedTuple):
    """How far (mm) from its last sighting a piece out of sight may be found: ``own``,
    running on unstruck (along its course), and ``sent``, struck (any way)."""

    own: float
    sent: float


@dataclass(frozen=True)
class Gone:
    """Where a lost track went: ``pocket`` (into ``hole``), ``off`` the table or onto the
    ``rim``, from time ``t`` (s), and how sure the frames make that (0–1)."""

    kind: str
    hole: str
    t: float
    confidence: float


@dataclass
class Track:
    id: str
    colour: str
    kind: str
    points: list[tuple[float, float, float]] = field(default_factory=list)  # t, x, y
    missing: int = 0
    seeded: bool = False  # its one point is where the table state says it stands
    gone: Gone | None = None
    refound: int = 0  # sightings still to come before it is sure to be its piece (REFOUND)
    # found again after long out of sight farther than it was going: only "it may have
    # been struck" made it this piece, and no sighting since can make that surer
    regained: bool = False
    unsure: list[float] = field(default_factory=list)  # times of sightings made meanwhile
    # its last sure sighting (t, x, y; SEEN_SURELY), or where it stood seeded, and the
    # time of its first faint sighting since, if any (``_faint_run_undone``)
    surely: tuple[float, float, float] | None = None
    faint_since: float | None = None

    @property
    def pos(self) -> tuple[float, float]:
        return self.points[-1][1], self.points[-1][2]

    def velocity(self) -> tuple[float, float]:
        if len(self.points) < 2:
            return 0.0, 0.0
        (t0, x0, y0), (t1, x1, y1) = self.points[-2], self.points[-1]
        dt = t1 - t0
        return ((x1 - x0) / dt, (y1 - y0) / dt) if dt > 0 else (0.0, 0.0)

    def arriving_velocity(self) -> tuple[float, float]:
        """Its velocity (mm/s) as a leap over a cushion needs it: on each axis the faster
        of its last two sighting-to-sighting steps, if going the way its last step goes.
        A piece leaping a cushion is seen slowed as it rises over it (held-out 10131:
        B02, sent at 1.5 m/s across the E cushion, last seen over it at 0.96 m/s)."""
        vx, vy = self.velocity()
        for (t0, x0, y0), (t1, x1, y1) in itertools.pairwise(self.points[-3:]):
            if t1 > t0:
                sx, sy = (x1 - x0) / (t1 - t0), (y1 - y0) / (t1 - t0)
                vx = sx if sx * vx > 0 and abs(sx) > abs(vx) else vx
                vy = sy if sy * vy > 0 and abs(sy) > abs(vy) else vy
        return vx, vy

    def arriving_speed(self) -> float:
        """How fast (mm/s) it was last seen going: the faster of its last two
        sighting-to-sighting speeds. A piece found partly over a hole's opening or the
        cushion is placed short of its centre, so its last step may read slow; friction
        cannot slow it much in one frame."""
        return max((math.hypot(x1 - x0, y1 - y0) / (t1 - t0) for (t0, x0, y0), (t1, x1, y1)
                    in itertools.pairwise(self.points[-3:]) if t1 > t0), default=0.0)

    def settled(self, span: float = 0.1) -> bool:
        """Moved less than a few millimetres over the last ``span`` seconds, as its
        sightings show it: the median place of its last five within the span against that
        of five ``span`` earlier, or — for a piece the detector finds in two places by
        turns — the drift of a straight line through its last 2 × ``span`` of sightings
        (a piece seen once moved, its sightings while the player aimed not kept, has not
        come to rest: held-out 8953). One frame to the next, detection jitters; and a
        piece resting against a cushion's printed edge may be found every other frame 3-4
        mm off, where its dark rim joins the print, which compared sighting with sighting
        never lets the shot end."""
        points = self.points
        t1, x1, y1 = points[-1]
        k = len(points) - 1  # the latest sighting ``span`` or more before the last
        while k >= 0 and t1 - points[k][0] < span:
            k -= 1
        if k < 0:
            return False
        if math.hypot(x1 - points[k][1], y1 - points[k][2]) < 2.0:
            return True  # (most pieces at rest: no need to look further)
        recent = points[max(k + 1, len(points) - 5):]
        if math.dist(_median_place(recent), _median_place(points[max(k - 4, 0):k + 1])) < 2.0:
            return True
        first = k
        while first > 0 and t1 - points[first - 1][0] <= 2 * span:
            first -= 1
        window = np.array(points[first:])
        if len(window) < 6:
            return False
        t = window[:, 0] - window[:, 0].mean()
        drift = t @ (window[:, 1:] - window[:, 1:].mean(axis=0)) / (t @ t)  # mm/s
        return math.hypot(*drift) * span < 2.0

    def predict(self, t: float) -> tuple[float, float]:
        vx, vy = self.velocity()
        dt = t - self.points[-1][0]
        return self.pos[0] + vx * dt, self.pos[1] + vy * dt

    def seen_since(self, t: float) -> int:
        """How many times the track was seen from time ``t`` on."""
        return sum(p[0] >= t for p in self.points)

    def struck_at(self) -> float | None:
        """The time of the sighting that first showed it struck, if it has been seen
        fewer than three times since (its pace is not known yet): set off from where it
        stood (``moved_at``), or — one of its last two steps — sped up or turned by more
        than KICK from the step before. None otherwise."""
        started = self.moved_at()
        if started is not None and self.seen_since(started) < 3:
            return started
        p = self.points
        return next((p[k][0] for k in (len(p) - 1, len(p) - 2)
                     if k >= 2 and _kicked(p[k - 2], p[k - 1], p[k])), None)

    def moved_at(self) -> float | None:
        """When the track first stood STARTED mm away from its first place."""
        return first_move(self.points, STARTED)

    def place_before(self, moved: float) -> tuple[float, float]:
        """Where it stood before it was seen moved at ``moved``: the median of its last
        AIMING_SIGHTINGS sightings before then (its first sighting if there are none)."""
        before = [p for p in self.points if p[0] < moved]
        return _median_place(before[-AIMING_SIGHTINGS:]) if before else self.points[0][1:]

    def left_at(self, moved: float) -> float:
        """When the track, seen moved at ``moved`` (STARTED mm from its place), first
        left its place: the sighting after its last one within NUDGE mm of where it
        stood (``place_before``). A slow nudge takes a few frames to
        carry a piece STARTED mm, by which time what nudged it may have passed."""
        before = [p for p in self.points if p[0] < moved]
        if not before:
            return moved
        x, y = self.place_before(moved)
        left = moved
        for t, px, py in reversed(before):
            if math.hypot(px - x, py - y) <= NUDGE:
                break
            left = t
        return left

    def restarts(self) -> list[float]:
        """When the track set off again after coming to rest during the shot (a piece
        the striker sent on, run into later by another): each time it was seen within
        REST_MM of one place for REST_FOR s and then STARTED mm from there (by two
        sightings in a row, as ``moved_at``)."""
        start = self.moved_at()
        if start is None:
            return []
        pts = [p for p in self.points if p[0] >= start]
        out, i = [], 0
        while i < len(pts):
            t, x, y = pts[i]
            j = i
            while j + 1 < len(pts) and math.hypot(pts[j + 1][1] - x, pts[j + 1][2] - y) < REST_MM:
                j += 1
            if pts[j][0] - t < REST_FOR:
                i += 1
                continue
            again = first_move(pts[i:], STARTED)
            if again is None:
                break
            out.append(again)
            i = next(k for k in range(j, len(pts)) if pts[k][0] >= again)
        return out


class ShotTracker:
    """Tracks one shot from the frames' detections; ``record()`` when it is over."""

    def __init__(self, state: TableState, shooter: str, board: Board,
                 oracle: ShotOracle | None = None):
        self.state, self.shooter, self.board, self.oracle = state, shooter, board, oracle
        self.tracks: dict[str, Track] = {}
        self._resting = {pid: p.pos for pid, p in state.pieces.items() if p.status == "table"}
        self.striker = STRIKERS[shooter]
        self.start_time: float | None = None
        self.rest_since: float | None = None
        self.last_t: float | None = None
        self.frame = 1 / 60  # s between frames: the shortest seen, once there are two
        self.meetings: dict[frozenset[str], float] = {}  # like pieces that met, and when
        self._aiming: dict[str, list] = {}  # each piece's sightings before the strike
        # [x, y, sightings, last seen] of detections no track took, for UNCLAIMED_FOR s
        self._unclaimed: list[list] = []
        self._fixtures: list[list] = []  # those seen FIXTURE times (and still counted)
        self._rim_marks: list[tuple[float, float]] = []  # the rim's, before the strike
        self._timed = False

    # -- following ------------------------------------------------------------------------
    def update(self, t: float, detections: Iterable[Detection]) -> None:
        dets = list(detections)
        if self.last_t is not None and t > self.last_t:
            self.frame = min(self.frame, t - self.last_t) if self._timed else t - self.last_t
            self._timed = True
        self.last_t = t
        if not self.tracks and self._resting:  # the first frame: everything stands still
            for pid, pos in self._resting.items():
                self.tracks[pid] = Track(pid, colour_of(pid), "piece", [(t, *pos)],
                                         seeded=True, surely=(t, *pos))
        live = list(self.tracks.values())  # a piece thought gone may be seen again
        if self.striker not in self.tracks:
            self._find_striker(t, dets)
        if self.start_time is None:
            self._note_rim_marks(dets)
        hidden: dict[str, Reach | None] = {}  # _hidden_reach, once a frame, when needed
        aiming = self._aiming_now()
        used_d: set[int] = set()
        used_t: set[str] = set()
        jumps: dict[str, Track] = {}
        # First the pieces near where they were (most stand still); then any jump a piece
        # could have made since (it may have been hit between two frames), nearest first;
        # then a piece still unmatched takes a detection of the other kind near it (two
        # discs touching measure as one larger or smaller: a piece read as a striker);
        # last, a piece thought gone (into a hole, off the table) is seen again, in a
        # detection none of those claimed (held-out 8133: the striker, pocketed, took
        # one of red's row read as a striker beside its own track).
        passes = ((15.0, False, False), (None, False, False), (15.0, True, False),
                  (None, False, True))
        taken: dict[str, int] = {}  # the detection each track took
        self._faint_run_undone(t, dets, used_d, used_t, aiming)
        while passes:
            for rule in passes:
                for _, i, tid in sorted(self._pairs(t, dets, live, rule, used_d, used_t,
                                                    hidden, aiming)):
                    if i in used_d or tid in used_t:
                        continue
                    used_d.add(i)
                    used_t.add(tid)
                    taken[tid] = i
                    self._take(self.tracks[tid], t, dets[i], aiming, jumps)
            undone = self._hold_the_unstruck(t, jumps) if jumps else set()
            used_t -= undone
            used_d -= {taken[tid] for tid in undone}
            # a jump undone leaves its piece, and its detection, to be matched near where
            # each was, of either kind (held-out 8589: under the cue, the striker read
            # as a red piece and R16 beside it as a striker; each track took the other's
            # detection, 90 mm away)
            jumps = {}
            passes = ((15.0, True, False),) if undone else ()
        self._misread_in_place(t, dets, live, used_d, used_t, aiming)
        self._note_unclaimed(t, (d for i, d in enumerate(dets) if i not in used_d))
        for tr in live:
            if tr.id not in used_t:
                tr.missing += 1
                self._vanished(tr, t)
        self._note_swaps(t)
        self._segment(t)

    def _pairs(self, t: float, dets: list[Detection], live: list[Track], rule: tuple,
               used_d: set[int], used_t: set[str], hidden: dict[str, Reach | None],
               aiming: bool) -> list[tuple[float, int, str]]:
        """The (distance, detection index, track id) of every detection a track not yet
        matched may take under one of ``update``'s rules (``reach``: how near, in mm,
        None for anywhere it can have gone; ``any_kind``: a striker's detection for a
        piece and the other way; ``thought_gone``: the tracks thought gone only)."""
        reach, any_kind, thought_gone = rule
        pairs = []
        for i, d in enumerate(dets):
            if i in used_d:
                continue
            if reach is None and self._beside_a_resting_piece(d, used_t):
                continue  # a piece that stands still, not where a moving one went
            if d.where == "rim" and self._rim_mark(d):
                continue
            for tr in live:
                if tr.id in used_t or tr.colour != d.colour or (
                        (tr.kind == "striker") != (d.kind == "striker") and not any_kind):
                    continue
                if d.weak and not (self._left(tr) and (
                        self._beyond_edge(tr) or self._may_leap_to(tr, d.x, d.y))):
                    continue  # a maybe-piece on the rim: only for one that left, over a
                    # cushion it can have leapt (held-out 9352: the striker, lost under
                    # the arm running E along the S cushion at 1 m/s, 260 mm/s toward it,
                    # took a dark mark on the S rim where its course ran on, and "came
                    # to rest on the rim" while in sight on the surface again)
                if tr.missing and self._fixture(d) and not self._stood_there(tr, d, t):
                    continue
                if tr.gone is not None and tr.gone.kind == "pocket" and (
                        d.where != "surface") and not self._ran_past_the_hole(tr, d, t):
                    continue  # one that ran on over a hole's mouth is still on the
                    # surface; the rim is reached only over a cushion
                # nothing moves before the striker does: a piece's detections that shift
                # then (half covered by the hand that aims) are not motion
                at_rest = aiming and tr.id != self.striker
                px, py = tr.pos if at_rest else tr.predict(t)
                if reach is None and tr.id not in hidden:
                    hidden[tr.id] = self._hidden_reach(tr, t)
                gate = reach or (STILL if at_rest else self._gate(tr, t))
                if reach is None and tr.id == self.striker and not at_rest and (
                        not self._paced(tr) and self._leaving(tr)) and not self._on_course(
                        tr, d.x, d.y, gate, self._any_way(tr)):
                    continue  # struck, its pace not yet known: going the way it left
                    # (held-out 8831: the striker, seen once leaving WNW, took a red disc
                    # 160 mm behind it, there since before the strike)
                if reach is None and tr.gone is not None and tr.gone.kind == "off" and (
                        not self._on_course(tr, d.x, d.y, gate, self._any_way(tr))):
                    continue  # one that did not leap the cushion came back off it, on
                    # its course (held-out 8583: B16, last seen over the W cushion at
                    # 4.5 m/s, took the mouth of SE under the cue, 700 mm away)
                dist = math.hypot(d.x - px, d.y - py)
                if tr.missing:  # lost for a while: it may have bounced meanwhile
                    away = math.hypot(d.x - tr.pos[0], d.y - tr.pos[1])
                    dist = min(dist, away)
                    bound = hidden[tr.id] if reach is None and not at_rest else None
                    # (one thought pocketed may have run on over the hole: held-out
                    # 10365, R12 into NW at 2.2 m/s and off over the corner's rim)
                    over = tr.gone is not None and tr.gone.kind == "pocket"
                    if bound is not None and away >= bound.sent and not self._on_course(
                            tr, d.x, d.y, bound.own, past_holes=over):
                        continue  # farther from its last sighting than it can be
                # a piece thought gone (into a hole, off the table) is seen again only in
                # a detection no piece still followed claims: one coming to rest where
                # another vanished is that piece, not the lost one back
                lost = tr.gone is not None and tr.gone.kind != "rim"
                if dist < gate and lost == thought_gone:
                    pairs.append((dist, i, tr.id))
        return pairs

    def _take(self, tr: Track, t: float, d: Detection, aiming: bool,
              jumps: dict[str, Track]) -> None:
        """Track ``tr`` takes detection ``d`` at time ``t``; a take farther than it was
        going is noted in ``jumps`` (``_hold_the_unstruck`` judges them)."""
        if tr.missing * self.frame > LOST_FOR:
            tr.refound = REFOUND
            tr.regained = tr.regained or math.hypot(d.x - tr.pos[0], d.y - tr.pos[1]) > (
                self._own_reach(tr, t))
        else:
            tr.refound = max(tr.refound - 1, 0)
        if tr.refound:
            tr.unsure.append(t)
        if tr.seeded:  # where the camera sees it is where it stands (whatever
            tr.points.clear()  # small bias detection has), the reference for moves
            tr.seeded = False
        if aiming and tr.id != self.striker:
            self._aimed_at(tr, t, d)
        else:
            # found farther than it was going: was it struck? (one found again after long
            # out of sight has no speed the frames know: followed)
            if tr.points and self._paced(tr) and tr.gone is None and not tr.missing and (
                    not tr.refound) and math.hypot(d.x - tr.pos[0], d.y - tr.pos[1]) > (
                    self._own_reach(tr, t)):
                jumps[tr.id] = tr
            tr.points.append((t, d.x, d.y))
        tr.missing = 0
        if d.confidence >= SEEN_SURELY:
            tr.surely, tr.faint_since = (t, d.x, d.y), None
        elif tr.faint_since is None:
            tr.faint_since = t
        if d.where != "rim":
            tr.gone = None  # seen again: not gone after all
        elif tr.gone is None or tr.gone.kind != "rim":
            # come to rest on the rim; once there it stays there (the jitter of a resting
            # piece's detections is no motion) — as unsure as its finding, if found there
            # only after long out of sight (held-out 8526: R09, hidden under the arm for
            # a second, "found" on the rim in a faint detection 150 mm away and sure of
            # it once seen there enough times), or if never seen on its way there
            sure = REGAINED if tr.refound or self._reached_unseen(tr) else 1.0
            tr.gone = Gone("rim", "", t, sure) if \
                math.hypot(*tr.velocity()) < MOVING else None

    def _reached_unseen(self, tr: Track) -> bool:
        """Whether the track's last run of sightings off the playing surface began more
        than UNSEEN_SPAN after the sighting before it: the piece was not seen on its way
        over the cushion, and which piece went there rests on the gap (held-out 11054:
        B07, at rest by the W cushion under the player's sleeve, lost for 0.27 s and
        "found" on the rim 80 mm away — it never moved)."""
        k = len(tr.points) - 1
        while k > 0 and self.board.region(*tr.points[k - 1][1:]) != "surface":
            k -= 1
        return k > 0 and tr.points[k][0] - tr.points[k - 1][0] > UNSEEN_SPAN

    def _misread_in_place(self, t: float, dets: list[Detection], live: list[Track],
                          used_d: set[int], used_t: set[str], aiming: bool) -> None:
        """An unmatched piece at rest takes a detection of its kind and another colour
        that no track took, where it stands (within MISREAD of its radius of its place):
        no other piece can stand on it, so a piece half in the hand's shadow read the
        other colour is still that piece (held-out 9535: R16, read black beside the
        player's hand for the 50 frames before the strike, went unseen, and when it was
        hit R15's track took its run into SE)."""
        pairs = []
        for i, d in enumerate(dets):
            if i in used_d or d.weak or d.where != "surface":
                continue
            for tr in live:
                if tr.id in used_t or tr.gone is not None or tr.kind != d.kind or (
                        tr.colour == d.colour):
                    continue
                if not ((aiming and tr.id != self.striker) or self._at_rest(tr, t)):
                    continue
                dist = math.hypot(d.x - tr.pos[0], d.y - tr.pos[1])
                if dist < MISREAD * self.board.radius_of(tr.id):
                    pairs.append((dist, i, tr.id))
        for _, i, tid in sorted(pairs):
            if i not in used_d and tid not in used_t:
                used_d.add(i)
                used_t.add(tid)
                self._take(self.tracks[tid], t, dets[i], aiming, {})

    def _faint_run_undone(self, t: float, dets: list[Detection], used_d: set[int],
                          used_t: set[str], aiming: bool) -> None:
        """A sure sighting no track took, of a piece whose track has since its last sure
        sighting (or its place, never seen) taken only faint ones that led it away
        farther than this sighting lies from there: the faint run was not the piece (a
        sleeve's shadow, marks on the rim) and this is. The track drops the run and takes
        the sighting, as one found again after being out of sight since its last sure
        one (held-out 11091: B10, struck by B09 and hidden under the hand, took faint
        dark marks 250 mm away running down the W side and "came to rest on the rim",
        while B10 rested in plain sight 70 mm from where it was struck; 11054: B01,
        hidden from the first frame, took the player's sleeve 360 mm away while it stood
        in its place)."""
        faint = [tr for tr in self.tracks.values()
                 if tr.faint_since is not None and tr.surely is not None]
        for i, d in enumerate(dets):
            if not faint:
                return
            if d.weak or d.where != "surface" or d.confidence < SEEN_SURELY or (
                    self._beside_a_resting_piece(d, used_t)):
                continue
            best = None
            for tr in faint:
                if tr.colour != d.colour or (tr.kind == "striker") != (d.kind == "striker"):
                    continue
                sure = tr.surely[1:]
                run = [p for p in tr.points if p[0] >= tr.faint_since]
                near = math.dist((d.x, d.y), sure)
                if run and max(math.dist(p[1:], sure) for p in run) > FOUND and (
                        near < math.dist(run[-1][1:], sure)) and (
                        best is None or near < best[0]):
                    best = (near, tr)
            if best is None:
                continue
            tr = best[1]
            tr.points = [p for p in tr.points if p[0] < tr.faint_since]
            if not tr.points:  # (never seen surely: where it stood, for the camera to place)
                tr.points, tr.seeded = [tr.surely], True
            tr.missing = round((t - tr.surely[0]) / self.frame) - 1
            tr.faint_since = None
            faint.remove(tr)
            used_d.add(i)
            used_t.add(tr.id)
            self._take(tr, t, d, aiming, {})

    def _note_unclaimed(self, t: float, dets: Iterable[Detection]) -> None:
        """Count the detections no track took at time ``t``, place by place
        (``_fixture``); a place not seen again for UNCLAIMED_FOR s is forgotten (a hand
        moving about while the player aims leaves a trail of them). A place stands at
        the mean of the detections counted there, not at the first: a mark that is no
        piece flickers a few millimetres about its middle (held-out 10021: a black mark
        on the sleeve, first read at x = 320 mm and then mostly at 323-327, was a
        fixture 4.1 mm from where a hidden B09 then "was found")."""
        for d in dets:
            for place in self._unclaimed:
                if math.hypot(d.x - place[0], d.y - place[1]) < FIXED:
                    place[2] += 1
                    place[0] += (d.x - place[0]) / place[2]
                    place[1] += (d.y - place[1]) / place[2]
                    place[3] = t
                    if place[2] == FIXTURE:
                        self._fixtures.append(place)
                    break
            else:
                self._unclaimed.append([d.x, d.y, 1, t])
        self._unclaimed = [p for p in self._unclaimed if t - p[3] <= UNCLAIMED_FOR]

    def _note_rim_marks(self, dets: list[Detection]) -> None:
        """Before the strike no piece can have left the playing surface: what the rim
        shows then is the rim's own (its grain, a mark or a shadow on it, read as a
        piece), each place kept once within FIXED mm."""
        for d in dets:
            if d.where == "rim" and not any(math.hypot(d.x - x, d.y - y) < FIXED
                                            for x, y in self._rim_marks):
                self._rim_marks.append((d.x, d.y))

    def _rim_mark(self, d: Detection) -> bool:
        """Whether ``d`` lies within a piece's radius of where the rim showed a mark
        before the strike (a mark's reading wanders that far): no piece that left the
        surface is found in it (held-out 11050: red marks on the E rim, there
        throughout, taken by the striker lost under the arm at the E cushion, which
        "came to rest on the rim" while it ran back across the board in plain sight). A
        piece that does come to rest on such a mark is a piece lost beyond the edge:
        ``record`` has it off the table or on the rim (one rule, 5.4 or 6.3), asked."""
        near = self.board.piece_radius
        return any(math.hypot(d.x - x, d.y - y) < near for x, y in self._rim_marks)

    def _fixture(self, d: Detection) -> bool:
        """Whether ``d`` lies where detections no track took have stood FIXTURE times: a
        fixture of the view. Every piece is followed from the first frame, so what stands
        unclaimed at one place frame after frame is none of them."""
        return any(math.hypot(d.x - x, d.y - y) < FIXED for x, y, *_ in self._fixtures)

    def _stood_there(self, tr: Track, d: Detection, t: float) -> bool:
        """Whether ``d`` lies where ``tr`` stood still when last seen: a resting piece
        misread for a while (held-out 8133: R16 beside the player's hand read black
        until its place counted as a fixture) takes its place back."""
        return math.hypot(d.x - tr.pos[0], d.y - tr.pos[1]) < FIXED and self._at_rest(tr, t)

    def _aiming_now(self) -> bool:
        """Whether the striker is in sight and has not moved yet (the player aims), so
        that nothing else can have moved. A striker out of sight may have been struck
        unseen: then pieces are followed as ever."""
        st = self.tracks.get(self.striker)
        return self.start_time is None and st is not None and st.missing == 0

    def _aimed_at(self, tr: Track, t: float, d: Detection) -> None:
        """A piece seen before the strike, while the player aims: it stands where the
        median of its sightings so far puts it (a piece half under the hand is read a
        little off its middle, now here, now there), and has not moved."""
        seen = self._aiming.setdefault(tr.id, [])
        seen.append((t, d.x, d.y))
        del seen[:-AIMING_SIGHTINGS]
        # (statistics.median: a tenth of numpy's cost on 30 numbers, on every frame of
        # every piece while the player aims)
        place = (t, median(p[1] for p in seen), median(p[2] for p in seen))
        tr.points[:] = [(seen[0][0], *place[1:]), place]

    def _note_swaps(self, t: float) -> None:
        """Two pieces of one colour and kind that touch, or pass within a frame's travel
        of touching, while one of them moves look alike afterwards: which went where is
        the tracker's guess from their paths (a head-on hit passes the motion on). Each
        such meeting is noted (the first time of each pair); ``_doubts`` decides which
        matter."""
        seen = [tr for tr in self.tracks.values() if tr.gone is None and tr.missing == 0]
        # only a moving piece can meet another (this runs on every frame: pairs of pieces
        # at rest, most of the table, are not looked at)
        moving = [(tr, math.hypot(*tr.velocity()) * self.frame) for tr in seen]
        moving = [(tr, travel) for tr, travel in moving if travel >= STARTED]
        for a, travel in moving:
            for b in seen:
                if b is a or a.colour != b.colour or a.kind != b.kind:
                    continue
                pair = frozenset((a.id, b.id))
                if pair in self.meetings:
                    continue
                reach = self.board.radius_of(a.id) + self.board.radius_of(b.id) + max(
                    travel, math.hypot(*b.velocity()) * self.frame)
                if math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1]) < reach:
                    self.meetings[pair] = t

    def _doubts(self, contacts: list[Contact]) -> dict[str, float]:
        """Since when (tracker time) each piece's identity is in doubt: it met a piece
        like it (``_note_swaps``) that the rules tell apart from it — one protected
        (小回/大回) and the other not, or either a 廢子 candidate (an own piece the shot
        piece touched before its first cushion). Two interchangeable pieces swapped
        change no call, and are left alone."""
        marked: set[str] = set()
        for c in sorted(contacts, key=lambda c: c.t):
            if self.striker in (c.a, c.b):
                other = c.other(self.striker)
                if other.startswith("cushion:"):
                    break
                if colour_of(other) == self.shooter:
                    marked.add(other)
        guard = {pid: p.guard for pid, p in self.state.pieces.items()}
        doubt: dict[str, float] = {}
        for pair, t in self.meetings.items():
            a, b = sorted(pair)
            if guard.get(a) != guard.get(b) or a in marked or b in marked:
                for piece in (a, b):
                    doubt[piece] = min(doubt.get(piece, t), t)
        return doubt

    @staticmethod
    def _trust(since: float | None, t: float, confidence: float) -> float:
        """An event at time ``t`` told with ``confidence``, less if its piece may have
        swapped identity with a piece like it (``since``, from ``_doubts``) before then."""
        if since is not None and since <= t:
            return min(confidence, SWAP)
        return confidence

    def _sureness(self, tr: Track, doubt: dict[str, float]) -> float:
        """How sure the record is of where a gone track went: as sure as the frames
        made it, less if it may have swapped identity before (``_trust``, ``doubt``
        from ``_doubts``) or was found again too lately to be sure it is its piece
        (``Track.refound``), or found again farther than it was going (``Track.regained``:
        held-out 8759, R16, unseen under the sleeve while the striker passed it, "found" on
        the sleeve's edge 370 mm away and followed onto the rim)."""
        told = self._trust(doubt.get(tr.id), tr.gone.t, tr.gone.confidence)
        return min(told, REGAINED) if tr.refound or tr.regained else told

    @staticmethod
    def _gate(tr: Track, t: float) -> float:
        """How far (mm) from where it was predicted a track may be found at time ``t``:
        anywhere a piece could have been sent since it was last seen, but a piece thought
        gone (a pocket, off the table) only near where it vanished, at its own speed, and
        not after LOST_FOR seconds (it is gone; that detection is another piece)."""
        dt = t - tr.points[-1][0]
        if tr.gone is None or tr.gone.kind == "rim":
            return FOUND + TOP_SPEED * dt
        if dt > LOST_FOR:
            return 0.0
        return FOUND + 1.5 * math.hypot(*tr.velocity()) * dt

    def _paced(self, tr: Track) -> bool:
        """Whether how far a track can go is known: a piece's always (it moves only when
        struck: _sent_reach), the striker's once seen moving three times (before, the cue
        may be sending it unseen under the hand, or it was lost before its speed was
        seen)."""
        if tr.id != self.striker:
            return True
        return self.start_time is not None and tr.seen_since(self.start_time) >= 3

    def _any_way(self, tr: Track) -> float:
        """How near (mm) its last sighting a track whose course is asked for may be found
        whatever its heading: FOUND and a frame's run at its speed. Its heading is read
        from two sightings, which may straddle a bounce (held-out 8947: the striker met
        the E cushion between its first two sightings, and its velocity still ran into
        the cushion: its next sightings, on its way back W 46 mm on, were refused, and it
        was called off the table)."""
        return FOUND + math.hypot(*tr.velocity()) * self.frame

    def _leaving(self, tr: Track) -> bool:
        """Whether a track has been seen leaving its place at a striker's pace: its last
        step, since it first stood STARTED mm from its place, LEAVING mm or more, and
        seen within LEAVING_SEEN of the sighting before (its heading, from that step, is
        the way it was struck). Venue 4 of benchmarks/fit_physics.py: the striker, unseen
        for 0.33 s at 4 m/s after the strike, was first seen after bouncing off E; its
        next 19 sightings, on its way back W, were refused as not the way it left."""
        start = tr.moved_at()
        return start is not None and len(tr.points) >= 2 and tr.points[-1][0] >= start and (
            math.dist(tr.points[-2][1:], tr.points[-1][1:]) >= LEAVING) and (
            tr.points[-1][0] - tr.points[-2][0] <= LEAVING_SEEN)

    def _hidden_reach(self, tr: Track, t: float) -> Reach | None:
        """How far (mm) from its last sighting a piece out of sight since (under a hand,
        a cue, a sleeve; a blurred streak) may be found at time ``t``: as far as it was
        going (``_own_reach``, along its course: ``_on_course``) or something can have
        sent it (``_sent_reach``, any way); None
        for a track this does not apply to: one in sight; the striker until it has been
        seen moving three times (set moving by the cue unseen under it, or lost before
        its speed was seen); a piece gone off the table or onto the rim. One thought
        gone into a hole is bounded too — it ran on over the hole, or was only hidden
        by it, or something struck it since: the hole was read from its pace, so a blow
        before its last sighting sends it no farther (held-out 8133: the striker,
        pocketed in NE, took a red disc of its size 690 mm away, two of red's row read
        as one, and was found resting there; 10512: B03, struck twice as it ran into SW
        at 1.8 m/s and lost 45 mm from it, took a dark mark on the player's sleeve 640 mm
        away 0.27 s later, and the pocket was never called)."""
        if not tr.missing or not self._paced(tr) or (
                tr.id != self.striker and tr.gone is not None and tr.gone.kind != "pocket"):
            return None
        reach = self._sent_reach(tr, t)
        struck = tr.struck_at() if tr.id != self.striker and tr.gone is None else None
        if struck is not None:
            # struck too lately for its pace to be known (a step that holds the blow
            # averages the speeds before and after it; held-out 8247: R15, seen going
            # 180 mm/s, went 400; 8267: B07, hit again as it ran, seen going 1.4 m/s,
            # went 2.4): as far as what struck it where it was can have sent it
            stood = tr.points[self._last_before(tr, struck)]
            reach = max(reach, self._sent_reach(tr, t, at=struck)
                        + math.dist(stood[1:], tr.pos))
        return Reach(self._own_reach(tr, t), reach)

    def _on_course(self, tr: Track, x: float, y: float, run: float,
                   near: float = STILL, past_holes: bool = False) -> bool:
        """Whether a piece lost from sight while going its way, unstruck, can be at (x, y)
        — or within ``near`` mm of it — having run at most ``run`` mm (``_own_reach``):
        within ``near`` of its last sighting, or ahead of it along its last heading, give
        or take SPREAD of the way run
        (the heading is read from two sightings; a cushion's grip turns it), bouncing
        off the cushions (the point's mirror images across them, unfolded) — and its
        way there, straight, not over a hole, unless faster than NO_DROP (or
        ``past_holes``: the question is whether it ran past one); a point on the rim
        only over a cushion it was crossing toward faster than LEAP.
        Held-out 8585: B06, running W under the player's sleeve at 1.9 m/s, took the
        sleeve's edge read as a black piece 135 mm to its SE; 8614: the striker, under
        a sleeve at 2 m/s bound for SW off the S cushion, took the sleeve's edge on the
        W rim, read as a striker, beyond the hole; 8759: running W under a sleeve, across
        the S cushion's line at 0.3 m/s, the sleeve's edge on the S rim."""
        (px, py), (vx, vy) = tr.pos, tr.velocity()
        speed = math.hypot(vx, vy)
        if math.hypot(x - px, y - py) < near or speed < MOVING:
            return math.hypot(x - px, y - py) < run
        if _across_a_gap(tr):  # its heading unknown: any way, onto the rim only leaping
            return math.hypot(x - px, y - py) < run and self._may_leap_to(tr, x, y)
        heading = vx / speed, vy / speed

        def along_aside(qx: float, qy: float, way: tuple[float, float]) -> tuple[float, float]:
            """How far (qx, qy) lies along the way from the last sighting, and aside it."""
            ux, uy = way
            return (qx - px) * ux + (qy - py) * uy, abs((qx - px) * uy - (qy - py) * ux)

        if not self._may_leap_to(tr, x, y):
            return False  # on the rim over a cushion it was crossing too slowly to leap
        edge, drop = self._edge(tr), self._drop_reach(tr)
        holes = [self.board.hole_centre(h) for h in CORNERS] if (
            speed <= NO_DROP and not past_holes) else []
        # q -> s q + o: as it is, and mirrored across each cushion (for a point within
        # the cushions: one beyond them, on the rim, is reached only by leaping)
        flips = ((1.0, 0.0), (-1.0, 2 * edge), (-1.0, -2 * edge))
        for sx, ox in flips[:1 if abs(x) > edge else 3]:
            for sy, oy in flips[:1 if abs(y) > edge else 3]:
                qx, qy = sx * x + ox, sy * y + oy
                along, aside = along_aside(qx, qy, heading)
                if not (-near <= along <= run and aside <= near + SPREAD * max(along, 0)):
                    continue
                far = math.hypot(qx - px, qy - py)  # the way there, straight (unfolded)
                way = (qx - px) / far, (qy - py) / far
                if not any(0 < a < far and side < drop for a, side in (
                        along_aside(sx * hx + ox, sy * hy + oy, way) for hx, hy in holes)):
                    return True
        return False

    def _ran_past_the_hole(self, tr: Track, d: Detection, t: float) -> bool:
        """Whether a track thought pocketed may be the piece found on the rim at ``d``:
        it was going faster than a piece drops (DROPS), and ``d`` lies on its course
        past the hole, over a cushion it was crossing fast enough to leap (held-out
        9639: B07 at 2.8 m/s, its centre passing 25 mm from NE's, was called pocketed,
        sure, while the frames showed it landing on the N rim beyond, unclaimed)."""
        return tr.arriving_speed() > DROPS and self._on_course(
            tr, d.x, d.y, self._own_reach(tr, t), past_holes=True)

    def _may_leap_to(self, tr: Track, x: float, y: float) -> bool:
        """Whether (x, y) lies within the playing surface, or beyond a cushion the
        track was last seen crossing toward faster than LEAP (``arriving_velocity``: a
        piece leaves the surface only by leaping a cushion)."""
        vx, vy = tr.arriving_velocity()
        return not (abs(x) > self.board.half and vx * math.copysign(1, x) <= LEAP or
                    abs(y) > self.board.half and vy * math.copysign(1, y) <= LEAP)

    @staticmethod
    def _last_before(tr: Track, t: float) -> int | None:
        """The index of a track's last point before time ``t`` (None if none): mostly its
        last, or the one before when it was seen at ``t`` itself."""
        k = len(tr.points) - 1
        while k >= 0 and tr.points[k][0] >= t:
            k -= 1
        return k if k >= 0 else None

    def _at_rest(self, tr: Track, t: float) -> bool:
        """Whether a piece stood still when last seen before time ``t``: its mean speed
        over its last tenth of a second seen (a piece going under a hand is measured
        off its middle as it is covered; a half-covered one is read a few millimetres
        now here, now there) is below MOVING."""
        k = self._last_before(tr, t)
        if k is None:
            return False
        last = tr.points[k]
        j = next((j for j in range(k - 1, -1, -1) if last[0] - tr.points[j][0] >= 0.1),
                 k - 1)  # (seen for less than a tenth: from the point before)
        if j < 0:
            return True
        return math.dist(tr.points[j][1:], last[1:]) < MOVING * (last[0] - tr.points[j][0])

    def _own_reach(self, tr: Track, t: float) -> float:
        """How far (mm) from its last sighting before time ``t`` a piece can be found at
        ``t`` unless struck meanwhile: STILL, and the way it goes at the fastest of its
        steps over the last tenth of a second it was seen (unstruck, nothing speeds up;
        a step that takes in a cushion measures short; a half-covered resting piece
        read a few millimetres off its middle goes no farther). A step across more than
        UNSEEN_SPAN out of sight measures only the chord of a way that may have bounced:
        its pace is the fastest seen over the tenth of a second before that gap (held-out
        11402: the striker, lost under the sleeve along the S cushion at 1.7 m/s, bounced
        off W and was seen once on its way back NE; the chord across the gap, 0.3 m/s,
        bounded it to 90 mm and refused it at rest in open view 94 mm on)."""
        k = self._last_before(tr, t)
        if k is None or k == 0:
            return STILL
        last, fastest = tr.points[k][0], 0.0
        since = last  # the end of the tenth of a second looked at
        for (t0, x0, y0), (t1, x1, y1) in zip(tr.points[k - 1::-1], tr.points[k:0:-1],
                                              strict=False):
            fastest = max(fastest, math.hypot(x1 - x0, y1 - y0) / max(t1 - t0, 1e-6))
            if t1 - t0 > UNSEEN_SPAN:
                since = t0
            elif since - t0 >= 0.1:
                break
        return STILL + fastest * (t - last)

    def _touching(self, tr: Track, t: float) -> dict[str, tuple[float, float, float]]:
        """The resting pieces that touch ``tr`` where they stood before time ``t``, and
        those that touch them, and so on, each with its last sighting ``(t, x, y)``
        before then (``tr`` first): a row a hit passes along within one frame (a break's
        far piece leaves while the near ones barely move)."""
        place = {}
        for o in self.tracks.values():
            k = self._last_before(o, t)
            if o is tr or (k is not None and o.id != self.striker and o.gone is None and
                           self._at_rest(o, t)):
                place[o.id] = o.points[k]
        group, k = [tr.id], 0
        while k < len(group):
            a = group[k]
            group += [o for o in place if o not in group and math.dist(
                place[a][1:], place[o][1:]) <= self.board.radius_of(a) +
                self.board.radius_of(o) + 5.0]
            k += 1
        return {o: place[o] for o in group}

    def _sent_reach(self, tr: Track, t: float, doubtful: frozenset[str] = frozenset(),
                    at: float | None = None) -> float:
        """How far (mm) from where it last stood before time ``at`` (by default ``t``) a
        resting piece can have been sent by ``t``. A resting piece moves only when
        struck: each other track's path since then (and, while lost, where it was
        heading) is checked for a pass within touching distance of the piece or of a
        resting piece touching it (``_touching``); the tracks in ``doubtful``
        (themselves jumps still in question) strike nothing. Nothing came near: it
        still stands where it stood (STILL).
        Something did, at speed v, from time t0 on: the piece can have been sent no
        faster than SENT_FASTER v, so no farther than that times t - t0 (a jittering
        half-covered neighbour sends it nowhere far). Between two sightings a piece may
        have bounced: the place it touched from lies within the ellipse whose foci are
        the sightings and whose string is the way it could run meanwhile (the time
        between them at the fastest it was seen going round them) — or, where it is
        seen a frame later going on, on the line back from the second sighting the way
        it went on."""
        group = self._touching(tr, t if at is None else at)
        seen = group[tr.id][0]
        reach = STILL
        struck = -math.inf if self.start_time is None else self.start_time
        for other in self.tracks.values():
            if other.id in group or other.id in doubtful:
                continue
            start = other.moved_at()
            if other.missing and other.gone is None and (
                    other.id == self.striker if start is None else
                    other.seen_since(start) < 3):
                # lost before its speed was seen (a striker struck under the cue, blurred
                # out from its first frame): it may be anywhere it could have gone — once
                # seen leaving its place (_leaving), ahead of it that way (held-out 8595 and 8782:
                # R01, in red's row under the hand behind the striker, took the striker's
                # streak 280 mm ahead of it, read as a red piece) — if anything can have
                # set it going: a piece half under the cue whose readings shifted a few
                # millimetres has not (held-out 10152: R14, under the cue as the striker
                # ran along the S cushion 150 mm off, "moved" 6 mm and was lost; taken
                # to be anywhere, it let B05, hidden 320 mm away, take a reading of the
                # cue beside R14 and be called off the table). The striker is set going
                # by the cue, not by another piece: once it has set off it needs nothing
                # to have struck it (held-out 11298: seen one frame 11 mm on, then lost
                # as it cut B02 beside it at 3.6 m/s; B02, seen 44 mm off its place the
                # frame after, was held, and the first contact given to R12 beyond)
                if start is not None and other.id != self.striker and self._sent_reach(
                        other, t, frozenset(doubtful | set(group)), at=start) <= STILL:
                    continue
                gap, leaving = t - other.points[-1][0], self._leaving(other)
                for o, here in group.items():
                    touch = self.board.radius_of(o) + self.board.radius_of(other.id) + 5.0
                    if math.dist(other.pos, here[1:]) <= TOP_SPEED * gap + 2 * touch and (
                            not leaving or self._on_course(
                                other, *here[1:], TOP_SPEED * gap + touch, STILL + touch)):
                        reach = max(reach, STILL + SENT_FASTER * TOP_SPEED * gap)
                continue
            if start is None:
                continue  # (one never seen STARTED mm from its place has struck nothing)
            lead = [p for p in other.points if p[0] < seen][-2:]
            path = lead[-1:] + [p for p in other.points if p[0] >= seen]
            sighted = len(path)
            if other.missing and other.gone is None:
                path.append((t, *other.predict(t)))
            # (the pace it came at, too: the chord across a bounce is slower than the
            # piece ran — held-out 10349, the striker into B01 at 5 m/s and back out)
            paced = lead[:-1] + path
            speeds = [math.dist(a[1:], b[1:]) / max(b[0] - a[0], 1e-6)
                      for a, b in zip(paced, paced[1:], strict=False)]
            lag = len(paced) - len(path)
            for k, (a, b) in enumerate(zip(path, path[1:], strict=False)):
                fastest = max(speeds[max(k + lag - 1, 0):k + lag + 2])
                if b[0] <= struck or fastest < MOVING:
                    continue  # a neighbour at rest (jitter; before the strike, whatever
                    # its sightings did) strikes nothing
                since = max(a[0], struck)  # (it stood still until the strike)
                run = (b[0] - since) * fastest
                # seen going on from b (a sighting, not a prediction), a frame apart
                # each side: the last blow it took before b left it going that way, so
                # it was struck, or struck something, on the line back from b that way,
                # within one step of b (held-out 9592: B07, struck at b, ran past B16
                # hidden under the arm 52 mm off; in the ellipse B16's track, "maybe
                # bounced into", took a stray 260 mm away). Over a longer gap it may
                # have met more than one thing: the ellipse.
                met_on = None
                if k + 2 < sighted and max(b[0] - a[0], path[k + 2][0] - b[0]) <= (
                        1.5 * self.frame):
                    n = path[k + 2]
                    back = (b[0] - a[0]) / (n[0] - b[0])
                    met_on = (b[1] - back * (n[1] - b[1]), b[2] - back * (n[2] - b[2]))
                for o, here in group.items():
                    touch = self.board.radius_of(o) + self.board.radius_of(other.id) + 5.0
                    if (math.dist(here[1:], _nearest_on(met_on, b[1:], here[1:])) <= (
                            touch + KICK * (b[0] - a[0])) if met_on is not None else
                            math.dist(a[1:], here[1:]) + math.dist(b[1:], here[1:])
                            <= run + 2 * touch):
                        reach = max(reach, STILL + SENT_FASTER * fastest * (t - since))
                        break
        return reach

    def _hold_the_unstruck(self, t: float, jumps: dict[str, Track]) -> set[str]:
        """Of the pieces in sight that this frame's matching found farther than they
        were going (``_own_reach``), those nothing can have struck (``_sent_reach``,
        with this frame's sightings of the others): a half-covered piece read off its
        middle took a detection that is not it (a hole's mouth cut by the cue into a
        disc).
        Each jump that a track other than the jumpers explains is let stand, and then
        those that the let-standing ones explain, and so on; the rest are undone (their
        detections left unclaimed), and their ids returned."""
        doubtful = set(jumps)
        settled = True
        while doubtful and settled:
            settled = False
            for tid in sorted(doubtful):
                tr = jumps[tid]
                place = tr.points[self._last_before(tr, t)]
                if math.dist(place[1:], tr.pos) <= max(self._own_reach(tr, t), self._sent_reach(
                        tr, t, frozenset(doubtful - {tid}))):
                    doubtful.discard(tid)
                    settled = True
        for tid in doubtful:
            tr = jumps[tid]
            tr.points.pop()
            tr.gone = None
        return doubtful

    def _left(self, tr: Track) -> bool:
        """Whether a track may be a piece that left the playing surface: thought gone,
        lost from sight while moving (not a resting piece under a hand), or last seen
        beyond the surface's edge."""
        return (tr.gone is not None or self._beyond_edge(tr) or (
            tr.missing > 0 and math.hypot(*tr.velocity()) >= MOVING))

    def _beyond_edge(self, tr: Track) -> bool:
        """Last seen over the cushion or the rim."""
        return max(map(abs, tr.pos)) > self.board.half

    @property
    def wants_rim(self) -> bool:
        """Whether the next frame's weak detections on the rim (Detector.detect
        ``rim_too``) could matter: some piece may have left the surface and is not yet
        seen resting on the rim, and one thought gone may still be found (LOST_FOR)."""
        now = self.last_t or 0.0
        return any(self._left(tr) and (tr.gone is None or (
            tr.gone.kind != "rim" and now - tr.points[-1][0] <= LOST_FOR))
            for tr in self.tracks.values())

    def _beside_a_resting_piece(self, d: Detection, matched: set[str]) -> bool:
        """Is this detection where an unmatched piece that was at rest stands?"""
        for tr in self.tracks.values():
            if tr.id in matched or tr.gone is not None or tr.colour != d.colour:
                continue
            if math.hypot(*tr.velocity()) < MOVING and math.hypot(
                    d.x - tr.pos[0], d.y - tr.pos[1]) < 8.0:
                return True
        return False

    def _find_striker(self, t: float, dets: list[Detection]) -> None:
        mine = [d for d in dets if d.kind == "striker" and d.colour == self.shooter]
        circles = [self.board.circle_centre(c) for c in self.board.circles_of(self.shooter)]
        best = min(((min(math.hypot(d.x - cx, d.y - cy) for cx, cy in circles), d)
                    for d in mine), default=None, key=lambda x: x[0])
        if best and best[0] < self.board.circle_diameter:
            d = best[1]
            self.tracks[self.striker] = Track(self.striker, self.shooter, "striker",
                                              [(t, d.x, d.y)])

    def _vanished(self, tr: Track, t: float) -> None:
        """A moving track without a detection: over a hole (pocket) or past the edge —
        until it is seen again."""
        if tr.gone is not None or tr.missing < 2:
            return
        frame = self.frame
        # last seen over the cushion or the rim: past every hole, leaping off
        fell = None if self._beyond_edge(tr) else self._coast(
            tr, min(t - tr.points[-1][0] + 2 * frame, COAST))
        # a departure that rests on one sighting, after the piece left its place out of
        # sight, is asked (held-out 8196: B03, hidden a few frames under the cue, "seen"
        # once 140 mm away by the E cushion — a piece of the cue read as a black disc —
        # and never again)
        # — and so is one read from a step across a gap out of sight (its heading a chord:
        # it may have bounced off the cushion it seems to leap)
        # — and one whose sightings since its last sure one are faint and lead far from
        # it: the leap to the cushion or the hole the call rests on may be no piece at
        # all (held-out 12227: R13, struck and lost under the arm, took the striker
        # read as a red piece and then a faint mark by the W cushion 186 mm on, and was
        # "off the table" while it rested, hidden, by SW)
        once = ONE_SIGHTING if self._one_sighting_after_unseen(tr) or _across_a_gap(tr) \
            or _faint_leap(tr, self.board) else 0.95
        if fell is not None:
            hole, when = fell
            # followed on for more than two frames past the last sight: the frames show
            # it heading for the hole, not reaching it
            sure = 0.95 if when - tr.points[-1][0] <= 2 * frame else 0.85
            # last seen over the opening faster than RUN_OVER, or anywhere faster than
            # NO_DROP, it may have run on over it (held-out 8407: the striker at 3.5 m/s
            # past NE's centre; 8287: B12 at 4.6 m/s over NW; 8697: the striker at
            # 3.1 m/s, its centre 14 mm short of NW's; all off the table there); only
            # those: a piece that drops is mostly last seen short of the opening, and
            # asking of every pocket faster than RUN_OVER asked on most breaks
            speed = tr.arriving_speed()
            over = speed > NO_DROP or (speed > RUN_OVER and self._over_opening(tr, hole))
            tr.gone = Gone("pocket", hole, when, min(sure, once, 0.8 if over else 1.0))
            return
        lx, ly = tr.pos
        vx, vy = tr.velocity()
        # at the edge, or there by the next frame (a fast piece is last seen short of it)
        ahead = max(abs(lx + vx * frame), abs(ly + vy * frame))
        near_edge = max(abs(lx), abs(ly), ahead) > self.board.half - 2 * self.board.radius_of(
            tr.id)
        if tr.missing >= 4 and self._leaping(tr) and near_edge:
            # a hole it could have found had the cushion sent it back a little slower or
            # more aslant (held-out 8276: B07, lost 50 mm from SE running at 1.2 m/s into
            # the E cushion, went down SE off it): the frames cannot tell, so ask
            bounced = any(self._coast(tr, COAST, e, turn) for e in BOUNCES
                          for turn in (-TURNS, 0.0, TURNS))
            tr.gone = Gone("off", "", tr.points[-1][0] + frame / 2,
                           min(once, OFF_OR_HOLE) if bounced else once)

    def _runs_off_the_rim(self, tr: Track) -> bool:
        """Whether a track last seen on the rim was going out across it too fast to stop
        on it: slowing even RIM_GRIP, its centre runs past the rim's outer edge."""
        (x, y), (vx, vy) = tr.pos, tr.velocity()
        across, out = (abs(x), vx * math.copysign(1, x)) if abs(x) >= abs(y) else (
            abs(y), vy * math.copysign(1, y))
        left = self.board.half + self.board.rim_width - across
        return out > 0 and out * out / (2 * RIM_GRIP) > left

    def _one_sighting_after_unseen(self, tr: Track) -> bool:
        """Whether a track was seen away from its place only once, and that after frames
        out of sight (its leaving unseen; a piece knocked in view into a hole beside it
        is seen leaving)."""
        start = tr.moved_at()
        if start is None or tr.seen_since(start) != 1 or len(tr.points) < 2:
            return False
        return tr.points[-1][0] - tr.points[-2][0] > 1.5 * self.frame

    def _edge(self, tr: Track) -> float:
        """How far (mm) from the board's middle a track's centre is when it touches a
        cushion."""
        return self.board.half - self.board.radius_of(tr.id)

    def _drop_reach(self, tr: Track) -> float:
        """How near (mm) a hole's centre a track's centre passes when the hole takes it."""
        return self.board.hole_diameter / 2 + 0.3 * self.board.radius_of(tr.id)

    def _across_first(self, tr: Track) -> float:
        """How fast (mm/s) a track, going on the way it arrived (``arriving_velocity``)
        and slowing no faster than a slick board slows it (SLOWING), crosses the first
        cushion it meets at the most (toward it: what a leap over it takes, LEAP). Held-out
        10285: the striker, lost under the arm 470 mm from the W cushion going W at
        1.1 m/s, was called off the table; it reaches that cushion at 0.56 m/s at most."""
        (x, y), (vx, vy) = tr.pos, tr.arriving_velocity()
        edge = self._edge(tr)
        tx = (edge - x * math.copysign(1, vx)) / abs(vx) if vx else math.inf
        ty = (edge - y * math.copysign(1, vy)) / abs(vy) if vy else math.inf
        speed = math.hypot(vx, vy)
        if speed == 0:
            return 0.0
        run = max(min(tx, ty), 0.0) * speed  # mm along its way to the cushion
        return (abs(vx) if tx <= ty else abs(vy)) * math.sqrt(
            max(1.0 - 2 * SLOWING * run / speed ** 2, 0.0))

    @staticmethod
    def _leaping(tr: Track) -> bool:
        """Last seen running at the cushion nearest it fast enough to leap it (LEAP)."""
        (x, y), (vx, vy) = tr.pos, tr.velocity()
        toward = vx * math.copysign(1, x) if abs(x) >= abs(y) else vy * math.copysign(1, y)
        return toward > LEAP

    def _over_opening(self, tr: Track, hole: str) -> bool:
        """Whether the track was last seen with its centre over the hole's opening, or
        beyond the hole's centre the way it was going: where a piece slow enough to
        drop has dropped."""
        hx, hy = self.board.hole_centre(hole)
        vx, vy = tr.velocity()
        return (math.hypot(tr.pos[0] - hx, tr.pos[1] - hy) < self.board.hole_diameter / 2
                or (tr.pos[0] - hx) * vx + (tr.pos[1] - hy) * vy > 0)

    def _coast(self, tr: Track, horizon: float, restitution: float = 0.7,
               turn: float = 0.0, slowing: float = 0.0) -> tuple[str, float] | None:
        """Follow a lost track on from where it was last seen, at its last velocity less
        ``slowing`` mm/s² (until it stops) and bouncing off the cushions (the speed across
        the cushion kept in ``restitution`` of it, the way out turned by ``turn``
        radians), for ``horizon`` s: the hole its centre would pass over, and when; None
        if none (or if it was barely moving)."""
        b = self.board
        (t, x, y), (vx, vy) = tr.points[-1], tr.velocity()
        if math.hypot(vx, vy) < 100.0:
            return None
        if slowing:
            horizon = min(horizon, math.hypot(vx, vy) / slowing)
        edge, reach = self._edge(tr), self._drop_reach(tr)
        holes = [(h, b.hole_centre(h)) for h in CORNERS]
        step = 0.002
        c, s = math.cos(turn), math.sin(turn)
        for _ in range(int(horizon / step) + 1):
            x, y, t = x + vx * step, y + vy * step, t + step
            if slowing:
                keep = max(0.0, 1.0 - slowing * step / max(math.hypot(vx, vy), 1e-9))
                vx, vy = vx * keep, vy * keep
            bounced = abs(x) > edge or abs(y) > edge
            if abs(x) > edge:
                x, vx = math.copysign(2 * edge, x) - x, -restitution * vx
            if abs(y) > edge:
                y, vy = math.copysign(2 * edge, y) - y, -restitution * vy
            if bounced and turn:
                vx, vy = c * vx - s * vy, s * vx + c * vy
            for hole, (hx, hy) in holes:
                if math.hypot(x - hx, y - hy) < reach:
                    return hole, t
        return None

    def _segment(self, t: float) -> None:
        """Note when the shot starts (the striker moves) and since when all is at rest. A
        track lost for LOST_FOR seconds no longer counts as moving: it went somewhere the
        camera cannot see (``record`` says where), and the shot must still end."""
        moving = any(tr.gone is None and tr.missing * self.frame < LOST_FOR and
                     not tr.settled() for tr in self.tracks.values())
        st = self.tracks.get(self.striker)
        if self.start_time is not None and len(st.points) >= 2 and (
                st.points[-2][0] == self.start_time and st.moved_at() is None):
            # its one sighting away from its place, seen back there in the next: a
            # misplaced detection, not a strike (held-out 8814: the striker, read once as
            # a red piece 8 mm off under the hand 0.37 s before the strike, was taken to
            # have been struck then; its pace "known" by the time it was, it was held at
            # rest). Only the sighting after the start's can undo it: asked only then.
            self.start_time = None
        if self.start_time is None and st and st.moved_at() is not None:
            self.start_time = st.moved_at()
            self.rest_since = None
            return
        if moving:
            self.rest_since = None
        elif self.rest_since is None:
            self.rest_since = t

    @property
    def unfollowed(self) -> str:
        """What the frames show of a shot they cannot account for, or "" when nothing
        such happened. Either pieces moved and everything has rested again for 0.3 s,
        but the shooter's striker was never seen to move (unseen in its circle, or a
        piece moved by hand); or the striker, seen resting in its circle, has been out
        of sight for LOST_STRIKER s while nothing else moved (shot off the table too
        fast to be seen, or lifted by a hand). The referee must be told, not left
        waiting for a call."""
        if self.start_time is not None or self.rest_since is None:
            return ""
        moved = any(tr.id != self.striker and tr.moved_at() is not None
                    for tr in self.tracks.values())
        if moved:
            if self.last_t - self.rest_since >= 0.3:
                return (f"pieces moved but {self.shooter}'s striker was not seen to shoot")
            return ""
        st = self.tracks.get(self.striker)
        if st is not None and self.last_t - st.points[-1][0] >= LOST_STRIKER:
            return (f"{self.shooter}'s striker left its circle unseen and nothing else moved "
                    "(shot off the table too fast to see, or lifted by a hand)")
        return ""

    @property
    def over(self) -> bool:
        """Everything has been still (settled over 0.1 s) for 0.15 s since the strike: the
        ruling comes about a quarter of a second after the pieces stop."""
        return (self.start_time is not None and self.rest_since is not None and
                self.last_t - self.rest_since >= 0.15)

    # -- the record -----------------------------------------------------------------------
    def record(self, circle: str | None = None) -> ShotRecord:
        st = self.tracks.get(self.striker)
        if st is None:
            raise ValueError("the shooter's striker was never seen in a circle")
        if self.start_time is None:
            raise ValueError("the shooter's striker was never seen to move")
        circle = circle or min(self.board.circles_of(self.shooter), key=lambda c: math.hypot(
            st.points[0][1] - self.board.circle_centre(c)[0],
            st.points[0][2] - self.board.circle_centre(c)[1]))
        strike = fit_strike(st.points, self.start_time)
        t0 = strike.time if strike else self.start_time
        contacts = self._contacts(st, circle, strike, t0)
        doubt = self._doubts(contacts)
        contacts = [self._trusted(c, t0, doubt) for c in contacts]
        pockets, exits, final, unseen = [], [], {}, []
        if st.gone is None and st.missing >= 10 and st.points[-1][0] <= t0 + 2 * self.frame:
            # the striker set off and was never seen again: a streak too long to detect
            # (a slow shutter), gone into a hole or off the table — which, and what it
            # touched, the frames cannot say: a foul the referee must confirm
            st.gone = Gone("off", "", t0 + self.frame, 0.5)
        for tr in self.tracks.values():
            if tr.gone is None and tr.missing >= 10 and tr.points[-1][0] >= t0 and \
                    not (tr.moved_at() is not None and tr.settled()) and (
                    tr.id == self.striker or self._may_have_been_struck(tr)):
                # gone from where it stood during the shot and never seen again: knocked
                # off too fast to follow (over a hole it is pocketed, else it left the
                # table); a piece unseen since before the strike, or since it came to
                # rest after moving, is merely hidden
                near = min(CORNERS, key=lambda h: math.hypot(
                    tr.pos[0] - self.board.hole_centre(h)[0],
                    tr.pos[1] - self.board.hole_centre(h)[1]))
                # (the frames never show where it went: a guess the referee confirms);
                # too slow for the cushion, no hole near and none on its course, it is on
                # the table, hidden (under a hand) where it was last seen going. It may
                # leap a cushion going at the first it meets fast enough; or seen struck
                # where it stood and never again (held-out 8350: B11, by the W cushion,
                # struck first and off the table before the next frame). (8631: R02,
                # sent off by the striker at 1.06 m/s and lost under the hand, heading
                # for the W cushion at 0.77 m/s across it, rested on)
                leaps = self._across_first(tr) > LEAP or self._struck_then(tr, contacts, t0)
                if math.hypot(tr.pos[0] - self.board.hole_centre(near)[0],
                              tr.pos[1] - self.board.hole_centre(near)[1]) < 60:
                    tr.gone = Gone("pocket", near, tr.points[-1][0], 0.7)
                elif not leaps and (course := self._coast(tr, math.inf,
                                                          slowing=_slowing(tr))):
                    # its course, slowing no faster than a slick board slows it, runs
                    # into a hole, meeting any cushion too slowly to leap it (held-out
                    # 8579: R12, lost under the cue lying along its way into SE, 110 mm
                    # short of it at 0.9 m/s; 8614: the striker, under a sleeve at 2 m/s,
                    # bound for SW off the S cushion)
                    tr.gone = Gone("pocket", *course, 0.7)
                elif leaps:
                    tr.gone = Gone("off", "", tr.points[-1][0], 0.7)
            if tr.gone is None and tr.moved_at() is not None and tr.missing and (
                    self.board.region(*tr.pos) == "rim"):
                # it moved, was last seen beyond the playing surface's edge and then lost
                # (a piece on the dark rim is found only weakly): it left the surface, on
                # the rim or on over it — a guess the referee confirms, never nothing:
                # off, if it was going out too fast to stop on the rim (held-out 9350,
                # 9394: the striker last seen 11-18 mm short of the rim's outer edge
                # going out at 0.95 m/s, called onto the rim)
                tr.gone = Gone("off" if self._runs_off_the_rim(tr) else "rim", "",
                               tr.points[-1][0], 0.7)
            hole = self.board.hole_at(*tr.pos)
            # where it came to rest, if on the table: its last sighting, or once settled
            # the middle of its last five where the last lies REST_MM off it (read off
            # its middle as a hand covers it: held-out 11402, the striker at rest read
            # once 7 mm off under the arm as it went; the middle of the last five lags a
            # piece still creeping to a stop)
            rests = tr.pos
            if tr.settled() and math.dist(middle := _median_place(tr.points[-5:]),
                                          tr.pos) > REST_MM:
                rests = middle
            if tr.gone is None and hole and tr.moved_at() is not None:
                lip = self._on_the_lip(tr, hole)
                if lip is not None:  # seen resting: it stopped at the lip, not over it
                    rests = lip
                else:  # seen going down into it, unless so fast it may have run on over
                    fast = math.hypot(*tr.velocity()) > RUN_OVER
                    tr.gone = Gone("pocket", hole, tr.points[-1][0], 0.8 if fast else 1.0)
            if tr.gone is not None and tr.gone.kind == "pocket":
                pockets.append(Pocketed(_since(tr.gone.t, t0), tr.id, tr.gone.hole,
                                        self._sureness(tr, doubt)))
            elif tr.gone is not None:
                exits.append(Exit(_since(tr.gone.t, t0), tr.id, tr.gone.kind,
                                  self._sureness(tr, doubt)))
            elif (tr.moved_at() is not None or tr.id == self.striker) and (
                    self.board.region(*rests) == "surface"):
                final[tr.id] = (round(rests[0], 2), round(rests[1], 2))
            elif self._unseen_and_reached(tr, t0):
                unseen.append(tr.id)
        cx, cy = self.board.circle_centre(circle)
        left = any(math.hypot(x - cx, y - cy) > self.board.circle_diameter / 2
                   for _, x, y in st.points) or any(st.id == x.piece for x in (*pockets, *exits))
        start = strike.start if strike else (st.points[0][1], st.points[0][2])
        return ShotRecord(self.shooter, circle, self.striker, start,
                          left, tuple(sorted(contacts, key=lambda c: c.t)),
                          tuple(sorted(pockets, key=lambda p: p.t)),
                          tuple(sorted(exits, key=lambda e: e.t)), final, source="camera",
                          duration=round(self.last_t - t0, 3),
                          trajectory={tr.id: tuple((round(t - t0, 4), x, y) for t, x, y in
                                                   tr.points if t >= t0)
                                      for tr in self.tracks.values() if tr.moved_at()
                                      is not None},
                          table={pid: p.pos for pid, p in self.state.pieces.items()
                                 if p.status == "table"}, unseen=tuple(sorted(unseen)))

    def _unseen_and_reached(self, tr: Track, t0: float) -> bool:
        """Whether a piece out of sight from before the strike ``t0`` to now is one the
        shot may have struck (``_sent_reach``: some track's path, seen or between two
        sightings, came within touching distance of where it stood): it may still stand
        there or be anywhere, in a hole too, and the frames cannot say which (held-out
        10021: B09, at the lip of SE under the player's sleeve the whole shot, was
        struck into SE by the striker passing under the sleeve; the record said nothing
        of it and the referee, told nothing, gave no bonus shot)."""
        return (tr.gone is None and tr.id != self.striker and tr.moved_at() is None
                and tr.missing > 0 and tr.points[-1][0] < t0
                and self._sent_reach(tr, self.last_t) > STILL)

    def _may_have_been_struck(self, tr: Track) -> bool:
        """Whether anything can have struck a piece lost for good during the shot since
        it last stood at its place (``_sent_reach`` from there, at ``moved_at`` if it was
        seen moved): one nothing came near is hidden where it stood, not knocked off out
        of sight (held-out 10854: R14, 44 mm from SW under the player's hand, read
        faintly for three frames after the strike, 4 mm off its place, was called
        pocketed there; nothing passed within reach of it, the striker 138 mm away)."""
        return self._sent_reach(tr, self.last_t, at=tr.moved_at()) > STILL

    def _struck_then(self, tr: Track, contacts: list[Contact], t0: float) -> bool:
        """Whether something met the track (a contact of ``contacts``, timed from
        ``t0``) no earlier than two frames before it was last seen, and it was seen
        fewer than three times since (its pace not yet known), fast enough to send
        it over a cushion: another piece going faster than LEAP / SENT_FASTER (not one
        it set moving itself), or a cushion met faster than LEAP, the piece not yet
        seen twice going off it (held-out 8589: R15 and R16, creeping at 60 mm/s after
        the striker came back into red's row, touched as the cue came over them and were
        called off the table)."""
        last = tr.points[-1][0] - t0 - 2 * self.frame
        for c in contacts:
            if tr.id not in (c.a, c.b) or c.t < last or tr.seen_since(t0 + c.t) >= 3:
                continue  # (seen three times since, its own pace tells: _across_first)
            other = self.tracks.get(c.other(tr.id))
            if other is None and tr.seen_since(t0 + c.t) >= 2:
                continue  # seen going off the cushion, its way from it known: it can
                # leave only over another (held-out 11027: the striker, seen twice
                # going W at 1.3 m/s off the E cushion and lost under the arm, was called
                # off the table; it crossed the board and struck B08)
            # another piece sends it only as fast as it came on to the contact: one it
            # set moving itself, at rest until then, sends it nowhere (held-out 11864: B01,
            # at 1.7 m/s into R14 and on at 0.2 m/s, lost under the arm 100 mm from the S
            # cushion, was called off the table from R14's pace after the touch)
            if other is not None and self._set_moving_by(other, t0 + c.t):
                continue
            need = LEAP / SENT_FASTER if other is not None else LEAP
            if self._fastest_near(other or tr, t0 + c.t) > need:
                return True
        return False

    def _set_moving_by(self, tr: Track, t: float) -> bool:
        """Whether a piece first left its place at a touch at time ``t`` (within a
        frame): set moving by what touched it. The striker is set moving by the cue."""
        start = tr.moved_at()
        return tr.id != self.striker and start is not None and start >= t - self.frame

    def _fastest_near(self, tr: Track, t: float) -> float:
        """The fastest (mm/s) a track was seen going, sighting to sighting, within two
        frames of time ``t``."""
        span = 2 * self.frame
        return max((math.dist(a[1:], b[1:]) / max(b[0] - a[0], 1e-6)
                    for a, b in zip(tr.points, tr.points[1:], strict=False)
                    if b[0] >= t - span and a[0] <= t + span), default=0.0)

    def _on_the_lip(self, tr: Track, hole: str) -> tuple[float, float] | None:
        """Where a piece seen resting just inside a hole's edge really rests: on the lip,
        at the edge (a piece whose centre is over the opening falls; one seen still there
        for a while is within the detection's few millimetres of the edge). None if it
        was not resting, or lay deeper than LIP_MM inside — LIP_SEEN for one seen there
        still in the shot's last frame (held-out 8474: R01, read 3.9 mm inside for a
        second, called pocketed)."""
        hx, hy = self.board.hole_centre(hole)
        x, y = tr.pos
        off = math.hypot(x - hx, y - hy)
        edge = self.board.hole_diameter / 2
        deepest = LIP_SEEN if tr.missing == 0 else LIP_MM
        if not tr.settled() or edge - off > deepest or off == 0:
            return None
        k = (edge + 0.1) / off
        return hx + (x - hx) * k, hy + (y - hy) * k

    def _contacts(self, st: Track, circle: str, strike: Strike | None,
                  t0: float) -> list[Contact]:
        hits: list[Contact] = []  # each piece set moving, by what came nearest it then
        again: list[Contact] = []  # each piece set moving again after it came to rest
        for tr in self.tracks.values():
            start = tr.moved_at()
            if start is None:
                continue
            if tr.id != self.striker:
                # nudged slowly, a piece is seen moved only once what moved it has passed:
                # then what was near when it left its place
                left = tr.left_at(start)
                hit = self._set_moving(tr, start, t0) or (
                    self._set_moving(tr, left, t0) if left < start else None)
                hits += [hit] if hit else []
            again += filter(None, (self._set_moving(tr, t, t0) for t in tr.restarts()))
        first = self._striker_first(strike, circle)
        grazed = [c for c in hits if self.striker in (c.a, c.b) and c.confidence >= GRAZE
                  and first is not None and c.t < first.t - self.frame]
        if grazed:
            # a piece seen set moving by the striker before the line's first contact: a
            # graze the line's spread did not reach (or a cut that turned the striker
            # while out of sight: the line then runs through its later path). The frames
            # and the line disagree, so the referee is asked to confirm.
            c = min(grazed, key=lambda c: c.t)
            first = Contact(c.t, self.striker, c.other(self.striker), confidence=GRAZE)
        bounced = [c for c in self._cushions(st, t0, None) if c.confidence >= CLEAR and
                   first is not None and c.t < first.t - self.frame]
        if bounced:
            # the frames show the striker bouncing off a cushion, at speed both ways,
            # before the line's (or a graze's) first contact: the line was fitted to no
            # stroke (held-out 8669: its first sighting, nudged 4 mm N in its circle by
            # the cue, gave a line N; struck ESE, it was next seen off the E cushion).
            # The frames and the line disagree: the bounce, asked
            c = min(bounced, key=lambda c: c.t)
            first = Contact(c.t, self.striker, c.b, confidence=GRAZE)
        out: list[Contact] = [first] if first else []
        out += [c for c in hits if not (first and {first.a, first.b} == {c.a, c.b})]
        out += [c for c in again if not any(  # (a restart seen as the first contact)
            {k.a, k.b} == {c.a, c.b} and abs(k.t - c.t) < 3 * self.frame for k in out)]
        out.extend(self._moving_touches(t0, out))
        for tr in self.tracks.values():
            out.extend(self._cushions(tr, t0, skip_first=first if tr.id == self.striker
                                      else None))
        if first:  # the first contact is timed finer than any other: the rest follow it
            out = [c if c is first or self.striker not in (c.a, c.b) or c.t > first.t
                   else replace(c, t=round(first.t + 1e-3, 4)) for c in out]
        return out

    def _trusted(self, c: Contact, t0: float, doubt: dict[str, float]) -> Contact:
        """A contact told less surely if either piece may have swapped identity more than
        two frames before (the meeting that set the doubt is itself seen), or was seen
        about then in a sighting not sure to be its piece (``Track.unsure``: found again
        after long out of sight, what it met is as unsure as where it went)."""
        confidence = c.confidence
        for body in (c.a, c.b):
            confidence = self._trust(doubt.get(body), t0 + c.t - 2 * self.frame, confidence)
            if body in self.tracks and any(abs(t - t0 - c.t) <= 2 * self.frame
                                           for t in self.tracks[body].unsure):
                confidence = min(confidence, REGAINED)
        return c if confidence == c.confidence else replace(c, confidence=confidence)

    def _moving_touches(self, t0: float, known: list[Contact]) -> list[Contact]:
        """Contacts between two pieces already moving (a 廢子 running into a piece the
        striker set rolling, the striker catching up with one): their paths, straight
        between frames, come within TOUCH mm of touching (rules/impact.py), and one
        of them changes velocity there. The first frame of each meeting only; pairs already known
        from the first contact or a piece set moving are left out, and so is a piece
        beyond the cushions (out of play, as the simulator has it: a piece leaping off
        over the rim passes over one resting there)."""
        frame = self.frame
        movers = [tr for tr in self.tracks.values() if tr.moved_at() is not None]
        paths = {tr.id: {round(t, 4): (x, y) for t, x, y in tr.points if t >= t0 - frame}
                 for tr in movers}
        out = []
        for i, a in enumerate(movers):
            for b in movers[i + 1:]:
                times = sorted(set(paths[a.id]) & set(paths[b.id]))
                reach = self.board.radius_of(a.id) + self.board.radius_of(b.id) + TOUCH
                apart = True
                for k in range(1, len(times) - 1):
                    t1, t2 = times[k - 1], times[k]
                    if t2 - t1 > 1.5 * frame:
                        continue
                    (ax1, ay1), (ax2, ay2) = paths[a.id][t1], paths[a.id][t2]
                    (bx1, by1), (bx2, by2) = paths[b.id][t1], paths[b.id][t2]
                    if any(self.board.region(*paths[p.id][t1]) in ("rim", "off")
                           for p in (a, b)):
                        apart = True  # (a piece beyond the cushions is out of play: what
                        continue  # passes over it there is no contact of the game)
                    dt = t2 - t1
                    tau = disc_disc((ax1, ay1), ((ax2 - ax1) / dt, (ay2 - ay1) / dt),
                                    (bx1, by1), ((bx2 - bx1) / dt, (by2 - by1) / dt),
                                    reach, dt)
                    turned = (self._turns(paths[a.id], times, k) or
                              self._turns(paths[b.id], times, k))
                    if tau is None and k >= 2 and t1 - times[k - 2] <= 1.5 * frame and all(
                            self._turns(paths[p.id], times, k - 1) for p in (a, b)):
                        # both turned within the step: straight from frame to frame,
                        # each cuts the corner of its turn, and so the chords may pass
                        # apart where the pieces met (held-out 8363: R11 and B15 both
                        # thrown back, their chords 1.6 mm short of touching). Each
                        # piece went on as it came until they met within the step,
                        # unless one of them met a third so going on first
                        tau = self._met_as_they_came(paths[a.id], paths[b.id], times, k, reach)
                        if tau is not None and self._met_another_first(
                                paths, movers, (a.id, b.id), times[k - 2:k + 1], tau):
                            tau = None
                        turned = tau is not None
                    close = tau is not None
                    if close and apart and turned:
                        t = t1 + tau - t0
                        if not any({c.a, c.b} == {a.id, b.id} and abs(c.t - t) < 3 * frame
                                   for c in known):
                            out.append(Contact(round(max(t, 0.0), 4), a.id, b.id,
                                               confidence=0.8))
                    apart = not close
        return out

    @staticmethod
    def _met_as_they_came(pa: dict, pb: dict, times: list[float], k: int,
                          reach: float) -> float | None:
        """When within the step from frame k-1 to frame k two pieces, each going on at
        its velocity of the step before (frame k-2 to k-1), come ``reach`` mm apart (s
        after frame k-1); None if they do not."""
        t0, t1, t2 = times[k - 2], times[k - 1], times[k]
        (ax0, ay0), (ax1, ay1) = pa[t0], pa[t1]
        (bx0, by0), (bx1, by1) = pb[t0], pb[t1]
        back = t1 - t0
        return disc_disc((ax1, ay1), ((ax1 - ax0) / back, (ay1 - ay0) / back),
                         (bx1, by1), ((bx1 - bx0) / back, (by1 - by0) / back), reach, t2 - t1)

    def _met_another_first(self, paths: dict, movers: list[Track], pair: tuple[str, str],
                           times: list[float], tau: float) -> bool:
        """Whether, of two pieces going on as they came over the step from ``times[1]``
        to ``times[2]`` (``_met_as_they_came``), either meets a third mover seen at
        ``times[0]`` and ``times[1]`` sooner than ``tau`` s into the step: it was turned
        there, not by the other (held-out 10777: R05, back off the N cushion, ran into
        B02, which sent R15 on; R05 going on through B02 "met" R15 24 mm beyond)."""
        for p in pair:
            for c in movers:
                if c.id in pair or not all(t in paths[c.id] for t in times[:2]):
                    continue
                reach = self.board.radius_of(p) + self.board.radius_of(c.id)
                met = self._met_as_they_came(paths[p], paths[c.id], times, 2, reach)
                if met is not None and met < tau:
                    return True
        return False

    @staticmethod
    def _turns(path: dict, times: list[float], k: int) -> bool:
        """Does the velocity change by more than KICK mm/s from the interval before
        frame k to the one after it?"""
        if k < 1 or k + 1 >= len(times):
            return False
        return _kicked(*((times[j], *path[times[j]]) for j in (k - 1, k, k + 1)))

    def _set_moving(self, tr: Track, start: float, t0: float) -> Contact | None:
        """The contact that set the track moving at ``start`` (s), by what came nearest
        it then (``_hitter``), timed from ``t0`` between that frame and the one before;
        None if nothing moving came near."""
        found = self._hitter(tr, start)
        if found is None:
            return None
        t = max(start - t0 - 0.5 * self.frame, 0.0)
        return Contact(round(t, 4), found[0], tr.id, confidence=found[1])

    def _hitter(self, tr: Track, start: float) -> tuple[str, float] | None:
        """The moving track whose path, over the frames before the resting one started
        moving, came nearest touching it (a fast piece touches between two frames), and
        how sure that is (less when another moving piece came nearly as near)."""
        _, x0, y0 = max((p for p in tr.points if p[0] < start), default=tr.points[0])
        window = start - 2.5 * self.frame
        near = []
        for other in self.tracks.values():
            if other.id == tr.id:
                continue
            seen = [(t, x, y) for t, x, y in other.points if window <= t <= start]
            earlier = [(t, x, y) for t, x, y in other.points if t < window]
            chord = False
            if (seen or earlier) and not any(t == start for t, _, _ in seen):
                # out of sight then (a striker struck under the hand): the chord from its
                # last sighting before to its first after, if the gap is short and it
                # went somewhere (not a resting piece's jitter; held-out 8510: the
                # striker, unseen for four frames, cut R13 thinly; 9473: the striker,
                # seen 0.03 s before R07 started and unseen for two frames at 3.2 m/s,
                # grazed it in between)
                last = (earlier[-1:] + seen)[-1]
                after = next(((t, x, y) for t, x, y in other.points if t > start), None)
                chord = after is not None and after[0] - last[0] <= UNSEEN_SPAN and (
                    math.dist(after[1:], last[1:]) > STARTED)
                seen += [after] if chord else []
            path = [p[1:] for p in earlier[-1:] + seen]
            if len(path) < 2 or math.dist(path[0], path[-1]) < 1.0:
                continue  # not moving then
            reach, k = min((math.dist(_nearest_on(a, b, (x0, y0)), (x0, y0)), k)
                           for k, (a, b) in enumerate(zip(path, path[1:], strict=False)))
            gap = reach - self.board.radius_of(tr.id) - self.board.radius_of(other.id)
            if gap < 15.0:  # (nearest on the chord, if any: its last step)
                near.append((gap, other.id, chord and k == len(path) - 2))
        if not near:
            return None
        near.sort()
        alone = len(near) == 1 or near[1][0] - near[0][0] > 10.0
        sure = 0.95 if alone else 0.7
        # a path run straight across frames that did not show it: never sure (asked)
        return near[0][1], min(sure, GRAZE) if near[0][2] else sure

    def _cushions(self, tr: Track, t0: float, skip_first: Contact | None) -> list[Contact]:
        out = []
        b = self.board
        r = b.radius_of(tr.id)
        pts = [p for p in tr.points if p[0] >= t0]
        for (ta, xa, ya), (tb, xb, yb), (_, xc, yc) in zip(pts, pts[1:], pts[2:], strict=False):
            for side, axis, sign in (("E", 0, 1), ("W", 0, -1), ("N", 1, 1), ("S", 1, -1)):
                pa, pb, pc = (xa, xb, xc) if axis == 0 else (ya, yb, yc)
                toward = sign * (pb - pa) > 0.5 and sign * (pc - pb) < -0.5
                near = sign * pb > b.half - r - 45  # a blurred piece is seen mid-exposure
                if toward and near:
                    v = ((xb - xa) / (tb - ta), (yb - ya) / (tb - ta))
                    tau = disc_wall((xa, ya), v, r, side, b.half, 3 * (tb - ta))
                    t = ta + (tau if tau is not None else (tb - ta))
                    # a bounce seen at speed both ways is no jitter of a piece at rest
                    clear = min(sign * (pb - pa), sign * (pb - pc)) / (tb - ta) > 150.0
                    contact = Contact(round(t - t0, 4), tr.id, cushion(side),
                                      confidence=CLEAR if clear else 0.8)
                    if not (skip_first and skip_first.b == contact.b and
                            abs(skip_first.t - contact.t) < 0.05):
                        out.append(contact)
        return out

    def _striker_first(self, strike: Strike | None, circle: str) -> Contact | None:
        """The striker's first contact: the fitted line of its first frames, followed
        from where it stood to the first piece or cushion it meets (rules/impact.py).

        Lines within the fit's uncertainty (±2.5 σ) each vote, nearer the fitted angle
        weighing more; what the frames show decides between them: a piece the striker
        was seen to run straight past was not touched (the line is followed on beyond
        it), and a piece that starts moving when the line reaches it was. A call the
        votes and the frames do not settle is put to the simulator (``ShotOracle``), if
        there is one, and left below 0.9 confidence. A striker unseen from its circle to
        where it was first seen moving (``Strike.hidden``) may have touched something on
        the way: what the line says is told at HIDDEN confidence, for the referee to
        confirm."""
        if strike is None or strike.speed < MOVING:
            return None
        into = self._down_hole(self.tracks[self.striker], strike)
        verdicts: dict[str, int] = {}
        votes: dict[str, float] = {}
        times: dict[str, tuple[float, float]] = {}  # body -> (|k|, time to it) nearest k
        for k in np.linspace(-2.5, 2.5, 11):
            skip: set[str] = set()
            while (hit := self._line_hit(strike.start, strike.angle + k * strike.sigma,
                                         strike.speed, skip, into)) is not None:
                body, tau = hit
                if body not in verdicts:
                    # (the striker was seen going down the hole its line ends in)
                    verdicts[body] = 1 if body == into else self._seen_hit(body, strike, tau)
                if verdicts[body] >= 0 or body.startswith("cushion:"):
                    votes[body] = votes.get(body, 0.0) + math.exp(-k * k / 2)
                    times[body] = min(times.get(body, (9.0, 0.0)), (abs(k), tau))
                    break
                skip.add(body)
        if not votes:
            return None
        # a piece seen to start moving as the line reaches it is strong evidence; a run
        # ending at a cushion weaker (it ends there too when a piece stands against it)
        weight = {b: votes[b] * (1.0 if verdicts[b] <= 0 else 1.5 if b.startswith("cushion:")
                                 else 3.0) for b in votes}
        body = max(weight, key=weight.get)
        if body == into:
            return None  # straight down the hole: it met nothing first
        confidence = weight[body] / sum(weight.values())
        confirmed = sorted((times[b][1], b) for b in votes
                           if verdicts[b] > 0 and not b.startswith("cushion:") and b != into)
        if verdicts[body] > 0 and not any(verdicts[b] > 0 for b in votes
                                          if b not in (body, into)):
            confidence = max(confidence, 0.95)  # the only candidate the frames confirm
        elif len(confirmed) > 1 and confirmed[1][0] - confirmed[0][0] > self.frame:
            # several pieces set moving a frame or more apart: the striker touched them
            # one after another (a graze, then a full hit), not one or the other
            body, confidence = confirmed[0][1], max(confidence, 0.9)
        elif len(confirmed) > 1 and (
                nearest := self._first_by_departure(strike, [b for _, b in confirmed])):
            # set moving within a frame of each other: the way each went off its place
            # says where the striker stood when it touched it
            body, confidence = nearest, max(confidence, 0.9)
        elif verdicts[body] <= 0:
            confidence *= 0.9
        if confidence < 0.9 and self.oracle is not None:
            said = self.oracle.first_contact(self.state, self.shooter, circle, strike.start,
                                             math.degrees(strike.angle), strike.speed / 1000)
            if said == body:
                confidence = max(confidence, 0.7)
            elif said is not None:
                body, confidence = said, 0.6
        if strike.hidden:  # unseen from its circle to where it was first seen moving
            confidence = min(confidence, HIDDEN)
        if self._tangent(strike, body, times.get(body, (0.0, 0.0))[1]):
            confidence = min(confidence, UNSEEN_GRAZE)  # (what it met is not in doubt)
        tau = times[body][1] if body in times else 0.0
        return Contact(round(tau, 4), self.striker, body, ambiguous=confidence < 0.6,
                       confidence=round(min(confidence, 1.0), 3))

    def _first_by_departure(self, strike: Strike, bodies: list[str]) -> str | None:
        """Of pieces the striker set moving within a frame of each other, the one it
        touched first, from the way each went off its place: a struck disc leaves along
        the line of centres, so the striker's centre stood the two radii back from the
        piece's place along the way it went, and the striker, running on the fitted
        line, passes the nearer of those places first. Each must lie on the line
        (within OFF_LINE and the fit's ±2.5 σ) and be DEPARTED mm nearer than the
        next along it; None where the frames do not say so (a piece seen barely moved,
        or knocked on by another: its striker's place off the line). Held-out 10869:
        the striker, at 2.8 m/s from SE, touched R07 on its right 9 ms before R11 on
        its left; both were first seen moving in the next frame, and the line fitted
        through a frame after the first touch leaned toward R11."""
        ux, uy = math.cos(strike.angle), math.sin(strike.angle)
        sx, sy = strike.start
        places = []
        for body in bodies:
            tr = self.tracks[body]
            start = tr.moved_at()
            if start is None:
                return None
            px, py = tr.place_before(start)
            off = next(p for p in tr.points if p[0] >= start)
            run = math.hypot(off[1] - px, off[2] - py)
            if run < DEPARTED:
                return None
            touch = self.board.radius_of(self.striker) + self.board.radius_of(body)
            cx = px - touch * (off[1] - px) / run - sx
            cy = py - touch * (off[2] - py) / run - sy
            along, across = cx * ux + cy * uy, abs(cx * uy - cy * ux)
            if along <= 0 or across > OFF_LINE + 2.5 * strike.sigma * along:
                return None
            places.append((along, body))
        places.sort()
        return places[0][1] if places[1][0] - places[0][0] >= DEPARTED else None

    def _tangent(self, strike: Strike, body: str, tau: float) -> str | None:
        """A piece the striker's line passes at touching distance, within two standard
        deviations of the fit (and 0.2 mm), before it reaches ``body`` (``tau`` s on): a
        touch along a tangent moves a piece too little to see (at 3 m/s, 0.1 mm inside
        touching sends it about 15 mm, 0.001 mm inside about 0.3 mm), so that the
        frames show it still does not rule it out; and it turns the striker a little
        (0.2° there), which bends the line fitted through frames before and after it.
        Only a piece whose touch first would change a call is asked about: the
        shooter's own (7.1) or a protected one. Its id, or None."""
        ux, uy = math.cos(strike.angle), math.sin(strike.angle)
        sx, sy = strike.start
        rs = self.board.radius_of(self.striker)
        reach = strike.speed * tau if tau > 0 else math.inf
        for pid, tr in self.tracks.items():
            if pid in (self.striker, body) or not (
                    colour_of(pid) == self.shooter or self._guarded(pid)):
                continue  # touched first, only an own or a protected piece changes a call
            px, py = tr.points[0][1] - sx, tr.points[0][2] - sy
            along, across = px * ux + py * uy, abs(px * uy - py * ux)
            touch = rs + self.board.radius_of(pid)
            if 0 < along < reach + touch and abs(across - touch) <= (
                    2 * strike.sigma * along + 0.2):
                return pid
        return None

    def _guarded(self, piece: str) -> bool:
        """A 小回 or 大回: struck directly, a call (6.4, 9.x)."""
        on = self.state.pieces.get(piece)
        return on is not None and on.guard is not None

    def _seen_hit(self, body: str, strike: Strike, tau: float) -> int:
        """Do the frames show the striker's line meeting ``body`` ``tau`` s after the
        strike? +1 yes, -1 no, 0 they cannot tell."""
        frame = self.frame
        reach = strike.speed * tau  # mm along the line to the contact
        if body.startswith("cushion:"):
            if strike.run > reach + OFF_LINE:
                return -1  # seen running on through the cushion: the fit is wrong
            return 1 if strike.run > reach - strike.speed * frame * 1.5 else 0
        tr = self.tracks[body]
        started = tr.moved_at()
        if started is None and tr.gone is not None:
            started = tr.points[-1][0] + frame
        hit_at = strike.time + tau
        if started is not None and hit_at - 2.5 * frame <= started <= hit_at + 2.5 * frame:
            return 1
        if strike.run > reach + OFF_LINE:
            # the striker was seen running straight on beyond where it meets the piece:
            # through the piece's place, so the piece was gone from it by then — hit, if
            # it was seen to have moved soon after that moment (fast pieces go unseen for
            # a few frames at 30 fps); had it stayed, the fitted line is wrong (held-out
            # 8069: B07, set moving a second later by another piece, is no hit)
            return 1 if started is not None and (
                hit_at - 2.5 * frame <= started <= hit_at + UNSEEN_HIT) else -1
        return 0  # (a piece pinned against a cushion or in a row may barely move)

    def _down_hole(self, tr: Track, strike: Strike) -> str | None:
        """The hole the striker was seen going straight down, as ``hole:NAME``: its last
        place over the opening, still running the way it was struck and, if it is still
        seen there, slow enough to drop (RUN_OVER). None if not — a striker faster than
        that may run on over the opening into the cushions beyond it, and one seen coming
        back met them. One lost over the opening, which the record calls pocketed there,
        went down it unless seen faster than a piece drops at all (DROPS): held-out 9063
        and 9088, the striker straight into NE at 2.0-2.2 m/s, had its first contact
        called the N cushion beyond the hole's mouth; 8725, 8726 and 8730, lost over NW at
        3.4-4.5 m/s, met a cushion in its mouth first, then dropped."""
        lost = tr.gone is not None
        if lost:
            hole = tr.gone.hole if tr.gone.kind == "pocket" else None
        else:
            hole = self.board.hole_at(*tr.pos) if tr.moved_at() is not None else None
        vx, vy = tr.velocity()
        along = vx * math.cos(strike.angle) + vy * math.sin(strike.angle)
        if hole is None or along <= 0 or math.hypot(vx, vy) > (DROPS if lost else RUN_OVER):
            return None
        return f"hole:{hole}"

    def _line_hit(self, start, angle: float, speed: float, skip: set[str],
                  into: str | None = None) -> tuple[str, float] | None:
        """First piece or cushion on a straight line from ``start`` (the rest of the
        table as it stood before the shot, leaving out ``skip``), with the time to it.
        ``into``: the hole (``hole:NAME``) the striker was seen going down: the line
        ends where its centre comes over that hole's opening, if it gets there first (a
        corner hole's mouth cuts the two cushions the line would meet beyond it)."""
        v = (speed * math.cos(angle), speed * math.sin(angle))
        rs = self.board.radius_of(self.striker)
        best = None
        for pid, tr in self.tracks.items():
            if pid == self.striker or pid in skip:
                continue
            tau = disc_disc(start, v, (tr.points[0][1], tr.points[0][2]), (0.0, 0.0),
                            rs + self.board.radius_of(pid), 10.0)
            if tau is not None and tau > 1e-4 and (best is None or tau < best[1]):
                best = (pid, tau)
        for side in ("N", "E", "S", "W"):
            tau = disc_wall(start, v, rs, side, self.board.half, 10.0)
            if tau is not None and tau > 1e-4 and (best is None or tau < best[1]):
                best = (cushion(side), tau)
        if into is not None:
            tau = disc_disc(start, v, self.board.hole_centre(into.removeprefix("hole:")),
                            (0.0, 0.0), self.board.hole_diameter / 2, 10.0)
            if tau is not None and tau > 1e-4 and (best is None or tau < best[1]):
                best = (into, tau)
        return best


def _slowing(tr: Track) -> float:
    """The least (mm/s²) a track lost running slows as it runs on: SLOWING (a slick
    board), or SLOWING_SEEN of what its own last run showed — its last sightings over
    SLOWED_OVER s or more, with no gap longer than UNSEEN_SPAN, on one parabola within
    REST_MM (one straight unstruck run: a bounce or a blow leaves it), slowing along its
    way. The board's friction, and a cushion's it slides along, act on as they did
    (held-out 11621: the striker, seen slowing at 1.8 m/s² over its last quarter
    second along the S cushion, lost under the sleeve at 0.54 m/s 150 mm from SW; a
    slick board's slowing ran it into SW, called asked: it stopped 40 mm short, as its
    own slowing has it)."""
    k = len(tr.points) - 1
    while k > 0 and tr.points[-1][0] - tr.points[k][0] < SLOWED_OVER and (
            tr.points[k][0] - tr.points[k - 1][0] <= UNSEEN_SPAN):
        k -= 1
    run = np.array(tr.points[k:])
    if len(run) < 10 or run[-1, 0] - run[0, 0] < SLOWED_OVER:
        return SLOWING
    t = run[:, 0] - run[-1, 0]
    fit = np.polyfit(t, run[:, 1:], 2)  # rows: t², t, 1; columns: x, y
    if np.hypot(*(run[:, 1:] - np.vander(t, 3) @ fit).T).max() > REST_MM:
        return SLOWING
    (ax, ay), (vx, vy) = 2 * fit[0], fit[1]
    speed = math.hypot(vx, vy)
    slowed = -(ax * vx + ay * vy) / speed if speed > MOVING else 0.0
    return max(SLOWING, SLOWING_SEEN * slowed)


def _faint_leap(tr: Track, board: Board) -> bool:
    """Whether a track's sightings since its last sure one are faint (below SEEN_SURELY),
    the last on the playing surface, where a piece in view is seen surely (on the dark
    rim one leaving over it is found only weakly), and more than FOUND mm from that sure
    one: where it went rests on detections that may be no piece."""
    return tr.faint_since is not None and tr.surely is not None and bool(tr.points) and (
        math.dist(tr.points[-1][1:], tr.surely[1:]) > FOUND) and (
        board.region(*tr.points[-1][1:]) == SURFACE)


def _across_a_gap(tr: Track) -> bool:
    """Whether a track's last step spans more than UNSEEN_SPAN out of sight: its velocity
    is a chord, its heading maybe one a cushion turned on the way."""
    return len(tr.points) >= 2 and tr.points[-1][0] - tr.points[-2][0] > UNSEEN_SPAN


def _kicked(a: tuple[float, float, float], b: tuple[float, float, float],
            c: tuple[float, float, float]) -> bool:
    """Whether a track's velocity changed by more than KICK mm/s from the step between
    sightings ``a`` and ``b`` to the step between ``b`` and ``c`` (each ``(t, x, y)``)."""
    (t0, x0, y0), (t1, x1, y1), (t2, x2, y2) = a, b, c
    d1, d2 = t1 - t0, t2 - t1
    return math.hypot((x2 - x1) / d2 - (x1 - x0) / d1, (y2 - y1) / d2 - (y1 - y0) / d1) > KICK


def _median_place(points: list[tuple[float, float, float]]) -> tuple[float, float]:
    """The median x and y (mm) of sightings (t, x, y)."""
    return median(p[1] for p in points), median(p[2] for p in points)


def _since(t: float, t0: float) -> float:
    """Seconds from the strike, never before it (a piece seen to go before the striker
    moved is reported at the strike)."""
    return round(max(t - t0, 0.0), 4)


def _nearest_on(a, b, p) -> tuple[float, float]:
    """The point of segment a-b nearest p (all (x, y) in mm)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    s = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                             / length2))
    return a[0] + s * dx, a[1] + s * dy

