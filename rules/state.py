"""The table state between shots: where every piece is, whose shot, what is owed.

Positions are board millimetres. Each of the 34 ids (32 pieces and 2 strikers) is
in exactly one place: on the table, pocketed (out of play, counting towards the
opponent of its colour), or — strikers only — in the hand between shots.
The JSON form (schema ``kangle.table-state/1``) is documented in docs/formats.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.board import Board
from rules.errors import KangleError
from rules.fields import Fields
from rules.jsonfile import check_schema, mm
from rules.pieces import ALL_IDS, COLOURS, STRIKERS, check_id, is_striker, pieces_of

SCHEMA = "kangle.table-state/1"

ON_TABLE, POCKETED, IN_HAND = "table", "pocketed", "hand"
# Rebound protection (rule 9): 小回 inside the inner ring, 大回 in the penalty ring.
SMALL, BIG = "small", "big"
PHASES = ("lag", "play", "catch_up", "over")


@dataclass(frozen=True)
class Piece:
    """One piece or striker. ``pos`` is set only while it is on the table."""

    id: str
    status: str
    pos: tuple[float, float] | None = None
    guard: str | None = None


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` is a colour, or None for a draw."""

    winner: str | None
    rule: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "rule": self.rule, "text": self.text}


@dataclass(frozen=True)
class TableState:
    """Everything the referee engine needs between two shots.

    ``turn`` holds the shot (None during the lag and after the game); ``first`` is
    the player who won the lag; ``owed`` counts extra shots owed to each player
    (a skipped turn of one is an extra shot of the other); ``stack`` lists the 小回
    at the centre, bottom first (rule 9.2); ``shots`` counts shots judged so far.
    """

    pieces: dict[str, Piece]
    phase: str = "lag"
    turn: str | None = None
    first: str | None = None
    owed: dict[str, int] = field(default_factory=lambda: {"red": 0, "black": 0})
    stack: tuple[str, ...] = ()
    shots: int = 0
    result: Result | None = None

    # -- questions ----------------------------------------------------------------------
    def on_table(self, piece: str) -> bool:
        return self.pieces[piece].status == ON_TABLE

    def pos(self, piece: str) -> tuple[float, float]:
        p = self.pieces[piece].pos
        if p is None:
            raise KangleError(f"{piece} is not on the table")
        return p

    def left(self, colour: str) -> list[str]:
        """Pieces of ``colour`` still on the table."""
        return [p for p in pieces_of(colour) if self.pieces[p].status == ON_TABLE]

    def guard(self, piece: str) -> str | None:
        return self.pieces[piece].guard

    def with_pieces(self, **changes: Piece) -> TableState:
        pieces = dict(self.pieces)
        pieces.update(changes)
        return replace(self, pieces=pieces)

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        pieces = {}
        for pid in ALL_IDS:
            p = self.pieces[pid]
            entry: dict[str, Any] = {"status": p.status}
            if p.pos is not None:
                entry["pos"] = [mm(p.pos[0]), mm(p.pos[1])]
            if p.guard:
                entry["guard"] = p.guard
            pieces[pid] = entry
        return {
            "schema": SCHEMA,
            "phase": self.phase,
            "turn": self.turn,
            "first": self.first,
            "owed": dict(self.owed),
            "stack": list(self.stack),
            "shots": self.shots,
            "result": self.result.to_json() if self.result else None,
            "pieces": pieces,
        }

    @classmethod
    def from_json(cls, data: Any) -> TableState:
        """Read and validate a table state; an inconsistent one is refused with the reason."""
        check_schema(data, SCHEMA, "table state")
        f = Fields(data, "state")
        f.text("schema")
        pf = f.table("pieces")
        missing = [p for p in ALL_IDS if not pf.has(p)]
        if missing:
            raise KangleError(
                f"state.pieces: {', '.join(missing)} missing; all 34 ids must be listed once"
            )
        pieces = {pid: _read_piece(pf.table(pid), pid) for pid in ALL_IDS}
        pf.done()
        owed = f.table("owed")
        result = f.raw("result", None)
        state = cls(
            pieces=pieces,
            phase=f.choice("phase", PHASES),
            turn=f.choice("turn", (None, *COLOURS), None),
            first=f.choice("first", (None, *COLOURS), None),
            owed={"red": owed.count("red"), "black": owed.count("black")},
            stack=tuple(check_id(p) for p in f.items("stack", [])),
            shots=f.count("shots", 0),
            result=_read_result(result) if result is not None else None,
        )
        owed.done()
        f.done()
        state.check()
        return state

    def check(self) -> None:
        """Consistency of the whole state (the property tests rely on this too)."""
        if set(self.pieces) != set(ALL_IDS):
            raise KangleError("state: every one of the 34 piece ids must appear exactly once")
        for pid, p in self.pieces.items():
            if is_striker(pid) and p.status != IN_HAND:
                raise KangleError(f"state: striker {pid} must be in the hand between shots")
            if p.status == IN_HAND and not is_striker(pid):
                raise KangleError(f"state: {pid} is not a striker and cannot be in the hand")
            if (p.status == ON_TABLE) != (p.pos is not None):
                raise KangleError(f"state: {pid} needs a position exactly when on the table")
            if p.guard and p.status != ON_TABLE:
                raise KangleError(f"state: {pid} is protected but not on the table")
        small = {pid for pid, p in self.pieces.items() if p.guard == SMALL}
        if set(self.stack) != small or len(self.stack) != len(small):
            raise KangleError(
                "state.stack must list every 小回 (guard 'small') exactly once, bottom first"
            )
        if self.phase in ("play", "catch_up") and self.turn is None:
            raise KangleError(f"state: phase {self.phase!r} needs a player in 'turn'")
        if self.phase == "over" and self.result is None:
            raise KangleError("state: a finished game needs a 'result'")


def _read_piece(f: Fields, pid: str) -> Piece:
    status = f.choice("status", (ON_TABLE, POCKETED, IN_HAND))
    piece = Piece(
        id=pid,
        status=status,
        pos=f.point("pos", None),
        guard=f.choice("guard", (None, SMALL, BIG), None),
    )
    f.done()
    return piece


def _read_result(data: Any) -> Result:
    f = Fields(data, "state.result")
    result = Result(
        winner=f.choice("winner", (None, *COLOURS)), rule=f.text("rule"), text=f.text("text")
    )
    f.done()
    return result


def initial_state(board: Board) -> TableState:
    """The set-up of rule 4.1, before the lag: all pieces in their rows, strikers in hand."""
    pieces = {pid: Piece(pid, ON_TABLE, pos) for pid, pos in board.setup_positions().items()}
    for striker in STRIKERS.values():
        pieces[striker] = Piece(striker, IN_HAND)
    return TableState(pieces=pieces)

