"""Shot notation: one line a referee types in seconds, expanded to a shot record.

Like chess's SAN, the line says what happened in the order it happened and nothing the
rules do not need: no times, no millimetres unless a placement needs one, and a piece
by its colour alone wherever which one it was changes no call. docs/notation.md has
the grammar with an example for each rule; in short::

    [CIRCLE] [@FREE] CONTACT... EVENT... FOUL...
    SE xB05 B05>NW          from SE, hit B05 first, B05 into the NW hole
    x| xB B>NE              off a cushion onto a black piece, a black piece into NE
    xR03 !body              hit own R03 first (廢子), and the shooter touched a piece
    x- S^                   touched nothing, the striker off the table

Tokens: ``SW``/``SE``/``NW``/``NE`` the circle (default the shooter's first); ``@R07``
a 自由子 shot instead of the striker; ``xP`` the shot piece touches P (a piece, ``|`` a
cushion, ``-`` nothing), in order; ``P>HOLE`` into a hole, ``P^`` off the table,
``P_`` onto the rim, ``P@X,Y`` comes to rest at X,Y mm; ``.`` the shot piece never left
its circle; ``!tip`` ``!cue`` ``!pivot`` ``!body`` ``!swept=P,P`` the referee-only
fouls. P is an id (``B05``), ``S`` the shot piece, or ``R``/``B``: one of that colour's
unprotected pieces on the table (kangle picks one; a protected piece is named by id).
"""

from __future__ import annotations

import math
import re

from rules.board import CORNERS, Board
from rules.errors import KangleError
from rules.pieces import ALL_PIECES, STRIKERS, check_id, colour_of
from rules.shot import Contact, Exit, Pocketed, RefereeFacts, ShotRecord, cushion
from rules.state import TableState

STEP_S = 0.1  # each event of the line is given a time this much after the one before
_FOULS = {"tip": "cue_tip_foul", "cue": "own_cue_hit", "pivot": "pivot_foul",
          "body": "body_touch"}
_PIECE = r"(?:[RB]\d\d|[RBS])"
_TOUCH = re.compile(r"^([RB]\d\d|S)x([RB]\d\d)$")
_EVENT = re.compile(rf"^({_PIECE})(>(SW|SE|NW|NE)|\^|_|@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?))$")


def parse_shot(line: str, state: TableState, board: Board) -> ShotRecord:
    """The shot record a notation line stands for, played from ``state`` by the player
    whose turn it is. Every problem is a KangleError naming the token."""
    shooter = state.turn
    if shooter is None:
        raise KangleError("nobody is to shoot: the game is not in play")
    tokens = line.split()
    if not tokens:
        raise KangleError("an empty shot: say at least what the shot piece touched first "
                          "(xB05, x| for a cushion, x- for nothing)")
    circle = board.circles_of(shooter)[0]
    if tokens[0] in CORNERS:
        circle = tokens.pop(0)
    shot_piece = STRIKERS[shooter]
    if tokens and tokens[0].startswith("@"):
        shot_piece = _own_piece(tokens.pop(0)[1:], shooter)
    picker = _Picker(state, board, shot_piece)
    contacts: list[Contact] = []
    pockets: list[Pocketed] = []
    exits: list[Exit] = []
    final: dict[str, tuple[float, float]] = {}
    referee: dict = {}
    swept: list[str] = []
    stayed = False
    t = 0.0
    for token in tokens:
        t = round(t + STEP_S, 6)
        if token == ".":
            stayed = True
        elif token.startswith("x"):
            what = token[1:]
            if what == "|":
                contacts.append(Contact(t, shot_piece, cushion(_cushion_ahead(circle))))
            elif what != "-":
                contacts.append(Contact(t, shot_piece, picker.piece(what, token)))
        elif (m := _TOUCH.match(token)) is not None:  # two other pieces touch
            a, b = picker.piece(m.group(1), token), picker.piece(m.group(2), token)
            contacts.append(Contact(t, a, b))
        elif token.startswith("!"):
            name, _, pieces = token[1:].partition("=")
            if name == "swept" and pieces:
                swept += [picker.piece(p, token) for p in pieces.split(",")]
            elif name in _FOULS and not pieces:
                referee[_FOULS[name]] = True
            else:
                raise KangleError(f"{token!r}: the referee's fouls are !tip, !cue, !pivot, "
                                  "!body and !swept=B05")
        else:
            m = _EVENT.match(token)
            if m is None:
                raise KangleError(f"{token!r} is not a shot notation token: see "
                                  "docs/notation.md (e.g. xB05, B05>NW, S^, !body)")
            piece = picker.piece(m.group(1), token)
            if m.group(3):
                pockets.append(Pocketed(t, piece, m.group(3)))
            elif m.group(2) in ("^", "_"):
                exits.append(Exit(t, piece, "off" if m.group(2) == "^" else "rim"))
            else:
                final[piece] = (float(m.group(4)), float(m.group(5)))
    moved = bool(contacts or pockets or exits or final)
    if stayed and moved:
        raise KangleError("'.' says the shot piece never left its circle and touched "
                          "nothing: no other token goes with it")
    record = ShotRecord(
        shooter=shooter, circle=circle, shot_piece=shot_piece,
        start=state.pos(shot_piece) if shot_piece != STRIKERS[shooter] else
        board.circle_centre(circle),
        left_circle=not stayed, contacts=tuple(contacts), pockets=tuple(pockets),
        exits=tuple(exits), final=final,
        referee=RefereeFacts(cue_swept=tuple(swept), **referee), source="manual",
        duration=round(t + STEP_S, 6), notation=" ".join(line.split()))
    record.check()
    return record


