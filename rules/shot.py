"""The shot record: what happened in one shot, as the simulator and the camera both report it.

Times are seconds from the moment the shot piece was struck; positions are board
millimetres (origin at the centre, x right, y away from red). The JSON form
(schema ``kangle.shot/1``) is documented in docs/formats.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.board import CORNERS, CUSHIONS
from rules.errors import KangleError
from rules.fields import Fields, as_point
from rules.jsonfile import check_schema, mm
from rules.pieces import STRIKERS, check_colour, check_id, colour_of, is_striker

SCHEMA = "kangle.shot/1"
CUSHION_PREFIX = "cushion:"
EXIT_KINDS = ("off", "rim")


def cushion(side: str) -> str:
    """The contact name of a cushion: ``cushion:S`` … ``cushion:W``."""
    return CUSHION_PREFIX + side


def is_cushion(name: str) -> bool:
    return name.startswith(CUSHION_PREFIX)


LONGEST_SHOT_S = 60.0  # s: pieces on a 康樂棋 table stop long before this


@dataclass(frozen=True)
class Contact:
    """Two bodies touching at time ``t`` (s): pieces by id, cushions as ``cushion:N``.

    ``ambiguous`` marks a contact whose order against another one could not be told
    apart (closer than the source's time tolerance); calls resting on it ask the
    referee to confirm. ``confidence`` (0–1) is how sure the source is that it
    happened as stated (1 for the simulator).
    """

    t: float
    a: str
    b: str
    ambiguous: bool = False
    confidence: float = 1.0

    def involves(self, piece: str) -> bool:
        return piece in (self.a, self.b)

    def other(self, piece: str) -> str:
        return self.b if self.a == piece else self.a


@dataclass(frozen=True)
class Pocketed:
    """A piece that dropped into hole ``hole`` (SW, SE, NW, NE) at time ``t``.
    ``confidence`` (0–1) as for a contact: how sure the source is that this piece went
    into that hole (a camera that lost the piece near the hole, or among others of its
    colour, is less sure than one that saw it go down)."""

    t: float
    piece: str
    hole: str
    confidence: float = 1.0


@dataclass(frozen=True)
class Exit:
    """A piece that left the playing surface at ``t``: ``off`` the table or on the ``rim``;
    ``confidence`` as for a pocket."""

    t: float
    piece: str
    where: str
    confidence: float = 1.0


@dataclass(frozen=True)
class RefereeFacts:
    """What only the referee sees (the camera cannot):
    4.3 cue not struck with its tip, 5.2 the striker hit the shooter's own cue,
    5.6 the cue's pivot crossed the shooter's side, 6.6 a body part touched a piece,
    and ``cue_swept``: pieces the cue itself swept (5.5)."""

    cue_tip_foul: bool = False
    own_cue_hit: bool = False
    pivot_foul: bool = False
    body_touch: bool = False
    cue_swept: tuple[str, ...] = ()

    def any(self) -> bool:
        return any((self.cue_tip_foul, self.own_cue_hit, self.pivot_foul, self.body_touch,
                    self.cue_swept))


@dataclass(frozen=True)
class ShotRecord:
    """One shot from strike to rest.

    ``start`` is where the shot piece stood in its circle (mm); ``final`` gives the
    resting position of every piece that moved and stayed on the playing surface;
    ``trajectory`` optionally samples moving pieces as ``{id: [[t, x, y], …]}``;
    ``table`` optionally gives where every piece on the table stood before the shot,
    so that a record can be replayed on its own.
    """

    shooter: str
    circle: str
    shot_piece: str
    start: tuple[float, float]
    left_circle: bool
    contacts: tuple[Contact, ...] = ()
    pockets: tuple[Pocketed, ...] = ()
    exits: tuple[Exit, ...] = ()
    final: dict[str, tuple[float, float]] = field(default_factory=dict)
    referee: RefereeFacts = RefereeFacts()
    source: str = "manual"
    duration: float = 0.0
    trajectory: dict[str, tuple[tuple[float, float, float], ...]] | None = None
    table: dict[str, tuple[float, float]] | None = None
    notation: str | None = None  # the line a referee typed, when it came from one
    # pieces its source lost sight of before the shot and never saw again, though the
    # shot may have reached where they stood: where they ended, the record cannot say
    unseen: tuple[str, ...] = ()

    # -- questions the referee engine asks ----------------------------------------------
    def contacts_of(self, piece: str) -> list[Contact]:
        """Contacts involving ``piece``, in time order."""
        return [c for c in self.contacts if c.involves(piece)]

    def moved(self) -> set[str]:
        """Every piece the shot moved (touched, pocketed, sent off, or given a new rest)."""
        out = {self.shot_piece}
        for c in self.contacts:
            out.update(p for p in (c.a, c.b) if not is_cushion(p))
        out.update(p.piece for p in self.pockets)
        out.update(e.piece for e in self.exits)
        out.update(self.final)
        return out

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": SCHEMA,
            "shooter": self.shooter,
            "circle": self.circle,
            "shot_piece": self.shot_piece,
            "start": [mm(self.start[0]), mm(self.start[1])],
            "left_circle": self.left_circle,
            "contacts": [_contact_json(c) for c in self.contacts],
            "pockets": [_sure({"t": _s(p.t), "piece": p.piece, "hole": p.hole}, p.confidence)
                        for p in self.pockets],
            "exits": [_sure({"t": _s(e.t), "piece": e.piece, "where": e.where}, e.confidence)
                      for e in self.exits],
            "final": {k: [mm(x), mm(y)] for k, (x, y) in sorted(self.final.items())},
            "referee": {
                "cue_tip_foul": self.referee.cue_tip_foul,
                "own_cue_hit": self.referee.own_cue_hit,
                "pivot_foul": self.referee.pivot_foul,
                "body_touch": self.referee.body_touch,
                "cue_swept": list(self.referee.cue_swept),
            },
            "source": self.source,
            "duration": _s(self.duration),
        }
        if self.table is not None:
            data["table"] = {k: [mm(x), mm(y)] for k, (x, y) in sorted(self.table.items())}
        if self.notation is not None:
            data["notation"] = self.notation
        if self.unseen:
            data["unseen"] = list(self.unseen)
        if self.trajectory is not None:
            data["trajectory"] = {
                k: [[_s(t), mm(x), mm(y)] for t, x, y in samples]
                for k, samples in sorted(self.trajectory.items())
            }
        return data

    @classmethod
    def from_json(cls, data: Any) -> ShotRecord:
        """Read and validate a shot record; nonsense is refused with the reason."""
        check_schema(data, SCHEMA, "shot record")
        f = Fields(data, "shot")
        f.text("schema")
        shooter = check_colour(f.text("shooter"))
        circle = f.choice("circle", CORNERS)
        shot_piece = check_id(f.text("shot_piece"))
        record = cls(
            shooter=shooter,
            circle=circle,
            shot_piece=shot_piece,
            start=f.point("start"),
            left_circle=f.flag("left_circle"),
            contacts=tuple(
                _read_contact(c, f"shot.contacts[{i}]")
                for i, c in enumerate(f.items("contacts", []))
            ),
            pockets=tuple(
                _read_pocket(p, f"shot.pockets[{i}]") for i, p in enumerate(f.items("pockets", []))
            ),
            exits=tuple(
                _read_exit(e, f"shot.exits[{i}]") for i, e in enumerate(f.items("exits", []))
            ),
            final=_read_final(f.table("final", {})),
            referee=_read_referee(f.table("referee", {})),
            source=f.choice("source", ("sim", "camera", "manual"), "manual"),
            duration=f.nonneg("duration", 0.0),
            trajectory=_read_trajectory(f.raw("trajectory", None)),
            table=_read_final(f.table("table")) if f.has("table") else None,
            notation=f.text("notation", None),
            unseen=tuple(_body(p, f"shot.unseen[{i}]") for i, p in enumerate(
                f.items("unseen", []))),
        )
        f.done()
        record.check()
        return record

    def check(self) -> None:
        """Checks that need no table state: ids, ownership of the shot piece, time order,
        nothing pocketed twice, nothing both gone and given a resting place."""
        if colour_of(self.shot_piece) != self.shooter:
            raise KangleError(
                f"shot: {self.shooter} cannot shoot {self.shot_piece}; the shot piece must be "
                f"the shooter's striker {STRIKERS[self.shooter]} or one of their own pieces"
            )
        other_striker = STRIKERS["black" if self.shooter == "red" else "red"]
        last = self.duration if self.duration > 0 else LONGEST_SHOT_S
        for kind, items in (("contacts", self.contacts), ("pockets", self.pockets),
                            ("exits", self.exits)):
            for i, item in enumerate(items):
                if item.t > last + 1e-3:
                    raise KangleError(
                        f"shot.{kind}[{i}]: at {item.t:g} s, after the shot was over "
                        + (f"(its duration is {self.duration:g} s)" if self.duration > 0 else
                           f"(no shot lasts {LONGEST_SHOT_S:g} s)"))
        previous = 0.0
        for i, c in enumerate(self.contacts):
            if c.t < previous:
                raise KangleError(
                    f"shot.contacts[{i}]: time {c.t} s runs backwards "
                    f"(the contact before it is at {previous} s); list contacts in time order"
                )
            previous = c.t
            if c.a == c.b:
                raise KangleError(f"shot.contacts[{i}]: {c.a} cannot touch itself")
            if is_cushion(c.a) and is_cushion(c.b):
                raise KangleError(f"shot.contacts[{i}]: a contact needs at least one piece")
        gone: dict[str, str] = {}
        for kind, items in (("pocketed", self.pockets), ("sent off", self.exits)):
            for item in items:
                if item.piece in gone:
                    raise KangleError(
                        f"shot: {item.piece} is {kind} but was already {gone[item.piece]}; "
                        "a piece can leave the table only once"
                    )
                gone[item.piece] = kind
        for piece in self.moved():
            if piece == other_striker:
                raise KangleError(
                    f"shot: {piece} is the opponent's striker and is not on the table "
                    f"during {self.shooter}'s shot"
                )
            if is_striker(piece) and piece != self.shot_piece:
                raise KangleError(f"shot: {piece} takes no part in this shot")
        both = sorted(set(gone) & set(self.final))
        if both:
            raise KangleError(
                f"shot: {', '.join(both)} left the table but also has a final position"
            )
        for piece in self.unseen:
            if is_cushion(piece) or piece in self.moved():
                raise KangleError(f"shot.unseen: {piece} is listed as not seen, but the "
                                  "record says what it did (or it is no piece)")


def _s(t: float) -> float:
    """Round a time for files (microseconds)."""
    return round(float(t), 6)


def _contact_json(c: Contact) -> dict[str, Any]:
    out: dict[str, Any] = {"t": _s(c.t), "a": c.a, "b": c.b}
    if c.ambiguous:
        out["ambiguous"] = True
    return _sure(out, c.confidence)


def _sure(out: dict[str, Any], confidence: float) -> dict[str, Any]:
    """An event's JSON with its confidence, written only where it is not 1."""
    if confidence != 1.0:
        out["confidence"] = round(confidence, 4)
    return out


def _body(name: str, where: str) -> str:
    if not isinstance(name, str):
        raise KangleError(f"{where} must be a piece id or a cushion, not {name!r}")
    if is_cushion(name):
        if name[len(CUSHION_PREFIX):] not in CUSHIONS:
            raise KangleError(f"{where}: unknown cushion {name!r}: use cushion:N, E, S or W")
        return name
    try:
        return check_id(name)
    except KangleError as exc:
        raise KangleError(f"{where}: {exc}") from None


def _read_contact(data: Any, where: str) -> Contact:
    f = Fields(data, where)
    c = Contact(
        t=f.nonneg("t"),
        a=_body(f.raw("a"), f"{where}.a"),
        b=_body(f.raw("b"), f"{where}.b"),
        ambiguous=f.flag("ambiguous", False),
        confidence=f.fraction("confidence", 1.0),
    )
    f.done()
    return c


def _piece(f: Fields, key: str) -> str:
    try:
        return check_id(f.text(key))
    except KangleError as exc:
        raise KangleError(f"{f.where}.{key}: {exc}") from None


def _read_pocket(data: Any, where: str) -> Pocketed:
    f = Fields(data, where)
    p = Pocketed(t=f.nonneg("t"), piece=_piece(f, "piece"), hole=f.choice("hole", CORNERS),
                 confidence=f.fraction("confidence", 1.0))
    f.done()
    return p


def _read_exit(data: Any, where: str) -> Exit:
    f = Fields(data, where)
    e = Exit(t=f.nonneg("t"), piece=_piece(f, "piece"), where=f.choice("where", EXIT_KINDS),
             confidence=f.fraction("confidence", 1.0))
    f.done()
    return e


def _read_final(f: Fields) -> dict[str, tuple[float, float]]:
    out = {_checked_key(key, f.where): f.point(key) for key in f.names()}
    f.done()
    return out


def _checked_key(key: str, where: str) -> str:
    try:
        return check_id(key)
    except KangleError as exc:
        raise KangleError(f"{where}: {exc}") from None


def _read_referee(f: Fields) -> RefereeFacts:
    swept = f.items("cue_swept", [])
    facts = RefereeFacts(
        cue_tip_foul=f.flag("cue_tip_foul", False),
        own_cue_hit=f.flag("own_cue_hit", False),
        pivot_foul=f.flag("pivot_foul", False),
        body_touch=f.flag("body_touch", False),
        cue_swept=tuple(_checked_key(p, f"{f.where}.cue_swept") for p in swept),
    )
    f.done()
    return facts


def _read_trajectory(data: Any) -> dict[str, tuple[tuple[float, float, float], ...]] | None:
    if data is None:
        return None
    f = Fields(data, "shot.trajectory")
    out = {}
    for key in f.names():
        where = f"shot.trajectory.{key}"
        samples = []
        last = -1.0
        for i, s in enumerate(f.items(key)):
            if not (isinstance(s, list) and len(s) == 3):
                raise KangleError(f"{where}[{i}] must be [t, x, y]")
            t = Fields({"t": s[0]}, f"{where}[{i}]").nonneg("t")
            if t < last:
                raise KangleError(f"{where}[{i}]: time {t} s runs backwards")
            last = t
            x, y = as_point(s[1:], f"{where}[{i}]")
            samples.append((t, x, y))
        out[_checked_key(key, "shot.trajectory")] = tuple(samples)
    f.done()
    return out
