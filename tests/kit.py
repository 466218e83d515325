"""Builders for referee scenarios: tables set up by hand and shot records written out."""

from __future__ import annotations

from dataclasses import replace

from rules.board import load_board
from rules.game import lag
from rules.referee import judge
from rules.rule_profile import RuleProfile
from rules.shot import Contact, Exit, Pocketed, RefereeFacts, ShotRecord
from rules.state import ON_TABLE, POCKETED, SMALL, Piece, TableState, initial_state

BOARD = load_board("goma")
RULES = RuleProfile()


def started(first: str = "red") -> TableState:
    """The set-up position after a lag won by ``first``."""
    state, _ = lag(initial_state(BOARD), {"first": first})
    return state


def put(state: TableState, piece: str, pos, guard: str | None = None) -> TableState:
    """Move ``piece`` to ``pos`` (mm); a ``small`` guard also puts it on top of the stack."""
    state = state.with_pieces(**{piece: Piece(piece, ON_TABLE, tuple(pos), guard)})
    stack = tuple(p for p in state.stack if p != piece)
    if guard == SMALL:
        stack += (piece,)
    return replace(state, stack=stack)


def gone(state: TableState, *pieces: str) -> TableState:
    """Mark pieces as already pocketed."""
    state = state.with_pieces(**{p: Piece(p, POCKETED) for p in pieces})
    return replace(state, stack=tuple(p for p in state.stack if p not in pieces))


def shot(shooter="red", circle=None, piece=None, contacts=(), pockets=(), exits=(), final=None,
         left_circle=True, **referee) -> ShotRecord:
    """A shot record: contacts as (t, a, b[, ambiguous]), pockets as (t, piece, hole),
    exits as (t, piece, 'off'|'rim'), referee facts as keyword flags."""
    circle = circle or ("SW" if shooter == "red" else "NE")
    piece = piece or ("RS" if shooter == "red" else "BS")
    record = ShotRecord(
        shooter=shooter, circle=circle, shot_piece=piece, start=BOARD.circle_centre(circle),
        left_circle=left_circle,
        contacts=tuple(Contact(c[0], c[1], c[2], *(c[3:])) for c in contacts),
        pockets=tuple(Pocketed(*p) for p in pockets),
        exits=tuple(Exit(*e) for e in exits),
        final=dict(final or {}),
        referee=RefereeFacts(**referee),
    )
    record.check()
    return record


def run(state: TableState, record: ShotRecord, rules: RuleProfile = RULES):
    """Judge and return (next state, ruling, {rule: kind} of the calls)."""
    new, ruling = judge(state, record, BOARD, rules)
    new.check()
    return new, ruling, [(c.rule, c.kind) for c in ruling.calls]

