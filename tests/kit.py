"""Builders for referee scenarios: tables set up by hand and shot records written out."""

from __future__ import annotations

import math
from dataclasses import replace

from physics.simulate import Stroke
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
         left_circle=True, unseen=(), **referee) -> ShotRecord:
    """A shot record: contacts as (t, a, b[, ambiguous]), pockets as (t, piece, hole),
    exits as (t, piece, 'off'|'rim'), the pieces its source did not see (``unseen``),
    referee facts as keyword flags."""
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
        unseen=tuple(unseen),
    )
    record.check()
    return record


def run(state: TableState, record: ShotRecord, rules: RuleProfile = RULES):
    """Judge and return (next state, ruling, {rule: kind} of the calls)."""
    new, ruling = judge(state, record, BOARD, rules)
    new.check()
    return new, ruling, [(c.rule, c.kind) for c in ruling.calls]



def alone(*placed: tuple[str, tuple[float, float]]) -> TableState:
    """Red to shoot on an empty table but for the pieces ``placed`` (id, (x, y) mm)."""
    state = started()
    state = gone(state, *state.left("red"), *state.left("black"))
    for piece, pos in placed:
        state = put(state, piece, pos)
    return state


def cut_place(cut: float, ahead: float, circle: str = "SW") -> tuple[float, float]:
    """Where a piece stands ``ahead`` mm straight up the table (+y) from ``circle``'s centre
    so that a striker shot at 90° from that centre meets it at a cut of ``cut`` degrees
    (0: full; the piece sent off to the striker's left for a positive cut)."""
    cx, cy = BOARD.circle_centre(circle)
    reach = BOARD.striker_radius + BOARD.piece_radius
    return (cx + reach * math.sin(math.radians(cut)), cy + ahead)


def fitting_shots():
    """Five strokes that between them show every fitted physics value: two cuts (30° and
    50°: piece friction throws the piece off the line of centres), a near-full hit
    (piece restitution), two strokes off the cushions (their restitution and, at a slant,
    friction); all show sliding friction. (state, Stroke) pairs."""
    return [
        (alone(("B05", cut_place(30, 220))), Stroke("red", "SW", 90.0, 3.0)),
        (alone(("B05", cut_place(50, 260))), Stroke("red", "SW", 90.0, 3.5)),
        (alone(("B07", cut_place(-12, 300, "SE"))), Stroke("red", "SE", 90.0, 2.5)),
        (alone(("R03", (0.0, 200.0))), Stroke("red", "SE", 150.0, 3.0)),
        (alone(("R03", (0.0, 200.0))), Stroke("red", "SW", 20.0, 4.0)),
    ]