def _own_piece(text: str, shooter: str) -> str:
    try:
        piece = check_id(text)
    except KangleError as exc:
        raise KangleError(f"@{text}: {exc}") from None
    if piece not in ALL_PIECES or colour_of(piece) != shooter:
        raise KangleError(f"@{text}: a 自由子 is one of {shooter}'s own pieces")
    return piece


def _cushion_ahead(circle: str) -> str:
    """The cushion a shot from ``circle`` meets first when the line does not say: the
    far side (which cushion changes no call; only that it came first)."""
    return "N" if circle.startswith("S") else "S"


class _Picker:
    """Pieces as the line names them: an id, ``S`` (the shot piece), or a colour alone —
    one of that colour's unprotected pieces on the table not named before in the line."""

    def __init__(self, state: TableState, board: Board, shot_piece: str):
        self.state, self.board, self.shot_piece = state, board, shot_piece
        self.named: set[str] = set()

    def piece(self, text: str, token: str) -> str:
        if text == "S":
            return self.shot_piece
        if text in ("R", "B"):
            colour = "red" if text == "R" else "black"
            free = [p for p in self.state.left(colour)
                    if not self.state.guard(p) and p not in self.named and p != self.shot_piece]
            if not free:
                raise KangleError(f"{token!r}: no unprotected {colour} piece is left to be it: "
                                  f"name the piece by its id")
            piece = min(free, key=lambda p: math.hypot(*self.state.pos(p)))
        else:
            try:
                piece = check_id(text)
            except KangleError as exc:
                raise KangleError(f"{token!r}: {exc}") from None
        self.named.add(piece)
        return piece


def write_shot(record: ShotRecord, state: TableState, board: Board) -> str:
    """A shot record as one notation line (``parse_shot`` of it from ``state`` makes the
    same calls): the circle where it is not the shooter's first, the shot piece's
    contacts, the touches that calls rest on (a 廢子's, a protected piece's), where
    pieces went, the resting places the rules read (a protected piece's, one near the
    centre), and the referee's fouls. Pieces by id: the record knows them."""
    sp = record.shot_piece
    out = [] if record.circle == board.circles_of(record.shooter)[0] else [record.circle]
    if sp != STRIKERS[record.shooter]:
        out.append(f"@{sp}")
    touched = any(not c.other(sp).startswith("cushion:") for c in record.contacts_of(sp))
    gone = any(x.piece == sp for x in (*record.pockets, *record.exits))
    if not (record.left_circle or touched or gone):
        return " ".join(out + ["."])  # 4.4: not shot, whatever else the record says
    guarded = {p for p in state.pieces if state.pieces[p].guard}
    # touches the calls rest on: those of a 廢子 candidate (an own piece the shot piece
    # touched) or a protected piece, and of every piece they set moving after
    involved = guarded | {c.other(sp) for c in record.contacts_of(sp)
                          if not c.other(sp).startswith("cushion:")
                          and colour_of(c.other(sp)) == record.shooter}
    events = []
    for c in record.contacts:
        if sp in (c.a, c.b):
            other = c.other(sp)
            events.append((c.t, "x|" if other.startswith("cushion:") else f"x{other}"))
        elif not (c.a.startswith("cushion:") or c.b.startswith("cushion:")) and (
                {c.a, c.b} & involved):
            involved |= {c.a, c.b}
            events.append((c.t, f"{c.a}x{c.b}"))
    for p in record.pockets:
        events.append((p.t, f"{_name(p.piece, sp)}>{p.hole}"))
    for e in record.exits:
        events.append((e.t, f"{_name(e.piece, sp)}{'^' if e.where == 'off' else '_'}"))
    if not any(sp in (c.a, c.b) for c in record.contacts):
        events.insert(0, (-1.0, "x-"))
    out += [text for _, text in sorted(events, key=lambda e: e[0])]
    for piece, (x, y) in sorted(record.final.items()):
        # a resting place the rules read: a protected piece's, or one that ends or
        # starts near the centre (9.4 clears a piece off the 小回 stack)
        was = state.pos(piece) if state.on_table(piece) else (x, y)
        if piece != sp and (piece in guarded or
                            min(math.hypot(x, y), math.hypot(*was)) < board.penalty_diameter):
            out.append(f"{piece}@{round(x, 1):g},{round(y, 1):g}")
    facts = record.referee
    out += [f"!{name}" for name, key in _FOULS.items() if getattr(facts, key)]
    if facts.cue_swept:
        out.append("!swept=" + ",".join(facts.cue_swept))
    return " ".join(out)


def _name(piece: str, shot_piece: str) -> str:
    return "S" if piece == shot_piece else piece
