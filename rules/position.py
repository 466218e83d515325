"""A table typed by the referee in a line: a game taken up mid-way, or set right.

A referee resuming a game played on paper, or mending a table the log has wrong (a piece
knocked by a sleeve), types what the rules need, not 34 piece ids and millimetres:

    red 12 black 9 stack B05 B11 big R03 turn black owed black 1 first red

- ``red N``, ``black N``: pieces of each colour on the table (1-16); they take the lowest
  ids not named elsewhere in the line, so only protected pieces need their ids;
- ``stack ID…`` (or ``小回``): the 小回 at the centre of the inner ring, bottom first;
- ``big ID…`` (or ``大回``): the 大回, protected in the penalty ring;
- ``turn COLOUR``: who holds the shot; ``owed COLOUR N``: extra shots owed (each colour
  at most once); ``first COLOUR``: who won the lag (decides the catch-up turn; the
  holder of the shot if not given); ``catch-up``: the catch-up turn is being played.

Positions are nominal — each piece in its starting place, a 小回 at the centre, a 大回
on the penalty ring — as the rules need only which pieces stand, which are protected,
and whose shot it is. ``position_text`` writes a state back as such a line.
"""

from __future__ import annotations

import math
from typing import Any

from rules.board import Board
from rules.errors import KangleError
from rules.fields import Fields
from rules.pieces import COLOURS, STRIKERS, check_colour, check_id, colour_of, pieces_of
from rules.referee import CENTRE
from rules.state import BIG, IN_HAND, ON_TABLE, POCKETED, SMALL, Piece, TableState

_ALIASES = {"小回": "stack", "大回": "big"}
_WORDS = ("red", "black", "stack", "big", "turn", "owed", "first", "catch-up")


def parse_position(text: str) -> dict[str, Any]:
    """The line as the data of a ``table`` log entry; every problem named at once."""
    words = [_ALIASES.get(w, w.lower()) for w in text.split()]
    data: dict[str, Any] = {"stack": [], "big": [], "owed": {"red": 0, "black": 0}}
    problems: list[str] = []
    owed_named: set[str] = set()
    mentioned: set[str] = set()
    i = 0
    while i < len(words):
        word = words[i]
        mentioned.add(word)
        i += 1
        if word not in _WORDS:
            problems.append(f"{word!r} is not one of {', '.join(_WORDS)}")
            continue
        if word == "catch-up":
            data["phase"] = "catch_up"
        elif word in ("stack", "big"):
            while i < len(words) and words[i] not in _WORDS:
                data[word].append(words[i].upper())
                i += 1
        elif word in COLOURS or word == "owed":
            colour = word
            if word == "owed":
                colour = words[i] if i < len(words) else ""
                i += 1
                if colour not in COLOURS or colour in owed_named:
                    problems.append(f"owed needs a colour (red or black) once each, not "
                                    f"{colour!r}")
                    continue
                owed_named.add(colour)
            value = words[i] if i < len(words) else ""
            i += 1
            if not value.isdigit():
                problems.append(f"{word} needs a number after it, not {value!r}")
                continue
            (data["owed"] if word == "owed" else data)[colour] = int(value)
        else:  # turn, first
            value = words[i] if i < len(words) else ""
            i += 1
            if value not in COLOURS:
                problems.append(f"{word} needs a colour (red or black), not {value!r}")
                continue
            data[word] = value
    for needed in ("red", "black", "turn"):
        if needed not in mentioned:
            problems.append(f"'{needed}' is missing")
    if problems:
        raise KangleError("the table line: " + "; ".join(problems) + " (like: red 12 black 9 "
                          "stack B05 turn black owed black 1)")
    return data


def position_state(data: Any, board: Board, first: str | None = None) -> TableState:
    """The table a ``table`` entry's data describes (``parse_position``), checked: the
    counts 1-16, protected pieces of a colour among that colour's count and named once,
    at most 9 extra shots owed. ``first`` is the lag's winner when the data names none."""
    f = Fields(data, "table")
    counts = {c: _within(f.count(c), 1, 16, c) for c in COLOURS}
    stack = [_piece(p) for p in f.items("stack", [])]
    big = [_piece(p) for p in f.items("big", [])]
    turn = check_colour(f.text("turn"))
    first = check_colour(f.text("first")) if f.has("first") else (first or turn)
    owed = f.table("owed", {})
    phase = f.choice("phase", ("play", "catch_up"), "play")
    f.done()
    owed_n = {c: _within(owed.count(c, 0), 0, 9, f"owed {c}") for c in COLOURS}
    owed.done()
    named = stack + big
    if len(set(named)) != len(named):
        raise KangleError("the table: a protected piece is named twice")
    for pid in named:
        if pid in STRIKERS.values():
            raise KangleError(f"the table: {pid} is a striker, not a piece")
        if sum(colour_of(p) == colour_of(pid) for p in named) > counts[colour_of(pid)]:
            raise KangleError(f"the table: more protected {colour_of(pid)} pieces than "
                              f"{counts[colour_of(pid)]} {colour_of(pid)} on the table")
    start = board.setup_positions()
    ring = (board.inner_diameter + board.penalty_diameter) / 4  # between the two rings
    pieces = {pid: Piece(pid, POCKETED) for c in COLOURS for pid in pieces_of(c)}
    for pid in stack:
        pieces[pid] = Piece(pid, ON_TABLE, CENTRE, SMALL)
    for k, pid in enumerate(big):
        a = 2 * math.pi * k / max(len(big), 1)
        pieces[pid] = Piece(pid, ON_TABLE, (round(ring * math.cos(a), 2),
                                            round(ring * math.sin(a), 2)), BIG)
    for c in COLOURS:
        free = [p for p in pieces_of(c) if p not in named]
        for pid in free[:counts[c] - sum(colour_of(p) == c for p in named)]:
            pieces[pid] = Piece(pid, ON_TABLE, start[pid])
    for striker in STRIKERS.values():
        pieces[striker] = Piece(striker, IN_HAND)
    state = TableState(pieces=pieces, phase=phase, turn=turn, first=first, owed=owed_n,
                       stack=tuple(stack))
    state.check()
    return state


def _within(value: int, least: int, most: int, what: str) -> int:
    if not least <= value <= most:
        raise KangleError(f"the table: {what} is {value}, not {least}-{most}")
    return value


def _piece(value: Any) -> str:
    if not isinstance(value, str):
        raise KangleError(f"the table: {value!r} is not a piece id (like B05)")
    return check_id(value)


def position_text(state: TableState) -> str:
    """The state as a table line (``parse_position`` reads it back to the same table,
    but for positions)."""
    parts = [f"{c} {len(state.left(c))}" for c in COLOURS]
    if state.stack:
        parts.append("stack " + " ".join(state.stack))
    big = [pid for pid, p in state.pieces.items() if p.guard == BIG]
    if big:
        parts.append("big " + " ".join(sorted(big)))
    parts.append(f"turn {state.turn}")
    parts += [f"owed {c} {n}" for c, n in state.owed.items() if n]
    if state.first:
        parts.append(f"first {state.first}")
    if state.phase == "catch_up":
        parts.append("catch-up")
    return " ".join(parts)

